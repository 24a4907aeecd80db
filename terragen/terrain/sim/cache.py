"""Per-board distance tables that survive from turn to turn.

A game changes its board only when a piece is rotated or inverted, which is
rare (one turn in six at most). So everything a policy asks about the board —
the cells a token can reach with up to 6 points, the cheapest cost to a set
of goals, the exact expected-turns table of a player — is computed once and
kept until a change makes it wrong. A rotation of piece ``i`` only changes
the arcs leaving ``i``; the cache drops exactly the entries that could have
used those arcs and keeps the rest.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from terragen.terrain.board import Board
from terragen.terrain.rules import budget_counts, step_cost

INF = float("inf")
MAX_BUDGET = 6
_ROLL_COUNTS = budget_counts()  # rolls per good-weather budget 0..6 (doubles excluded)


def bounded_reach(arcs: list, start: int, limit: int, blocked: set[int] | frozenset[int] = frozenset()) -> dict[int, int]:
    """Cheapest good-weather cost from ``start`` to every cell within ``limit``.

    Cells in ``blocked`` may not be entered at all (used when passing through
    tokens is switched off; the caller decides which cells may still be ends).
    """
    dist = {start: 0}
    heap = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, i = pop(heap)
        if d > dist[i]:
            continue
        for j, c, _ in arcs[i]:
            nd = d + c
            if nd <= limit and nd < dist.get(j, 99) and j not in blocked:
                dist[j] = nd
                push(heap, (nd, j))
    return dist


def reverse_costs(rev: list[list[tuple[int, int]]], goals: Sequence[int]) -> list[float]:
    """Cheapest cost from every cell to the nearest of ``goals`` (inf when none is reachable).

    Step costs are small whole numbers (1 to 4), so cells are kept in buckets by
    distance (Dial's algorithm) instead of a heap: the same answer, fewer operations.
    """
    dist = [INF] * len(rev)
    for g in goals:
        dist[g] = 0
    buckets: dict[int, list[int]] = {0: list(goals)}
    d = 0
    while buckets:
        cells = buckets.pop(d, None)
        if cells:
            for j in cells:
                if dist[j] != d:
                    continue
                for i, c in rev[j]:
                    nd = d + c
                    if nd < dist[i]:
                        dist[i] = nd
                        b = buckets.get(nd)
                        if b is None:
                            buckets[nd] = [i]
                        else:
                            b.append(i)
        d += 1
    return dist


_AT_LEAST = [sum(_ROLL_COUNTS[b] for b in range(c, MAX_BUDGET + 1)) for c in range(MAX_BUDGET + 1)] + [0]


def solve_layer(n: int, near: list[list[tuple[int, int]]], landing: dict[int, float]) -> list[float]:
    """Expected turns of every cell for one collection state (the analysis's algorithm,
    inlined for speed: cells settle in increasing value, like Dijkstra's algorithm).

    ``landing[g]`` is what ending a move on target ``g`` is worth; every other
    cell is worth its own value. Same numbers as :func:`terragen.terrain.expected.expected_turns_table`.
    """
    value = [INF] * n
    settled = [False] * n
    best_cost = [MAX_BUDGET + 1] * n
    acc = [0.0] * n
    at_least = _AT_LEAST
    heap = [(v, n + g) for g, v in landing.items() if v < INF]
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


def repair_after_turn(d: list[float], rev: list[list[tuple[int, int]]], arcs: list, i: int) -> list[float]:
    """Distances-to-goal ``d`` brought up to date after the exits of piece ``i`` changed.

    ``rev`` and ``arcs`` describe the new board. Returns ``d`` itself when nothing
    changed, else a new list. Only cells whose cheapest route used ``i`` are
    searched again (the standard repair of a shortest-path tree), so a turn far
    from a player's routes costs almost nothing.
    """
    old = d[i]
    if old == 0:
        return d  # a goal's own exits do not matter for reaching it
    # cells whose distance is below d[i] cannot route through i, so they are still right
    new = min((c + d[j] for j, c, _ in arcs[i] if d[j] < old), default=INF)
    if new == old:
        return d
    d = list(d)
    heap: list[tuple[float, int]] = []
    if new < old:  # a shortcut: only decreases, spreading back from i
        d[i] = new
        heap.append((new, i))
        while heap:
            dv, y = heapq.heappop(heap)
            if dv > d[y]:
                continue
            for x, c in rev[y]:
                if dv + c < d[x]:
                    d[x] = dv + c
                    heapq.heappush(heap, (dv + c, x))
        return d
    # the best exit closed: every cell whose cheapest route may pass i is searched again
    hit = {i}
    stack = [i]
    while stack:
        y = stack.pop()
        for x, c in rev[y]:
            if x not in hit and d[x] == c + d[y]:
                hit.add(x)
                stack.append(x)
    for x in hit:
        d[x] = INF
    for x in hit:
        best = min((c + d[y] for y, c, _ in arcs[x] if y not in hit), default=INF)
        if best < INF:
            d[x] = best
            heap.append((best, x))
    heapq.heapify(heap)
    while heap:
        dv, y = heapq.heappop(heap)
        if dv > d[y]:
            continue
        for x, c in rev[y]:
            if x in hit and dv + c < d[x]:
                d[x] = dv + c
                heapq.heappush(heap, (dv + c, x))
    return d


def stay_or_move_value(best_by_budget: Sequence[float]) -> float:
    """Expected turns at a cell whose best reachable value with budget ``b`` is ``best_by_budget[b]``.

    Staying is always allowed, so the value ``V`` solves
    ``36 V = 36 + sum_rolls min(V, best)``; using only budgets ``b >= b0`` to move
    and minimising over ``b0`` gives the fixed point directly.
    """
    best = INF
    total = 0.0
    rolls = 0
    for b in range(MAX_BUDGET, 0, -1):
        m = best_by_budget[b]
        if m == INF:
            break
        total += _ROLL_COUNTS[b] * m
        rolls += _ROLL_COUNTS[b]
        v = (36.0 + total) / rolls
        if v < best:
            best = v
    return best


class _LazyTable(dict):
    """``table[mask]`` of expected turns, each layer solved the first time it is asked for.

    A player who already holds some destinations never needs the layers below
    its mask, so they are never solved.
    """

    def __init__(self, cache: BoardCache, groups: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self._cache = cache
        self._groups = groups
        self[(1 << len(groups)) - 1] = [0.0] * len(cache.board)

    def __missing__(self, mask: int) -> list[float]:
        board = self._cache.board
        landing: dict[int, float] = {}
        for b, grp in enumerate(self._groups):
            if mask >> b & 1:
                continue
            above = self[mask | 1 << b]
            for g in grp:
                if board.passable(g):
                    v = above[g]
                    if v < landing.get(g, INF):
                        landing[g] = v
        layer = self[mask] = solve_layer(len(board), self._cache.near(), landing)
        return layer


class BoardCache:
    """Lazily built tables for one mutable board; call :meth:`rotated` / :meth:`inverted` after changes."""

    def __init__(self, board: Board, pips: bool = True, template: BoardCache | None = None) -> None:
        self.board = board
        self.pips = pips
        self.version = 0
        self._reach: dict[int, dict[int, int]] = {}
        self._rev: list[list[tuple[int, int]]] | None = None
        self._dist: dict[tuple[int, ...], list[float]] = {}
        self._elev_dist: dict[tuple[int, ...], list[float]] = {}
        self._tables: dict[tuple[tuple[int, ...], ...], dict[int, list[float]]] = {}
        self._elev_rev: list[list[tuple[int, int]]] | None = None
        self._near: list[list[tuple[int, int]]] | None = None
        self._tours: dict[tuple, list[float]] = {}
        self._elev_tours: dict[tuple, list[float]] = {}
        self._exits: dict[tuple[int, int], list[tuple[int, int]]] = {}
        # A template is the cache of the untouched starting board, shared by every game of a
        # run: a game starts from its tables and, until its board first changes, adds to them.
        self._template = template
        if template is not None:
            for name in ("_reach", "_dist", "_elev_dist", "_tables", "_tours", "_elev_tours", "_exits"):
                getattr(self, name).update(getattr(template, name))
            self._rev, self._elev_rev, self._near = template._rev, template._elev_rev, template._near

    def _share(self, name: str, key, value) -> None:
        if self.version == 0 and self._template is not None:
            getattr(self._template, name)[key] = value

    @property
    def arcs(self) -> list:
        return self.board.pip_arcs if self.pips else self.board.elev_arcs

    # ---- queries -------------------------------------------------------------------------
    def exits_as(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """Arcs (target, cost) piece ``cell`` would have if its exit mask were ``mask``."""
        key = (cell, mask)
        a = self._exits.get(key)
        if a is None:
            b = self.board
            lv = b.level[cell]
            a = []
            for d, j in enumerate(b.nbr[cell]):
                if mask >> d & 1 and j >= 0 and b.passable(j):
                    delta = b.level[j] - lv
                    if -3 <= delta <= 3:
                        a.append((j, step_cost(delta)))
            self._exits[key] = a
            self._share("_exits", key, a)
        return a

    def reach(self, cell: int) -> dict[int, int]:
        """Cells reachable from ``cell`` with at most 6 good-weather points, with their cost."""
        r = self._reach.get(cell)
        if r is None:
            r = self._reach[cell] = bounded_reach(self.arcs, cell, MAX_BUDGET) if self.board.passable(cell) else {cell: 0}
            self._share("_reach", cell, r)
        return r

    def _reverse(self) -> list[list[tuple[int, int]]]:
        if self._rev is None:
            rev: list[list[tuple[int, int]]] = [[] for _ in range(len(self.board))]
            for i, out in enumerate(self.arcs):
                for j, c, _ in out:
                    rev[j].append((i, c))
            self._rev = rev
            if self.version == 0 and self._template is not None:
                self._template._rev = rev
        return self._rev

    def dist_to(self, goals: tuple[int, ...]) -> list[float]:
        """Cheapest cost (move graph of the game) from every cell to the nearest of ``goals``."""
        d = self._dist.get(goals)
        if d is None:
            d = self._dist[goals] = reverse_costs(self._reverse(), goals)
            self._share("_dist", goals, d)
        return d

    def elev_dist_to(self, goals: tuple[int, ...]) -> list[float]:
        """Like :meth:`dist_to` with pips ignored: the fallback when no pip path exists."""
        d = self._elev_dist.get(goals)
        if d is None:
            if self._elev_rev is None:
                rev: list[list[tuple[int, int]]] = [[] for _ in range(len(self.board))]
                for i, out in enumerate(self.board.elev_arcs):
                    for j, c, _ in out:
                        rev[j].append((i, c))
                self._elev_rev = rev
                if self.version == 0 and self._template is not None:
                    self._template._elev_rev = rev
            d = self._elev_dist[goals] = reverse_costs(self._elev_rev, goals)
            self._share("_elev_dist", goals, d)
        return d

    def near(self) -> list[list[tuple[int, int]]]:
        """For every cell q: the cells p that reach q with 1..6 points, as (p, cost)."""
        if self._near is None:
            near: list[list[tuple[int, int]]] = [[] for _ in range(len(self.board))]
            for p in range(len(self.board)):
                for q, c in self.reach(p).items():
                    if q != p:
                        near[q].append((p, c))
            self._near = near
            if self.version == 0 and self._template is not None:
                self._template._near = near
        return self._near

    def tours(self, groups: tuple[tuple[int, ...], ...], mask: int, elev: bool = False) -> list[float]:
        """Per cell: the cheapest total cost to collect every group not in ``mask``, best order."""
        store = self._elev_tours if elev else self._tours
        key = (groups, mask)
        t = store.get(key)
        if t is None:
            dist = self.elev_dist_to if elev else self.dist_to
            n = len(self.board)
            left = [b for b in range(len(groups)) if not mask >> b & 1]
            if not left:
                t = [0.0] * n
            else:
                t = None
                for b in left:
                    rest = self.tours(groups, mask | 1 << b, elev)
                    after = min(rest[g] for g in groups[b])  # best cell of group b to go on from
                    if after == INF:
                        continue
                    # reach group b at a cell from which the rest is cheapest (exact for one-cell
                    # groups and for LOST!'s edge, where nothing follows)
                    cells = groups[b] if len(groups[b]) == 1 else tuple(g for g in groups[b] if rest[g] == after)
                    via = [x + after for x in dist(cells)] if after else dist(cells)
                    t = via if t is None else list(map(min, t, via))
                if t is None:
                    t = [INF] * n
            store[key] = t
            self._share("_elev_tours" if elev else "_tours", key, t)
        return t

    def table(self, groups: tuple[tuple[int, ...], ...]) -> dict[int, list[float]]:
        """Exact expected turns ``table[mask][cell]`` for collecting every group (any cell of a group counts)."""
        t = self._tables.get(groups)
        if t is None:
            t = self._tables[groups] = self._solve(groups)
            if self.version == 0 and self._template is not None:
                for mask in range(1 << len(groups)):
                    t[mask]  # solve every layer now: a shared table must not solve later on a changed board
                self._share("_tables", groups, t)
        return t

    def _solve(self, groups: tuple[tuple[int, ...], ...]) -> dict[int, list[float]]:
        return _LazyTable(self, groups)

    # ---- changes -------------------------------------------------------------------------
    def rotated(self, i: int, old_out: list | None = None) -> None:
        """Piece ``i`` was turned (its outgoing arcs changed, ``old_out`` were the old ones);
        repair or drop what could depend on them."""
        self.version += 1
        if not self.pips:
            return  # pips are ignored: nothing this cache holds depends on rotations
        stale = [p for p, r in self._reach.items() if p == i or r.get(i, MAX_BUDGET) < MAX_BUDGET]
        same = self._near is not None and i in self._reach
        for p in stale:
            old = self._reach.pop(p)
            if same and self.reach(p) != old:
                same = False
        if not same or len(self._reach) < len(self.board):
            # expected-turns tables rest on every cell's reach; keep them only when no reach changed
            self._near = None
            self._tables.clear()
        self._rev = None
        rev = self._reverse()
        changed = set()
        for goals, d in list(self._dist.items()):
            fixed = repair_after_turn(d, rev, self.arcs, i)
            if fixed is not d:
                self._dist[goals] = fixed
                changed.add(goals)
        if changed:  # tour tables built on a changed distance table go; the others stay right
            self._tours = {k: v for k, v in self._tours.items() if not changed.intersection(k[0])}

    def inverted(self, i: int) -> None:
        """Piece ``i`` was turned upside down: arcs into and out of it vanished; start afresh."""
        self.version += 1
        self._reach.clear()
        self._rev = None
        self._elev_rev = None
        self._dist.clear()
        self._elev_dist.clear()
        self._tables.clear()
        self._near = None
        self._tours.clear()
        self._elev_tours.clear()
        self._exits.clear()
