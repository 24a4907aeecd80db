"""Brute-force re-solvers for the tests, written from the rules, independent of the puzzle solvers.

They work on a Layout (not on Board arcs) and enumerate simple paths by
depth-first search: slow, obvious, and good enough for radius 3-4 boards.
"""

from __future__ import annotations

from terragen.grids import hex as hx
from terragen.terrain.layout import Layout
from terragen.terrain.pieces import exits


def cell_table(layout: Layout) -> dict[tuple[int, int], list]:
    """hex -> [level, pattern, rotation] (mutable, so a test can turn a piece)."""
    return {c.hex: [c.level, c.pattern, c.rotation] for c in layout.cells}


def moves(cells: dict, h: tuple[int, int]):
    level, pattern, rotation = cells[h]
    for d in exits(pattern, rotation):
        n = (h[0] + hx.DIRECTIONS[d][0], h[1] + hx.DIRECTIONS[d][1])
        if n not in cells:
            continue
        delta = cells[n][0] - level
        if abs(delta) > 3:
            continue
        cost = 1 if delta == 0 else (-delta if delta < 0 else delta + 1)
        yield n, cost


def simple_paths(cells: dict, start, goal, bound: int):
    """Every simple path start -> goal costing at most ``bound``, as (cost, path)."""
    out = []

    def dfs(h, cost, path, seen):
        if h == goal:
            out.append((cost, tuple(path)))
            return
        for n, c in moves(cells, h):
            if n not in seen and cost + c <= bound:
                seen.add(n)
                path.append(n)
                dfs(n, cost + c, path, seen)
                path.pop()
                seen.discard(n)

    dfs(start, 0, [start], {start})
    return out


def ends_within(cells: dict, start, budget: int) -> set:
    """Every cell a token can end a turn on with ``budget`` points (staying put included), by DFS."""
    out = {start}

    def dfs(h, left, seen):
        for n, c in moves(cells, h):
            if n not in seen and c <= left:
                out.add(n)
                seen.add(n)
                dfs(n, left - c, seen)
                seen.discard(n)

    dfs(start, budget, {start})
    return out


def reach(cells: dict, start) -> set:
    seen = {start}
    stack = [start]
    while stack:
        h = stack.pop()
        for n, _ in moves(cells, h):
            if n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def mask(pattern: str, rotation: int) -> frozenset:
    return frozenset(exits(pattern, rotation))
