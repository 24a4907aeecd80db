"""The yardstick: the same game and the same greedy player, written the plain way.

Every turn it runs fresh Dijkstra searches over the board (one from the token
for the reachable cells, one towards each remaining destination), and on
doubles it rebuilds them for the rotation it considers. Nothing is kept from
one turn to the next. The simulator proper must beat this by caching.
"""

from __future__ import annotations

import heapq
import random
from itertools import permutations

from terragen.terrain.board import Board
from terragen.terrain.layout import Layout
from terragen.terrain.pieces import distinct_rotations, exit_mask
from terragen.terrain.rules import step_allowed, step_cost

INF = float("inf")


def plain_arcs(board: Board, i: int, mask: int | None = None) -> list[tuple[int, int]]:
    if mask is None:
        mask = board.mask[i]
    out = []
    for d in range(6):
        j = board.nbr[i][d]
        if mask >> d & 1 and j >= 0 and board.passable(j) and board.passable(i):
            delta = board.level[j] - board.level[i]
            if step_allowed(delta):
                out.append((j, step_cost(delta)))
    return out


def dijkstra_from(board: Board, start: int, limit: float = INF) -> dict[int, int]:
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist[i]:
            continue
        for j, c in plain_arcs(board, i):
            if d + c <= limit and d + c < dist.get(j, INF):
                dist[j] = d + c
                heapq.heappush(heap, (d + c, j))
    return dist


def dijkstra_to(board: Board, goal: int) -> dict[int, int]:
    rev: dict[int, list[tuple[int, int]]] = {}
    for i in range(len(board)):
        for j, c in plain_arcs(board, i):
            rev.setdefault(j, []).append((i, c))
    dist = {goal: 0}
    heap = [(0, goal)]
    while heap:
        d, j = heapq.heappop(heap)
        if d > dist[j]:
            continue
        for i, c in rev.get(j, []):
            if d + c < dist.get(i, INF):
                dist[i] = d + c
                heapq.heappush(heap, (d + c, i))
    return dist


def tour(dists: list[dict[int, int]], goals: list[int], cell: int, left: list[int]) -> float:
    if not left:
        return 0.0
    best = INF
    for order in permutations(left):
        total = dists[order[0]].get(cell, INF)
        for a, b in zip(order, order[1:]):
            total += dists[b].get(goals[a], INF)
        best = min(best, total)
    return best


def play(layout: Layout, seed: int, cap: int = 500) -> tuple[int, int]:
    """One greedy game; returns (winner or -1, rounds). Turns taken: see :func:`turns_taken`."""
    rng = random.Random(seed)
    board = Board.from_layout(layout)
    starts = [board.index[layout.start(p)] for p in layout.players]
    goals = [[board.index[d.hex] for d in p.destinations] for p in layout.players]
    pos = list(starts)
    got = [set() for _ in starts]
    n = len(starts)
    for rnd in range(1, cap + 1):
        for s in range(n):
            white, red = rng.randint(1, 6), rng.randint(1, 6)
            left = [k for k in range(len(goals[s])) if k not in got[s]]
            dists = [dijkstra_to(board, g) for g in goals[s]]
            if white == red:
                # turn a piece on the route to the nearest destination if a new exit shortens it
                near = min(left, key=lambda k: dists[k].get(pos[s], INF))
                d = dists[near]
                if d.get(pos[s], INF) == INF:
                    continue
                cur, before, best, choice = pos[s], 0, d[pos[s]], None
                for _ in range(6):
                    if d[cur] == 0:
                        break
                    for rot in distinct_rotations(board.pattern[cur]):
                        if rot != board.rotation[cur]:
                            via = min((c + d.get(j, INF) for j, c in plain_arcs(board, cur, exit_mask(board.pattern[cur], rot))), default=INF)
                            if before + via < best:
                                best, choice = before + via, (cur, rot)
                    nxt = min((j for j, c in plain_arcs(board, cur) if d.get(j, INF) + c == d[cur]), default=None)
                    if nxt is None:
                        break
                    before += next(c for j, c in plain_arcs(board, cur) if j == nxt)
                    cur = nxt
                if choice:
                    board.set_rotation(*choice)
                continue
            budget = white // 2 if red % 2 else white
            options = dijkstra_from(board, pos[s], budget)
            occupied = {p: t for t, p in enumerate(pos) if t != s}
            best_key, best = None, pos[s]
            for q in sorted(options):
                if q in occupied and pos[occupied[q]] == starts[occupied[q]]:
                    continue
                rest = [k for k in left if goals[s][k] != q]
                key = (tour(dists, goals[s], q, rest), options[q])
                if best_key is None or key < best_key:
                    best_key, best = key, q
            if best != pos[s]:
                if best in occupied:
                    pos[occupied[best]] = starts[occupied[best]]
                pos[s] = best
                for k in left:
                    if goals[s][k] == best:
                        got[s].add(k)
                if len(got[s]) == len(goals[s]):
                    return s, rnd
    return -1, cap


def turns_taken(players: int, winner: int, rounds: int) -> int:
    """Turns all seats took in a game :func:`play` returned (seat 0 opens every round)."""
    return (rounds - 1) * players + winner + 1 if winner >= 0 else rounds * players
