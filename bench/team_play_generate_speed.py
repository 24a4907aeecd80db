"""How long ``generate --team-play`` takes, old code against new and against no flag, on fresh specs.

    python bench/team_play_generate_speed.py --before DIR [--specs 4:easy:122011,...]

``DIR`` is a checkout of the code to compare with (compiled modules copied in, as in
``bench/team_speed.py``). For every spec: ``generate --team-play`` with the old code and with this
checkout (in turns: old first on odd specs, new first on even ones), then this checkout without the flag,
all with ``--workers 1`` (the board is the same whatever the count), so that the CPU seconds of the
process are all the work: a worker process left to end with the pool is not counted in a parent's
resource usage, and on a machine shared with other work the wall time says little. Printed as Markdown:
CPU and wall seconds of each, and whether the two ``--team-play`` runs wrote the same board (they must:
the team players' games did not change). Then the medians and their ratios. Why: the faster team players (``bench/README.md``, "Team play: faster,
the same games") shorten ``--team-play``'s team check, whose 6,400 team games were most of its time.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPECS = "4:easy:122011,4:medium:122012,4:hard:122013,4:brutal:122014,6:medium:122015,6:hard:122016"


def run(tree: Path, out: Path, seats: str, preset: str, seed: str, flags: list[str]) -> tuple[float, float, bool]:
    """Wall and CPU seconds of one ``generate`` on one worker, and whether it succeeded."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "terragen", "generate", "--players", seats, "--difficulty", preset,
                        "--seed", seed, "--out", str(out), "-q", "--workers", "1", *flags], capture_output=True, text=True, env=env,
                       cwd=str(out.parent), check=False)
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.returncode == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--specs", default=SPECS, help="seats:preset:seed, comma-separated")
    a = ap.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; before = {a.before}\n")
    print("| seats | preset | seed | --team-play before: CPU / wall (s) | --team-play after: CPU / wall (s) | "
          "without the flag, after: CPU / wall (s) | same board |")
    print("|---|---|---|---|---|---|---|")
    got: dict[str, list[tuple[float, float]]] = {"before": [], "after": [], "without": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i, spec in enumerate(a.specs.split(",")):
            seats, preset, seed = spec.split(":")
            runs = [("before", a.before, ["--team-play"]), ("after", ROOT, ["--team-play"])]
            runs = (runs if i % 2 == 0 else runs[::-1]) + [("without", ROOT, [])]
            cells = {}
            for kind, tree, flags in runs:
                out = Path(tmp) / f"{kind}-{spec.replace(':', '-')}"
                wall, cpu, ok = run(tree, out, seats, preset, seed, flags)
                got[kind].append((wall, cpu))
                cells[kind] = f"{cpu:.1f} / {wall:.1f}" + ("" if ok else " (failed)")
            boards = [(Path(tmp) / f"{k}-{spec.replace(':', '-')}" / "board.json") for k in ("before", "after")]
            same = all(b.exists() for b in boards) and boards[0].read_bytes() == boards[1].read_bytes()
            print(f"| {seats} | {preset} | {seed} | {cells['before']} | {cells['after']} | {cells['without']} | "
                  f"{'yes' if same else 'NO'} |", flush=True)
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in got.items()}
    print(f"\nmedian CPU / wall seconds: --team-play before {med['before'][1]:.1f} / {med['before'][0]:.1f}, "
          f"after {med['after'][1]:.1f} / {med['after'][0]:.1f}, without the flag {med['without'][1]:.1f} / "
          f"{med['without'][0]:.1f}; --team-play before/after {med['before'][1] / med['after'][1]:.2f}x CPU "
          f"({med['before'][0] / med['after'][0]:.2f}x wall); --team-play after / without "
          f"{med['after'][1] / med['without'][1]:.2f}x CPU ({med['after'][0] / med['without'][0]:.2f}x wall)")


if __name__ == "__main__":
    main()
