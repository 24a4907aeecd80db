"""Seat fairness of TerraFlip under simulated play (rerunnable; not part of the tests).

For each player count and policy: play N seeded games, report mean points and
win rate per seat without and with the rulebook's turn-order bonus, propose the
bonus that evens the mean scores, then play N fresh games (another seed) with
that bonus to see whether it evens the win rates too.

    python bench/terraflip_play.py [--games 200] [--seed 1] [--policies memory,greedy,random]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from terragen.terraflip.rules import Options  # noqa: E402
from terragen.terraflip.simulate import PlaySpec, simulate, win_rates  # noqa: E402


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--policies", default="memory,greedy,random")
    ap.add_argument("--lines", default="centres", choices=["centres", "axes"])
    args = ap.parse_args()
    print(f"# {datetime.date.today()} {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, lines={args.lines}, {args.games} games per row")
    print("| players | policy | rulebook bonus | mean points per seat | win % no bonus | win % rulebook bonus | "
          "mean-even bonus | win % (fresh seed) | win-even bonus | win % (fresh seed) | s/game |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for players in (int(p) for p in args.players.split(",")):
        for policy in args.policies.split(","):
            t0 = time.perf_counter()
            base = Options(lines=args.lines)
            r = simulate(PlaySpec(players, args.games, args.seed, (policy,)), options=base)
            per_game = (time.perf_counter() - t0) / args.games
            proposed = tuple(r["proposed_bonus"])
            fair = tuple(r["win_fair_bonus"])
            # The policies ignore the bonus, so one fresh batch can be rescored under both.
            fresh = simulate(PlaySpec(players, args.games, args.seed + 1000, (policy,)), options=base,
                             keep_games=True)["per_game"]
            rows = [[tuple(x) for x in game] for game in fresh]
            seats = r["seats"]
            print(f"| {players} | {policy} | {r['bonus']} | "
                  + " / ".join(f"{s['mean_points']:.2f}" for s in seats) + " | "
                  + " / ".join(pct(s["win_rate_without_bonus"]) for s in seats) + " | "
                  + " / ".join(pct(s["win_rate_with_bonus"]) for s in seats) + f" | {list(proposed)} | "
                  + " / ".join(pct(x) for x in win_rates(rows, proposed)) + f" | {list(fair)} | "
                  + " / ".join(pct(x) for x in win_rates(rows, fair)) + f" | {per_game:.3f} |",
                  flush=True)


if __name__ == "__main__":
    main()
