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

Where the optional extension ``_fast_turns.c`` was built, the loop runs in C: the commonest turns
(a remembered move with no one in the way, a remembered forfeit on doubles, a greedy player's first
answer on where to move) on the same objects, each other turn by
:func:`play_plain_game`'s own ``turn``, which it calls: the same games. Greedy players' first answers
are made in C either way where ``_kernels.c`` was built (:mod:`terragen.terrain.sim.greedy_kernels`).
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from terragen.terrain.compiled import load
from terragen.terrain.sim import expert_kernels, greedy_kernels
from terragen.terrain.sim.dice import PairedDice, RandomDice
from terragen.terrain.sim.engine import (
    BUDGET, Action, Dice, GameResult, Policy, Roll, RotationOptions, _double_turn, _open_move, _send_home, apply_action,
    decides_by_board, legal_end, rotates_by_board,
)
from terragen.terrain.sim.policies import ExpertPolicy, GreedyPolicy
from terragen.terrain.sim.state import GameState

#: per draw of 36 (white ``r // 6 + 1``, red ``r % 6 + 1``): the dice, doubles, points paid for
_WHITE = tuple(r // 6 + 1 for r in range(36))
_RED = tuple(r % 6 + 1 for r in range(36))
_DOUBLE = tuple(_WHITE[r] == _RED[r] for r in range(36))
_POINTS = tuple(BUDGET[_WHITE[r]][_RED[r]] for r in range(36))
DOUBLES = 7  # in a remembered answer's key, where the points go (0..6): the answer to doubles
_UNKNOWN = object()
#: why the compiled loop (``_fast_turns.c``) stopped: the rounds ran out, or the seat to play has
#: just finished (otherwise Python's loop plays on from that turn)
CAPPED, FINISHED = 0, 1


def _compiled_turns():
    """The compiled common turns (``_fast_turns.c``), or None (see :mod:`terragen.terrain.compiled`);
    the games are the same either way, only slower without it."""
    fast = load("terragen.terrain.sim._fast_turns")
    if fast is not None:
        fast.configure(_POINTS)
    return fast


FAST_TURNS = _compiled_turns()


def plays_plainly(state: GameState, policies: list[Policy]) -> bool:
    """Whether :func:`play_plain_game` plays this game: the main rules, no teams, and every
    player one whose move the board state decides (so it may be remembered)."""
    return (state.plain and not state.rules.teams
            and all(decides_by_board(p) for p in policies))


def play_plain_game(state: GameState, policies: list[Policy], dice: Dice, order: list[int], turn_cap: int) -> GameResult:
    """Play ``state`` (fresh, see :func:`plays_plainly`) to its end or ``turn_cap`` rounds."""
    return plain_game_player(state, policies, turn_cap)(dice, order)


def plain_game_player(state: GameState, policies: list[Policy], turn_cap: int) -> Callable[[Dice, list[int]], GameResult]:
    """The loop of :func:`play_plain_game` for ``state``: ``play(dice, order)`` plays it, fresh, to its
    end or ``turn_cap`` rounds, and may be called again once :meth:`GameState.restart` has made it a
    fresh game again.

    Why a loop made once and played many times: what it derives from the seats and the board (the
    seats' plan, the functions below) cost a short solitary game about as much as its turns did."""
    cache = state.cache
    pos, collected, occupant, turns = state.pos, state.collected, state.occupant, state.turns
    starts = state.setup.starts
    n = len(starts)
    bit_of, full, pshift, base, rotates, gains, greedy, expert = _seats_plan(state, policies)
    inversion = state.rules.inversion

    home: set[int] = set()  # seats whose token stands on its own start (the compiled turns keep it too)

    def at_home() -> None:
        """Bring ``home`` up to date (after a send-back), in place: the compiled turns hold it."""
        home.clear()
        home.update(s for s in range(n) if pos[s] == starts[s])

    tables = cache.tables_now()
    fast_greedy = greedy_kernels.COMPILED
    fast_expert = expert_kernels.COMPILED

    def choice(seat: int, r: int, within: dict[int, int]) -> int:
        """The player's first answer on this board state (greedy and expert players' in C where it
        was built)."""
        if greedy[seat] and fast_greedy:
            cell = greedy_kernels.greedy_move(state, seat, within, gains[seat])
            if cell is not None:
                return cell
        elif expert[seat] and fast_expert:
            cell = expert_kernels.expert_move(state, seat, within, gains[seat])
            if cell is not None:
                return cell
        return _remembered_choice(state, seat, policies[seat], r, within)

    def rotation(seat: int, r: int) -> Action | None:
        """The player's first turn of a piece (or None) on doubles on this board state (greedy
        players' in C where it was built)."""
        if greedy[seat] and fast_greedy:
            action = greedy_kernels.greedy_own_rotation(state, seat, gains[seat])
            if action is not greedy_kernels.LEFT_TO_PYTHON:
                return action
        return _remembered_rotation(state, seat, policies[seat], _WHITE[r])

    def turn(seat: int, r: int) -> bool:
        """``seat``'s turn on draw ``r`` (counted and drawn already): True when it has finished."""
        nonlocal tables
        policy = policies[seat]
        here = pos[seat]
        if _DOUBLE[r]:
            if rotates[seat] and not (inversion and r == 35):
                key = base[seat] | here << pshift | collected[seat] << 3 | DOUBLES
                memo = tables.memo
                action = memo.get(key, _UNKNOWN)
                if action is _UNKNOWN:
                    action = memo[key] = rotation(seat, r)
                if action is None:
                    state.forfeits += 1
                else:
                    apply_action(state, action)
                    tables = cache.tables_now()
            else:
                _double_turn(state, seat, policy, _WHITE[r], _RED[r])
                tables = cache.tables_now()
            return False
        points = _POINTS[r]
        row = tables.within.get(here)
        within = row[points] if row is not None else None
        if within is None:
            within = cache.within(here, points)
        for o in home:  # a token on its own start is no legal end: the engine lists the others
            if o != seat and starts[o] in within:
                _open_move(state, seat, policy, _WHITE[r], _RED[r])
                at_home()
                return collected[seat] == full[seat]
        key = base[seat] | here << pshift | collected[seat] << 3 | points
        memo = tables.memo
        cell = memo.get(key)
        if cell is None:
            cell = memo[key] = choice(seat, r, within)
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
                at_home()
            got = bit_of[seat].get(cell)
            if got is not None:
                collected[seat] |= got
        return collected[seat] == full[seat]

    def won(seat: int, rnd: int) -> GameResult:
        state.finished[seat] = True
        return GameResult((seat,), rnd, turns[seat], state.rotations, state.inversions,
                          state.send_backs, state.forfeits, sum(turns))

    def slow(seat: int, r: int) -> object:
        """turn() for the compiled loop: the board state's tables after it, None when the seat has finished."""
        return None if turn(seat, r) else tables

    # greedy players' first answers on where to move made in the compiled loop too (by the kernel
    # choice() uses)
    plan = (greedy_kernels.MOVE, cache.tours, greedy, gains, state.setup.groups, state.setup.rank,
            cache.within) if fast_greedy and any(greedy) else None
    the_starts = tuple(starts)

    def play(dice: Dice, order: list[int]) -> GameResult:
        nonlocal tables
        at_home()
        tables = cache.tables_now()
        bits = dice.bits if type(dice) is RandomDice else None
        draws = dice.draws if type(dice) is PairedDice else None  # a stream per seat: next(draws[seat])
        rnd, index = 1, 0  # the next turn to play: seat order[index] in round rnd
        if FAST_TURNS is not None and (bits is not None or draws is not None):
            # the common turns in C, each other turn played by turn() above (same rolls, same games)
            context = (tuple(order), pos, collected, occupant, turns, the_starts, base, pshift, bit_of, full, rotates,
                       inversion, bits if bits is not None else draws, turn_cap, home, slow, state, plan)
            stop = FAST_TURNS.play(context, tables, rnd, index)
            if stop is not None:
                stopped, rnd, index, forfeits = stop
                state.forfeits += forfeits
                if stopped == CAPPED:
                    return _capped(state, turn_cap)
                if stopped == FINISHED:
                    return won(order[index], rnd)
                if index == len(order):  # Python plays on from the next turn
                    rnd, index = rnd + 1, 0
        for rnd in range(rnd, turn_cap + 1):
            state.round = rnd
            for seat in order[index:] if index else order:
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
                if turn(seat, r):
                    return won(seat, rnd)
            index = 0
        return _capped(state, turn_cap)

    return play


def _capped(state: GameState, turn_cap: int) -> GameResult:
    """A game the turn cap stopped: no winner."""
    return GameResult((), turn_cap, 0, state.rotations, state.inversions, state.send_backs, state.forfeits,
                      sum(state.turns))


def _seats_plan(state: GameState, policies: list[Policy]) -> tuple:
    """What the loop needs to know of each seat, the same in every game of a run: a target's bit
    by cell, the full collection, where the points end in a remembered answer's key, each seat's
    part of that key, whether the board state decides its turn on doubles, what a move onto each
    cell adds to a seat's collection, and which seats are plain greedy players and which plain expert
    players (whose first answers may be made in C)."""
    setup = state.setup
    kinds = tuple(type(p) for p in policies)
    key = ("plain-game", kinds, setup.starts, setup.hand, setup.groups, len(state.board))
    plan = state.cache.per_run.get(key)
    if plan is None:
        groups = setup.groups
        n = len(setup.starts)
        # a target's bit by cell, per seat (a destination is a one-cell group)
        bit_of = [{c: 1 << b for b, grp in enumerate(groups[s]) for c in grp} for s in range(n)]
        full = tuple((1 << len(groups[s])) - 1 for s in range(n))
        # the remembered move's key: seat identity, cell, collection and points packed in one integer
        cbits = max(len(g) for g in groups)
        pshift = cbits + 3
        sshift = pshift + max(len(state.board), 2).bit_length()
        base = tuple(state.cache.seat_key(kinds[s], setup.starts[s], setup.hand[s], groups[s]) << sshift
                     for s in range(n))
        # doubles: players whose turn of a piece the board state decides, unless a double 6 may invert
        rotates = tuple(rotates_by_board(p) for p in policies)
        gains = tuple(greedy_kernels.gains_by_cell(groups[s]) for s in range(n))
        greedy = tuple(kind is GreedyPolicy for kind in kinds)
        expert = tuple(kind is ExpertPolicy for kind in kinds)
        plan = state.cache.per_run[key] = (bit_of, full, pshift, base, rotates, gains, greedy, expert)
    return plan


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
    return legal_end(policy, policy.choose_move(state, seat, Roll(_WHITE[r], _RED[r]), options), options)
