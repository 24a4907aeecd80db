"""Big boards over several pages: each page shows a window of the board with overlap.

The board drawing is in board millimetres (true size). Pages are cut into a
grid of windows; neighbouring windows overlap by ``overlap`` mm so the sheets
can be trimmed on one side and glued over the next. Every page gets its
row/column name (A1, A2, B1 ...), arrows naming its neighbours, and alignment
crosses at the same board points on both sheets of an overlap, so the sheets
line up by laying cross on cross.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from terragen.render.impose import PrintOptions, page_scale
from terragen.render.marks import footer, page_label, registration_target
from terragen.render.text import text_width
from terragen.render.model import Box, Group, Item, Page, Polygon, Style, Text, translate

OVERLAP = 10.0


def tile_board(items: list[Item], size: tuple[float, float], opts: PrintOptions, game: str, contents: str,
               overlap: float = OVERLAP, first_page: int = 1, total_pages: int | None = None) -> list[Page]:
    """Pages showing the board (``items`` over a ``size`` = (w, h) mm area) at true size."""
    paper = opts.paper
    area = paper.content
    aw, ah = window_size(opts)
    rows, cols = grid_shape(size, opts, overlap)
    step_x, step_y = _steps(size, opts, rows, cols)
    total = total_pages or rows * cols
    pages = []
    # alignment points: centres of every overlap strip crossing, in board mm
    xs_marks = [step_x * c + aw - (aw - step_x) / 2 for c in range(cols - 1)]
    ys_marks = [step_y * r + ah - (ah - step_y) / 2 for r in range(rows - 1)]
    for win in (w for row in sheet_windows(size, opts, overlap) for w in row):
        r, c, wx, wy = win.row, win.col, win.x, win.y  # one sheet per window, in reading order
        ox, oy = area.x0 - wx, area.y0 + 6.0 - wy  # page = board + (ox, oy)
        window = win.corners()
        marks: list[Item] = []
        for mx in xs_marks:
            if wx - 0.01 <= mx <= wx + aw + 0.01:
                for my in [wy + 8.0, wy + ah / 2, wy + ah - 8.0]:
                    marks.append(registration_target(mx, my, 2.5))
        for my in ys_marks:
            if wy - 0.01 <= my <= wy + ah + 0.01:
                for mx in [wx + 8.0, wx + aw / 2, wx + aw - 8.0]:
                    marks.append(registration_target(mx, my, 2.5))
        shade = Style(fill="#000000", opacity=0.06)
        if c > 0:
            marks.append(Polygon(((wx, wy), (wx + overlap_w(step_x, aw), wy), (wx + overlap_w(step_x, aw), wy + ah), (wx, wy + ah)), shade))
        if r > 0:
            marks.append(Polygon(((wx, wy), (wx + aw, wy), (wx + aw, wy + overlap_w(step_y, ah)), (wx, wy + overlap_w(step_y, ah))), shade))
        board = Group([Group(list(items) + marks, clip=window)], translate(ox, oy))
        name = win.name
        k = first_page + len(pages)
        label = page_label(game, f"{contents}, sheet {name} of {chr(64 + rows)}{cols}", opts.scale, k, total)
        head: list[Item] = [Text(area.x0, area.y0 + 4.0, f"Sheet {name}", 4.0, "#000000", anchor="start", bold=True)]
        nb = []
        if r > 0:
            nb.append(f"above {chr(64 + r)}{c + 1}")
        if r < rows - 1:
            nb.append(f"below {chr(66 + r)}{c + 1}")
        if c > 0:
            nb.append(f"left {chr(65 + r)}{c}")
        if c < cols - 1:
            nb.append(f"right {chr(65 + r)}{c + 2}")
        nb_text = "Next to: " + ", ".join(nb) + "."
        if r > 0 or c > 0:
            nb_text += " Cut the white margin off the shaded side(s), lay the shaded strip over that sheet, crosses on crosses."
        size = 2.5
        while size > 1.6 and text_width(nb_text, size) > aw - 27.0:
            size -= 0.1
        head.append(Text(area.x0 + 26.0, area.y0 + 4.0, nb_text, size, "#333333", anchor="start"))
        page = Page(paper.width, paper.height, label=label, trim=Box(area.x0, area.y0 + 6.0, area.x1, area.y0 + 6.0 + ah))
        page.items = [page_scale(opts, paper, [board] + head + [footer(paper, label, opts.scale)])]
        pages.append(page)
    return pages


def overlap_w(step: float, span: float) -> float:
    """Width of the strip two neighbouring windows share."""
    return span - step


def window_size(opts: PrintOptions) -> tuple[float, float]:
    """The part of the board one sheet shows: the content box less 6 mm for the sheet's name line."""
    area = opts.paper.content
    return area.width, area.height - 6.0


@dataclass(frozen=True)
class Window:
    """Where one sheet's window falls on the board, in board mm; ``name`` is its label (A1, A2, B1 ...)."""

    name: str
    row: int
    col: int
    x: float
    y: float
    w: float
    h: float

    def corners(self) -> tuple[tuple[float, float], ...]:
        return ((self.x, self.y), (self.x + self.w, self.y), (self.x + self.w, self.y + self.h), (self.x, self.y + self.h))


def _steps(size: tuple[float, float], opts: PrintOptions, rows: int, cols: int) -> tuple[float, float]:
    # windows are spread evenly so that no sheet is a thin sliver
    aw, ah = window_size(opts)
    bw, bh = size
    return ((bw - aw) / (cols - 1) if cols > 1 else 0.0, (bh - ah) / (rows - 1) if rows > 1 else 0.0)


def sheet_windows(size: tuple[float, float], opts: PrintOptions, overlap: float = OVERLAP) -> list[list[Window]]:
    """Every sheet's window, row by row: what :func:`tile_board` prints and what an overview page outlines."""
    aw, ah = window_size(opts)
    bw, bh = size
    rows, cols = grid_shape(size, opts, overlap)
    step_x, step_y = _steps(size, opts, rows, cols)
    return [[Window(f"{chr(65 + r)}{c + 1}", r, c, step_x * c if cols > 1 else (bw - aw) / 2,
                    step_y * r if rows > 1 else (bh - ah) / 2, aw, ah) for c in range(cols)] for r in range(rows)]


def grid_shape(size: tuple[float, float], opts: PrintOptions, overlap: float = OVERLAP) -> tuple[int, int]:
    """(rows, cols) of sheets :func:`tile_board` will use for a board of ``size``."""
    aw, ah = window_size(opts)
    bw, bh = size
    cols = max(1, math.ceil((bw - overlap) / (aw - overlap))) if bw > aw else 1
    rows = max(1, math.ceil((bh - overlap) / (ah - overlap))) if bh > ah else 1
    return rows, cols

