"""Printer's marks: sheet label, 100 mm calibration bar, crop ticks, registration targets.

Marks are thin (0.15 mm) and grey-black so they cut cleanly but never compete
with the art; crop ticks stop short of the bleed so they never print over a
piece. The calibration bar is exactly 100 mm in the drawing: measuring it on
paper tells whether the printer scaled the page ("fit to page" is the usual
culprit) and by how much to correct with ``--scale``.
"""

from __future__ import annotations

from terragen.render.model import Circle, Group, Item, Point, Polyline, Style, Text
from terragen.render.paper import FOOTER, Paper
from terragen.render.text import text_width

MARK = Style(stroke="#000000", width=0.15)
MARK_GREY = "#444444"
TICK_LEN = 4.0  # mm
TICK_GAP = 1.0  # mm between the bleed edge and the start of a tick


def footer(paper: Paper, label: str, scale: float = 1.0, at_top: bool = False) -> Group:
    """The sheet label and the 100 mm calibration bar along the bottom of the printable area
    (``at_top``: along its top, for a back page turned over the short edge)."""
    p = paper.printable
    y_bar = p.y0 + FOOTER - 3.0 if at_top else p.y1 - 3.0
    x0 = p.x0
    g = Group()
    g.add(Polyline(((x0, y_bar), (x0 + 100.0, y_bar)), Style(stroke="#000000", width=0.3)))
    for k in range(11):
        h = 2.5 if k % 5 == 0 else 1.5
        g.add(Polyline(((x0 + 10.0 * k, y_bar), (x0 + 10.0 * k, y_bar - h)), MARK))
    note = "100 mm: measure this bar to check your printer's scale"
    if scale != 1.0:
        note = f"100 mm, drawn at print scale x{scale:g}: measure it to check the correction"
    size, room = 2.2, p.x1 - x0 - 102.0
    while size > 1.4 and text_width(note, size) > room:  # a scale inset leaves less room
        size -= 0.1
    g.add(Text(x0 + 102.0, y_bar, note, round(size, 2), MARK_GREY, anchor="start"))
    lsize = 2.8
    while lsize > 1.8 and text_width(label, lsize) > p.x1 - x0:
        lsize -= 0.1
    g.add(Text(x0, y_bar - FOOTER + 8.0, label, round(lsize, 2), "#000000", anchor="start"))
    return g


def page_label(game: str, contents: str, scale: float, k: int, n: int, reduced: float | None = None) -> str:
    """The one-line sheet label every page carries: game, contents, scale, page k/n.

    ``reduced`` is the drawing's size relative to the real pieces when a page is
    a reduced picture (an overview, a build sheet) rather than true size.
    """
    size = f"scale: reduced to {reduced * 100:.0f}%" if reduced is not None else "scale: true size (print at 100%)"
    if scale != 1.0:
        size += f", print correction x{scale:g}"
    return " · ".join([f"terragen · {game}", contents, size, f"page {k}/{n}"])


def crop_ticks(segments: list[tuple[Point, Point]], keep_out, reach: float = TICK_GAP + TICK_LEN + 3.5,
               within=None) -> list[Item]:
    """Ticks continuing each cut segment past its ends, minus anything inside ``keep_out``.

    ``keep_out`` is a shapely geometry (the union of every piece grown by the
    bleed); whatever part of a tick would fall on it is dropped, so ticks stay
    outside the pieces and never print over art. ``within`` (a shapely
    geometry, usually the printable area above the footer) trims ticks that
    would reach where a home printer cannot print or across the sheet label;
    a shortened tick still shows where the cut runs.
    """
    from shapely.geometry import LineString
    from shapely.prepared import prep

    inside = prep(keep_out)  # most ticks of inner edges lie wholly on pieces: skip them cheaply
    out: list[Item] = []
    seen: set[tuple[int, int, int, int]] = set()
    for a, b in segments:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = (dx * dx + dy * dy) ** 0.5
        if length == 0:
            continue
        ux, uy = dx / length, dy / length
        for (px, py), sgn in ((a, -1.0), (b, 1.0)):
            start = (px + sgn * ux * TICK_GAP, py + sgn * uy * TICK_GAP)
            line = LineString([start, (px + sgn * ux * reach, py + sgn * uy * reach)])
            if inside.contains(line):
                continue
            rest = line.difference(keep_out)
            if within is not None:
                rest = rest.intersection(within)
            for part in getattr(rest, "geoms", [rest]):
                if not hasattr(part, "coords"):
                    continue
                if part.is_empty or part.length < 1.0:
                    continue
                coords = tuple((round(x, 4), round(y, 4)) for x, y in part.coords)
                key = tuple(int(round(v * 100)) for v in (coords[0] + coords[-1]))
                if key in seen:
                    continue
                seen.add(key)
                out.append(Polyline(coords, MARK))
    return out


def registration_target(x: float, y: float, r: float = 3.0) -> Group:
    """A circle-and-cross target: print it on both sides to see how far the back is off."""
    return Group([
        Circle(x, y, r, Style(stroke="#000000", width=0.15)),
        Polyline(((x - r - 1.5, y), (x + r + 1.5, y)), MARK),
        Polyline(((x, y - r - 1.5), (x, y + r + 1.5)), MARK),
    ])
