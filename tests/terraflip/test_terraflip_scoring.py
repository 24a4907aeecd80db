"""Scoring and the turn-order bonus."""

from __future__ import annotations

import pytest

from terragen.errors import SpecError
from terragen.terraflip.rules import Options
from terragen.terraflip.scoring import colour_points, standings, winners


def test_isolated_one_point_joined_two(table):
    t = table()
    t.put((1, 0), "blue")
    t.put((2, 0), "blue")          # joined pair: 2 + 2
    t.put((0, -1), "blue", kind="knight")  # isolated special: 1
    t.put((-1, 0), "green")
    st = t.state(0)
    assert colour_points(st.board, "blue") == (5, 3)
    assert colour_points(st.board, "green") == (1, 1)
    assert colour_points(st.board, "yellow") == (0, 0)


@pytest.mark.parametrize("players,first,last", [
    (4, (3, 2, 1, 0), (3, 2, 1, 0)),
    (3, (3, 2, 0), (2, 1, 0)),
    (2, (3, 0), (1, 0)),
])
def test_bonus_per_player_count(players, first, last):
    assert Options().bonuses(players) == first
    assert Options(bonus_scheme="from-last").bonuses(players) == last
    assert Options(bonus=tuple(range(players))).bonuses(players) == tuple(range(players))
    with pytest.raises(SpecError):
        Options(bonus=(1,)).bonuses(players)


def test_ties_broken_by_tiles_then_shared(table):
    t = table(players=2)
    # blue: two joined tiles = 4 points, 2 tiles; green: 4 isolated tiles = 4 points, 4 tiles
    t.put((1, 0), "blue")
    t.put((2, 0), "blue")
    for pos in [(-1, 0), (0, -2), (-2, 2), (1, 1)]:
        t.put(pos, "green")
    t.put((0, -1), "gray")
    t.put((-1, 1), "gray")
    st = t.state(0)
    rows = standings(st.board, ("blue", "green"), (0, 0))
    assert [r.points for r in rows] == [4, 4]
    assert winners(rows, with_bonus=False) == [1]
    rows = standings(st.board, ("blue", "green"), (3, 0))
    assert winners(rows) == [0]


def test_all_points_agrees_with_per_colour_count():
    from terragen.terraflip.scoring import all_points
    from terragen.terraflip.simulate import play_game

    state = play_game(4, ("random",) * 4, 2, None, None)
    pts = all_points(state.board)
    for c in ("blue", "green", "gray", "yellow"):
        assert pts.get(c, 0) == colour_points(state.board, c)[0]
