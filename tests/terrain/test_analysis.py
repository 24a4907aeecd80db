import math

from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.terrain.analysis import analyse, fragility
from terragen.terrain.board import Board
from terragen.terrain.files import load_layout
from terragen.terrain.paths import cheapest_path, costs_from
from terragen.terrain.rules import step_cost
from tests.terrain.helpers import EXAMPLES, flat_layout, random_layout, with_players


def test_cheapest_path_cost_is_the_sum_of_its_steps():
    for seed in range(5):
        board = Board.from_layout(random_layout(seed, levels=(1, 5)))
        start = board.index[(5, 0)]
        dist = costs_from(board, start)
        for goal in sorted(dist)[:30]:
            res = cheapest_path(board, start, goal)
            steps = zip(res.cells, res.cells[1:])
            assert res.cost == dist[goal] == sum(step_cost(board.level[b] - board.level[a]) for a, b in steps)
            assert res.cost_bad == 2 * res.cost


def test_examples_analyse_clean():
    for name in ("two-players.txt", "four-players.txt", "six-players.txt"):
        layout = load_layout(EXAMPLES / name)
        a = analyse(layout)
        assert len(a.players) == {"two": 2, "four": 4, "six": 6}[name.split("-")[0]]
        for p in a.players:
            assert p.expected_turns is not None and math.isfinite(p.expected_turns)
            assert p.tour_cost is not None and p.tour_path[0] == p.start
            assert set(p.tour_order) == {(d.q, d.r) for d in p.destinations}
        assert a.fairness_spread is not None and a.fairness_spread >= 0


def test_fragility_counts_cutting_rotations():
    # a corridor: only east exits matter on the row r=0 of a flat board with pattern A turned so that
    # the single route east is a chain; turning any link away cuts the player off.
    layout = with_players(flat_layout(2, pattern="A", rotation=0), [(3, [(2, 0)]), (0, [(-2, 0)])])
    board = Board.from_layout(layout)
    start, goal = board.index[(-2, 0)], board.index[(2, 0)]
    f = fragility(board, start, [goal])
    assert f > 0
    # brute force: count rotations that make the goal unreachable
    from terragen.terrain.paths import reachable
    from terragen.terrain.pieces import distinct_rotations
    brute = 0
    for i in range(len(board)):
        for rot in distinct_rotations(board.pattern[i]):
            if board.rotated(i, rot).mask[i] == board.mask[i]:
                continue
            if goal not in reachable(board.rotated(i, rot), start):
                brute += 1
    assert f == brute


def _brute_fragility(board, start, goals) -> int:
    """Every rotation of every piece, each checked for a tour over all goal orders."""
    import itertools

    from terragen.terrain.paths import reachable
    from terragen.terrain.pieces import distinct_rotations

    def tour(b) -> bool:
        return any(all(y in reachable(b, x) for x, y in zip((start, *order), order))
                   for order in itertools.permutations(goals))

    if not tour(board):
        return 0
    return sum(1 for i in range(len(board)) for rot in distinct_rotations(board.pattern[i])
               if board.rotated(i, rot).mask[i] != board.mask[i] and not tour(board.rotated(i, rot)))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n_goals=st.integers(1, 3), low=st.integers(1, 4))
def test_fragility_is_every_single_rotation_that_cuts_the_tour(seed, n_goals, low):
    """On random radius-3 boards (few levels, so tours exist), with one to three goals."""
    import random

    board = Board.from_layout(random_layout(seed, radius=3, levels=(low, low + 2)))
    rng = random.Random(seed)
    start, *goals = rng.sample(range(len(board)), 1 + n_goals)
    assert fragility(board, start, goals) == _brute_fragility(board, start, goals)


def test_metrics_keys():
    m = analyse(load_layout(EXAMPLES / "four-players.txt")).metrics()
    for key in ("cliffs", "blocked_exits", "up3_arcs", "expected_turns_mean", "fairness_spread", "fragility_total"):
        assert key in m


def test_costs_to_agrees_with_costs_from():
    from terragen.terrain.paths import costs_to

    board = Board.from_layout(random_layout(11, levels=(1, 6)))
    for goal in range(0, len(board), 9):
        back = costs_to(board, goal)
        for p in range(len(board)):
            assert costs_from(board, p).get(goal) == back.get(p)


def test_set_piece_matches_a_board_built_from_scratch():
    layout = random_layout(5, levels=(1, 8))
    board = Board.from_layout(layout)
    i = board.index[(0, 0)]
    board.set_piece(i, 8, "C", 4)
    cell = next(c for c in layout.cells if c.hex == (0, 0))
    cell.level, cell.pattern, cell.rotation = 8, "C", 4
    fresh = Board.from_layout(layout)
    assert board.pip_arcs == fresh.pip_arcs and board.elev_arcs == fresh.elev_arcs
