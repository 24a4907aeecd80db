"""Small builders for test layouts."""

from __future__ import annotations

import random

from terragen.grids import hex as hx
from terragen.terrain.layout import Cell, Destination, Layout, Player
from terragen.templates import template_path
from terragen.terrain.rules import step_allowed, step_cost

EXAMPLES = template_path("terrain", "examples")


def random_layout(seed: int, radius: int = 5, levels=(1, 8)) -> Layout:
    rng = random.Random(seed)
    layout = Layout(radius)
    for q, r in hx.board_cells(radius):
        layout.cells.append(Cell(q, r, rng.randint(*levels), rng.choice("ABCD"), rng.randrange(6)))
    return layout


def flat_layout(radius: int, level: int = 1, pattern: str = "D", rotation: int = 0) -> Layout:
    return Layout(radius, [Cell(q, r, level, pattern, rotation) for q, r in hx.board_cells(radius)])


def with_players(layout: Layout, spec: list[tuple[int, list[tuple[int, int]]]]) -> Layout:
    layout.players = [Player(i, corner, [Destination(q, r) for q, r in dests]) for i, (corner, dests) in enumerate(spec)]
    return layout


def brute_costs(board) -> list[list[float]]:
    """Cheapest good-weather pip cost between every pair by plain relaxation (no shared path code)."""
    import math

    n = len(board)
    cost = [[math.inf] * n for _ in range(n)]
    for s in range(n):
        if not board.passable(s):
            continue
        cost[s][s] = 0
        changed = True
        while changed:
            changed = False
            for i in range(n):
                if cost[s][i] == math.inf:
                    continue
                for d in range(6):
                    j = board.nbr[i][d]
                    if j < 0 or not board.mask[i] >> d & 1 or not board.passable(j):
                        continue
                    delta = board.level[j] - board.level[i]
                    if step_allowed(delta) and cost[s][i] + step_cost(delta) < cost[s][j]:
                        cost[s][j] = cost[s][i] + step_cost(delta)
                        changed = True
    return cost
