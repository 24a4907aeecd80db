"""The plain game's compiled turns against its Python turns, side by side in one process.

    python bench/fast_turns.py [--games N] [--repeat R]

For each bench board and kind of player, plays the same N games (one seed) with the compiled
turns (``terragen/terrain/sim/_fast_turns.c``) and with the Python ones, alternately, R times each,
and prints the best turns per second of each and their ratio. "cold" starts every run with no
remembered tables (as the generator meets a new board), "warm" replays games whose board states
are all known (as a long ``simulate`` run on one board mostly is). Checks that both play the same
games.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.sim import Rules, plain_game  # noqa: E402
from terragen.terrain.sim.runner import forget_tables, run_games  # noqa: E402

BOARDS = ("readme-4p-hard-seed1.json", "gen-4p-brutal-seed1907.json", "gen-5p-hard-seed2001-best-effort.json",
          "gen-6p-medium-seed902.json")
POLICIES = ("greedy", "solitary", "expert")


def _rate(layout, policy: str, games: int, compiled, warm: bool) -> tuple[float, list]:
    plain_game.FAST_TURNS = compiled
    forget_tables()
    players = [policy] * len(layout.players)
    if warm:
        run_games(layout, Rules(), players, 1, 0, games)
    start = time.perf_counter()
    results = run_games(layout, Rules(), players, 1, 0, games)
    seconds = time.perf_counter() - start
    return sum(r.total_turns for r in results) / seconds, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    compiled = plain_game.FAST_TURNS
    if compiled is None:
        sys.exit("the compiled turns were not built (no C compiler at install time?)")
    print(f"{'board':40} {'player':9} {'tables':6} {'python':>10} {'compiled':>10} {'ratio':>6}")
    for name in BOARDS:
        layout = load_layout(HERE / "boards" / name)
        for policy in POLICIES:
            games = args.games // 10 if policy == "expert" else args.games
            for warm in (False, True):
                best = {"python": 0.0, "compiled": 0.0}
                for _ in range(args.repeat):
                    fast, fast_games = _rate(layout, policy, games, compiled, warm)
                    slow, slow_games = _rate(layout, policy, games, None, warm)
                    if fast_games != slow_games:
                        sys.exit(f"{name} {policy}: the compiled turns played other games")
                    best["compiled"] = max(best["compiled"], fast)
                    best["python"] = max(best["python"], slow)
                print(f"{name:40} {policy:9} {'warm' if warm else 'cold':6} {best['python']:10.0f} "
                      f"{best['compiled']:10.0f} {best['compiled'] / best['python']:5.2f}x", flush=True)
    plain_game.FAST_TURNS = compiled


if __name__ == "__main__":
    main()
