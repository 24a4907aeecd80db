"""Art for Terralogical: tile faces and backs, the sun and flower symbols, the board with its track.

Everything is drawn in local millimetres. A tile face is centred on (0, 0);
the board is drawn from its top-left corner. The art takes every game fact
(tile triangles, where the sun and flower fields are, the board size) from
``terragen.terralogical`` and only decides how things look.

Each landscape has a colour AND a pattern (meadow: grass tufts, field:
furrows parallel to the edge, wood: little fir trees, cloud: a cloud), so a
tile still reads on a black-and-white printer. Dark subsoil is a darker tint
plus a brown band with pale dots along the tile edge; light subsoil has no
band. Two touching triangles therefore show a clean edge only when both are
light — exactly the 2-point connection.
"""

from __future__ import annotations

import math

from terragen.render.model import MIN_TEXT_MM, Circle, Group, Hatch, Item, Point, Polygon, Polyline, Style, Text, translate
from terragen.render.contrast import ink_on as text_ink
from terragen.render.palette import shade
from terragen.terralogical.tiles import CLOUD, FIELD, LANDSCAPE_NAMES, MEADOW, WOOD, Tile, Triangle

#: Fill colours: (light subsoil, dark subsoil) per landscape.
COLOURS: dict[str, tuple[str, str]] = {
    MEADOW: ("#c8e89c", "#8cbf55"),
    FIELD: ("#f7de80", "#cf9f35"),
    WOOD: ("#6fae76", "#2f6a3d"),
    CLOUD: ("#e6f0f8", "#a3bccf"),
}
SUBSOIL_BAND = "#5a3f26"
SUBSOIL_DOT = "#f0e2c6"
TILE_BLEED = "#cdc4ae"
BACK = "#556b3a"  # dark enough for white lettering at 4.5:1 or more
BAND_SHARE = 0.085  # depth of the dark-subsoil band as a share of the tile side


def _lum(colour: str) -> float:
    c = colour.lstrip("#")
    r, g, b = (int(c[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(fill: str) -> str:
    """Pattern ink that stays visible on ``fill``: darker on pale fills, paler on dark ones."""
    return shade(fill, 0.45) if _lum(fill) > 0.38 else shade(fill, 1.75)


def fill_of(tri: Triangle) -> str:
    light, dark = COLOURS[tri.kind]
    return light if tri.light else dark


# Sides N, E, S, W: (x, y) of the tile mapped into the north triangle's frame (see _to_north).
def _to_north(side: int, x: float, y: float) -> Point:
    if side == 0:
        return (x, y)
    if side == 1:
        return (y, -x)
    if side == 2:
        return (-x, -y)
    return (-y, x)


def triangle_points(side: int, s: float) -> tuple[Point, ...]:
    """The edge triangle on ``side`` (0 N, 1 E, 2 S, 3 W) of a tile of side ``s`` centred on (0, 0)."""
    h = s / 2
    corners = [(-h, -h), (h, -h), (h, h), (-h, h)]
    a, b = corners[side], corners[(side + 1) % 4]
    return (a, b, (0.0, 0.0))


def band_points(side: int, s: float) -> tuple[Point, ...]:
    """The trapezoid along the outer edge of triangle ``side``: where dark subsoil shows its band."""
    h = s / 2
    d = s * BAND_SHARE
    north = ((-h, -h), (h, -h), (h - d, -h + d), (-h + d, -h + d))
    return tuple(_from_north(side, x, y) for x, y in north)


def _from_north(side: int, x: float, y: float) -> Point:
    """Inverse of :func:`_to_north`."""
    if side == 0:
        return (x, y)
    if side == 1:
        return (-y, x)
    if side == 2:
        return (-x, -y)
    return (y, -x)


def _inside(side: int, s: float, x: float, y: float, m_diag: float, m_edge: float) -> bool:
    """Whether (x, y) lies in triangle ``side`` at least ``m_diag`` from the diagonals and ``m_edge`` from the edge."""
    nx, ny = _to_north(side, x, y)
    return (-ny - abs(nx)) / math.sqrt(2) >= m_diag and (s / 2 + ny) >= m_edge


def _grid(s: float, pitch: float) -> list[Point]:
    """A staggered grid of points over the tile (every other row shifted by half a pitch)."""
    n = int(s / pitch) + 2
    out = []
    for r in range(-n, n + 1):
        for c in range(-n, n + 1):
            out.append((c * pitch + (pitch / 2 if r % 2 else 0.0), r * pitch * 0.87))
    return out


def tuft(x: float, y: float, k: float, ink: str) -> list[Item]:
    """A grass tuft: three short strokes fanning upward from (x, y); ``k`` is its height."""
    st = Style(stroke=ink, width=max(0.18, k * 0.13))
    return [Polyline(((x, y), (x - k * 0.45, y - k * 0.8)), st), Polyline(((x, y), (x, y - k)), st),
            Polyline(((x, y), (x + k * 0.45, y - k * 0.8)), st)]


def fir(x: float, y: float, k: float, ink: str) -> list[Item]:
    """A little fir tree of height ``k`` centred on (x, y)."""
    return [Polygon(((x, y - k / 2), (x + k * 0.38, y + k * 0.3), (x - k * 0.38, y + k * 0.3)), Style(fill=ink)),
            Polyline(((x, y + k * 0.3), (x, y + k / 2)), Style(stroke=ink, width=max(0.2, k * 0.12)))]


def cloud_symbol(x: float, y: float, w: float, ink: str = "#44546a") -> list[Item]:
    """A cloud ``w`` wide centred on (x, y): three white puffs on a flat base, with an outline."""
    puffs = [(-0.26, 0.06, 0.22), (0.0, -0.08, 0.3), (0.27, 0.06, 0.2)]
    base = ((-0.45, 0.06), (0.45, 0.06), (0.45, 0.25), (-0.45, 0.25))
    ow = max(0.2, w * 0.03)
    out: list[Item] = []
    # outline first (slightly larger), then white on top: one clean silhouette
    for dx, dy, r in puffs:
        out.append(Circle(x + dx * w, y + dy * w, r * w + ow, Style(fill=ink)))
    out.append(Polygon(tuple((x + px * w + (ow if px > 0 else -ow), y + py * w + (ow if py > 0.1 else 0)) for px, py in base),
                       Style(fill=ink)))
    for dx, dy, r in puffs:
        out.append(Circle(x + dx * w, y + dy * w, r * w, Style(fill="#ffffff")))
    out.append(Polygon(tuple((x + px * w, y + py * w) for px, py in base), Style(fill="#ffffff")))
    return out


def sun_symbol(x: float, y: float, r: float) -> list[Item]:
    """The start symbol: a yellow disc with twelve rays, outlined so it reads in black and white."""
    out: list[Item] = []
    for k in range(12):
        a = math.radians(k * 30)
        r0, r1 = r * 1.15, r * (1.7 if k % 2 == 0 else 1.5)
        out.append(Polyline(((x + r0 * math.cos(a), y + r0 * math.sin(a)), (x + r1 * math.cos(a), y + r1 * math.sin(a))),
                            Style(stroke="#c77700", width=max(0.3, r * 0.16))))
    out.append(Circle(x, y, r, Style(fill="#ffd23f", stroke="#c77700", width=max(0.3, r * 0.1))))
    return out


def flower_symbol(x: float, y: float, r: float) -> list[Item]:
    """The end symbol: five petals around a yellow heart, outlined."""
    out: list[Item] = []
    for k in range(5):
        a = math.radians(-90 + k * 72)
        out.append(Circle(x + r * 0.55 * math.cos(a), y + r * 0.55 * math.sin(a), r * 0.45,
                          Style(fill="#f28dc0", stroke="#8a2f5e", width=max(0.25, r * 0.07))))
    out.append(Circle(x, y, r * 0.32, Style(fill="#ffd23f", stroke="#8a2f5e", width=max(0.25, r * 0.07))))
    return out


def triangle_art(side: int, tri: Triangle, s: float) -> list[Item]:
    """One edge triangle: fill, landscape pattern, and (dark subsoil) the dotted band."""
    pts = triangle_points(side, s)
    fill = fill_of(tri)
    ink = ink_on(fill)
    band = s * BAND_SHARE
    edge_m = (band if not tri.light else 0.0) + s * 0.04
    items: list[Item] = []
    marks: list[Item] = []
    if tri.kind == FIELD:
        items.append(Polygon(pts, Style(fill=fill, hatch=Hatch(spacing=s * 0.045, angle=0.0 if side % 2 == 0 else 90.0,
                                                                colour=ink, width=max(0.2, s * 0.009)))))
    else:
        items.append(Polygon(pts, Style(fill=fill)))
    if tri.kind == MEADOW:
        k = s * 0.07
        for x, y in _grid(s, s * 0.14):
            if _inside(side, s, x, y - k / 2, k * 0.7, edge_m + k * 0.6):
                marks.extend(tuft(x, y, k, ink))
    elif tri.kind == WOOD:
        k = s * 0.095
        for x, y in _grid(s, s * 0.16):
            if _inside(side, s, x, y, k * 0.6, edge_m + k * 0.55):
                marks.extend(fir(x, y, k, ink))
    elif tri.kind == CLOUD:
        # upright cloud at about the triangle's centroid, nudged off the band
        # (narrower on the east and west sides, where the triangle is tall rather than wide)
        d = s * (0.29 if side % 2 == 0 else 0.255)
        cx, cy = _from_north(side, 0.0, -d)
        marks.extend(cloud_symbol(cx, cy + s * 0.02, s * (0.3 if side % 2 == 0 else 0.24)))
    items.extend(marks)
    if not tri.light:
        bp = band_points(side, s)
        items.append(Polygon(bp, Style(fill=SUBSOIL_BAND)))
        n = 7
        for j in range(n):
            t = (j + 0.5) / n
            # dots along the middle line of the band, kept clear of the mitred ends
            mx, my = -s / 2 + s * t, -s / 2 + band / 2
            if abs(mx) <= s / 2 - band * 0.9:
                px, py = _from_north(side, mx, my)
                items.append(Circle(px, py, band * 0.2, Style(fill=SUBSOIL_DOT)))
    return items


def tile_bleed(tile: Tile, s: float, bleed: float) -> list[Item]:
    """What lies just past a tile's cut: each side's edge colour carried outward (the subsoil band
    on dark sides, the landscape on light ones), so an off cut shows the tile's own colours."""
    k = (s + 2 * bleed) / s * 1.5  # the triangles meet at the centre: scaled up, their seams stay put
    items: list[Item] = []
    for side, tri in enumerate(tile.edges):
        pts = tuple((x * k, y * k) for x, y in triangle_points(side, s))
        items.append(Polygon(pts, Style(fill=fill_of(tri) if tri.light else SUBSOIL_BAND)))
    return items


def tile_face(tile: Tile, s: float, label: str = "", centre: str = "id") -> list[Item]:
    """The face of a tile at rotation 0: four triangles, white seams, and a centre badge.

    ``centre`` is ``id`` (a white disc with the tile id, so a board can be typed in for
    ``terragen terralogical validate``), ``sun`` or ``flower``.
    """
    h = s / 2
    items: list[Item] = [Polygon(((-h * 1.2, -h * 1.2), (h * 1.2, -h * 1.2), (h * 1.2, h * 1.2), (-h * 1.2, h * 1.2)),
                                 Style(fill=TILE_BLEED))]
    for side, tri in enumerate(tile.edges):
        items.append(Group(triangle_art(side, tri, s), clip=triangle_points(side, s)))
    seam = Style(stroke="#ffffff", width=max(0.3, s * 0.01))
    items.append(Polyline(((-h, -h), (h, h)), seam))
    items.append(Polyline(((h, -h), (-h, h)), seam))
    if centre == "sun":
        items.extend(sun_symbol(0.0, 0.0, s * 0.11))
    elif centre == "flower":
        items.extend(flower_symbol(0.0, 0.0, s * 0.17))
    else:
        r = s * 0.105
        items.append(Circle(0.0, 0.0, r, Style(fill="#ffffff", stroke="#333333", width=max(0.15, s * 0.005))))
        size = s * 0.062
        while size > s * 0.03 and len(label) * size * 0.56 > r * 1.8:
            size *= 0.9
        items.append(Text(0.0, size * 0.36, label, size, "#000000", bold=True))
    return items


def tile_back(s: float) -> list[Item]:
    """The plain back every tile shares, so face-down stacks give nothing away."""
    h = s / 2
    return [
        Polygon(((-h * 1.2, -h * 1.2), (h * 1.2, -h * 1.2), (h * 1.2, h * 1.2), (-h * 1.2, h * 1.2)), Style(fill=BACK)),
        Polygon(((-h * 0.82, -h * 0.82), (h * 0.82, -h * 0.82), (h * 0.82, h * 0.82), (-h * 0.82, h * 0.82)),
                Style(stroke=shade(BACK, 1.45), width=max(0.3, s * 0.012))),
        Text(0.0, s * 0.025, "TERRALOGICAL", s * 0.065, text_ink(BACK), bold=True),
    ]


# --------------------------------------------------------------------------- board

#: Scoring-track fields: 100 around the board, field 0 (the arrow field) doubles as 100.
TRACK_FIELDS = 100
FRAME_WIDTH = 0.5  # the board's outer frame, mm


def track_fields(inner: float, band: float) -> list[tuple[int, tuple[Point, ...]]]:
    """The 100 track fields around a board of side ``inner`` (drawn from ``band``, ``band``).

    Field 0 is the bottom-left corner, next to the sun; numbering runs clockwise
    (up the left side, along the top, down the right, back along the bottom),
    24 fields per side between the corners, each a square of side ``inner / 24``
    when ``band`` equals that.
    """
    per = (TRACK_FIELDS - 4) // 4
    step = inner / per
    lo, hi = 0.0, inner + 2 * band  # outer extent
    a, b = band, band + inner       # inner extent
    out: list[tuple[int, tuple[Point, ...]]] = []

    def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    out.append((0, rect(lo, b, a, hi)))
    for k in range(per):  # left side, going up
        out.append((1 + k, rect(lo, b - (k + 1) * step, a, b - k * step)))
    out.append((per + 1, rect(lo, lo, a, a)))
    for k in range(per):  # top, going right
        out.append((per + 2 + k, rect(a + k * step, lo, a + (k + 1) * step, a)))
    out.append((2 * per + 2, rect(b, lo, hi, a)))
    for k in range(per):  # right side, going down
        out.append((2 * per + 3 + k, rect(b, a + k * step, hi, a + (k + 1) * step)))
    out.append((3 * per + 3, rect(b, b, hi, hi)))
    for k in range(per):  # bottom, going left
        out.append((3 * per + 4 + k, rect(b - (k + 1) * step, b, b - k * step, hi)))
    return out


def board_drawing(square: float, size: int, sun: tuple[int, int], flower: tuple[int, int],
                  flower_fields: tuple[tuple[int, int], ...]) -> tuple[list[Item], float, dict[str, Point]]:
    """The board with its scoring track: items, the full side in mm, and where the marks' centres are.

    The playing area is ``size`` x ``size`` squares of side ``square``; the track is a
    ring of fields a third of a square wide around it (a cube fits a field).
    """
    inner = size * square
    band = inner / ((TRACK_FIELDS - 4) // 4)
    side = inner + 2 * band
    items: list[Item] = [Polygon(((0, 0), (side, 0), (side, side), (0, side)), Style(fill="#efe6cf"))]
    marks: dict[str, Point] = {}
    # track: the fields' outlines clipped to the board, so no ink reaches past its edge (a sheet's
    # window is the board's; half of an edge line outside it took a column of sheets more)
    fields: list[Item] = []
    items.append(Group(fields, clip=((0, 0), (side, 0), (side, side), (0, side))))
    for n, pts in track_fields(inner, band):
        fill = "#ffffff" if n % 5 else ("#f3cf7a" if n % 10 == 0 else "#f8e4b0")
        fields.append(Polygon(pts, Style(fill=fill, stroke="#6b5a3a", width=0.25)))
        cx = (pts[0][0] + pts[2][0]) / 2
        cy = (pts[0][1] + pts[2][1]) / 2
        if n == 0:
            # the number above the arrow's tip (the tip once hid its '1': '0/▲00')
            items.append(Text(cx, cy - band * 0.28, "0/100", band * 0.2, "#000000", bold=True))
            # the arrow: start here, run clockwise (up the left side)
            ax = cx
            items.append(Polygon(((ax, cy - band * 0.22), (ax + band * 0.18, cy + band * 0.12),
                                  (ax - band * 0.18, cy + band * 0.12)), Style(fill="#c0392b")))
            items.append(Text(cx, cy + band * 0.37, "start", max(MIN_TEXT_MM, band * 0.15), "#000000"))
            marks["track0"] = (cx, cy)
        else:
            items.append(Text(cx, cy + band * 0.14, str(n), band * (0.36 if n % 10 == 0 else 0.3), "#000000",
                              bold=n % 5 == 0))
    # squares
    for r in range(size):
        for c in range(size):
            x0, y0 = band + c * square, band + r * square
            pts = ((x0, y0), (x0 + square, y0), (x0 + square, y0 + square), (x0, y0 + square))
            fill = "#e3d5b0" if (r + c) % 2 else "#ebdfbf"
            if (r, c) == sun:
                fill = "#fff1b8"
            elif (r, c) == flower:
                fill = "#f9d3e6"
            elif (r, c) in flower_fields:
                fill = "#fce7f1"
            items.append(Polygon(pts, Style(fill=fill, stroke="#6b5a3a", width=0.35)))
            items.append(Text(x0 + 1.5, y0 + 3.5, f"{r},{c}", 2.4, "#5c4d30", anchor="start"))
            cx, cy = x0 + square / 2, y0 + square / 2
            if (r, c) == sun:
                items.extend(sun_symbol(cx, cy - square * 0.06, square * 0.16))
                items.append(Text(cx, cy + square * 0.38, "START", square * 0.09, "#7a4a00", bold=True))
                marks["sun"] = (cx, cy)
            elif (r, c) == flower:
                items.extend(flower_symbol(cx, cy - square * 0.06, square * 0.24))
                items.append(Text(cx, cy + square * 0.38, "END TILE", square * 0.09, "#8a2f5e", bold=True))
                marks["flower"] = (cx, cy)
            elif (r, c) in flower_fields:
                items.extend(flower_symbol(cx, cy - square * 0.06, square * 0.14))
                items.append(Text(cx, cy + square * 0.3, "flower field", square * 0.075, "#8a2f5e", bold=True))
                items.append(Text(cx, cy + square * 0.41, "a tile here ends the game", square * 0.055, "#8a2f5e"))
                marks[f"flower-field {r},{c}"] = (cx, cy)
    # outer frame, its line drawn inside the board's edge so all of it prints on the edge sheets
    h = FRAME_WIDTH / 2
    items.append(Polygon(((h, h), (side - h, h), (side - h, side - h), (h, side - h)),
                         Style(stroke="#3a2f1e", width=FRAME_WIDTH)))
    items.append(Polygon(((band, band), (band + inner, band), (band + inner, band + inner), (band, band + inner)),
                         Style(stroke="#3a2f1e", width=0.6)))
    return items, side, marks


def legend(x: float, y: float, sw: float = 14.0) -> tuple[list[Item], float]:
    """Swatches of every landscape on light and dark subsoil, with names; returns items and the next free y."""
    from terragen.terralogical.tiles import KINDS

    items: list[Item] = [Text(x, y, "Reading the tiles", 4.2, "#000000", anchor="start", bold=True)]
    y += 3.0
    col_w = sw * 2 + 18.0
    for j, kind in enumerate(KINDS):
        gx = x + j * col_w
        for k, light in enumerate((True, False)):
            tri = Triangle(kind, light)
            # a square swatch showing the north triangle, enlarged so the pattern reads
            s = sw * 2
            g = Group(triangle_art(0, tri, s), translate(gx + k * (sw + 1.5) + sw / 2, y + s / 2 + 0.5),
                      clip=((-sw / 2, -s / 2), (sw / 2, -s / 2), (sw / 2, -s / 2 + sw * 0.9), (-sw / 2, -s / 2 + sw * 0.9)))
            items.append(g)
            items.append(Polygon(((gx + k * (sw + 1.5), y + 0.5), (gx + k * (sw + 1.5) + sw, y + 0.5),
                                  (gx + k * (sw + 1.5) + sw, y + 0.5 + sw * 0.9), (gx + k * (sw + 1.5), y + 0.5 + sw * 0.9)),
                                 Style(stroke="#333333", width=0.2)))
            items.append(Text(gx + k * (sw + 1.5) + sw / 2, y + sw * 0.9 + 3.6, "light" if light else "dark", 2.4, "#333333"))
        items.append(Text(gx + sw + 0.75, y + sw * 0.9 + 7.8, LANDSCAPE_NAMES[kind], 3.2, "#000000", bold=True))
    y += sw * 0.9 + 14.5
    return items, y


LEGEND_NOTES = [
    "Meadow: grass tufts. Field: furrows running along the edge. Wood: fir trees. Cloud: a cloud; it stands for any landscape but never scores.",
    "Dark subsoil: a darker colour and a brown band with pale dots along the tile edge. Light subsoil: paler colour, no band.",
    "A connection scores 2 when neither of the two touching edges has a band (both light), 1 when either has one, 0 with a cloud.",
]
