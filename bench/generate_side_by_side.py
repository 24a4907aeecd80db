"""Two versions of the generator on the same specs, interleaved: the way to compare a change.

    git worktree add /tmp/before <commit>
    python bench/generate_side_by_side.py --before /tmp/before --players 4 6 --seeds 91 92 93
    python bench/generate_side_by_side.py --before /tmp/before --players 5 --difficulties hard --seeds 397 --time-limit 10

For every (seats, preset, seed) the checkout in ``--before`` and this one generate the same board
spec one after the other, in alternating order (so a drift in the machine's speed falls on both
alike), each in a fresh process with the CLI's defaults (two simulation processes, 60 s limit).
Each line gives the wall time of the generator, whether the board is a best-effort one (and whether
the time limit cut its measurements), a fingerprint of the board (terrain and destinations) and its
final checks; with ``--time-limit`` also the wall time of the whole process (Python's start and the
imports included, as a user's command has them), against the limit. The summary gives totals,
medians and the ratio per seat count. Why interleaved and not two grids at once: two grids on two cores share them
unevenly, and one grid after the other meets different machine load.

With ``--experts`` each board is also played by experts, as many games as ``terragen simulate`` plays by
default, on a seed no search uses (``EXPERT_SEED`` + the spec's seed; a board both versions wrote alike is
played once), and the line gives its worst seat and verdict: the generator checks greedy and solitary
players only unless asked, so this is how a change is seen to move experts. ``--after-checks-experts``
makes this checkout generate as ``terragen generate --check-experts`` does; ``--both-check-experts``
makes both do (a change to the option itself).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXPERT_SEED = 8_100_000  # + the spec's seed: the experts' check, far from the generator's seeds

ONE_RUN = r"""
import hashlib, json, os, sys, time
from terragen.terrain.generate import BalanceSettings, generate_board
from terragen.terrain.generate.options import build_spec
if __name__ == "__main__":
    players, difficulty, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    limit = float(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
    flags = {"players": players, "destinations": None, "difficulty": difficulty, "seed": seed, "time_limit": limit,
             "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}
    spec, run = build_spec(flags, None)
    t0 = time.monotonic()
    settings = BalanceSettings().with_experts() if os.environ.get("SIDE_BY_SIDE_CHECK_EXPERTS") else BalanceSettings()
    layout = generate_board(spec, seed, run["time_limit"], balance=settings, workers=None)
    wall = time.monotonic() - t0
    record = layout.extra["meta"].get("balance", {})
    board = [(c.q, c.r, c.pattern, c.rotation, c.level) for c in layout.cells]
    board += [[d.hex for d in p.destinations] for p in layout.players]
    if len(sys.argv) > 5:
        from terragen.terrain.files import save_layout
        save_layout(layout, sys.argv[5])
    print(json.dumps({"seconds": round(wall, 2), "best_effort": bool(record.get("best_effort")),
                      "time_limited": bool(record.get("time_limited")),
                      "board": hashlib.sha256(json.dumps(board).encode()).hexdigest()[:8],
                      "checks": [f"{c['policy']} {c['games']} games {100 * c['worst_deviation']:.2f}"
                                 for c in record.get("verification", [])]}))
"""


def run_one(checkout: Path, players: int, difficulty: str, seed: int, limit: float | None = None,
            board_file: Path | None = None, check_experts: bool = False) -> dict:
    import json
    import time

    env = dict(os.environ, PYTHONPATH=str(checkout))
    env.pop("SIDE_BY_SIDE_CHECK_EXPERTS", None)
    if check_experts:
        env["SIDE_BY_SIDE_CHECK_EXPERTS"] = "1"
    began = time.monotonic()
    extra = [str(limit) if limit is not None else "", str(board_file)] if board_file else (
        [str(limit)] if limit is not None else [])
    out = subprocess.run([sys.executable, "-c", ONE_RUN, str(players), difficulty, str(seed), *extra], env=env,
                         capture_output=True, text=True, check=True, cwd=checkout)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["process_seconds"] = round(time.monotonic() - began, 2)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="a checkout of the version to compare against")
    ap.add_argument("--players", type=int, nargs="+", default=[4, 6])
    ap.add_argument("--difficulties", nargs="+", default=["easy", "medium", "hard", "brutal"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[91, 92, 93])
    ap.add_argument("--time-limit", type=float, default=None,
                    help="seconds (default: the CLI's 60); also reports each whole process's time against it")
    ap.add_argument("--experts", action="store_true",
                    help="also play each board with experts at simulate's default games (fresh seed)")
    ap.add_argument("--after-checks-experts", action="store_true",
                    help="this checkout generates as `generate --check-experts` does (with --before a checkout of "
                         "the same commit: the option against the default)")
    ap.add_argument("--both-check-experts", action="store_true",
                    help="both checkouts generate as `generate --check-experts` does (a change to the option)")
    args = ap.parse_args()
    times: dict[int, list[tuple[float, float]]] = {}
    experts: dict[str, tuple[float, bool]] = {}  # board fingerprint -> worst seat (points), BALANCED
    tally = {"before": [], "after": []}
    tmp = Path(tempfile.mkdtemp(prefix="side-by-side-"))
    k = 0
    for players in args.players:
        for difficulty in args.difficulties:
            for seed in args.seeds:
                k += 1
                order = [("before", args.before), ("after", ROOT)]
                got = {name: run_one(path, players, difficulty, seed, args.time_limit,
                                     tmp / f"{name}.json" if args.experts else None,
                                     check_experts=args.both_check_experts or (args.after_checks_experts and name == "after"))
                       for name, path in (order if k % 2 else order[::-1])}
                for name in ("before", "after"):
                    r = got[name]
                    if args.experts:
                        if r["board"] not in experts:
                            experts[r["board"]] = expert_check(tmp / f"{name}.json", EXPERT_SEED + seed)
                        worst, ok = experts[r["board"]]
                        tally[name].append((worst, ok))
                        r["checks"].append(f"expert {worst:.2f} {'BALANCED' if ok else 'not balanced'}")
                    limited = " (time-limited)" if r.get("time_limited") else ""
                    whole = (f" (process {r['process_seconds']:.2f} s, limit {args.time_limit:g})"
                             if args.time_limit is not None else "")
                    print(f"{name:6s} {players} {difficulty:6s} {seed} {r['seconds']:6.2f} s{whole}"
                          f"{' best-effort' if r['best_effort'] else ''}{limited} board {r['board']} "
                          f"{'; '.join(r['checks'])}", flush=True)
                times.setdefault(players, []).append((got["before"]["seconds"], got["after"]["seconds"]))
    for players, pairs in times.items():
        before, after = [a for a, _ in pairs], [b for _, b in pairs]
        print(f"{players} seats, {len(pairs)} specs: total {sum(before):.1f} -> {sum(after):.1f} s "
              f"({sum(before) / sum(after):.2f}x), median {statistics.median(before):.2f} -> "
              f"{statistics.median(after):.2f} s")
    for name, seen in tally.items():
        if seen:
            print(f"experts, {name}: BALANCED on {sum(ok for _, ok in seen)} of {len(seen)} boards, worst seat "
                  f"median {statistics.median(w for w, _ in seen):.2f} points, at most {max(w for w, _ in seen):.2f}")


def expert_check(board: Path, seed: int) -> tuple[float, bool]:
    """The worst seat's distance from fair (points) with experts at ``terragen simulate``'s default games,
    and its BALANCED verdict (margin 2.5 points)."""
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.runner import DEFAULT_MARGIN, default_games, win_rates

    layout = load_layout(board)
    n = len(layout.players)
    rates = win_rates(layout, default_games(n, DEFAULT_MARGIN, n), seed, "expert", workers=0)
    worst = max(abs(r - 1.0 / n) for r in rates)
    return 100 * worst, worst <= DEFAULT_MARGIN


if __name__ == "__main__":
    main()
