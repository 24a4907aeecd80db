"""A legal way to build a generated board at the table, seat by seat.

The rulebook's building phase: seats place in turn; each seat's first piece
goes on its own corner; every later piece goes next to a piece already on the
board; the spares stay in the box. The order is deterministic: on its turn a
seat takes the empty cell next to the board that is closest to its own corner
(ties by reading order), so each player builds mostly around their own area.
"""

from __future__ import annotations

from typing import Any

from terragen.grids import hex as hx
from terragen.terrain.layout import Layout


def build_order(layout: Layout) -> list[dict[str, Any]]:
    """Placements ``{"seat", "q", "r", "piece"}`` in order; the piece id from each cell's extra."""
    cells = layout.cell_map()
    starts = [hx.corner(layout.radius, p.corner) for p in layout.players]
    placed: set[hx.Hex] = set()
    frontier: set[hx.Hex] = set()
    order: list[dict[str, Any]] = []

    def place(seat: int, h: hx.Hex) -> None:
        placed.add(h)
        frontier.discard(h)
        for n in hx.neighbors(h):
            if n in cells and n not in placed:
                frontier.add(n)
        c = cells[h]
        order.append({"seat": layout.players[seat].seat, "q": h[0], "r": h[1],
                      "piece": str(c.extra.get("piece", f"{c.level}{c.pattern}"))})

    turn = 0
    first_done = [False] * len(starts)
    while len(placed) < len(cells):
        seat = turn % len(starts)
        turn += 1
        if not first_done[seat]:
            first_done[seat] = True
            if starts[seat] not in placed:
                place(seat, starts[seat])
                continue
        if not frontier:
            continue  # only possible before every seat has placed its corner
        h = min(frontier, key=lambda x: (hx.distance(x, starts[seat]), x[1], x[0]))
        place(seat, h)
    return order


def check_build_order(layout: Layout, order: list[dict[str, Any]]) -> list[str]:
    """Why ``order`` is not a legal building sequence for ``layout`` (empty = legal)."""
    problems = []
    cells = layout.cell_map()
    seats = [p.seat for p in layout.players]
    corner_of = {p.seat: hx.corner(layout.radius, p.corner) for p in layout.players}
    placed: set = set()
    first: dict[int, bool] = {}
    for n, step in enumerate(order):
        h = (step["q"], step["r"])
        seat = step["seat"]
        if seat != seats[n % len(seats)]:
            problems.append(f"step {n}: seat {seat} out of turn")
        if h in placed or h not in cells:
            problems.append(f"step {n}: {h} already placed or off the board")
        if seat not in first:
            first[seat] = True
            if h != corner_of[seat]:
                problems.append(f"step {n}: seat {seat}'s first piece is not on its corner")
        elif not any(nb in placed for nb in hx.neighbors(h)):
            problems.append(f"step {n}: {h} is not next to a placed piece")
        c = cells.get(h)
        if c is not None and step["piece"] != c.extra.get("piece"):
            problems.append(f"step {n}: piece {step['piece']} is not the one on {h}")
        placed.add(h)
    if placed != set(cells):
        problems.append("the order does not fill the board")
    return problems
