"""Every printed word stands out from the ground it is printed on (WCAG contrast 4.5:1 or more).

The ground of a text is the last filled shape drawn under its anchor point before
it; a hatched ground counts with its hatch colour too, since the lines run
under the letters.
"""

from __future__ import annotations

import math

import pytest

from terragen.render.contrast import MIN_TEXT_CONTRAST, contrast
from terragen.render.model import Circle, Polygon, Text, apply


def walk(items, m=None, clip=None):
    """Leaves with their page matrix and the clip region (page coordinates) they are drawn in."""
    from shapely.geometry import Polygon as SPolygon

    from terragen.render.model import IDENTITY, Group, compose

    m = m or IDENTITY
    for it in items:
        if isinstance(it, Group):
            mm = compose(m, it.matrix)
            c = clip
            if it.clip:
                region = SPolygon([apply(mm, p) for p in it.clip])
                c = region if c is None else c.intersection(region)
            yield from walk(it.items, mm, c)
        else:
            yield it, m, clip


def low_contrast(page) -> list[tuple[str, str, str, float]]:
    from shapely.geometry import Point
    from shapely.geometry import Polygon as SPolygon

    grounds = []  # (shape, colours, opaque) in drawing order
    out = []
    for it, m, clip in walk(page.items):
        shape = None
        if isinstance(it, Polygon) and (it.style.fill or it.style.hatch):
            shape = SPolygon([apply(m, p) for p in it.points])
            cols = [c for c in (it.style.fill, it.style.hatch.colour if it.style.hatch else None) if c]
            opaque = bool(it.style.fill) and it.style.opacity >= 1.0
        elif isinstance(it, Circle) and it.style.fill:
            (cx, cy), (ex, _) = apply(m, (it.cx, it.cy)), apply(m, (it.cx + it.r, it.cy))
            shape, cols, opaque = Point(cx, cy).buffer(abs(ex - cx)), [it.style.fill], it.style.opacity >= 1.0
        elif isinstance(it, Text) and it.text.strip():
            a = math.radians(it.angle)  # the middle of the letters, on their "up" side of the anchor
            x, y = apply(m, (it.x - it.size * 0.35 * math.sin(a), it.y - it.size * 0.35 * math.cos(a)))
            pt = Point(x, y)
            if clip is not None and not clip.contains(pt):
                continue  # clipped away: not on this sheet
            under: list[str] = []
            for g, cs, op in reversed(grounds):
                if g.contains(pt):
                    under.extend(cs)
                    if op:
                        break
            under = under or ["#ffffff"]
            worst = min(contrast(it.colour, c) for c in under)
            if worst < MIN_TEXT_CONTRAST:
                out.append((it.text, it.colour, under[0], round(worst, 2)))
        if shape is not None and it.style.opacity >= 1.0:  # a see-through veil only tints what is under it
            if clip is not None:
                shape = shape.intersection(clip)
            grounds.append((shape, cols, opaque))
    return out


def kit_parts(game: str, opts):
    import importlib

    kit = importlib.import_module(f"terragen.render.kits.{game}.kit")
    if game == "terraflip":
        from terragen.terraflip.model import default_tileset

        return kit.terraflip_kit(opts, default_tileset())
    if game == "terrain":
        return kit.terrain_kit(opts, nets=True)
    return getattr(kit, f"{game}_kit")(opts)


@pytest.mark.parametrize("low_ink", [False, True], ids=["default", "low-ink"])
@pytest.mark.parametrize("game", ["terrain", "terrace", "terralogical", "terraflip"])
def test_every_text_on_every_sheet_reads_at_4_5_to_1(game, low_ink, a4):
    """In low-ink mode too: paler grounds must not leave pale words on them."""
    from dataclasses import replace

    bad = {}
    for part in kit_parts(game, replace(a4, low_ink=low_ink)):
        for k, page in enumerate(part.doc.pages, 1):
            found = low_contrast(page)
            if found:
                bad[f"{part.name} p{k}"] = sorted(set(found))[:6]
    assert not bad, bad
