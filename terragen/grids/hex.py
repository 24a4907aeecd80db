"""Hexagon geometry in axial coordinates, pointy-top, as the design contract fixes it.

A hex is a plain ``(q, r)`` tuple of ints (cube ``s = -q - r``). Tuples keep the
hot loops of analysis and simulation cheap and make hexes usable as dict keys
and JSON-friendly without conversion. Directions are numbered 0..5
counter-clockwise on screen starting east, with ``r`` growing downward.
"""

from __future__ import annotations

import math
from typing import TypeAlias

Hex: TypeAlias = tuple[int, int]

#: Direction vectors, index = direction number: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")


SQRT3 = math.sqrt(3.0)


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Hex, k: int) -> Hex:
    return (a[0] * k, a[1] * k)


def neighbor(h: Hex, direction: int) -> Hex:
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq, h[1] + dr)


def neighbors(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction number that steps from ``a`` to its neighbour ``b``, or None."""
    try:
        return DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
    except ValueError:
        return None


def length(h: Hex) -> int:
    q, r = h
    return max(abs(q), abs(r), abs(q + r))


def distance(a: Hex, b: Hex) -> int:
    return length((a[0] - b[0], a[1] - b[1]))


def rotate(h: Hex, steps: int = 1) -> Hex:
    """Rotate about the origin by ``steps`` × 60° in the direction of increasing direction number."""
    q, r = h
    s = -q - r
    for _ in range(steps % 6):
        # (q, r, s) -> (-s, -q, -r) turns E into NE: one step counter-clockwise on screen.
        q, r, s = -s, -q, -r
    return (q, r)


def ring(center: Hex, radius: int) -> list[Hex]:
    """The ``6 * radius`` hexes at exactly ``radius`` from ``center`` (just ``[center]`` for 0)."""
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = add(center, scale(DIRECTIONS[4], radius))
    for d in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbor(h, d)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


def board_cells(radius: int) -> list[Hex]:
    """Every hex within ``radius`` of the origin, in reading order (row by row, then q)."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    return [(q, r) for r in range(-radius, radius + 1) for q in row_range(radius, r)]


def row_range(radius: int, r: int) -> range:
    """The q values of row ``r`` on a hexagonal board of ``radius``."""
    return range(max(-radius, -radius - r), min(radius, radius - r) + 1)


def board_size(radius: int) -> int:
    return 3 * radius * (radius + 1) + 1


def on_board(h: Hex, radius: int) -> bool:
    return length(h) <= radius


def corner(radius: int, index: int) -> Hex:
    """Corner ``index`` (0..5) of a board of ``radius``: ``radius`` steps along direction ``index``."""
    return scale(DIRECTIONS[index], radius)


def corners(radius: int) -> list[Hex]:
    return [corner(radius, i) for i in range(6)]


def corner_index(h: Hex, radius: int) -> int | None:
    try:
        return corners(radius).index(h)
    except ValueError:
        return None


# --- pixels (pointy-top) -------------------------------------------------------------------


def to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Centre of ``h`` for hexes of circumradius ``size``; y grows downward like r."""
    q, r = h
    return (size * SQRT3 * (q + r / 2.0), size * 1.5 * r)


def from_pixel(x: float, y: float, size: float) -> Hex:
    q = (SQRT3 / 3.0 * x - y / 3.0) / size
    r = (2.0 / 3.0 * y) / size
    return cube_round(q, r)


def cube_round(qf: float, rf: float) -> Hex:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


def corner_offsets(size: float) -> list[tuple[float, float]]:
    """Vertex offsets of a pointy-top hex, starting at the upper-right vertex, counter-clockwise
    on screen. Edge ``d`` (facing direction ``d``) runs from vertex ``d - 1`` to vertex ``d``
    (indices mod 6), where vertex ``k`` sits at angle ``30 + 60k`` degrees, measured upward."""
    out = []
    for k in range(6):
        ang = math.radians(30 + 60 * k)
        out.append((size * math.cos(ang), -size * math.sin(ang)))
    return out


def polygon(h: Hex, size: float) -> list[tuple[float, float]]:
    cx, cy = to_pixel(h, size)
    return [(cx + dx, cy + dy) for dx, dy in corner_offsets(size)]


def edge_midpoint_offset(direction: int, size: float) -> tuple[float, float]:
    """Offset from a hex centre to the midpoint of the edge facing ``direction``."""
    dq, dr = DIRECTIONS[direction % 6]
    x, y = to_pixel((dq, dr), size)
    return (x / 2.0, y / 2.0)


# --- straight lines through centres -----------------------------------------------------------


def primitive(v: Hex) -> Hex:
    """The shortest lattice step along vector ``v`` (``v`` divided by the gcd of its parts)."""
    g = math.gcd(v[0], v[1])
    if g == 0:
        raise ValueError("zero vector has no direction")
    return (v[0] // g, v[1] // g)


def centres_between(a: Hex, b: Hex) -> list[Hex]:
    """Hexes whose centres lie strictly between the centres of ``a`` and ``b`` on the segment.

    Axial coordinates are an affine basis of the centre lattice, so the centres on
    the segment are exactly ``a + k * primitive(b - a)``.
    """
    step = primitive(sub(b, a))
    out = []
    h = add(a, step)
    while h != b:
        out.append(h)
        h = add(h, step)
    return out


def is_axis_line(a: Hex, b: Hex) -> bool:
    """True when ``a`` and ``b`` lie on one of the three hex axes (a straight row of neighbours)."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (dq, dr) != (0, 0) and (dq == 0 or dr == 0 or dq == -dr)


def is_diagonal_line(a: Hex, b: Hex) -> bool:
    """True when ``a`` and ``b`` lie on one of the three 30°-rotated lines through corners."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    if (dq, dr) == (0, 0):
        return False
    s = -dq - dr
    return dq == dr or dq == s or dr == s
