"""Greedy players' compiled first answers against the Python policy's, side by side in one process.

    python bench/greedy_kernels.py [--games N] [--repeat R]

For each bench board, plays the same N greedy games (one seed) with the compiled first answers
(``terragen/terrain/sim/greedy_kernels.py``: ``greedy_move`` and ``own_rotation`` of ``_kernels.c``,
which the compiled turns also call) and with ``GreedyPolicy``'s own, alternately, R times each, and
prints the best turns per second of each and their ratio. "cold" starts every run with no
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

from fast_turns import BOARDS  # noqa: E402  (the same boards as the compiled turns' bench)
from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.sim import Rules, greedy_kernels  # noqa: E402
from terragen.terrain.sim.runner import forget_tables, run_games  # noqa: E402



def _rate(layout, games: int, compiled: bool, warm: bool) -> tuple[float, list]:
    greedy_kernels.COMPILED = compiled
    forget_tables()
    players = ["greedy"] * len(layout.players)
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
    parser.add_argument("--boards", nargs="*", default=list(BOARDS), help="file names under bench/boards")
    args = parser.parse_args()
    if not greedy_kernels.COMPILED:
        sys.exit("the compiled kernels were not built (no C compiler at install time?)")
    print(f"{'board':40} {'tables':6} {'python':>10} {'compiled':>10} {'ratio':>6}")
    for name in args.boards:
        layout = load_layout(HERE / "boards" / name)
        for warm in (False, True):
            best = {"python": 0.0, "compiled": 0.0}
            for _ in range(args.repeat):
                fast, fast_games = _rate(layout, args.games, True, warm)
                slow, slow_games = _rate(layout, args.games, False, warm)
                if fast_games != slow_games:
                    sys.exit(f"{name}: the compiled answers played other games")
                best["compiled"] = max(best["compiled"], fast)
                best["python"] = max(best["python"], slow)
            print(f"{name:40} {'warm' if warm else 'cold':6} {best['python']:10.0f} {best['compiled']:10.0f} "
                  f"{best['compiled'] / best['python']:5.2f}x", flush=True)
    greedy_kernels.COMPILED = True


if __name__ == "__main__":
    main()
