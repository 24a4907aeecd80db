"""The plain game's compiled turns (``_fast_turns.c``) play the same games as its Python turns.

Every generated board depends on these games: a machine with the extension and one without must
play game ``i`` of a seed the same way, roll for roll, or the same seed would give them other boards.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.grids import hex as hx
from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules, plain_game
from terragen.terrain.sim.runner import forget_tables, run_games
from terragen.templates import template_path
from tests.terrain.helpers import random_layout, with_players

EXAMPLES = template_path("terrain", "examples")
BOARDS = ("two-players.txt", "four-players.json", "six-players.txt")

needs_fast_turns = pytest.mark.skipif(plain_game.FAST_TURNS is None, reason="the compiled turns were not built")


def _games(monkeypatch, compiled: bool, layout, rules: Rules, policy: str, seed: int, games: int, twins=None):
    monkeypatch.setattr(plain_game, "FAST_TURNS", plain_game.FAST_TURNS if compiled else None)
    forget_tables()  # each side starts with no remembered answers, as a fresh process does
    return run_games(layout, rules, [policy] * len(layout.players), seed, 0, games, twins=twins)


@needs_fast_turns
@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("policy", ["greedy", "solitary", "expert"])
@pytest.mark.parametrize("inversion", [False, True])
def test_the_same_games_as_the_python_turns(monkeypatch, board, policy, inversion):
    layout = load_layout(EXAMPLES / board)
    rules = Rules(inversion=inversion)
    fast = _games(monkeypatch, True, layout, rules, policy, 11, 100)
    slow = _games(monkeypatch, False, layout, rules, policy, 11, 100)
    assert fast == slow
    # the games did what the compiled turns hand back to Python: send-backs (tokens meet on the
    # busier boards) and turns of pieces
    assert len(layout.players) == 2 or sum(g.send_backs for g in fast) > 0
    assert policy == "solitary" or sum(g.rotations for g in fast) > 0


@needs_fast_turns
@pytest.mark.parametrize("board", ["four-players.json", "six-players.txt"])
def test_the_same_twin_games_as_the_python_turns(monkeypatch, board):
    # twin games draw each seat's rolls from a stream of its own (the generator's class samples)
    layout = load_layout(EXAMPLES / board)
    n = len(layout.players)
    twins = [n - 1 - s for s in range(n)]
    fast = _games(monkeypatch, True, layout, Rules(), "greedy", 5, 120, twins)
    slow = _games(monkeypatch, False, layout, Rules(), "greedy", 5, 120, twins)
    assert fast == slow


def _crowded_corner(seed: int):
    """A small board where seat 0's two destinations lie beside its start, so its token walks
    back over its own start, and the others' lie around that corner too: a token standing on its
    own start again, which no one may then land on, comes up in a few dozen games."""
    rng = random.Random(seed)
    layout = random_layout(seed, radius=3, levels=(1, 2))
    corner = hx.corner(3, 0)
    beside = [tuple(h) for h in hx.board_cells(3) if hx.distance(h, corner) == 1]
    around = [tuple(h) for h in hx.board_cells(3) if 1 <= hx.distance(h, corner) <= 2]
    others = rng.sample(range(1, 6), 1 + seed % 4)
    return with_players(layout, [(0, rng.sample(beside, 2))] + [(k, rng.sample(around, 2)) for k in others])


@needs_fast_turns
@pytest.mark.parametrize("seed", [27, 0, 1, 2])
def test_the_same_games_where_tokens_walk_back_over_their_start(monkeypatch, seed):
    # seed 27: the compiled turns once moved a token back onto its start without Python's turns
    # knowing, and another token then landed there and sent it home
    layout = _crowded_corner(seed)
    fast = _games(monkeypatch, True, layout, Rules(), "greedy", seed, 60)
    slow = _games(monkeypatch, False, layout, Rules(), "greedy", seed, 60)
    assert fast == slow


@needs_fast_turns
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_the_same_games_on_crowded_corners(seed):
    layout = _crowded_corner(seed)
    with pytest.MonkeyPatch.context() as patch:
        fast = _games(patch, True, layout, Rules(), "greedy", seed, 30)
        slow = _games(patch, False, layout, Rules(), "greedy", seed, 30)
    assert fast == slow


@needs_fast_turns
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(BOARDS), st.sampled_from(["greedy", "solitary"]),
       st.integers(1, 40))
def test_the_same_games_for_any_seed_and_turn_cap(seed, board, policy, turn_cap):
    # a short turn cap stops games in every round and at every seat, where the two loops resume
    layout = load_layout(EXAMPLES / board)
    rules = Rules(turn_cap=turn_cap)
    with pytest.MonkeyPatch.context() as patch:
        fast = _games(patch, True, layout, rules, policy, seed, 12)
        slow = _games(patch, False, layout, rules, policy, seed, 12)
    assert fast == slow


@needs_fast_turns
@pytest.mark.parametrize("change", [
    lambda c: c[:16],                               # too short
    lambda c: ((0, 1, 2, 9),) + c[1:],              # a seat that is not there
    lambda c: c[:1] + ([-1] + c[1][1:],) + c[2:],   # a token off the board
    lambda c: c[:7] + (45,) + c[8:],                # keys that would not fit in 64 bits
    lambda c: c[:12] + ("not dice",) + c[13:],
    lambda c: c[:12] + ([[0]] * 4,) + c[13:],      # seats' rolls that are no streams
    lambda c: c[:14] + ([0, 1],) + c[15:],          # no set of seats at home
    lambda c: c[:15] + (None,) + c[16:],            # no turn for Python's turns
    lambda c: c + ("no plan",),                     # greedy players' first answers: no plan of them
    lambda c: c + ((len, len, (True,) * 4, ({},) * 4, ((),) * 4, [()] * 4, len),),  # ranks that are no tuple
    lambda c: c + ((len, len, (True,) * 3, ({},) * 4, ((),) * 4, ((),) * 4, len),),  # a seat left out
    lambda c: c + ((len, len, (True,) * 4, ({},) * 4, ((),) * 4, ((),) * 4, None),),  # no within() to call
])
def test_a_context_it_does_not_take_is_left_to_python_untouched(change):
    layout = load_layout(EXAMPLES / "four-players.json")
    from terragen.terrain.sim.runner import _setup_and_tables
    from terragen.terrain.sim.state import GameState

    setup, template = _setup_and_tables(layout, Rules())
    state = GameState.new(setup, Rules(), None, template)
    bit_of, full, pshift, base, rotates = plain_game._seats_plan(state, [object()] * 4)[:5]
    tables = state.cache.tables_now()
    context = ((0, 1, 2, 3), state.pos, state.collected, state.occupant, state.turns, tuple(setup.starts), base,
               pshift, bit_of, full, rotates, False, lambda k: 0, 100, set(range(4)), lambda seat, r: tables, state)
    bad = change(context)
    before = (list(state.pos), list(state.turns), dict(state.occupant), state.round)
    assert plain_game.FAST_TURNS.play(bad, tables, 1, 0) is None
    assert (list(state.pos), list(state.turns), dict(state.occupant), state.round) == before


@needs_fast_turns
def test_python_plays_on_after_a_turn_that_leaves_values_it_does_not_take():
    layout = load_layout(EXAMPLES / "four-players.json")
    from terragen.terrain.sim.runner import _setup_and_tables
    from terragen.terrain.sim.state import GameState

    setup, template = _setup_and_tables(layout, Rules())
    state = GameState.new(setup, Rules(), None, template)
    bit_of, full, pshift, base, rotates = plain_game._seats_plan(state, [object()] * 4)[:5]
    tables = state.cache.tables_now()
    played = []

    def slow(seat, r):  # Python's turn: here it lifts seat 2's token off the board
        played.append((seat, r))
        state.pos[2] = -1
        return tables

    # every draw a double 1 (0) for players whose doubles Python plays (rotates False)
    context = ((0, 1, 2, 3), state.pos, state.collected, state.occupant, state.turns, tuple(setup.starts), base,
               pshift, bit_of, full, (False,) * 4, False, lambda k: 0, 100, set(range(4)), slow, state)
    assert plain_game.FAST_TURNS.play(context, tables, 3, 1) == (2, 3, 2, 0)  # on from seat 2 of round 3
    assert played == [(1, 0)] and state.turns == [0, 1, 0, 0] and state.round == 3


@needs_fast_turns
@pytest.mark.parametrize("points", [(), tuple(range(36)), (1,) * 35 + ("6",)])
def test_a_wrong_table_of_points_is_refused(points):
    with pytest.raises(ValueError):
        plain_game.FAST_TURNS.configure(points)


def test_compiled_turns_built_where_ci_expects_them():
    # CI installs a C compiler and sets this: a build that failed quietly (the extension is optional)
    # would otherwise only skip the tests above
    if os.environ.get("TERRAGEN_EXPECT_KERNELS"):
        assert plain_game.FAST_TURNS is not None
