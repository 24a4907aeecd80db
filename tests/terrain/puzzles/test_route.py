import random

import pytest

from terragen.grids import hex as hx
from terragen.terrain.board import Board
from terragen.terrain.puzzles import make_puzzle
from terragen.terrain.puzzles.model import board_layout, random_board
from terragen.terrain.puzzles.solver import count_cheapest

from .brute import cell_table, simple_paths


@pytest.mark.parametrize("seed", range(6))
def test_cheapest_count_matches_enumeration_of_all_simple_paths(seed):
    rng = random.Random(seed)
    board = random_board(rng, 3, 0.3)
    cells = cell_table(board_layout(board, 0, 0))
    checked = 0
    for start, goal in [(s, g) for s in range(seed, len(board), 6) for g in range(len(board))]:
        if goal == start:
            continue
        paths = simple_paths(cells, board.hexes[start], board.hexes[goal], 9)
        cost, count, _ = count_cheapest(board, start, goal)
        if not paths:
            assert cost is None or cost > 9
            continue
        best = min(c for c, _ in paths)
        assert cost == best
        assert count == sum(1 for c, _ in paths if c == best)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("difficulty", ["easy", "medium"])
@pytest.mark.parametrize("index", range(3))
def test_route_puzzle_answer_is_the_only_cheapest_simple_path(difficulty, index):
    p = make_puzzle("route", difficulty, 7, index)
    cells = cell_table(p.layout)
    start, goal = tuple(p.puzzle["start"]), tuple(p.puzzle["goal"])
    paths = simple_paths(cells, start, goal, p.solution["cost"])
    cheapest = [path for c, path in paths if c == p.solution["cost"]]
    assert min(c for c, _ in paths) == p.solution["cost"]
    assert cheapest == [tuple(tuple(h) for h in p.solution["path"])]
    assert p.layout.start(p.layout.players[0]) == start
    assert p.layout.players[0].destinations[0].hex == goal


def test_route_metrics_are_those_of_the_answer():
    p = make_puzzle("route", "hard", 3, 0)
    cells = cell_table(p.layout)
    path = [tuple(h) for h in p.solution["path"]]
    up3 = sum(1 for a, b in zip(path, path[1:]) if cells[b][0] - cells[a][0] == 3)
    assert p.metrics["up3"] == up3 >= 1
    assert p.metrics["steps"] == len(path) - 1
    assert p.metrics["cost"] >= 11


def test_not_unique_is_detected():
    # a flat all-D board: many equally cheap routes to a far cell
    levels = {h: 1 for h in hx.board_cells(3)}
    board = Board(3, levels, {h: "D" for h in levels}, {h: 0 for h in levels})
    b2 = Board(3, levels, {h: "A" for h in levels}, {h: 0 for h in levels})
    for b in (board, b2):
        start = b.index[(0, 0)]
        for goal in range(len(b)):
            cost, count, _ = count_cheapest(b, start, goal)
            paths = simple_paths(cell_table(board_layout(b, 0, goal)), (0, 0), b.hexes[goal], cost or 0)
            assert count == sum(1 for c, _ in paths if c == cost) if cost else True
    # pattern A (E, NE, NW) at rotation 0: (0,0) -> (1,-2) by NE+NW or NW+NE, 2 ways at cost 2
    start = b2.index[(0, 0)]
    assert count_cheapest(b2, start, b2.index[(1, -2)])[:2] == (2, 2)
    assert count_cheapest(b2, start, b2.index[(2, 0)])[:2] == (2, 1)


def test_no_route_puzzle_has_its_goal_next_to_its_start():
    """Easy batches held puzzles of one step (start and goal neighbours): nothing to find."""
    from terragen.terrain.puzzles.route import make_route

    for index in range(24):
        p = make_route("easy", 5, index)
        assert len(p.solution["path"]) - 1 >= 2, index
