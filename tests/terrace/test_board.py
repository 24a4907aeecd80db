from __future__ import annotations

import pytest

from terragen.errors import SpecError
from terragen.terrace.board import board, centre_crossing_steps, height, parse_square, square_name

from .reference import ref_heights


def test_heights_match_the_rulebook_table():
    b = board(8)
    ref = ref_heights(8)
    assert {(i, j): b.height_at((i, j)) for i in range(8) for j in range(8)} == ref
    assert all(height(i, j, 8) == ref[(i, j)] for i, j in ref)


@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_generalised_heights_levels_and_symmetry(n):
    b = board(n)
    assert {(i, j): b.height_at((i, j)) for i in range(n) for j in range(n)} == ref_heights(n)
    assert sorted(set(b.heights)) == list(range(1, n + 1))
    for i in range(n):
        for j in range(n):
            # half-turn symmetry keeps heights; a mirror turns high into low
            assert b.height_at((i, j)) == b.height_at((n - 1 - i, n - 1 - j))
            assert b.height_at((i, j)) + b.height_at((i, n - 1 - j)) == n + 1
    # high corners top-left / bottom-right, low corners the other two
    assert b.height_at((0, 0)) == b.height_at((n - 1, n - 1)) == n
    assert b.height_at((0, n - 1)) == b.height_at((n - 1, 0)) == 1


@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_terraces_are_l_shaped_runs(n):
    b = board(n)
    for members in b.terraces:
        sqs = [b.square(i) for i in members]
        assert len({b.heights[i] for i in members}) == 1
        # an L (or a single square): one row segment and one column segment sharing the corner
        rows = {r for r, _ in sqs}
        cols = {c for _, c in sqs}
        corner = [s for s in sqs if sum(1 for t in sqs if abs(t[0] - s[0]) + abs(t[1] - s[1]) == 1) >= 2]
        assert len(sqs) == len(rows) + len(cols) - 1
        assert len(corner) <= max(1, len(sqs) - 2)
    # 8x8: the four quadrants each hold four nested L's
    if n == 8:
        assert sorted(len(t) for t in b.terraces) == [1, 1, 1, 1, 3, 3, 3, 3, 5, 5, 5, 5, 7, 7, 7, 7]


def test_the_two_level_pairs_at_the_centre_are_separate_terraces():
    b = board(8)
    assert b.terrace_of[b.index((3, 3))] != b.terrace_of[b.index((4, 4))]
    assert b.terrace_of[b.index((3, 4))] != b.terrace_of[b.index((4, 3))]
    steps = {(b.square(x), b.square(y)) for x, y in centre_crossing_steps(8)}
    assert steps == {((3, 3), (4, 4)), ((4, 4), (3, 3)), ((3, 4), (4, 3)), ((4, 3), (3, 4))}


def test_square_names_round_trip():
    for n in (6, 8, 12):
        for i in range(n):
            for j in range(n):
                assert parse_square(square_name((i, j), n), n) == (i, j)
    assert square_name((7, 0), 8) == "a1" and square_name((0, 7), 8) == "h8"
    assert parse_square("i1", 8) is None and parse_square("a9", 8) is None and parse_square("a0", 8) is None


@pytest.mark.parametrize("bad", [4, 7, 14, 0, -8])
def test_bad_sizes_are_rejected(bad):
    with pytest.raises(SpecError):
        board(bad)


@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_only_the_centre_diagonals_join_separate_equal_height_runs(n):
    b = board(n)
    split = set()
    for i in range(n):
        for j in range(n):
            for di, dj in ((1, 1), (1, -1)):
                q = (i + di, j + dj)
                if b.on_board(q) and b.height_at((i, j)) == b.height_at(q):
                    if b.terrace_of[b.index((i, j))] != b.terrace_of[b.index(q)]:
                        split.add(((i, j), q))
    h = n // 2
    assert split == {((h - 1, h - 1), (h, h)), ((h - 1, h), (h, h - 1))}
