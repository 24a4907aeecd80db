"""Would two terrains at once, each in one process, beat one terrain at a time on two?

Runs ``generate_board`` for each seed twice in fresh processes, once with the generator's
two simulation processes and once with one (``TERRAGEN_WORKERS=1``), timing each terrain
(each ``construct`` call starts one). The games and boards are the same either way, so the
one-process times are what a terrain would take on a core of its own; the script then lays
those terrains out on two cores in order (each taken by the first free core) and reports the
time until the run's last terrain ends, against the two-process run as it is.

    python bench/parallel_terrains_model.py --players 4 --difficulty brutal --seeds 3711 3712

Why a model and not the thing: the search's result must not depend on timing, so terrain k+1
could only be kept when terrain k failed; the model gives that scheme its best case (no
cost for starting, stopping or discarding a terrain).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
import terragen.terrain.generate as G
from terragen.terrain.generate import BalanceSettings, generate_board
from terragen.terrain.generate.options import build_spec

def main():
    players, difficulty, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    stamps, construct = [], G.construct
    def timed(*a, **k):
        stamps.append(time.monotonic())
        return construct(*a, **k)
    G.construct = timed
    opts = {"players": players, "difficulty": difficulty, "seed": seed, "time_limit": 60, "destinations": None,
            "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}
    spec, _ = build_spec(opts, None)
    generate_board(spec, seed, 60, balance=BalanceSettings(), best_effort=True, workers=None)
    stamps.append(time.monotonic())
    print(json.dumps([b - a for a, b in zip(stamps, stamps[1:])]))

if __name__ == "__main__":
    main()
"""


def terrain_times(players: int, difficulty: str, seed: int, workers: int) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_WORKERS=str(workers))
    out = subprocess.run([sys.executable, "-c", CHILD, str(players), difficulty, str(seed)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def two_at_once(times: list[float]) -> float:
    """When the last of ``times`` ends, each terrain started in order on the first free of two cores."""
    cores, ends = [0.0, 0.0], []
    for t in times:
        k = cores.index(min(cores))
        cores[k] += t
        ends.append(cores[k])
    return max(ends)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="brutal")
    ap.add_argument("--seeds", type=int, nargs="+", required=True)
    args = ap.parse_args()
    total_now = total_model = 0.0
    print("seed   terrains  two processes (s)  one process (s)  two terrains at once, modelled (s)  ratio")
    for seed in args.seeds:
        now, alone = terrain_times(args.players, args.difficulty, seed, 2), terrain_times(args.players, args.difficulty, seed, 1)
        model = two_at_once(alone)
        total_now, total_model = total_now + sum(now), total_model + model
        print(f"{seed:<6} {len(now):>8}  {sum(now):>17.2f}  {sum(alone):>15.2f}  {model:>34.2f}  {sum(now) / model:.2f}x")
    print(f"all    {'':>8}  {total_now:>17.2f}  {'':>15}  {total_model:>34.2f}  {total_now / total_model:.2f}x")


if __name__ == "__main__":
    main()
