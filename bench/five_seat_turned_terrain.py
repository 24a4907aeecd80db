"""Five seats: does a sixth of a turn of the terrain part the seats of a class less, or differently?

    python bench/five_seat_turned_terrain.py --difficulty hard --first-seed 99911 --seeds 6 [--games 6000]

A five-seat board is a terrain that a turn by 120 degrees maps onto itself, with corner 5 empty:
the classes {0, 2, 4} and {1, 3} (`docs/generate-design.md`, "Five seats on a turned board"). What stops
most hard and brutal searches is the three-seat class's seats parting by several points on a
terrain whatever its destinations (`bench/five_seat_within_spread.py`). The same terrain turned by
60 degrees is as valid a board (every seat's images meet the same bands) with the other orbit of
corners holding the empty one: the new three-seat class takes the old two-seat class's destinations
(and the empty corner's image of them), the new two-seat class the old three-seat class's. If its
seats part independently of the original's, a search could try that turn before a new terrain.

For each seed this generates the board as the CLI does (two processes, 60 s limit), checks that a
third of a turn maps its terrain onto itself (which also checks the turn used here), builds the
turned board, and plays ``--games`` greedy games on each (the same seed): it prints both boards'
seat rates, the three-seat class's spread (largest minus smallest seat) and the two-seat class's gap.
The original's destinations were tuned by the search and the turned board's were not, so its classes
may sit further from fair; the spread within a class is what is compared.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from terragen.terrain.generate import generate_board  # noqa: E402
from terragen.terrain.generate.options import build_spec  # noqa: E402
from terragen.terrain.generate.symmetry import map_hex, map_piece, turn  # noqa: E402
from terragen.terrain.layout import Destination, Layout  # noqa: E402
from terragen.terrain.pieces import exit_mask  # noqa: E402
from terragen.terrain.sim import win_rates  # noqa: E402

CLASS_A, CLASS_B = (0, 2, 4), (1, 3)


def turned(layout: Layout, steps: int) -> Layout:
    """``layout``'s terrain turned by ``steps`` sixths (cells and pieces), seats left on their corners."""
    perm = turn(steps)
    out = copy.deepcopy(layout)
    for cell in out.cells:
        cell.q, cell.r = map_hex((cell.q, cell.r), perm)
        cell.pattern, cell.rotation = map_piece(cell.pattern, cell.rotation, perm)
    return out


def terrain(layout: Layout) -> set:
    """The cells as (position, level, exits, upside down): turns of a piece that give it the same exits
    are the same board."""
    return {(c.q, c.r, c.level, exit_mask(c.pattern, c.rotation), c.inverted) for c in layout.cells}


def sixth_turned(layout: Layout) -> Layout:
    """The board turned by 60 degrees: the seat on corner ``c`` gets the image of the destinations of
    the seat on corner ``c - 1`` (corner 5's, empty, being the third-turn image of corner 3's)."""
    by_corner = {p.corner: [(d.q, d.r) for d in p.destinations] for p in layout.players}
    by_corner[5] = [map_hex(h, turn(2)) for h in by_corner[3]]
    for c in range(6):  # the board's own third of a turn takes each seat's destinations to the next of its class
        if sorted(map_hex(h, turn(2)) for h in by_corner[c]) != sorted(by_corner[(c + 2) % 6]):
            sys.exit(f"corner {(c + 2) % 6}'s destinations are not the image of corner {c}'s")
    out = turned(layout, 1)
    for p in out.players:
        p.destinations = [Destination(*map_hex(h, turn(1))) for h in by_corner[(p.corner - 1) % 6]]
    return out


def spreads(rates: list[float]) -> tuple[float, float]:
    a = [100 * rates[s] for s in CLASS_A]
    b = [100 * rates[s] for s in CLASS_B]
    return max(a) - min(a), abs(b[0] - b[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--difficulty", default="hard")
    parser.add_argument("--first-seed", type=int, required=True)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--games", type=int, default=6000)
    args = parser.parse_args()
    rows = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        flags = {"players": 5, "difficulty": args.difficulty, "seed": seed, "time_limit": 60, "destinations": None,
                 "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}
        spec, _ = build_spec(flags, None)
        board = generate_board(spec, seed, 60, workers=None)
        if terrain(turned(board, 2)) != terrain(board):
            sys.exit(f"5 {args.difficulty} {seed}: a third of a turn does not map the terrain onto itself")
        games = args.games - args.games % 5
        base = win_rates(board, games, 8_800_000 + seed, workers=2)
        other = win_rates(sixth_turned(board), games, 8_800_000 + seed, workers=2)
        rows.append((spreads(list(base)), spreads(list(other))))
        fmt = " ".join(f"{100 * r - 20:+5.1f}" for r in base)
        fmt2 = " ".join(f"{100 * r - 20:+5.1f}" for r in other)
        print(f"5 {args.difficulty} {seed}: board [{fmt}] spread {rows[-1][0][0]:.1f} gap {rows[-1][0][1]:.1f} | "
              f"turned [{fmt2}] spread {rows[-1][1][0]:.1f} gap {rows[-1][1][1]:.1f}", flush=True)
    print(f"three-seat class spread, median: board {statistics.median(r[0][0] for r in rows):.1f}, "
          f"turned {statistics.median(r[1][0] for r in rows):.1f} points ({games} greedy games each; noise alone "
          f"about {1.69 * 100 * (0.16 / games) ** 0.5:.1f})")


if __name__ == "__main__":
    main()
