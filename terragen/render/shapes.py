"""Component shapes a kit can be made of: hex tiles, square tiles, round tokens.

Each shape knows its outline, how to pack copies of itself into a rectangle
and whether neighbours share their cut lines. Hexes pack in a honeycomb and
squares in a grid with no gap, so one cut separates two pieces (fewer cuts,
as 18xx and Squib sheets do); round tokens cannot share cuts and get a gap
wide enough for both bleeds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from terragen.grids import hex as hx
from terragen.render.model import Box, Point

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Shape:
    """``kind`` is ``hex`` (pointy-top, ``size`` across flats), ``square`` (side) or ``circle`` (diameter)."""

    kind: str
    size: float

    def __post_init__(self) -> None:
        if self.kind not in ("hex", "square", "circle"):
            raise ValueError(f"unknown shape {self.kind!r}")
        if not self.size > 0:
            raise ValueError("shape size must be positive")

    @property
    def circumradius(self) -> float:
        if self.kind == "hex":
            return self.size / SQRT3
        if self.kind == "square":
            return self.size / math.sqrt(2.0)
        return self.size / 2.0

    def outline(self, cx: float = 0.0, cy: float = 0.0) -> tuple[Point, ...]:
        """The cut outline around ``(cx, cy)``; a circle is given as a 72-gon (for geometry only)."""
        if self.kind == "hex":
            r = self.circumradius
            return tuple((cx + r * math.cos(math.radians(30 + 60 * k)), cy - r * math.sin(math.radians(30 + 60 * k))) for k in range(6))
        if self.kind == "square":
            h = self.size / 2.0
            return ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h))
        r = self.size / 2.0
        return tuple((cx + r * math.cos(2 * math.pi * k / 72), cy + r * math.sin(2 * math.pi * k / 72)) for k in range(72))

    def extent(self) -> tuple[float, float]:
        """Width and height of one piece's outline."""
        if self.kind == "hex":
            return (self.size, 2 * self.circumradius)
        return (self.size, self.size)

    def pack(self, area: Box, bleed: float) -> list[Point]:
        """Centres of as many pieces as fit in ``area`` with their bleed, centred, in reading order."""
        w, h = area.width - 2 * bleed, area.height - 2 * bleed
        if self.kind == "hex":
            r = self.circumradius
            rows = int((h - 2 * r) // (1.5 * r)) + 1 if h >= 2 * r else 0
            cols = int((w - (self.size / 2 if rows > 1 else 0)) // self.size)
            if rows <= 0 or cols <= 0:
                return []
            used_w = cols * self.size + (self.size / 2 if rows > 1 else 0)
            used_h = 2 * r + (rows - 1) * 1.5 * r
            x0 = area.x0 + bleed + (w - used_w) / 2 + self.size / 2
            y0 = area.y0 + bleed + (h - used_h) / 2 + r
            return [(x0 + c * self.size + (self.size / 2 if row % 2 else 0), y0 + row * 1.5 * r)
                    for row in range(rows) for c in range(cols)]
        # round tokens: a gap for both bleeds plus room for the little cut ticks between them
        pitch = self.size if self.kind == "square" else self.size + 2 * bleed + 5.0
        span = self.size if self.kind == "square" else pitch
        inner_w = w if self.kind == "square" else area.width
        inner_h = h if self.kind == "square" else area.height
        cols = int((inner_w - span) // pitch) + 1 if inner_w >= span else 0
        rows = int((inner_h - span) // pitch) + 1 if inner_h >= span else 0
        if rows <= 0 or cols <= 0:
            return []
        used_w, used_h = span + (cols - 1) * pitch, span + (rows - 1) * pitch
        x0 = area.x0 + (area.width - used_w) / 2 + span / 2
        y0 = area.y0 + (area.height - used_h) / 2 + span / 2
        return [(x0 + c * pitch, y0 + row * pitch) for row in range(rows) for c in range(cols)]

    def edges(self, cx: float, cy: float) -> list[tuple[Point, Point]]:
        """The straight cut segments of one piece (none for a circle)."""
        if self.kind == "circle":
            return []
        pts = self.outline(cx, cy)
        return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]


def hex_points(R: float, cx: float = 0.0, cy: float = 0.0, turn: float = 0.0) -> tuple[tuple[float, float], ...]:
    """Pointy-top hexagon corners; ``turn`` rotates them (degrees, counter-clockwise on screen)."""
    if not turn:
        return tuple((cx + dx, cy + dy) for dx, dy in hx.corner_offsets(R))
    return tuple(turned(dx, dy, turn, cx, cy) for dx, dy in hx.corner_offsets(R))


def turned(x: float, y: float, turn: float, cx: float = 0.0, cy: float = 0.0) -> tuple[float, float]:
    """Point ``(x, y)`` turned by ``turn`` degrees (counter-clockwise on screen, y down), then moved to ``(cx, cy)``."""
    a = math.radians(turn)
    c, s = math.cos(a), math.sin(a)
    return (cx + c * x + s * y, cy - s * x + c * y)
