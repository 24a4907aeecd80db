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
from types import MappingProxyType
from typing import NamedTuple

from terragen.terrain.layout import Layout
from terragen.terrain.sim.engine import Roll, RotationOptions, apply_action, decides_by_board, rotates_by_board
from terragen.terrain.sim.plain_game import _DOUBLE, _POINTS, _RED, _WHITE
from terragen.terrain.sim.state import GameState, setup_from_layout
from terragen.terrain.sim.variants import Rules

#: Chain states beyond which :func:`lone_finishing_cdf` gives up (returns None); generated boards
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
    moves and turns the board state decides."""
    plain = rules.send_back and rules.pass_through
    return plain and rules.interactions and not rules.inversion and decides_by_board(policy) and rotates_by_board(policy)


def lone_chain(layout: Layout, rules: Rules, policy: object, tail: float = 1e-6) -> LoneChain | None:
    """The finishing rounds of the one seat of ``layout``: ``cdf[t]`` = P(it has collected
    everything by the end of round t), to the round where less than ``tail`` is left or the rules'
    round cap; None when the chain would exceed :data:`MAX_STATES` (sample the games instead)."""
    if len(layout.players) != 1 or not can_chain(policy, rules):
        raise ValueError("the exact lone chain needs one seat and a player who decides by the board")
    try:
        succ, finish, turns_of = _build_chain(layout, rules, policy)
    except TooLarge:
        return None
    by_turns: dict[tuple[tuple[int, int], ...], float] = {}
    cdf = _propagate(succ, finish, tail, rules.turn_cap, by_turns, turns_of)
    ranked = tuple(sorted(((p, t) for t, p in by_turns.items()), key=lambda pt: (-pt[0], pt[1])))
    return LoneChain(cdf, len(succ), ranked)


def _build_chain(layout: Layout, rules: Rules, policy: object
                 ) -> tuple[list[list[tuple[int, float]]], list[float], list[tuple[tuple[int, int], ...]]]:
    """Per chain state, its successors with their probabilities, its chance to finish this turn and
    the pieces turned in its board state (cell, rotation; by cell)."""
    from terragen.terrain.sim.cache import BoardCache

    setup = setup_from_layout(layout, rules)
    template = BoardCache(setup.board, pips=rules.uses_pips)
    rng = random.Random(0)  # never drawn from: the player decides by the board
    groups = setup.groups[0]
    full = (1 << len(groups)) - 1
    bit_of = {c: 1 << b for b, grp in enumerate(groups) for c in grp}
    rolls_by_points: dict[int, list[int]] = {}
    for r in range(36):
        if not _DOUBLE[r]:
            rolls_by_points.setdefault(_POINTS[r], []).append(r)
    doubles = sum(_DOUBLE) / 36

    boards: dict[tuple, int] = {}
    games: list[GameState] = []  # one game per board state, standing in that state
    paths: list[tuple] = []  # the turns that lead to it from the start

    def board_state(path: tuple) -> int:
        game = GameState.new(setup, rules, rng, template)
        for action in path:
            apply_action(game, action)
        key = game.cache._key()
        if key not in boards:
            boards[key] = len(games)
            games.append(game)
            paths.append(path)
        return boards[key]

    index: dict[tuple[int, int, int], int] = {}
    states: list[tuple[int, int, int]] = []

    def state_of(key: tuple[int, int, int]) -> int:
        k = index.get(key)
        if k is None:
            if len(states) >= MAX_STATES:
                raise TooLarge
            k = index[key] = len(states)
            states.append(key)
        return k

    state_of((board_state(()), setup.starts[0], 0))
    succ: list[list[tuple[int, float]]] = []
    finish: list[float] = []
    i = 0
    while i < len(states):
        b, cell, mask = states[i]
        game = games[b]
        game.pos[0], game.collected[0], game.finished[0] = cell, mask, False
        game.occupant.clear()
        game.occupant[cell] = 0
        out: dict[int, float] = {}
        done = 0.0
        for points, rolls in rolls_by_points.items():
            r = rolls[0]
            options = MappingProxyType(game.cache.within(cell, points))
            to = policy.choose_move(game, 0, Roll(_WHITE[r], _RED[r]), options)
            if to not in options:
                raise ValueError(f"policy {type(policy).__name__} chose cell {to!r}, not a legal end")
            p = len(rolls) / 36
            got = mask | bit_of.get(to, 0)
            if got == full:
                done += p
            else:
                k = state_of((b, to, got))
                out[k] = out.get(k, 0.0) + p
        options = RotationOptions(game, False)
        action = policy.choose_rotation(game, 0, Roll(1, 1), options)
        if action is not None and not options.is_legal(action):
            raise ValueError(f"policy {type(policy).__name__} chose an illegal action {action!r}")
        after = b if action is None else board_state(paths[b] + (action,))
        k = state_of((after, cell, mask))
        out[k] = out.get(k, 0.0) + doubles
        succ.append(list(out.items()))
        finish.append(done)
        i += 1
    turned = [tuple(sorted({a[1]: a[2] for a in path}.items())) for path in paths]
    return succ, finish, [turned[b] for b, _, _ in states]


def _propagate(succ: list[list[tuple[int, float]]], finish: list[float], tail: float, cap: int,
               by_turns: dict, turns_of: list) -> tuple[float, ...]:
    """Round by round, the chance of having finished (a plain loop: the chains are small); the
    finishing mass is also added up in ``by_turns`` by the turns made."""
    mass = {0: 1.0}
    total = 0.0
    cdf = [0.0]
    for _ in range(cap):
        for k, m in mass.items():
            if finish[k]:
                t = turns_of[k]
                by_turns[t] = by_turns.get(t, 0.0) + m * finish[k]
        total += sum(m * finish[k] for k, m in mass.items())
        cdf.append(min(total, 1.0))
        if 1.0 - total < tail:
            break
        nxt: dict[int, float] = {}
        for k, m in mass.items():
            for j, p in succ[k]:
                nxt[j] = nxt.get(j, 0.0) + m * p
        mass = nxt
    return tuple(cdf)
