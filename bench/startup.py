"""Start-up and validation speed of the Terrain Game tooling.

Measures, in one run and side by side:
  * `python -c pass` (the interpreter's own floor),
  * `terragen --help`,
  * `terragen validate` on the shipped 2-, 4- and 6-player examples,
  * an eager-import baseline: the same interpreter importing every heavy
    dependency up front (what a CLI without lazy imports would pay),
and, in process, a full analysis (paths, exact expected turns, fragility) of
the 6-player example. Prints a Markdown table; paste it into bench/README.md.

Run: python bench/startup.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "terragen" / "data" / "terrain" / "examples"


def timed(cmd: list[str], repeat: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    py = sys.executable
    rows = []
    floor = timed([py, "-c", "pass"], args.repeat)
    rows.append(("python -c pass (floor)", floor))
    rows.append(("eager imports: ortools, reportlab, shapely, svgwrite",
                 timed([py, "-c", "import ortools.sat.python.cp_model, reportlab.pdfgen.canvas, shapely, svgwrite, click"], args.repeat)))
    rows.append(("terragen --help", timed([py, "-m", "terragen", "--help"], args.repeat)))
    for name in ("two-players.txt", "four-players.txt", "six-players.txt"):
        rows.append((f"terragen validate {name}", timed([py, "-m", "terragen", "validate", str(EX / name)], args.repeat)))
    sys.path.insert(0, str(ROOT))
    from terragen.terrain.analysis import analyse
    from terragen.terrain.files import load_layout

    layout = load_layout(EX / "six-players.txt")
    times = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        analyse(layout)
        times.append(time.perf_counter() - t)
    analysis = statistics.median(times)

    print(f"| what | median of {args.repeat} (s) | vs `python -c pass` |")
    print("|---|---|---|")
    for what, t in rows:
        print(f"| {what} | {t:.3f} | {t / floor:.1f}x |")
    print(f"| in process: full analysis of the 6-player example | {analysis:.4f} | - |")


if __name__ == "__main__":
    main()
