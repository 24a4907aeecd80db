"""Fold-up nets: a hex prism per piece (top face + six walls + glue tabs), packed on pages.

The top is the piece's face art, the walls are ``level × 6 mm`` high so a
built piece stands as tall as the real one. Each wall carries a glue tab on
one side that tucks behind the next wall; the tab is shaped to stay inside
the 60° gap between walls so nets never overlap themselves. Cut lines are
solid, fold lines dashed.
"""

from __future__ import annotations

from dataclasses import dataclass

from terragen.grids import hex as hx
from terragen.render.model import Box, Group, Item, Point, Polygon, Polyline, Style, Text, translate

CUT = Style(stroke="#000000", width=0.2)
FOLD = Style(stroke="#555555", width=0.15, dash=(1.5, 1.0))
TAB = 4.0  # glue tab width, mm


@dataclass
class Net:
    items: list[Item]
    bounds: Box  # in net-local mm


def prism_net(R: float, height: float, face: list[Item], wall_colour: str, strata: float, name: str) -> Net:
    """Net of a pointy-top hex prism of circumradius ``R`` and wall ``height`` (mm)."""
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    V = hx.corner_offsets(R)  # vertex k; edge d runs from vertex d-1 to vertex d
    parts = []
    walls: list[Item] = []
    folds: list[Item] = []
    for d in range(6):
        a, b = V[(d - 1) % 6], V[d]
        mx, my = hx.edge_midpoint_offset(d, R)
        ln = (mx * mx + my * my) ** 0.5
        nx, ny = mx / ln, my / ln
        ex, ey = b[0] - a[0], b[1] - a[1]
        el = (ex * ex + ey * ey) ** 0.5
        ex, ey = ex / el, ey / el
        wall = (a, b, (b[0] + nx * height, b[1] + ny * height), (a[0] + nx * height, a[1] + ny * height))
        parts.append(SPolygon(wall))
        walls.append(Polygon(wall, Style(fill=wall_colour)))
        k = strata
        while k < height - 0.01:  # one line per level, like stacked layers
            walls.append(Polyline(((a[0] + nx * k, a[1] + ny * k), (b[0] + nx * k, b[1] + ny * k)), Style(stroke="#000000", width=0.15, opacity=0.35)))
            k += strata
        # tab on the vertex-b side, inside the 60 degree gap to the next wall
        w = min(TAB, height * 0.6)
        t_in = w / 1.732 + 0.4
        t_out = max(height - 0.8, t_in + 0.5)
        tab = (b, (b[0] + nx * height, b[1] + ny * height),
               (b[0] + nx * t_out + ex * w, b[1] + ny * t_out + ey * w),
               (b[0] + nx * t_in + ex * w, b[1] + ny * t_in + ey * w))
        parts.append(SPolygon(tab))
        walls.append(Polygon(tab, Style(fill="#ffffff")))
        folds.append(Polyline((a, b), FOLD))
        folds.append(Polyline((b, (b[0] + nx * height, b[1] + ny * height)), FOLD))
    top = SPolygon(V)
    outline = unary_union(parts + [top]).buffer(0)
    items: list[Item] = walls
    items.append(Group(list(face), clip=tuple(V)))
    items.extend(folds)
    ring = tuple((round(x, 4), round(y, 4)) for x, y in outline.exterior.coords)
    items.append(Polyline(ring, CUT))
    # the piece id on wall 3 (west), readable from outside
    a3, b3 = V[2], V[3]
    wx = (a3[0] + b3[0]) / 2 - height / 2
    items.append(Text(wx, (a3[1] + b3[1]) / 2 + 1.2, name, min(3.5, height * 0.45), "#000000", angle=90))
    x0, y0, x1, y1 = outline.bounds
    return Net(items, Box(x0, y0, x1, y1))


def pack_nets(nets: list[Net], area: Box, gap: float = 3.0) -> list[list[tuple[int, Point]]]:
    """Shelf packing in the given order: rows left to right, pages top to bottom."""
    pages: list[list[tuple[int, Point]]] = [[]]
    x, y, row_h = area.x0, area.y0, 0.0
    for i, net in enumerate(nets):
        w, h = net.bounds.width, net.bounds.height
        if x + w > area.x1 + 1e-9:
            x, y, row_h = area.x0, y + row_h + gap, 0.0
        if y + h > area.y1 + 1e-9:
            pages.append([])
            x, y, row_h = area.x0, area.y0, 0.0
        pages[-1].append((i, (x - net.bounds.x0, y - net.bounds.y0)))
        x += w + gap
        row_h = max(row_h, h)
    return [p for p in pages if p]


def place(net: Net, at: Point) -> Group:
    return Group(net.items, translate(*at))
