"""PDF back end (reportlab): draws a :class:`Document` at true physical size.

The canvas is set up so one user unit is one millimetre with y pointing down,
exactly the model's coordinates. ``invariant=1`` fixes the creation date and
document id, so the same drawing gives the same bytes. Each page carries a real
TrimBox and BleedBox (in points, PDF's y-up convention) when the page has them,
the fonts are embedded (``fonts.py``), and the viewer preferences ask print
dialogs for actual size and the document's duplex mode.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterable, Iterator

from terragen.render.fonts import font_name
from terragen.render.model import Circle, Document, Group, Item, Page, Polygon, Polyline, Style, Text, hatch_lines

MM = 72.0 / 25.4  # points per millimetre
DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "simplex": "Simplex"}


#: the last second a PDF date can name (31 Dec 9999, 23:59:59 UTC)
LAST_PDF_SECOND = 253402300799


def check_source_date_epoch() -> None:
    """Refuse a ``SOURCE_DATE_EPOCH`` the PDF writer cannot use, before any work: reportlab reads
    it for the files' date, and a value that is not a whole number of seconds failed inside it
    (an internal error, for a batch after all its scenarios), one past year 9999 wrote a date no
    reader takes."""
    import os

    value = os.environ.get("SOURCE_DATE_EPOCH")
    text = (value or "").strip()
    if not text:  # unset, or set empty (build scripts export it so): reportlab's fixed date, as it reads it
        return
    if not (text.isascii() and text.isdigit() and int(text) <= LAST_PDF_SECOND):
        from terragen.errors import SpecError

        raise SpecError(f"SOURCE_DATE_EPOCH={value!r} in the environment: PDFs take a whole number of seconds "
                        f"since 1970, 0 to {LAST_PDF_SECOND} (unset it for terragen's fixed date)")


def _n(v: float) -> str:
    """A PDF number: at most 4 decimals, no trailing zeros, no exponent, no ``-0``."""
    t = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if t in ("-0", "") else t


def _colour(c: str) -> tuple[float, float, float]:
    c = c.lstrip("#")
    return (int(c[0:2], 16) / 255.0, int(c[2:4], 16) / 255.0, int(c[4:6], 16) / 255.0)


def _box_pt(page: Page, box) -> list[float]:
    """A model box (mm, y down) as a PDF rectangle [x0 y0 x1 y1] in points, y up."""
    return [round(box.x0 * MM, 3), round((page.height - box.y1) * MM, 3), round(box.x1 * MM, 3), round((page.height - box.y0) * MM, 3)]


class _Painter:
    def __init__(self, canvas) -> None:
        self.c = canvas

    def style(self, st: Style) -> tuple[int, int]:
        c = self.c
        if st.fill:
            c.setFillColorRGB(*_colour(st.fill), alpha=st.opacity if st.opacity < 1 else None)
        if st.stroke:
            c.setStrokeColorRGB(*_colour(st.stroke), alpha=st.opacity if st.opacity < 1 else None)
            c.setLineWidth(st.width)
            c.setDash(list(st.dash) if st.dash else [])
        return (1 if st.stroke else 0, 1 if st.fill else 0)

    def path(self, points, closed: bool):
        """A reportlab path holding ``points``; numbers are formatted here, 4 decimals (0.1 µm),
        because reportlab's pure-Python number formatting is most of the run time of a kit."""
        p = self.c.beginPath()
        code = getattr(p, "_code", None)
        if code is None:  # a reportlab without the path code list: go the slow, public way
            p.moveTo(*points[0])
            for x, y in points[1:]:
                p.lineTo(x, y)
            if closed:
                p.close()
            return p
        parts = [f"{_n(points[0][0])} {_n(points[0][1])} m"]
        parts.extend(f"{_n(x)} {_n(y)} l" for x, y in points[1:])
        if closed:
            parts.append("h")
        code.extend(("n", " ".join(parts)))  # reportlab starts every path with "n"
        return p

    def circle_path(self, cx: float, cy: float, r: float):
        """A circle as four Bézier arcs (the standard 0.5523 handle length)."""
        p = self.c.beginPath()
        code = getattr(p, "_code", None)
        if code is None:
            p.circle(cx, cy, r)
            return p
        k = 0.5522847498 * r
        pts = [
            f"{_n(cx + r)} {_n(cy)} m",
            f"{_n(cx + r)} {_n(cy + k)} {_n(cx + k)} {_n(cy + r)} {_n(cx)} {_n(cy + r)} c",
            f"{_n(cx - k)} {_n(cy + r)} {_n(cx - r)} {_n(cy + k)} {_n(cx - r)} {_n(cy)} c",
            f"{_n(cx - r)} {_n(cy - k)} {_n(cx - k)} {_n(cy - r)} {_n(cx)} {_n(cy - r)} c",
            f"{_n(cx + k)} {_n(cy - r)} {_n(cx + r)} {_n(cy - k)} {_n(cx + r)} {_n(cy)} c",
            "h",
        ]
        code.extend(("n", " ".join(pts)))
        return p

    def hatch(self, shape_path, points, st: Style) -> None:
        c = self.c
        h = st.hatch
        c.saveState()
        c.clipPath(shape_path, stroke=0, fill=0)
        c.setStrokeColorRGB(*_colour(h.colour))
        c.setLineWidth(h.width)
        c.setDash([])
        segs = hatch_lines(tuple(points), h)
        p = c.beginPath()
        code = getattr(p, "_code", None)
        if code is None:
            for a, b in segs:
                p.moveTo(*a)
                p.lineTo(*b)
        else:
            code.extend(("n", " ".join(f"{_n(a[0])} {_n(a[1])} m {_n(b[0])} {_n(b[1])} l" for a, b in segs)))
        c.drawPath(p, stroke=1, fill=0)
        c.restoreState()

    def draw(self, item: Item) -> None:
        c = self.c
        if isinstance(item, Group):
            c.saveState()
            if item.matrix != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
                c.transform(*item.matrix)
            if item.clip:
                c.clipPath(self.path(item.clip, True), stroke=0, fill=0)
            for child in item.items:
                self.draw(child)
            c.restoreState()
        elif isinstance(item, (Polygon, Polyline)):
            closed = isinstance(item, Polygon)
            st = item.style
            if st.fill and closed:
                c.saveState()
                _, f = self.style(Style(fill=st.fill, opacity=st.opacity))
                c.drawPath(self.path(item.points, True), stroke=0, fill=1)
                c.restoreState()
            if st.hatch and closed:
                self.hatch(self.path(item.points, True), item.points, st)
            if st.stroke:
                c.saveState()
                self.style(Style(stroke=st.stroke, width=st.width, dash=st.dash, opacity=st.opacity))
                c.setLineJoin(1)
                c.setLineCap(1 if not closed else 0)
                c.drawPath(self.path(item.points, closed), stroke=1, fill=0)
                c.restoreState()
        elif isinstance(item, Circle):
            st = item.style
            c.saveState()
            s, f = self.style(st)
            c.drawPath(self.circle_path(item.cx, item.cy, item.r), stroke=s, fill=f)
            if st.hatch:
                p = self.circle_path(item.cx, item.cy, item.r)
                pts = ((item.cx - item.r, item.cy - item.r), (item.cx + item.r, item.cy + item.r))
                self.hatch(p, pts, st)
            c.restoreState()
        elif isinstance(item, Text):
            c.saveState()
            c.translate(item.x, item.y)
            c.scale(1, -1)  # the page is y-down; glyphs must stay upright
            if item.angle:
                c.rotate(item.angle)
            c.setFillColorRGB(*_colour(item.colour))
            c.setFont(font_name(item.bold), item.size)
            if item.anchor == "middle":
                c.drawCentredString(0, 0, item.text)
            elif item.anchor == "end":
                c.drawRightString(0, 0, item.text)
            else:
                c.drawString(0, 0, item.text)
            c.restoreState()


def document_pdf(doc: Document) -> bytes:
    """The PDF bytes of ``doc``; identical input gives identical bytes."""
    return pages_pdf(doc.title, doc.pages, doc.duplex)


def pages_pdf(title: str, pages: Iterable[Page], duplex: str | None = None) -> bytes:
    """The PDF bytes of ``pages``, drawn one at a time: a generator of pages keeps only the
    page being drawn (and the compressed pages before it) in memory."""
    from reportlab import rl_config

    saved = rl_config.useA85
    rl_config.useA85 = 0  # binary Flate streams: a quarter smaller than ASCII85 and just as portable
    try:
        return _pages_pdf(title, iter(pages), duplex)
    finally:
        rl_config.useA85 = saved


def _pages_pdf(title: str, pages: Iterator[Page], duplex: str | None) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    check_source_date_epoch()

    buf = io.BytesIO()
    first = next(pages)
    # the initial font is the shipped one too, or reportlab names (unembedded) Helvetica on every page
    canvas = Canvas(buf, pagesize=(first.width * MM, first.height * MM), invariant=1, pageCompression=1,
                    initialFontName=font_name())
    canvas.setTitle(title)
    canvas.setAuthor("terragen")
    canvas.setCreator("terragen")
    canvas.setSubject(title)
    # every page is drawn at true size: a print dialog must not shrink it to fit
    canvas.setViewerPreference("PrintScaling", "None")
    if duplex:
        canvas.setViewerPreference("Duplex", DUPLEX[duplex])
    painter = _Painter(canvas)
    for page in itertools.chain([first], pages):
        canvas.setPageSize((page.width * MM, page.height * MM))
        canvas.setTrimBox(_box_pt(page, page.trim) if page.trim else None)
        canvas.setBleedBox(_box_pt(page, page.bleed) if page.bleed else None)
        canvas.saveState()
        canvas.translate(0, page.height * MM)
        canvas.scale(MM, -MM)
        canvas.setLineJoin(1)
        for item in page.items:
            painter.draw(item)
        canvas.restoreState()
        canvas.showPage()
        _compress_last_page(canvas)
    canvas.save()
    return buf.getvalue()


def _compress_last_page(canvas) -> None:
    """Compress the page just finished now rather than at ``save``: reportlab keeps every page's
    drawing operators as text until the end, which made a 2,000-scenario booklet hold about
    100 KB per page. The stream is marked as already filtered, so ``save`` writes the same
    bytes it would have written itself."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFName, PDFStream, PDFZCompress

    page = canvas._doc.Pages.pages[-1]
    if page.Contents or not page.stream or not page.compression:
        return
    stream = PDFStream()
    stream.content = PDFZCompress.encode(page.stream)
    stream.dictionary["Filter"] = PDFArray([PDFName(PDFZCompress.pdfname)])
    stream.__Comment__ = "page stream"
    page.Contents = stream
    page.stream = None
