"""Team play: a team of three that has stalled plans its next stretch as one (all three tokens).

A pair that stalls plans over every pair of cells the distance rule lets it hold
(:mod:`terragen.terrain.sim.convoy`). A team of three stalls in ways no pair's plan frees: a lead
whose destination a teammate stands on while that teammate is held back by the third, or a lead one
hex from its goal with both teammates four hexes behind, neither able to close up alone. On freshly
generated six-seat hard boards such stalls left up to 97% of the games of teams of three unfinished
(``bench/README.md``, "Team play: a joint plan for teams of three").

So a stalled team of three searches its joint positions (lead, second, third cell), the same exact
search a pair makes one dimension up: the least total points the three must still walk, each step one
teammate's move along one arc of the board state's move graph that keeps every gap within max(3, that
gap now), as far as the next target any of them collects (from there each one's own cheapest tour
counts), over every triple such steps reach from where the three stand (:func:`joint_values`). Each
teammate then takes, among this turn's real moves, the one that leaves the least to walk. The plan
runs until the lead is nearer its goal than where it stalled, any of the three collects, or
:data:`TRIO_PLAN_TURNS` lead turns pass. Where the board state gives the three no joint way, the team
goes on as a convoy does (:func:`terragen.terrain.sim.convoy._threes_move`), and on doubles a teammate
turns the piece the three's best way with turns needs first (:func:`trio_turn`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from terragen.terrain.sim.cache import INF
from terragen.terrain.sim.convoy import (
    FAR, _KEY, _cost_to_go, _gains, _geometry, _hexes, _lone, _nearer, _slots, neighbour_table,
    _sweep_python,
)
from terragen.terrain.sim.convoy_open import open_slots, opening_turn
from terragen.terrain.sim.engine import _end_allowed, hex_gaps
from terragen.terrain.expected import COMPILED
from terragen.terrain.sim.state import GameState

#: lead turns a trio keeps to one plan. Why a bound: the plan's steps are single arcs while the real
#: moves are whole rolls, and other tokens stand in the way, so a plan can fail to get the lead on;
#: it then starts afresh after the next stall
TRIO_PLAN_TURNS = 24
#: lead turns in a row on which the lead stood still, held back by the distance rule or a teammate, and
#: neither teammate moved, before a trio plans (as a pair's :data:`~terragen.terrain.sim.convoy.STALL_TURNS`;
#: on hard board 134502 as 0+1+2,3+4+5, 12 left 27 of 200 greedy games unfinished, 6 left 15)
TRIO_STALL_TURNS = 6
#: the widest gap at which a stalled trio looks for a joint way: every gap of a radius-5 board. Why a
#: bound at all: the triples a search may reach grow with the cube of the gaps (two million on radius
#: 6); teams of three on every other corner of radius 5 start 10 apart and, at a bound of 6, stood for
#: good far apart (70 of 100 solitary games on hard board 134502, 1 at 10)
TRIO_WIDEST = 10
#: the three gaps of a triple in this order: (first, second), (first, third), (second, third)
_PAIRS = ((0, 1), (0, 2), (1, 2))
#: a triple's value where a search from given triples did not reach it (:func:`joint_values`)
NOT_VALUED = -1
#: the compiled search (``_kernels.c``: ``trio_values``), or None
_TRIO_VALUES = getattr(COMPILED, "trio_values", None)


def trio_move(state: GameState, seat: int, trio: tuple[int, int, int], options: Mapping[int, int],
              old: Callable[[], int]) -> int | None:
    """``seat``'s move when its team of three (``trio``: the seats in order, the lead first) plans
    together, or None when it does not (the convoy's own move then stands). ``old()`` is the move the
    convoy would make."""
    lead = trio[0]
    key = (_KEY, "trio", state.team_of[seat])
    note = state.notes.get(key)
    if note is None:
        # stalled lead turns, planning, the teammates' cells at the last counted turn, the lead's cost
        # to go and the three collections when the plan began, the lead turns in the plan, lead turns
        # to wait before the next look for a joint way, and whether the last look found none
        note = state.notes[key] = [0, False, None, INF, None, 0, 0, False]
    if seat != lead:
        if not _still_planning(state, trio, note):
            return None
        return _planned(state, seat, trio, options, old())
    choice = old()
    if not _still_planning(state, trio, note):
        if not _stalled(state, trio, note, choice):
            note[6], note[7] = 0, False
            return None
        if note[6] > 0:
            note[6] -= 1
            return None
        if max(_limits(state, trio)) > TRIO_WIDEST or _values_here(state, trio) >= FAR:
            # no joint way on this board state (or too far apart to look): the convoy's own rules go on,
            # and the team looks again once its lead has stood still as long again
            note[6], note[7] = TRIO_STALL_TURNS, True
            return None
        note[1], note[3], note[5], note[7] = True, _cost_to_go(state, lead), 0, False
        note[4] = tuple(state.collected[s] for s in trio)
    note[5] += 1
    if note[5] > TRIO_PLAN_TURNS:
        note[0], note[1], note[2] = 0, False, None
        return None
    return _planned(state, seat, trio, options, choice)


def _still_planning(state: GameState, trio: tuple[int, int, int], note: list) -> bool:
    """Whether a trio that began to plan plans still (see the module's note)."""
    if not note[1]:
        return False
    lead = trio[0]
    if tuple(state.collected[s] for s in trio) == note[4] and _cost_to_go(state, lead) >= note[3]:
        return True
    note[0], note[1], note[2] = 0, False, None
    return False


def _stalled(state: GameState, trio: tuple[int, int, int], note: list, choice: int) -> bool:
    """Count a lead turn on which its own ``choice`` is to stand still, no roll could take it to a free
    cell nearer its goal that the distance rule allows, a teammate or the rule takes such a cell away,
    and neither teammate has moved since the last counted turn; True at :data:`TRIO_STALL_TURNS` in a row."""
    lead = trio[0]
    if choice != state.pos[lead]:
        note[0], note[2] = 0, None
        return False
    mates = tuple(state.pos[s] for s in trio[1:])
    moved, note[2] = mates != note[2], mates
    if moved:
        note[0] = 0
        return False
    held = False
    for q in _nearer(state, lead):
        other = state.occupant.get(q)
        if other is None and _end_allowed(state, lead, q):
            return False  # a wait for the dice, not a stall
        held = held or other is None or other in trio
    if held:
        note[0] += 1
    return note[0] >= TRIO_STALL_TURNS


def _planned(state: GameState, seat: int, trio: tuple[int, int, int], options: Mapping[int, int], old: int) -> int:
    """The option that leaves the trio least to walk; ``old`` when it is among the best, or when no
    option leaves the three a way to finish."""
    me = trio.index(seat)
    cells = tuple(state.pos[s] for s in trio)
    lone_here = [int(_lone(state, state.setup.groups[s], state.collected[s])[state.pos[s]]) for s in trio]
    others = sum(v for k, v in enumerate(lone_here) if k != me)
    mask = state.collected[seat]
    mine = state.setup.groups[seat]
    targets = state.setup.target_cells[seat]
    scored: dict[int, int] = {}
    stepping: dict[int, tuple[int, ...]] = {}
    for q in options:
        gain = state.gain(seat, q) if q in targets else mask
        if gain != mask:
            scored[q] = min(FAR, others + int(_lone(state, mine, gain)[q]))
        else:
            stepping[q] = cells[:me] + (q,) + cells[me + 1:]
    scored.update(zip(stepping, _values_at(state, trio, list(stepping.values()))))
    best = min(scored.values())
    if best >= FAR or scored.get(old) == best:
        return old
    rank = state.setup.rank[seat]
    return min((q for q in options if scored[q] == best), key=lambda q: (options[q], rank[q]))


def triple_number(n1: int, cells) -> int:
    """The number of the triple of ``cells`` (lead, second, third), ``n1`` the board's cells and the
    padding cell: (a * n1 + b) * n1 + c, as the searches and :class:`Valued` number them."""
    a, b, c = cells
    return (a * n1 + b) * n1 + c


def _values_here(state: GameState, trio: tuple[int, int, int]) -> int:
    """The trio's joint value where it stands now."""
    return _values_at(state, trio, [tuple(state.pos[s] for s in trio)])[0]


def _limits(state: GameState, trio: tuple[int, int, int]) -> tuple[int, int, int]:
    """How far apart each two of the trio may stand from now on: max(team distance, their gap now)."""
    gaps = hex_gaps(state)
    near = state.rules.team_distance
    pos = [state.pos[s] for s in trio]
    return tuple(max(near, gaps[pos[i]][pos[j]]) for i, j in _PAIRS)


def _values_at(state: GameState, trio: tuple[int, int, int], triples: list[tuple[int, ...]]) -> list[int]:
    """The trio's joint values at ``triples`` (each one's cells, in the trio's order: where the trio
    stands, or stands after one of this turn's moves). A search made on this board state for these
    seats and collections that valued them all answers (each value it made is the whole board's);
    otherwise one search valued from the trio's triple now and them, kept in the board state's memo.
    Why from them, not over every triple a team this close may hold: a stalled trio's steps reach a
    median 0.6% of those on one hard board, 23% on another; and its three teammates' turns mostly ask
    for triples one search has valued."""
    n1 = len(state.board) + 1
    numbers = [triple_number(n1, t) for t in triples]
    groups = tuple(state.setup.groups[s] for s in trio)
    masks = tuple(state.collected[s] for s in trio)
    made = state.cache.memo.setdefault((_KEY, "trio", groups, masks), [])
    for valued in made:
        got = valued.at(numbers)
        if NOT_VALUED not in got:
            return got
    here = triple_number(n1, tuple(state.pos[s] for s in trio))
    valued = joint_values(state, trio, [here] + numbers)
    made.append(valued)
    return valued.at(numbers)


class Valued(NamedTuple):
    """A search's answer: the triples it valued (numbered (a * N1 + b) * N1 + c, N1 the board's cells and
    the padding cell), in order, and their values."""

    keys: np.ndarray
    values: np.ndarray

    def at(self, numbers: list[int]) -> list[int]:
        """The values of triples ``numbers``, :data:`NOT_VALUED` for one the search did not reach."""
        keys, values = self.keys, self.values
        found = np.searchsorted(keys, numbers).tolist()
        return [int(values[i]) if i < len(keys) and keys[i] == n else NOT_VALUED
                for n, i in zip(numbers, found)]


@lru_cache(maxsize=16)
def _neighbours(hexes: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The board's neighbour table (:func:`~terragen.terrain.sim.convoy.neighbour_table`) and the hex
    distances between every two cells, as the compiled search reads them."""
    return neighbour_table(hexes), np.ascontiguousarray(_geometry(hexes), dtype=np.int32)


def joint_values(state: GameState, trio: tuple[int, int, int], seeds: list[int],
                 slots: tuple[np.ndarray, np.ndarray] | None = None) -> Valued:
    """For the triples ``seeds`` (numbered as :class:`Valued` says) and every triple their steps lead to:
    the least total points the trio must still walk, from those cells with its collections now, to the
    next target any of them collects and from there each one's own cheapest tour (:data:`FAR` or more
    for no way). A step is one teammate's move along one arc of the board state's move graph (or
    ``slots``, :func:`~terragen.terrain.sim.convoy_open.open_slots`) to a cell no teammate holds,
    leaving each gap of its within max(3, that gap now); other tokens are not in the way (they move
    on). Exact: the set is closed under the steps, so each value is the one the whole board gives; the
    same sweep as a pair's
    (:func:`terragen.terrain.sim.convoy.joint_values`)."""
    args = _inputs(state, trio, slots) + (np.array(seeds, dtype=np.intp),)
    near = state.rules.team_distance
    made = None if _TRIO_VALUES is None else _TRIO_VALUES(*args, near, FAR)
    if made is not None:
        # the compiled search lists them in order already, as 32-bit numbers (below N1**3)
        return Valued(np.frombuffer(made[0], dtype=np.int32), np.frombuffer(made[1], dtype=np.int32))
    keys, values = _trio_values_python(*args, near)
    order = np.argsort(keys, kind="stable")
    # kept in a board state's memo, for as many board states as a run keeps: numbers below N1**3 fit
    # 32 bits (a third less memory than 64-bit ones)
    return Valued(keys[order].astype(np.int32), values[order].astype(np.int32))


def _inputs(state: GameState, trio: tuple[int, int, int],
            slots: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, ...]:
    """What the search reads (``trio_values`` in ``_kernels.c`` names each): the move graph's arc slots
    (directions, costs), the board's neighbours and distances, and per teammate and cell what it still
    walks after a step that ends there and collects (-1: it collects nothing) and its own cheapest tour
    now."""
    nbr, dist = _neighbours(_hexes(state))
    way, cost = _slots(state) if slots is None else slots
    n = len(state.board)
    fin = np.empty((3, n + 1), dtype=np.int32)
    lone = np.empty((3, n + 1), dtype=np.int32)
    for k, s in enumerate(trio):
        groups, mask = state.setup.groups[s], state.collected[s]
        lone[k] = _lone(state, groups, mask)
        gains = _gains(groups, mask, n)
        full = (1 << len(groups)) - 1
        row = np.full(n + 1, -1, dtype=np.int32)
        for m in set(gains.tolist()) - {mask}:
            at = gains == m
            row[at] = 0 if m == full else _lone(state, groups, m)[at]
        fin[k] = row
    return way, cost, nbr, dist, fin, lone


def _trio_values_python(way: np.ndarray, cost: np.ndarray, nbr: np.ndarray, dist: np.ndarray, fin: np.ndarray,
                        lone: np.ndarray, seeds: np.ndarray, near: int) -> tuple[np.ndarray, np.ndarray]:
    """The reference of the compiled ``trio_values``: every triple whose gaps are within those any seed
    may reach (the region), valued at once (every collecting step, then the pairs' sweep over the other
    steps); then the triples the seeds' steps reach, their numbers and values."""
    n1 = dist.shape[0]
    pad = n1 - 1
    seeds = np.asarray(seeds, dtype=np.intp)
    at_seed = np.stack([seeds // (n1 * n1), seeds // n1 % n1, seeds % n1])
    limits = [max(near, int(dist[at_seed[i], at_seed[j]].max())) for i, j in _PAIRS]
    d = dist[:pad, :pad]
    ab = np.argwhere((d <= limits[0]) & ~np.eye(pad, dtype=bool))
    a, b = ab[:, 0], ab[:, 1]
    ok = (d[a] <= limits[1]) & (d[b] <= limits[2])  # pairs x third cells
    ok[np.arange(len(a)), a] = False
    ok[np.arange(len(a)), b] = False
    k, c = np.nonzero(ok)
    cells = np.stack([a[k], b[k], c]).astype(np.intp)
    size = cells.shape[1]
    tidx = np.full((n1, n1, n1), -1, dtype=np.intp)
    tidx[cells[0], cells[1], cells[2]] = np.arange(size)
    here = [lone[m].take(cells[m]) for m in range(3)]
    low = np.full(size, FAR, dtype=np.int64)  # each triple's best collecting step
    nexts, costs = [], []
    for me in range(3):
        step_dir = way.take(cells[me], axis=1)  # arcs x triples
        step_cost = cost.take(cells[me], axis=1)
        to = nbr[cells[me][None, :], step_dir]
        good = (step_dir < 6) & (step_cost < FAR) & (to != pad)
        for o in range(3):
            if o != me:  # no teammate's cell, and the distance rule against each teammate
                good &= (to != cells[o]) & (dist[to, cells[o]] <= np.maximum(near, dist[cells[me], cells[o]]))
        q = [np.broadcast_to(cells[o], to.shape) for o in range(3)]
        q[me] = to
        nxt = tidx[q[0], q[1], q[2]]
        after = fin[me].take(to)
        others = sum(here[o] for o in range(3) if o != me).astype(np.int64)
        collects = good & (after >= 0)
        low = np.minimum(low, np.where(collects, step_cost + after.astype(np.int64) + others, FAR).min(axis=0))
        walks = good & (after < 0) & (nxt >= 0)
        nexts.append(np.where(walks, nxt, 0))
        costs.append(np.where(walks, step_cost, FAR).astype(np.int32))
    nxt, step = np.concatenate(nexts), np.concatenate(costs)
    values = _sweep_python(np.minimum(low, FAR).astype(np.int32), nxt, step)
    seen = np.zeros(size, dtype=bool)
    frontier = np.unique(tidx[at_seed[0], at_seed[1], at_seed[2]])
    seen[frontier] = True
    moves = np.where(step < FAR, nxt, -1)
    while len(frontier):
        reached = np.unique(moves[:, frontier])
        reached = reached[reached >= 0]
        frontier = reached[~seen[reached]]
        seen[frontier] = True
    keys = (cells[0] * n1 + cells[1]) * n1 + cells[2]
    return keys[seen], values[seen]


# ---- a turn of a piece for a trio the pips hold fast ----------------------------------------------

def trio_turn(state: GameState, seat: int, turns: Callable) -> tuple | None:
    """On doubles, for a seat of a team of three that has stalled with no joint way on this board state:
    the turn of the piece its best way with turns needs first, or None. ``turns(pattern, rotation,
    hand)`` lists a piece's other turns (``policies._turns``).

    How: the trio's search is made once more on the board with every piece near it open in every
    direction its levels allow (:func:`~terragen.terrain.sim.convoy_open.open_slots`). The first such arc
    on a best way found there names the piece and a direction its turn must open
    (:func:`~terragen.terrain.sim.convoy_open.opening_turn`). Remembered per board state, trio cells and
    collections; one try for each time the lead finds no joint way (:func:`trio_move`). Why: these
    stalls are the pips' (the trio's joint value is :data:`FAR`), a stall no move ends; a greedy
    player's own turns on doubles shorten its own tour and never free its team."""
    mates = state.teammates(seat)
    if len(mates) != 2 or not state.rules.uses_pips:
        return None
    trio = tuple(sorted(mates + [seat]))
    note = state.notes.get((_KEY, "trio", state.team_of[seat]))
    if note is None or note[1] or not note[7] or max(_limits(state, trio)) > TRIO_WIDEST:
        return None
    cells = tuple(state.pos[s] for s in trio)
    groups = tuple(state.setup.groups[s] for s in trio)
    masks = tuple(state.collected[s] for s in trio)
    hand = state.setup.hand[seat]
    key = (_KEY, "trio-turn", groups, masks, cells, hand)
    memo = state.cache.memo
    note[7] = False  # one try a look: the lead looks again after as many stalled turns
    if key in memo:
        return memo[key]
    memo[key] = choice = _best_turn(state, trio, turns, hand)
    return choice


def _best_turn(state: GameState, trio: tuple[int, int, int], turns: Callable, hand: int) -> tuple | None:
    """:func:`trio_turn`'s turn, worked out: the open search from where the trio stands, the first
    lacking arc on its best way, and the turn that opens it."""
    cells = tuple(state.pos[s] for s in trio)
    n1 = len(state.board) + 1
    slots, extra = open_slots(state, cells)
    valued = joint_values(state, trio, [triple_number(n1, cells)], slots)
    need = _first_turn(valued, _inputs(state, trio, slots), extra, state.rules.team_distance, cells)
    if need is None:
        return None
    return opening_turn(state, need[0], need[1], turns, hand)


def _first_turn(valued: Valued, args: tuple[np.ndarray, ...], extra: np.ndarray, near: int,
                cells: tuple[int, ...]) -> tuple[int, int] | None:
    """Along a best way from the trio's ``cells`` (the first best step at each, teammates in order, then
    the cell's arc slots): the (cell, direction) of the first arc the board's present exits lack, or
    None when the way needs none or there is none. ``args``: the search's inputs (:func:`_inputs`)."""
    way, cost, nbr, dist, fin, lone = args
    n1 = dist.shape[0]
    pad = n1 - 1
    at = list(cells)
    for _ in range(len(valued.keys)):
        v = valued.at([triple_number(n1, at)])[0]
        if not 0 <= v < FAR:
            return None
        on = None
        for me in range(3):
            cell = at[me]
            others = sum(int(lone[k, at[k]]) for k in range(3) if k != me)
            for slot in range(way.shape[0]):
                d, c = int(way[slot, cell]), int(cost[slot, cell])
                to = int(nbr[cell, d]) if d < 6 else pad
                if c >= FAR or to == pad or any(to == at[k] or dist[to, at[k]] > max(near, dist[cell, at[k]])
                                                for k in range(3) if k != me):
                    continue
                after = int(fin[me, to])
                q = at[:me] + [to] + at[me + 1:]
                if after >= 0:
                    if c + after + others != v:
                        continue
                elif c + valued.at([triple_number(n1, q)])[0] != v:
                    continue
                if extra[slot, cell]:
                    return cell, d
                on = None if after >= 0 else q
                if on is None:
                    return None  # the way collects without a turn
                break
            if on is not None:
                break
        if on is None:
            return None
        at = on
    return None
