"""The exact expected-turns solver against an independent value iteration."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.terrain.board import Board
from terragen.terrain.expected import expected_turns, expected_turns_map
from tests.terrain.helpers import brute_costs, flat_layout, random_layout


def reference_values(board: Board, goals: list[int], start: int) -> float:
    """Plain value iteration over (cell, collected) with brute-force reach sets."""
    n = len(board)
    cost = brute_costs(board)  # no shared code with paths.py
    # group the 36 rolls by the cost they can pay (bad weather halves the white die)
    budgets: dict[float, int] = {}
    doubles = 0
    for white in range(1, 7):
        for red in range(1, 7):
            if white == red:
                doubles += 1
            else:
                b = white if red % 2 == 0 else white / 2
                budgets[b] = budgets.get(b, 0) + 1
    k = len(goals)
    full = (1 << k) - 1

    def landed(m, q):
        for b, g in enumerate(goals):
            if g == q:
                m |= 1 << b
        return m

    reach = {(p, b): [q for q in range(n) if q != p and cost[p][q] <= b] for p in range(n) for b in budgets}
    # iterate upward from zero: values rise to the true ones; states that can never finish rise forever
    V = {(i, m): 0.0 for i in range(n) for m in range(full + 1)}
    for sweep in range(20000):
        delta_max = 0.0
        for m in range(full):
            for p in range(n):
                here = V[(p, m)]
                total = doubles * here
                for b, count in budgets.items():
                    best = here
                    for q in reach[(p, b)]:
                        v = V[(q, landed(m, q))]
                        if v < best:
                            best = v
                    total += count * best
                new = 1 + total / 36
                if new < 1e3:  # states that cannot finish grow without bound; leave them out
                    delta_max = max(delta_max, new - here)
                V[(p, m)] = new
        if sweep > 1500 and delta_max < 1e-11:
            break
    return V[(start, 0)]


def test_one_step_on_the_flat():
    board = Board.from_layout(flat_layout(2, pattern="D", rotation=0))
    # exit 0 (east) from (0,0) to (1,0): cost 1; 28 of 36 rolls allow 1 MP
    assert expected_turns(board, board.index[(0, 0)], [board.index[(1, 0)]]) == pytest.approx(36 / 28)


def test_unreachable_goal_is_infinite():
    board = Board.from_layout(flat_layout(2, pattern="A", rotation=0))
    # exits E, NE, NW only: nothing ever moves south-west
    assert expected_turns(board, board.index[(0, 0)], [board.index[(-1, 1)]]) == math.inf


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 2))
def test_matches_value_iteration_on_random_small_boards(seed, n_goals):
    layout = random_layout(seed, radius=2, levels=(1, 5))
    board = Board.from_layout(layout)
    start = board.index[(2, 0)]
    goals = [board.index[h] for h in [(-2, 0), (0, 2)][:n_goals]]
    ours = expected_turns(board, start, goals)
    ref = reference_values(board, goals, start)
    if ref > 1e3:
        assert ours == math.inf
    else:
        assert ours == pytest.approx(ref, rel=1e-9, abs=1e-9)


def test_map_is_zero_at_goal_and_grows_with_distance():
    board = Board.from_layout(flat_layout(3, pattern="D", rotation=1))  # exits NE, W, SE
    goal = board.index[(0, 0)]
    values = expected_turns_map(board, goal)
    assert values[goal] == 0.0
    finite = [v for v in values if math.isfinite(v)]
    assert len(finite) > 1 and min(v for v in finite if v > 0) >= 36 / 30
