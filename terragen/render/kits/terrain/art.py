"""Art for The Terrain Game: piece faces, inverted backs, the board, tokens, the gauge.

Everything is drawn in local millimetres around (0, 0) for a hex of
circumradius ``R`` (pointy-top, as the grid contract says), so the same face
serves the tile sheets, the fold-up nets and the build sheet at any scale.
Pips sit at the edge midpoints of the exit directions the model gives; the
art decides no rule.
"""

from __future__ import annotations

import math

from terragen.grids import hex as hx
from terragen.render.contrast import DARK_INK
from terragen.render.model import MIN_TEXT_MM, Circle, Hatch, Item, Polygon, Polyline, Style, Text
from terragen.render.text import text_width
from terragen.render.palette import Palette, shade
from terragen.render.shapes import hex_points, turned

#: Height of one level in mm (the rulebook's quarter inch).
LEVEL_MM = 6.0


def right_side_notch(R: float, direction: int, turn: float = 0.0, fill: str = DARK_INK, tip: float = 0.86) -> Polygon:
    """A dark triangle on the rim at the edge facing ``direction``: where a piece's right-hand
    side (the edge right of its number on a flat piece) lies. The build sheet puts one at the
    edge a piece's right-hand side turns to, and a net's lid at its own right-hand side, so
    a built prism is turned by matching the two, whichever way its lid's number was printed.
    ``tip``: how far in the point reaches, as a share of the way to the edge's midpoint."""
    corners = hx.corner_offsets(R)
    (ax, ay), (bx, by) = corners[(direction - 1) % 6], corners[direction % 6]
    mx, my = hx.edge_midpoint_offset(direction, R)
    wing = 0.32
    points = ((mx + (ax - mx) * wing, my + (ay - my) * wing), (mx + (bx - mx) * wing, my + (by - my) * wing),
              (mx * tip, my * tip))
    # a white edge, as the pips have: black alone hardly showed on the darkest greys (levels 7 and 8
    # of --palette grey, 2.4:1 and 1.6:1), and on a net's lid the notch is the only mark of the piece's turn
    return Polygon(tuple(turned(x, y, turn) for x, y in points), Style(fill=fill, stroke="#ffffff", width=R * 0.025))


def piece_face(R: float, level: int, exits: tuple[int, ...], label: str, pal: Palette, number: bool = True,
               turn: float = 0.0, notch: bool = False) -> list[Item]:
    """The top of a piece: level colour, an inner rim, the big level number, pips, the small id.

    ``turn`` rotates the hexagon and its pips but keeps the text upright (the nets' lids are
    flat-side down, i.e. turned 30 degrees, and packing turns every other net half round):
    the number then no longer tells the piece's rotation, so such a face takes ``notch``,
    the mark of its right-hand side (:func:`right_side_notch`).
    """
    base = pal.level(level)
    ink = pal.text_on(level)
    items: list[Item] = [
        Polygon(hex_points(R * 1.05, turn=turn), Style(fill=base)),
        Polygon(hex_points(R * 0.955, turn=turn), Style(stroke=shade(base, 0.8), width=R * 0.035)),
    ]
    pip_r = R * 0.085
    for d in exits:
        mx, my = hx.edge_midpoint_offset(d, R)
        px, py = turned(mx * 0.76, my * 0.76, turn)
        items.append(Circle(px, py, pip_r, Style(fill="#1a1a1a", stroke="#ffffff", width=pip_r * 0.3)))
    if notch:
        items.append(right_side_notch(R, 0, turn, tip=0.9))  # short of the pips, which sit nearer the rim here
    if number:
        items.append(Text(0, R * 0.2, str(level), R * 0.62, ink, bold=True))
    if label:
        items.append(Text(0, R * 0.52, label, R * 0.15, ink))
    return items


def _band(w: float, h: float, cy: float) -> tuple[tuple[float, float], ...]:
    return ((-w / 2, cy - h / 2), (w / 2, cy - h / 2), (w / 2, cy + h / 2), (-w / 2, cy + h / 2))


def piece_back(R: float, level: int, label: str, pal: Palette) -> list[Item]:
    """The underside of a piece: what shows when a piece is turned over (impassable)."""
    base = shade(pal.level(level), 0.75)
    return [
        Polygon(hex_points(R * 1.05), Style(fill=base, hatch=Hatch(spacing=R * 0.12, angle=45, colour=shade(base, 0.7), width=R * 0.03))),
        Polygon(hex_points(R * 0.955), Style(stroke=shade(base, 0.7), width=R * 0.035)),
        Circle(0, -R * 0.08, R * 0.34, Style(fill="#ffffff", stroke="#1a1a1a", width=R * 0.04)),
        Polyline(((-R * 0.2, -R * 0.28), (R * 0.2, R * 0.12)), Style(stroke="#b00000", width=R * 0.07)),
        Polyline(((-R * 0.2, R * 0.12), (R * 0.2, -R * 0.28)), Style(stroke="#b00000", width=R * 0.07)),
        # a plain white label band: the hatch under the words would halve their contrast
        Polygon(_band(text_width(f"level {level} · {label} · turned over", R * 0.12) + R * 0.1, R * 0.2, R * 0.455),
                Style(fill="#ffffff")),
        Text(0, R * 0.5, f"level {level} · {label} · turned over", R * 0.12, "#1a1a1a"),
    ]


def round_token(d: float, fill: str, title: str, sub: str, ink: str = "#ffffff", symbol: str = "") -> list[Item]:
    """A round counter: filled disc, a white ring inside the cut, a short title and subtitle."""
    r = d / 2
    items: list[Item] = [
        Circle(0, 0, r * 1.1, Style(fill=fill)),
        Circle(0, 0, r * 0.86, Style(stroke="#ffffff", width=r * 0.06)),
    ]
    if symbol == "flag":
        items.append(Polyline(((-r * 0.25, r * 0.35), (-r * 0.25, -r * 0.5)), Style(stroke=ink, width=r * 0.08)))
        items.append(Polygon(((-r * 0.25, -r * 0.5), (r * 0.35, -r * 0.33), (-r * 0.25, -r * 0.15)), Style(fill=ink)))
        items.append(Text(r * 0.25, r * 0.3, title, r * 0.45, ink, bold=True))
    else:
        items.append(Text(0, r * 0.12, title, r * 0.5, ink, bold=True))
    if sub and symbol == "flag":
        # a flag's owner, large and bold: on a mono print the seat colours are one grey, and the
        # owner is what sorts the flags
        items.append(Text(0, r * 0.68, sub, max(MIN_TEXT_MM, r * 0.3), ink, bold=True))
    elif sub:
        items.append(Text(0, r * 0.6, sub, max(MIN_TEXT_MM, r * 0.2), ink))
    return items


def start_mark(d: float, fill: str, name: str, ink: str = "#ffffff", player: str = "") -> list[Item]:
    """A start marker in a seat colour: goes under or beside the corner position its player starts on.

    ``player`` (the label of the token of its colour, ``P1``) is printed large: on a mono print the
    seat colours come out as one grey, and the marks must still pair with their tokens and flags.
    No corner is printed on it: which corner a seat starts on is the layout's (its build sheet
    says), and a mark reading "corner 3" sent players of a two-seat board to the wrong one."""
    r = d / 2
    items: list[Item] = [Circle(0, 0, r * 1.1, Style(fill=fill)), Circle(0, 0, r * 0.86, Style(stroke="#ffffff", width=r * 0.06))]
    # an arrow pointing "into the board" (up on the token; turn it to face the centre)
    items.append(Polygon(((0, -r * 0.64), (r * 0.26, -r * 0.34), (-r * 0.26, -r * 0.34)), Style(fill=ink)))
    items.append(Text(0, r * 0.0, "START", r * 0.26, ink, bold=True))
    if player:
        items.append(Text(0, r * 0.38, player, r * 0.34, ink, bold=True))
    items.append(Text(0, r * 0.68, name, max(MIN_TEXT_MM, r * 0.2), ink))
    return items


def board_drawing(radius: int, R: float, pal: Palette, frame: float = 4.0) -> tuple[list[Item], tuple[float, float]]:
    """The empty board at true size: one hex per position with its (q, r), corners marked.

    Returns items in board mm (origin top-left of the frame) and the (w, h) size.
    """
    cells = hx.board_cells(radius)
    xs = [hx.to_pixel(h, R)[0] for h in cells]
    ys = [hx.to_pixel(h, R)[1] for h in cells]
    hw = R * math.sqrt(3) / 2
    x0, y0 = min(xs) - hw - frame, min(ys) - R - frame
    w, h = max(xs) + hw + frame - x0, max(ys) + R + frame - y0
    items: list[Item] = []
    # the board's outer shape: a big pointy-top hexagon-ish outline made by the cells, grown by the frame
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    union = unary_union([SPolygon(hx.polygon(c, R)) for c in cells]).buffer(frame * 0.8, join_style="mitre")
    items.append(Polygon(tuple((x - x0, y - y0) for x, y in union.exterior.coords[:-1]), Style(fill="#efe9dc")))
    corners = {hx.corner(radius, i): i for i in range(6)}
    for c in cells:
        cx, cy = hx.to_pixel(c, R)
        cx, cy = cx - x0, cy - y0
        pts = tuple((x - x0, y - y0) for x, y in hx.polygon(c, R))
        if c in corners:
            i = corners[c]
            items.append(Polygon(pts, Style(fill="#ffffff", stroke="#9a9384", width=0.4)))
            # no seat colour: which seat starts where is a layout's, not the board's
            items.append(Circle(cx, cy, R * 0.45, Style(stroke="#6b6558", width=1.2, dash=(2.0, 1.5))))
            # large enough to stay on the reduced overview (4.5 pt there), where the start marks are placed by it
            items.append(Text(cx, cy + R * 0.1, f"corner {i}", R * 0.17, "#555555"))
        else:
            items.append(Polygon(pts, Style(fill="#fbf8f1", stroke="#9a9384", width=0.4)))
        items.append(Text(cx, cy + R * 0.7, f"{c[0]},{c[1]}", R * 0.12, "#6b6558"))
    return items, (w, h)


def elevation_gauge(pal: Palette, levels: int = 8) -> tuple[list[Item], float, float]:
    """A cut-out ruler, 6 mm per level, to check how many levels one stack stands above another.

    The gauge's bottom cut edge is the table line: stood on the table beside a stack, the band
    a stack's top reaches is its height in levels. Nothing is printed below the first band, so
    the reading can never come out one level high.
    """
    width = 22.0
    head = 12.0
    height = levels * LEVEL_MM + head
    items: list[Item] = [Polygon(((0, 0), (width, 0), (width, height), (0, height)), Style(fill="#ffffff", stroke="#000000", width=0.15))]
    base_y = height  # the table line is the cut edge itself
    for lv in range(1, levels + 1):
        top = base_y - lv * LEVEL_MM
        items.append(Polygon(((0, top), (9, top), (9, top + LEVEL_MM), (0, top + LEVEL_MM)), Style(fill=pal.level(lv))))
        items.append(Polyline(((0, top), (14, top)), Style(stroke="#000000", width=0.2)))
        items.append(Text(17.0, top + 4.2, str(lv), 3.6, "#000000", bold=True))
    items.append(Polyline(((0, base_y), (width, base_y)), Style(stroke="#000000", width=0.4)))
    items.append(Text(width / 2, 3.6, "6 mm / level", 2.2, "#000000"))
    items.append(Text(width / 2, 6.8, "bottom edge", 2.2, "#000000"))
    items.append(Text(width / 2, 9.8, "= table", 2.2, "#000000"))
    return items, width, height


#: dash patterns (mm) that tell routes apart where their colours do not: on a mono print
ROUTE_DASH: tuple[tuple[float, ...] | None, ...] = (None, (2.4, 1.0), (0.6, 1.0), (3.0, 1.0, 0.6, 1.0), (5.0, 1.8), (1.4, 1.4))


def path_items(points: list[tuple[float, float]], colour: str, width: float,
               dash: tuple[float, ...] | None = None) -> list[Item]:
    """A route drawn as a line with dots at each step; ``dash`` tells routes apart on a mono print."""
    items: list[Item] = [Polyline(tuple(points), Style(stroke=colour, width=width, opacity=0.85, dash=dash))]
    for x, y in points[1:-1]:
        items.append(Circle(x, y, width * 0.9, Style(fill=colour)))
    return items

