"""Time and grade of batch puzzles per kind and difficulty, on seeds the presets were never tuned on.

Run: PYTHONPATH=. python bench/puzzle_difficulty.py [SEED] [N]
Prints, per kind and difficulty: seconds per puzzle and the grades (min, median, max).
"""

from __future__ import annotations

import statistics
import sys
import time

from terragen.terrain.puzzles import make_puzzle

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 301
n = int(sys.argv[2]) if len(sys.argv) > 2 else 6
for kind in ("route", "rotation", "dice"):
    for difficulty in ("hard", "brutal"):
        t0 = time.perf_counter()
        grades = [make_puzzle(kind, difficulty, seed, i).metrics["grade"] for i in range(n)]
        secs = (time.perf_counter() - t0) / n
        print(f"{kind:<8} {difficulty:<6} {secs:6.2f} s/puzzle  grade min {min(grades):5.1f}  "
              f"median {statistics.median(grades):5.1f}  max {max(grades):5.1f}", flush=True)
