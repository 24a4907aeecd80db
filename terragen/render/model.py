"""The drawing model every print product is built from, in millimetres.

A page is a list of a handful of primitives (polygon, polyline, circle, text,
group with an affine transform and an optional clip). Both back ends (SVG and
PDF) draw exactly these, so a test can check geometry on the model before any
back end runs, and the two outputs cannot drift apart. Coordinates are in mm
with the origin at the top-left of the page and y growing downward, like the
hex grid's pixel coordinates.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Union

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f: x' = a x + c y + e, y' = b x + d y + f

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Hatch:
    """Parallel lines filling a shape (used for inverted pieces and overlap zones)."""

    spacing: float = 2.0
    angle: float = 45.0  # degrees, measured on the page (y down)
    colour: str = "#000000"
    width: float = 0.25


@dataclass(frozen=True)
class Style:
    """Fill and stroke of a shape; ``None`` means "do not paint"."""

    fill: str | None = None
    stroke: str | None = None
    width: float = 0.15
    hatch: Hatch | None = None
    dash: tuple[float, ...] | None = None
    opacity: float = 1.0


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    style: Style


@dataclass(frozen=True)
class Polyline:
    points: tuple[Point, ...]
    style: Style


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style


#: the smallest type on a true-size page, in mm (6 pt): what a home print still reads clearly; the
#: reduced overview pages are drawings of the sheets, not read at arm's length, and may go below
MIN_TEXT_MM = 6 * 25.4 / 72


#: characters no page can show and XML forbids or discourages: C0 and C1 controls, halves of UTF-16
#: pairs and Unicode's noncharacters (U+FFFE and U+FFFF made an SVG no viewer opened)
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def printable(text: str) -> str:
    """``text`` with every character no page can show as U+FFFD. Why: text from the user's files
    (a file name, a tile id, a build order in a layout's meta) reaches the pages, and a control
    character in it made an SVG that no viewer would open (exit 0 all the same)."""
    return text if text.isprintable() else _UNPRINTABLE.sub("\ufffd", text)


@dataclass(frozen=True)
class Text:
    """One line of text; ``size`` is the cap-to-baseline font size in mm, ``anchor`` start|middle|end."""

    x: float
    y: float
    text: str
    size: float
    colour: str = "#000000"
    anchor: str = "middle"
    bold: bool = False
    angle: float = 0.0  # degrees, counter-clockwise on screen

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", printable(self.text))


@dataclass
class Group:
    """Children drawn under ``matrix`` and, if given, clipped to the polygon ``clip`` (in the group's own coordinates)."""

    items: list[Item] = field(default_factory=list)
    matrix: Matrix = IDENTITY
    clip: tuple[Point, ...] | None = None

    def add(self, *items: Item) -> Group:
        self.items.extend(items)
        return self


Item = Union[Polygon, Polyline, Circle, Text, Group]


@dataclass
class Box:
    """An axis-aligned rectangle in page mm (x0, y0 top-left; x1, y1 bottom-right)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def grow(self, d: float) -> Box:
        return Box(self.x0 - d, self.y0 - d, self.x1 + d, self.y1 + d)

    def union(self, other: Box | None) -> Box:
        """The smallest box holding both (``other`` may be None)."""
        if other is None:
            return self
        return Box(min(self.x0, other.x0), min(self.y0, other.y0), max(self.x1, other.x1), max(self.y1, other.y1))

    def intersection(self, other: Box) -> Box | None:
        """The part of both, or None where they do not overlap."""
        x0, y0, x1, y1 = max(self.x0, other.x0), max(self.y0, other.y0), min(self.x1, other.x1), min(self.y1, other.y1)
        return Box(x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


@dataclass
class Page:
    """One printed sheet side. ``trim``/``bleed`` become the PDF's TrimBox and BleedBox."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    label: str = ""
    trim: Box | None = None
    bleed: Box | None = None

    def __post_init__(self) -> None:
        self.label = printable(self.label)

    def add(self, *items: Item) -> Page:
        self.items.extend(items)
        return self


@dataclass
class Document:
    """Pages to print. ``duplex`` is how they are meant to be printed, written into the PDF so the
    print dialog starts there: ``long``/``short`` (double-sided, turned over that edge), ``simplex``
    (one side only: gutter-fold sheets, board sheets to glue) or None (the printer's default)."""

    title: str
    pages: list[Page] = field(default_factory=list)
    duplex: str | None = None

    def __post_init__(self) -> None:
        self.title = printable(self.title)


# --- matrices ---------------------------------------------------------------------------------


def translate(dx: float, dy: float) -> Matrix:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def scale(sx: float, sy: float | None = None) -> Matrix:
    return (sx, 0.0, 0.0, sx if sy is None else sy, 0.0, 0.0)


def rotate(degrees: float) -> Matrix:
    """Rotation by ``degrees`` counter-clockwise as seen on the page (y points down)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return (c, -s, s, c, 0.0, 0.0)


def compose(*ms: Matrix) -> Matrix:
    """The matrix that applies ``ms[-1]`` first and ``ms[0]`` last (like nested groups)."""
    out = IDENTITY
    for m in ms:
        a, b, c, d, e, f = out
        a2, b2, c2, d2, e2, f2 = m
        out = (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f)
    return out


def apply(m: Matrix, p: Point) -> Point:
    a, b, c, d, e, f = m
    return (a * p[0] + c * p[1] + e, b * p[0] + d * p[1] + f)


# --- walking the model (for tests and bounds) ------------------------------------------------


def flatten(items: list[Item], m: Matrix = IDENTITY) -> list[tuple[Item, Matrix]]:
    """Every leaf primitive with the matrix that places it on the page."""
    out: list[tuple[Item, Matrix]] = []
    for it in items:
        if isinstance(it, Group):
            out.extend(flatten(it.items, compose(m, it.matrix)))
        else:
            out.append((it, m))
    return out


def page_points(item: Item, m: Matrix) -> list[Point]:
    """Page coordinates of a leaf's outline points (a circle gives its 4 extreme points)."""
    if isinstance(item, (Polygon, Polyline)):
        return [apply(m, p) for p in item.points]
    if isinstance(item, Circle):
        return [apply(m, (item.cx + dx, item.cy + dy)) for dx, dy in ((item.r, 0), (-item.r, 0), (0, item.r), (0, -item.r))]
    if isinstance(item, Text):
        return [apply(m, (item.x, item.y))]
    return []


def hatch_lines(points: tuple[Point, ...], hatch: Hatch) -> list[tuple[Point, Point]]:
    """Hatch segments covering the bounding box of ``points``; the back ends clip them to the shape."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    half = math.hypot(max(xs) - min(xs), max(ys) - min(ys)) / 2 + hatch.spacing
    a = math.radians(hatch.angle)
    ux, uy = math.cos(a), -math.sin(a)  # along the lines
    nx, ny = -uy, ux  # across the lines
    n = int(half / hatch.spacing) + 1
    out = []
    for k in range(-n, n + 1):
        ox, oy = cx + nx * k * hatch.spacing, cy + ny * k * hatch.spacing
        out.append(((ox - ux * half, oy - uy * half), (ox + ux * half, oy + uy * half)))
    return out


def fmt(v: float) -> str:
    """A stable, short number for text output (3 decimals, no ``-0``)."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s
