"""A standard 4-player test board for the simulator benchmarks, built from a seed.

The 96-piece standard inventory (levels 1-8 x patterns A-D x 3) is shuffled,
91 pieces fill the radius-5 board with random rotations, players sit on
corners 0, 1, 3 and 4, and each gets two destinations that its token can
reach under the pips as laid (at least 4 hexes from its start).
"""

from __future__ import annotations

import random

from terragen.grids import hex as hx
from terragen.terrain.board import Board
from terragen.terrain.layout import Cell, Destination, Layout, Player
from terragen.terrain.paths import reachable
from terragen.terrain.pieces import standard_inventory

CORNERS = (0, 1, 3, 4)


def standard_board(seed: int, players: int = 4, destinations: int = 2) -> Layout:
    """Deterministic for a seed; tries the next fills until every player has reachable destinations."""
    corners = CORNERS if players == 4 else tuple(range(players))
    for attempt in range(1000):
        rng = random.Random(f"sim-board/{seed}/{attempt}")
        pieces = [(lv, pat) for (lv, pat), n in sorted(standard_inventory().counts.items()) for _ in range(n)]
        rng.shuffle(pieces)
        layout = Layout(5)
        for h, (lv, pat) in zip(hx.board_cells(5), pieces):
            layout.cells.append(Cell(h[0], h[1], lv, pat, rng.randrange(6)))
        board = Board.from_layout(layout)
        starts = {hx.corner(5, c) for c in corners}
        used: set = set()
        ok = True
        for seat, c in enumerate(corners):
            start = hx.corner(5, c)
            seen = reachable(board, board.index[start])
            pool = sorted(board.hexes[i] for i in seen
                          if hx.distance(board.hexes[i], start) >= 4 and board.hexes[i] not in starts | used)
            if len(pool) < destinations:
                ok = False
                break
            dests = rng.sample(pool, destinations)
            used.update(dests)
            layout.players.append(Player(seat, c, [Destination(q, r) for q, r in dests]))
        if ok:
            return layout
    raise RuntimeError("no board found")
