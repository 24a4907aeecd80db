"""Simple text layout for the drawing model: wrapping and text blocks.

Widths are the shipped font's real metrics (``fonts.py``), the same glyphs the
PDF embeds, so wrapped lines fit on paper as they do here.
"""

from __future__ import annotations

from terragen.render.model import Box, Item, Text

def text_width(s: str, size: float, bold: bool = False) -> float:
    """Width of ``s`` in mm at ``size`` in the shipped font."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from terragen.render.fonts import font_name

    return stringWidth(s, font_name(bold), size)


def wrap(s: str, size: float, width: float) -> list[str]:
    """Greedy word wrap of ``s`` to lines no wider than ``width`` mm at ``size``."""
    words = s.split()
    lines: list[str] = []
    cur = ""
    for w in words:
        trial = f"{cur} {w}" if cur else w
        if cur and text_width(trial, size) > width:
            lines.append(cur)
            cur = w
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return lines


def paragraph(x: float, y: float, s: str, size: float, width: float, colour: str = "#000000",
              leading: float = 1.35, bold: bool = False) -> tuple[list[Item], float]:
    """Wrapped lines starting with the first baseline at ``y``; returns items and the next free y."""
    items: list[Item] = []
    for line in wrap(s, size, width):
        items.append(Text(x, y, line, size, colour, anchor="start", bold=bold))
        y += size * leading
    return items, y


def titled_sections(box: Box, title: str, subtitle: str, sections: list[tuple[str, str]],
                    size: float = 3.7) -> tuple[list[Item], float]:
    """A title, a grey subtitle and headed paragraphs flowing down ``box`` (a page's content box).

    Every kit's rules summary and instruction page is this shape; returns the
    items and the y where the text ended, so a caller can add more below. Text
    that would run past the foot of ``box`` (a long summary, a page laid out
    smaller for ``--scale``) is set a little smaller until it fits, never under 2.6 mm.
    """
    while True:
        items, y = _sections(box, title, subtitle, sections, size)
        last_line_foot = y - size * (0.9 + 1.42) + size * 0.25
        if last_line_foot <= box.y1 or size <= 2.6:
            return items, y
        size = max(2.6, size * 0.96)


def _sections(box, title: str, subtitle: str, sections: list[tuple[str, str]], size: float):
    from terragen.render.model import Text

    y = box.y0 + 8.0
    items = [Text(box.x0, y, title, 6.0, "#000000", anchor="start", bold=True)]
    y += 6.0
    # wrapped: a subtitle one line long ran past the page's margin once its words grew
    sub, y = paragraph(box.x0, y, subtitle, 3.0, box.width, colour="#444444")
    items.extend(sub)
    y += 9.0 - 3.0 * 1.35
    for head, body in sections:
        items.append(Text(box.x0, y, head, size * 1.15, "#000000", anchor="start", bold=True))
        y += size * 1.5
        para, y = paragraph(box.x0, y, body, size, box.width, leading=1.42)
        items.extend(para)
        y += size * 0.9
    return items, y
