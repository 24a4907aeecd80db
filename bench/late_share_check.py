"""One spec generated with another late share (``LATE_SHARE``: when a board the experts' glance
refuses is kept), and the written board played by experts on fresh games.

    python bench/late_share_check.py PLAYERS DIFFICULTY SEED SHARE [--expert-games 4000]

Prints the generation's seconds, whether the board is verified or best-effort, the glance's verdict
and reading, and the worst seat for experts on ``--expert-games`` games of seed 8,100,000 + SEED.
"""

from __future__ import annotations

import argparse
import time

import terragen.terrain.generate as generate
from terragen.terrain.generate import BalanceSettings, generate_board
from terragen.terrain.generate.options import build_spec
from terragen.terrain.sim.runner import win_rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", type=int)
    ap.add_argument("difficulty")
    ap.add_argument("seed", type=int)
    ap.add_argument("share", type=float)
    ap.add_argument("--expert-games", type=int, default=4000)
    args = ap.parse_args()
    generate.LATE_SHARE = {args.players: args.share}
    spec, _ = build_spec({"players": args.players, "difficulty": args.difficulty, "seed": args.seed, "time_limit": 60,
                          "destinations": None, "radius": None, "inventory": None, "placement": None, "shape": None,
                          "symmetry": None}, None)
    began = time.monotonic()
    layout = generate_board(spec, args.seed, 60, balance=BalanceSettings(), best_effort=True, workers=None)
    took = time.monotonic() - began
    record = layout.extra["meta"]["balance"]
    glance = record.get("expert_glance") or {}
    rates = win_rates(layout, args.expert_games, 8_100_000 + args.seed, "expert")
    worst = max(abs(r - 1 / args.players) for r in rates)
    print(f"{args.players} {args.difficulty} {args.seed} late at {args.share}: {took:.1f} s, "
          f"{'best-effort' if record.get('best_effort') else 'verified'}, glance {glance.get('verdict', '-')} "
          f"{100 * glance.get('pooled_worst_deviation', 0):.2f}, experts' worst seat {100 * worst:.2f} points")


if __name__ == "__main__":
    main()
