"""How the difficulty presets' expected-turns bands were calibrated.

Measures what boards actually give: boards from the generator's randomized
construction (no repair), destinations drawn far from the start as the
construction draws them, for several roughness levels. Prints percentiles of
expected turns per seat for radius 5 and one destination (the presets' base),
the turns-per-cost ratio, the up-3 steps on cheapest routes, and the factors
for more destinations and other radii that ``presets.scale_factor`` uses.

Run: python bench/generate_calibrate.py [--boards 150]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from terragen.terrain.expected import expected_turns  # noqa: E402
from terragen.terrain.generate.construct import construct  # noqa: E402
from terragen.terrain.generate.evaluate import tour  # noqa: E402
from terragen.terrain.generate.spec import Spec  # noqa: E402
from terragen.terrain.pieces import load_inventory  # noqa: E402


def sample(radius: int, destinations: int, boards: int) -> list[tuple[int, float, int]]:
    inv = load_inventory("standard" if radius <= 5 else "extended")
    out = []
    for seed in range(boards):
        rng = random.Random(seed)
        spec = Spec(players=4, destinations=destinations, radius=radius)
        cand = construct(spec, inv, rng, [0.0, 0.3, 0.8][seed % 3])
        for s, g in zip(cand.starts, cand.dests):
            res = tour(cand.board, s, g)
            if res.cost is not None:
                out.append((res.cost, expected_turns(cand.board, s, g), res.up3))
    return out


def pct(values: list[float], ps=(0.1, 0.25, 0.5, 0.75, 0.9)) -> str:
    v = sorted(values)
    return ", ".join(f"p{int(p * 100)} {v[min(len(v) - 1, int(p * len(v)))]:.1f}" for p in ps)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=150)
    n = ap.parse_args().boards
    base = sample(5, 1, n)
    ets = [e for _, e, _ in base]
    print(f"radius 5, 1 destination, {len(base)} seats: expected turns {pct(ets)}")
    print(f"  turns per cost: {pct([e / c for c, e, _ in base])}")
    print(f"  up-3 steps on the cheapest route: {sorted(Counter(u for _, _, u in base).items())}")
    med = statistics.median(ets)
    for radius, dests in ((5, 2), (5, 3), (4, 1), (3, 1), (6, 1)):
        other = [e for _, e, _ in sample(radius, dests, n // 2)]
        print(f"radius {radius}, {dests} destination(s): median {statistics.median(other):.1f}, "
              f"factor {statistics.median(other) / med:.2f} vs radius 5 / 1 destination")


if __name__ == "__main__":
    main()
