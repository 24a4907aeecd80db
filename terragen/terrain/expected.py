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
from terragen.terrain.rules import MAX_BUDGET, budget_counts
from terragen.terrain.work_meter import COSTS, charge

INF = float("inf")


def _compiled_kernels():
    """The compiled table kernels (``_kernels.c``), or None (see :mod:`terragen.terrain.compiled`)."""
    from terragen.terrain.compiled import load

    return load("terragen.terrain._kernels")


#: the compiled kernels, or None (the Python versions are used): :func:`solve_layer_in_order` here
#: and the distance repair of ``sim/cache.py``. Why they exist: an expert player needs a fresh layer
#: per seat on every board state a turn of a piece creates, and in Python those solves (with the
#: repairs that stood in for them) were about half of an expert game's time; on brutal boards the
#: distance repairs were a fifth to a quarter of a greedy game's (``bench/README.md``, "The
#: simulator's table kernels, compiled")
COMPILED = _compiled_kernels()


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
    # charged here, not in solve_layer_in_order: the simulator's tables call that directly, and
    # their work is counted as the simulated turns that need them
    charge(COSTS["expected_layer"])
    return solve_layer_in_order(n, near, landing)[0]


def _spread(near_q: list[tuple[int, int]], v: float, k: int, best_cost: list[int], acc: list[float],
            value: list[float], heap: list) -> bool:
    """Cell (or landing) ``k`` settled at value ``v``: bring every cell p in ``near_q`` (the cells reaching
    it, at cost c) up to date, and push the ones whose value fell; a cell whose best cost is already
    c or less (0: settled) passes by. False when a value fell below the key (v, k): the layer does
    not settle in order."""
    at_least = _N_AT_LEAST
    in_order = True
    for p, c in near_q:
        bc = best_cost[p]
        if c >= bc:
            continue
        a = acc[p] + (at_least[c] - at_least[bc]) * v
        acc[p] = a
        best_cost[p] = c
        t = (36.0 + a) / at_least[c]
        if t < value[p]:
            value[p] = t
            heapq.heappush(heap, (t, p))
            if t <= v and (t < v or p < k):
                in_order = False
    return in_order


def pack_near(near: list[list[tuple[int, int]]]) -> bytes | None:
    """``near`` in the form the compiled solver reads fastest (its cells and costs as C ints), or None
    without the compiled kernels or for a list they do not take.

    Why: the solver spent a third of its time reading the list's tuples, and a board state's tables
    solve several layers (one or more per seat) from the same list; packed once, each solve reads
    plain numbers (``bench/README.md``, "The expected-turns solver without stale heap entries")."""
    return COMPILED.pack_near(near) if COMPILED is not None else None


def solve_layer_in_order(n: int, near: list[list[tuple[int, int]]],
                         landing: dict[int, float], packed: bytes | None = None) -> tuple[list[float], bool]:
    """:func:`solve_layer`, and whether every cell settled after all that it took a value from
    (:func:`solve_layer_in_order_python` says what that means): compiled when the optional
    extension was built (:data:`COMPILED`), else in Python. The two give the same floats.
    ``packed`` is :func:`pack_near` of ``near``, when the caller keeps it."""
    if COMPILED is not None:
        solved = COMPILED.solve(n, packed if packed is not None else near, landing, _N_AT_LEAST)
        if solved is None and packed is not None:
            solved = COMPILED.solve(n, near, landing, _N_AT_LEAST)
        if solved is not None:  # None: an input it does not take (the Python solver answers it)
            return solved
    return solve_layer_in_order_python(n, near, landing)


def solve_layer_in_order_python(n: int, near: list[list[tuple[int, int]]],
                                landing: dict[int, float]) -> tuple[list[float], bool]:
    """:func:`solve_layer`, and whether every cell settled after all that it took a value from;
    the reference the compiled solver (``_kernels.c``) follows step for step.

    A cell settles when its (value, index) is the least in the heap, so cells settle in the
    order of those keys, except when a cell's new value comes out below the key of the cell
    it took it from (ties of index, or the last bit of rounding; about one solve in eleven
    on a steep board). Only a layer solved in order can be repaired (:func:`repair_layer`).
    """
    value = [INF] * n
    # a settled cell's best cost is 0, so the one test ``c >= bc`` passes over it (every cost in
    # ``near`` is at least 1): no list of settled cells to look up on every arc
    best_cost = [MAX_BUDGET + 1] * n
    acc = [0.0] * n
    in_order = True
    heap = [(v, n + g) for g, v in landing.items() if v < INF]  # index >= n: a landing target
    heapq.heapify(heap)
    pop = heapq.heappop
    while heap:
        v, k = pop(heap)
        if k >= n:
            q = k - n
            kept = best_cost[q]
            best_cost[q] = 0  # the target itself is not improved by its own landing value
        else:
            q = k
            if v > value[q] or not best_cost[q]:
                continue
            best_cost[q] = 0
            if q in landing:
                continue
            kept = -1
        if not _spread(near[q], v, k, best_cost, acc, value, heap):
            in_order = False
        if kept >= 0:
            best_cost[q] = kept
    return value, in_order


class _OutOfOrder(Exception):
    """A repair met a cell settling before a cell it took its value from, or grew too big."""


def repair_layer(near: list[list[tuple[int, int]]], reach: dict[int, dict[int, int]], landing: dict[int, float],
                 old: list[float], moved: Sequence[tuple[int, Sequence[int]]], limit: int) -> list[float] | None:
    """The layer :func:`solve_layer` gives for ``near`` and ``landing``, worked out from ``old``,
    the layer it gave (in order, see :func:`solve_layer_in_order`) for the same landing on a
    move table that differed only in what some cells reach: ``moved`` lists each such cell p
    with the cells whose cost from p changed (gained, lost or other); ``reach[p]`` is every
    cell p reaches with up to 6 points, with its cost (``near`` the other way round). None
    when more than ``limit`` cells would have to be worked out again, or the layer does not
    settle in order (the caller then solves it afresh).

    Why the answer is exact, the same floats: in a layer that settles in order, a cell's value
    is the running sum over the cells it reaches, taken in the order of their (value, index)
    keys, up to its own key, so the layer is the one list of values that agrees with itself
    that way. A cell can change only if it is in ``moved`` or reaches a changed cell whose old
    or new key comes before its own; the repair plays :func:`solve_layer`'s own steps in key
    order for those cells alone (a cell taken in midway first replays, in key order, the sums
    it had made so far), holding every other cell at its old value.
    """
    n = len(old)
    value = list(old)
    best_cost = [0] * n  # 0: a cell held at its old value, or settled
    acc = [0.0] * n
    active = [False] * n  # worked out again
    pushed = [False] * n  # a held cell's key is in the heap
    at_least = _N_AT_LEAST
    pop, push = heapq.heappop, heapq.heappush
    heap: list = [(v, n + g) for g, v in landing.items() if v < INF]  # keys: (value, cell or n + landing cell)
    taken = 0

    def take_in(p: int, nv: float, nk: float) -> None:
        """Work cell ``p`` out again from the key (nv, nk) on: it took in every key before that as it did."""
        nonlocal taken
        taken += 1
        if taken > limit:
            raise _OutOfOrder
        active[p] = True
        before = []
        for q, c in reach[p].items():
            if q == p:
                continue
            lv = landing.get(q)
            if lv is not None:
                if lv == INF:
                    continue
                kv, event = lv, n + q
            elif not active[q]:
                kv, event = old[q], q  # held: its old key is its key
            elif best_cost[q]:  # worked out again, not settled yet: it reaches p when it settles
                kv = old[q]
                if kv < nv or (kv == nv and q < nk):
                    raise _OutOfOrder  # its old key passed unsettled, which took p in then (never guess)
                kv = INF
                event = q
            else:  # worked out again and settled by now
                kv, event = value[q], q
                if (kv < nv or (kv == nv and q < nk)) and kv != old[q]:
                    raise _OutOfOrder  # a change before now would have taken p in then (never guess)
            if kv < nv or (kv == nv and event < nk):
                before.append((kv, event, c))
            elif event < n and kv < INF and not pushed[q] and not active[q]:
                pushed[q] = True  # a held cell's key: when it comes, it reaches p (and all else taken in)
                push(heap, (kv, q))
        bc, a, val = MAX_BUDGET + 1, 0.0, INF
        if before:
            before.sort()
            for kv, event, c in before:
                if c >= bc:
                    continue
                a = a + (at_least[c] - at_least[bc]) * kv
                bc = c
                t = (36.0 + a) / at_least[c]
                if t < val:
                    if t < kv or (t == kv and p < event):
                        raise _OutOfOrder
                    val = t
        best_cost[p], acc[p], value[p] = bc, a, val
        if val < INF:
            push(heap, (val, p))
        if old[p] < val:
            push(heap, (old[p], p))  # its old key: not settled by then means its value went up

    def changed(q: int, nv: float, nk: int) -> None:
        """Cell ``q``'s key moved to or from (nv, nk): take in every held cell reaching it whose old key is later."""
        for p, _ in near[q]:
            if not active[p]:
                ov = old[p]
                if ov > nv or (ov == nv and p > nk):
                    take_in(p, nv, nk)

    # a moved cell is worked out again from the first key of a cell its move table gained, lost or
    # reached at a new cost, if that comes before its own old key (else it settles as it did)
    due: dict[tuple[float, float], list[int]] = {}
    for p, differ in moved:
        fv, fk = INF, 0
        for q in differ:
            lv = landing.get(q)
            kv, kk = (lv, n + q) if lv is not None else (old[q], q)
            if kv < fv or (kv == fv and kk < fk):
                fv, fk = kv, kk
        ov = old[p]
        if fv < INF and (fv < ov or (fv == ov and fk < p)):
            when = (fv, fk - 0.5)  # just before that key
            if when in due:
                due[when].append(p)
            else:
                due[when] = [p]
                heap.append(when)
    heapq.heapify(heap)
    try:
        while heap:
            v, k = pop(heap)
            if type(k) is float:  # moved cells due now
                for p in due[v, k]:
                    if not active[p]:
                        take_in(p, v, k)
                continue
            if k < n and active[k]:
                if not best_cost[k]:
                    continue  # settled already
                vk = value[k]
                if v > vk:
                    continue  # an old entry
                if v < vk:  # its old key, and not settled by it
                    if k not in landing:
                        changed(k, v, k)
                    continue
                best_cost[k] = 0
                if k in landing:
                    continue
                if v < old[k]:
                    changed(k, v, k)
            if not _spread(near[k - n if k >= n else k], v, k, best_cost, acc, value, heap):  # held cells pass by
                raise _OutOfOrder
    except _OutOfOrder:
        return None
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
