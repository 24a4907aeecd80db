"""A whole game under the main rules between players who decide by the board alone, in one loop.

Why a loop of its own: the balance search plays millions of such games (greedy and solitary
players, send-backs and rotations on, nothing else), and most of their turns are a dice roll
and a remembered move. Played through :func:`~terragen.terrain.sim.engine.take_turn` every turn
pays for a few function calls, a tuple key and a look-up of the same tables again. Here the
tables of the current board state are held in local names until a rotation changes them, the
remembered move (or turn of a piece on doubles) is found by an integer key, and the dice are drawn
in place. Every turn it cannot finish that way (a first answer on a board state, a double 6 that
may invert a piece, a token standing on its own start within reach) goes to the engine's own
code, so the rules live in one place; the games are the same as the engine's, roll for roll
(``bench/sim_fingerprint.py``, and tests that compare the two).
"""

from __future__ import annotations

from types import MappingProxyType

from terragen.terrain.sim.dice import PairedDice, RandomDice
from terragen.terrain.sim.engine import (
    BUDGET, Action, Dice, GameResult, Policy, Roll, RotationOptions, _double_turn, _open_move, _send_home, apply_action,
    decides_by_board, rotates_by_board,
)
from terragen.terrain.sim.state import GameState

#: per draw of 36 (white ``r // 6 + 1``, red ``r % 6 + 1``): the dice, doubles, points paid for
_WHITE = tuple(r // 6 + 1 for r in range(36))
_RED = tuple(r % 6 + 1 for r in range(36))
_DOUBLE = tuple(_WHITE[r] == _RED[r] for r in range(36))
_POINTS = tuple(BUDGET[_WHITE[r]][_RED[r]] for r in range(36))
DOUBLES = 7  # in a remembered answer's key, where the points go (0..6): the answer to doubles
_UNKNOWN = object()


def plays_plainly(state: GameState, policies: list[Policy]) -> bool:
    """Whether :func:`play_plain_game` plays this game: the main rules, no teams, and every
    player one whose move the board state decides (so it may be remembered)."""
    return (state.plain and not state.rules.teams
            and all(decides_by_board(p) for p in policies))


def play_plain_game(state: GameState, policies: list[Policy], dice: Dice, order: list[int], turn_cap: int) -> GameResult:
    """Play ``state`` (fresh, see :func:`plays_plainly`) to its end or ``turn_cap`` rounds."""
    cache = state.cache
    pos, collected, occupant, turns = state.pos, state.collected, state.occupant, state.turns
    starts = state.setup.starts
    n = len(starts)
    groups = state.setup.groups
    # a target's bit by cell, per seat (a destination is a one-cell group)
    bit_of = [{c: 1 << b for b, grp in enumerate(groups[s]) for c in grp} for s in range(n)]
    full = [(1 << len(groups[s])) - 1 for s in range(n)]
    # the remembered move's key: seat identity, cell, collection and points packed in one integer
    cbits = max(len(g) for g in groups)
    pshift = cbits + 3
    sshift = pshift + max(len(state.board), 2).bit_length()
    base = [cache.seat_key(type(policies[s]), starts[s], state.setup.hand[s], groups[s]) << sshift for s in range(n)]
    # doubles: players whose turn of a piece the board state decides, unless a double 6 may invert
    rotates = [rotates_by_board(p) for p in policies]
    inversion = state.rules.inversion

    def at_home() -> set[int]:
        """Seats whose token stands on its own start (asked again after a send-back)."""
        return {s for s in range(n) if pos[s] == starts[s]}

    home = at_home()
    bits = dice.bits if type(dice) is RandomDice else None
    draws = dice.draws if type(dice) is PairedDice else None  # a stream per seat: next(draws[seat])
    tables = cache.tables_now()
    for rnd in range(1, turn_cap + 1):
        state.round = rnd
        for seat in order:
            turns[seat] += 1
            if bits is not None:
                r = bits(6)
                while r >= 36:
                    r = bits(6)
            elif draws is not None:
                r = next(draws[seat])
            else:
                w, red = dice.roll()
                r = (w - 1) * 6 + red - 1
            policy = policies[seat]
            here = pos[seat]
            if _DOUBLE[r]:
                if rotates[seat] and not (inversion and r == 35):
                    key = base[seat] | here << pshift | collected[seat] << 3 | DOUBLES
                    memo = tables.memo
                    action = memo.get(key, _UNKNOWN)
                    if action is _UNKNOWN:
                        action = memo[key] = _remembered_rotation(state, seat, policy, _WHITE[r])
                    if action is None:
                        state.forfeits += 1
                    else:
                        apply_action(state, action)
                        tables = cache.tables_now()
                else:
                    _double_turn(state, seat, policy, _WHITE[r], _RED[r])
                    tables = cache.tables_now()
                continue
            points = _POINTS[r]
            row = tables.within.get(here)
            within = row[points] if row is not None else None
            if within is None:
                within = cache.within(here, points)
            blocked = False
            for o in home:  # a token on its own start is no legal end: the engine lists the others
                if o != seat and starts[o] in within:
                    blocked = True
                    break
            if blocked:
                _open_move(state, seat, policy, _WHITE[r], _RED[r])
                home = at_home()
            else:
                key = base[seat] | here << pshift | collected[seat] << 3 | points
                memo = tables.memo
                cell = memo.get(key)
                if cell is None:
                    cell = memo[key] = _remembered_choice(state, seat, policy, r, within)
                if cell != here:
                    if occupant.get(here) == seat:
                        del occupant[here]
                    if cell == starts[seat]:
                        home.add(seat)  # back on its own start: no one may end there now
                    else:
                        home.discard(seat)
                    victim = occupant.get(cell)
                    occupant[cell] = seat
                    pos[seat] = cell
                    if victim is not None and victim != seat:
                        _send_home(state, victim)
                        home = at_home()
                    got = bit_of[seat].get(cell)
                    if got is not None:
                        collected[seat] |= got
            if collected[seat] == full[seat]:
                state.finished[seat] = True
                return GameResult((seat,), rnd, turns[seat], state.rotations, state.inversions,
                                  state.send_backs, state.forfeits, sum(turns))
    return GameResult((), turn_cap, 0, state.rotations, state.inversions, state.send_backs, state.forfeits, sum(turns))


def _remembered_rotation(state: GameState, seat: int, policy: Policy, white: int) -> Action | None:
    """The player's first turn of a piece (or None) on doubles on this board state, cell and
    collection, checked."""
    options = RotationOptions(state, False)
    action = policy.choose_rotation(state, seat, Roll(white, white), options)
    if action is not None and not options.is_legal(action):
        raise ValueError(f"policy {type(policy).__name__} chose an illegal action {action!r}")
    return action


def _remembered_choice(state: GameState, seat: int, policy: Policy, r: int, within: dict[int, int]) -> int:
    """The player's first answer on this board state, cell, collection and points, checked."""
    options = MappingProxyType(within)
    cell = policy.choose_move(state, seat, Roll(_WHITE[r], _RED[r]), options)
    if cell not in options:
        raise ValueError(f"policy {type(policy).__name__} chose cell {cell!r}, which is not a legal end this turn")
    return cell
