"""Games with Python's cycle collector paused (and a run's board states unlinked) against without.

    python bench/cycle_collector.py --players 5 --difficulty hard --seed 100001 [--repeat 3]

First a generator run (CLI defaults, two simulation processes) is recorded: every batch of games
the class search's screens asked for (layout, players, seed, games). Then those batches are played
again in one process, once as main plays them (``run_games`` pauses the collector for its game
loop; a board's kept states are unlinked when the next board comes, ``BoardCache.release``) and
once as before (collector on, states left in their reference cycles for it), each way in a fresh
process, alternating, ``--repeat`` times. Prints each run's seconds, the games' fingerprint (the
same games both ways) and the best of each way with their ratio, and the collector's own time.
"""

from __future__ import annotations

import argparse
import json
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

REPLAY = r"""
import contextlib, gc, hashlib, pickle, sys, time
sys.path.insert(0, sys.argv[3])
from terragen.terrain.sim import cache, runner
if sys.argv[2] == "before":
    runner.cycle_collector_paused = contextlib.nullcontext
    cache.BoardCache.release = lambda self: None
spent = [0.0, 0]
def timed(phase, info, t=[0.0]):
    if phase == "start":
        t[0] = time.perf_counter()
    else:
        spent[0] += time.perf_counter() - t[0]
        spent[1] += 1
gc.callbacks.append(timed)
batches = pickle.load(open(sys.argv[1], "rb"))
start = time.perf_counter()
seen = hashlib.sha256()
for layout, rules, players, seed, first, stop in batches:
    for game in runner.run_games(layout, rules, players, seed, first, stop):
        seen.update(repr((game.winners, game.rounds)).encode())
print(f"{time.perf_counter() - start:.3f} {spent[0]:.3f} {spent[1]} {seen.hexdigest()[:12]}")
"""


def record(players: int, difficulty: str, seed: int, out: Path) -> int:
    """Run the generator, keep the screens' batches of games in ``out``; how many games."""
    from terragen.terrain.generate import generate_board
    from terragen.terrain.generate.options import build_spec
    from terragen.terrain.sim import pool

    batches = []
    run = pool.GamePool.run

    def kept(self, layout, rules, specs, seed_, start, stop, *args, **kwargs):
        if any("_grow" in frame.name for frame in _stack()):
            batches.append((layout, rules, list(specs), seed_, start, stop))
        return run(self, layout, rules, specs, seed_, start, stop, *args, **kwargs)

    pool.GamePool.run = kept
    spec, _ = build_spec({"players": players, "difficulty": difficulty}, None)
    try:
        generate_board(spec, seed=seed, time_limit=60, workers=None)
    except Exception as exc:  # a run that ends without a board still screened
        print(f"the generator ended: {type(exc).__name__}: {exc}")
    finally:
        pool.GamePool.run = run
    out.write_bytes(pickle.dumps(batches))
    return sum(b[5] - b[4] for b in batches)


def _stack():
    import traceback

    return traceback.extract_stack()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--difficulty", default="hard")
    ap.add_argument("--seed", type=int, default=100001)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "batches.pkl"
        games = record(args.players, args.difficulty, args.seed, path)
        print(f"{args.players} {args.difficulty} {args.seed}: {games} screen games recorded")
        best: dict[str, float] = {}
        prints = set()
        for k in range(args.repeat):
            for way in (("before", "after") if k % 2 == 0 else ("after", "before")):
                done = subprocess.run([sys.executable, "-c", REPLAY, str(path), way, str(HERE.parent)],
                                      capture_output=True, text=True, check=True)
                seconds, collector, collections, fingerprint = done.stdout.split()
                prints.add(fingerprint)
                best[way] = min(best.get(way, float("inf")), float(seconds))
                print(json.dumps({"way": way, "seconds": float(seconds), "collector_seconds": float(collector),
                                  "collections": int(collections), "games": fingerprint}), flush=True)
        print(f"best: before {best['before']:.2f} s, after {best['after']:.2f} s "
              f"({best['before'] / best['after']:.2f}x); the same games both ways: {len(prints) == 1}")


if __name__ == "__main__":
    main()
