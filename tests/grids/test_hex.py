from hypothesis import given
from hypothesis import strategies as st

from terragen.grids import hex as hx

coord = st.integers(-30, 30)
hexes = st.tuples(coord, coord)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert hx.distance(a, a) == 0
    assert hx.distance(a, b) == hx.distance(b, a)
    assert (hx.distance(a, b) == 0) == (a == b)
    assert hx.distance(a, c) <= hx.distance(a, b) + hx.distance(b, c)


@given(hexes, st.integers(0, 12))
def test_ring_has_6k_cells_all_at_distance_k(center, k):
    ring = hx.ring(center, k)
    assert len(ring) == (1 if k == 0 else 6 * k)
    assert len(set(ring)) == len(ring)
    assert all(hx.distance(center, h) == k for h in ring)


@given(st.integers(0, 15))
def test_board_of_radius_r_has_3r_r_plus_1_plus_1_cells(r):
    cells = hx.board_cells(r)
    assert len(cells) == len(set(cells)) == 3 * r * (r + 1) + 1 == hx.board_size(r)
    assert set(cells) == set(hx.spiral((0, 0), r))


@given(hexes, hexes, st.integers(0, 5))
def test_rotation_preserves_distance(a, b, k):
    assert hx.distance(hx.rotate(a, k), hx.rotate(b, k)) == hx.distance(a, b)
    assert hx.rotate(a, 6) == a


def test_directions_follow_the_contract():
    assert hx.DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for d in range(6):
        assert hx.rotate(hx.DIRECTIONS[d]) == hx.DIRECTIONS[(d + 1) % 6]
        x, y = hx.to_pixel(hx.DIRECTIONS[d], 1.0)
        # counter-clockwise on screen with y growing downward: E, NE, NW, W, SW, SE
        import math
        angle = math.degrees(math.atan2(-y, x)) % 360
        assert abs(angle - 60 * d) < 1e-9


def test_corners_of_standard_board():
    assert hx.corners(5) == [(5, 0), (5, -5), (0, -5), (-5, 0), (-5, 5), (0, 5)]
    assert all(hx.length(c) == 5 for c in hx.corners(5))


@given(hexes)
def test_pixel_round_trip(h):
    x, y = hx.to_pixel(h, 7.5)
    assert hx.from_pixel(x, y, 7.5) == h


@given(hexes, hexes)
def test_centres_between_lie_on_the_segment(a, b):
    if a == b:
        return
    between = hx.centres_between(a, b)
    ax, ay = hx.to_pixel(a, 1.0)
    bx, by = hx.to_pixel(b, 1.0)
    for h in between:
        x, y = hx.to_pixel(h, 1.0)
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        assert abs(cross) < 1e-6
        assert hx.distance(a, h) < hx.distance(a, b) or hx.is_diagonal_line(a, b)
    # on an axis the cells strictly between are exactly distance - 1 many
    if hx.is_axis_line(a, b):
        assert len(between) == hx.distance(a, b) - 1


def test_axis_and_diagonal_lines():
    assert hx.is_axis_line((0, 0), (3, 0)) and hx.is_axis_line((0, 0), (2, -2))
    assert not hx.is_axis_line((0, 0), (2, -1))
    assert hx.is_diagonal_line((0, 0), (2, -1)) and hx.is_diagonal_line((0, 0), (1, 1))
    assert hx.centres_between((0, 0), (4, -2)) == [(2, -1)]
    assert hx.centres_between((0, 0), (2, -1)) == []


def test_edge_midpoints_face_their_direction():
    for d in range(6):
        mx, my = hx.edge_midpoint_offset(d, 2.0)
        nx, ny = hx.to_pixel(hx.DIRECTIONS[d], 2.0)
        assert abs(mx * 2 - nx) < 1e-9 and abs(my * 2 - ny) < 1e-9
