"""The big boards' true-size sheets, read as an assembler reads them: the board's outer line whole on
the sheets that carry it, and no seam through a printed word or number."""

from __future__ import annotations

import math
import re

import pytest

from terragen.render.impose import PrintOptions
from terragen.render.model import Circle, Group, Polygon, Polyline, apply, compose
from terragen.render.paper import load_paper

BOARDS = ["terrain", "terrace", "terralogical"]


def board_pages(game: str, opts: PrintOptions):
    """The true-size sheets (the overview left out) of a game's board part, as the kit makes them."""
    import importlib

    kit = importlib.import_module(f"terragen.render.kits.{game}.kit")
    if game == "terrain":
        from terragen.render.palette import load_palette

        part = kit.board_part(opts, 50.0, load_palette())
    elif game == "terrace":
        part = kit.board_part(opts, 8)
    else:
        part = kit.board_part(opts, 38.0)
    return part.doc.pages[1:]


def sheet_place(page) -> tuple[int, int, int, int]:
    """(row, column, rows, columns) from the sheet's label: "sheet B1 of B4"."""
    row, col, last_row, last_col = re.search(r"sheet ([A-Z])(\d+) of ([A-Z])(\d+)", page.label).groups()
    return ord(row) - 65, int(col) - 1, ord(last_row) - 64, int(last_col)


def window_and_strokes(page):
    """The board's window on the page (the clipped group's box) and the ink box of every line the
    board draws in it, all in page mm."""
    found: list = []

    def walk(items, m, inside):
        for it in items:
            if isinstance(it, Group):
                mm = compose(m, it.matrix)
                if it.clip and not inside:
                    xs, ys = zip(*(apply(mm, p) for p in it.clip))
                    found.append(("window", (min(xs), min(ys), max(xs), max(ys))))
                    walk(it.items, mm, True)
                elif not it.clip:  # a clipped group inside the window: a registration mark's half
                    walk(it.items, mm, inside)
            elif inside and isinstance(it, (Polygon, Polyline, Circle)) and it.style.stroke:
                pts = [apply(m, p) for p in (it.points if not isinstance(it, Circle) else
                                             ((it.cx - it.r, it.cy - it.r), (it.cx + it.r, it.cy + it.r)))]
                half = it.style.width / 2 * math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
                xs, ys = zip(*pts)
                found.append(("ink", (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)))

    walk(page.items, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), False)
    windows = [b for kind, b in found if kind == "window"]
    assert len(windows) == 1
    return windows[0], [b for kind, b in found if kind == "ink"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", BOARDS)
def test_the_boards_outer_line_is_whole_on_the_sheets_that_carry_it(game, paper):
    """Terralogical's windows began at the board's edge, on the middle of its 0.5 mm outer frame:
    the sheets printed only its inner half. On the sheets along each edge of the board, the window
    now holds every line the board draws whole (no stroke crosses an outer window edge), and the
    window lies inside the printable area (10 mm margin)."""
    opts = PrintOptions(load_paper(paper))
    for page in board_pages(game, opts):
        row, col, rows, cols = sheet_place(page)
        (x0, y0, x1, y1), inks = window_and_strokes(page)
        assert 10.0 - 1e-6 <= x0 and x1 <= page.width - 10.0 + 1e-6, page.label
        assert 10.0 - 1e-6 <= y0 and y1 <= page.height - 10.0 + 1e-6, page.label
        outer = {"left": col == 0, "top": row == 0, "right": col == cols - 1, "bottom": row == rows - 1}
        for ix0, iy0, ix1, iy1 in inks:
            crossing = {"left": ix0 < x0 - 1e-6 < ix1, "top": iy0 < y0 - 1e-6 < iy1,
                        "right": ix0 < x1 + 1e-6 < ix1, "bottom": iy0 < y1 + 1e-6 < iy1}
            cut = [edge for edge, on in outer.items() if on and crossing[edge]]
            assert not cut, (page.label, cut, (ix0, iy0, ix1, iy1), (x0, y0, x1, y1))


def board_drawing(game: str):
    """A board's drawing and nominal size, as its kit tiles it."""
    if game == "terrain":
        from terragen.render.kits.terrain.art import board_drawing as draw
        from terragen.render.palette import load_palette

        items, size = draw(5, 50.0 / math.sqrt(3), load_palette())
        return items, size
    if game == "terrace":
        from terragen.render.kits.terrace.art import board_drawing as draw

        items, side = draw(8)
    else:
        from terragen.render.kits.terralogical.kit import board_items

        items, side, _ = board_items(38.0)
    return items, (side, side)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", BOARDS)
def test_no_seam_runs_through_a_word_or_number_of_the_board(game, paper):
    """Equal shares put Terralogical's seams through track numbers 37 and 13 (and Terrace's through
    eight height numbers and square names): on the assembled board such a number is read in two
    halves printed on two sheets. A seam (where a sheet's cut edge lies on its neighbour) now moves
    within the page's spare room to pass 1 mm clear of every word; the sheets still overlap by
    exactly 10 mm, each within the page's window."""
    from terragen.render.model import Text, flatten
    from terragen.render.tiler import OVERLAP, GLUE, label_box, sheet_windows, tile_board, window_size

    opts = PrintOptions(load_paper(paper))
    items, size = board_drawing(game)
    grid = sheet_windows(size, opts, items=items)
    words = [(it.text, label_box(it, m)) for it, m in flatten(items) if isinstance(it, Text) and it.text.strip()]
    seams_x = [w.x for w in grid[0][1:]]
    seams_y = [row[0].y for row in grid[1:]]
    assert seams_x or seams_y
    for text, b in words:
        assert not any(b.x0 - 1.0 < x < b.x1 + 1.0 for x in seams_x), (text, b, seams_x)
        assert not any(b.y0 - 1.0 < y < b.y1 + 1.0 for y in seams_y), (text, b, seams_y)
    aw, ah = window_size(opts)
    for row in grid:
        for a, b in zip(row, row[1:]):
            assert abs(a.x + a.w - b.x - OVERLAP) < 1e-9
    for a, b in zip(grid, grid[1:]):
        assert abs(a[0].y + a[0].h - b[0].y - OVERLAP) < 1e-9
    assert all(w.w <= aw + 1e-9 and w.h <= ah + 1e-9 for row in grid for w in row)
    # the glue strips on the sheets underneath are exactly the 10 mm the next sheet covers
    for page in tile_board(items, size, opts, "g", "board"):
        for it, m in flatten(page.items):
            if isinstance(it, Polygon) and it.style == GLUE:
                xs, ys = zip(*it.points)
                assert min(max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx(OVERLAP)


@pytest.mark.parametrize("paper, scale", [("a4", 1.0), ("letter", 1.0), ("a4", 1.05)])
def test_a_terralogical_board_takes_the_sheets_its_size_needs(paper, scale):
    """Its ink stays on the board: half of the outer frame's line past the edge tipped a board that
    just fits two sheets across onto three (42 mm tiles on Letter: 4 sheets became 6)."""
    from terragen.render.kits.terralogical.kit import board_items
    from terragen.render.tiler import board_extent, grid_shape

    opts = PrintOptions(load_paper(paper), scale=scale)
    for tenth in range(250, 601, 4):
        items, side, _ = board_items(tenth / 10)
        box = board_extent(items, (side, side))
        assert (box.x0, box.y0, box.x1, box.y1) == pytest.approx((0, 0, side, side))
        assert grid_shape((side, side), opts, items=items) == grid_shape((side, side), opts)


def test_what_a_clip_hides_is_no_ink_to_make_room_for():
    from terragen.render.model import Style
    from terragen.render.tiler import board_extent

    line = Polygon(((-3, -3), (13, -3), (13, 13), (-3, 13)), Style(stroke="#000000", width=1.0))
    assert board_extent([line], (10, 10)).x0 == pytest.approx(-3.5)
    clipped = Group([line], clip=((0, 0), (10, 0), (10, 10), (0, 10)))
    box = board_extent([clipped], (10, 10))
    assert (box.x0, box.y0, box.x1, box.y1) == pytest.approx((0, 0, 10, 10))
    moved = Group([clipped], matrix=(1, 0, 0, 1, 5, 0))
    assert board_extent([moved], (10, 10)).x1 == pytest.approx(15)


def _marks(items, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
    """(centre, drawn part's clip as a shapely polygon) of every registration mark on a page."""
    from shapely.geometry import Polygon as SPolygon

    out = []
    for it in items:
        if isinstance(it, Group):
            mm = compose(m, it.matrix)
            targets = [g for g in it.items if isinstance(g, Group)
                       and any(isinstance(c, Circle) and c.r == 2.5 for c in g.items)]
            if it.clip and targets:
                clip = SPolygon([apply(mm, p) for p in it.clip])
                for g in targets:
                    ring = next(c for c in g.items if isinstance(c, Circle))
                    out.append((apply(mm, (ring.cx, ring.cy)), clip))
            else:
                out.extend(_marks(it.items, mm))
    return out


def _terrace(size: int):
    from terragen.render.kits.terrace.art import board_drawing as draw

    items, side = draw(size)
    return items, (side, side)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("board", BOARDS + ["terrace 6", "terrace 12"])
def test_registration_marks_keep_clear_of_the_boards_words_and_symbols(board, paper):
    """A mark sat on Terrace's centre ring and a corner number (8 x 8 on A4), 17 on a 12 x 12 board
    covered corner numbers: the drawn half of each mark (circle and arms, 4 mm) now touches no word,
    number or round symbol of the board."""
    from shapely.geometry import Point, box

    from terragen.render.model import Text, flatten
    from terragen.render.tiler import label_box, tile_board

    items, size = _terrace(int(board.split()[1])) if " " in board else board_drawing(board)
    seen = 0
    for page in tile_board(items, size, PrintOptions(load_paper(paper)), "g", "board"):
        things = []
        for it, m in flatten(page.items):
            if isinstance(it, Text) and it.text.strip():
                b = label_box(it, m)
                things.append(box(b.x0, b.y0, b.x1, b.y1))
            elif isinstance(it, Circle) and it.r != 2.5:
                cx, cy = apply(m, (it.cx, it.cy))
                things.append(Point(cx, cy).buffer(it.r + it.style.width / 2))
        for centre, clip in _marks(page.items):
            drawn = Point(centre).buffer(4.0).intersection(clip)
            assert not any(drawn.intersects(t) for t in things), (page.label, centre)
            seen += 1
    assert seen >= 12


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [6, 8, 12])
def test_no_seam_runs_through_terraces_centre_ring(size, paper):
    """On a 6 x 6 board on Letter all four sheets met on the centre ring (and an 8 x 8's seam ran
    through it on both papers), though the page's spare room let the seam pass beside it."""
    from terragen.render.model import flatten
    from terragen.render.tiler import sheet_windows

    items, (side, _) = _terrace(size)
    ring, = [it for it, _ in flatten(items) if isinstance(it, Circle)]
    reach = ring.r + ring.style.width / 2
    grid = sheet_windows((side, side), PrintOptions(load_paper(paper)), items=items)
    assert len(grid) > 1 or len(grid[0]) > 1
    assert not any(abs(w.x - ring.cx) < reach for w in grid[0][1:])
    assert not any(abs(row[0].y - ring.cy) < reach for row in grid[1:])
