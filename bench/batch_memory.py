"""``terragen batch`` at scale: wall time and peak memory against the scenario count.

Runs the real command (``python -m terragen batch --kind route --difficulty
easy``, booklet on, 2 workers) as a child process for each count and reads
its peak resident memory from ``getrusage(RUSAGE_CHILDREN)`` (the largest
single process: the main one, which draws the booklet). Pass ``--tree`` to
measure another checkout (e.g. the commit before a change) side by side.

Usage: ``python bench/batch_memory.py --counts 250,500,1000,2000 [--tree /path/to/old/checkout]``;
add ``--overhead`` to time only the main process's writing with the puzzles precomputed.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def run_once(tree: Path, count: int, workers: int) -> tuple[float, float]:
    """(seconds, peak MB) of one batch run of ``count`` scenarios with the code in ``tree``."""
    with tempfile.TemporaryDirectory() as d:
        args = [sys.executable, "-c",
                "import resource,subprocess,sys;"
                "p=subprocess.run(sys.argv[1:]);"
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr);"
                "sys.exit(p.returncode)",
                sys.executable, "-m", "terragen", "batch", "--count", str(count), "--kind", "route",
                "--difficulty", "easy", "--seed", "1", "--workers", str(workers), "--out", str(Path(d) / "b"),
                "--no-progress"]
        env = dict(os.environ, PYTHONPATH=str(tree))
        t = time.perf_counter()
        proc = subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - t
        if proc.returncode != 0:
            raise SystemExit(f"batch --count {count} in {tree} failed: {proc.stderr.strip()[-300:]}")
        peak_kb = int(proc.stderr.strip().splitlines()[-1])
        return seconds, peak_kb / 1024


OVERHEAD = """
import sys, time, tempfile
from pathlib import Path
try:
    import terragen.terrain.puzzles.batch as b
except ImportError:  # a --tree from before the batch engine moved out of the command line
    import terragen.cli.batch as b
task = ("route", "easy", 1, 0)
index, text, svg, row = b.build_scenario(task)
def fake(tasks, workers):
    for t in tasks:
        i = t[3]
        r = dict(row, index=i, id=f"{i:05d}-route", json=f"scenarios/{i:05d}-route.json",
                 svg=f"scenarios/{i:05d}-route.svg")
        yield i, text, svg, r
b.run_local = fake
n = int(sys.argv[1])
with tempfile.TemporaryDirectory() as d:
    t = time.perf_counter()
    b.run_batch(n, "route", "easy", 1, Path(d) / "b", workers=1, booklet=False)
    print(time.perf_counter() - t)
"""


def overhead(tree: Path, count: int) -> float:
    """Seconds the main process spends writing ``count`` scenarios and the manifests (puzzles
    precomputed, booklet off): the part that grew faster than linear before issue 17."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", OVERHEAD, str(count)], cwd=tree, env=env, capture_output=True,
                         text=True, check=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", default="250,500,1000,2000")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--tree", type=Path, default=None, help="another checkout to measure as the baseline")
    ap.add_argument("--overhead", action="store_true",
                    help="only the main process's writing (scenario files + manifests), puzzles precomputed")
    a = ap.parse_args()
    trees = [("this tree", HERE)] + ([("baseline", a.tree)] if a.tree else [])
    print(f"date {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; nproc {os.cpu_count()}; "
          f"load {os.getloadavg()[0]:.1f}; workers {a.workers}")
    if a.overhead:
        print("| tree | count | writing seconds | ms per scenario |")
        print("|---|---|---|---|")
        for count in (int(c) for c in a.counts.split(",")):
            for name, tree in trees:
                s = overhead(tree, count)
                print(f"| {name} | {count} | {s:.1f} | {1000 * s / count:.1f} |", flush=True)
        return
    print("| tree | count | seconds | s per 1000 | peak MB |")
    print("|---|---|---|---|---|")
    for count in (int(c) for c in a.counts.split(",")):
        for name, tree in trees:
            s, mb = run_once(tree, count, a.workers)
            print(f"| {name} | {count} | {s:.1f} | {1000 * s / count:.1f} | {mb:.0f} |", flush=True)


if __name__ == "__main__":
    main()
