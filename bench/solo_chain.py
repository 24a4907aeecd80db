"""The exact solo-greedy race (``terragen/terrain/sim/lone_chain.py``) against the 200 sampled games it replaced.

    python bench/solo_chain.py bench/boards/*.json
    python bench/solo_chain.py bench/boards/gen-4p-medium-seed1001.json --candidates 24

Per seat of each board: the chain's size, its CPU time and that of 200 lone games (set-up included,
as the generator paid it per destination), and the largest gap between the chain's finishing-round
distribution and 20,000 sampled games (it should be sampling noise, about 0.004-0.006). Then, with
``--candidates``, what the sampling cost the ranking: seat 0's destination is moved over that many
cells, and the race of every seat's solo game is worked out both ways, the sampled one on one seed
for every candidate as the generator did; the gap in seat 0's win chance is split into its mean (a
bias common to every candidate) and its spread from one candidate to the next (what reorders them).
"""

from __future__ import annotations

import argparse
import bisect
import copy
import dataclasses
import math
import statistics
import time

from terragen.grids import hex as hx
from terragen.terrain.files import load_layout
from terragen.terrain.layout import Destination
from terragen.terrain.race import race_for_layout, race_of
from terragen.terrain.sim.lone_chain import lone_chain
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.runner import forget_tables, run_games
from terragen.terrain.sim.variants import Rules

SOLO_GAMES = 200


def alone(layout, seat: int):
    one = copy.deepcopy(layout)
    one.players = [one.players[seat]]
    return one


def sampled_cdf(layout, games: int, seed: int) -> tuple[float, ...]:
    played = run_games(layout, Rules(), ["greedy"], seed, 0, games)
    rounds = sorted(g.rounds for g in played if not g.capped)
    return tuple(bisect.bisect_right(rounds, t) / games for t in range(max(rounds, default=0) + 1))


def per_seat(path: str) -> None:
    layout = load_layout(path)
    greedy = load_policy("greedy")
    for seat in range(len(layout.players)):
        one = alone(layout, seat)
        t0 = time.process_time()
        chain = lone_chain(one, Rules(), greedy)
        t1 = time.process_time()
        forget_tables()
        t2 = time.process_time()
        sampled_cdf(one, SOLO_GAMES, 7)
        t3 = time.process_time()
        big = sampled_cdf(one, 20_000, 99)
        gap = max(abs(chain.cdf[min(t, len(chain.cdf) - 1)] - big[min(t, len(big) - 1)])
                  for t in range(max(len(chain.cdf), len(big))))
        print(f"| {path.split('/')[-1]} | {seat} | {chain.states} | {1000 * (t1 - t0):.1f} | {1000 * (t3 - t2):.1f} "
              f"| {gap:.4f} |")


def ranking_noise(path: str, candidates: int, seed: int) -> None:
    layout = load_layout(path)
    greedy = load_policy("greedy")
    start = layout.start(layout.players[0])
    cells = [(c.q, c.r) for c in layout.cells if hx.distance((c.q, c.r), start) >= 4][::3]
    errors = []
    for cell in cells:
        if len(errors) >= candidates:
            break
        trial = copy.deepcopy(layout)
        trial.players[0].destinations = [Destination(*cell)]
        races = race_for_layout(trial).seats
        exact, sampled = [], []
        for seat, race in enumerate(races):
            one = alone(trial, seat)
            cdf = lone_chain(one, Rules(), greedy).cdf
            drawn = sampled_cdf(one, SOLO_GAMES, seed)
            exact.append(dataclasses.replace(race, cdf=cdf, expected_rounds=sum(1 - f for f in cdf)))
            sampled.append(dataclasses.replace(race, cdf=drawn, expected_rounds=sum(1 - f for f in drawn)))
        if any(math.isinf(r.expected_rounds) for r in exact + sampled):
            continue
        errors.append(race_of(sampled).win_probability_rotating[0] - race_of(exact).win_probability_rotating[0])
    print(f"| {path.split('/')[-1]} | {len(errors)} | {100 * statistics.mean(errors):+.2f} "
          f"| {100 * statistics.stdev(errors):.2f} | {100 * max(abs(e) for e in errors):.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--candidates", type=int, default=24, help="destinations of seat 0 compared (0: skip)")
    ap.add_argument("--seed", type=int, default=1234, help="the sampled solo games' seed")
    args = ap.parse_args()
    print("| board | seat | chain states | chain ms | 200 games ms | gap to 20,000 games |")
    print("|---|---|---|---|---|---|")
    for path in args.boards:
        per_seat(path)
    if args.candidates:
        print()
        print("| board | candidates | seat 0: mean (sampled - exact), points | spread (sd) | largest |")
        print("|---|---|---|---|---|")
        for path in args.boards:
            ranking_noise(path, args.candidates, args.seed)


if __name__ == "__main__":
    main()
