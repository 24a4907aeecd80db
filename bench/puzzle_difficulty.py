"""Time and grade of batch puzzles per kind for hard and brutal, on seeds the presets were never tuned on.

Also runs, side by side in the same process, the baseline: hard with its old
open-ended grade band (before brutal capped it), to give the cost of the cap.

Run: PYTHONPATH=. python bench/puzzle_difficulty.py [SEED] [N]
"""

from __future__ import annotations

import statistics
import sys
import time

from terragen.terrain.puzzles import make_puzzle
from terragen.terrain.puzzles.grading import PRESETS


def measure(kind: str, difficulty: str, seed: int, n: int) -> tuple[float, list[float]]:
    t0 = time.perf_counter()
    grades = [make_puzzle(kind, difficulty, seed, i).metrics["grade"] for i in range(n)]
    return (time.perf_counter() - t0) / n, grades


def show(label: str, secs: float, grades: list[float]) -> None:
    print(f"{label:<26} {secs:6.2f} s/puzzle  grade min {min(grades):5.1f}  "
          f"median {statistics.median(grades):5.1f}  max {max(grades):5.1f}", flush=True)


seed = int(sys.argv[1]) if len(sys.argv) > 1 else 301
n = int(sys.argv[2]) if len(sys.argv) > 2 else 6
for kind in ("route", "rotation", "dice"):
    hard = PRESETS[kind]["hard"]
    capped = hard["grade"]
    for difficulty in ("hard", "brutal"):
        show(f"{kind} {difficulty}", *measure(kind, difficulty, seed, n))
    hard["grade"] = (capped[0], None)  # baseline: the band before the cap
    try:
        show(f"{kind} hard (open, baseline)", *measure(kind, "hard", seed, n))
    finally:
        hard["grade"] = capped
