"""Whether a sample of cycles of dice tells its own noise right: many samples of one size on one
board, each seat's rate's spread across them against the noise each sample worked out for itself
(``Tally.seat_games``), and how often a seat lands more than two of its own standard errors from the
mean of all samples (about 4.6 in 100 when the noise is told right).

    python bench/cycle_noise_calibration.py BOARD.json --samples 200 --games 2000 --policy greedy
"""

from __future__ import annotations

import argparse
import math
import statistics

from terragen.terrain.files import load_layout
from terragen.terrain.generate.fresh_checks import Tally, grow_tally
from terragen.terrain.generate.seat_check import seat_se
from terragen.terrain.sim.pool import GamePool


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board")
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--seed", type=int, default=5_500_000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    layout = load_layout(args.board)
    n = len(layout.players)
    rates, told = [], []
    with GamePool(args.workers) as pool:
        for k in range(args.samples):
            tally = Tally(args.policy, args.seed + k, n, cycle=True)
            grow_tally(layout, tally, args.games, pool)
            rates.append(tally.rates)
            told.append(seat_se(n, tally.seat_games()))
    means = [statistics.fmean(r[s] for r in rates) for s in range(n)]
    outside = sum(abs(r[s] - means[s]) > 2 * se for r, se in zip(rates, told) for s in range(n))
    told_rms = math.sqrt(statistics.fmean(se * se for se in told))
    print(f"{args.board}, {args.policy}, {args.samples} samples of {args.games} games in cycles")
    print("seat | mean rate | spread across samples (points) | noise the samples told (rms, the noisiest seat's) | ratio")
    for s in range(n):
        spread = statistics.stdev(r[s] for r in rates)
        print(f"{s} | {100 * means[s]:.2f} | {100 * spread:.3f} | {100 * told_rms:.3f} | {spread / told_rms:.2f}")
    indep = seat_se(n, args.games)
    print(f"independent games of this size: {100 * indep:.3f} points a seat; "
          f"seats more than 2 told standard errors from their mean: {outside} of {args.samples * n} "
          f"({100 * outside / (args.samples * n):.1f}%)")


if __name__ == "__main__":
    main()
