"""Which cells a straight line between two tile centres runs over.

Along the six hex axes the answer is simply the centres in between. A line in
any other direction also crosses hexes off-centre, and the lines exactly 30°
off an axis run *along* the shared edge of two hexes. TerraFlip forbids a
framing line from going over an empty space, so for those lines we need every
cell the segment covers with positive length (crossing its inside or running
along its edge). Touching a single corner point is not "going over" a cell.
The answer depends only on the offset between the two centres, so it is
computed once per offset.
"""

from __future__ import annotations

import math
from functools import lru_cache

from terragen.grids.hex import DIRECTIONS, Hex, SQRT3, centres_between, length, to_pixel

_EPS = 1e-9
_APOTHEM = SQRT3 / 2.0  # hexes of circumradius 1
_NORMALS = [(x / SQRT3, y / SQRT3) for x, y in (to_pixel(d, 1.0) for d in DIRECTIONS)]


def _covered_length(cell: Hex, a: tuple[float, float], b: tuple[float, float]) -> float:
    """Length of segment a-b inside the closed hexagon of ``cell`` (Cyrus-Beck clipping)."""
    cx, cy = to_pixel(cell, 1.0)
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for nx, ny in _NORMALS:
        # inside: n . (p - c) <= apothem (edges included, with a little slack)
        num = _APOTHEM + _EPS - (nx * (a[0] - cx) + ny * (a[1] - cy))
        den = nx * dx + ny * dy
        if abs(den) < 1e-12:
            if num < 0:
                return 0.0
            continue
        t = num / den
        if den > 0:
            t1 = min(t1, t)
        else:
            t0 = max(t0, t)
        if t0 > t1:
            return 0.0
    return (t1 - t0) * math.hypot(dx, dy)


@lru_cache(maxsize=None)
def crossed_offsets(delta: Hex) -> tuple[Hex, ...]:
    """Offsets (relative to the start) of every cell other than both ends that the segment
    from the start centre to ``start + delta`` covers with positive length, sorted."""
    a = (0.0, 0.0)
    b = to_pixel(delta, 1.0)
    n = length(delta)
    out = []
    for q in range(-n - 1, n + 2):
        for r in range(-n - 1, n + 2):
            cell = (q, r)
            if cell in ((0, 0), delta):
                continue
            if _covered_length(cell, a, b) > 1e-6:
                out.append(cell)
    return tuple(sorted(out))


@lru_cache(maxsize=None)
def line_offsets(delta: Hex, axes_only: bool) -> tuple[tuple[Hex, ...], tuple[Hex, ...]]:
    """:func:`line_cells` from the origin to ``delta``, remembered: a line's cells are its start
    plus these, and the players weigh the same few hundred lines many thousand times a game."""
    centres = tuple(centres_between((0, 0), delta))
    if axes_only:
        return centres, ()
    on_line = set(centres)
    return centres, tuple(o for o in crossed_offsets(delta) if o not in on_line)


def line_cells(start: Hex, end: Hex, axes_only: bool) -> tuple[list[Hex], list[Hex]]:
    """(centres strictly between, every other cell the line runs over) for start→end.

    With ``axes_only`` the second list is empty: an axis line touches nothing off-centre.
    """
    q, r = start
    centres, off = line_offsets((end[0] - q, end[1] - r), axes_only)
    return [(q + a, r + b) for a, b in centres], [(q + a, r + b) for a, b in off]
