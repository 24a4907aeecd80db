"""Art for the TerraFlip kit: tile faces, land symbols, special-tile icons, tower, spy tokens.

Everything is drawn in local millimetres around (0, 0) for a pointy-top hex of
circumradius ``R`` (or a round token of diameter ``d``), like the Terrain art.
The art decides no rule: which colour a face shows, which land a tile belongs
to and what a special tile is all come from ``terragen.terraflip``; this module
only knows how a colour, a land and a special kind look.

Colours must survive a greyscale printer, so each family gets three cues that
do not depend on hue: a clearly different lightness, its own hatch pattern and
its name printed on the face.
"""

from __future__ import annotations

import math

from terragen.render.model import MIN_TEXT_MM, Circle, Hatch, Item, Polygon, Polyline, Style, Text
from terragen.render.palette import shade
from terragen.render.shapes import hex_points

INK = "#1a1a1a"

#: Print colour of each family. Lightness steps (about 34 %, 47 %, 66 %, 82 % grey) keep
#: the four apart on a black-and-white printer; the names are the package's family names.
FAMILY_COLOUR: dict[str, str] = {
    "blue": "#2a5db0",
    "gray": "#747474",
    "green": "#7ccf5a",
    "yellow": "#f5d63d",
}
#: Hatch directions per family (degrees; None = plain; two angles = cross-hatch): a second
#: cue besides lightness for greyscale prints and colour-blind players.
FAMILY_PATTERN: dict[str, tuple[float, ...]] = {
    "blue": (0.0,),
    "green": (60.0,),
    "gray": (45.0, -45.0),
    "yellow": (),
}
#: Text colour that reads best on each family colour.
FAMILY_INK: dict[str, str] = {"blue": "#ffffff", "gray": "#ffffff", "green": INK, "yellow": INK}

TOWER_FILL = "#eee8d8"


def colour_of(family: str) -> str:
    try:
        return FAMILY_COLOUR[family]
    except KeyError:  # a family the package added that the kit has no colour for yet
        raise ValueError(f"no print colour for TerraFlip family {family!r}") from None


def coloured_hex(R: float, family: str) -> list[Item]:
    """The family's colour with its pattern, over the whole face (to the clip and beyond)."""
    base = colour_of(family)
    line = shade(base, 0.72)
    angles = FAMILY_PATTERN.get(family, ())
    pts = hex_points(R * 1.08)
    items: list[Item] = [Polygon(pts, Style(fill=base))]
    for a in angles:
        items.append(Polygon(pts, Style(hatch=Hatch(spacing=R * 0.13, angle=a, colour=line, width=R * 0.025))))
    items.append(Polygon(hex_points(R * 0.93), Style(stroke=shade(base, 0.6), width=R * 0.03)))
    return items


def colour_badge(R: float, family: str) -> list[Item]:
    """The colour's name at the foot of the face, on a plain band so the hatch cannot hide it."""
    base = colour_of(family)
    w, h = R * 0.68, R * 0.2
    y = R * 0.54
    band = Polygon(((-w / 2, y - h / 2), (w / 2, y - h / 2), (w / 2, y + h / 2), (-w / 2, y + h / 2)),
                   Style(fill=base, stroke=FAMILY_INK.get(family, INK), width=R * 0.015))
    return [band, Text(0, y + h * 0.3, family.upper(), R * 0.15, FAMILY_INK.get(family, INK), bold=True)]


# --- land symbols, drawn in a disc of radius s around (0, 0) ---------------------------------


def _river(s: float) -> list[Item]:
    items: list[Item] = []
    for k, dy in enumerate((-0.38, 0.0, 0.38)):
        pts = tuple((s * (-0.72 + 1.44 * t / 24), s * (dy + 0.14 * math.sin(t / 24 * 2 * math.pi * 1.5 + k)))
                    for t in range(25))
        items.append(Polyline(pts, Style(stroke="#1d4f91", width=s * 0.12)))
    return items


def _forest(s: float) -> list[Item]:
    items: list[Item] = []
    for cx, k in ((-0.32, 0.85), (0.3, 1.0)):
        x, top = s * cx, -s * 0.72 * k
        items.append(Polygon(((x - s * 0.07, s * 0.45), (x + s * 0.07, s * 0.45), (x + s * 0.07, s * 0.6), (x - s * 0.07, s * 0.6)),
                             Style(fill="#6b4423")))
        for j in range(3):  # three stacked tiers
            y0 = top + j * s * 0.33 * k
            half = s * (0.2 + 0.09 * j) * k
            items.append(Polygon(((x, y0), (x + half, y0 + s * 0.45 * k), (x - half, y0 + s * 0.45 * k)),
                                 Style(fill="#2f6b2f", stroke=INK, width=s * 0.03)))
    return items


def _mountain(s: float) -> list[Item]:
    items: list[Item] = []
    for cx, top, half in ((0.3, -0.35, 0.5), (-0.2, -0.65, 0.6)):
        x, yt, base = s * cx, s * top, s * 0.55
        h = base - yt
        items.append(Polygon(((x, yt), (x + s * half, base), (x - s * half, base)), Style(fill="#6d6259", stroke=INK, width=s * 0.04)))
        f = 0.32  # the snow cap: the top third of the peak
        items.append(Polygon(((x, yt), (x + s * half * f, yt + h * f), (x + s * half * f * 0.3, yt + h * f * 0.8),
                              (x - s * half * f * 0.2, yt + h * f), (x - s * half * f, yt + h * f)), Style(fill="#ffffff", stroke=INK, width=s * 0.03)))
    return items


def _desert(s: float) -> list[Item]:
    items: list[Item] = [Circle(s * 0.32, -s * 0.35, s * 0.2, Style(fill="#f0a020", stroke=INK, width=s * 0.03))]
    for cx, w, h in ((-0.25, 0.55, 0.35), (0.3, 0.5, 0.25)):
        pts = tuple((s * (cx + w * math.cos(math.pi * t / 16)), s * (0.45 - h * math.sin(math.pi * t / 16))) for t in range(17))
        items.append(Polygon(pts, Style(fill="#d9a957", stroke=INK, width=s * 0.04)))
    # a cactus
    x = -s * 0.3
    items.append(Polyline(((x, s * 0.25), (x, -s * 0.45)), Style(stroke="#3d7a3d", width=s * 0.13)))
    items.append(Polyline(((x - s * 0.18, -s * 0.25), (x - s * 0.18, -s * 0.05), (x, -s * 0.05)), Style(stroke="#3d7a3d", width=s * 0.09)))
    return items


LAND_SYMBOL = {"river": _river, "forest": _forest, "mountain": _mountain, "desert": _desert}


def land_symbol(land: str, s: float) -> list[Item]:
    """A white disc with a small picture of ``land`` in it (the same on both faces of a tile)."""
    try:
        draw = LAND_SYMBOL[land]
    except KeyError:
        raise ValueError(f"no symbol for TerraFlip land {land!r}") from None
    return [Circle(0, 0, s, Style(fill="#ffffff", stroke=INK, width=s * 0.05)), *draw(s)]


def regular_face(R: float, colour: str, land: str) -> list[Item]:
    """One face of a regular tile: the colour it shows, its pattern and name, and its land."""
    items = coloured_hex(R, colour)
    from terragen.render.model import Group, translate

    items.append(Group(land_symbol(land, R * 0.4), translate(0, -R * 0.12)))
    items.extend(colour_badge(R, colour))
    return items


# --- special tiles ---------------------------------------------------------------------------


def _knight(s: float, colour: str) -> list[Item]:
    """A shield in the family colour over a sword laid across it, hilt up and to the left."""

    def turned(pts: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
        c = math.cos(math.radians(40))
        return tuple((c * x + c * y, -c * x + c * y) for x, y in pts)

    items: list[Item] = [
        Polygon(turned([(-s * 0.06, -s * 0.7), (s * 0.06, -s * 0.7), (s * 0.06, s * 0.7), (0, s * 0.84), (-s * 0.06, s * 0.7)]),
                Style(fill="#d9d9d9", stroke=INK, width=s * 0.04)),
        Polygon(turned([(-s * 0.26, -s * 0.62), (s * 0.26, -s * 0.62), (s * 0.26, -s * 0.54), (-s * 0.26, -s * 0.54)]),
                Style(fill="#8a6a2a", stroke=INK, width=s * 0.03)),
        Polygon(turned([(-s * 0.04, -s * 0.88), (s * 0.04, -s * 0.88), (s * 0.04, -s * 0.62), (-s * 0.04, -s * 0.62)]),
                Style(fill="#8a6a2a", stroke=INK, width=s * 0.03)),
    ]
    w, top, mid = s * 0.4, -s * 0.42, -s * 0.02
    shield = [(-w, top), (w, top), (w, mid)]
    shield += [(w * math.cos(math.pi * t / 12), mid + s * 0.56 * math.sin(math.pi * t / 12)) for t in range(1, 12)]
    shield += [(-w, mid)]
    items.append(Polygon(tuple(shield), Style(fill=colour, stroke=INK, width=s * 0.06)))
    items.append(Polyline(((0, top), (0, mid + s * 0.55)), Style(stroke=INK, width=s * 0.04)))
    items.append(Polyline(((-w, top + s * 0.3), (w, top + s * 0.3)), Style(stroke=INK, width=s * 0.04)))
    return items


def _catapult(s: float, colour: str) -> list[Item]:
    """A wheeled frame with a throwing arm in the family colour and a stone in flight."""
    wood = Style(fill=colour, stroke=INK, width=s * 0.04)
    items: list[Item] = [
        Polygon(((-s * 0.65, s * 0.25), (s * 0.65, s * 0.25), (s * 0.65, s * 0.4), (-s * 0.65, s * 0.4)), wood),
        Polygon(((-s * 0.05, s * 0.25), (s * 0.1, -s * 0.1), (s * 0.25, s * 0.25)), wood),
    ]
    # the arm: from the pivot up and back, a cup at its end
    px, py = s * 0.1, -s * 0.05
    ex, ey = -s * 0.55, -s * 0.55
    dx, dy = ex - px, ey - py
    n = math.hypot(dx, dy)
    ox, oy = -dy / n * s * 0.06, dx / n * s * 0.06
    items.append(Polygon(((px + ox + s * 0.12, py + oy + s * 0.09), (ex + ox, ey + oy), (ex - ox, ey - oy), (px - ox + s * 0.12, py - oy + s * 0.09)), wood))
    items.append(Circle(ex, ey - s * 0.05, s * 0.13, Style(fill=colour, stroke=INK, width=s * 0.04)))
    items.append(Circle(s * 0.45, -s * 0.6, s * 0.11, Style(fill="#8c8c8c", stroke=INK, width=s * 0.04)))
    for wx in (-s * 0.42, s * 0.42):
        items.append(Circle(wx, s * 0.45, s * 0.17, Style(fill="#ffffff", stroke=INK, width=s * 0.06)))
        items.append(Circle(wx, s * 0.45, s * 0.04, Style(fill=INK)))
    return items


def _campsite(s: float, colour: str) -> list[Item]:
    """A tent in the family colour with a pennant on its pole."""
    items: list[Item] = [
        Polyline(((-s * 0.75, s * 0.5), (s * 0.75, s * 0.5)), Style(stroke=INK, width=s * 0.05)),
        Polygon(((0, -s * 0.45), (s * 0.62, s * 0.5), (-s * 0.62, s * 0.5)), Style(fill=colour, stroke=INK, width=s * 0.06)),
        Polygon(((0, -s * 0.05), (s * 0.2, s * 0.5), (-s * 0.2, s * 0.5)), Style(fill=INK)),
        Polyline(((0, -s * 0.45), (0, -s * 0.8)), Style(stroke=INK, width=s * 0.04)),
        Polygon(((0, -s * 0.8), (s * 0.3, -s * 0.71), (0, -s * 0.62)), Style(fill=colour, stroke=INK, width=s * 0.03)),
    ]
    return items


SPECIAL_ICON = {"knight": _knight, "catapult": _catapult, "campsite": _campsite}


def special_face(R: float, family: str, kind: str) -> list[Item]:
    """A special tile: its owner's colour, a white disc with the icon drawn in that colour, its name.

    The same face goes on the back: the package gives a special its owner's colour on both
    faces, and a tile that is never turned over has no reason to look different underneath.
    """
    from terragen.render.model import Group, translate

    try:
        icon = SPECIAL_ICON[kind]
    except KeyError:
        raise ValueError(f"no icon for TerraFlip special tile {kind!r}") from None
    s = R * 0.38
    items = coloured_hex(R, family)
    items.append(Group([Circle(0, 0, s, Style(fill="#ffffff", stroke=INK, width=s * 0.05)), *icon(s * 0.9, colour_of(family))],
                       translate(0, -R * 0.2)))
    ink = FAMILY_INK.get(family, INK)
    items.append(Text(0, R * 0.34, kind.upper(), R * 0.12, ink, bold=True))
    items.extend(colour_badge(R, family))
    return items


def tower_face(R: float) -> list[Item]:
    """The tower: a neutral stone tile (no family colour, so it never frames or scores)."""
    stone = Style(fill="#bdb6a6", stroke=INK, width=R * 0.02)
    items: list[Item] = [
        Polygon(hex_points(R * 1.08), Style(fill=TOWER_FILL)),
        Polygon(hex_points(R * 0.93), Style(stroke="#8c8374", width=R * 0.03)),
    ]
    w, top, base = R * 0.28, -R * 0.45, R * 0.42
    body = [(-w, base), (-w, top)]
    n = 5  # merlons across the top
    step = 2 * w / n
    for k in range(n):
        x0 = -w + k * step
        y = top - R * 0.1 if k % 2 == 0 else top
        body += [(x0, y), (x0 + step, y)]
    body += [(w, top), (w, base)]
    items.append(Polygon(tuple(body), stone))
    door = [(-R * 0.09, base), (-R * 0.09, R * 0.25)]
    door += [(R * 0.09 * -math.cos(math.pi * t / 8), R * 0.25 - R * 0.09 * math.sin(math.pi * t / 8)) for t in range(1, 8)]
    door += [(R * 0.09, R * 0.25), (R * 0.09, base)]
    items.append(Polygon(tuple(door), Style(fill="#5a4632", stroke=INK, width=R * 0.015)))
    items.append(Polygon(((-R * 0.05, -R * 0.25), (R * 0.05, -R * 0.25), (R * 0.05, -R * 0.08), (-R * 0.05, -R * 0.08)), Style(fill=INK)))
    items.append(Polyline(((-R * 0.55, base), (R * 0.55, base)), Style(stroke=INK, width=R * 0.03)))
    items.append(Text(0, R * 0.64, "TOWER", R * 0.14, INK, bold=True))
    return items


def spy_token(d: float, family: str) -> list[Item]:
    """A round spy token: the family's colour and pattern, an eye, the word SPY and the colour.

    The words sit on a plain plate of the colour (as a tile's colour badge does), since the hatch
    ran through them, and the eye's disc stands higher and smaller, since "SPY" touched it."""
    r = d / 2
    base = colour_of(family)
    items: list[Item] = [Circle(0, 0, r * 1.12, Style(fill=base))]
    for a in FAMILY_PATTERN.get(family, ()):
        items.append(Circle(0, 0, r * 1.12, Style(hatch=Hatch(spacing=r * 0.14, angle=a, colour=shade(base, 0.72), width=r * 0.03))))
    ey = -r * 0.26
    items.append(Circle(0, ey, r * 0.38, Style(fill="#ffffff", stroke=INK, width=r * 0.04)))
    eye = [(r * 0.3 * math.cos(math.pi * t / 10), ey - r * 0.17 * math.sin(math.pi * t / 10)) for t in range(21)]
    eye += [(r * 0.3 * math.cos(math.pi * t / 10), ey + r * 0.17 * math.sin(math.pi * t / 10)) for t in range(19, 0, -1)]
    items.append(Polygon(tuple(eye), Style(fill="#ffffff", stroke=INK, width=r * 0.05)))
    items.append(Circle(0, ey, r * 0.1, Style(fill=INK)))
    ink = FAMILY_INK.get(family, INK)
    words = [Text(0, r * 0.4, "SPY", r * 0.22, ink, bold=True),
             # the colour in 6 pt (it was 4.7), as low as the safe zone inside the cut lets "YELLOW" go
             Text(0, r * 0.59, family.upper(), max(MIN_TEXT_MM, r * 0.15), ink, bold=True)]
    return items + [_plate(words, base, ink, r * 0.04)] + words


def _plate(words: list[Text], fill: str, ink: str, pad: float) -> Polygon:
    """A plain plate of ``fill`` just holding ``words`` (centred lines, top to bottom), outlined in ``ink``."""
    from terragen.render.text import text_width

    half = max(text_width(t.text, t.size, t.bold) for t in words) / 2 + 2 * pad
    top, foot = words[0].y - 0.75 * words[0].size - pad, words[-1].y + 0.22 * words[-1].size + pad
    x = words[0].x
    return Polygon(((x - half, top), (x + half, top), (x + half, foot), (x - half, foot)),
                   Style(fill=fill, stroke=ink, width=pad / 3))
