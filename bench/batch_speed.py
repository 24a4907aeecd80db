"""Batch puzzle throughput: scenarios per minute per kind and grade, and 1 -> 2 worker scaling.

Runs the real ``run_batch`` (scenario JSON + SVG + manifest, booklet off so
the number is the puzzle work) into temporary folders and prints a Markdown
table for bench/README.md's "Batch puzzles" section, with the machine and its
load. Usage: ``python bench/batch_speed.py [--count 24] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from terragen.terrain.puzzles.batch import run_batch  # noqa: E402

KINDS = ("route", "rotation", "dice")
GRADES = ("easy", "medium", "hard")


def timed(count: int, kind: str, difficulty: str, workers: int, seed: int = 1) -> tuple[float, list[float]]:
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        s = run_batch(count, kind, difficulty, seed, Path(d) / "b", workers=workers, booklet=False)
        return time.perf_counter() - t, s["grades"]


def busy_others() -> str:
    """Other processes using CPU right now (their load skews the 2-worker figure)."""
    try:
        out = subprocess.run(["ps", "-eo", "pcpu,args", "--sort=-pcpu"], capture_output=True, text=True).stdout
    except OSError:
        return "?"
    rows = [line.strip() for line in out.splitlines()[1:6] if line.strip() and float(line.split()[0]) > 20.0]
    return "; ".join(r[:90] for r in rows if "batch_speed" not in r) or "none"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--hard-rotation-count", type=int, default=8, help="hard rotation is slow; fewer of it")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; nproc {os.cpu_count()}; "
          f"{platform.processor() or platform.machine()}; load before: {os.getloadavg()}")
    print(f"other busy processes: {busy_others()}")
    try:
        print(subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()[7].strip())
    except (OSError, IndexError):
        pass
    print()
    print(f"| kind | grade | n | grade min/mean/max | scen/min, 1 worker | scen/min, {args.workers} workers | scaling |")
    print("|---|---|---|---|---|---|---|")
    for kind in KINDS:
        for diff in GRADES:
            n = args.hard_rotation_count if (kind, diff) == ("rotation", "hard") else args.count
            if kind != "rotation":
                n *= 5  # route and dice take milliseconds: more of them, so pool start-up does not dominate
            t1, grades = timed(n, kind, diff, 1)
            t2, _ = timed(n, kind, diff, args.workers)
            print(f"| {kind} | {diff} | {n} | {min(grades)} / {statistics.mean(grades):.1f} / {max(grades)} | "
                  f"{60 * n / t1:.0f} | {60 * n / t2:.0f} | {t1 / t2:.2f}x |", flush=True)
    print(f"\nload after: {os.getloadavg()}; other busy processes: {busy_others()}")


if __name__ == "__main__":
    main()
