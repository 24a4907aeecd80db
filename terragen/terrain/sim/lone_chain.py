"""The exact finishing rounds of one token playing alone, rotations on doubles included.

Why: the balance search ranks destinations by how a seat's token does when it plays alone
the way the simulated players do, turning pieces of its own route on doubles (the
"solo-greedy race"). It used to sample that with a couple of hundred games per candidate,
whose noise (a point or two of a seat's win chance) the ranking then carried. A player who
decides by the board alone (greedy) makes a lone game a Markov chain on (board state, cell,
collection): its move is a function of those and the points rolled, and its turn on doubles
a function of those alone. Such a token walks its route and turns a few pieces, so the
chain is small (tens to a few hundred states on generated boards), and its distribution can
be propagated round by round exactly, the way :mod:`terragen.terrain.race` does for the
player who never turns a piece.

The chain is built with the simulator's own policy calls on the simulator's own board
states, so it describes exactly the games :func:`terragen.terrain.sim.runner.run_games` plays
for a one-seat layout (checked against sampled games in the tests).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterable
from functools import partial
from operator import itemgetter
from types import MappingProxyType
from typing import NamedTuple

from terragen.terrain.layout import Layout
from terragen.terrain.sim import greedy_kernels
from terragen.terrain.sim.cache import MAX_BUDGET
from terragen.terrain.sim.engine import (Action, Roll, RotationOptions, apply_action, decides_by_board,
                                         rotates_alone_by_board)
from terragen.terrain.sim.greedy_kernels import LEFT_TO_PYTHON, MOVE, greedy_own_rotation
from terragen.terrain.sim.policies import GreedyPolicy
from terragen.terrain.sim.plain_game import _DOUBLE, _POINTS, _RED, _WHITE
from terragen.terrain.sim.state import GameState, setup_from_layout
from terragen.terrain.sim.variants import Rules

#: Chain states beyond which :func:`lone_chain` gives up (returns None); generated boards
#: stay below a few hundred, so this only guards against a pathological board.
MAX_STATES = 20_000

#: The work of building and propagating a chain, in simulated turns that take as long on the
#: reference VM (the generator's work budget counts turns): a fixed part for the set-up and a part
#: per state. Measured 2026-11-29 on a 2-core AMD EPYC VM: about 1.5 ms plus 90 us a state in one
#: process, against the 160,000 turns a second the work budget counts for a five-seat search.
TURNS_PER_CHAIN = 250
TURNS_PER_STATE = 15


class TooLarge(Exception):
    """The chain outgrew :data:`MAX_STATES`."""


class LoneChain(NamedTuple):
    """A lone token's finishing rounds and the size of the chain that gave them."""

    cdf: tuple[float, ...]  # cdf[t] = P(finished by the end of round t); cdf[0] = 0
    states: int
    #: the pieces the token has turned when it finishes, as (probability, ((cell, rotation), ...)) from
    #: the likeliest; what its turns do to the other seats is not in the chain (``bench/others_turns.py``)
    turns_at_finish: tuple[tuple[float, tuple[tuple[int, int], ...]], ...] = ()

    @property
    def work_turns(self) -> int:
        """What building it cost, in simulated turns of equal time (see :data:`TURNS_PER_STATE`)."""
        return TURNS_PER_CHAIN + TURNS_PER_STATE * self.states


def can_chain(policy: object, rules: Rules) -> bool:
    """Whether a lone game of ``policy`` under ``rules`` is the chain this module builds: the main
    rules without inversion (a double 6 then turns a piece like any double) and a player whose
    moves and turns the board state decides when it plays alone."""
    plain = rules.send_back and rules.pass_through  # send-backs imply interactions, no green die, no LOST!
    return plain and not rules.inversion and decides_by_board(policy) and rotates_alone_by_board(policy)


def lone_chain(layout: Layout, rules: Rules, policy: object, tail: float = 1e-6) -> LoneChain | None:
    """The finishing rounds of the one seat of ``layout``: ``cdf[t]`` = P(it has collected
    everything by the end of round t), to the round where less than ``tail`` is left or the rules'
    round cap; None when the chain would exceed :data:`MAX_STATES` (sample the games instead)."""
    seat = LoneSeat(layout, rules, policy)
    try:
        succ, finish, turns_of = build_chain(seat)
    except TooLarge:
        return None
    finally:
        seat.release()
    by_turns: dict[Turns, float] = {}
    cdf = propagate_chain(succ, finish, tail, rules.turn_cap, by_turns, turns_of)
    ranked = tuple(sorted(((p, t) for t, p in by_turns.items()), key=lambda pt: (-pt[0], pt[1])))
    return LoneChain(cdf, len(succ), ranked)


def lone_chain_cdf(layout: Layout, rules: Rules, policy_spec: str,
                   tail: float = 1e-6) -> tuple[tuple[float, ...], int] | None:
    """:func:`lone_chain` for the player named ``policy_spec`` as ``(cdf, work_turns)``, or None: the
    form a simulation process sends back (its ranked board states stay there), so the generator can
    spread the chains of many destination sets over its processes."""
    from terragen.terrain.sim.policies import load_policy

    chain = lone_chain(layout, rules, load_policy(policy_spec), tail)
    return None if chain is None else (chain.cdf, chain.work_turns)


#: pieces turned from the start, as sorted (cell, rotation) pairs: a board state of a lone game
Turns = tuple[tuple[int, int], ...]
#: a step of a lone token: (probability, board's turns, cell, collection or None once finished)
Step = tuple[float, Turns, int, "int | None"]


class LoneSeat:
    """One seat's token alone, on boards that differ from the start by turned pieces.

    :meth:`step` is one turn of it in every roll: what the chain here is made of, and what a model
    that also lets other seats turn pieces (``bench/others_turns.py``) needs."""

    def __init__(self, layout: Layout, rules: Rules, policy: object) -> None:
        from terragen.terrain.sim.cache import BoardCache

        if len(layout.players) != 1 or not can_chain(policy, rules):
            raise ValueError("the exact lone chain needs one seat and a player who decides by the board")
        self.rules, self.policy = rules, policy
        self.setup = setup_from_layout(layout, rules)
        self.start = self.setup.starts[0]
        self.start_rotation = tuple(self.setup.board.rotation)
        self._template = BoardCache(self.setup.board, pips=rules.uses_pips)
        self._rng = random.Random(0)  # never drawn from: the player decides by the board
        groups = self.setup.groups[0]
        self.groups = groups
        self._full = (1 << len(groups)) - 1
        self._bit_of = {c: 1 << b for b, grp in enumerate(groups) for c in grp}
        self._rolls_by_points: dict[int, int] = {}
        for r in range(36):
            if not _DOUBLE[r]:
                self._rolls_by_points[_POINTS[r]] = self._rolls_by_points.get(_POINTS[r], 0) + 1
        self._first_roll = {_POINTS[r]: r for r in reversed(range(36)) if not _DOUBLE[r]}
        self._doubles = sum(_DOUBLE) / 36
        self._games: dict[Turns, GameState] = {}
        #: what a move onto each cell adds to the collection, for a plain greedy player whose answers
        #: may be made in C (``greedy_kernels``); None for any other player or without the kernels
        plain_greedy = type(policy) is GreedyPolicy and greedy_kernels.COMPILED
        self._gains = greedy_kernels.gains_by_cell(groups) if plain_greedy else None

    def release(self) -> None:
        """Let go of the board states kept for this seat (:meth:`BoardCache.release`): the chain is built."""
        self._games.clear()
        self._template.release()

    def turned(self, turns: Turns, cell: int, rotation: int) -> Turns:
        """``turns`` with piece ``cell`` at ``rotation`` (dropped when that is its start)."""
        now = dict(turns)
        if rotation == self.start_rotation[cell]:
            now.pop(cell, None)
        else:
            now[cell] = rotation
        return tuple(sorted(now.items()))

    def game(self, turns: Turns) -> GameState:
        """A game standing on the board of ``turns`` (kept: policies ask its tables)."""
        game = self._games.get(turns)
        if game is None:
            game = GameState.new(self.setup, self.rules, self._rng, self._template)
            for cell, rotation in turns:
                apply_action(game, ("rotate", cell, rotation))
            self._games[turns] = game
        return game

    def standing(self, turns: Turns, cell: int, mask: int) -> GameState:
        """The game of board ``turns`` with the token on ``cell`` holding collection ``mask``."""
        game = self.game(turns)
        game.pos[0], game.collected[0], game.finished[0] = cell, mask, False
        game.occupant.clear()
        game.occupant[cell] = 0
        return game

    def step(self, turns: Turns, cell: int, mask: int) -> tuple[list[Step], tuple[int, int] | None]:
        """Every outcome of one turn from (board, cell, collection), and the piece the player turns
        on doubles there (None: it forfeits)."""
        game = self.standing(turns, cell, mask)
        out: list[Step] = []
        if self._gains is None:
            answer, within_of = self._move, partial(game.cache.within, cell)
        else:
            answer, within_of = self._greedy_answers(game, cell, mask)
        for points, count in self._rolls_by_points.items():
            within = within_of(points)
            to = answer(game, points, within)
            if to not in within:
                raise ValueError(f"policy {type(self.policy).__name__} chose cell {to!r}, not a legal end")
            got = mask | self._bit_of.get(to, 0)
            out.append((count / 36, turns, to, None if got == self._full else got))
        action = self._rotation(game)
        turn = None if action is None else (action[1], action[2])
        after = turns if turn is None else self.turned(turns, *turn)
        out.append((self._doubles, after, cell, mask))
        return out, turn

    def _greedy_answers(self, game: GameState, cell: int, mask: int) -> tuple[Callable, Callable]:
        """:meth:`_move` for a plain greedy player, made in C (``greedy_kernels``), and the cells
        within each number of points: building a chain is mostly these answers, seven per state,
        which share the tour tables looked up here once, and the seven sets of cells, cut here from
        one list sorted by cost (the answer does not depend on their order: no two cells tie)."""
        cache, groups = game.cache, self.groups
        tables = (self._gains, mask, cache.tours(groups, mask), cache.tours(groups, mask, True),
                  game.setup.rank[0], cache.tours, groups)
        by_cost = sorted(cache.reach(cell).items(), key=itemgetter(1))
        ends = [bisect_right(by_cost, points, key=itemgetter(1)) for points in range(MAX_BUDGET + 1)]

        def answer(game: GameState, points: int, within: dict[int, int]) -> int:
            to = MOVE(within, *tables)
            return self._move(game, points, within) if to is None else to

        def within_of(points: int) -> dict[int, int]:
            return dict(by_cost[:ends[points]])
        return answer, within_of

    def _move(self, game: GameState, points: int, within: dict[int, int]) -> int:
        """The player's move with ``points``, by the policy itself."""
        r = self._first_roll[points]
        return self.policy.choose_move(game, 0, Roll(_WHITE[r], _RED[r]), MappingProxyType(within))

    def _rotation(self, game: GameState) -> Action | None:
        """The player's turn of a piece on doubles (None: it forfeits), checked when Python made it.

        A greedy player's compiled answer is remembered where the policy remembers its own
        (:meth:`GreedyPolicy.own_rotation_key`): boards that differ only in turns giving a piece the
        same exits share a state, the answer names a turn, and the first one made there is the
        one every later look-up gets; made afresh each time, a chain reached such a state from
        another side and took another turn (found by the tests on one random board of 10,000)."""
        if self._gains is not None and not game.finished[0] and game.pos[0] >= 0:
            memo, key = game.cache.memo, GreedyPolicy.own_rotation_key(game, 0)
            if key in memo:
                return memo[key]
            action = greedy_own_rotation(game, 0, self._gains)
            if action is not LEFT_TO_PYTHON:
                memo[key] = action
                return action
        options = RotationOptions(game, False)
        action = self.policy.choose_rotation(game, 0, Roll(1, 1), options)
        if action is not None and not options.is_legal(action):
            raise ValueError(f"policy {type(self.policy).__name__} chose an illegal action {action!r}")
        return action


#: what becomes of the board between two turns of the seat: (weight, board's turns) pairs summing to 1
Between = Callable[[Turns, int, int], Iterable[tuple[float, Turns]]]


def build_chain(seat: LoneSeat, between: Between | None = None, max_states: int | None = None
                ) -> tuple[list[list[tuple[int, float]]], list[float], list[Turns]]:
    """Per chain state, its successors with their probabilities, its chance to finish this turn and
    the pieces turned in its board state; :class:`TooLarge` past ``max_states`` (default
    :data:`MAX_STATES`). ``between`` (turns, cell, collection after the seat's turn) is for models
    that let the other seats turn pieces between its turns (the experts' defence,
    ``defended_chain.py``); without it the board changes by the seat's turns only."""
    limit = MAX_STATES if max_states is None else max_states
    index: dict[tuple[Turns, int, int], int] = {}
    states: list[tuple[Turns, int, int]] = []

    def state_of(key: tuple[Turns, int, int]) -> int:
        k = index.get(key)
        if k is None:
            if len(states) >= limit:
                raise TooLarge
            k = index[key] = len(states)
            states.append(key)
        return k

    state_of(((), seat.start, 0))
    succ: list[list[tuple[int, float]]] = []
    finish: list[float] = []
    i = 0
    while i < len(states):
        out: dict[int, float] = {}
        done = 0.0
        for p, turns, cell, mask in seat.step(*states[i])[0]:
            if mask is None:
                done += p
                continue
            for weight, board in ((1.0, turns),) if between is None else between(turns, cell, mask):
                k = state_of((board, cell, mask))
                out[k] = out.get(k, 0.0) + p * weight
        succ.append(list(out.items()))
        finish.append(done)
        i += 1
    return succ, finish, [turns for turns, _, _ in states]


def propagate_chain(succ: list[list[tuple[int, float]]], finish: list[float], tail: float, cap: int,
                    by_turns: dict, turns_of: list) -> tuple[float, ...]:
    """Round by round, the chance of having finished; the finishing mass is also added up in
    ``by_turns`` by the turns made. With numpy: a brutal board's chains have a hundred states or
    more and run to a hundred rounds, and a loop over dictionaries took a third of the chain's time."""
    import numpy as np

    n = len(succ)
    src = np.array([k for k, row in enumerate(succ) for _ in row], dtype=np.int64)
    dst = np.array([j for row in succ for j, _ in row], dtype=np.int64)
    prob = np.array([p for row in succ for _, p in row], dtype=float)
    done = np.array(finish, dtype=float)
    mass = np.zeros(n)
    mass[0] = 1.0
    seen = np.zeros(n)  # each state's mass summed over the rounds
    total = 0.0
    cdf = [0.0]
    for _ in range(cap):
        seen += mass
        total += float(mass @ done)
        cdf.append(min(total, 1.0))
        if 1.0 - total < tail:
            break
        mass = np.bincount(dst, weights=mass[src] * prob, minlength=n)
    for k in np.flatnonzero(done):
        t = turns_of[k]
        by_turns[t] = by_turns.get(t, 0.0) + float(seen[k] * done[k])
    return tuple(cdf)
