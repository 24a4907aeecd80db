"""The rulebook's set-up diagram, and the scaled set-ups of other sizes."""

from __future__ import annotations

from collections import Counter

import pytest

from terragen.terrace.formats import to_text
from terragen.terrace.position import Position
from terragen.terrace.setups import objective, setup_counts

FULL = """
D D C C B B A T
A A B B C C D D
- - - - - - - -
- - - - - - - -
- - - - - - - -
- - - - - - - -
d d c c b b a a
t a b b c c d d
"""

SHORT = """
- T B B C C D -
- - - - - - - -
- - - - - - - -
- - - - - - - -
- - - - - - - -
- - - - - - - -
- - - - - - - -
- d c c b b t -
"""

FOUR = """
-  D  C  C  B  B  T  -
DD -  -  -  -  -  -  tt
CC -  -  -  -  -  -  bb
CC -  -  -  -  -  -  bb
BB -  -  -  -  -  -  cc
BB -  -  -  -  -  -  cc
TT -  -  -  -  -  -  dd
-  t  b  b  c  c  d  -
"""


def board_tokens(pos: Position) -> list[list[str]]:
    return [line.split() for line in to_text(pos).splitlines()[2:]]


@pytest.mark.parametrize("name,diagram", [("full", FULL), ("short", SHORT), ("four", FOUR)])
def test_rulebook_setups(name, diagram):
    pos = Position.start(name)
    assert board_tokens(pos) == [line.split() for line in diagram.strip().splitlines()]
    assert pos.to_move == "top"


def test_objectives_are_the_low_corners_opposite_home():
    # the rulebook's arrows: T (top) heads for the bottom-left corner, t for the top-right;
    # in the four-player game TT (left) shares t's goal and tt (right) shares T's.
    assert objective("top", 8) == (7, 0)
    assert objective("bottom", 8) == (0, 7)
    assert objective("left", 8) == (0, 7)
    assert objective("right", 8) == (7, 0)


@pytest.mark.parametrize("n", [6, 8, 10, 12])
@pytest.mark.parametrize("name", ["full", "short", "four", "three"])
def test_scaled_setups(name, n):
    pos = Position.start(name, n)
    pieces = pos.pieces()
    by_seat = Counter(p.side for p in pieces.values())
    expected = 2 * n if name == "full" else n - 2
    assert set(by_seat.values()) == {expected}
    assert len(by_seat) == {"four": 4, "three": 3}.get(name, 2)
    for side in by_seat:
        kinds = Counter(p.kind for p in pieces.values() if p.side == side)
        assert kinds == +Counter(setup_counts(name, n))
        assert kinds["T"] == 1
    # seats mirror each other by a half turn (the empty left edge of "three" aside)
    for (r, c), p in pieces.items():
        if name == "three" and p.side == "right":
            continue
        q = pos.piece_at((n - 1 - r, n - 1 - c))
        assert q is not None and q.kind == p.kind and q.side != p.side
    assert pos.legal_moves() and pos.result() is None


def test_three_players_is_four_without_the_left_seat():
    three, four = Position.start("three"), Position.start("four")
    assert three.seats == ("top", "right", "bottom")
    assert three.pieces() == {sq: p for sq, p in four.pieces().items() if p.side != "left"}
