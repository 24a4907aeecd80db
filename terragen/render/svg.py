"""SVG back end (svgwrite): one page of the drawing model as an SVG file in mm.

The SVG's width/height carry ``mm`` units and its viewBox is the page in mm,
so a browser or Inkscape prints it at true size. Numbers are written with 3
decimals and clip ids are numbered in drawing order, so output is stable.
"""

from __future__ import annotations

from terragen.render.fonts import SVG_FAMILY
from terragen.render.model import Circle, Group, Item, Page, Polygon, Polyline, Style, Text, fmt, hatch_lines, printable


def _pts(points) -> list[tuple[str, str]]:
    return [(fmt(x), fmt(y)) for x, y in points]


class _Writer:
    def __init__(self, dwg) -> None:
        self.dwg = dwg
        self.clips = 0

    def _clip(self, shape) -> str:
        self.clips += 1
        cid = f"clip{self.clips}"
        cp = self.dwg.defs.add(self.dwg.clipPath(id=cid))
        cp.add(shape)
        return cid

    def _attrs(self, st: Style, closed: bool = True) -> dict:
        a: dict = {"fill": st.fill if (st.fill and closed) else "none"}
        if st.stroke:
            a["stroke"] = st.stroke
            a["stroke_width"] = fmt(st.width)
            a["stroke_linejoin"] = "round"
            if not closed:
                a["stroke_linecap"] = "round"
            if st.dash:
                a["stroke_dasharray"] = " ".join(fmt(d) for d in st.dash)
        if st.opacity < 1:
            a["opacity"] = fmt(st.opacity)
        return a

    def _hatch(self, parent, shape, points, st: Style) -> None:
        h = st.hatch
        g = parent.add(self.dwg.g(clip_path=f"url(#{self._clip(shape)})", stroke=h.colour, stroke_width=fmt(h.width)))
        d = " ".join(f"M{fmt(a[0])} {fmt(a[1])}L{fmt(b[0])} {fmt(b[1])}" for a, b in hatch_lines(tuple(points), h))
        g.add(self.dwg.path(d=d))

    def draw(self, parent, item: Item) -> None:
        dwg = self.dwg
        if isinstance(item, Group):
            attrs = {}
            if item.matrix != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
                attrs["transform"] = "matrix(" + " ".join(fmt(v) for v in item.matrix) + ")"
            g = parent.add(dwg.g(**attrs))
            if item.clip:
                g = g.add(dwg.g(clip_path=f"url(#{self._clip(dwg.polygon(_pts(item.clip)))})"))
            for child in item.items:
                self.draw(g, child)
        elif isinstance(item, Polygon):
            parent.add(dwg.polygon(_pts(item.points), **self._attrs(item.style)))
            if item.style.hatch:
                self._hatch(parent, dwg.polygon(_pts(item.points)), item.points, item.style)
        elif isinstance(item, Polyline):
            parent.add(dwg.polyline(_pts(item.points), **self._attrs(item.style, closed=False)))
        elif isinstance(item, Circle):
            parent.add(dwg.circle(center=(fmt(item.cx), fmt(item.cy)), r=fmt(item.r), **self._attrs(item.style)))
            if item.style.hatch:
                pts = ((item.cx - item.r, item.cy - item.r), (item.cx + item.r, item.cy + item.r))
                self._hatch(parent, dwg.circle(center=(fmt(item.cx), fmt(item.cy)), r=fmt(item.r)), pts, item.style)
        elif isinstance(item, Text):
            attrs = {
                "insert": (fmt(item.x), fmt(item.y)),
                "fill": item.colour,
                "font_size": fmt(item.size),
                "font_family": SVG_FAMILY,
                "text_anchor": item.anchor,
            }
            if item.bold:
                attrs["font_weight"] = "bold"
            if item.angle:
                attrs["transform"] = f"rotate({fmt(-item.angle)} {fmt(item.x)} {fmt(item.y)})"
            parent.add(dwg.text(item.text, **attrs))


def page_svg(page: Page, title: str = "") -> str:
    """SVG text of one page at true size (width and height in mm)."""
    import svgwrite

    dwg = svgwrite.Drawing(size=(f"{fmt(page.width)}mm", f"{fmt(page.height)}mm"), profile="full", debug=False)
    dwg["viewBox"] = f"0 0 {fmt(page.width)} {fmt(page.height)}"
    if title:
        dwg.set_desc(title=printable(title))  # (a Document's title is already; a caller's own may not be)
    w = _Writer(dwg)
    for item in page.items:
        w.draw(dwg, item)
    return dwg.tostring()
