"""Terralogical simulation benchmark: how decks from the designer play out.

Rerun with ``python bench/terralogical_play.py [--games N]``. It designs decks
for a few parameter settings (the default one first), plays N games per
player count and policy mix with each, and prints one table row per run:
share of games ending at the flower, stall share, mean turns, score spread,
first-player advantage, and the time per game.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from terragen.terralogical.deck import DeckParams, design_deck  # noqa: E402
from terragen.terralogical.simulate import simulate  # noqa: E402

SETTINGS = {
    "default": {},
    "clouds 0.02": {"cloud_share": 0.02},
    "clouds 0.16, 2/tile": {"cloud_share": 0.16, "max_clouds_per_tile": 2},
    "clouds 0.24, 2/tile": {"cloud_share": 0.24, "max_clouds_per_tile": 2},
    "connectors 0": {"min_connectors": 0, "min_partners": 0},
    "connectors 55": {"min_connectors": 55},
}
MIXES = [["random"] * 2, ["greedy"] * 2, ["greedy"] * 3, ["greedy"] * 4, ["rusher", "greedy"], ["careful"] * 2, ["careful"] * 4]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only-default", action="store_true")
    args = ap.parse_args()
    print(f"# {platform.node()} python {platform.python_version()} cpus={os.cpu_count()} {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| deck | players | flower | stall | turns | spread | seat-0 win | 1st-player adv. | ms/game |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, over in SETTINGS.items():
        if args.only_default and name != "default":
            continue
        params = replace(DeckParams(), **over)
        t0 = time.perf_counter()
        deck = design_deck(args.seed, params)
        design_s = time.perf_counter() - t0
        for mix in MIXES:
            t0 = time.perf_counter()
            s = simulate(deck.tiles, len(mix), args.games, args.seed, mix)
            ms = (time.perf_counter() - t0) * 1000 / args.games
            print(
                f"| {name} (design {design_s:.1f}s) | {'/'.join(mix)} | {s['flower_share']:.1%} | {s['stall_share']:.1%} "
                f"| {s['turns_mean']} | {s['spread_mean']} | {s['win_share'][0]:.1%} | {s['first_player_advantage']:+.1%} | {ms:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
