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
for :data:`HOLD_TURNS` turns (:func:`_unless_blocked`). Where no cell off the other's road lets it
finish (head on in a one-lane road), such a seat that has no way to a target round the other tokens
at all turns a piece on doubles to open one (:func:`_unblocking_turn`, from :func:`team_turn`).

A team of three that stalls plans as one, over triples of cells, and turns a piece for itself when
the pips leave it no joint way (:mod:`terragen.terrain.sim.convoy_trio`); teams of four or more plan
as pairs (:func:`_threes_move`).

Games without teams never come here. The joint values are kept per board state (its ``memo``), so
the games of a run share them.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from functools import lru_cache

import numpy as np

from terragen.grids import hex as hx
from terragen.terrain.rules import MAX_BUDGET, step_allowed, step_cost
from terragen.terrain.sim.cache import INF
from terragen.terrain.sim.engine import _end_allowed, hex_gaps
from terragen.terrain.sim.state import GameState
from terragen.terrain.expected import COMPILED

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
#: lead turns a team of three or more keeps to a pair's plan (:func:`_threes_move`) before it goes back
#: to the convoy: the plan leaves the third teammate out, and a plan it holds back never ends by itself
#: (without this bound, teams on every other corner left twice the games unfinished: 99 -> 180 of 1,000
#: on one board; ``bench/README.md``, "Team play: teams of three leave games unfinished")
THREES_PLAN_TURNS = 12
#: a joint value this large or larger means no way to finish (whole numbers keep the sweep fast;
#: sums of two of them still fit an int32)
FAR = 1 << 24
_KEY = "convoy"
#: the compiled :func:`_sweep_python` (``_kernels.c``: ``pair_sweeps``), or None
_PAIR_SWEEPS = getattr(COMPILED, "pair_sweeps", None)


def follow_move(state: GameState, seat: int, options: Mapping[int, int], lead: int, toward_goal: bool = False) -> int:
    """The convoy's follower: the option nearest ``lead`` (any distance up to 2 counts as near),
    then the one cheapest for its own tour (pips ignored), fewest points, lowest cell.

    With ``toward_goal`` (a stalled lead of a team of three or more, :func:`_threes_move`) the cells
    within 3 hexes of one of the lead's remaining destinations, so that the lead may end on it under
    the distance rule, come after nearness to the lead (nearer ones first beyond 3)."""
    gaps = hex_gaps(state)
    row = gaps[state.pos[lead]]
    groups = state.setup.groups[seat]
    tours = state.cache.tours
    targets = state.setup.target_cells[seat]
    elev = tours(groups, state.collected[seat], True)  # its tour where the move collects nothing (most cells)

    def own(q: int) -> float:
        return (tours(groups, state.gain(seat, q), True) if q in targets else elev)[q]

    goals = [c for c in state.setup.target_cells[lead] if state.gain(lead, c) != state.collected[lead]] \
        if toward_goal else []
    if not goals:
        return min(options, key=lambda q: (max(row[q], 2), own(q), options[q], q))
    return min(options, key=lambda q: (max(row[q], 2), max(min(gaps[c][q] for c in goals), 3), own(q), options[q], q))


def plans(state: GameState) -> bool:
    """Whether the rules let teams plan: team play with moves along the pips (not the green die's
    lines, not LOST!)."""
    return bool(state.rules.teams) and state.rules.uses_pips


def convoy_move(state: GameState, seat: int, roll: object, options: Mapping[int, int],
                own: Callable[[], int]) -> int:
    """``seat``'s move in team play; ``own()`` is its own racing choice (what it plays alone). ``roll``
    is this turn's (the rules' move legality is in ``options``)."""
    mates = state.teammates(seat)
    planning = plans(state)
    if not mates:
        return _unless_blocked(state, seat, options, own()) if planning else own()
    if len(mates) > 1 and planning:
        return _threes_move(state, seat, mates, options, own)
    lead = min(mates)
    if seat > lead:  # a follower
        old = follow_move(state, seat, options, lead)
        if len(mates) != 1 or not planning:
            return old
        note = state.notes.get((_KEY, state.team_of[seat]))
        if note is None or not _still_planning(state, lead, seat, note):
            return old
        return _planned(state, seat, lead, seat, options, old)
    old = own()
    if len(mates) != 1 or not planning:
        return old  # a team of three or more still together: see _threes_move
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


def _threes_move(state: GameState, seat: int, mates: list[int], options: Mapping[int, int],
                 own: Callable[[], int]) -> int:
    """``seat``'s move in a team of three or more still together (``mates`` its teammates on the board).

    A team of three that has stalled plans as one (:mod:`terragen.terrain.sim.convoy_trio`); where it
    does not (it has not stalled, or the board state gives the three no joint way), and in a team of
    four or more, the convoy as for a pair, with two additions. A stalled lead plans with the teammate
    that alone holds it back (:func:`_holding_teammate`), as a stalled pair does, for at most
    :data:`THREES_PLAN_TURNS` of its turns; and when no one teammate alone holds it back, once it has
    stood still :data:`STALL_TURNS` turns its followers close in on its next destination
    (:func:`follow_move` with ``toward_goal``), so that it may step onto it. Why: a lead beside its
    destination waited for good while a teammate three hexes behind, near enough for the convoy, could
    not close up; on eight freshly generated six-seat boards 2,541 of 16,000 greedy games in teams of
    three never finished, 1,421 with these rules (``bench/README.md``, "Team play: teams of three leave
    games unfinished")."""
    lead = min(mates + [seat])
    if len(mates) == 2:  # a team of three: a stalled one plans as one (convoy_trio), else as below
        from terragen.terrain.sim.convoy_trio import trio_move

        made: list[int] = []

        def own_once() -> int:
            if not made:
                made.append(own())
            return made[0]

        trio = tuple(sorted(mates + [seat]))
        got = trio_move(state, seat, trio, options,
                        own_once if seat == lead else lambda: follow_move(state, seat, options, lead))
        if got is not None:
            return _unless_blocked(state, seat, options, got) if seat == lead else got
        own = own_once
    key = (_KEY, "threes", state.team_of[seat])
    note = state.notes.get(key)
    if note is None:
        # as a pair's note (see convoy_move), then the partner it plans with, the lead's turns standing
        # still outside a plan, and the lead's turns in the plan
        note = state.notes[key] = [0, False, -1, INF, None, None, 0, 0]
    if seat != lead:
        if note[5] == seat and _still_planning(state, lead, seat, note):
            return _planned(state, seat, lead, seat, options, follow_move(state, seat, options, lead))
        return follow_move(state, seat, options, lead, toward_goal=note[6] >= STALL_TURNS)
    old = own()
    planning = note[5] is not None and _still_planning(state, lead, note[5], note)
    if not planning:
        note[7] = 0
        note[6] = note[6] + 1 if old == state.pos[seat] else 0
        partner = _holding_teammate(state, lead, mates)
        if partner is not None:
            if note[5] != partner:
                note[0], note[2], note[5] = 0, -1, partner
            if _stalled(state, lead, partner, note, old):
                note[1], note[3] = True, _cost_to_go(state, lead)
                note[4] = (state.collected[lead], state.collected[partner])
                planning = True
        if not planning:
            return _unless_blocked(state, seat, options, old)
    note[6] = 0
    note[7] += 1
    if note[7] > THREES_PLAN_TURNS:  # the plan has not got the lead on: back to the convoy
        note[0], note[1], note[7] = 0, False, 0
        return _unless_blocked(state, seat, options, old)
    return _unless_blocked(state, seat, options, _planned(state, seat, lead, note[5], options, old))


def _holding_teammate(state: GameState, lead: int, mates: list[int]) -> int | None:
    """The teammate that alone, by the distance rule, keeps ``lead`` from the most free cells nearer its
    goal (ties: the lower seat), or None when no such cell is held by one teammate alone: the partner a
    pair's plan can free the lead with."""
    gaps = hex_gaps(state)
    here = state.pos[lead]
    near = state.rules.team_distance
    held_by = dict.fromkeys(mates, 0)
    for q in _nearer(state, lead):
        if q in state.occupant:
            continue
        holding = [m for m in mates if gaps[state.pos[m]][q] > max(near, gaps[state.pos[m]][here])]
        if len(holding) == 1:
            held_by[holding[0]] += 1
    best = max(mates, key=lambda m: (held_by[m], -m))
    return best if held_by[best] else None


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
    targets = state.setup.target_cells[seat]
    # what the team still has to walk after ``seat`` moves to q: the plan's value (read for all the
    # options at once), or past a target of ``seat`` (the plan's horizon) both partners' own cheapest
    # tours. The options are this turn's real moves (a move passes over cells the plan's steps may not
    # stand on), so a pair the plan sees no way on from may still have one after a move
    cells = list(options)
    planned = values.take(pidx[cells, b] if seat == lead else pidx[a, cells]).tolist()
    scored = {}
    for q, v in zip(cells, planned):
        if q in targets:  # only a target can change the collection
            m = state.gain(seat, q)
            if m != mask:
                v = min(FAR, alone + int(_lone(state, mine, m)[q]))
        scored[q] = v
    best = min(scored.values())
    if best >= FAR or scored[old] == best:
        return old
    rank = state.setup.rank[seat]
    return min((q for q in options if scored[q] == best), key=lambda q: (options[q], rank[q]))


def team_turn(state: GameState, seat: int, turns: Callable) -> tuple | None:
    """On doubles, for a seat of a team of three the pips hold fast, the turn its joint plan needs first
    (:func:`terragen.terrain.sim.convoy_trio.trio_turn`). For a seat of a planning pair whose plan sees
    no way on from where the pair stands because the pips shut a partner (or its destination) in, with
    no way home along them at all: the turn of a piece next to that partner or next to one of its
    destinations that gives it the cheapest way home, or None when none gives it one; when neither
    partner is shut in but the pips leave the two no joint way, the turn their plan needs first
    (:func:`terragen.terrain.sim.convoy_open.pair_turn`). ``turns(pattern, rotation, hand)`` lists a
    piece's other turns (``policies._turns``). Remembered per board state and pair. Why so narrow:
    weighing every turn near the pair by the plan itself cost up to half a second a double, and ran
    a team game at a fortieth of its speed."""
    if not plans(state):
        return None
    act = _unblocking_turn(state, seat, turns)
    if act is not None:
        return act
    mates = state.teammates(seat)
    if len(mates) == 2:
        from terragen.terrain.sim.convoy_trio import trio_turn

        return trio_turn(state, seat, turns)
    if len(mates) != 1:
        return None
    lead, follower = min(seat, mates[0]), max(seat, mates[0])
    note = state.notes.get((_KEY, state.team_of[seat]))
    if note is None or not _still_planning(state, lead, follower, note):
        return None
    tours = state.cache.tours
    groups = state.setup.groups
    shut = [s for s in (lead, follower) if tours(groups[s], state.collected[s])[state.pos[s]] == INF]
    if not shut:  # both have a way home: if the pips leave the two no joint way, the turn it needs first
        from terragen.terrain.sim.convoy_open import pair_turn

        return pair_turn(state, lead, follower, turns, state.setup.hand[seat])
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


def _unblocking_turn(state: GameState, seat: int, turns: Callable) -> tuple | None:
    """On doubles, for a seat that has waited :data:`YIELD_TURNS` turns or more with every cell nearer its
    goal taken, one by an opponent (:func:`_unless_blocked`): the turn of a piece within two hexes of it
    that opens it the cheapest way to a target of its own around every other token (its cost with the
    tokens standing where they are, along the pips, as if the piece were turned), when it has no such
    way now; None otherwise (a way round that is dearer or out of this turn's reach needs no turn). Remembered per board state, seat, cell
    and the other tokens' cells.

    Why: two tokens head on in a one-lane road, each standing on or before the other's destination, with
    no hex off the road from which either could still finish, waited to the turn cap (5.8% of one hard
    board's team games, as 0+1,2+3): stepping aside needs a way around, and a sensible player turns a
    piece to make one. The token then steps aside onto it, or goes round by it (:func:`_unless_blocked`)."""
    if state.notes.get(("blocked", seat), 0) < YIELD_TURNS:
        return None
    pos = state.pos[seat]
    occupant = state.occupant
    taken = frozenset(c for c, s in occupant.items() if s != seat)
    goals = frozenset(c for grp in state.remaining_groups(seat) for c in grp) - taken
    if pos < 0 or not goals:
        return None  # its target is taken: only the other's move can free it
    hand = state.setup.hand[seat]
    key = (_KEY, "unblock", pos, goals, taken, hand)
    memo = state.cache.memo
    if key in memo:
        return memo[key]
    board = state.board
    arcs = state.cache.arcs
    best, choice = _way_around(state, pos, goals, taken, -1, 0, INF), None
    if best < INF:  # it has a way round already (dearer, or not yet in reach of a roll): no turn needed
        memo[key] = None
        return None
    # a turn changes only its own piece's ways out, so it can matter only on a piece the token can get
    # to as things stand
    row = hex_gaps(state)[pos]
    seen, todo = {pos}, [pos]
    while todo:
        for j, _, _ in arcs[todo.pop()]:
            if j not in seen and j not in taken:
                seen.add(j)
                todo.append(j)
    for cell in sorted(seen):
        if row[cell] > 2:
            continue
        for rot, mask in turns(board.pattern[cell], board.rotation[cell], hand):
            if mask == board.mask[cell]:
                continue
            cost = _way_around(state, pos, goals, taken, cell, mask, best)
            if cost < best:
                best, choice = cost, ("rotate", cell, rot)
    memo[key] = choice
    return choice


def _way_around(state: GameState, start: int, goals: frozenset[int], taken: frozenset[int], cell: int,
                mask: int, bound: float) -> float:
    """The cheapest cost from ``start`` to any of ``goals`` along the pips, through no cell of ``taken``,
    with piece ``cell`` (-1: none) turned to exits ``mask`` (only its own arcs change: entering a piece
    does not depend on its pips); :data:`INF` when there is none cheaper than ``bound``. A plain
    Dijkstra: it runs only for a seat that is stuck, on doubles."""
    board = state.board
    arcs = state.cache.arcs
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        d, here = heapq.heappop(heap)
        if d >= bound:
            break
        if d > best[here]:
            continue
        if here in goals:
            return d
        if here == cell:
            out = [(j, step_cost(board.level[j] - board.level[here])) for k, j in enumerate(board.nbr[here])
                   if mask >> k & 1 and j >= 0 and board.passable(j)
                   and step_allowed(board.level[j] - board.level[here])]
        else:
            out = [(j, c) for j, c, _ in arcs[here]]
        for j, c in out:
            if j not in taken and d + c < best.get(j, INF):
                best[j] = d + c
                heapq.heappush(heap, (d + c, j))
    return INF


def _values_for(state: GameState, lead: int, follower: int) -> tuple[np.ndarray, np.ndarray]:
    """The pair's joint values for its collections, and the pair numbers to read them by, from a region
    at least as wide as the rule lets the pair stand apart now (``limit``): a wider region already made
    on this board state gives the same values to every pair this close (from there no move can widen
    the gap beyond ``limit``), so it is used rather than making another (the pair's gap changes as it
    moves).

    The answer is kept in the board state's memo under the pair's groups, collections and ``limit``:
    once a region at least ``limit`` wide is made on a board state, no narrower one is made for these
    groups there (a search is made only where none as wide exists), so the same question gets the same
    answer; and a planning pair asks it on each of its turns (the look through the regions was a tenth
    of a team game's time)."""
    groups = state.setup.groups
    gl, gf = groups[lead], groups[follower]
    ml, mf = state.collected[lead], state.collected[follower]
    limit = max(state.rules.team_distance, hex_gaps(state)[state.pos[lead]][state.pos[follower]])
    memo = state.cache.memo
    asked = (_KEY, "for", gl, gf, ml, mf, limit)
    got = memo.get(asked)
    if got is not None:
        return got
    hexes = _hexes(state)
    near = state.rules.team_distance
    for wider in range(limit, _widest(hexes) + 1):
        values = memo.get((_KEY, gl, gf, ml, mf, wider))
        if values is not None:
            got = memo[asked] = values, _region(hexes, wider, near)[2]
            return got
    got = memo[asked] = joint_values(state, lead, follower, ml, mf, limit), _region(hexes, limit, near)[2]
    return got


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


@lru_cache(maxsize=16)
def neighbour_table(hexes: tuple) -> np.ndarray:
    """Per cell (and the padding cell, the last row) its neighbour in each direction 0-5 and a seventh,
    "no arc" (the padding cell where there is none): the joint searches' steps (pairs' and trios')."""
    n = len(hexes)
    index = {h: i for i, h in enumerate(hexes)}
    nbr = np.full((n + 1, 7), n, dtype=np.intp)
    for i, h in enumerate(hexes):
        for d in range(6):
            nbr[i, d] = index.get(hx.neighbor(h, d), n)
    return nbr


@lru_cache(maxsize=64)
def _steps(hexes: tuple, limit: int, near: int) -> tuple[tuple[tuple[np.ndarray, np.ndarray], ...], np.ndarray,
                                                         np.ndarray, np.ndarray]:
    """The region's moves by direction, the same on every board state of a run: per partner (lead,
    then follower), for every direction 0-5 and a seventh for "no arc", and every pair of the region
    ``limit`` (see :func:`_region`), flattened direction-major: the pair the step leads to (-1 when it
    leaves the region, ends on the partner, or breaks the distance rule) and the cell it ends on (the
    padding cell when none). With them a board state's arcs give the pairs' moves by one lookup each
    (:func:`_pair_moves`), rather than three two-dimensional ones per joint search. Then the pairs'
    numbers in order, and their lead's and follower's cells, as index arrays (``take`` with them is
    several times as fast as indexing with the region's own int32 arrays)."""
    dist = _geometry(hexes)
    pa, pb, pidx, lim = _region(hexes, limit, near)
    nbr = neighbour_table(hexes)
    out = []
    for cells, other, lead in ((pa, pb, True), (pb, pa, False)):
        moved = nbr[cells].T  # 7 x pairs
        nxt = pidx[moved, other] if lead else pidx[other, moved]
        nxt = np.where(dist[moved, other] <= lim, nxt, -1)
        out.append((np.ascontiguousarray(nxt, dtype=np.intp).ravel(), np.ascontiguousarray(moved).ravel()))
    return tuple(out), np.arange(len(pa), dtype=np.intp), pa.astype(np.intp), pb.astype(np.intp)


def _slots(state: GameState) -> tuple[np.ndarray, np.ndarray]:
    """The board state's move graph as arrays, arcs x cells: per cell its arcs' directions (padded with
    6, "no arc") and costs (padded with :data:`FAR`); the padding cell has none. Kept in the board
    state's memo."""
    memo = state.cache.memo
    got = memo.get((_KEY, "slots"))
    if got is None:
        per_run = state.cache.per_run
        dirs = per_run.get((_KEY, "dirs"))
        if dirs is None:  # per cell: its neighbours' directions
            dirs = per_run[(_KEY, "dirs")] = [{j: d for d, j in enumerate(row) if j >= 0} for row in state.board.nbr]
        arcs = state.cache.arcs
        n = len(arcs)
        k = max(1, max(len(x) for x in arcs))
        way = np.full((n + 1, k), 6, dtype=np.intp)
        cost = np.full((n + 1, k), FAR, dtype=np.int32)
        for i, out in enumerate(arcs):
            di = dirs[i]
            for j, (t, c, _) in enumerate(out):
                way[i, j] = di[t]
                cost[i, j] = c
        got = memo[(_KEY, "slots")] = (np.ascontiguousarray(way.T), np.ascontiguousarray(cost.T))
    return got


def _pair_moves(state: GameState, limit: int, slots: tuple[np.ndarray, np.ndarray] | None = None
                ) -> tuple[tuple[np.ndarray, ...], ...]:
    """Per partner (lead, then follower), over the arcs of its cell (rows) and the pairs of the region
    ``limit`` (columns): the pair one step along that arc leads to (0 where it may not be taken), the
    cell it ends on, its cost (:data:`FAR` where it may not be taken), and whether it may be taken.
    Made for each search, not kept: they are some hundreds of kB a board state, a run keeps up to
    :data:`~terragen.terrain.sim.cache.MAX_STATES` board states, and making them is a tenth of a search.
    ``slots`` replaces the board state's move graph (:func:`~terragen.terrain.sim.convoy_open.open_slots`)."""
    steps, order, pa, pb = _steps(_hexes(state), limit, state.rules.team_distance)
    way, cost = _slots(state) if slots is None else slots
    size = len(pa)
    got = []
    for (nxt_by_way, moved_by_way), cells in zip(steps, (pa, pb)):
        flat = way.take(cells, axis=1)  # arcs x pairs, into the direction-major tables
        flat *= size
        flat += order
        nxt = nxt_by_way.take(flat)
        ok = nxt >= 0
        got.append((np.where(ok, nxt, 0), moved_by_way.take(flat), np.where(ok, cost.take(cells, axis=1), FAR), ok))
    return tuple(got)


def joint_values(state: GameState, lead: int, follower: int, ml: int, mf: int, limit: int,
                 slots: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """For every pair of the region ``limit`` (see :func:`_region`): the least total points lead and
    follower must still walk, from those cells with collections ``ml`` and ``mf``, for both to finish
    (:data:`FAR` or more when the board state gives them no way). A move is one partner's step along
    an arc of the move graph, allowed when it does not end on the partner and leaves the pair at most
    max(3, its current distance) apart; a partner that collects its last target leaves the board and
    the other walks its own cheapest tour. Other tokens are not in the way (they move on).

    Exact: a Bellman-Ford sweep of the whole region at once (numpy, whole numbers), each collection's
    values from those of the collections one target on (:func:`_sweep_python`, or compiled). Kept per
    board state. The pairs' moves come from tables made once a run and once a board state
    (:func:`_pair_moves`): a search was 0.7 ms of setting up before them, by two-dimensional indexing."""
    setup = state.setup
    gl, gf = setup.groups[lead], setup.groups[follower]
    key = (_KEY, gl, gf, ml, mf, limit)
    memo = state.cache.memo if slots is None else {}  # a search on another move graph is not the board's
    got = memo.get(key)
    if got is not None:
        return got
    pa, pb = _steps(_hexes(state), limit, state.rules.team_distance)[2:]
    n = len(state.board)
    values = np.full(len(pa), FAR, dtype=np.int32)
    nexts, costs = [], []  # per arc of either partner (rows), per pair: the next pair, the step's cost
    for (nxt, ends, c, ok), other, groups, mask, (other_groups, other_mask) in zip(
            _pair_moves(state, limit, slots), (pb, pa), (gl, gf), (ml, mf), ((gf, mf), (gl, ml))):
        gains = _gains(groups, mask, n)
        gain = gains.take(ends)  # the collection after the step (mask when no target)
        moving = gain == mask
        nexts.append(nxt)
        costs.append(np.where(moving, c, FAR))
        full = (1 << len(groups)) - 1
        for m in sorted(set(gains.tolist()) - {mask}):  # each collection a step can reach
            hit = ok & (gain == m)
            if not hit.any():
                continue
            # the partner's own cheapest tour from where it stands; when the mover has more to collect,
            # plus the mover's own from the target (the plan looks as far as the next target: a
            # planning pair goes back to the convoy there, :func:`convoy_move`)
            after = _lone(state, other_groups, other_mask).take(other)
            if m != full:
                after = np.minimum(after + _lone(state, groups, m).take(ends), FAR)
            values = np.minimum(values, np.where(hit, c + after, FAR).min(axis=0))
    values = np.minimum(values, FAR).astype(np.int32)
    nxt, c = np.concatenate(nexts), np.concatenate(costs)
    if _PAIR_SWEEPS is None or _PAIR_SWEEPS(values, nxt, c) is None:
        values = _sweep_python(values, nxt, c)
    values.setflags(write=False)
    memo[key] = values
    return values


def _sweep_python(values: np.ndarray, nxt: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """``values`` brought to the fixed point of ``values[p] = min(values[p], cost[r, p] + values[nxt[r, p]])``
    over the rows ``r``: one more step of either partner a sweep. The compiled ``pair_sweeps``
    (``_kernels.c``) gives the same values in far fewer sweeps (it lowers them in place); this is its
    reference. Four sweeps between looks at whether anything changed: a sweep past the fixed point
    changes nothing, and the look cost as much as a sweep."""
    buf = np.empty(nxt.shape, dtype=np.int32)
    while True:
        before = values
        for _ in range(4):
            np.take(values, nxt, out=buf)
            buf += cost
            values = np.minimum(buf.min(axis=0), values)
        if np.array_equal(values, before):
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
