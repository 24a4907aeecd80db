"""The exact race model against brute force on tiny boards and the expected-turns solver."""

from __future__ import annotations

import math
from functools import lru_cache

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from terragen.grids import hex as hx
from terragen.terrain.analysis import analyse
from terragen.terrain.board import Board
from terragen.terrain.expected import expected_turns_table
from terragen.terrain.files import load_layout
from terragen.terrain.race import SeatRace, race_for_layout, race_model
from tests.terrain.helpers import EXAMPLES, brute_costs, flat_layout, random_layout


class LoneToken:
    """One token alone, moving by the expected-turns values, rolled with every one of the 36 rolls."""

    def __init__(self, board: Board, start: int, goals: list[int]) -> None:
        self.board, self.start, self.goals = board, start, goals
        self.table = expected_turns_table(board, goals)
        self.cost = brute_costs(board)
        self.full = (1 << len(goals)) - 1

    def step(self, p: int, m: int, white: int, red: int) -> tuple[int, int]:
        if white == red:
            return p, m  # doubles: the turn is lost
        budget = white if red % 2 == 0 else white // 2
        best_key, best = (self.table[m][p], 0, p), (p, m)
        for q in range(len(self.board)):
            c = self.cost[p][q]
            if q == p or c > budget:
                continue
            mq = m | sum(1 << b for b, g in enumerate(self.goals) if g == q)
            key = (self.table[mq][q], c, q)
            if key < best_key:
                best_key, best = key, (q, mq)
        return best

    def cdf(self, rounds: int) -> list[float]:
        """P(finished within t rounds), t = 0..rounds, by recursion over every roll sequence."""

        @lru_cache(maxsize=None)
        def done_within(p: int, m: int, k: int) -> float:
            if m == self.full:
                return 1.0
            if k == 0:
                return 0.0
            return sum(done_within(*self.step(p, m, w, r), k - 1) for w in range(1, 7) for r in range(1, 7)) / 36

        return [done_within(self.start, 0, t) for t in range(rounds + 1)]


def joint_race(tokens: list[LoneToken], tol: float = 1e-13) -> list[float]:
    """Who finishes first, seats moving in order, by the exact joint distribution (no product formula)."""
    n = len(tokens)
    dist = {tuple((t.start, 0) for t in tokens): 1.0}
    win = [0.0] * n
    while sum(dist.values()) > tol:
        for i, tok in enumerate(tokens):
            nxt: dict[tuple, float] = {}
            for state, pr in dist.items():
                p, m = state[i]
                for w in range(1, 7):
                    for r in range(1, 7):
                        q, mq = tok.step(p, m, w, r)
                        if mq == tok.full:
                            win[i] += pr / 36
                        else:
                            s2 = state[:i] + ((q, mq),) + state[i + 1:]
                            nxt[s2] = nxt.get(s2, 0.0) + pr / 36
            dist = nxt
    return win


def tiny_board(seed: int, radius: int) -> Board:
    return Board.from_layout(random_layout(seed, radius=radius, levels=(1, 5)))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 100_000), st.integers(1, 2), st.integers(1, 2), st.integers(0, 5))
def test_cdf_matches_every_dice_sequence(seed, radius, n_goals, corner):
    board = tiny_board(seed, radius)
    start = board.index[hx.corner(radius, corner)]
    others = [i for i in range(len(board)) if i != start]
    goals = [others[(seed >> (4 * k)) % len(others)] for k in range(n_goals)]
    goals = list(dict.fromkeys(goals))
    race = race_model(board, [(start, goals)]).seats[0]
    assume(math.isfinite(race.expected_rounds))
    rounds = min(len(race.cdf) - 1, 25)
    exact = LoneToken(board, start, goals).cdf(rounds)
    assert list(race.cdf[: rounds + 1]) == pytest.approx(exact, abs=1e-12)


def test_flat_single_step_is_geometric():
    board = Board.from_layout(flat_layout(2, pattern="D", rotation=0))
    race = race_model(board, [(board.index[(0, 0)], [board.index[(1, 0)]])]).seats[0]
    # 28 of 36 rolls pay one point: finished by round t with probability 1 - (8/36)^t
    for t in range(1, 10):
        assert race.cdf[t] == pytest.approx(1 - (8 / 36) ** t, abs=1e-14)
    assert race.cdf[0] == 0.0
    assert 1 - race.cdf[-1] < 1e-9 <= 1 - race.cdf[-2]
    assert race.quantile(0.5) == 1 and race.quantile(0.99) == 4


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 100_000), st.integers(2, 3))
def test_win_probability_matches_the_joint_race(seed, seats):
    board = tiny_board(seed, 2)
    corners = [0, 2, 4][:seats]
    specs = []
    for k, c in enumerate(corners):
        start = board.index[hx.corner(2, c)]
        goal = board.index[hx.corner(2, (c + 3) % 6)] if k != 1 else board.index[(0, 0)]
        specs.append((start, [goal]))
    result = race_model(board, specs)
    assume(all(math.isfinite(s.expected_rounds) for s in result.seats))
    brute = joint_race([LoneToken(board, s, g) for s, g in specs])
    assert list(result.win_probability) == pytest.approx(brute, abs=1e-8)
    assert sum(result.win_probability) == pytest.approx(1.0, abs=1e-8)


@pytest.mark.parametrize("name", ["two-players.txt", "four-players.txt", "six-players.txt"])
def test_expected_rounds_agree_with_the_expected_turns_solver(name):
    layout = load_layout(EXAMPLES / name)
    board = Board.from_layout(layout)
    race = race_for_layout(layout, board)
    report = analyse(layout, board, with_fragility=False)
    assert [s.seat for s in race.seats] == [p.seat for p in sorted(layout.players, key=lambda p: p.seat)]
    for seat, player in zip(race.seats, report.players):
        assert seat.expected_rounds == pytest.approx(player.expected_turns, rel=1e-7)
        assert seat.cdf[0] == 0.0 and all(a <= b + 1e-15 for a, b in zip(seat.cdf, seat.cdf[1:]))
    assert sum(race.win_probability) == pytest.approx(1.0, abs=1e-8)
    assert sum(race.win_probability_rotating) == pytest.approx(1.0, abs=1e-8)
    n = len(race.seats)
    assert race.max_deviation() == pytest.approx(max(abs(p - 1 / n) for p in race.win_probability))


def test_turn_order_favours_the_first_of_two_equal_seats():
    # two translated copies of one route on a flat board: same distribution, only the turn order differs
    board = Board.from_layout(flat_layout(3, pattern="D", rotation=0))
    a = (board.index[(-3, 0)], [board.index[(0, 0)]])
    c = (board.index[(-3, 3)], [board.index[(0, 3)]])
    res = race_model(board, [a, c])
    assert res.seats[0].cdf == res.seats[1].cdf and math.isfinite(res.seats[0].expected_rounds)
    assert res.win_probability[0] > 0.6 > 0.4 > res.win_probability[1]
    assert res.win_probability_rotating == pytest.approx((0.5, 0.5), abs=1e-12)
    assert res.max_deviation(rotating=True) == pytest.approx(0.0, abs=1e-12)


def test_a_seat_that_cannot_finish_never_wins():
    board = Board.from_layout(flat_layout(2, pattern="A", rotation=0))  # exits E, NE, NW only
    ok = (board.index[(-2, 0)], [board.index[(0, 0)]])
    stuck = (board.index[(0, 0)], [board.index[(-1, 1)]])
    res = race_model(board, [stuck, ok])
    assert res.seats[0].expected_rounds == math.inf and res.seats[0].quantile(0.5) == -1
    assert res.win_probability[0] == 0.0 and res.win_probability[1] == pytest.approx(1.0)


def test_quantile_is_the_smallest_round_reaching_p():
    s = SeatRace(0, (0.0, 0.2, 0.5, 0.9, 1.0), 2.4)
    assert [s.quantile(p) for p in (0.1, 0.2, 0.5, 0.6, 0.95)] == [1, 1, 2, 3, 4]


@pytest.mark.parametrize("lost", [0, 2])
def test_a_start_off_the_board_leaves_the_other_seats_as_they_would_be_without_it(lost):
    # the seats left keep their own tie-break frames: their races and chances are those of the
    # same board with the lost seat not there at all (it never finishes, so it beats nobody)
    layout = load_layout(EXAMPLES / "four-players.txt")
    board = Board.from_layout(layout)
    seats = [(board.index[layout.start(p)], [board.index[d.hex] for d in p.destinations])
             for p in sorted(layout.players, key=lambda p: p.seat)]
    broken = list(seats)
    broken[lost] = (-1, seats[lost][1])
    with_lost = race_model(board, broken)
    without = race_model(board, seats[:lost] + seats[lost + 1:])
    kept = [k for k in range(len(seats)) if k != lost]
    assert with_lost.win_probability[lost] == 0.0
    for k, w in zip(kept, without.seats):
        assert with_lost.seats[k].cdf == pytest.approx(w.cdf, abs=1e-12)
    assert [with_lost.win_probability[k] for k in kept] == pytest.approx(without.win_probability, abs=1e-9)


_cdfs = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=60).map(lambda xs: tuple([0.0, *sorted(xs)]))


@settings(max_examples=60, deadline=None)
@given(cdfs=st.lists(_cdfs, min_size=1, max_size=6))
def test_every_opener_at_once_gives_the_one_opener_numbers_to_the_last_bit(cdfs):
    # the balance search combines races by every opener at once; a different float in the last bit
    # could reorder its candidates, so the batched form must be the one-opener form exactly
    from terragen.terrain.race import race_of, win_probabilities, win_probabilities_by_opener

    races = [SeatRace(s, cdf, sum(1 - f for f in cdf)) for s, cdf in enumerate(cdfs)]
    wins, horizon = win_probabilities_by_opener(races)
    for first in range(len(races)):
        assert (wins[first], horizon) == win_probabilities(races, first)
    combined = race_of(races)
    rotating = list(wins[0])
    for first in range(1, len(races)):
        rotating = [a + b for a, b in zip(rotating, win_probabilities(races, first)[0])]
    assert combined.win_probability == tuple(wins[0])
    assert combined.win_probability_rotating == tuple(r / len(races) for r in rotating)
