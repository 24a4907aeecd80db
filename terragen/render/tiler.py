"""Big boards over several pages: each page shows a window of the board with overlap.

The board drawing is in board millimetres (true size). Pages are cut into a
grid of windows of equal size, so no sheet is a sliver, each just large enough
that neighbouring windows overlap by ``OVERLAP`` mm (windows as large as the
page, spread over the board, overlapped by up to 169 mm: ink printed twice and
glue strips as wide as half a sheet). The windows cover all of the drawing's
ink (a line on the board's edge reaches half its stroke past it), and a seam
that would cut one of the board's words moves, within the page's spare room,
to the nearest place clear of them all (then of its round symbols, such as
Terrace's centre ring). Sheets are assembled as poster tilers do:
a sheet goes on top of its neighbours to the left and above. The sheet that
goes underneath carries the shaded glue strip (the part its neighbour covers)
and the circle-and-cross marks on the line where that neighbour's cut edge
must lie, each moved along that line off the board's words and symbols where
it can; the sheet on top carries a dashed trim line along that edge. So
nothing of the assembly shows on the finished board but a thin seam. Every
page gets its row/column name (A1, A2, B1 ...) and says which sheets it joins.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from terragen.render.impose import PrintOptions, page_scale
from terragen.render.marks import footer, page_label, registration_target
from terragen.render.text import text_width
from terragen.render.model import (IDENTITY, MIN_TEXT_MM, Box, Circle, Group, Item, Matrix, Page, Polygon, Polyline, Style,
                                   Text, apply, compose, flatten, page_points, scale, translate)

OVERLAP = 10.0  # the overlap between neighbouring sheets, mm
SEAM_AIR = 1.0  # the room a seam keeps from the nearest letter of the board where the page allows, mm
MARK_REACH = 4.0  # how far a registration mark's circle and arms reach from its centre, mm
MARK_AIR = 0.5  # the room a registration mark keeps from the board's words and symbols where it can, mm
MARK_SPACING = 10.0  # the least distance between two registration marks on one sheet, mm
SHEET_NAME_SIZE = 8.0  # the sheets' names (A1, B2 ...) on an overview page, mm
GLUE = Style(fill="#000000", opacity=0.08)  # the glue strip on the sheet underneath
TRIM = Style(stroke="#000000", width=0.25, dash=(2.0, 1.2))  # the trim line on the sheet on top


def mark_spots(lo: float, hi: float, inset: float = 8.0) -> list[float]:
    """Where the registration marks go along an edge from ``lo`` to ``hi``: near both ends and in the
    middle, never two within 10 mm of each other (the window's middle once fell 1 mm from an end's)."""
    a, b = lo + inset, hi - inset
    if b - a < 10.0:
        return [(lo + hi) / 2]
    return [a, (a + b) / 2, b] if b - a >= 20.0 else [a, b]


def tile_board(items: list[Item], size: tuple[float, float], opts: PrintOptions, game: str, contents: str,
               overlap: float = OVERLAP, first_page: int = 1, total_pages: int | None = None) -> list[Page]:
    """Pages showing the board (``items`` over a ``size`` = (w, h) mm area) at true size."""
    paper = opts.paper
    area = paper.content
    grid = sheet_windows(size, opts, overlap, items)
    rows, cols = len(grid), len(grid[0])
    keep_clear = board_words(items) + board_symbols(items)
    total = total_pages or rows * cols
    pages = []
    for win in (w for row in grid for w in row):
        r, c, wx, wy = win.row, win.col, win.x, win.y  # one sheet per window, in reading order
        aw, ah = win.w, win.h
        ox, oy = area.x0 - wx, area.y0 + 6.0 - wy  # page = board + (ox, oy)
        window = win.corners()
        right, below = c < cols - 1, r < rows - 1
        # the glue strip: what the sheets to the right and below will cover (an L where both do);
        # sx, sy: where their cut edges lie, in board mm
        sx = grid[r][c + 1].x if right else wx + aw
        sy = grid[r + 1][c].y if below else wy + ah
        marks: list[Item] = []
        x_end = sx if right else wx + aw
        right_strip = ((sx, wy), (wx + aw, wy), (wx + aw, wy + ah), (sx, wy + ah))
        below_strip = ((wx, sy), (x_end, sy), (x_end, wy + ah), (wx, wy + ah))
        if right:
            marks.append(Polygon(right_strip, GLUE))
        if below:
            marks.append(Polygon(below_strip, GLUE))
        # each mark is cut in half by the line the next sheet's edge goes on, and only the half on
        # the glue strip is drawn: the finished board shows none of it (a whole mark left half a
        # target on the board, sometimes over its art)
        # and each keeps clear of the board's numbers and symbols where its edge has room (one sat on
        # Terrace's centre ring, others on corner numbers)
        taken: list[tuple[float, float]] = []
        if right:
            ys = _mark_places(mark_spots(wy, sy if below else wy + ah), wy, sy if below else wy + ah,
                              [(b.y0, b.y1) for b in keep_clear if b.x1 > sx - MARK_AIR and b.x0 < sx + MARK_REACH + MARK_AIR],
                              lambda v: (sx, v), taken)
            marks.append(Group([registration_target(sx, my, 2.5) for my in ys], clip=right_strip))
        if below:
            xs = _mark_places(mark_spots(wx, x_end), wx, x_end,
                              [(b.x0, b.x1) for b in keep_clear if b.y1 > sy - MARK_AIR and b.y0 < sy + MARK_REACH + MARK_AIR],
                              lambda v: (v, sy), taken)
            marks.append(Group([registration_target(mx, sy, 2.5) for mx in xs], clip=below_strip))
        board = Group([Group(list(items) + marks, clip=window)], translate(ox, oy))
        # trim lines on the sheet's own left and top edges, where it goes over an earlier sheet
        x0, y0 = area.x0, area.y0 + 6.0
        trims: list[Item] = []
        if c > 0:
            trims.append(Polyline(((x0, y0), (x0, y0 + ah)), TRIM))
        if r > 0:
            trims.append(Polyline(((x0, y0), (x0 + aw, y0)), TRIM))
        name = win.name
        k = first_page + len(pages)
        label = page_label(game, f"{contents}, sheet {name} of {chr(64 + rows)}{cols}", opts.scale, k, total)
        head: list[Item] = [Text(area.x0, area.y0 + 4.0, f"Sheet {name}", 4.0, "#000000", anchor="start", bold=True)]
        head.extend(_note_lines(assembly_note(r, c, rows, cols), area.x0 + 26.0, area.y0, area.width - 27.0))
        page = Page(paper.width, paper.height, label=label, trim=Box(x0, y0, x0 + aw, y0 + ah))
        page.items = [page_scale(opts, paper, [board] + trims + head + [footer(paper, label, opts.scale)])]
        pages.append(page)
    return pages


def _mark_places(aims: list[float], lo: float, hi: float, blocked: list[tuple[float, float]],
                 point: Callable[[float], tuple[float, float]], taken: list[tuple[float, float]]) -> list[float]:
    """Where along a seam from ``lo`` to ``hi`` its registration marks go: each at the nearest place to
    its aim (:func:`mark_spots`) where it covers none of ``blocked`` (the extents along the seam of the
    words and symbols its drawn half would reach), else where it covers fewest, never within
    :data:`MARK_SPACING` of a mark in ``taken`` (``point`` turns a place into the mark's centre;
    each mark placed joins ``taken``). A mark with nowhere to go is left out, but an edge keeps one."""
    reach = MARK_REACH + MARK_AIR
    spans = [(a - reach, b + reach) for a, b in blocked if b + reach > lo and a - reach < hi]
    first, last = lo + MARK_REACH, hi - MARK_REACH
    out: list[float] = []
    for aim in aims:
        places = [aim] + [v for a, b in spans for v in (a, b) if first <= v <= last]

        def cost(v: float) -> tuple[int, float]:
            return sum(1 for a, b in spans if a < v < b), abs(v - aim)

        free = [v for v in places if all(math.dist(point(v), t) >= MARK_SPACING - 1e-9 for t in taken)]
        if not free and out:
            continue
        v = min(free, key=cost) if free else aim
        out.append(v)
        taken.append(point(v))
    return out


def _note_lines(note: str, x: float, top: float, width: float) -> list[Item]:
    """The sheet's note in the 6 mm band above its window: one line if it fits, else two smaller ones,
    no smaller than 6 pt, the second line's baseline 1.5 mm clear of the window's dashed edge (it sat
    0.8 mm above it, its descenders on the line)."""
    from terragen.render.text import wrap

    if text_width(note, 2.5) <= width:
        return [Text(x, top + 4.0, note, 2.5, "#333333", anchor="start")]
    size = 2.2
    while size - 0.05 >= MIN_TEXT_MM and len(wrap(note, size, width)) > 2:
        size -= 0.05
    return [Text(x, top + 1.9 + 2.6 * i, line, round(size, 2), "#333333", anchor="start")
            for i, line in enumerate(wrap(note, size, width)[:2])]


def assembly_note(r: int, c: int, rows: int, cols: int) -> str:
    """What to do with sheet (r, c): which edges to trim, which sheets go on its glue strip."""
    def name(rr: int, cc: int) -> str:
        return f"{chr(65 + rr)}{cc + 1}"

    parts = []
    over = [f"{name(r, c - 1)} (left)"] * (c > 0) + [f"{name(r - 1, c)} (above)"] * (r > 0)
    if over:
        edges = " and ".join(e for e, on in (("left", c > 0), ("top", r > 0)) if on)
        parts.append(f"Cut along the dashed {edges} edge; lay this sheet on the shaded strip of {' and '.join(over)}, "
                     "its edge through the crosses.")
    under = [name(r, c + 1)] * (c < cols - 1) + [name(r + 1, c)] * (r < rows - 1)
    if under:
        parts.append(f"Shaded strip: glue, {' and '.join(under)} {'go' if len(under) > 1 else 'goes'} on top.")
    return " ".join(parts) or "The whole board is on this sheet."


def overlaps(size: tuple[float, float], opts: PrintOptions, overlap: float = OVERLAP,
             items: Sequence[Item] = ()) -> tuple[float | None, float | None]:
    """How far neighbouring sheets overlap side by side and top to bottom (None: no such join)."""
    grid = sheet_windows(size, opts, overlap, items)
    first = grid[0][0]
    return (first.x + first.w - grid[0][1].x if len(grid[0]) > 1 else None,
            first.y + first.h - grid[1][0].y if len(grid) > 1 else None)


def assembly_text(size: tuple[float, float], opts: PrintOptions, items: Sequence[Item] = ()) -> str:
    """How the sheets go together, with the real overlaps, for an overview page."""
    ox, oy = overlaps(size, opts, items=items)
    said = [f"{v:.0f} mm side to side" for v in (ox,) if v is not None] + \
           [f"{v:.0f} mm top to bottom" for v in (oy,) if v is not None]
    if not said:
        return "Assembly: the whole board is on one sheet."
    return (f"Assembly: neighbouring sheets overlap {' and '.join(said)}. Start with A1. Every other sheet goes "
            "on top of the sheet to its left and the one above it: cut it along its dashed edge, put glue on "
            "their shaded strip and lay the cut edge on the line through their crosses.")


def assembly_note_items(x: float, y: float, width: float, size: tuple[float, float], opts: PrintOptions,
                        items: Sequence[Item] = ()) -> tuple[list[Item], float]:
    """:func:`assembly_text` as a paragraph at (x, y); returns the items and where they end."""
    from terragen.render.text import paragraph

    return paragraph(x, y, assembly_text(size, opts, items), 2.8, width, "#333333")


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


def board_extent(items: Sequence[Item], size: tuple[float, float]) -> Box:
    """The board's box, grown to hold every mark of its drawing: a line along the board's edge
    reaches half its stroke past it (round joins and caps: exactly half), and windows cut at the
    board's box printed only the inner half of Terralogical's 0.5 mm outer frame."""
    return Box(0.0, 0.0, *size).union(_ink_box(items, IDENTITY))


def _ink_box(items: Sequence[Item], m: Matrix) -> Box | None:
    """The box the ink of ``items`` placed by ``m`` takes, a group's within its clip (what the clip
    hides never prints); None for no ink."""
    box: Box | None = None
    for it in items:
        if isinstance(it, Group):
            inner = compose(m, it.matrix)
            part = _ink_box(it.items, inner)
            if part is not None and it.clip:
                xs, ys = zip(*(apply(inner, p) for p in it.clip))
                part = part.intersection(Box(min(xs), min(ys), max(xs), max(ys)))
        elif isinstance(it, Text):
            part = label_box(it, m)
        elif isinstance(it, (Polygon, Polyline, Circle)):
            half = it.style.width / 2 * _linear_scale(m) if it.style.stroke else 0.0
            xs, ys = zip(*page_points(it, m))
            part = Box(min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)
        else:
            part = None
        if part is not None:
            box = part if box is None else box.union(part)
    return box


def label_box(t: Text, m: Matrix) -> Box:
    """The box a word's letters take once placed by ``m`` (cap height above the baseline, descenders
    below; a turned word's box holds its turned corners)."""
    w = text_width(t.text, t.size, t.bold)
    x0 = t.x - (w if t.anchor == "end" else w / 2 if t.anchor == "middle" else 0.0)
    a = math.radians(t.angle)
    ca, sa = math.cos(a), math.sin(a)
    corners = [(t.x + (x - t.x) * ca + (y - t.y) * sa, t.y - (x - t.x) * sa + (y - t.y) * ca)
               for x in (x0, x0 + w) for y in (t.y - 0.75 * t.size, t.y + 0.22 * t.size)]
    xs, ys = zip(*(apply(m, p) for p in corners))
    return Box(min(xs), min(ys), max(xs), max(ys))


def _linear_scale(m: Matrix) -> float:
    """How much ``m`` scales lengths (the boards are never stretched one way only)."""
    return abs(m[0] * m[3] - m[1] * m[2]) ** 0.5


def _axis_windows(lo: float, hi: float, span: float, overlap: float, words: Sequence[tuple[float, float]] = (),
                  symbols: Sequence[tuple[float, float]] = ()) -> list[tuple[float, float]]:
    """(start, length) of each window along one axis of the board's extent ``lo``..``hi``: the whole
    page's ``span`` centred where one sheet holds it, else shares sharing ``overlap`` mm, each no
    longer than the span (:func:`grid_shape` counts the sheets so). The shares are equal unless a
    seam, the next window's start (the edge that shows on the assembled board), would run through
    one of ``words`` (their extents along this axis): it then moves to the nearest place clear of
    them that the page's spare room allows, the overlap staying ``overlap``; and, where that leaves
    a choice, clear of ``symbols`` (the board's drawn marks: Terrace's centre ring)."""
    n = _sheets(hi - lo, span, overlap)
    if n == 1:
        return [(lo + (hi - lo - span) / 2, span)]
    step = (hi - lo + (n - 1) * overlap) / n - overlap
    starts = [lo]
    for k in range(1, n):
        # the window before may grow to the span; the windows after must still reach ``hi``
        low = max(hi - (n - k) * span + (n - k - 1) * overlap, starts[-1] + overlap)
        high = starts[-1] + span - overlap
        starts.append(_seam(lo + k * step, low, high, words, symbols))
    ends = [s + overlap for s in starts[1:]] + [hi]
    return [(s, min(e - s, span)) for s, e in zip(starts, ends)]


def _seam(aim: float, low: float, high: float, words: Sequence[tuple[float, float]],
          symbols: Sequence[tuple[float, float]] = ()) -> float:
    """Where between ``low`` and ``high`` a seam goes: through as few ``words`` as can be (a cut number
    is read in two halves from two sheets that never meet exactly), then through as few ``symbols``
    (on a 6 x 6 Terrace board on Letter all four sheets met on the centre ring), then with
    :data:`SEAM_AIR` to the nearest letter where it can, then as near ``aim`` (the equal share) as
    that allows."""
    if high < low:  # no spare room: the equal share
        return aim
    # only words a seam in reach could come near count, and words along one line share an extent:
    # weighed once, with their number (a 12 x 12 Terrace board has 626 words, most repeating a row's
    # extent; weighing each place against all of them doubled its kit's time)
    extents = Counter((a, b) for a, b in words if b > low - SEAM_AIR and a < high + SEAM_AIR)
    marks = Counter((a, b) for a, b in symbols if b > low - SEAM_AIR and a < high + SEAM_AIR)
    places = [aim, low, high] + [x for a, b in list(extents) + list(marks) for x in (a - SEAM_AIR, b + SEAM_AIR, a, b)]

    def cost(x: float) -> tuple[int, int, int, float]:
        cut = sum(n for (a, b), n in extents.items() if a < x < b)
        crossed = sum(n for (a, b), n in marks.items() if a - SEAM_AIR < x < b + SEAM_AIR)
        near = sum(n for (a, b), n in extents.items() if a - SEAM_AIR < x < b + SEAM_AIR)
        return cut, crossed, near, abs(x - aim)

    return min((min(max(x, low), high) for x in places), key=cost)


def sheet_windows(size: tuple[float, float], opts: PrintOptions, overlap: float = OVERLAP,
                  items: Sequence[Item] = ()) -> list[list[Window]]:
    """Every sheet's window, row by row: what :func:`tile_board` prints and what an overview page
    outlines. ``items``, the board's drawing, let the windows hold all of its ink and the seams
    pass between its words."""
    box = board_extent(items, size)
    aw, ah = window_size(opts)
    words, symbols = board_words(items), board_symbols(items)
    across = _axis_windows(box.x0, box.x1, aw, overlap, [(b.x0, b.x1) for b in words], [(b.x0, b.x1) for b in symbols])
    down = _axis_windows(box.y0, box.y1, ah, overlap, [(b.y0, b.y1) for b in words], [(b.y0, b.y1) for b in symbols])
    return [[Window(f"{chr(65 + r)}{c + 1}", r, c, x, y, w, h) for c, (x, w) in enumerate(across)]
            for r, (y, h) in enumerate(down)]


def board_words(items: Sequence[Item]) -> list[Box]:
    """The box of every word and number the board's drawing prints."""
    return [label_box(it, m) for it, m in flatten(list(items)) if isinstance(it, Text) and it.text.strip()]


def board_symbols(items: Sequence[Item]) -> list[Box]:
    """The box of every round mark the board's drawing prints (Terrace's centre ring, Terralogical's
    flowers, the Terrain Game's start rings), its stroke included: what a seam or a registration
    mark should not cut or cover."""
    out = []
    for it, m in flatten(list(items)):
        if isinstance(it, Circle):
            xs, ys = zip(*page_points(it, m))
            half = it.style.width / 2 * _linear_scale(m) if it.style.stroke else 0.0
            out.append(Box(min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half))
    return out


@dataclass
class Overview:
    """A kit's board shrunk onto one page, with each sheet's window on it: ``picture`` is the board
    in place, ``k`` its scale, ``origin`` its top-left corner on the page, ``windows`` what
    :func:`overview_outlines` gives (each kit labels them its own way)."""

    picture: Item
    k: float
    origin: tuple[float, float]
    windows: list[tuple[Item, tuple[float, float], str]]


def overview(items: Sequence[Item], size: tuple[float, float], opts: PrintOptions, top: float, room_below: float,
             width: float = 0.3, name_size: float | None = None) -> Overview:
    """The board ``items`` (``size`` mm) as large as fits the page's width and its height less
    ``room_below`` (the kit's notes under it), centred across, ``top`` mm below the content's top.
    Why one place: three kits fitted, centred and outlined their overview the same way, each its
    own copy."""
    area = opts.paper.content
    w, h = size
    k = min(area.width / w, (area.height - room_below) / h)
    origin = (area.x0 + (area.width - w * k) / 2, area.y0 + top)
    items = _readable_at(items, k)
    labels = [it for it in items if isinstance(it, Text) and not it.angle]
    windows = overview_outlines(size, opts, origin, k, width=width, keep_clear=labels, name_size=name_size, items=items)
    return Overview(Group(list(items), compose(translate(*origin), scale(k))), k, origin, windows)


#: the smallest word an overview keeps (4.5 pt): smaller, a board's coordinates came out at 3.1-3.6 pt,
#: a grey speckle no one reads at arm's length, over the frames the page is there to show; every
#: word left out is on the true-size sheets
MIN_OVERVIEW_TEXT_MM = 4.5 * 25.4 / 72


def _readable_at(items: Sequence[Item], k: float) -> list[Item]:
    """``items`` without the words that, drawn ``k`` times their size, print under :data:`MIN_OVERVIEW_TEXT_MM`."""
    out: list[Item] = []
    for it in items:
        if isinstance(it, Text):
            if it.size * k >= MIN_OVERVIEW_TEXT_MM - 1e-9:
                out.append(it)
        elif isinstance(it, Group):
            a, b, c, d = it.matrix[:4]
            out.append(Group(_readable_at(it.items, k * math.sqrt(abs(a * d - b * c))), it.matrix, it.clip))
        else:
            out.append(it)
    return out


def overview_outlines(size: tuple[float, float], opts: PrintOptions, origin: tuple[float, float], k: float,
                      width: float = 0.3, keep_clear: list[Text] | None = None, name_size: float | None = None,
                      items: Sequence[Item] = ()) -> list[tuple[Item, tuple[float, float], str]]:
    """Every sheet's window on an overview page that shows the board scaled by ``k`` from ``origin``:
    its dashed outline, the point where its name goes, and the name (each kit styles the label).

    ``keep_clear``: the board's labels (in the board's own coordinates); an outline is broken where
    it would cross one, since a dashed line through small print at overview scale made it hard to
    read (a Terralogical flower field's note). With ``name_size`` (the bold name's size; its point
    is the name's baseline, centred across) the name moves from the window's centre to the nearest
    spot where it covers the least of them (at the centre "A2" hid a flower field's caption, "B1" a
    hex's coordinates). ``items``: the board's drawing, as :func:`tile_board` gets it, so the
    outlines are the sheets' windows."""
    ox, oy = origin
    style = Style(stroke="#1f77b4", width=width, dash=(2.0, 1.0))
    boxes = [_label_box(t, origin, k) for t in keep_clear or ()]
    out: list[tuple[Item, tuple[float, float], str]] = []
    for win in (w for row in sheet_windows(size, opts, items=items) for w in row):
        corners = tuple((ox + x * k, oy + y * k) for x, y in win.corners())
        outline: Item = Polygon(corners, style)
        if boxes:
            outline = Group(_line_around(corners, boxes, style))
        centre = (ox + (win.x + win.w / 2) * k, oy + (win.y + win.h / 2) * k)
        spot = _clear_spot(centre, win.w * k, win.h * k, win.name, name_size, boxes) if name_size and boxes else centre
        out.append((outline, spot, win.name))
    return out


def _clear_spot(centre: tuple[float, float], w: float, h: float, name: str, size: float,
                boxes: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """Where a window's name (bold, ``size``, centred on the point) covers the least of ``boxes``:
    the centre if it is clear, else the nearest of a grid of spots over the window's middle half."""
    half_w, cap = text_width(name, size, True) / 2 + 0.8, size + 0.8

    def covered(x: float, y: float) -> float:
        x0, y0, x1, y1 = x - half_w, y - cap, x + half_w, y + 0.8
        return sum(max(0.0, min(x1, b[2]) - max(x0, b[0])) * max(0.0, min(y1, b[3]) - max(y0, b[1])) for b in boxes)

    steps = (0.0, -0.125, 0.125, -0.25, 0.25)
    spots = sorted(((centre[0] + fx * w, centre[1] + fy * h) for fx in steps for fy in steps),
                   key=lambda p: (p[0] - centre[0]) ** 2 + (p[1] - centre[1]) ** 2)
    return min(spots, key=lambda p: covered(*p))  # min keeps the first, the nearest, of equally clear spots


def _label_box(t: Text, origin: tuple[float, float], k: float) -> tuple[float, float, float, float]:
    """The page area a (horizontal) label of the board takes once the board is scaled by ``k``."""
    w = text_width(t.text, t.size, t.bold)
    x0 = t.x - (w if t.anchor == "end" else w / 2 if t.anchor == "middle" else 0.0)
    ox, oy = origin
    pad = 0.4 / k  # a little air round the letters, on the page
    return (ox + (x0 - pad) * k, oy + (t.y - t.size - pad) * k, ox + (x0 + w + pad) * k, oy + (t.y + 0.3 * t.size + pad) * k)


def _line_around(corners: tuple[tuple[float, float], ...], boxes: list[tuple[float, float, float, float]],
                 style: Style) -> list[Item]:
    """The closed outline through ``corners`` with the parts inside any of ``boxes`` left out."""
    from shapely.geometry import LineString, box
    from shapely.ops import unary_union

    ring = LineString(corners + corners[:1])
    kept = ring.difference(unary_union([box(*b) for b in boxes]))
    parts = getattr(kept, "geoms", [kept])
    return [Polyline(tuple((float(x), float(y)) for x, y in part.coords), style)
            for part in parts if not part.is_empty and part.length > 0]


def grid_shape(size: tuple[float, float], opts: PrintOptions, overlap: float = OVERLAP,
               items: Sequence[Item] = ()) -> tuple[int, int]:
    """(rows, cols) of sheets :func:`tile_board` will use for a board of ``size`` drawn as ``items``."""
    aw, ah = window_size(opts)
    box = board_extent(items, size)
    return _sheets(box.height, ah, overlap), _sheets(box.width, aw, overlap)


def _sheets(length: float, span: float, overlap: float) -> int:
    """How many sheets, each showing at most ``span`` mm and overlapping by ``overlap``, cover ``length``."""
    return max(1, math.ceil((length - overlap) / (span - overlap))) if length > span else 1

