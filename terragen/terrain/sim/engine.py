"""Playing turns and whole games: dice, legal moves, rotations, send-backs, the winner.

The engine is the only code that changes a :class:`GameState`. It asks a
policy to choose among legal options it has listed itself and checks the
answer, so a buggy plug-in policy cannot break the rules.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from terragen.grids import hex as hx
from terragen.terrain.paths import reachable
from terragen.terrain.rules import BAD_WEATHER_FACTOR
from terragen.terrain.sim.cache import BoardCache, bounded_reach
from terragen.terrain.sim.dice import RandomDice
from terragen.terrain.sim.state import GameSetup, GameState
from terragen.terrain.sim.variants import Rules

MAX_REROLLS = 100  # green die: doubles re-roll; this only guards against scripted endless doubles

Action = tuple  # ("rotate", cell, rotation) | ("invert", cell); None = forfeit


class Dice(Protocol):
    def roll(self) -> tuple[int, int]: ...
    def green(self) -> int: ...


class Roll:
    """One turn's dice. ``budget`` is in good-weather points (bad weather halves it, as costs double).

    A plain class with slots, not a dataclass: one is made every turn of every simulated game,
    and the derived values are worked out once here instead of on every read."""

    __slots__ = ("white", "red", "green", "double", "bad_weather", "budget")

    def __init__(self, white: int, red: int, green: int | None = None) -> None:
        self.white, self.red, self.green = white, red, green
        self.double = white == red
        self.bad_weather = red % 2 == 1
        self.budget = white // BAD_WEATHER_FACTOR if self.bad_weather else white

    def __repr__(self) -> str:
        return f"Roll(white={self.white}, red={self.red}, green={self.green})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Roll) and (self.white, self.red, self.green) == (other.white, other.red, other.green)

    def __hash__(self) -> int:
        return hash((self.white, self.red, self.green))


def green_direction(green: int) -> int:
    """Green die face 1..6 -> board direction. Face 1 points at corner 0 (east) and
    the faces go round the corners clockwise on screen, i.e. directions 0, 5, 4, 3, 2, 1."""
    return (1 - green) % 6


class Policy(Protocol):
    """What the engine asks a player. See :mod:`terragen.terrain.sim.policies`."""

    def choose_move(self, state: GameState, seat: int, roll: Roll, options: dict[int, int]) -> int: ...
    def choose_rotation(self, state: GameState, seat: int, roll: Roll, options: RotationOptions) -> Action | None: ...


class IllegalChoice(ValueError):
    """A policy answered with something the rules do not allow; ``policy`` is the one that did."""

    def __init__(self, policy: object, what: str) -> None:
        super().__init__(f"policy {type(policy).__name__} {what}")
        self.policy, self.what = policy, what


def decides_by_board(policy: object) -> bool:
    """Whether ``policy``'s move is a function of the board state, its seat, cell, collection and
    the open cells alone (it draws no numbers), so the engine may remember it. Declared by the
    class itself (``decides_by_board = True``), never inherited: a subclass may decide otherwise."""
    return bool(type(policy).__dict__.get("decides_by_board"))


def rotates_by_board(policy: object) -> bool:
    """Likewise for its turn on doubles when no inversion is open to it (``rotates_by_board``)."""
    return bool(type(policy).__dict__.get("rotates_by_board"))


def rotates_alone_by_board(policy: object) -> bool:
    """Likewise for its turn on doubles when its token is the only one on the board
    (``rotates_alone_by_board``, or ``rotates_by_board``): an expert looks at the other tokens
    to defend against a leader, so alone it has no one to defend against."""
    return rotates_by_board(policy) or bool(type(policy).__dict__.get("rotates_alone_by_board"))


class RotationOptions:
    """What a player who rolled doubles may do: rotate any piece, maybe invert one, or forfeit."""

    def __init__(self, state: GameState, can_invert: bool) -> None:
        self._state = state
        self.can_invert = can_invert
        self._invertible: list[int] | None = None

    def rotatable(self) -> list[int]:
        """Every piece that can be turned (inverted pieces are out of play)."""
        b = self._state.board
        return [i for i in range(len(b)) if b.passable(i)]

    def invertible(self) -> list[int]:
        """Pieces a double 6 may invert now (computed on first ask; empty without the variant)."""
        if self._invertible is None:
            self._invertible = legal_inversions(self._state) if self.can_invert else []
        return self._invertible

    def is_legal(self, action: Action) -> bool:
        st = self._state
        if not isinstance(action, (tuple, list)) or not action:
            return False
        if action[0] == "rotate" and len(action) == 3:
            _, cell, rot = action
            return (isinstance(cell, int) and 0 <= cell < len(st.board) and st.board.passable(cell)
                    and isinstance(rot, int) and 0 <= rot <= 5 and rot != st.board.rotation[cell])
        if action[0] == "invert" and len(action) == 2:
            return self.can_invert and action[1] in self.invertible()
        return False


def legal_inversions(state: GameState) -> list[int]:
    """Pieces with no token, no destination, no player's start, whose loss keeps every
    player's remaining targets elevation-reachable from both its token and its start."""
    b = state.board
    setup = state.setup
    banned = state.occupied() | set(setup.destinations) | set(setup.starts)
    out = []
    for i in range(len(b)):
        if not b.passable(i) or i in banned:
            continue
        b.set_inverted(i, True)
        ok = True
        for s in range(state.players):
            if state.finished[s]:
                continue
            for origin in {state.pos[s], setup.starts[s]}:
                seen = reachable(b, origin, pips=False)
                if any(not seen.intersection(g) for g in state.remaining_groups(s)):
                    ok = False
                    break
            if not ok:
                break
        b.set_inverted(i, False)
        if ok:
            out.append(i)
    return out


# ---- moves ------------------------------------------------------------------------------------

def _end_allowed(state: GameState, seat: int, cell: int) -> bool:
    other = state.token_at(cell)
    if other is not None and other != seat:
        if not state.rules.send_back:
            return False
        if state.pos[other] == state.setup.starts[other]:
            return False  # sending a token home that is already home means nothing: not a legal end
    if state.rules.teams:
        return all(row[cell] <= limit for row, limit in _team_bounds(state, seat))
    return True


def _team_bounds(state: GameState, seat: int) -> list[tuple[tuple[int, ...], int]]:
    """Per teammate of ``seat`` still on the board: its row of hex distances and how far from it a
    move may end (the team distance, or the gap now if that is larger): the distance rule, which
    :func:`_end_allowed` asks of one cell and :func:`_team_ends` of a turn's cells at once."""
    gaps = hex_gaps(state)
    where, finished = state.pos, state.finished
    here = where[seat]
    near = state.rules.team_distance
    rows = [gaps[where[m]] for m in state.rules.teams[state.team_of[seat]] if m != seat and not finished[m]]
    return [(row, max(near, row[here])) for row in rows]


def hex_gaps(state: GameState) -> tuple[tuple[int, ...], ...]:
    """The hex distance between every two cells of the board, ``gaps[a][b]``, made once a run (kept
    with the run's tables). Why: team play checks the distance rule on every cell a token might end
    on, and working each distance out from the coordinates was a fifth of a team game's time."""
    per_run = state.cache.per_run
    got = per_run.get("hex gaps")
    if got is None:
        h = state.board.hexes
        got = per_run["hex gaps"] = tuple(tuple(hx.distance(a, b) for b in h) for a in h)
    return got


def _team_ends(state: GameState, seat: int, cand: Mapping[int, int]) -> dict[int, int]:
    """The cells of ``cand`` ``seat`` may end on in team play (its own cell always stays): what
    :func:`_end_allowed` allows, in ``cand``'s order, with the teammates' distance rows looked up once
    rather than for every cell (a team game asks this every turn of every seat)."""
    pos = state.pos[seat]
    if state.shared_start or state.rules.send_back:  # not the team rules' plain case: ask cell by cell
        return {q: c for q, c in cand.items() if q == pos or _end_allowed(state, seat, q)}
    bounds = _team_bounds(state, seat)  # its own cell passes (its gaps are the gaps now)
    if not bounds:
        out = dict(cand)
    elif len(bounds) == 1:
        row, lim = bounds[0]
        out = {q: c for q, c in cand.items() if row[q] <= lim}
    else:
        out = {q: c for q, c in cand.items() if all(row[q] <= lim for row, lim in bounds)}
    for cell, other in state.occupant.items():  # then the few cells another token stands on
        if other != seat and cell in out:
            del out[cell]
    return out


def move_options(state: GameState, seat: int, roll: Roll) -> Mapping[int, int]:
    """Every cell the token may end on this turn, with its good-weather cost (0 = stay).

    When no token stands in the way (most turns) this is the board state's own table of the
    cells within the budget, shared and read-only (a :class:`~types.MappingProxyType`): no copy
    is made, and :func:`take_turn` knows the choice of a player that decides by the board alone
    is the same as the last time on that board state, cell and budget.
    """
    pos = state.pos[seat]
    budget = roll.budget
    if state.rules.pass_through:
        within = state.cache.within(pos, budget)
        if not state.rules.teams:  # only a cell with a token on it can be a forbidden end
            banned = [cell for cell in state.occupied()
                      if cell != pos and cell in within and not _end_allowed(state, seat, cell)]
            if not banned:
                return MappingProxyType(within)
            cand = dict(within)
            for cell in banned:
                del cand[cell]
            return cand
        if state.rules.teams:
            return _team_ends(state, seat, within)  # a new dict: the table is not copied first
        cand = dict(within)
    else:
        occ = state.occupied() - {pos}
        arcs = state.cache.arcs
        cand = bounded_reach(arcs, pos, budget, blocked=occ)
        for x, d in list(cand.items()):
            for j, c, _ in arcs[x]:
                if j in occ and d + c <= budget and d + c < cand.get(j, 99):
                    cand[j] = d + c
    if state.rules.teams:
        return _team_ends(state, seat, cand)
    return {q: c for q, c in cand.items() if q == pos or _end_allowed(state, seat, q)}


def line_options(state: GameState, seat: int, roll: Roll) -> dict[int, int]:
    """Green die: cells straight along the rolled direction the points pay for (pips ignored).

    Each step must obey the elevation rule and enter a passable piece; the walk
    stops at the first step that is not allowed. Passing over a token follows
    ``pass_through``. Staying is not offered: a player who can move must.
    """
    b = state.board
    d = green_direction(roll.green or 1)
    cell = state.pos[seat]
    spent = 0
    out: dict[int, int] = {}
    occ = state.occupied()
    while True:
        j = b.nbr[cell][d]
        if j < 0 or not b.passable(j):
            break
        step = next((c for t, c, _ in b.elev_arcs[cell] if t == j), None)
        if step is None or spent + step > roll.budget:
            break
        spent += step
        if _end_allowed(state, seat, j):
            out[j] = spent
        if j in occ and not state.rules.pass_through:
            break
        cell = j
    return out


# ---- applying ---------------------------------------------------------------------------------

def _send_home(state: GameState, seat: int) -> None:
    """Put ``seat`` back on its start; whoever stands there goes home too (a chain, at most one per seat)."""
    while seat is not None:
        state.send_backs += 1
        home = state.setup.starts[seat]
        other = state.occupant.get(home)
        state.occupant[home] = seat
        state.pos[seat] = home
        seat = other if other is not None and other != seat else None


def apply_move(state: GameState, seat: int, cell: int) -> None:
    """Move ``seat``'s token to ``cell``: send-backs, collection, finishing (a change here must be
    made in :func:`_remembered_move` too, which repeats the main rules' part for speed)."""
    old = state.pos[seat]
    if cell == old:
        return  # standing still is not a move: it collects nothing
    if not state.rules.interactions:  # tokens never meet: no one is in the way or sent home
        state.pos[seat] = cell
        state.collected[seat] = state.gain(seat, cell)
        if state.collected[seat] == state.full_mask(seat):
            state.finished[seat] = True
            if state.rules.teams:
                state.pos[seat] = -1
        return
    if seat in state.shared_start:
        state.shared_start.discard(seat)
    elif state.occupant.get(old) == seat:
        del state.occupant[old]
    victim = state.occupant.get(cell)
    state.occupant[cell] = seat
    state.pos[seat] = cell
    if victim is not None and victim != seat:
        _send_home(state, victim)
    state.collected[seat] = state.gain(seat, cell)
    if state.collected[seat] == state.full_mask(seat):
        state.finished[seat] = True
        if state.rules.teams:  # a finished teammate leaves the board so it blocks and binds no one
            del state.occupant[cell]
            state.pos[seat] = -1


def apply_action(state: GameState, action: Action) -> None:
    if action[0] == "rotate":
        _, cell, rot = action
        old_out = state.cache.arcs[cell]
        state.board.set_rotation(cell, rot)
        state.cache.rotated(cell, old_out)
        state.rotations += 1
    else:
        state.board.set_inverted(action[1], True)
        state.cache.inverted(action[1])
        state.inversions += 1


#: points a roll of white ``w`` and red ``r`` pays for: ``BUDGET[w][r]`` (odd red: bad weather halves it)
BUDGET = tuple(tuple(w // BAD_WEATHER_FACTOR if r % 2 else w for r in range(7)) for w in range(7))


def _move_key(state: GameState, seat: int, policy: Policy, budget: int) -> tuple:
    """What a move of a player that decides by the board alone depends on, besides the board
    state: the seat's start and frame, targets, cell, collection and points (two seats may hold
    the same targets)."""
    setup = state.setup
    return (type(policy), setup.starts[seat], setup.hand[seat], setup.groups[seat], state.pos[seat],
            state.collected[seat], budget)


def _remembered_move(state: GameState, seat: int, policy: Policy, w: int, r: int) -> bool:
    """The move of a player that decides by the board alone, under the main rules, when no token
    stands where it might end: made and True, or False (nothing done) for :func:`take_turn`'s
    general path. Most turns of a long run end here.

    Why it is its own path: the cells open to the mover are then the board state's own table of
    cells within its points, so its choice is the one made before on this board state
    (:func:`_move_key`), and neither the roll, nor a view of the table, nor a check
    of the answer need be made again. A token in reach is a legal end (it is sent home) unless
    it stands on its own start, so only that case leaves the table's cells short of one. The
    move itself is :func:`apply_move`'s, written out for these rules (no LOST! centre, no teams).
    Measured on the generator's own simulation work (``bench/generate_sim_replay.py``): 1.2x the
    turns per CPU second of the general path, games unchanged (``bench/sim_fingerprint.py``).
    """
    pos = state.pos[seat]
    budget = BUDGET[w][r]
    cache = state.cache
    within = cache.within(pos, budget)
    setup = state.setup
    starts = setup.starts
    occupant = state.occupant
    for cell, other in occupant.items():
        if cell in within and other != seat and cell == starts[other]:
            return False
    key = _move_key(state, seat, policy, budget)
    memo = cache.memo
    cell = memo.get(key)
    if cell is None:
        options = MappingProxyType(within)
        cell = legal_end(policy, policy.choose_move(state, seat, Roll(w, r), options), options)
        memo[key] = cell
    if cell == pos:
        return True
    if occupant.get(pos) == seat:
        del occupant[pos]
    victim = occupant.get(cell)
    occupant[cell] = seat
    state.pos[seat] = cell
    if victim is not None and victim != seat:
        _send_home(state, victim)
    mask = state.collected[seat] = state.gain(seat, cell)
    if mask == state.full_mask(seat):
        state.finished[seat] = True
    return True


def legal_end(policy: Policy, cell: object, options: Mapping[int, int]) -> int:
    """The cell a player chose, checked: one of this turn's ends, as an int. A float or a bool
    equal to a cell's number passed ``in`` and then failed deep in the board (exit 70, blamed on
    terragen); an integer of another type (numpy's) is taken as the cell it names."""
    if cell.__class__ is not int:
        index = getattr(type(cell), "__index__", None)
        if index is None or isinstance(cell, bool):
            raise IllegalChoice(policy, f"chose {cell!r}, not a cell number (an int among the options)")
        cell = index(cell)
    if cell not in options:
        raise IllegalChoice(policy, f"chose cell {cell!r}, which is not a legal end this turn")
    return cell


def take_turn(state: GameState, seat: int, policy: Policy, dice: Dice) -> None:
    """One player's turn, start to end."""
    state.turns[seat] += 1
    rules = state.rules
    if rules.green:
        g = dice.green()
        for _ in range(MAX_REROLLS):
            w, r = dice.roll()
            if w != r:
                break
        else:
            state.forfeits += 1
            return
        roll = Roll(w, r, g)
        options = line_options(state, seat, roll)
        if not options:
            return
        apply_move(state, seat, legal_end(policy, policy.choose_move(state, seat, roll, options), options))
        return
    w, r = dice.roll()
    if w == r:
        _double_turn(state, seat, policy, w, r)
    elif not (state.plain and decides_by_board(policy) and _remembered_move(state, seat, policy, w, r)):
        _open_move(state, seat, policy, w, r)


def _double_turn(state: GameState, seat: int, policy: Policy, w: int, r: int) -> None:
    """Doubles without the green die: the player may turn a piece (or invert one on a double 6
    with that variant) or forfeit; the token does not move."""
    rules = state.rules
    roll = Roll(w, r)
    opts = RotationOptions(state, rules.inversion and rules.interactions and w == 6)
    action = policy.choose_rotation(state, seat, roll, opts) if rules.rotations_matter or opts.can_invert else None
    if action is not None and not (isinstance(action, (tuple, list)) and action):
        raise IllegalChoice(policy, f"chose {action!r}, not an action (a tuple such as ('rotate', cell, k)) or None")
    if action is not None and not rules.rotations_matter and action[0] == "rotate":
        action = None  # pips are ignored in this variant: a rotation changes nothing
    if action is None:
        state.forfeits += 1
    elif opts.is_legal(action):
        apply_action(state, action)
    else:
        raise IllegalChoice(policy, f"chose an illegal action {action!r}")


def _open_move(state: GameState, seat: int, policy: Policy, w: int, r: int) -> None:
    """A move on a roll that is not doubles (green die off), by way of the listed options."""
    roll = Roll(w, r)
    options = move_options(state, seat, roll)
    if type(options) is MappingProxyType and decides_by_board(policy):
        # as in _remembered_move, for the rules it leaves here (LOST!, no interactions)
        key = _move_key(state, seat, policy, roll.budget)
        memo = state.cache.memo
        cell = memo.get(key)
        if cell is None:
            cell = memo[key] = legal_end(policy, policy.choose_move(state, seat, roll, options), options)
    else:
        cell = legal_end(policy, policy.choose_move(state, seat, roll, options), options)
    apply_move(state, seat, cell)


@dataclass(frozen=True)
class GameResult:
    """How one game ended. ``winners`` is empty when the turn cap stopped it."""

    winners: tuple[int, ...]
    rounds: int
    turns: int  # the winner's own turns (the number a player counts), 0 when capped
    rotations: int
    inversions: int
    send_backs: int
    forfeits: int
    total_turns: int = 0  # turns taken by all seats together (what a speed figure counts)

    @property
    def capped(self) -> bool:
        return not self.winners


def _winners(state: GameState, seat: int) -> tuple[int, ...]:
    if not state.finished[seat]:
        return ()
    if state.rules.teams:
        team = state.rules.teams[state.team_of[seat]]
        return tuple(team) if all(state.finished[s] for s in team) else ()
    return (seat,)


def play_game(
    setup: GameSetup,
    rules: Rules,
    policies: list[Policy],
    rng: random.Random,
    dice: Dice | None = None,
    first_seat: int = 0,
    template: BoardCache | None = None,
) -> GameResult:
    """Play one game to its end or to ``rules.turn_cap`` rounds.

    ``rng`` feeds the policies; ``dice`` defaults to fair dice from a generator
    seeded from ``rng`` so that a game is reproducible from one seed. ``template``
    (a :class:`BoardCache` of ``setup.board``) lets many games share start-up tables.
    """
    if dice is None:
        dice = RandomDice(random.Random(rng.getrandbits(64)))
    from terragen.terrain.sim.plain_game import play_plain_game, plays_plainly

    state = GameState.new(setup, rules, rng, template)
    n = setup.players
    order = [(first_seat + k) % n for k in range(n)]
    if plays_plainly(state, policies):
        return play_plain_game(state, policies, dice, order, rules.turn_cap)
    return play_game_on(state, policies, dice, order)


def play_game_on(state: GameState, policies: list[Policy], dice: Dice, order: list[int]) -> GameResult:
    """Play ``state`` (a fresh game) turn by turn, seats in ``order``, to its end or the turn cap."""
    rules = state.rules
    for rnd in range(1, rules.turn_cap + 1):
        state.round = rnd
        for seat in order:
            if state.finished[seat]:
                continue
            take_turn(state, seat, policies[seat], dice)
            won = _winners(state, seat)
            if won:
                return GameResult(won, rnd, state.turns[seat], state.rotations, state.inversions,
                                  state.send_backs, state.forfeits, sum(state.turns))
    return GameResult((), rules.turn_cap, 0, state.rotations, state.inversions, state.send_backs, state.forfeits,
                      sum(state.turns))
