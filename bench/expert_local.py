"""An expert's compiled one-cell re-evaluation against the Python one, side by side in one process.

    python bench/expert_local.py [--games N] [--repeat R]

For each bench board, plays the same N expert games (one seed) from cold tables with
``ExpertPolicy._find_local`` made in C (``local_value`` of ``_kernels.c``; ``local_best``, the minima
alone, until 2026-12-03) and in Python,
alternately, R times each, and prints the best turns per second of each and their ratio. Checks that
both play the same games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fast_turns import BOARDS, best_alternately, turns_per_second  # noqa: E402  (its boards and timing helpers)
from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.sim import policies  # noqa: E402


def _rate(layout, games: int, local_value) -> tuple[float, list]:
    policies._LOCAL_VALUE = local_value
    return turns_per_second(layout, "expert", games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    compiled = policies._LOCAL_VALUE
    if compiled is None:
        sys.exit("the compiled kernels were not built (no C compiler at install time?)")
    print(f"{'board':40} {'python':>9} {'compiled':>9} {'ratio':>6}")
    for name in BOARDS:
        layout = load_layout(HERE / "boards" / name)
        python, fast = best_alternately(lambda on: _rate(layout, args.games, compiled if on else None),
                                        args.repeat, f"{name}: the compiled re-evaluation played other games")
        policies._LOCAL_VALUE = compiled
        print(f"{name:40} {python:9.0f} {fast:9.0f} {fast / python:5.2f}x", flush=True)


if __name__ == "__main__":
    main()
