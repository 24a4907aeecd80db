"""Six seats: how far apart the two classes win when one class's destinations are the other's turned by 60 degrees.

    python bench/six_seat_turned_destinations.py [GAMES] BOARD.json ...   (default: the boards under /tmp/s26/six)

On a six-seat board the two classes' terrain differs only in its pips (the heights are six-fold), so if
pips mattered little, a pair whose second class's destinations are the first's turned by 60 degrees
would be fair for every kind of player at once. For each board this prints the generator's own pair and
both turned pairs (first class onto the second, and back), with, per kind of player, the first class's
pooled rate minus a fair share and the worst seat's distance from it (points), on GAMES games (6,000 by
default) of seed 777. Findings: bench/README.md, "Issue 12: experts at the generator's default speed".
"""

from __future__ import annotations

import glob
import json
import sys

from terragen.terrain.files import load_layout
from terragen.terrain.generate.symmetry import map_hex, turn
from terragen.terrain.layout import Destination, Layout
from terragen.terrain.sim.runner import simulate_layout

POLICIES = ("greedy", "solitary", "expert")
SEED = 777


def turned_pair(layout: Layout, from_seats: tuple[int, ...], step: int) -> Layout:
    """``layout`` with each seat of ``from_seats``' destinations turned by ``step`` sixths (1 or -1) and
    given to the seat on the next corner that way."""
    out = layout.copy()
    for s in from_seats:
        to = (s + step) % 6
        out.players[to].destinations = [Destination(*map_hex((d.q, d.r), turn(step % 6))) for d in
                                        layout.players[s].destinations]
    return out


def class_gap(layout: Layout, policy: str, games: int) -> tuple[float, float]:
    rates = [s.rate for s in simulate_layout(layout, games=games, seed=SEED, policy=policy, workers=2,
                                             margin=1.0).seats]
    return (round(100 * (sum(rates[0::2]) / 3 - 1 / 6), 2), round(100 * max(abs(r - 1 / 6) for r in rates), 2))


def main() -> None:
    args = sys.argv[1:]
    games = int(args.pop(0)) if args and args[0].isdigit() else 6000
    boards = args or sorted(glob.glob("/tmp/s26/six/*/board.json"))
    for path in boards:
        layout = load_layout(path)
        for name, pair in (("orig", layout), ("A->B", turned_pair(layout, (0, 2, 4), 1)),
                           ("B->A", turned_pair(layout, (1, 3, 5), -1))):
            print(path, name, json.dumps({p: class_gap(pair, p, games) for p in POLICIES}), flush=True)


if __name__ == "__main__":
    main()
