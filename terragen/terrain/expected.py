"""Exact expected turns for one token alone racing to its destinations.

The design contract's yardstick: ``V(goal) = 0`` and
``V(p) = 1 + 1/36 * sum over rolls of min over q reachable with that roll of V(q)``,
where a double leaves the token where it is. Because staying put is always one
of the choices, a cell's value depends only on cells whose value is no larger.
That lets us settle cells in increasing order of value, like Dijkstra's
algorithm: the unsettled cell with the smallest tentative value is exact. Each
settled cell improves every cell that can reach it within 6 movement points,
so the whole solve costs a few thousand operations per destination set — no
iteration, no sampling, exact up to floating-point rounding.

With several destinations the state is (cell, destinations collected); a
destination counts when a move ends on it. States with more collected
destinations are solved first, and landing on a new destination is worth the
already-known value of the bigger state.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from terragen.terrain.board import Board
from terragen.terrain.paths import costs_from
from terragen.terrain.rules import budget_counts

INF = float("inf")
MAX_BUDGET = 6


def _rolls_at_least() -> list[int]:
    """``n[c]`` = number of rolls whose budget covers cost ``c`` (c = 0..6), and ``n[7] = 0``."""
    counts = budget_counts()
    return [sum(counts[b] for b in range(c, MAX_BUDGET + 1)) for c in range(MAX_BUDGET + 1)] + [0]


_N_AT_LEAST = _rolls_at_least()


def near_sources(board: Board) -> list[list[tuple[int, int]]]:
    """For every cell q: the cells p with cheapest cost p->q of 1..6, as ``(p, cost)``.

    Depends only on the board, so callers solving for several players or
    destination sets compute it once and pass it on.
    """
    near: list[list[tuple[int, int]]] = [[] for _ in range(len(board))]
    for p in range(len(board)):
        for q, c in costs_from(board, p, limit=MAX_BUDGET).items():
            if q != p:
                near[q].append((p, c))
    return near


def solve_layer(n: int, near: list[list[tuple[int, int]]], landing: dict[int, float]) -> list[float]:
    """Values of every cell when landing on cell g is worth ``landing[g]`` (fixed) and
    landing on any other cell is worth that cell's own value in this layer.

    Cells settle in increasing value, like Dijkstra's algorithm. Per cell p we keep
    the cheapest cost to any already-settled target and the running sum, over the
    rolls covering it, of the values they lead to; the tentative value is then
    ``(36 + sum) / rolls covered``. The simulator solves thousands of layers, so
    this is written for speed.
    """
    value = [INF] * n
    settled = [False] * n
    best_cost = [MAX_BUDGET + 1] * n
    acc = [0.0] * n
    at_least = _N_AT_LEAST
    heap = [(v, n + g) for g, v in landing.items() if v < INF]  # index >= n: a landing target
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        v, k = pop(heap)
        if k >= n:
            q = k - n
            skip = q
        else:
            q = k
            if settled[q] or v > value[q]:
                continue
            settled[q] = True
            if q in landing:
                continue
            skip = -1
        for p, c in near[q]:
            bc = best_cost[p]
            if c >= bc or settled[p] or p == skip:
                continue
            a = acc[p] + (at_least[c] - at_least[bc]) * v
            acc[p] = a
            best_cost[p] = c
            t = (36.0 + a) / at_least[c]
            if t < value[p]:
                value[p] = t
                push(heap, (t, p))
    return value


def expected_turns_table(
    board: Board, goals: Sequence[int], near: list[list[tuple[int, int]]] | None = None
) -> dict[int, list[float]]:
    """Per-cell expected turns for every collection state.

    ``table[mask][cell]`` is the expected number of turns still needed from
    ``cell`` when the destinations whose bits are set in ``mask`` (bit ``b`` =
    ``goals[b]``) are already collected. A policy can move by it: landing on
    an uncollected destination ``goals[b]`` is worth ``table[mask | 1 << b]``.
    """
    goals = list(dict.fromkeys(goals))
    n = len(board)
    k = len(goals)
    full = (1 << k) - 1
    table: dict[int, list[float]] = {full: [0.0] * n}
    if any(not board.passable(g) for g in goals):
        for mask in range(full):
            table[mask] = [INF] * n
        return table
    near = near if near is not None else near_sources(board)
    for mask in sorted(range(full), key=lambda m: -bin(m).count("1")):
        landing = {g: table[mask | 1 << b][g] for b, g in enumerate(goals) if not mask >> b & 1}
        table[mask] = solve_layer(n, near, landing)
    return table


def expected_turns(
    board: Board, start: int, goals: Sequence[int], near: list[list[tuple[int, int]]] | None = None
) -> float:
    """Expected turns from ``start`` until every cell in ``goals`` has been landed on,
    in the best order, one token alone, optimal play, no rotations. ``inf`` if impossible."""
    if not goals:
        return 0.0
    if not board.passable(start):
        return INF
    # A token standing on a destination at the start has not ended a move there, so
    # it still has to leave and come back: mask 0 holds for every start cell.
    return expected_turns_table(board, goals, near)[0][start]


def expected_turns_map(board: Board, goal: int) -> list[float]:
    """Expected turns to a single ``goal`` from every cell (``inf`` where it cannot be reached)."""
    if not board.passable(goal):
        return [INF] * len(board)
    values = solve_layer(len(board), near_sources(board), {goal: 0.0})
    values[goal] = 0.0
    return values
