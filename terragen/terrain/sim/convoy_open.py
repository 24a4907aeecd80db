"""Team play: the turn of a piece a team the pips hold fast makes for itself.

A planning pair or trio searches its joint positions on the board as it stands
(:func:`terragen.terrain.sim.convoy.joint_values`, :func:`terragen.terrain.sim.convoy_trio.joint_values`).
When that search finds no way at all (the joint value is ``FAR``), no move ends the stall: the pips
hold the team, and only a turn of a piece frees it. A greedy player's own turns on doubles shorten its
own tour and never free its team, and a solitary one makes none. So on doubles a teammate makes the
search once more on the move graph with every piece near the team open in all six directions its
levels allow (:func:`open_slots`), an arc a piece's pips lack costing :data:`TURN_PENALTY` more; the
first such arc on a best way found there names the piece and a direction, and the piece is turned to
open it (:func:`opening_turn`). Turn by turn, on later doubles, the team opens the rest of its way.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from terragen.terrain.sim.convoy import FAR, _gains, _lone, _region, joint_values, plans
from terragen.terrain.sim.engine import hex_gaps
from terragen.terrain.sim.state import GameState

#: points an arc a piece's present exits lack costs in the open search: about the points a team walks
#: while it waits for the double that turns the piece
TURN_PENALTY = 12
#: how near a teammate (in hexes) a piece must be for the open search to open it. Why 2: on hard board
#: 134502 the turns made were the same at 2, 3 and every piece of the board (the needed piece lies by
#: the team), and the searches took less time the fewer pieces are opened
OPEN_WITHIN = 2


def open_slots(state: GameState, around: tuple[int, ...] = ()) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
    """The move graph as :func:`~terragen.terrain.sim.convoy._slots` gives it, with every passable piece
    within :data:`OPEN_WITHIN` hexes of a cell of ``around`` (every piece, when ``around`` is empty)
    open in all six directions its levels allow, an arc its present exits lack costing
    :data:`TURN_PENALTY` more. Also whether each arc slot is one of the lacking ones (arcs x cells)."""
    board, cache = state.board, state.cache
    n = len(board)
    gaps = hex_gaps(state)
    rows = []
    for i in range(n):
        near = not around or min(gaps[c][i] for c in around) <= OPEN_WITHIN
        if near and board.passable(i) and not board.inverted[i]:
            now = {j for j, _, _ in cache.arcs[i]}
            arcs = [(j, cost + (0 if j in now else TURN_PENALTY), j not in now) for j, cost in cache.exits_as(i, 63)]
        else:
            arcs = [(j, cost, False) for j, cost, _ in cache.arcs[i]]
        rows.append(arcs)
    k = max(1, max(len(a) for a in rows))
    way = np.full((k, n + 1), 6, dtype=np.intp)
    cost = np.full((k, n + 1), FAR, dtype=np.int32)
    extra = np.zeros((k, n + 1), dtype=bool)
    for i, arcs in enumerate(rows):
        dirs = {j: d for d, j in enumerate(board.nbr[i]) if j >= 0}
        for slot, (j, c, new) in enumerate(arcs):
            way[slot, i], cost[slot, i], extra[slot, i] = dirs[j], c, new
    return (way, cost), extra


def opening_turn(state: GameState, cell: int, direction: int, turns: Callable, hand: int) -> tuple | None:
    """Of the turns of piece ``cell`` that open ``direction``, the one that keeps most of its present
    exits (the way found may use them too), the nearest turn first among equals, as an action; None when
    no turn opens it. Why not the turn the search likes best: a fresh search per turn cost a third of a
    second a double."""
    board = state.board
    now = board.mask[cell]
    opening = [(bin(mask & now).count("1"), -k, rot)
               for k, (rot, mask) in enumerate(turns(board.pattern[cell], board.rotation[cell], hand))
               if mask != now and mask >> direction & 1]
    return ("rotate", cell, max(opening)[2]) if opening else None


def pair_turn(state: GameState, lead: int, follower: int, turns: Callable, hand: int) -> tuple | None:
    """For a planning pair with no joint way on this board state: the turn of the piece its best way
    with turns needs first, or None (it has a way, or none even with turns). Remembered per board state,
    the pair's cells and collections, and the hand that turns."""
    if not plans(state):
        return None
    a, b = state.pos[lead], state.pos[follower]
    setup = state.setup
    ml, mf = state.collected[lead], state.collected[follower]
    key = ("convoy", "open", setup.groups[lead], setup.groups[follower], ml, mf, a, b, hand)
    memo = state.cache.memo
    if key in memo:
        return memo[key]
    near = state.rules.team_distance
    limit = max(near, hex_gaps(state)[a][b])
    pidx = _region(tuple(state.board.hexes), limit, near)[2]
    choice = None
    if joint_values(state, lead, follower, ml, mf, limit)[pidx[a, b]] >= FAR:
        slots, extra = open_slots(state, (a, b))
        values = joint_values(state, lead, follower, ml, mf, limit, slots)
        need = _first_pair_turn(state, (lead, follower), values, pidx, slots, extra)
        if need is not None:
            choice = opening_turn(state, need[0], need[1], turns, hand)
    memo[key] = choice
    return choice


def _first_pair_turn(state: GameState, pair: tuple[int, int], values: np.ndarray, pidx: np.ndarray,
                     slots: tuple[np.ndarray, np.ndarray], extra: np.ndarray) -> tuple[int, int] | None:
    """Along a best way of the open search from where the pair stands (the first best step at each, lead
    then follower, then the cell's arc slots): the (cell, direction) of the first arc the board's present
    exits lack, or None when the way needs none or there is none. The steps and their values as
    :func:`~terragen.terrain.sim.convoy.joint_values` makes them."""
    way, cost = slots
    board = state.board
    n = len(board)
    near = state.rules.team_distance
    gaps = hex_gaps(state)
    setup = state.setup
    groups = [setup.groups[s] for s in pair]
    masks = [state.collected[s] for s in pair]
    gains = [_gains(g, m, n) for g, m in zip(groups, masks)]
    full = [(1 << len(g)) - 1 for g in groups]
    at = [state.pos[s] for s in pair]
    nbr = board.nbr
    for _ in range(len(values)):
        p = int(pidx[at[0], at[1]])
        v = int(values[p]) if p >= 0 else FAR
        if v >= FAR:
            return None
        step = None
        for me in (0, 1):
            cell, other = at[me], at[1 - me]
            for slot in range(way.shape[0]):
                d, c = int(way[slot, cell]), int(cost[slot, cell])
                if d > 5 or c >= FAR:
                    continue
                to = nbr[cell][d]
                if to < 0 or to == other or gaps[to][other] > max(near, gaps[cell][other]):
                    continue
                m = int(gains[me][to])
                if m != masks[me]:  # it collects: the plan's horizon
                    after = int(_lone(state, groups[1 - me], masks[1 - me])[other])
                    if m != full[me]:
                        after += int(_lone(state, groups[me], m)[to])
                    if c + min(after, FAR) != v:
                        continue
                    return (cell, d) if extra[slot, cell] else None
                q = (to, other) if me == 0 else (other, to)
                nxt = int(pidx[q[0], q[1]])
                if nxt < 0 or c + int(values[nxt]) != v:
                    continue
                if extra[slot, cell]:
                    return cell, d
                step = list(q)
                break
            if step is not None:
                break
        if step is None:
            return None
        at = step
    return None
