"""Perft speed of the Terrace move generator against the naive reference, same run.

Usage: python bench/terrace_perft.py [--depth 3] [--repeat 3]

Counts move sequences from the full 16-piece set-up with terragen's
generator (precomputed step tables, push/pop) and with the brute-force
reference generator of the tests (every from/to pair tested against the
rules, positions copied), checks both give the same count, and prints
nodes per second for each and their ratio. Best of --repeat runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from terragen.terrace.perft import perft  # noqa: E402
from terragen.terrace.position import Position  # noqa: E402


def load_reference():
    spec = importlib.util.spec_from_file_location("terrace_reference", ROOT / "tests" / "terrace" / "reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def best_time(fn, repeat: int) -> tuple[float, int]:
    best, result = float("inf"), 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--setup", default="full")
    args = ap.parse_args()
    ref = load_reference()
    pos = Position.start(args.setup)
    game = ref.RefGame({sq: (p.side, p.kind) for sq, p in pos.pieces().items()}, pos.seats, pos.to_move, pos.size)
    t_lib, n_lib = best_time(lambda: perft(pos, args.depth), args.repeat)
    t_ref, n_ref = best_time(lambda: ref.ref_perft(game, args.depth), args.repeat)
    if n_lib != n_ref:
        raise SystemExit(f"count mismatch: terragen {n_lib}, reference {n_ref}")
    print(f"python {platform.python_version()} on {platform.machine()}, set-up {args.setup}, depth {args.depth}, best of {args.repeat}")
    print(f"nodes: {n_lib}")
    print(f"terragen : {t_lib:8.3f} s  {n_lib / t_lib:12,.0f} nodes/s")
    print(f"reference: {t_ref:8.3f} s  {n_ref / t_ref:12,.0f} nodes/s")
    print(f"ratio    : {t_ref / t_lib:8.1f}x")


if __name__ == "__main__":
    main()
