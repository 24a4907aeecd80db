"""Cells a framing line runs over."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.grids.hex import DIRECTIONS, centres_between, is_axis_line
from terragen.terraflip.geometry import crossed_offsets, line_cells


def test_axis_lines_touch_only_their_centres():
    for dq, dr in DIRECTIONS:
        for k in range(2, 6):
            delta = (dq * k, dr * k)
            assert list(crossed_offsets(delta)) == sorted(centres_between((0, 0), delta))


def test_lines_thirty_degrees_off_run_along_two_hexes_edge():
    # (0,0)->(2,-1) passes through no centre and runs along the border of (1,0) and (1,-1)
    assert crossed_offsets((2, -1)) == ((1, -1), (1, 0))
    centres, off = line_cells((0, 0), (2, -1), axes_only=False)
    assert centres == [] and sorted(off) == [(1, -1), (1, 0)]


def test_steeper_line_crosses_cells_off_centre():
    centres, off = line_cells((0, 0), (3, -1), axes_only=False)
    assert centres == [] and sorted(off) == [(1, 0), (2, -1)]


@settings(max_examples=60, deadline=None)
@given(st.integers(-5, 5), st.integers(-5, 5))
def test_line_cells_are_symmetric(q, r):
    if (q, r) == (0, 0):
        return
    forward = set(crossed_offsets((q, r)))
    backward = {(a + q, b + r) for a, b in crossed_offsets((-q, -r))}
    assert forward == backward
    centres, off = line_cells((0, 0), (q, r), axes_only=False)
    assert set(centres) | set(off) == forward
    if is_axis_line((0, 0), (q, r)):
        assert off == []
