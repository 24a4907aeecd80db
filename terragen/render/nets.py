"""Fold-up nets: a hex prism per piece (six walls in a strip, the top face, glue tabs), packed on pages.

The top is the piece's face art, the walls are ``level × 6 mm`` high so a
built piece stands as tall as the real one. Cut lines are solid, fold lines
dashed; the bottom stays open so the prism stands on the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from terragen.render.contrast import MIN_TEXT_CONTRAST, contrast, ink_on
from terragen.render.model import Box, Group, Item, Matrix, Point, Polygon, Polyline, Style, Text, compose, translate
from terragen.render.palette import shade
from terragen.render.text import text_width

CUT = Style(stroke="#000000", width=0.2)
FOLD = Style(stroke="#555555", width=0.15, dash=(1.5, 1.0))
LAYER_INSET = 1.5  # mm a level line stops short of each end of its wall
TAB = 4.0  # glue tab width, mm


@dataclass
class Net:
    items: list[Item]
    bounds: Box  # in net-local mm (the cut outline; the bleed reaches past it)
    outline: tuple[Point, ...] = ()  # the cut line, closed; what packing keeps apart
    bleed: list[Item] = field(default_factory=list)  # art past the cut, drawn under every net of a page


def prism_net(R: float, height: float, face: list[Item], wall_colour: str, strata: float, name: str,
              bleed: float = 0.0, lid_colour: str | None = None) -> Net:
    """Net of a hex prism of circumradius ``R`` and wall ``height`` (mm): a strip and a lid.

    ``face`` is the lid art, drawn flat-side down (``piece_face(..., turn=30)``).

    The six walls sit side by side in one strip (one fold each, a tab at the end closes the
    ring); the top face hangs from the second wall, turned flat-side down, and the other five
    walls carry tabs that glue under the lid. With the lid off-centre, a net turned half round
    puts its lid beside the next net's lid, so :func:`pack_nets` can nest them. A strip packs far tighter on paper than a star
    (about 30 pages for the 96 pieces on A4 instead of about 50) and folds into a truer prism.

    ``bleed`` extends the walls' colour and the lid's ``lid_colour`` past the cut, so a slightly
    off cut shows colour, not white paper. It is returned apart (``Net.bleed``) for the page to
    draw under all nets: a neighbour's bleed then never covers a net's own art.
    """
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    side = R
    apothem = R * math.sqrt(3) / 2
    h = height
    parts = []
    items: list[Item] = []
    folds: list[Item] = []
    lid_wall = 1
    for j in range(6):
        x0, x1 = j * side, (j + 1) * side
        wall = ((x0, 0.0), (x1, 0.0), (x1, h), (x0, h))
        parts.append(SPolygon(wall))
        items.append(Polygon(wall, Style(fill=wall_colour)))
        k = strata
        # one line per level, like stacked layers: in a darker shade of the wall, stopping short of
        # the wall's folds, so it cannot be taken for a cut line (black and solid, edge to edge)
        layer = Style(stroke=shade(wall_colour, 0.8), width=0.2)
        while k < h - 0.01:
            items.append(Polyline(((x0 + LAYER_INSET, k), (x1 - LAYER_INSET, k)), layer))
            k += strata
        if j > 0:
            folds.append(Polyline(((x0, 0.0), (x0, h)), FOLD))
        if j != lid_wall:  # tab that glues under the lid
            tab = ((x0 + 1.0, 0.0), (x0 + 3.5, -TAB), (x1 - 3.5, -TAB), (x1 - 1.0, 0.0))
            parts.append(SPolygon(tab))
            items.append(Polygon(tab, Style(fill="#ffffff")))
            folds.append(Polyline(((x0 + 1.0, 0.0), (x1 - 1.0, 0.0)), FOLD))
    # closing tab on the right end of the strip
    t = min(TAB, h / 3)
    end_x = 6 * side
    tab = ((end_x, 0.0), (end_x + TAB, t), (end_x + TAB, h - t), (end_x, h))
    parts.append(SPolygon(tab))
    items.append(Polygon(tab, Style(fill="#ffffff")))
    folds.append(Polyline(((end_x, 0.0), (end_x, h)), FOLD))
    # the lid: a flat-side-down hexagon on top of the lid wall, the face turned to match
    cx, cy = (lid_wall + 0.5) * side, -apothem
    lid = tuple((cx + R * math.cos(math.radians(60 * k)), cy + R * math.sin(math.radians(60 * k))) for k in range(6))
    parts.append(SPolygon(lid))
    items.append(Group(list(face), translate(cx, cy), clip=tuple((x - cx, y - cy) for x, y in lid)))
    folds.append(Polyline(((lid_wall * side, 0.0), ((lid_wall + 1) * side, 0.0)), FOLD))
    items.extend(folds)
    outline = unary_union(parts).buffer(0)
    ring = tuple((round(x, 4), round(y, 4)) for x, y in outline.exterior.coords)
    items.append(Polyline(ring, CUT))
    size = min(3.5, h * 0.45)
    ink = ink_on(wall_colour)
    if contrast(ink, wall_colour) < MIN_TEXT_CONTRAST:  # a mid-tone wall: the id goes on a white patch
        w = text_width(name, size) / 2 + 0.8
        items.append(Polygon(((0.5 * side - w, h / 2 + 1.2 - size * 0.95), (0.5 * side + w, h / 2 + 1.2 - size * 0.95),
                              (0.5 * side + w, h / 2 + 1.2 + size * 0.4), (0.5 * side - w, h / 2 + 1.2 + size * 0.4)),
                             Style(fill="#ffffff")))
        ink = "#1a1a1a"
    items.append(Text(0.5 * side, h / 2 + 1.2, name, size, ink))
    under: list[Item] = []
    if bleed > 0:
        strip = SPolygon(((0.0, 0.0), (6 * side, 0.0), (6 * side, h), (0.0, h))).buffer(bleed, join_style="mitre")
        under.append(Polygon(_ring(strip), Style(fill=wall_colour)))
        grown = SPolygon(lid).buffer(bleed, join_style="mitre")
        under.append(Polygon(_ring(grown), Style(fill=lid_colour or wall_colour)))
    x0, y0, x1, y1 = outline.bounds
    return Net(items, Box(x0, y0, x1, y1), ring, under)


def _ring(poly) -> tuple[Point, ...]:
    return tuple((round(x, 4), round(y, 4)) for x, y in poly.exterior.coords[:-1])


def pack_nets(nets: list[Net], area: Box, gap: float = 3.0) -> list[list[tuple[int, Matrix]]]:
    """Nets on pages in the given order, each upright or turned half round, pushed as high as it goes.

    A net's lid and tabs stick out of one side of its strip only, so a net turned half round
    nests its lid beside the lid of the net above instead of taking a band of its own: the
    tall nets of levels 6 to 8 fit three a page instead of two. Each net is tried upright and
    turned, at every column position, and goes where its bottom edge ends highest; when none
    fits, a new page starts. Returns per page (net index, matrix placing the net on the page).
    """
    from shapely import affinity
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union
    from shapely.prepared import prep

    pages: list[list[tuple[int, Matrix]]] = [[]]
    placed: list = []  # outlines on the current page, grown by half the gap
    blocked = None
    prev_turned = True
    for i, net in enumerate(nets):
        shape = SPolygon(net.outline).buffer(gap / 2, join_style="mitre")
        best = None
        for _attempt in range(2):
            for turned in (False, True):
                g = affinity.rotate(shape, 180.0, origin=(0.0, 0.0)) if turned else shape
                bx0, by0, bx1, by1 = g.bounds
                w, h = bx1 - bx0, by1 - by0
                room = area.width + gap - w
                if room < -1e-9 or area.height + gap < h - 1e-9:
                    continue
                cols = int(room // (w + gap)) + 1 if w + gap > 0 else 1
                for j in range(cols):
                    x = area.x0 - gap / 2 + j * (w + gap) - bx0
                    y = _highest(g, x, by0, h, area, gap, blocked, placed)
                    # lowest bottom edge first (to the mm); on a tie the turn the last net did not
                    # take, so the next net can nest into the pair's shared lid band
                    if y is None:
                        continue
                    key = (round(y + by1), turned == prev_turned, j)
                    if best is None or key < best[0]:
                        best = (key, x, y, turned, g)
            if best is not None:
                break
            pages.append([])  # nothing fits on this page: start the next one
            placed, blocked = [], None
        if best is None:
            raise ValueError("a net larger than the page")  # callers check sizes first
        _, x, y, turned, g = best
        m: Matrix = (-1.0, 0.0, 0.0, -1.0, x, y) if turned else translate(x, y)
        pages[-1].append((i, m))
        prev_turned = turned
        placed.append(affinity.translate(g, x, y))
        blocked = prep(unary_union(placed))
    return [p for p in pages if p]


def _highest(g, x: float, by0: float, h: float, area: Box, gap: float, blocked, placed) -> float | None:
    """The smallest y offset at which ``g`` moved by (x, y) lies in ``area`` clear of ``blocked``."""
    from shapely import affinity

    top = area.y0 - gap / 2 - by0  # the offset that puts the shape at the top of the area
    bottom = area.y1 + gap / 2 - by0 - h  # ... and at the bottom
    if bottom < top - 1e-9:
        return None
    if blocked is None:
        return top

    def free(y: float) -> bool:
        return not blocked.intersects(affinity.translate(g, x, y))

    # nothing can go higher than the lowest top of what is already placed, less the net's height
    lowest = max(p.bounds[3] for p in placed)
    y = max(top, lowest - h - by0 - 1.0)
    step = 2.0
    while y <= bottom + 1e-9 and not free(y):
        y += step
    if y > bottom + 1e-9:
        if not free(bottom):
            return None
        y = bottom
    lo, hi = y - step, y  # refine between a blocked and a free offset
    if lo >= top and not free(lo):
        for _ in range(6):
            mid = (lo + hi) / 2
            if free(mid):
                hi = mid
            else:
                lo = mid
        return hi
    return y


def place(net: Net, at: Matrix) -> Group:
    """The net on the page at ``at``; its words and numbers turned back upright where ``at`` turns
    the net half round, so a level-6 lid never reads as 9 on the sheet."""
    return Group(upright(net.items, at), at)


def upright(items: list[Item], m: Matrix) -> list[Item]:
    """``items`` with every text that ``m`` (and the groups around it) would show upside down
    turned half round about its own middle: same place on the page, reading left to right."""
    from dataclasses import replace

    out: list[Item] = []
    for it in items:
        if isinstance(it, Group):
            out.append(Group(upright(it.items, compose(m, it.matrix)), it.matrix, it.clip))
        elif isinstance(it, Text) and _reads_backwards(it, m):
            a = math.radians(it.angle)
            e1, e2 = (math.cos(a), -math.sin(a)), (math.sin(a), math.cos(a))  # along and down the baseline
            w = text_width(it.text, it.size, it.bold)
            dx = {"start": w / 2, "end": -w / 2}.get(it.anchor, 0.0)  # anchor to the text's middle
            # the middle of the caps stays put: anchor moved to the far corner, turned half round
            x = it.x + 2 * dx * e1[0] - it.size * e2[0]
            y = it.y + 2 * dx * e1[1] - it.size * e2[1]
            out.append(replace(it, x=x, y=y, angle=(it.angle + 180.0) % 360.0))
        else:
            out.append(it)
    return out


def _reads_backwards(t: Text, m: Matrix) -> bool:
    a = math.radians(t.angle)
    return m[0] * math.cos(a) - m[2] * math.sin(a) < -1e-9  # the baseline points left on the page
