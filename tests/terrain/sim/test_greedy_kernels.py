"""The greedy player's compiled first answers are the Python policy's answers.

A greedy game is the same game, roll for roll, on a machine with the extension and one without only
if every move and every turn of a piece is the same: same inputs and seed, same board out. So both
answers are compared on random board states (pieces turned, tokens and collections anywhere, some
seats with no route under the pips), and whole games are compared with and without them.
"""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.terrain import expected
from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules, greedy_kernels
from terragen.terrain.sim.engine import Roll
from terragen.terrain.sim.policies import GreedyPolicy, _turns
from terragen.terrain.sim.runner import forget_tables, run_games
from terragen.templates import template_path
from tests.terrain.sim.sim_helpers import option_sets, random_game_state

EXAMPLES = template_path("terrain", "examples")

needs_kernels = pytest.mark.skipif(not greedy_kernels.COMPILED, reason="the compiled table kernels were not built")


@needs_kernels
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 100_000))
def test_the_same_moves_as_the_python_policy(seed):
    state = random_game_state(seed)
    rng = random.Random(seed)
    policy = GreedyPolicy()
    for seat in range(state.players):
        gains = greedy_kernels.gains_by_cell(state.setup.groups[seat])
        for options in option_sets(state, seat, rng):
            expected = policy.choose_move(state, seat, Roll(1, 2), MappingProxyType(options))
            assert greedy_kernels.greedy_move(state, seat, options, gains) == expected


@needs_kernels
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 100_000))
def test_the_same_turns_of_a_piece_as_the_python_policy(seed):
    state = random_game_state(seed)
    for seat in range(state.players):
        gains = greedy_kernels.gains_by_cell(state.setup.groups[seat])
        expected = GreedyPolicy._find_own_rotation(state, seat, state.setup.groups[seat], state.pos[seat],
                                                   state.collected[seat])
        assert greedy_kernels.greedy_own_rotation(state, seat, gains) == expected


@needs_kernels
def testrandom_game_states_include_turns_that_help_and_seats_with_no_route_under_the_pips():
    # (so the comparisons above cover both answers of the rotation search and the pips-ignored route)
    helps = no_route = 0
    for seed in range(60):
        state = random_game_state(seed)
        for seat in range(state.players):
            gains = greedy_kernels.gains_by_cell(state.setup.groups[seat])
            helps += greedy_kernels.greedy_own_rotation(state, seat, gains) is not None
            groups, mask = state.setup.groups[seat], state.collected[seat]
            no_route += state.cache.tours(groups, mask)[state.pos[seat]] == float("inf")
    assert helps > 10 and no_route > 3


@needs_kernels
def test_values_it_does_not_take_are_left_to_python():
    state = random_game_state(1)
    gains = greedy_kernels.gains_by_cell(state.setup.groups[0])
    within = dict(state.cache.within(state.pos[0], 6))
    assert greedy_kernels.greedy_move(state, 0, {**within, "x": 1}, gains) is None  # a cell that is no index
    assert greedy_kernels.greedy_move(state, 0, {}, gains) is None  # nothing to choose from
    assert greedy_kernels.greedy_move(state, 0, within, {c: -1 for c in within}) is None  # no collection bits
    # the kernel itself, with a value the simulator never gives in each place, on a state where seat 0
    # has a turn of a piece that helps (so that every step of the search runs)
    state = next(st for st in map(random_game_state, range(100))
                 if greedy_kernels.greedy_own_rotation(st, 0, greedy_kernels.gains_by_cell(st.setup.groups[0])))
    gains = greedy_kernels.gains_by_cell(state.setup.groups[0])
    b, cache = state.board, state.cache
    have = state.collected[0]
    t = cache.tours(state.setup.groups[0], have)
    level = list(b.level)  # (a copy: one case below shrinks it)
    hand = state.setup.hand[0]

    def turns_of(cell):
        return _turns(b.pattern[cell], b.rotation[cell], hand)

    args = [state.pos[0], have, t, cache.tours(state.setup.groups[0], have, True), gains, cache.arcs, b.elev_arcs,
            state.setup.rank[0], 6, b.mask, turns_of, b.nbr, level, b.present, b.inverted, (3, 2, 1, 1, 2, 3, 4)]
    kernel = expected.COMPILED.own_rotation
    assert kernel(*args)
    for place, bad in [(0, -1), (2, t[:-1]), (2, ["x"] * len(t)), (7, list(state.setup.rank[0])), (8, 99),
                       (12, [2.5] * len(b)), (13, [1] * len(b)), (15, (1, 1)),
                       (10, lambda c: (level.pop(), turns_of(c))[1])]:  # a list shortened while it runs
        assert kernel(*args[:place], bad, *args[place + 1:]) is None, place


@needs_kernels
@pytest.mark.parametrize("board", ["four-players.json", "six-players.txt"])
def test_the_same_games_without_them(monkeypatch, board):
    layout = load_layout(EXAMPLES / board)
    forget_tables()
    fast = run_games(layout, Rules(), ["greedy"] * len(layout.players), 3, 0, 150)
    monkeypatch.setattr(greedy_kernels, "COMPILED", False)
    forget_tables()
    slow = run_games(layout, Rules(), ["greedy"] * len(layout.players), 3, 0, 150)
    assert fast == slow
    assert sum(g.rotations for g in fast) > 0


@needs_kernels
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 100_000))
def test_the_experts_one_cell_reevaluation_is_the_python_one(seed):
    # ExpertPolicy._find_local's value comes from C where it was built (local_value): the same floats
    # for every seat, piece and exit mask (on states met afresh each way)
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast = _local_values(random_game_state(seed), True, monkeypatch)
        slow = _local_values(random_game_state(seed), False, monkeypatch)
    assert [v.hex() for v in fast] == [v.hex() for v in slow]


@needs_kernels
def test_the_experts_reevaluations_compared_include_finite_ones(monkeypatch):
    # (so the comparison above is of numbers, not only of "no way there")
    values = [v for seed in range(8) for v in _local_values(random_game_state(seed), True, monkeypatch)]
    assert sum(v != float("inf") for v in values) > len(values) // 4


def _local_values(state, compiled: bool, monkeypatch) -> list[float]:
    from terragen.terrain.sim import policies
    from terragen.terrain.sim.policies import ALL_EXITS, ExpertPolicy

    monkeypatch.setattr(policies, "_LOCAL_VALUE", policies._LOCAL_VALUE if compiled else None)
    expert, b = ExpertPolicy(), state.board
    out = []
    for seat in range(state.players):
        for cell in range(0, len(b), 3):
            if b.passable(cell):
                for mask in (b.mask[cell], ALL_EXITS, (b.mask[cell] << 1 | b.mask[cell] >> 5) & ALL_EXITS):
                    out.append(expert._find_local(state, cell, mask, seat))
    return out
