"""Every move diagram of the rulebook, transcribed square by square.

In each diagram one piece is examined and the starred squares are exactly its
moves of one kind. Letters are pieces (upper case one side, lower case the
other); digits are empty squares showing their height.
"""

from __future__ import annotations

from .helpers import diagram, find, targets

SAME_TERRACE_A = """
8 7 6 * 4 3 2 1
7 7 6 a 4 3 2 2
6 6 6 * 4 3 3 3
* * * * 4 4 4 4
4 4 4 4 5 5 5 5
3 3 3 4 5 6 6 6
2 2 3 4 5 6 7 7
1 2 3 4 5 6 7 8
"""

SAME_TERRACE_B = """
8 7 6 * 4 3 2 1
7 7 6 a 4 3 2 2
6 6 6 * 4 3 3 3
5 C * b 4 4 4 4
4 4 4 4 5 5 5 5
3 3 3 4 5 6 6 6
2 2 3 4 5 6 7 7
1 2 3 4 5 6 7 8
"""

SAME_TERRACE_C = """
8 7 6 5 4 3 2 1
7 7 6 5 4 3 2 2
6 6 6 5 4 3 3 3
5 5 5 b a 4 4 4
4 4 4 X x 5 5 5
3 3 3 4 5 6 6 6
2 2 3 4 5 6 7 7
1 2 3 4 5 6 7 8
"""

UP_A = """
8 7 6 5 4 3 2 1
7 7 6 5 4 3 2 2
6 6 6 5 4 3 3 3
* * * 5 4 4 4 4
4 a 4 4 5 5 5 5
3 3 3 4 5 6 6 6
2 2 3 4 5 6 7 7
1 2 3 4 5 6 7 8
"""

UP_B = """
8 7 6 5 4 3 2 1
7 7 6 5 4 3 2 2
6 6 6 5 4 3 3 3
5 5 5 5 4 4 4 4
4 * * * 5 5 5 5
3 3 a * 5 6 6 6
2 2 3 * 5 6 7 7
1 2 3 4 5 6 7 8
"""

DOWN_A = """
8 7 6 5 4 3 2 1
7 7 6 5 4 3 2 2
6 6 6 5 4 3 3 3
5 5 5 5 4 4 4 4
4 4 4 4 5 5 5 5
3 3 3 4 5 6 6 6
2 2 * a 5 6 7 7
1 2 3 4 5 6 7 8
"""

DOWN_B = """
8 7 6 5 4 3 2 1
7 7 6 5 4 3 2 2
6 6 6 5 4 3 3 3
5 5 5 5 4 4 4 4
4 4 4 4 5 * 5 5
3 3 3 4 * a 6 6
2 2 3 4 5 6 7 7
1 2 3 4 5 6 7 8
"""

CAPTURE_A = """
8 7 6 5 4 3 2 1
7 7 6 5 4 3 2 2
6 6 6 5 4 3 3 3
5 5 5 5 4 4 4 4
4 c 4 4 5 5 5 5
B 3 c 4 5 6 6 6
2 2 3 4 5 6 7 7
1 2 3 4 5 6 7 8
"""

CAPTURE_B = """
8 7 6 5 4 3 2 1
7 7 6 a 4 3 2 2
6 6 D 5 4 3 3 3
5 D 5 c 4 4 4 4
4 4 4 4 5 5 5 5
3 3 3 4 5 6 6 6
2 2 3 4 5 6 7 7
1 2 3 4 5 6 7 8
"""


def test_same_terrace_a_reaches_every_square_of_its_terrace():
    pos, marks = diagram(SAME_TERRACE_A)
    (a,) = find(pos, "a")
    assert a == (1, 3)
    assert targets(pos, a, "slide") == marks["*"]
    assert len(marks["*"]) == 6


def test_same_terrace_b_jumps_own_piece_but_not_the_opponent():
    pos, marks = diagram(SAME_TERRACE_B)
    (b,) = find(pos, "b")
    assert b == (3, 3)
    assert pos.piece_at((3, 1)).side != pos.piece_at(b).side  # C blocks
    assert pos.piece_at((1, 3)).side == pos.piece_at(b).side  # a is jumped over
    assert targets(pos, b, "slide") == marks["*"] == {(0, 3), (2, 3), (3, 2)}


def test_same_terrace_c_never_across_the_centre():
    pos, marks = diagram(SAME_TERRACE_C)
    (a,) = find(pos, "a")
    (b,) = find(pos, "b")
    (big_x,) = marks["X"]
    (small_x,) = marks["x"]
    assert big_x not in {m.to for m in pos.piece_moves(a)}
    assert small_x not in {m.to for m in pos.piece_moves(b)}
    # the X squares are level with a and b: a terrace joined corner to corner would let them slide across
    h = pos.board.height_at
    assert h(a) == h(big_x) and h(b) == h(small_x)
    # each still slides along its own L, which stops at the centre
    assert targets(pos, a, "slide") == {(0, 4), (1, 4), (2, 4), (3, 5), (3, 6), (3, 7)}
    assert targets(pos, b, "slide") == {(0, 3), (1, 3), (2, 3), (3, 0), (3, 1), (3, 2)}


def test_up_a():
    pos, marks = diagram(UP_A)
    (a,) = find(pos, "a")
    assert targets(pos, a, "up") == marks["*"] == {(3, 0), (3, 1), (3, 2)}


def test_up_b():
    pos, marks = diagram(UP_B)
    (a,) = find(pos, "a")
    assert targets(pos, a, "up") == marks["*"]
    assert len(marks["*"]) == 5


def test_down_a_straight_only():
    pos, marks = diagram(DOWN_A)
    (a,) = find(pos, "a")
    assert targets(pos, a, "down") == marks["*"] == {(6, 2)}


def test_down_b():
    pos, marks = diagram(DOWN_B)
    (a,) = find(pos, "a")
    assert targets(pos, a, "down") == marks["*"] == {(4, 5), (5, 4)}


def test_capture_a_own_same_size_and_smaller_opponent():
    pos, _ = diagram(CAPTURE_A)
    capturer = (4, 1)
    assert pos.piece_at(capturer).token == "c"
    assert targets(pos, capturer, "capture") == {(5, 2), (5, 0)}  # the other c, and B


def test_capture_b_d_takes_d_c_and_a():
    pos, _ = diagram(CAPTURE_B, to_move="top")
    capturer = (2, 2)
    assert pos.piece_at(capturer).token == "D"
    assert targets(pos, capturer, "capture") == {(3, 1), (3, 3), (1, 3)}


def test_capture_needs_same_size_or_smaller():
    # Turn capture A around: the B on (5,0) cannot take anything bigger from above, and
    # a smaller piece cannot take a bigger one below it.
    pos, _ = diagram(CAPTURE_A.replace("4 c 4 4", "4 a 4 4"))
    assert targets(pos, (4, 1), "capture") == set()  # a (A) cannot take B or c
