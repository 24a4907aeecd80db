"""Cheapest paths and reachability on a board's move graphs.

Bad weather doubles every step, so the cheapest path is the same in both
weathers and its bad-weather cost is exactly twice the good one; we search
with good-weather costs only. Ties between equally cheap paths are broken by
the fewest up-3 steps and then by cell order, so results are deterministic.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from terragen.terrain.board import Arc, Board
from terragen.terrain.compiled import load
from terragen.terrain.rules import BAD_WEATHER_FACTOR, MAX_CLIMB
from terragen.terrain.work_meter import COSTS, charge

INF = float("inf")
#: the compiled search of ``_kernels.c`` (``bounded_reach``), or None: the same steps as
#: :func:`_dijkstra_python` for limits up to ``_COMPILED_LIMIT`` and arcs of at most ``_COMPILED_STEP``
#: points (it answers None to anything else). Why: the generator's analysis of every terrain it tries
#: runs tens of thousands of these searches in its main process, a tenth of a five-seat run's own work.
_KERNELS = load("terragen.terrain._kernels")
_COMPILED = getattr(_KERNELS, "bounded_reach", None)
#: :func:`cheapest_path` and :func:`reachable` compiled (``_kernels.c``), or None. Why: the terrain
#: search scores every move it tries by every seat's cheapest tour, and these searches were about a
#: third of a five-seat brutal run's main process, while the simulation processes waited for it
_COMPILED_PATH = getattr(_KERNELS, "cheapest_path", None)
_COMPILED_REACHABLE = getattr(_KERNELS, "reachable_cells", None)
_COMPILED_LIMIT = 98
_COMPILED_STEP = 6


def _arcs(board: Board, pips: bool) -> list[list[Arc]]:
    return board.pip_arcs if pips else board.elev_arcs


def reachable(board: Board, start: int, pips: bool = True) -> set[int]:
    """Every cell a token on ``start`` can ever get to (``start`` included)."""
    charge(COSTS["reach"])
    if not board.passable(start):
        return set()
    arcs = _arcs(board, pips)
    if _COMPILED_REACHABLE is not None:
        seen = _COMPILED_REACHABLE(arcs, start)
        if seen is not None:
            return seen
    seen = {start}
    stack = [start]
    while stack:
        i = stack.pop()
        for j, _, _ in arcs[i]:
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


def opening_turns(board: Board, start: int, goal: int, most: int = 1) -> list[tuple[int, int]]:
    """Up to ``most`` single turns of one piece each, ``(cell, rotation)``, after which a token on
    ``start`` can reach ``goal`` under the pips, nearest the goal first; the board is left as it was.
    (At most one by default: the page checks after every edit, and every turn of every piece the token
    reaches is a search of its own.)

    Why: "cannot reach ... with the pieces as they are turned now" told a builder nothing about
    where to act (one turned the destination itself through all six ways, to no end). Only the
    pieces the token can already reach are worth trying: leaving them needs an exit of one of them,
    and the piece entered needs none."""
    inside = reachable(board, start)
    if goal in inside:
        return []
    found: list[tuple[int, int]] = []
    from terragen.grids import hex as hx

    for cell in sorted(inside, key=lambda i: (hx.distance(board.hexes[i], board.hexes[goal]), i)):
        before = board.rotation[cell]
        for k in range(1, 6):
            board.set_rotation(cell, before + k)
            if goal in reachable(board, start):
                found.append((cell, (before + k) % 6))
                break  # another turn of the same piece is no other piece
        board.set_rotation(cell, before)
        if len(found) >= most:
            break
    return found


def _dijkstra(arcs: list[list[Arc]], source: int, limit: int | None) -> dict[int, int]:
    charge(COSTS["dijkstra"])
    if _COMPILED is not None and (limit is None or 0 <= limit <= _COMPILED_LIMIT):
        dist = _COMPILED(arcs, source, _COMPILED_LIMIT if limit is None else limit)
        # with no limit, the compiled search (cut at its own) is the whole one when no cell it settled
        # had an arc that could have passed the cut
        if dist is not None and (limit is not None or max(dist.values()) <= _COMPILED_LIMIT - _COMPILED_STEP):
            return dist
    return _dijkstra_python(arcs, source, limit)


def _dijkstra_python(arcs: list[list[Arc]], source: int, limit: int | None) -> dict[int, int]:
    """Cheapest costs from ``source`` (up to ``limit``), the keys in the order the cells are first reached."""
    dist = {source: 0}
    heap = [(0, source)]
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist[i]:
            continue
        for j, c, _ in arcs[i]:
            nd = d + c
            if limit is not None and nd > limit:
                continue
            if nd < dist.get(j, INF):
                dist[j] = nd
                heapq.heappush(heap, (nd, j))
    return dist


def costs_from(board: Board, start: int, pips: bool = True, limit: int | None = None) -> dict[int, int]:
    """Cheapest good-weather cost from ``start`` to every reachable cell (up to ``limit``)."""
    if not board.passable(start):
        return {}
    return _dijkstra(_arcs(board, pips), start, limit)


def costs_to(board: Board, goal: int, pips: bool = True, limit: int | None = None) -> dict[int, int]:
    """Cheapest good-weather cost from every cell that can reach ``goal`` (search on reversed arcs)."""
    if not board.passable(goal):
        return {}
    reverse: list[list[Arc]] = [[] for _ in range(len(board))]
    for i, out in enumerate(_arcs(board, pips)):
        for j, c, delta in out:
            reverse[j].append((i, c, -delta))
    return _dijkstra(reverse, goal, limit)


@dataclass(frozen=True)
class PathResult:
    """The cheapest route between two cells, or an unreachable verdict."""

    cells: tuple[int, ...]  # cell indices from start to goal; empty when unreachable
    cost: int | None  # good-weather movement points

    @property
    def reachable(self) -> bool:
        return self.cost is not None

    @property
    def cost_bad(self) -> int | None:
        return None if self.cost is None else self.cost * BAD_WEATHER_FACTOR


def cheapest_path(board: Board, start: int, goal: int, pips: bool = True) -> PathResult:
    """Cheapest path; among equal costs the one with the fewest up-3 steps."""
    charge(COSTS["cheapest_path"])
    if not (board.passable(start) and board.passable(goal)):
        return PathResult((), None)
    arcs = _arcs(board, pips)
    if _COMPILED_PATH is not None:
        found = _COMPILED_PATH(arcs, start, goal, MAX_CLIMB)
        if found is not None:
            return PathResult(*found) if found else PathResult((), None)
    return cheapest_path_python(arcs, start, goal)


def cheapest_path_python(arcs: list[list[Arc]], start: int, goal: int) -> PathResult:
    """:func:`cheapest_path`'s search in Python (passable start and goal): the reference of the
    compiled one, and what runs without it."""
    best: dict[int, tuple[int, int]] = {start: (0, 0)}
    prev: dict[int, int] = {}
    heap = [(0, 0, start)]
    while heap:
        d, u3, i = heapq.heappop(heap)
        if (d, u3) > best[i]:
            continue
        if i == goal:
            break
        for j, c, delta in arcs[i]:
            key = (d + c, u3 + (delta == MAX_CLIMB))
            if key < best.get(j, (INF, INF)):
                best[j] = key
                prev[j] = i
                heapq.heappush(heap, (key[0], key[1], j))
    if goal not in best:
        return PathResult((), None)
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    path.reverse()
    return PathResult(tuple(path), best[goal][0])


def min_up3_on_cheapest(board: Board, start: int, goal: int) -> int | None:
    """The fewest up-3 steps any cheapest pip path from ``start`` to ``goal`` takes.

    This is the number of unavoidable up-3 steps a player faces when racing on
    the cheapest route: every cheapest path has at least this many.
    """
    res = cheapest_path(board, start, goal)
    if not res.reachable:
        return None
    return sum(1 for a, b in zip(res.cells, res.cells[1:]) if board.level[b] - board.level[a] == MAX_CLIMB)
