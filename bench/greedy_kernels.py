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
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fast_turns import BOARDS, best_alternately, turns_per_second  # noqa: E402  (its boards and timing helpers)
from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.sim import greedy_kernels  # noqa: E402


def _rate(layout, games: int, compiled: bool, warm: bool) -> tuple[float, list]:
    greedy_kernels.COMPILED = compiled
    return turns_per_second(layout, "greedy", games, warm)


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
            python, fast = best_alternately(lambda on: _rate(layout, args.games, on, warm), args.repeat,
                                            f"{name}: the compiled answers played other games")
            print(f"{name:40} {'warm' if warm else 'cold':6} {python:10.0f} {fast:10.0f} "
                  f"{fast / python:5.2f}x", flush=True)
    greedy_kernels.COMPILED = True


if __name__ == "__main__":
    main()
