"""The terrain search's compiled searches give what their Python references give.

The generator writes the same board for a spec and seed on every machine, with the extension or
without it, only if every cheapest path (the same cells, not just the same cost), every set of
reachable cells and every count of cliff pips is the same: so each is compared with its reference
on random boards, some pieces out of play, in both move graphs.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.terrain import expected, paths
from terragen.terrain.board import Board
from terragen.terrain.generate import evaluate
from terragen.terrain.rules import MAX_CLIMB
from tests.terrain.helpers import random_layout

needs_kernels = pytest.mark.skipif(expected.COMPILED is None or paths._COMPILED_PATH is None,
                                   reason="the compiled table kernels were not built")


def _board(seed: int) -> Board:
    """A random board with a few pieces upside down and a few holes (a partial set of pieces)."""
    rng = random.Random(seed)
    layout = random_layout(seed, radius=rng.choice((3, 4, 5)), levels=rng.choice(((1, 4), (1, 6), (1, 9))))
    layout.cells = [cell for cell in layout.cells if rng.random() > 0.04]
    for cell in layout.cells:
        cell.inverted = rng.random() < 0.05
    return Board.from_layout(layout)


@needs_kernels
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 100_000))
def test_the_same_cheapest_paths_as_python(seed):
    board, rng = _board(seed), random.Random(seed)
    cells = [i for i in range(len(board)) if board.passable(i)]
    for pips in (True, False):
        arcs = board.pip_arcs if pips else board.elev_arcs
        for _ in range(12):
            start, goal = rng.choice(cells), rng.choice(cells)
            assert paths.cheapest_path(board, start, goal, pips) == paths.cheapest_path_python(arcs, start, goal)


@needs_kernels
def test_the_paths_compared_include_ties_broken_by_up3_steps_and_unreachable_goals():
    # (so the comparison above is of the whole order of the search, not only of its costs)
    assert sum(not all(_board(seed).present) for seed in range(20)) > 10  # (and holes on most boards)
    up3_ties = unreachable = 0
    for seed in range(40):
        board, rng = _board(seed), random.Random(seed)
        cells = [i for i in range(len(board)) if board.passable(i)]
        for _ in range(12):
            start, goal = rng.choice(cells), rng.choice(cells)
            found = paths.cheapest_path(board, start, goal)
            unreachable += not found.reachable
            up3_ties += found.reachable and paths.min_up3_on_cheapest(board, start, goal) > 0
    assert up3_ties > 20 and unreachable > 20


@needs_kernels
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 100_000))
def test_the_same_reachable_cells_and_cliff_pips_as_python(seed):
    board = _board(seed)
    with pytest.MonkeyPatch.context() as monkeypatch:
        compiled = [paths.reachable(board, i, pips) for i in range(0, len(board), 4) for pips in (True, False)]
        cliffs = evaluate.cliff_exits(board)
        monkeypatch.setattr(paths, "_COMPILED_REACHABLE", None)
        monkeypatch.setattr(evaluate, "_CLIFF_COUNT", None)
        assert compiled == [paths.reachable(board, i, pips) for i in range(0, len(board), 4) for pips in (True, False)]
        assert cliffs == evaluate.cliff_exits(board)


@needs_kernels
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 100_000))
def test_the_same_arcs_as_python(seed):
    board = _board(seed)
    for i in range(len(board)):
        made = board.pip_arcs[i], board.elev_arcs[i]
        board._rebuild_arcs_python(i)
        assert made == (board.pip_arcs[i], board.elev_arcs[i])


@needs_kernels
def test_inputs_they_do_not_take_are_left_to_python():
    board = _board(1)
    kernels = expected.COMPILED
    arcs = board.pip_arcs
    assert kernels.cheapest_path(arcs, 0, 1, MAX_CLIMB) is not None
    for bad in ([[("x", 1, 0)]] * len(arcs), [[(1, 0, 0)]] * len(arcs), [[(1, 1, 0.5)]] * len(arcs)):
        assert kernels.cheapest_path(bad, 0, len(bad) - 1, MAX_CLIMB) is None
        assert kernels.reachable_cells(bad, len(bad) - 1) is None
    assert kernels.cheapest_path(arcs, -1, 1, MAX_CLIMB) is None
    assert kernels.cliff_count(board.nbr, board.mask[:-1], board.level, MAX_CLIMB) is None
    assert kernels.cliff_count(board.nbr, board.mask, [0.5] * len(board), MAX_CLIMB) is None
    args = [0, board.nbr, board.level, board.mask, board.present, board.inverted, board.pip_arcs, board.elev_arcs,
            MAX_CLIMB]
    assert kernels.board_arcs(*args) is True
    for place, bad in [(0, len(board)), (2, board.level[:-1]), (2, [0.5] * len(board)), (4, [1] * len(board))]:
        before = list(board.pip_arcs)
        assert kernels.board_arcs(*args[:place], bad, *args[place + 1:]) is None, place
        assert board.pip_arcs == before
