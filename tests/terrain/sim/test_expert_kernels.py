"""The expert player's compiled move is the Python policy's move.

An expert game is the same game, roll for roll, with the extension and without it only if every
move is the same: so the two answers are compared on random board states (pieces turned, tokens
and collections anywhere, some seats with no route under the pips, where the pips-ignored tour
decides), and whole games are compared with and without the kernel.
"""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.terrain import expected
from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules, expert_kernels
from terragen.terrain.sim.engine import Roll, RotationOptions
from terragen.terrain.sim.policies import ExpertPolicy, gains_by_cell
from terragen.terrain.sim.runner import forget_tables, run_games
from terragen.templates import template_path
from tests.terrain.sim.sim_helpers import option_sets, random_game_state

EXAMPLES = template_path("terrain", "examples")

needs_kernels = pytest.mark.skipif(not expert_kernels.COMPILED, reason="the compiled table kernels were not built")


@needs_kernels
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 100_000))
def test_the_same_moves_as_the_python_policy(seed):
    state = random_game_state(seed)
    rng = random.Random(seed)
    policy = ExpertPolicy()
    for seat in range(state.players):
        gains = gains_by_cell(state.setup.groups[seat])
        for options in option_sets(state, seat, rng):
            wanted = policy.choose_move(state, seat, Roll(1, 2), MappingProxyType(options))
            assert expert_kernels.expert_move(state, seat, options, gains) == wanted


@needs_kernels
def test_random_states_include_seats_with_no_route_under_the_pips():
    # (so the comparison above covers the pips-ignored tour that guides such a seat, and ties there)
    no_route = 0
    for seed in range(60):
        state = random_game_state(seed)
        for seat in range(state.players):
            table = state.cache.table(state.setup.groups[seat])
            no_route += table[state.collected[seat]][state.pos[seat]] == float("inf")
    assert no_route > 3


@needs_kernels
def test_values_it_does_not_take_are_left_to_python():
    state = random_game_state(1)
    gains = gains_by_cell(state.setup.groups[0])
    within = dict(state.cache.within(state.pos[0], 6))
    assert expert_kernels.expert_move(state, 0, {**within, "x": 1}, gains) is None  # a cell that is no index
    assert expert_kernels.expert_move(state, 0, {}, gains) is None  # nothing to choose from
    assert expert_kernels.expert_move(state, 0, within, {c: -1 for c in within}) is None  # no collection bits
    groups = state.setup.groups[0]
    kernel = expected.COMPILED.expert_move
    args = [within, gains, state.collected[0], state.cache.table(groups), state.setup.rank[0], state.cache.tours, groups]
    assert kernel(*args) in within
    table = state.cache.table(groups)
    short = {mask: table[mask][:-1] for mask in range(1 << len(groups))}  # layers one cell short
    as_ints = {mask: [0] * len(table[mask]) for mask in range(1 << len(groups))}  # values that are no floats
    for place, bad in [(1, []), (2, -1), (3, short), (3, as_ints), (4, list(state.setup.rank[0]))]:
        assert kernel(*args[:place], bad, *args[place + 1:]) is None, place


@needs_kernels
def test_no_kernel_without_the_pips():
    state = random_game_state(2)
    state.rules = Rules(green=True)  # the green die: movement ignores the pips
    within = dict(state.cache.within(state.pos[0], 6))
    assert expert_kernels.expert_move(state, 0, within, gains_by_cell(state.setup.groups[0])) is None


@needs_kernels
@pytest.mark.parametrize("board", ["four-players.json", "six-players.txt"])
def test_the_same_games_without_it(monkeypatch, board):
    layout = load_layout(EXAMPLES / board)
    forget_tables()
    fast = run_games(layout, Rules(), ["expert"] * len(layout.players), 3, 0, 60)
    monkeypatch.setattr(expert_kernels, "COMPILED", False)
    monkeypatch.setattr(expert_kernels, "MOVE", None)
    forget_tables()
    slow = run_games(layout, Rules(), ["expert"] * len(layout.players), 3, 0, 60)
    assert fast == slow
    assert sum(g.rotations for g in fast) > 0


def _turns_of_pieces(seed: int, compiled: bool, monkeypatch) -> list:
    """Every seat's turn on doubles on a random board state (met afresh), weighed in C or in Python."""
    from terragen.terrain.sim import policies

    monkeypatch.setattr(policies, "_EXPERT_TURN", policies._EXPERT_TURN if compiled else None)
    state = random_game_state(seed)
    expert = ExpertPolicy()
    return [expert.choose_rotation(state, seat, Roll(3, 3), RotationOptions(state, False))
            for seat in range(state.players)]


@needs_kernels
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 100_000))
def test_the_same_turns_of_pieces_as_the_python_policy(seed):
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _turns_of_pieces(seed, True, monkeypatch) == _turns_of_pieces(seed, False, monkeypatch)


@needs_kernels
def test_random_states_include_defence_and_forfeits(monkeypatch):
    # (so the comparison above covers turns against a leader's route, turns of its own, and none at all)
    from terragen.terrain.sim import policies

    defended = kinds = 0
    seen = set()
    for seed in range(80):
        state = random_game_state(seed)
        for seat in range(state.players):
            who = policies._leader(state, seat)
            if who is None:
                continue
            me = state.cache.table(state.setup.groups[seat])[state.collected[seat]]
            them = state.cache.table(state.setup.groups[who])[state.collected[who]]
            defended += them[state.pos[who]] < me[state.pos[seat]] and them[state.pos[who]] <= policies.DEFEND_WITHIN
        for action in _turns_of_pieces(seed, True, monkeypatch):
            seen.add(action is None)
    assert defended > 10 and seen == {True, False}


@needs_kernels
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 100_000), st.integers(1, 8))
def test_the_same_routes_as_python(seed, length):
    from terragen.terrain.sim import policies

    state = random_game_state(seed)
    compiled = [policies._route(state, seat, length) for seat in range(state.players)]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(policies, "_SEAT_ROUTE", None)
        assert compiled == [policies._route(state, seat, length) for seat in range(state.players)]


@needs_kernels
def test_route_and_turn_inputs_it_does_not_take_are_left_to_python():
    from terragen.terrain.sim import policies

    state = random_game_state(3)
    groups, mask, pos = state.setup.groups[0], state.collected[0], state.pos[0]
    t = state.cache.tours(groups, mask)
    route_args = [pos, mask, t, state.cache.tours(groups, mask, True), gains_by_cell(groups), state.cache.arcs,
                  state.board.elev_arcs, state.setup.rank[0], 6]
    kernel = expected.COMPILED.seat_route
    assert kernel(*route_args) == policies._route(state, 0)
    for place, bad in [(0, -1), (2, t[:-1]), (2, ["x"] * len(t)), (7, list(state.setup.rank[0])), (8, 0)]:
        assert kernel(*route_args[:place], bad, *route_args[place + 1:]) is None, place
    # the turn kernel on a state where seat 0 has a turn of its own worth making (so every step runs)
    kernel, expert = expected.COMPILED.expert_turn, ExpertPolicy()

    def turn_args(state):
        b, cache = state.board, state.cache
        me = expert._weighed(state, 0, cache.table(state.setup.groups[0])[state.collected[0]])
        return [policies._route(state, 0), [], me, None, b.pattern, b.rotation, b.mask, state.setup.hand[0],
                policies._turns, cache.exits_as, cache.tables_now().reach, cache.reach, cache.memo,
                policies._LOCAL_KEY, policies.ROLL_COUNTS, policies.MIN_GAIN, policies.ALL_EXITS]

    state = next(st for st in map(random_game_state, range(200)) if len(kernel(*turn_args(st))) == 2)
    turn_args = turn_args(state)
    me = turn_args[2]
    b = state.board
    for place, bad in [(0, [-1]), (0, list(range(100))), (2, me[:4]), (4, b.pattern[:-1]), (12, []),
                       (14, (1, 2)), (15, 1), (8, lambda *a: "no turns")]:
        assert kernel(*turn_args[:place], bad, *turn_args[place + 1:]) is None, place


@needs_kernels
def test_a_subclass_that_weighs_turns_its_own_way_is_asked():
    # (the compiled weighing must not step over a player's own one-cell re-evaluation)
    asked = []

    class Cautious(ExpertPolicy):
        def _local(self, state, cell, mask, seat):
            asked.append(cell)
            return super()._local(state, cell, mask, seat) + 1.0

    state = random_game_state(5)
    for seat in range(state.players):
        Cautious().choose_rotation(state, seat, Roll(3, 3), RotationOptions(state, False))
    assert asked
