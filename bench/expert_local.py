"""An expert's compiled one-cell re-evaluation against the Python one, side by side in one process.

    python bench/expert_local.py [--games N] [--repeat R]

For each bench board, plays the same N expert games (one seed) from cold tables with
``ExpertPolicy._find_local``'s minima made in C (``local_best`` of ``_kernels.c``) and in Python,
alternately, R times each, and prints the best turns per second of each and their ratio. Checks that
both play the same games.
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
from terragen.terrain.sim import Rules, policies  # noqa: E402
from terragen.terrain.sim.runner import forget_tables, run_games  # noqa: E402



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    compiled = policies._LOCAL_BEST
    if compiled is None:
        sys.exit("the compiled kernels were not built (no C compiler at install time?)")
    print(f"{'board':40} {'python':>9} {'compiled':>9} {'ratio':>6}")
    for name in BOARDS:
        layout = load_layout(HERE / "boards" / name)
        best: dict[bool, float] = {True: 0.0, False: 0.0}
        games: dict[bool, list] = {}
        for _ in range(args.repeat):
            for on in (True, False):
                policies._LOCAL_BEST = compiled if on else None
                forget_tables()
                start = time.perf_counter()
                games[on] = run_games(layout, Rules(), ["expert"] * len(layout.players), 1, 0, args.games)
                seconds = time.perf_counter() - start
                best[on] = max(best[on], sum(g.total_turns for g in games[on]) / seconds)
        policies._LOCAL_BEST = compiled
        if games[True] != games[False]:
            sys.exit(f"{name}: the compiled re-evaluation played other games")
        print(f"{name:40} {best[False]:9.0f} {best[True]:9.0f} {best[True] / best[False]:5.2f}x", flush=True)


if __name__ == "__main__":
    main()
