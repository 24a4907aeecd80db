"""How often the seat-by-seat fresh check passes a five-seat board, by the board's true rates.

Each check is drawn, not played: the games of a board whose seats truly win ``rates`` are
drawn at random (multinomial), grown through the check's sizes exactly as
``terragen.terrain.generate.seat_check.seat_check`` grows a real sample. For each shape of
true rates it prints the chance that one default ``terragen simulate`` run calls such a board
BALANCED (the truth the check is about), how often the check passes it, and the mean number
of fresh games the check played.

    python bench/seat_check_draws.py --checks 2000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SHAPES = {  # points from a fair 20%, seat by seat
    "fair": [0, 0, 0, 0, 0],
    "spread 0.5": [0.5, 0.25, 0, -0.25, -0.5],
    "spread 0.7": [0.7, 0.35, 0, -0.35, -0.7],
    "one seat +1.0": [1.0, -0.25, -0.25, -0.25, -0.25],
    "spread 1.0": [1.0, 0.5, 0, -0.5, -1.0],
    "two seats +-1.0": [1.0, 1.0, 0, -1.0, -1.0],
    "spread 1.15": [1.15, 0.575, 0, -0.575, -1.15],
    "one seat +1.33": [1.33, -0.3325, -0.3325, -0.3325, -0.3325],
    "spread 1.3": [1.3, 0.65, 0, -0.65, -1.3],
    "one seat +1.5": [1.5, -0.375, -0.375, -0.375, -0.375],
    "one seat +1.75": [1.75, -0.4375, -0.4375, -0.4375, -0.4375],
    "one seat +2.0": [2.0, -0.5, -0.5, -0.5, -0.5],
    "one seat -2.0": [-2.0, 0.5, 0.5, 0.5, 0.5],
    "spread 2.0": [2.0, 1.0, 0, -1.0, -2.0],
}


def main() -> None:
    import numpy as np

    from terragen.terrain.generate.balance import BalanceSettings
    from terragen.terrain.generate.fresh_checks import Tally, _chunked
    from terragen.terrain.generate.seat_check import SEAT_LOOKS, seat_check
    from terragen.terrain.sim.runner import default_games
    from terragen.terrain.sim.stats import balanced_odds

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checks", type=int, default=2000, help="drawn checks per shape")
    ap.add_argument("--threshold", type=float, default=0.015, help="every seat within this (greedy players' 1.5 points)")
    ap.add_argument("--push", type=float, default=None, help="the check's SEAT_PUSH instead of the code's")
    ap.add_argument("--clearly-out", type=float, default=None,
                    help="the check's SEAT_CLEARLY_OUT (when it stops early on a miss) instead of the code's")
    ap.add_argument("--solitary", action="store_true", help="solitary players' threshold (2.0 points) instead")
    args = ap.parse_args()
    if args.clearly_out is not None:
        import terragen.terrain.generate.seat_check as seat_check_module

        seat_check_module.SEAT_CLEARLY_OUT = args.clearly_out
    if args.solitary:
        args.threshold = 0.02
    if args.push is not None:
        import terragen.terrain.generate.seat_check as seat_check_module

        seat_check_module.SEAT_PUSH = args.push
    n, settings = 5, BalanceSettings()
    base = settings.games_for(n)[2]
    sizes = [_chunked(look * base, n) for look in SEAT_LOOKS]
    rng = np.random.default_rng(2026_11_27)
    from terragen.terrain.generate import seat_check as seat_check_module

    print(f"five seats, check sizes {sizes}, {args.checks} drawn checks per shape, push {seat_check_module.SEAT_PUSH}, "
          f"clearly out {seat_check_module.SEAT_CLEARLY_OUT}, threshold {args.threshold}")
    print(f"{'true rates':18} {'simulate BALANCED':>18} {'check passes':>13} {'mean games':>11}")
    for name, points in SHAPES.items():
        rates = [0.2 + p / 100 for p in points]
        passed = games = 0
        for _ in range(args.checks):
            tally = Tally("greedy", 0, n)

            def play(size: int) -> None:
                more = rng.multinomial(size - tally.played, rates)
                tally.wins = [w + int(m) for w, m in zip(tally.wins, more)]
                tally.played = size

            ok = seat_check(play, tally, sizes, args.threshold, settings.margin)[1]
            passed += ok
            games += tally.played
        truth = balanced_odds(rates, default_games(n, settings.margin, n), settings.margin)
        print(f"{name:18} {truth:18.3f} {passed / args.checks:13.3f} {games / args.checks:11.0f}")


if __name__ == "__main__":
    main()
