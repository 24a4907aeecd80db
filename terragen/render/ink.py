"""Low-ink printing: the same pages with every painted area turned into a pale tint.

Board sheets and piece sheets are mostly solid colour (Terrace's board sheets about
three quarters dark), which empties a home printer's cartridges. ``--low-ink`` keeps
every line, symbol and letter but paints areas at a quarter of their ink: each fill
moves three quarters of the way to white, so lighter stays lighter and colours keep
their order on a greyscale print. Text and lines that were light (white labels on a
dark fill) would vanish on a pale tint, so they turn dark instead. Small near-black
marks (a piece's pips, a lid's notch) are symbols, not areas: paled, the pips a player
reads a piece by went light grey on a light face; kept, they cost next to no ink.
"""

from __future__ import annotations

import math
from dataclasses import replace

from terragen.render.contrast import DARK_INK
from terragen.render.model import Circle, Document, Group, Item, Page, Polygon, Polyline, Style, Text
from terragen.render.palette import luminance, shade

FILL_INK = 0.25   # share of the original ink an area keeps
HATCH_INK = 0.6   # hatch lines are thin and carry patterns that tell sides apart: keep more
LIGHT = 0.6       # text and lines at least this light are darkened, as they would vanish
SYMBOL_DARK = 0.15   # a fill at most this light (the kits' dark ink #1a1a1a is 0.10) ...
SYMBOL_AREA = 60.0   # ... on a shape of at most this many mm² (an 80 mm piece's pip is 48) keeps its ink


def low_ink(doc: Document) -> Document:
    """``doc`` with pale fills and dark text (a new document; ``doc`` is left as it was)."""
    pages = [Page(p.width, p.height, [_item(it) for it in p.items], p.label, p.trim, p.bleed) for p in doc.pages]
    return Document(doc.title + " (low ink)", pages, doc.duplex)


def _dark(colour: str) -> str:
    return shade(colour, 0.3) if luminance(colour) >= LIGHT else colour


def _dark_text(colour: str) -> str:
    """Light text goes to the kits' dark ink, not just a darker shade: a white name turned mid grey
    read at under 3:1 on the pale tints and on the hatch lines still drawn under it."""
    return DARK_INK if luminance(colour) >= LIGHT else colour


def _symbol(it: Polygon | Polyline | Circle) -> bool:
    """A small near-black mark (a pip, a notch): kept as it is."""
    if not it.style.fill or luminance(it.style.fill) > SYMBOL_DARK:
        return False
    if isinstance(it, Circle):
        return math.pi * it.r * it.r <= SYMBOL_AREA
    if isinstance(it, Polygon):
        pts = it.points
        area = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))) / 2
        return area <= SYMBOL_AREA
    return False


def _style(st: Style) -> Style:
    # see-through overlays (a glue strip's light shading) are light already: left as they are
    fill = shade(st.fill, 2 - FILL_INK) if st.fill and st.opacity == 1.0 else st.fill
    stroke = _dark(st.stroke) if st.stroke else None
    hatch = replace(st.hatch, colour=shade(st.hatch.colour, 2 - HATCH_INK)) if st.hatch else None
    return replace(st, fill=fill, stroke=stroke, hatch=hatch)


def _item(it: Item) -> Item:
    if isinstance(it, Group):
        return Group([_item(c) for c in it.items], it.matrix, it.clip)
    if isinstance(it, Text):
        return replace(it, colour=_dark_text(it.colour))
    if isinstance(it, (Polygon, Polyline, Circle)):
        return it if _symbol(it) else replace(it, style=_style(it.style))
    return it
