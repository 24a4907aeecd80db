"""What the simulation gate costs `terragen generate`, end to end (fresh process per run).

For each spec, 5 seeds, the median wall time with the gate (200 greedy games
per candidate, the default) and with `--no-gate`, measured side by side in the
same run. Prints a Markdown table for bench/README.md.

Run: python bench/generate_gate.py
"""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPECS = [(2, "hard"), (4, "medium"), (4, "hard"), (6, "medium")]


def run(players: int, difficulty: str, seed: int, out: Path, extra: list[str]) -> float:
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "terragen", "generate", "--players", str(players), "--difficulty",
                        difficulty, "--seed", str(seed), "--out", str(out), *extra],
                       capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - t if p.returncode == 0 else math.nan


def main() -> None:
    print("| spec | median s, --no-gate | median s, with gate | gate runs solved |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for players, difficulty in SPECS:
            gated, plain = [], []
            for seed in range(1, 6):
                gated.append(run(players, difficulty, seed, Path(tmp) / f"g{players}{difficulty}{seed}", []))
                plain.append(run(players, difficulty, seed, Path(tmp) / f"n{players}{difficulty}{seed}", ["--no-gate"]))
            ok = [x for x in gated if not math.isnan(x)]
            print(f"| {players} seats, {difficulty} | {statistics.median(plain):.2f} | "
                  f"{statistics.median(ok) if ok else math.nan:.2f} | {len(ok)}/5 |")


if __name__ == "__main__":
    main()
