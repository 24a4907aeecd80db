"""Geometry of the drawing model before any back end: sizes, shared cuts, duplex mirror, bounds."""

from __future__ import annotations

import math

import pytest

from terragen.errors import SpecError
from terragen.render.impose import PrintOptions, Tile, gutter_fold, impose, mirror_point, parse_offset, shared_cuts
from terragen.render.model import (
    Circle, Group, Polygon, Polyline, Text, apply, compose, flatten, page_points, rotate, scale, translate,
)
from terragen.render.paper import load_paper
from terragen.render.shapes import Shape


def plain_tiles(n: int) -> list[Tile]:
    return [Tile([Text(0, 0, str(i), 5.0)], "#888888", [Text(0, 0, f"b{i}", 5.0)], "#444444", name=str(i)) for i in range(n)]


def test_matrices_compose_like_nested_groups():
    m = compose(translate(10, 5), scale(2))
    assert apply(m, (1, 1)) == (12, 7)
    x, y = apply(rotate(90), (1, 0))  # counter-clockwise on screen: east turns to north (y up = negative)
    assert x == pytest.approx(0, abs=1e-12) and y == pytest.approx(-1)


def test_hex_tile_is_exactly_its_size_across_flats_and_corners():
    s = Shape("hex", 50.0)
    pts = s.outline(100.0, 100.0)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    assert max(xs) - min(xs) == pytest.approx(50.0, abs=0.01)
    assert max(ys) - min(ys) == pytest.approx(100.0 / math.sqrt(3), abs=0.01)
    # every side equals the circumradius
    for i in range(6):
        a, b = pts[i], pts[(i + 1) % 6]
        assert math.dist(a, b) == pytest.approx(50.0 / math.sqrt(3), abs=1e-9)


def test_placed_tile_clip_is_true_size_on_the_page(a4):
    imp = impose(Shape("hex", 50.0), plain_tiles(1), a4, "g", "c")
    groups = [(g, m) for g, m in flatten_groups(imp.pages[0].items) if g.clip]
    assert len(groups) == 1
    g, m = groups[0]
    pts = [apply(m, p) for p in g.clip]
    assert max(p[0] for p in pts) - min(p[0] for p in pts) == pytest.approx(50.0, abs=0.01)


def flatten_groups(items, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
    out = []
    for it in items:
        if isinstance(it, Group):
            mm = compose(m, it.matrix)
            out.append((it, mm))
            out.extend(flatten_groups(it.items, mm))
    return out


def test_honeycomb_neighbours_share_cut_lines():
    s = Shape("hex", 50.0)
    paper = load_paper("a4")
    centres = s.pack(paper.content, paper.bleed)
    assert len(centres) == 15  # 5 rows of 3 on A4 at 50 mm
    cuts = shared_cuts(s, centres)
    assert len(cuts) < 6 * len(centres)
    # every tile edge is in the cut set exactly once, and some edges serve two tiles
    keys = {}
    for c in centres:
        for a, b in s.edges(*c):
            k = tuple(sorted([(round(a[0], 2), round(a[1], 2)), (round(b[0], 2), round(b[1], 2))]))
            keys[k] = keys.get(k, 0) + 1
    assert len(keys) == len(cuts)
    assert max(keys.values()) == 2
    shared = sum(1 for v in keys.values() if v == 2)
    assert shared >= len(centres)  # a honeycomb block shares well over one edge per tile


def test_outlines_flag_draws_each_shared_cut_once(a4):
    opts = PrintOptions(a4.paper, outlines=True)
    imp = impose(Shape("hex", 50.0), plain_tiles(15), opts, "g", "c")
    cut_lines = [it for it, _ in flatten(imp.pages[0].items)
                 if isinstance(it, Polyline) and len(it.points) == 2 and it.style.width == 0.15 and it.style.stroke == "#000000"
                 and math.dist(*it.points) == pytest.approx(50 / math.sqrt(3), abs=1e-6)]
    assert len(cut_lines) == len(imp.cuts[0])


def cut_lines(page, length):
    return [it for it, _ in flatten(page.items)
            if isinstance(it, Polyline) and len(it.points) == 2 and it.style.width == 0.15 and it.style.stroke == "#000000"
            and math.dist(*it.points) == pytest.approx(length, abs=1e-6)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_hex_sheets_get_a_cut_line_on_every_edge_by_default(paper):
    """A honeycomb has no straight run for crop ticks to mark: every hex edge is drawn, once."""
    opts = PrintOptions(load_paper(paper))
    s = Shape("hex", 50.0)
    for imp, halves in ((impose(s, plain_tiles(15), opts, "g", "c", duplex=True), 1),
                        (gutter_fold(s, plain_tiles(15), opts, "g", "c"), 2)):
        lines = cut_lines(imp.pages[0], s.circumradius)
        assert len(imp.cuts[0]) > 20 and len(lines) == halves * len(imp.cuts[0])  # gutter fold: fronts and backs
        inner = [it for it in lines if sum(1 for p in imp.fronts if p.page == 0
                                           and math.dist(((it.points[0][0] + it.points[1][0]) / 2, (it.points[0][1] + it.points[1][1]) / 2),
                                                         (p.x, p.y)) < s.size / 2 + 1e-6) == 2]
        assert inner, "edges shared by two pieces get a line too"
    # squares cut in straight runs from tick to tick: no lines unless asked
    sq = impose(Shape("square", 40.0), plain_tiles(15), opts, "g", "c")
    assert not cut_lines(sq.pages[0], 40.0)
    assert cut_lines(impose(Shape("square", 40.0), plain_tiles(15), PrintOptions(opts.paper, outlines=True), "g", "c").pages[0], 40.0)
    assert not cut_lines(impose(s, plain_tiles(15), PrintOptions(opts.paper, outlines=False), "g", "c").pages[0], s.circumradius)


def test_round_tokens_get_a_cut_circle_and_ticks_on_the_cut_by_default(a4):
    """A token's bleed is its face's colour, so without a drawn circle nothing showed the cut (users cut
    6 mm too wide, along the bleed's edge), and the ticks ran along its centre lines."""
    s = Shape("circle", 20.0)
    for outlines, circles in ((None, True), (True, True), (False, False)):
        imp = impose(s, plain_tiles(12), PrintOptions(a4.paper, outlines=outlines), "g", "c")
        page = imp.pages[0]
        cuts = [it for it, _ in flatten(page.items) if isinstance(it, Circle) and it.style.stroke == "#000000"]
        placed = [(p.x, p.y) for p in imp.fronts if p.page == 0]
        assert len(cuts) == (len(placed) if circles else 0)
        assert all(c.r == pytest.approx(10.0) for c in cuts)
        ticks = [it for it, _ in flatten(page.items) if isinstance(it, Polyline) and it.style.stroke == "#000000"
                 and it.points[0][1] < a4.paper.content.y1]  # not the footer's 100 mm bar
        assert ticks
        for t in ticks:  # each lies on a side of a token's square (x or y = centre +- radius), outside its bleed
            (x0, y0), (x1, y1) = t.points[0], t.points[-1]
            on_side = any((x0 == pytest.approx(x1) and min(abs(x0 - (cx + d)) for d in (-10, 10)) < 1e-6)
                          or (y0 == pytest.approx(y1) and min(abs(y0 - (cy + d)) for d in (-10, 10)) < 1e-6)
                          for cx, cy in placed)
            assert on_side, t.points
            assert all(math.dist(p, c) > 10.0 + a4.paper.bleed for p in t.points for c in placed)


def test_ticks_stay_off_the_pieces(a4):
    from shapely.geometry import LineString
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    s = Shape("hex", 50.0)
    imp = impose(s, plain_tiles(15), PrintOptions(a4.paper, outlines=False), "g", "c")
    pieces = unary_union([SPolygon(s.outline(p.x, p.y)).buffer(a4.paper.bleed, join_style="mitre") for p in imp.fronts])
    ticks = [it for it, _ in flatten(imp.pages[0].items) if isinstance(it, Polyline) and it.style.width == 0.15]
    assert ticks, "crop ticks expected around the block"
    for t in ticks:
        line = LineString(t.points)
        assert line.length <= 8.0
        # ticks of the calibration bar are not crop ticks; all others must not touch any piece or its bleed
        if t.points[0][1] < a4.paper.content.y1:
            assert line.intersection(pieces).length < 1e-6


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (0.7, -1.2)])
def test_duplex_backs_land_on_their_fronts(a4, flip, offset):
    opts = PrintOptions(a4.paper, flip=flip, back_offset=offset)
    imp = impose(Shape("hex", 50.0), plain_tiles(20), opts, "g", "c", duplex=True)
    assert len(imp.pages) == 4
    fronts = {p.tile: p for p in imp.fronts}
    for b in imp.backs:
        f = fronts[b.tile]
        # turning the sheet over its flip edge takes the back's position to the front's, less the correction
        x, y = b.x, b.y
        if flip == "long":
            x = a4.paper.width - x
        else:
            y = a4.paper.height - y
        assert (x + offset[0], y + offset[1]) == pytest.approx((f.x, f.y), abs=1e-9)
        assert b.page == f.page
    assert mirror_point((10.0, 20.0), a4.paper, "long", (0, 0)) == (200.0, 20.0)


def test_gutter_fold_mirrors_backs_about_the_fold(a4):
    imp = gutter_fold(Shape("hex", 50.0), plain_tiles(7), a4, "g", "c")
    (_, mid), (_, mid2) = imp.fold
    assert mid == mid2
    c = a4.paper.content
    assert mid == pytest.approx((c.y0 + c.y1) / 2)  # the middle of the content, not of the sheet
    folds = [it for it, _ in flatten(imp.pages[0].items) if isinstance(it, Polyline) and it.style.dash]
    assert [f.points for f in folds] == [imp.fold]
    fronts = {p.tile: p for p in imp.fronts}
    for b in imp.backs:
        f = fronts[b.tile]
        assert b.x == pytest.approx(f.x) and b.y == pytest.approx(2 * mid - f.y)
        assert f.y + Shape("hex", 50.0).circumradius + a4.paper.bleed < mid < b.y - Shape("hex", 50.0).circumradius
    assert len(imp.pages) == 2


def test_square_tiles_share_cuts_and_tokens_do_not():
    sq = Shape("square", 30.0)
    paper = load_paper("letter")
    centres = sq.pack(paper.content, paper.bleed)
    assert len(centres) == 6 * 8  # 189.5 x 240 mm of room on Letter
    assert len(shared_cuts(sq, centres)) == 6 * 9 + 7 * 8
    tok = Shape("circle", 20.0)
    cs = tok.pack(paper.content, paper.bleed)
    for a in cs:
        for b in cs:
            if a != b:
                assert math.dist(a, b) >= 20.0 + 2 * paper.bleed


def test_print_options_reject_bad_values(a4):
    with pytest.raises(SpecError):
        PrintOptions(a4.paper, flip="sideways")
    with pytest.raises(SpecError):
        PrintOptions(a4.paper, scale=3.0)
    with pytest.raises(SpecError):
        parse_offset("1;2")
    with pytest.raises(SpecError):
        parse_offset("nan,1")
    assert parse_offset("0.5,-0.3") == (0.5, -0.3)


def test_scale_correction_grows_the_page_about_its_centre(a4):
    opts = PrintOptions(a4.paper, scale=1.02)
    imp = impose(Shape("hex", 50.0), plain_tiles(1), opts, "g", "c")
    top = imp.pages[0].items[0]
    assert isinstance(top, Group)
    cx, cy = a4.paper.width / 2, a4.paper.height / 2
    assert apply(top.matrix, (cx, cy)) == pytest.approx((cx, cy))
    assert apply(top.matrix, (cx + 100, cy))[0] - cx == pytest.approx(102.0)


def test_nothing_outside_the_printable_area(kit_a4, kit_letter):
    for kit in (kit_a4, kit_letter):
        for name, doc in kit.items():
            for k, page in enumerate(doc.pages, 1):
                box = page_printable(page)
                for x, y in visible_points(page.items):
                    assert box[0] - 1e-3 <= x <= box[2] + 1e-3 and box[1] - 1e-3 <= y <= box[3] + 1e-3, (name, k, x, y)


def page_printable(page):
    m = 10.0
    return (m, m, page.width - m, page.height - m)


def visible_points(items, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
    """Points that can show: a clipped group contributes its clip polygon instead of its children."""
    out = []
    for it in items:
        if isinstance(it, Group):
            mm = compose(m, it.matrix)
            if it.clip:
                out.extend(apply(mm, p) for p in it.clip)
            else:
                out.extend(visible_points(it.items, mm))
        elif isinstance(it, (Polygon, Polyline, Circle)):
            out.extend(page_points(it, m))
        elif isinstance(it, Text):
            from terragen.render.text import text_width

            x, y = apply(m, (it.x, it.y))
            if it.angle:
                out.append((x, y))
                continue
            w = text_width(it.text, it.size * abs(m[0]), it.bold)
            x0 = x - (w / 2 if it.anchor == "middle" else w if it.anchor == "end" else 0)
            out.extend([(x0, y), (x0 + w, y), (x, y - it.size * 0.75)])
    return out


@pytest.mark.parametrize("flip", ["long", "short"])
def test_backs_stay_in_the_printable_area_with_any_flip_and_offset(letter, flip):
    opts = PrintOptions(letter.paper, flip=flip, back_offset=(-9.0, 9.5))
    imp = impose(Shape("hex", 50.0), plain_tiles(30), opts, "g", "c", duplex=True)
    c = letter.paper.content
    for page in imp.pages:
        for x, y in visible_points(page.items):
            assert page_printable(page)[0] - 1e-3 <= x <= page_printable(page)[2] + 1e-3
        assert c.y0 - 1e-6 <= page.bleed.y0 and page.bleed.y1 <= c.y1 + 1e-6  # never on the footer


def test_crop_ticks_stay_on_the_printable_sheet_above_the_footer():
    """The engine trims every tick to the printable area above the footer, for any kit."""
    from shapely.geometry import LineString

    from terragen.render.impose import mark_area
    from terragen.render.marks import MARK
    from terragen.render.model import Group, Polyline
    from terragen.render.paper import load_paper
    from terragen.render.shapes import Shape

    def marks(items):
        for it in items:
            if isinstance(it, Group):
                yield from marks(it.items)
            elif isinstance(it, Polyline) and it.style == MARK:
                yield it

    for paper in ("a4", "letter"):
        opts = PrintOptions(load_paper(paper), 1.0, False, "long", (0.0, 0.0))
        allowed = mark_area(opts.paper).buffer(1e-6)
        for shape in (Shape("hex", 55.0), Shape("square", 60.0), Shape("circle", 45.0)):
            tiles = [Tile([], "#888888", [], "#444444", str(i)) for i in range(20)]
            for imp in (impose(shape, tiles, opts, "t", "test", duplex=True), gutter_fold(shape, tiles, opts, "t", "test")):
                # the calibration bar's mm ticks live wholly inside the footer strip; every other
                # mark is a crop tick, and no crop tick may reach into that strip
                foot = opts.paper.content.y1 + 0.5
                ticks = [m for page in imp.pages for m in marks(page.items) if min(p[1] for p in m.points) < foot]
                assert ticks
                assert all(allowed.contains(LineString(m.points)) for m in ticks)


@pytest.mark.parametrize("radius", [1, 3, 4, 5, 8])
def test_a_corner_piece_meets_the_boards_corner_with_a_side_not_a_point(radius):
    """The rulebook's set-up figure: a piece's corner must not touch the board's corner. As drawn
    (pointy-top pieces, corners along the neighbour directions), the part of a corner piece that
    reaches furthest towards its board corner is a whole side (two vertices tied), never a vertex."""
    from terragen.grids import hex as hx
    from terragen.render.shapes import hex_points

    for h in hx.corners(radius):
        cx, cy = hx.to_pixel(h, 10.0)
        norm = math.hypot(cx, cy)
        reach = sorted(((x * cx + y * cy) / norm for x, y in hex_points(10.0, cx, cy)), reverse=True)
        assert reach[0] == pytest.approx(reach[1]) and reach[1] - reach[2] > 1.0, (h, reach)
        assert reach[0] == pytest.approx(norm + 10.0 * math.sqrt(3) / 2)  # the side's midpoint, not a vertex
