"""Team play: partners who travel as a convoy, plan together when the convoy stalls, and step aside.

The simulated players (greedy, expert, solitary) play team games as a convoy: the team's lowest
unfinished seat leads and races for its own destinations, its teammates move to stay as close to
the lead as they can (:func:`follow_move`). The distance rule (a move may not leave a teammate more
than max(3, the current distance) hexes away) can stall that convoy for good: pips or levels keep
the follower from closing up, or it stands on the lead's road, and the lead cannot go on without
breaking the rule, so both stood still to the turn cap.

A pair that stalls plans together (:func:`convoy_move`). The lead counts its turns on which it stood
still, no roll could take it to a free cell nearer its goal because the rule (or its partner standing
there) takes such a cell away, and its partner did not move; after :data:`STALL_TURNS` such turns in
a row the pair plans until the lead is nearer its goal than where it stalled, or either collects a
target. A planning pair searches the team's joint positions, (lead cell, follower cell) over every
pair the distance rule still allows, on the current board state's move graph (:func:`joint_values`):
the least total points both must still walk, each step one partner's move along one arc the rule
allows from where the pair stands, as far as the next target either collects (from there both
partners' own cheapest tours count; a partner that finishes leaves the board and the other walks
alone). Each partner then takes, among this turn's real moves (which may pass over cells a step may
not stand on), the one that leaves the least to walk, its own choice among equals. On doubles a
seat of a planning pair whose plan sees no way on turns the piece that opens the best one
(:func:`team_turn`). The note that a pair is planning lives in the game state (``GameState.notes``),
so a game replays from its seed whatever else the process played. Why it plans until past the
stall, not just while stalled: a pair told to back out of a pocket was, the next turn, as keen to
go back in as before.

No token is sent home in team play, so a token can also stand for good where another must go (a
one-lane road, a destination taken). A seat racing for its own targets that has stood still for
:data:`YIELD_TURNS` turns with every cell nearer its goal taken, one by an opponent, steps aside
when it is the further of the two from its goal (or has waited twice as long), then stands there
for :data:`HOLD_TURNS` turns (:func:`_unless_blocked`).

Games without teams never come here. The joint values are kept per board state (its ``memo``), so
the games of a run share them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache

import numpy as np

from terragen.grids import hex as hx
from terragen.terrain.rules import MAX_BUDGET
from terragen.terrain.sim.cache import INF
from terragen.terrain.sim.engine import _end_allowed
from terragen.terrain.sim.state import GameState

#: lead turns in a row on which no roll could take the lead to a free cell nearer its goal, the rule
#: (or its partner) taking one away, and its partner did not move, before the pair plans together.
#: Why 6: planning is the slow part of a team game, and such waits are common and mostly end by
#: themselves (on one brutal board pairs began 3.4 plans a game at 2); on 18 tuning cases (8
#: generated boards and the four-seat example, two pairings each, 400 games a case) every value
#: from 1 to 12 left 18 to 20 of 7,200 games unfinished (88 before), and 6 ran 1.35x as fast as 2
STALL_TURNS = 6
#: turns in a row a seat got nowhere with every cell nearer its goal taken, one by an opponent's
#: token, before it steps aside (:func:`_unless_blocked`)
YIELD_TURNS = 3
#: turns a seat that stepped aside then stands there
HOLD_TURNS = 2
#: a joint value this large or larger means no way to finish (whole numbers keep the sweep fast;
#: sums of two of them still fit an int32)
FAR = 1 << 24
_KEY = "convoy"


def follow_move(state: GameState, seat: int, options: Mapping[int, int], lead: int) -> int:
    """The convoy's follower: the option nearest ``lead`` (any distance up to 2 counts as near),
    then the one cheapest for its own tour (pips ignored), fewest points, lowest cell."""
    h = state.board.hexes
    there = h[state.pos[lead]]
    groups = state.setup.groups[seat]
    return min(options, key=lambda q: (max(hx.distance(h[q], there), 2),
                                        state.cache.tours(groups, state.gain(seat, q), True)[q], options[q], q))


def plans(state: GameState) -> bool:
    """Whether the rules let teams plan: team play with moves along the pips (not the green die's
    lines, not LOST!)."""
    return bool(state.rules.teams) and state.rules.uses_pips


def convoy_move(state: GameState, seat: int, roll: object, options: Mapping[int, int],
                own: Callable[[], int]) -> int:
    """``seat``'s move in team play; ``own()`` is its own racing choice (what it plays alone). ``roll``
    is this turn's (the rules' move legality is in ``options``)."""
    mates = state.teammates(seat)
    if not mates:
        return _unless_blocked(state, seat, options, own()) if plans(state) else own()
    lead = min(mates)
    if seat > lead:  # a follower
        old = follow_move(state, seat, options, lead)
        if len(mates) != 1 or not plans(state):
            return old
        note = state.notes.get((_KEY, state.team_of[seat]))
        if note is None or not _still_planning(state, lead, seat, note):
            return old
        return _planned(state, seat, lead, seat, options, old)
    old = own()
    if len(mates) != 1 or not plans(state):
        return old  # a team of three or more still together plays the convoy only
    follower = mates[0]
    key = (_KEY, state.team_of[seat])
    note = state.notes.get(key)
    if note is None:
        # stalled lead turns, planning, the partner's cell at the lead's last stalled turn, and while
        # planning: the lead's own cost to go and both collections when it began
        note = state.notes[key] = [0, False, -1, INF, None]
    if not _still_planning(state, seat, follower, note):
        if not _stalled(state, seat, follower, note, old):
            return _unless_blocked(state, seat, options, old)
        note[1], note[3] = True, _cost_to_go(state, seat)
        note[4] = (state.collected[seat], state.collected[follower])
    return _unless_blocked(state, seat, options, _planned(state, seat, seat, follower, options, old))


def _cost_to_go(state: GameState, seat: int) -> float:
    """``seat``'s own cheapest cost to go from where it stands."""
    return state.cache.tours(state.setup.groups[seat], state.collected[seat])[state.pos[seat]]


def _still_planning(state: GameState, lead: int, follower: int, note: list) -> bool:
    """Whether a pair that began to plan plans still: until the lead is nearer its goal than where it
    stalled, or either collects a target (then the convoy goes on as before)."""
    if not note[1]:
        return False
    if (state.collected[lead], state.collected[follower]) == note[4] \
            and state.cache.tours(state.setup.groups[lead], state.collected[lead])[state.pos[lead]] >= note[3]:
        return True
    note[0], note[1] = 0, False
    return False


def _stalled(state: GameState, lead: int, follower: int, note: list, choice: int) -> bool:
    """Count a lead turn on which its own ``choice`` is to stand still, no roll could take it to a free
    cell nearer its goal because the distance rule (or its partner standing there) takes away such a
    cell, and its partner has not moved since the lead's last such turn; a move of the lead starts the
    count again. True when that makes :data:`STALL_TURNS` in a row (a stall the dice cannot end: only
    the partner can, and it stands still)."""
    pos = state.pos[lead]
    if choice != pos:
        note[0], note[2] = 0, -1
        return False
    there = state.pos[follower]
    moved, note[2] = there != note[2], there
    if moved:
        return False
    occupant = state.occupant
    held = False  # whether the rule or its partner keeps it from a cell nearer its goal
    for q in _nearer(state, lead):  # on any roll
        other = occupant.get(q)
        if other is None and _end_allowed(state, lead, q):
            return False  # a better roll would have got it on: a wait for the dice, not a stall
        held = held or other is None or other == follower
    if held:
        note[0] += 1
    return note[0] >= STALL_TURNS


def _nearer(state: GameState, seat: int) -> tuple[int, ...]:
    """The cells a roll could take ``seat`` to (within 6 points) that are nearer its goal, by its own
    cheapest cost to go; kept in the board state's memo."""
    groups, mask, pos = state.setup.groups[seat], state.collected[seat], state.pos[seat]
    key = (_KEY, "nearer", groups, mask, pos)
    memo = state.cache.memo
    got = memo.get(key)
    if got is None:
        tours = state.cache.tours
        now = tours(groups, mask)[pos]
        got = memo[key] = () if now == INF else tuple(q for q in state.cache.within(pos, MAX_BUDGET)
                                                      if tours(groups, state.gain(seat, q))[q] < now)
    return got


def _unless_blocked(state: GameState, seat: int, options: Mapping[int, int], choice: int) -> int:
    """``choice``, unless ``seat`` (racing for its own targets: a lead, or a partner left alone) has stood
    still for :data:`YIELD_TURNS` turns in a row with every cell a roll could take it to nearer its goal
    taken, one of them by an opponent's token: then the one of the two further from its goal steps
    aside (to its cheapest other cell from which it can still finish), the nearer one too once it has
    waited twice as long, and stands there :data:`HOLD_TURNS` turns. Why: no token is sent home in
    team play, so two tokens that each stand where the other must go waited to the turn cap."""
    notes = state.notes
    key = ("blocked", seat)
    waited = notes.get(key, 0)
    pos = state.pos[seat]
    if waited < 0:  # it stepped aside: it stands there a while, for the other to pass
        notes[key] = waited + 1
        return pos
    if choice != pos:
        if waited:
            notes[key] = 0
        return choice
    nearer = _nearer(state, seat)
    team = state.team_of[seat]
    blocker = None  # an opponent's token on a cell nearer its goal (the first in seat order)
    for other in range(state.players):
        if state.team_of[other] != team and state.pos[other] in nearer:
            blocker = other
            break
    if blocker is None:
        return choice
    occupant = state.occupant
    for q in nearer:  # on any roll: is every cell nearer the goal taken?
        if q not in occupant and _end_allowed(state, seat, q):
            return choice  # a better roll would have got it on
    groups = state.setup.groups[seat]
    tours = state.cache.tours
    now = tours(groups, state.collected[seat])[pos]
    waited = notes[key] = waited + 1
    if waited < YIELD_TURNS:
        return choice
    theirs = tours(state.setup.groups[blocker], state.collected[blocker])[state.pos[blocker]]
    if (now, seat) < (theirs, blocker) and waited < 2 * YIELD_TURNS:
        return choice  # the nearer one keeps its place for now
    rank = state.setup.rank[seat]
    aside = [(t, options[q], rank[q], q) for q in options if q != pos
             for t in (tours(groups, state.gain(seat, q))[q],) if t < INF]
    if not aside:
        return choice
    notes[key] = -HOLD_TURNS
    return min(aside)[3]


def _planned(state: GameState, seat: int, lead: int, follower: int, options: Mapping[int, int], old: int) -> int:
    """A planning pair's move for ``seat``: the option that leaves the team least to walk; ``old`` when
    it is among the best, or when no option leaves the pair a way to finish."""
    a, b = state.pos[lead], state.pos[follower]
    values, pidx = _values_for(state, lead, follower)
    mask = state.collected[seat]
    other = follower if seat == lead else lead
    alone = int(_lone(state, state.setup.groups[other], state.collected[other])[state.pos[other]])
    mine = state.setup.groups[seat]

    def left(q: int) -> int:
        """What the team still has to walk after ``seat`` moves to ``q``: the plan's value, or past
        a target of ``seat`` (the plan's horizon) both partners' own cheapest tours."""
        m = state.gain(seat, q)
        if m == mask:
            return int(values[pidx[(q, b) if seat == lead else (a, q)]])
        return min(FAR, alone + int(_lone(state, mine, m)[q]))

    # the options are this turn's real moves (a move passes over cells the plan's steps may not stand
    # on), so a pair the plan sees no way on from may still have one after a move
    scored = {q: left(q) for q in options}
    best = min(scored.values())
    if best >= FAR or scored[old] == best:
        return old
    rank = state.setup.rank[seat]
    return min((q for q in options if scored[q] == best), key=lambda q: (options[q], rank[q]))


def team_turn(state: GameState, seat: int, turns: Callable) -> tuple | None:
    """On doubles, for a seat of a planning pair whose plan sees no way on from where the pair stands
    because the pips shut a partner (or its destination) in, with no way home along them at all: the
    turn of a piece next to that partner or next to one of its destinations that gives it the
    cheapest way home, or None when none gives it one. ``turns(pattern, rotation, hand)`` lists a
    piece's other turns (``policies._turns``). Remembered per board state and pair. Why so narrow:
    weighing every turn near the pair by the plan itself cost up to half a second a double, and ran
    a team game at a fortieth of its speed."""
    mates = state.teammates(seat)
    if len(mates) != 1 or not plans(state):
        return None
    lead, follower = min(seat, mates[0]), max(seat, mates[0])
    note = state.notes.get((_KEY, state.team_of[seat]))
    if note is None or not _still_planning(state, lead, follower, note):
        return None
    tours = state.cache.tours
    groups = state.setup.groups
    shut = [s for s in (lead, follower) if tours(groups[s], state.collected[s])[state.pos[s]] == INF]
    if not shut:
        return None
    values, pidx = _values_for(state, lead, follower)
    if values[pidx[state.pos[lead], state.pos[follower]]] < FAR:
        return None
    who = shut[0]
    key = (_KEY, "turn", groups[who], state.collected[who], state.pos[who], state.setup.hand[seat])
    memo = state.cache.memo
    if key in memo:
        return memo[key]
    board, cache, h = state.board, state.cache, state.board.hexes
    near = [h[state.pos[who]]] + [h[c] for grp in state.remaining_groups(who) for c in grp]
    cells = [c for c in range(len(board)) if board.passable(c) and any(hx.distance(h[c], x) <= 1 for x in near)]
    best, choice = INF, None
    for cell in cells:
        now = board.rotation[cell]
        for rot, mask in turns(board.pattern[cell], now, state.setup.hand[seat]):
            if mask == board.mask[cell]:
                continue
            old_out = cache.arcs[cell]
            board.set_rotation(cell, rot)
            cache.rotated(cell, old_out)
            home = tours(groups[who], state.collected[who])[state.pos[who]]
            back = cache.arcs[cell]
            board.set_rotation(cell, now)
            cache.rotated(cell, back)
            if home < best:
                best, choice = home, ("rotate", cell, rot)
    memo[key] = choice
    return choice


def _values_for(state: GameState, lead: int, follower: int) -> tuple[np.ndarray, np.ndarray]:
    """The pair's joint values for its collections, and the pair numbers to read them by, from a region
    at least as wide as the rule lets the pair stand apart now (``limit``): a wider region already made on this board state gives the same values to
    every pair this close (from there no move can widen the gap beyond ``limit``), so it is used
    rather than making another (the pair's gap changes as it moves)."""
    h = state.board.hexes
    limit = max(state.rules.team_distance, hx.distance(h[state.pos[lead]], h[state.pos[follower]]))
    hexes = _hexes(state)
    groups = state.setup.groups
    ml, mf = state.collected[lead], state.collected[follower]
    memo = state.cache.memo
    for wider in range(limit, _widest(hexes) + 1):
        got = memo.get((_KEY, groups[lead], groups[follower], ml, mf, wider))
        if got is not None:
            return got, _region(hexes, wider, state.rules.team_distance)[2]
    return joint_values(state, lead, follower, ml, mf, limit), _region(hexes, limit, state.rules.team_distance)[2]


def _hexes(state: GameState) -> tuple:
    """The board's cells as a tuple (the key of the geometry's tables), made once a run."""
    per_run = state.cache.per_run
    got = per_run.get(_KEY)
    if got is None:
        got = per_run[_KEY] = tuple(state.board.hexes)
    return got


# ---- the joint search ---------------------------------------------------------------------------

@lru_cache(maxsize=16)
def _geometry(hexes: tuple) -> np.ndarray:
    """Hex distances between every two cells of a board."""
    n = len(hexes)
    q, r = np.array([h[0] for h in hexes]), np.array([h[1] for h in hexes])
    dq, dr = q[:, None] - q[None, :], r[:, None] - r[None, :]
    d = np.full((n + 1, n + 1), 99, dtype=np.int16)  # the last row and column: the padding cell, far from all
    d[:n, :n] = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    return d


@lru_cache(maxsize=16)
def _widest(hexes: tuple) -> int:
    """The widest gap two cells of the board can have."""
    return 2 * max(map(hx.length, hexes))


@lru_cache(maxsize=64)
def _region(hexes: tuple, limit: int, near: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of distinct cells at most ``limit`` apart (every pair a team this far apart can
    still be in): their cells, the pair's number for every two cells (-1 outside; the padding cell
    is outside), and how far apart each pair's next move may leave it (max(``near``, its distance))."""
    dist = _geometry(hexes)
    n = dist.shape[0] - 1
    a, b = np.nonzero((dist[:n, :n] <= limit) & ~np.eye(n, dtype=bool))
    pidx = np.full((n + 1, n + 1), -1, dtype=np.int32)
    pidx[a, b] = np.arange(len(a))
    return a.astype(np.int32), b.astype(np.int32), pidx, np.maximum(near, dist[a, b])


def _arc_table(state: GameState) -> tuple[np.ndarray, np.ndarray]:
    """The board state's move graph as arrays: per cell its arcs' ends (padded with the padding cell)
    and costs (padded with inf). Kept in the board state's memo."""
    memo = state.cache.memo
    got = memo.get((_KEY, "arcs"))
    if got is None:
        arcs = state.cache.arcs
        n = len(arcs)
        k = max(1, max(len(x) for x in arcs))
        dest = np.full((n + 1, k), n, dtype=np.int32)
        cost = np.full((n + 1, k), FAR, dtype=np.int32)
        for i, out in enumerate(arcs):
            for j, (t, c, _) in enumerate(out):
                dest[i, j] = t
                cost[i, j] = c
        got = memo[(_KEY, "arcs")] = (dest, cost)
    return got


def joint_values(state: GameState, lead: int, follower: int, ml: int, mf: int, limit: int) -> np.ndarray:
    """For every pair of the region ``limit`` (see :func:`_region`): the least total points lead and
    follower must still walk, from those cells with collections ``ml`` and ``mf``, for both to finish
    (:data:`FAR` or more when the board state gives them no way). A move is one partner's step along
    an arc of the move graph, allowed when it does not end on the partner and leaves the pair at most
    max(3, its current distance) apart; a partner that collects its last target leaves the board and
    the other walks its own cheapest tour. Other tokens are not in the way (they move on).

    Exact: a Bellman-Ford sweep of the whole region at once (numpy, whole numbers), each collection's
    values from those of the collections one target on. Kept per board state."""
    setup = state.setup
    gl, gf = setup.groups[lead], setup.groups[follower]
    key = (_KEY, gl, gf, ml, mf, limit)
    memo = state.cache.memo
    got = memo.get(key)
    if got is not None:
        return got
    hexes = _hexes(state)
    geo = _geometry(hexes)
    pa, pb, pidx, lim = _region(hexes, limit, state.rules.team_distance)
    dest, cost = _arc_table(state)
    n = len(state.board)
    full_l, full_f = (1 << len(gl)) - 1, (1 << len(gf)) - 1
    values = np.full(len(pa), FAR, dtype=np.int32)
    nexts, costs = [], []  # per arc of either partner (rows), per pair: the next pair, the step's cost
    for mover, cells, other, groups, mask, full in ((0, pa, pb, gl, ml, full_l), (1, pb, pa, gf, mf, full_f)):
        ends = dest[cells].T  # arcs x pairs: rows are contiguous, so the minimum over arcs is fast
        c = cost[cells].T
        nxt = pidx[ends, other] if mover == 0 else pidx[other, ends]
        ok = (nxt >= 0) & (geo[ends, other] <= lim)
        c = np.where(ok, c, FAR)
        gain = _gains(groups, mask, n)[ends]  # the collection after the step (mask when no target)
        moving = gain == mask
        nexts.append(np.where(ok & moving, nxt, 0))
        costs.append(np.where(moving, c, FAR))
        for m in np.unique(gain[ok & ~moving]):
            m = int(m)
            hit = ok & (gain == m)
            # the partner's own cheapest tour from where it stands; when the mover has more to collect,
            # plus the mover's own from the target (the plan looks as far as the next target: a
            # planning pair goes back to the convoy there, :func:`convoy_move`)
            other_groups, other_mask = (gf, mf) if mover == 0 else (gl, ml)
            after = _lone(state, other_groups, other_mask)[other]
            if m != full:
                after = np.minimum(after + _lone(state, groups, m)[ends], FAR)
            values = np.minimum(values, np.where(hit, c + after, FAR).min(axis=0))
    nxt = np.ascontiguousarray(np.concatenate(nexts), dtype=np.int32)
    c = np.ascontiguousarray(np.concatenate(costs), dtype=np.int32)
    values = np.minimum(values, FAR).astype(np.int32)
    while True:  # Bellman-Ford: one more step of either partner a sweep, until nothing changes
        cand = values[nxt]
        cand += c
        new = cand.min(axis=0)
        np.minimum(new, values, out=new)
        if not (new < values).any():
            break
        values = new
    values.setflags(write=False)
    memo[key] = values
    return values


def _lone(state: GameState, groups: tuple, mask: int) -> np.ndarray:
    """A seat's own cheapest tour from every cell (and the padding cell), as whole numbers, :data:`FAR`
    for no way. Kept in the board state's memo."""
    memo = state.cache.memo
    key = (_KEY, "lone", groups, mask)
    got = memo.get(key)
    if got is None:
        got = np.array([FAR if t == INF else int(t) for t in state.cache.tours(groups, mask)] + [FAR], dtype=np.int32)
        got.setflags(write=False)
        memo[key] = got
    return got


def _gains(groups: tuple, mask: int, n: int) -> np.ndarray:
    """Per cell (and the padding cell): the collection after ending a move there, from ``mask``."""
    out = np.full(n + 1, mask, dtype=np.int64)
    for bit, grp in enumerate(groups):
        if not mask >> bit & 1:
            for c in grp:
                out[c] |= 1 << bit
    return out
