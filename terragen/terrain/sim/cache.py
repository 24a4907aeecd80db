"""Per-board distance tables that survive from turn to turn and from game to game.

A game changes its board only when a piece is rotated or inverted, which is
rare (one turn in six at most). So everything a policy asks about the board —
the cells a token can reach with up to 6 points, the cheapest cost to a set
of goals, the exact expected-turns table of a player — is computed once and
kept until a change makes it wrong. A rotation of piece ``i`` only changes
the arcs leaving ``i``; the tables of the new board are derived from the old
ones, dropping exactly the entries that could have used those arcs.

The tables of every board state a run meets are kept, keyed by how the board
differs from its start (turned pieces by exit set, inverted pieces): games of
one run turn the same pieces again and again (on the benchmark boards five
rotations in six lead to a board an earlier game already had), so most turns
find their tables ready.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from functools import lru_cache

from terragen.terrain import expected
from terragen.terrain.board import Board
from terragen.terrain.expected import repair_layer, solve_layer_in_order
from terragen.terrain.rules import MAX_BUDGET, budget_counts, step_cost

INF = float("inf")
ROLL_COUNTS = budget_counts()  # rolls per good-weather budget 0..6 (doubles excluded)
#: the compiled :func:`bounded_reach_python` (``_kernels.c``), or None
_COMPILED_REACH = getattr(expected.COMPILED, "bounded_reach", None)
#: :meth:`BoardCache._patch_reach_python` compiled (``_kernels.c``: ``reach_patch``), or None
_REACH_PATCH = getattr(expected.COMPILED, "reach_patch", None)


def bounded_reach(arcs: list, start: int, limit: int, blocked: set[int] | frozenset[int] = frozenset()) -> dict[int, int]:
    """:func:`bounded_reach_python`, compiled when the optional extension was built and nothing is
    blocked (the same dict, keys in the same order): a board state met for the first time asks it
    of every cell a token stands on, the commonest first answer of a greedy game."""
    if not blocked and _COMPILED_REACH is not None:
        reach = _COMPILED_REACH(arcs, start, limit)
        if reach is not None:
            return reach
    return bounded_reach_python(arcs, start, limit, blocked)


def bounded_reach_python(arcs: list, start: int, limit: int,
                         blocked: set[int] | frozenset[int] = frozenset()) -> dict[int, int]:
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


def repair_after_turn(d: list[float], rev: list[list[tuple[int, int]]], arcs: list, i: int) -> list[float]:
    """:func:`repair_after_turn_python`, compiled when the optional extension was built (the same
    values, in the same kinds of number, and the same list back when nothing changed)."""
    kernels = expected.COMPILED
    if kernels is not None:
        fixed = kernels.repair_distances(d, rev, arcs, i)
        if fixed is not None:
            return fixed
    return repair_after_turn_python(d, rev, arcs, i)


def repair_after_turn_python(d: list[float], rev: list[list[tuple[int, int]]], arcs: list, i: int) -> list[float]:
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
        total += ROLL_COUNTS[b] * m
        rolls += ROLL_COUNTS[b]
        v = (36.0 + total) / rolls
        if v < best:
            best = v
    return best


class _LazyTable(dict):
    """``table[mask]`` of expected turns, each layer solved the first time it is asked for.

    A player who already holds some destinations never needs the layers below
    its mask, so they are never solved. The table keeps the move table and
    passable cells of the board state it belongs to (never a live board), so
    every game in that state may fill it.

    A table of a board state one turn of a piece away from another (``prior``, the same
    players' table there, and ``moved``, the cells whose reach the turn changed) repairs
    that table's layer instead of solving afresh when it can (:func:`repair_layer`: the
    same floats, and most turns change a handful of cells), unless the compiled solver is
    there (``expected.COMPILED``), which solves afresh faster than a repair in Python.
    """

    def __init__(self, near: list[list[tuple[int, int]]], passable: list[bool],
                 groups: tuple[tuple[int, ...], ...], reach: dict[int, dict[int, int]] | None = None,
                 prior: _LazyTable | None = None, moved: tuple = (), packed: bytes | None = None) -> None:
        super().__init__()
        self._near = near
        self._packed = packed  # expected.pack_near(near), made once per board state
        self._passable = passable
        self._groups = groups
        self._reach = reach
        self._prior = prior
        self._moved = moved
        self._landing: dict[int, dict[int, float]] = {}  # mask -> its landing values, for layers solved in order
        self[(1 << len(groups)) - 1] = [0.0] * len(passable)

    def __missing__(self, mask: int) -> list[float]:
        landing: dict[int, float] = {}
        for b, grp in enumerate(self._groups):
            if mask >> b & 1:
                continue
            above = self[mask | 1 << b]
            for g in grp:
                if self._passable[g]:
                    v = above[g]
                    if v < landing.get(g, INF):
                        landing[g] = v
        layer = None
        prior = self._prior
        # a repair saves work only against the Python solver: the compiled one solves afresh faster
        if expected.COMPILED is None and prior is not None and prior._landing.get(mask) == landing:
            layer = repair_layer(self._near, self._reach, landing, dict.__getitem__(prior, mask), self._moved,
                                 len(self._passable) // REPAIR_SHARE)
        if layer is None:
            layer, in_order = solve_layer_in_order(len(self._passable), self._near, landing, self._packed)
            if not in_order:
                self[mask] = layer
                return layer
        self[mask] = layer
        self._landing[mask] = landing
        return layer


#: a repair gives up, and the layer is solved afresh, once it has to work out again more than one
#: cell in REPAIR_SHARE: it costs about twice a solve's work per cell it touches. Half the layers
#: an expert game needs after a turn of a piece change at most a fifth of the cells, and a quarter
#: (4 seats) to a tenth (6 seats) more than half (the two bench boards; limits of 12 to 30 of
#: their 91 cells came within 3% of each other)
REPAIR_SHARE = 4


class _Tables:
    """Everything cached for one board state. Filled lazily; never changed once a value is in."""

    __slots__ = ("reach", "within", "rev", "dist", "tours", "tables", "near", "packed_near", "passable", "prior",
                 "elev_rev", "elev_dist", "elev_tours", "exits", "memo", "turned_to")

    def __init__(self) -> None:
        self.reach: dict[int, dict[int, int]] = {}
        self.within: dict[int, list[dict[int, int] | None]] = {}  # per cell, per budget (made lazily)
        self.rev: list[list[tuple[int, int]]] | None = None
        self.dist: dict[tuple[int, ...], list[float]] = {}
        self.tours: dict[tuple, list[float]] = {}
        self.tables: dict[tuple[tuple[int, ...], ...], dict[int, list[float]]] = {}
        self.near: list[list[tuple[int, int]]] | None = None
        self.packed_near: bytes | None = None  # expected.pack_near(near), once a table is solved from it
        self.passable: list[bool] | None = None  # per cell (a rotation keeps it, an inversion not)
        #: (the tables of the state one turn of a piece led here from, the cells whose reach the turn
        #: changed, each with the cells it reaches at a new cost)
        self.prior: tuple[dict, tuple] | None = None
        # pips ignored: these survive rotations (not inversions)
        self.elev_rev: list[list[tuple[int, int]]] | None = None
        self.elev_dist: dict[tuple[int, ...], list[float]] = {}
        self.elev_tours: dict[tuple, list[float]] = {}
        self.exits: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.memo: dict = {}  # answers policies derive from this board state alone
        #: (piece, exit mask) -> the tables of the state that turning that piece so leads to
        self.turned_to: dict[tuple[int, int], _Tables] = {}


MAX_STATES = 2048  # board states a run keeps tables for (a random player turns pieces without end)


class BoardCache:
    """Lazily built tables for one mutable board; call :meth:`rotated` / :meth:`inverted` after changes.

    ``template`` is the cache of the same starting board in an earlier game of
    the run: the new cache shares its store of board states.
    """

    def __init__(self, board: Board, pips: bool = True, template: BoardCache | None = None) -> None:
        self.board = board
        self.pips = pips
        self.version = 0
        self._start_mask = list(board.mask)
        self._start_inverted = list(board.inverted)
        self._turned: dict[int, int] = {}  # cell -> exit mask, where it differs from the start
        self._flipped: set[int] = set()  # cells whose inversion differs from the start
        if template is not None and template.pips == pips and template._start_mask == self._start_mask \
                and template._start_inverted == self._start_inverted:
            self._states = template._states
            self._seat_keys = template._seat_keys
            self.per_run = template.per_run
        else:
            self._states = {}
            self._seat_keys: dict[tuple, int] = {}
            #: what a game loop derives from the starting board and the seats alone, kept for the
            #: next game of the run (a short game spent a fifth of its time deriving it again)
            self.per_run: dict = {}
        t = self._states.get(self._key())
        if t is None:
            t = self._states[self._key()] = _Tables()
        self._t = self._home = t

    def _key(self) -> tuple:
        return (frozenset(self._turned.items()), frozenset(self._flipped))

    @property
    def arcs(self) -> list:
        return self.board.pip_arcs if self.pips else self.board.elev_arcs

    # ---- queries -------------------------------------------------------------------------
    @property
    def memo(self) -> dict:
        """A store for answers that depend only on the board state and the key a caller gives
        (a policy's choice for a given seat, cell and collection, say); it follows the board."""
        return self._t.memo

    def seat_key(self, *identity: object) -> int:
        """A small number for everything a remembered answer depends on besides the board state,
        the cell, collection and points (a player kind, start, frame and targets); the same for
        every game that shares this cache's board states, so they share their answers too."""
        return self._seat_keys.setdefault(identity, len(self._seat_keys))

    def tables_now(self) -> _Tables:
        """The current board state's tables (``within``, ``memo``): a fast loop may hold them in a
        local name, and must ask again after a rotation or inversion."""
        return self._t

    def exits_as(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """Arcs (target, cost) piece ``cell`` would have if its exit mask were ``mask``."""
        key = (cell, mask)
        exits = self._t.exits
        a = exits.get(key)
        if a is None:
            b = self.board
            lv = b.level[cell]
            a = []
            for d, j in enumerate(b.nbr[cell]):
                if mask >> d & 1 and j >= 0 and b.passable(j):
                    delta = b.level[j] - lv
                    if -3 <= delta <= 3:
                        a.append((j, step_cost(delta)))
            exits[key] = a
        return a

    def reach(self, cell: int) -> dict[int, int]:
        """Cells reachable from ``cell`` with at most 6 good-weather points, with their cost."""
        reach = self._t.reach
        r = reach.get(cell)
        if r is None:
            r = reach[cell] = bounded_reach(self.arcs, cell, MAX_BUDGET) if self.board.passable(cell) else {cell: 0}
        return r

    def within(self, cell: int, budget: int) -> dict[int, int]:
        """The part of :meth:`reach` that costs at most ``budget`` (0..6); do not change it.

        Each budget's table is made the first time it is asked for: most board states live
        for a few turns of one game, and a cell is then left with one or two of the seven."""
        row = self._t.within.get(cell)
        if row is None:
            row = self._t.within[cell] = [None] * (MAX_BUDGET + 1)
        w = row[budget]
        if w is None:
            w = row[budget] = {q: c for q, c in self.reach(cell).items() if c <= budget}
        return w

    def _reverse(self) -> list[list[tuple[int, int]]]:
        t = self._t
        if t.rev is None:
            t.rev = _reverse_of(self.arcs, len(self.board))
        return t.rev

    def dist_to(self, goals: tuple[int, ...]) -> list[float]:
        """Cheapest cost (move graph of the game) from every cell to the nearest of ``goals``."""
        dist = self._t.dist
        d = dist.get(goals)
        if d is None:
            d = dist[goals] = reverse_costs(self._reverse(), goals)
        return d

    def elev_dist_to(self, goals: tuple[int, ...]) -> list[float]:
        """Like :meth:`dist_to` with pips ignored: the fallback when no pip path exists."""
        t = self._t
        d = t.elev_dist.get(goals)
        if d is None:
            if t.elev_rev is None:
                t.elev_rev = _reverse_of(self.board.elev_arcs, len(self.board))
            d = t.elev_dist[goals] = reverse_costs(t.elev_rev, goals)
        return d

    def near(self) -> list[list[tuple[int, int]]]:
        """For every cell q: the cells p that reach q with 1..6 points, as (p, cost)."""
        t = self._t
        if t.near is None:
            near: list[list[tuple[int, int]]] = [[] for _ in range(len(self.board))]
            for p in range(len(self.board)):
                for q, c in self.reach(p).items():
                    if q != p:
                        near[q].append((p, c))
            t.near = near
        return t.near

    def tours(self, groups: tuple[tuple[int, ...], ...], mask: int, elev: bool = False) -> list[float]:
        """Per cell: the cheapest total cost to collect every group not in ``mask``, best order."""
        store = self._t.elev_tours if elev else self._t.tours
        key = (groups, mask)
        t = store.get(key)
        if t is None:
            dist = self.elev_dist_to if elev else self.dist_to
            n = len(self.board)
            left = [b for b in range(len(groups)) if not mask >> b & 1]
            if not left:
                t = [0.0] * n
            elif len(left) == 1:
                # the last group: the cost to its nearest cell, what the loop below gives with nothing
                # after it (asked for every seat on every new board state: a third of the calls here)
                t = dist(groups[left[0]])
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
        return t

    def table(self, groups: tuple[tuple[int, ...], ...]) -> dict[int, list[float]]:
        """Exact expected turns ``table[mask][cell]`` for collecting every group (any cell of a group counts)."""
        tables = self._t.tables
        t = tables.get(groups)
        if t is None:
            now = self._t
            if now.passable is None:
                b = self.board
                now.passable = [b.passable(i) for i in range(len(b))]
            near = self.near()  # (every reach known)
            if now.packed_near is None:
                now.packed_near = expected.pack_near(near)
            prior, moved = now.prior or ({}, ())
            t = tables[groups] = _LazyTable(near, now.passable, groups, now.reach, prior.get(groups), moved,
                                            now.packed_near)
        return t

    def release(self) -> None:
        """Let go of every board state this cache's run keeps (call it when the run is over).

        Why not just drop the cache: each state's ``turned_to`` points at the states a turn of a
        piece leads to, and a turn back leads home, so the states form reference cycles that only
        Python's cycle collector frees. Unlinked, they go the moment the last reference does, and
        :func:`~terragen.terrain.sim.runner.run_games` can pause the collector while it plays
        (its full collections walked every kept table: a tenth of a cold greedy screen's time)."""
        for tables in self._states.values():
            tables.turned_to.clear()
        self._t.turned_to.clear()
        self._states.clear()

    # ---- changes -------------------------------------------------------------------------
    def restart(self) -> None:
        """Back to the tables of the starting board, which the board was put back to
        (:meth:`~terragen.terrain.board.Board.restore`): a run's next game on this cache."""
        self.version += 1
        self._turned.clear()
        self._flipped.clear()
        self._t = self._home

    def _enter(self) -> _Tables | None:
        """Switch to the tables of the board's new state if a game of the run had it already."""
        t = self._states.get(self._key())
        if t is not None:
            self._t = t
        return t

    def _keep(self, t: _Tables) -> bool:
        """Make ``t`` the current tables; True when the run keeps them for later games too."""
        self._t = t
        if len(self._states) < MAX_STATES:
            self._states[self._key()] = t
            return True
        return False

    def rotated(self, i: int, old_out: list | None = None) -> None:
        """Piece ``i`` was turned (its outgoing arcs changed, ``old_out`` were the old ones);
        move to the tables of the new board, derived from the old ones when they are new."""
        self.version += 1
        if not self.pips:
            return  # pips are ignored: nothing this cache holds depends on rotations
        mask = self.board.mask[i]
        if mask == self._start_mask[i]:
            self._turned.pop(i, None)
        else:
            self._turned[i] = mask
        old = self._t
        step = (i, mask)
        known = old.turned_to.get(step)  # the same turn from the same state: the same next state
        if known is not None:
            self._t = known
            return
        if self._enter() is not None:
            old.turned_to[step] = self._t
            return
        new = _Tables()
        new.elev_rev, new.elev_dist, new.elev_tours, new.exits = old.elev_rev, old.elev_dist, old.elev_tours, old.exits
        new.passable = old.passable
        new.reach = dict(old.reach)
        new.within = dict(old.within)
        if self._keep(new):
            old.turned_to[step] = new
        # a cell's reach can change only if it reaches i and then uses an arc of i that came or went
        # (or changed its cost) within 6 points
        # (an arc's cost follows from its target, so a plain look-up in the other list finds it)
        cheapest = 1 if old_out is None else MAX_BUDGET + 1
        if old_out is not None:
            now_out = self.arcs[i]
            for arc in old_out:
                if arc[1] < cheapest and arc not in now_out:
                    cheapest = arc[1]
            for arc in now_out:
                if arc[1] < cheapest and arc not in old_out:
                    cheapest = arc[1]
        room = MAX_BUDGET - cheapest
        near, moved = self._patch_reach(old, new, i, room)
        if near is not None:
            new.near = near
            # expected-turns tables (and the packed sources they solve from) rest on every cell's
            # reach: keep them when no reach changed (a new state's own start empty otherwise)
            if near is old.near:
                new.tables, new.packed_near = old.tables, old.packed_near
            if moved and expected.COMPILED is None:  # only a Python repair reads it
                new.prior = (old.tables, tuple(moved))
        if old.rev is not None and old_out is not None:
            # patch the reverse graph: only arcs leaving i changed (new inner lists: the old
            # ones belong to the old state)
            rev = list(old.rev)
            for j, _, _ in old_out:
                rev[j] = [pc for pc in rev[j] if pc[0] != i]
            for j, c, _ in self.arcs[i]:
                rev[j] = [*rev[j], (i, c)]
            new.rev = rev
        rev = self._reverse()
        changed = set()
        for goals, d in old.dist.items():
            fixed = repair_after_turn(d, rev, self.arcs, i)
            new.dist[goals] = fixed
            if fixed is not d:
                changed.add(goals)
        # tour tables built on a changed distance table go; the others stay right. A tour reaches a
        # group of several cells (LOST!'s edge) by way of the part of it from which the rest is
        # cheapest, so its distance tables may be keyed by any part of a group: a group goes when any
        # cell of it is a goal of a changed table
        if changed:
            moved_goals = {g for goals in changed for g in goals}
            new.tours = {k: v for k, v in old.tours.items() if moved_goals.isdisjoint(_cells_of(k[0]))}
        else:
            new.tours = dict(old.tours)

    def _patch_reach(self, old: _Tables, new: _Tables, i: int, room: int) -> tuple[list | None, list]:
        """The new state's reach after piece ``i`` turned: every cell that reached ``i`` within
        ``room`` points made again, and the sources list (``near``) patched where a cost changed;
        returns the new ``near`` (the old one when no cost changed; None without one) and the cells
        whose reach changed with the cells they reach at a new cost (only a Python repair of the
        expected-turns tables reads them). In C where it was built (``reach_patch``: the same
        dicts and lists), as this was a tenth of an expert game's time on six seats."""
        if _REACH_PATCH is not None and expected.COMPILED is not None:  # (without the solver, a repair reads moved)
            got = _REACH_PATCH(old.reach, i, room, new.reach, new.within, old.near, self.reach)
            if got is not None:
                return got[0], []
        return self._patch_reach_python(old, new, i, room)

    def _patch_reach_python(self, old: _Tables, new: _Tables, i: int, room: int) -> tuple[list | None, list]:
        """:meth:`_patch_reach` in Python (the reference of the compiled one)."""
        stale = [p for p, r in old.reach.items() if r.get(i, MAX_BUDGET + 1) <= room]
        near = old.near  # when there is one, every reach is known: patch it cell by cell
        gone: dict[int, set[int]] = {}  # cell q -> the cells p whose old entry (p, cost) in near[q] goes
        moved = []  # the cells whose reach changed, each with the cells it reaches at a new cost
        added: dict[int, list[tuple[int, int]]] = {}  # cell q -> the new entries (p, cost)
        for p in stale:
            new.within.pop(p, None)
            before = new.reach.pop(p)
            if near is None:
                continue
            after = self.reach(p)
            if after == before:
                continue
            # only the cells whose cost from p changed (most of a reach does not)
            differ = []
            for q, c in before.items():
                if q != p and after.get(q) != c:
                    gone.setdefault(q, set()).add(p)
                    differ.append(q)
            for q, c in after.items():
                if q != p and before.get(q) != c:
                    added.setdefault(q, []).append((p, c))
                    if q not in before:
                        differ.append(q)
            moved.append((p, tuple(differ)))
        if gone or added:
            # new inner lists only where they change (the old ones belong to the old state); the
            # order inside a list does not matter to ``solve_layer``
            near = list(near)
            for q in gone.keys() | added.keys():
                out = gone.get(q)
                row = [e for e in near[q] if e[0] not in out] if out else list(near[q])
                row += added.get(q, ())
                near[q] = row
        return near, moved

    def inverted(self, i: int) -> None:
        """Piece ``i`` was turned upside down (or back): arcs into and out of it changed; start afresh."""
        self.version += 1
        if self.board.inverted[i] == self._start_inverted[i]:
            self._flipped.discard(i)
        else:
            self._flipped.add(i)
        if self._enter() is None:
            self._keep(_Tables())


@lru_cache(maxsize=1024)
def _cells_of(groups: tuple[tuple[int, ...], ...]) -> frozenset[int]:
    """Every cell of a seat's groups, on which its tour tables rest: a turn of a piece that changes
    the distances to any of them drops the tables (asked group by group of every table a new board
    state inherits, this cost 2-3% of a greedy game's time on boards met for the first time)."""
    return frozenset(c for grp in groups for c in grp)


def _reverse_of(arcs: list, n: int) -> list[list[tuple[int, int]]]:
    rev: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for i, out in enumerate(arcs):
        for j, c, _ in out:
            rev[j].append((i, c))
    return rev
