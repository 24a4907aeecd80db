"""The compiled table kernels give the Python versions' values, bit for bit.

Games, generated boards and every recorded result depend on these values (a player picks the
cell with the smallest expected turns, or the cheapest cost), so a machine with the extension and
one without must agree to the last bit: same inputs and seed, same bytes out.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from terragen.terrain import expected
from terragen.terrain.board import Board
from terragen.terrain.expected import near_sources, solve_layer_in_order_python
from terragen.terrain.sim.cache import _reverse_of, bounded_reach_python, repair_after_turn_python, reverse_costs
from tests.terrain.helpers import random_layout

needs_kernels = pytest.mark.skipif(expected.COMPILED is None, reason="the compiled table kernels were not built")


def _both(n, near, landing):
    fast = expected.COMPILED.solve(n, near, landing, expected._N_AT_LEAST)
    slow = solve_layer_in_order_python(n, near, landing)
    return fast, slow


def _same(fast, slow) -> bool:
    return fast[1] == slow[1] and [v.hex() for v in fast[0]] == [v.hex() for v in slow[0]]


@st.composite
def layers(draw):
    """A made-up move table and landing values: few distinct costs and values, so that ties of
    value (broken by cell index) and out-of-order settling both come up."""
    n = draw(st.integers(1, 24))
    near = []
    for q in range(n):
        sources = draw(st.lists(st.integers(0, n - 1).filter(lambda p, q=q: p != q), unique=True, max_size=8))
        near.append([(p, draw(st.integers(1, 6))) for p in sources])
    values = st.sampled_from([0.0, 0.5, 1.0, 2.0, 2.5, 7.25, 10.0, float("inf")])
    landing = draw(st.dictionaries(st.integers(0, n - 1), values, min_size=1, max_size=4))
    return n, near, landing


@needs_kernels
@settings(max_examples=400)
@given(layers())
@example((2, [[(1, 1)], [(0, 1)]], {0: 0.0}))
@example((3, [[], [(0, 1), (2, 1)], [(1, 1)]], {0: 1.0, 2: 1.0}))  # two targets of equal value
# a cell's new value equal to the key it took it from, and cell indices on either side of it: the
# tie rule of "settles in order" (found by mutating the C code: each flips the flag on one of these)
@example((4, [[(2, 1)], [(0, 6), (2, 2), (3, 5), (0, 5)], [(1, 3), (1, 6)], [(2, 6), (0, 1), (0, 1), (3, 4)]],
          {0: 39.00754050133737}))
@example((5, [[(1, 4), (3, 2)], [(2, 4)], [(3, 1), (1, 3), (0, 6), (0, 4)], [(0, 5), (0, 5), (0, 4), (1, 2)],
              [(1, 4), (4, 4)]], {3: 2.0, 4: 33.0}))
def test_the_same_floats_as_the_python_solver_on_made_up_layers(layer):
    assert _same(*_both(*layer))


@needs_kernels
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3))
def test_the_same_floats_on_the_layers_of_real_boards(seed, goals):
    board = Board.from_layout(random_layout(seed, radius=4))
    near = near_sources(board)
    cells = [i for i in range(len(board)) if board.passable(i)]
    landing = {cells[(seed * 7 + 13 * k) % len(cells)]: float(k) for k in range(goals)}
    assert _same(*_both(len(board), near, landing))


@needs_kernels
@pytest.mark.parametrize("layer", [
    (2, [[(5, 1)], []], {0: 0.0}),  # a cell off the board
    (2, [[[1, 1]], []], {0: 0.0}),  # a pair that is no tuple
    (2, [[(1, 7)], []], {0: 0.0}),  # a cost past 6
    (3, [[], []], {1: 0.0}),  # a list short of the cells
    (2, [[(1, 1)], []], {0: 3}),  # a landing value that is an int
    (2, [[(1, 1)], []], {-1: 0.0}),  # a landing cell Python would wrap round
])
def test_inputs_the_simulator_never_gives_are_left_to_the_python_solver(layer):
    assert expected.COMPILED.solve(*layer, expected._N_AT_LEAST) is None


@needs_kernels
@settings(max_examples=300)
@given(layers())
def test_the_packed_sources_give_the_same_floats_as_the_list(layer):
    """A board state's tables pack their sources once and solve every seat's layers from the
    packing: it must answer what the list answers, to the bit."""
    n, near, landing = layer
    packed = expected.pack_near(near)
    assert packed is not None
    fast = expected.COMPILED.solve(n, packed, landing, expected._N_AT_LEAST)
    assert _same(fast, solve_layer_in_order_python(n, near, landing))


@needs_kernels
def test_the_solver_keeps_no_trace_of_an_earlier_board():
    """Its work space is kept between calls: a small board after a large one and the large one
    again, list and packed, each exactly as the Python solver."""
    boards = [Board.from_layout(random_layout(seed, radius=r)) for seed, r in ((3, 5), (4, 2), (5, 4), (3, 5))]
    for board in boards:
        near = near_sources(board)
        cells = [i for i in range(len(board)) if board.passable(i)]
        for goals in (1, 3):
            landing = {cells[(7 + 11 * k) % len(cells)]: float(2 * k) for k in range(goals)}
            slow = solve_layer_in_order_python(len(board), near, landing)
            assert _same(expected.COMPILED.solve(len(board), near, landing, expected._N_AT_LEAST), slow)
            assert _same(expected.COMPILED.solve(len(board), expected.pack_near(near), landing, expected._N_AT_LEAST),
                         slow)


def _packed(*words: int) -> bytes:
    return b"".join(w.to_bytes(4, "little", signed=True) for w in words)


@needs_kernels
def test_a_packing_is_the_words_it_documents():
    # n = 2; row 0 holds (1, 2); row 1 is empty
    assert expected.pack_near([[(1, 2)], []]) == _packed(2, 0, 1, 1, 1, 2)


@needs_kernels
@pytest.mark.parametrize("near", [
    [[(5, 1)], []],  # a cell off the board
    [[[1, 1]], []],  # a pair that is no tuple
    [[(1, 0)], []],  # a cost of nought
    [((1, 1),), []],  # a row that is no list
])
def test_sources_the_packing_does_not_take(near):
    assert expected.pack_near(near) is None


@needs_kernels
@pytest.mark.parametrize("packed", [
    _packed(3, 0, 1, 1, 1, 2),  # made for another number of cells
    _packed(2, 0, 1, 1, 1),  # cut short
    _packed(2, 0, 1, 0, 1, 2),  # rows out of order
    _packed(2, 0, 1, 1, 5, 2),  # a cell off the board
    _packed(2, 0, 1, 1, 1, 7),  # a cost past 6
    _packed(2, 0, 1, 1, -1, 2),  # a cell below nought
    b"\x02\x00\x00",  # not whole words
])
def test_a_packing_that_does_not_fit_is_left_to_the_list(packed):
    """The packing is read without a look at Python objects, so every word is checked: one that
    does not fit is refused (None), and the solve goes on from the list, to the same floats."""
    near, landing = [[(1, 2)], []], {0: 0.0}
    assert expected.COMPILED.solve(2, packed, landing, expected._N_AT_LEAST) is None
    assert expected.solve_layer_in_order(2, near, landing, packed) == solve_layer_in_order_python(2, near, landing)


@needs_kernels
def test_the_python_solver_answers_what_the_compiled_one_leaves():
    assert expected.solve_layer_in_order(2, [[(1, 1)], []], {0: 3}) == solve_layer_in_order_python(2, [[(1, 1)], []], {0: 3})


@needs_kernels
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(0, 10_000), min_size=1, max_size=12))
def test_distance_repairs_give_the_python_values_kinds_and_identity(seed, turns):
    board = Board.from_layout(random_layout(seed, radius=3, levels=(1, 4)))
    rng = random.Random(seed)
    goals = tuple(rng.sample(range(len(board)), rng.randint(1, 3)))
    d = reverse_costs(_reverse_of(board.pip_arcs, len(board)), goals)
    for turn in turns:
        cell = turn % len(board)
        board.set_rotation(cell, (board.rotation[cell] + 1 + turn % 5) % 6)
        rev = _reverse_of(board.pip_arcs, len(board))
        fast = expected.COMPILED.repair_distances(d, rev, board.pip_arcs, cell)
        slow = repair_after_turn_python(d, rev, board.pip_arcs, cell)
        assert fast == slow and [type(v) for v in fast] == [type(v) for v in slow]
        assert (fast is d) == (slow is d)  # the cache drops tables built on a list that changed
        assert slow == reverse_costs(rev, goals)  # (and both are what a fresh search gives)
        d = slow


@needs_kernels
@pytest.mark.parametrize("d, rev, arcs, i", [
    ([0.5, 1.0], [[], []], [[], []], 1),  # costs that are no whole numbers
    ([2 ** 53 + 1, float("inf")], [[(1, 1)], []], [[], [(0, 1, 0)]], 1),  # past what a double holds exactly
    ([0, 2 ** 64], [[], []], [[], []], 0),  # past a C long
    ([0, float("inf")], [[], []], [[], [(0, 1.0, 0)]], 1),  # a cost that is a float
    ([0, 3], [[], []], [[], [(7, 1, 0)]], 1),  # an arc off the board
])
def test_distance_repair_leaves_other_inputs_to_python(d, rev, arcs, i):
    assert expected.COMPILED.repair_distances(d, rev, arcs, i) is None


def test_compiled_kernels_built_where_ci_expects_them():
    # CI installs a C compiler and sets this: a build that failed quietly (the extension is optional)
    # would otherwise only skip the tests above
    if os.environ.get("TERRAGEN_EXPECT_KERNELS"):
        assert expected.COMPILED is not None


@needs_kernels
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 6), st.lists(st.integers(0, 10_000), max_size=6))
def test_reach_gives_the_python_dict_in_the_same_order(seed, limit, turns):
    # the order matters: a player's options are listed in it, and a tie between two of them may
    # go to the first listed
    board = Board.from_layout(random_layout(seed, radius=3, levels=(1, 4)))
    for turn in turns:
        cell = turn % len(board)
        board.set_rotation(cell, (board.rotation[cell] + 1 + turn % 5) % 6)
    for arcs in (board.pip_arcs, board.elev_arcs):
        for start in range(0, len(board), 3):
            fast = expected.COMPILED.bounded_reach(arcs, start, limit)
            slow = bounded_reach_python(arcs, start, limit)
            assert list(fast.items()) == list(slow.items())


@needs_kernels
@pytest.mark.parametrize("arcs, start, limit", [
    ([[(1, 1, 0)], []], 2, 6),          # a start off the board
    ([[(1, 1, 0)], []], 0, 99),         # a limit the reference's "not reached" (99) would cut
    ([[(1, 0, 0)], []], 0, 6),          # an arc that costs nothing
    ([[(5, 1, 0)], []], 0, 6),          # an arc off the board
    ([[(1, 1)], []], 0, 6),             # an arc without its step
    ([[(1, 1.0, 0)], []], 0, 6),        # a cost that is no int
    (([(1, 1, 0)], []), 0, 6),          # not a list
    ([[(1, 1, 0)], []], 0, 6.0),        # a limit that is no int
    ([[(1, 1, 0)], []], 2 ** 70, 6),    # a start past a C long
])
def test_reach_leaves_other_inputs_to_python(arcs, start, limit):
    assert expected.COMPILED.bounded_reach(arcs, start, limit) is None


# ints the kernels read in place (one digit, either sign) and those they ask the interpreter for
_EDGES = [0, 1, -1, 98, 99, 100, 2 ** 30 - 1, 2 ** 30, -(2 ** 30), 2 ** 31, 2 ** 62, 2 ** 63, -(2 ** 63) - 1, 2 ** 70]


@needs_kernels
@settings(max_examples=200)
@given(st.one_of(st.sampled_from(_EDGES), st.integers(-(2 ** 80), 2 ** 80)), st.sampled_from([0, 1]))
def test_an_int_is_taken_by_its_value_whatever_its_size_or_sign(value, where):
    """Every int the kernels take is read by value: taken in range, refused (left to Python) out of it,
    on either side of one digit and of a C long, positive or negative."""
    arcs = [[(1, 1, 0)], [(0, 2, 0)]]
    start, limit = (value, 6) if where == 0 else (0, value)
    got = expected.COMPILED.bounded_reach(arcs, start, limit)
    taken = 0 <= start < 2 and 0 <= limit < 99
    assert (got is not None) == taken
    if taken:
        assert got == bounded_reach_python(arcs, start, limit)


@needs_kernels
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([None, 0, 3, 6, 12, 40, 98, 99, -1]), st.booleans(),
       st.lists(st.integers(0, 10_000), max_size=6))
def test_the_analysis_search_gives_the_python_dict_in_the_same_order(seed, limit, pips, turns):
    # costs_from / costs_to run the compiled search where it takes the limit (and check, with none,
    # that nothing lay past its own); callers may list the cells in the dict's order
    from terragen.terrain import paths

    board = Board.from_layout(random_layout(seed, radius=seed % 3 + 3, levels=(1, 2 + seed % 7)))
    for turn in turns:
        cell = turn % len(board)
        board.set_rotation(cell, (board.rotation[cell] + 1 + turn % 5) % 6)
    arcs = board.pip_arcs if pips else board.elev_arcs
    for start in range(0, len(board), 5):
        fast = paths._dijkstra(arcs, start, limit)
        slow = paths._dijkstra_python(arcs, start, limit)
        assert list(fast.items()) == list(slow.items())


@needs_kernels
def test_the_analysis_search_with_no_limit_goes_past_the_compiled_one():
    # a line of 40 steps of 4 points (160 in all): far past the compiled search's own limit of 98
    from terragen.terrain import paths

    arcs = [[(i + 1, 4, 3)] if i < 40 else [] for i in range(41)]
    dist = paths._dijkstra(arcs, 0, None)
    assert dist == paths._dijkstra_python(arcs, 0, None) and dist[40] == 160


@needs_kernels
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(0, 10_000), max_size=6), st.integers(-1, 40))
def test_the_reach_tree_gives_the_python_dict_in_the_same_order(seed, turns, stuck):
    # the count of rotation-critical pieces walks the tree's parents; its order is the search's
    from terragen.terrain.analysis import _reach_tree_python

    board = Board.from_layout(random_layout(seed, radius=seed % 3 + 3, levels=(1, 2 + seed % 7)))
    for turn in turns:
        cell = turn % len(board)
        board.set_rotation(cell, (board.rotation[cell] + 1 + turn % 5) % 6)
    stuck = min(stuck, len(board) - 1)
    for start in range(0, len(board), 4):
        fast = expected.COMPILED.reach_tree(board.pip_arcs, start, stuck)
        slow = _reach_tree_python(board.pip_arcs, start, stuck)
        assert list(fast.items()) == list(slow.items())


@needs_kernels
@pytest.mark.parametrize("arcs, start, stuck", [
    ([[(1, 1, 0)], []], 2, -1),         # a start off the board
    ([[(1, 1, 0)], []], 0, 2),          # a stuck cell off the board
    ([[(1, 1, 0)], []], 0, -2),         # nor a cell nor "none"
    ([[(5, 1, 0)], []], 0, -1),         # an arc off the board
    ([[(1, 1)], []], 0, -1),            # an arc without its step
    ([[[1, 1, 0]], []], 0, -1),         # an arc that is no tuple
    (([(1, 1, 0)], []), 0, -1),         # not a list
    ([[(1, 1, 0)], ()], 0, -1),         # a cell's arcs not a list
    ([[(1, 1, 0)], []], 2 ** 70, -1),   # a start past a C long
])
def test_the_reach_tree_leaves_other_inputs_to_python(arcs, start, stuck):
    assert expected.COMPILED.reach_tree(arcs, start, stuck) is None


@st.composite
def seat_races(draw):
    """A few seats' finishing-round distributions of different lengths (the longest past numpy's
    blocks of 128 in its pairwise sums), some that never finish, some with equal steps."""
    from terragen.terrain.race import SeatRace

    races = []
    for seat in range(draw(st.integers(1, 6))):
        steps = draw(st.lists(st.sampled_from([0.0, 1e-9, 0.001, 0.03125, 0.1, 0.3]) | st.floats(0.0, 0.5),
                              max_size=300))
        cdf, f = [0.0], 0.0
        for step in steps:
            f = min(1.0, f + step)
            cdf.append(f)
        races.append(SeatRace(seat, tuple(cdf), 0.0))
    return races


@needs_kernels
@settings(max_examples=300, deadline=None)
@given(seat_races())
@example([])  # no seats: numpy's path answers, as before
def test_race_wins_by_opener_are_numpys_to_the_last_bit(races):
    from terragen.terrain.race import win_probabilities_by_opener, win_probabilities_by_opener_numpy

    wins, horizon = win_probabilities_by_opener(races)
    assert horizon == max((len(r.cdf) - 1 for r in races), default=0)
    if races:
        reference = win_probabilities_by_opener_numpy(races, horizon)
        assert [[v.hex() for v in row] for row in wins] == [[v.hex() for v in row] for row in reference]


@pytest.mark.skipif(expected.COMPILED is None, reason="the compiled table kernels were not built")
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100_000))
def test_a_turned_pieces_reach_patched_as_python_patches_it(seed):
    # BoardCache._patch_reach in C (reach_patch): after each turn of a piece the new board state's reach,
    # its budgets' slices and every cell's sources come out the same, in the same order, as in Python
    from terragen.terrain.sim import cache as cache_module
    from terragen.terrain.sim.engine import apply_action
    from terragen.terrain.sim.runner import forget_tables
    from tests.terrain.sim.sim_helpers import random_game_state

    rng = random.Random(seed)
    moves = []
    probe = random_game_state(seed)
    cells = [c for c in range(len(probe.board)) if probe.board.passable(c)]
    for _ in range(6):
        moves.append((rng.choice(cells), rng.randint(1, 5)))

    def states(compiled: bool) -> list:
        with pytest.MonkeyPatch.context() as monkeypatch:
            monkeypatch.setattr(cache_module, "_REACH_PATCH", cache_module._REACH_PATCH if compiled else None)
            forget_tables()  # (each way meets every board state afresh)
            state = random_game_state(seed)
            cache = state.cache
            if seed % 3:
                cache.near()  # (every reach known, so the sources are patched too; else only dropped)
            out = []
            for cell, step in moves:
                cache.within(cell, 3)
                apply_action(state, ("rotate", cell, (state.board.rotation[cell] + step) % 6))
                t = cache.tables_now()
                out.append((list(t.reach.items()), sorted(t.within), t.near))
            return out

    assert states(True) == states(False)


@pytest.mark.skipif(expected.COMPILED is None, reason="the compiled table kernels were not built")
def test_an_old_reach_the_patch_does_not_take_changes_nothing():
    new_reach, new_within = {0: {0: 0, 1: 1}, 1: {1: 0}}, {0: [None] * 7}
    for old in ({0: [1, 2]}, {0: {1: "x"}}, {0: {1: 99}}):
        assert expected.COMPILED.reach_patch(old, 1, 5, new_reach, new_within, None, lambda p: {}) is None
        assert new_reach == {0: {0: 0, 1: 1}, 1: {1: 0}} and new_within == {0: [None] * 7}
    # and one it takes: cell 0 reached 1 within the room, so it leaves both (no sources to patch)
    got = expected.COMPILED.reach_patch({0: {0: 0, 1: 1}, 1: {1: 0}}, 1, 5, new_reach, new_within, None, None)
    assert got == (None,) and new_reach == {} and new_within == {}
