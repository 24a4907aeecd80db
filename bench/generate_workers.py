"""Generator wall time with one simulation process against two (``TERRAGEN_WORKERS``).

For each spec, ``terragen generate`` runs as a user runs it (a fresh process, the fork
server and its workers started inside), once with ``TERRAGEN_WORKERS=1`` and once with
``TERRAGEN_WORKERS=2``, back to back and in alternating order so that a change in the
machine's load hits both alike; repeated ``--repeat`` times. Also checks that both
write the same bytes. Prints a Markdown table (median wall seconds, the ratio, the
CPU seconds the run used, the load average seen); paste it into bench/README.md.

Run: python bench/generate_workers.py [--repeat 3] [--spec "4 medium 1" ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPECS = ["4 medium 1", "4 medium 2", "4 medium 3", "6 easy 1", "3 medium 1"]


def generate(players: str, difficulty: str, seed: str, workers: int, out: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the run and its workers, exit code)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_WORKERS=str(workers))
    cmd = [sys.executable, "-m", "terragen", "generate", "--players", players, "--difficulty", difficulty,
           "--seed", seed, "--out", str(out), "--force", "--no-progress"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    code = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False).returncode
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, code


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--spec", action="append", help='"PLAYERS DIFFICULTY SEED"; repeatable')
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores, load average at start {os.getloadavg()[0]:.1f}", file=sys.stderr)
    print("| spec | 1 process: wall s | 2 workers: wall s | ratio | CPU s (1 / 2) | load | same bytes |")
    print("|---|---|---|---|---|---|---|")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.spec or SPECS:
            players, difficulty, seed = spec.split()
            walls: dict[int, list[float]] = {1: [], 2: []}
            cpus: dict[int, list[float]] = {1: [], 2: []}
            loads, same = [], True
            for k in range(args.repeat):
                boards = {}
                for workers in ((1, 2) if k % 2 == 0 else (2, 1)):
                    out = Path(tmp) / f"w{workers}"
                    loads.append(os.getloadavg()[0])
                    wall, cpu, code = generate(players, difficulty, seed, workers, out)
                    walls[workers].append(wall if code == 0 else float("nan"))
                    cpus[workers].append(cpu)
                    boards[workers] = (out / "board.json").read_bytes() if code == 0 else None
                same = same and boards[1] is not None and boards[1] == boards[2]
            one, two = statistics.median(walls[1]), statistics.median(walls[2])
            ratios.append(one / two)
            print(f"| {players} seats {difficulty} seed {seed} | {one:.1f} | {two:.1f} | {one / two:.2f}x "
                  f"| {statistics.median(cpus[1]):.1f} / {statistics.median(cpus[2]):.1f} "
                  f"| {min(loads):.1f}-{max(loads):.1f} | {'yes' if same else 'NO'} |", flush=True)
    print(f"\nmedian ratio (1 process / 2 workers): {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
