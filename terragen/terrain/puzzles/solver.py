"""Solver utilities shared by the puzzle kinds: path counting, budgeted reach, rotations.

Every step of the Terrain Game costs at least one movement point, so the
cheapest-path subgraph (arcs ``i -> j`` with ``dist[i] + cost == dist[j]``) is
acyclic and ordering cells by distance is a topological order: counting the
cheapest routes is one pass of dynamic programming over it, which is what
lets a puzzle *prove* its answer unique instead of hoping.
"""

from __future__ import annotations

from terragen.terrain.board import Board
from terragen.terrain.paths import costs_from
from terragen.terrain.pieces import distinct_rotations, exit_mask

#: Path counts are capped here: "more than this" is all any grade needs to know.
COUNT_CAP = 10_000


def count_cheapest(board: Board, start: int, goal: int) -> tuple[int | None, int, dict[int, int]]:
    """(cheapest cost or None, number of distinct cheapest routes (capped), cost map).

    Two routes are distinct when their cell sequences differ. The count is a
    DP over the cheapest-path DAG in increasing distance order.
    """
    dist = costs_from(board, start)
    if goal not in dist:
        return None, 0, dist
    ways = {start: 1}
    for i in sorted(dist, key=lambda k: (dist[k], k)):
        w = ways.get(i, 0)
        if not w:
            continue
        for j, c, _ in board.pip_arcs[i]:
            if dist.get(j) == dist[i] + c:
                ways[j] = min(COUNT_CAP, ways.get(j, 0) + w)
    return dist[goal], ways.get(goal, 0), dist


def count_walks_upto(board: Board, start: int, goal: int, limit: int) -> list[int]:
    """``out[k]`` = number of walks from start to goal costing exactly ``k`` (k <= limit), capped.

    Walks may revisit cells; with small slack above the cheapest cost they are
    essentially the near-cheapest alternative routes a solver must rule out.
    """
    table = [dict() for _ in range(limit + 1)]  # cost -> {cell: count}
    table[0][start] = 1
    for k in range(limit + 1):
        for i, w in sorted(table[k].items()):
            if i == goal:
                continue  # a route ends when it reaches the goal
            for j, c, _ in board.pip_arcs[i]:
                nk = k + c
                if nk <= limit:
                    table[nk][j] = min(COUNT_CAP, table[nk].get(j, 0) + w)
    return [table[k].get(goal, 0) for k in range(limit + 1)]


def rotation_options(board: Board, i: int) -> list[int]:
    """Rotations of piece ``i`` that change its exits (one per distinct exit set)."""
    cur = board.mask[i]
    return [k for k in distinct_rotations(board.pattern[i]) if exit_mask(board.pattern[i], k) != cur]


def equivalent_rotations(pattern: str, rotation: int) -> list[int]:
    """All rotations 0..5 giving the same exits as ``rotation`` (pattern D repeats every 2)."""
    m = exit_mask(pattern, rotation)
    return [k for k in range(6) if exit_mask(pattern, k) == m]
