"""Benchmark: build and write the complete Terrain Game print kit; time, size and page counts.

Run: python bench/render_kit.py [--paper a4|letter] [--repeat 5]
Baseline in the same run: writing one empty page through the same PDF back end,
so the ratio says how much of the time is the kit rather than reportlab start-up.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def build(paper: str, out: Path, nets: bool) -> dict[str, tuple[int, int]]:
    from terragen.render.impose import PrintOptions
    from terragen.render.output import write_document
    from terragen.render.paper import load_paper
    from terragen.render.kits.terrain.kit import terrain_kit

    opts = PrintOptions(load_paper(paper))
    result = {}
    for part in terrain_kit(opts, nets=nets):
        path = out / f"terrain-{part.name}-{paper}.pdf"
        write_document(part.doc, path)
        result[part.name] = (len(part.doc.pages), path.stat().st_size)
    return result


def baseline(out: Path) -> None:
    from terragen.render.model import Document, Page
    from terragen.render.output import write_document

    write_document(Document("empty", [Page(210.0, 297.0)]), out / "empty.pdf")


def timed(fn, repeat: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--paper", default="a4")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        t0 = time.perf_counter()
        build(args.paper, out, False)  # first run includes imports (reportlab, shapely)
        cold = time.perf_counter() - t0
        warm = timed(lambda: build(args.paper, out, False), args.repeat)
        cpu = timed(lambda: build(args.paper, out, False), args.repeat, time.process_time)
        base = timed(lambda: baseline(out), args.repeat)
        parts = build(args.paper, out, False)
        t1 = time.perf_counter()
        with_nets = build(args.paper, out, True)
        nets_time = time.perf_counter() - t1
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    print(f"paper {args.paper}: kit without nets cold {cold:.2f} s, warm median {warm:.2f} s "
          f"(baseline empty page {base * 1000:.1f} ms, ratio {warm / base:.0f}x); CPU time median {cpu:.2f} s")
    total_pages = sum(p for p, _ in parts.values())
    total_bytes = sum(b for _, b in parts.values())
    for name, (pages, size) in parts.items():
        print(f"  {name:18s} {pages:3d} pages {size / 1024:8.1f} KiB")
    print(f"  {'total':18s} {total_pages:3d} pages {total_bytes / 1024:8.1f} KiB")
    n_pages, n_size = with_nets["nets"]
    print(f"  nets (with --nets) {n_pages:3d} pages {n_size / 1024:8.1f} KiB; whole kit with nets {nets_time:.2f} s")


if __name__ == "__main__":
    main()
