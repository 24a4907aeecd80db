"""What a print shop or a home printer meets in the PDF: fonts, print-dialog defaults, boxes, margins."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import pytest

from terragen.errors import SpecError
from terragen.render.impose import PrintOptions, alignment_test, impose
from terragen.render.model import Box, Circle, Document, Group, Page, Polygon, Text, apply, compose, flatten
from terragen.render.paper import load_paper
from terragen.render.pdf import document_pdf
from terragen.render.shapes import Shape

from .test_backends import has_calibration_bar
from .test_geometry import page_printable, plain_tiles, visible_points

HAS_PDFFONTS = shutil.which("pdffonts") is not None


def text_doc(duplex: str | None = None) -> Document:
    page = Page(100.0, 100.0, items=[Text(10, 20, "Regular text · 5B2 ×", 4.0), Text(10, 40, "Bold text", 4.0, bold=True)])
    return Document("t", [page], duplex=duplex)


@pytest.mark.skipif(not HAS_PDFFONTS, reason="needs poppler's pdffonts")
def test_every_font_is_embedded(tmp_path: Path):
    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(document_pdf(text_doc()))
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()[2:]
    assert len(rows) == 2  # regular and bold, nothing else (no stray Helvetica)
    for row in rows:
        name, emb = row.split()[0], row.split()[-5]
        assert emb == "yes", row
        assert "Helvetica" not in name and "DejaVu" in name


def test_fonts_ship_inside_the_package_with_their_licence():
    from importlib import resources

    from terragen.render.fonts import FILES

    folder = resources.files("terragen").joinpath("data", "fonts")
    for filename in FILES.values():
        assert folder.joinpath(filename).is_file()
    assert "Bitstream" in folder.joinpath("LICENSE-DejaVu.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("duplex, name", [("long", b"/DuplexFlipLongEdge"), ("short", b"/DuplexFlipShortEdge"),
                                          ("simplex", b"/Simplex"), (None, None)])
def test_viewer_preferences_ask_for_actual_size_and_the_flip(duplex, name):
    data = document_pdf(text_doc(duplex))
    assert b"/PrintScaling /None" in data
    if name:
        assert b"/Duplex " + name in data
    else:
        assert b"/Duplex" not in data


@pytest.mark.parametrize("flip", ["long", "short"])
def test_kit_files_carry_the_flip_they_were_made_for(flip):
    from terragen.render.kits.terraflip.kit import terraflip_kit
    from terragen.terraflip.model import default_tileset

    kit = {p.name: p.doc for p in terraflip_kit(PrintOptions(load_paper("a4"), flip=flip), default_tileset())}
    assert kit["tiles"].duplex == kit["alignment-test"].duplex == flip
    assert kit["tiles-gutterfold"].duplex == "simplex"
    want = b"/DuplexFlipLongEdge" if flip == "long" else b"/DuplexFlipShortEdge"
    assert want in document_pdf(kit["tiles"])


def drawn_boxes(page: Page):
    """(box of every piece's art, box of every filled area) on a page, in page mm."""
    art, filled = [], []

    def walk(items, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
        for it in items:
            if isinstance(it, Group):
                mm = compose(m, it.matrix)
                if it.clip:
                    art.extend(apply(mm, p) for p in it.clip)
                else:
                    walk(it.items, mm)
            elif isinstance(it, Polygon) and it.style.fill:
                filled.extend(apply(m, p) for p in it.points)

    walk(page.items)
    return art, filled


def inside(points, box: Box) -> bool:
    return all(box.x0 - 1e-6 <= x <= box.x1 + 1e-6 and box.y0 - 1e-6 <= y <= box.y1 + 1e-6 for x, y in points)


@pytest.fixture(scope="module", params=[1.0, 1.04])
def sheets(request):
    """Piece sheets of the hex kits (Terrain, TerraFlip) on both papers, at a print scale."""
    from terragen.render.kits.terraflip.kit import terraflip_kit
    from terragen.render.kits.terrain.kit import terrain_kit
    from terragen.terraflip.model import default_tileset

    out = []
    for paper in ("a4", "letter"):
        opts = PrintOptions(load_paper(paper), scale=request.param)
        for part in terrain_kit(opts) + terraflip_kit(opts, default_tileset()):
            if part.name in ("tiles", "tiles-gutterfold", "tokens"):
                out.append((paper, part.doc.title, part.doc))
    return out


def test_art_inside_the_trim_box_and_bleed_inside_the_bleed_box(sheets):
    """Every piece (the elevation gauge and the TerraFlip tower included) lies in the TrimBox and every
    painted bleed in the BleedBox, whatever the print scale."""
    for paper, title, doc in sheets:
        for k, page in enumerate(doc.pages, 1):
            art, filled = drawn_boxes(page)
            assert page.trim and page.bleed
            assert inside(art, page.trim), (paper, title, k)
            assert inside(filled, page.bleed), (paper, title, k)


def test_tokens_page_trim_box_holds_the_gauge(sheets):
    for paper, title, doc in sheets:
        if "gauge" in title:
            page = doc.pages[0]
            # the gauge's card: a white, outlined rectangle, cut out like the tokens
            cards = [(it, m) for it, m in flatten(page.items)
                     if isinstance(it, Polygon) and it.style.fill == "#ffffff" and it.style.stroke and len(it.points) == 4]
            assert cards
            for it, m in cards:
                assert inside([apply(m, p) for p in it.points], page.trim), (paper, title)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("scale", [0.9, 1.0, 1.05, 1.1])
def test_the_tokens_and_the_gauge_share_one_page(paper, scale):
    """At --scale 1.1 the columns beside the gauge dropped from 5 to 4 and two flags went on a page
    of their own: the tokens now fill the page round the gauge, none of them (bleed and cut ticks
    included) on its card."""
    from terragen.render.palette import load_palette
    from terragen.render.kits.terrain.kit import TOKEN_D, tokens_part

    opts = PrintOptions(load_paper(paper), scale=scale)
    doc = tokens_part(opts, load_palette()).doc
    assert len(doc.pages) == 1
    placed = flatten(doc.pages[0].items)
    cards = [[apply(m, q) for q in it.points] for it, m in placed
             if isinstance(it, Polygon) and it.style.fill == "#ffffff" and it.style.stroke and len(it.points) == 4]
    assert len(cards) == 1
    xs, ys = zip(*cards[0])
    k = math.sqrt(abs(placed[0][1][0] * placed[0][1][3]))  # the print-scale correction
    reach = (TOKEN_D / 2 + opts.paper.bleed + 2.5) * k  # a token's bleed and its cut ticks
    tokens = [apply(m, (0.0, 0.0)) for m in _clipped_to_a_circle(doc.pages[0].items)]
    assert len(tokens) == 30
    for x, y in tokens:
        assert x + reach <= min(xs) or x - reach >= max(xs) or y - reach >= max(ys) or y + reach <= min(ys)


def _clipped_to_a_circle(items, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
    """The matrices of the groups clipped to a round token's outline (a 72-gon): one per token."""
    out = []
    for it in items:
        if isinstance(it, Group):
            inner = compose(m, it.matrix)
            out.extend([inner] if it.clip and len(it.clip) == 72 else _clipped_to_a_circle(it.items, inner))
    return out


def _kit_maker(kit):
    from terragen.render.kits.terrace.kit import terrace_kit
    from terragen.render.kits.terraflip.kit import load_tileset, terraflip_kit
    from terragen.render.kits.terralogical.kit import terralogical_kit
    from terragen.render.kits.terrain.kit import terrain_kit

    if kit == "terraflip":
        tileset, source = load_tileset(None, None, 0)
        return lambda opts: terraflip_kit(opts, tileset, source=source)
    return {"terrain": terrain_kit, "terrace": terrace_kit, "terralogical": terralogical_kit,
            "terrain-nets": lambda opts: terrain_kit(opts, nets=True)}[kit]


@pytest.mark.parametrize("kit, scale", [(k, s) for k in ("terrain", "terrace", "terralogical", "terraflip")
                                        for s in (0.9, 1.1)] + [("terrain-nets", 1.05)])
def test_scale_correction_never_pushes_anything_into_the_printer_margin(kit, scale):
    """A page grown by --scale is laid out in a smaller area first, so it still ends 10 mm from the
    edge, text included, at both ends of the range --scale accepts (at 1.1 the Terrace set-ups'
    legend ran 9 mm past the margin; at 1.2 TerraFlip's table ran off the page)."""
    make = _kit_maker(kit)
    for paper in ("a4", "letter"):
        opts = PrintOptions(load_paper(paper), scale=scale)
        for part in make(opts):
            for k, page in enumerate(part.doc.pages, 1):
                box = page_printable(page)
                for x, y in visible_points(page.items):
                    assert box[0] - 1e-3 <= x <= box[2] + 1e-3 and box[1] - 1e-3 <= y <= box[3] + 1e-3, (paper, part.name, k, x, y)


@pytest.mark.parametrize("scale", [0.89, 1.11, 1.5])
def test_scale_outside_the_checked_range_is_refused(scale):
    with pytest.raises(SpecError, match=r"--scale must be 0\.9–1\.1 \(got "):
        PrintOptions(load_paper("a4"), scale=scale)


def test_nets_too_big_for_a_scaled_page_name_the_scale():
    with pytest.raises(SpecError, match=r"does not fit A4 paper at --scale 1\.1; use a smaller --tile-size or --scale"):
        _kit_maker("terrain-nets")(PrintOptions(load_paper("a4"), scale=1.1))


def test_short_flip_backs_use_the_whole_sheet_height():
    """Turned over the short edge, the back's label sits at its head, where the front's footer lands:
    Letter takes 15 pieces of 50 mm a sheet either way."""
    letter = load_paper("letter")
    for flip in ("long", "short"):
        imp = impose(Shape("hex", 50.0), plain_tiles(30), PrintOptions(letter, flip=flip), "g", "c", duplex=True)
        assert sum(1 for p in imp.fronts if p.page == 0) == 15, flip
        back = imp.pages[1]
        assert has_calibration_bar(back)
        bars = [it for it, _ in flatten(back.items) if isinstance(it, Text) and it.text.startswith("100 mm")]
        foot_top = (bars[0].y < letter.height / 2) if flip == "short" else (bars[0].y > letter.height / 2)
        assert foot_top, flip
        # the backs never reach the strip the label and bar take
        pr = letter.printable
        strip = (pr.y0, pr.y0 + 13.0) if flip == "short" else (pr.y1 - 13.0, pr.y1)
        assert back.bleed.y1 <= strip[0] + 1e-6 or back.bleed.y0 >= strip[1] - 1e-6


def test_alignment_scales_are_numbered():
    pages = alignment_test(PrintOptions(load_paper("a4")), "g")
    numbers = [it.text for it, _ in flatten(pages[0].items)
               if isinstance(it, Text) and it.text in ("-4", "-2", "0", "+2", "+4")]
    for n in ("-4", "-2", "0", "+2", "+4"):
        assert numbers.count(n) == 2 * 5  # both scales of all five targets


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("seen", [(0.0, 0.0), (-4.5, 3.0), (4.0, -4.5), (-5.0, -5.0)])
def test_the_back_crosses_arms_run_across_the_front_scales(flip, seen):
    """Arms of 6 mm stopped short of the scales (7-9 mm out): an offset was read along an imagined
    line. Seen through the sheet, each back cross's arms run across the ticks of both scales of its
    target for any offset the scales show (here a printer that lands the backs ``seen`` mm off)."""
    from terragen.render.model import Circle, Polyline

    # a back drawn with back_offset -e is seen e off its target: a printer's error of e, uncorrected
    opts = PrintOptions(load_paper("a4"), flip=flip, back_offset=(-seen[0], -seen[1]))
    front, back = alignment_test(opts, "g")
    width, height = opts.paper.width, opts.paper.height

    def through(x: float, y: float) -> tuple[float, float]:  # a point of the back, seen from the front
        return (width - x, y) if flip == "long" else (x, height - y)

    arms = [[through(*apply(m, p)) for p in it.points] for it, m in flatten(back.items)
            if isinstance(it, Polyline) and it.style.stroke == "#d62728"]
    centres = [apply(m, (it.cx, it.cy)) for it, m in flatten(front.items) if isinstance(it, Circle)]
    assert len(arms) == 2 * len(centres) == 10
    for (x0, y0), (x1, y1) in arms:
        cx, cy = min(centres, key=lambda c: math.dist(c, ((x0 + x1) / 2, (y0 + y1) / 2)))
        if abs(y0 - y1) < 1e-9:  # across: it must cross the scale right of the target, ticks 7-9 mm out
            assert abs(y0 - (cy + seen[1])) < 1e-6 and min(x0, x1) <= cx + 7.0 and max(x0, x1) >= cx + 9.0
        else:  # down: the scale below the target
            assert abs(x0 - (cx + seen[0])) < 1e-6 and min(y0, y1) <= cy + 7.0 and max(y0, y1) >= cy + 9.0


def clipped_marks(items, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
    """(clip polygon on the page, number of registration circles inside) for every clipped group
    holding registration circles directly or in unclipped groups below it."""
    from terragen.render.model import Circle, Group

    out = []
    for it in items:
        if isinstance(it, Group):
            mm = compose(m, it.matrix)
            if it.clip:
                n = sum(1 for sub, _ in flatten(it.items) if isinstance(sub, Circle) and sub.r == 2.5)
                inner = clipped_marks(it.items, mm)
                if n and not inner:
                    out.append(([apply(mm, p) for p in it.clip], n))
                out.extend(inner)
            else:
                out.extend(clipped_marks(it.items, mm))
    return out


def glue_and_trim(page):
    from terragen.render.model import Circle, Polyline
    from terragen.render.tiler import GLUE, TRIM

    flat = flatten(page.items)
    glue = [[apply(m, p) for p in it.points] for it, m in flat if isinstance(it, Polygon) and it.style == GLUE]
    trims = [[apply(m, p) for p in it.points] for it, m in flat if isinstance(it, Polyline) and it.style == TRIM]
    crosses = [apply(m, (it.cx, it.cy)) for it, m in flat if isinstance(it, Circle) and it.r == 2.5]
    return glue, trims, crosses


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_glue_strip_and_crosses_on_the_sheet_underneath_trim_line_on_the_sheet_on_top(paper):
    """Sheets go on top of their left and upper neighbours: the glue strip and the crosses are on
    the sheet underneath, exactly where the later sheet covers it; the later sheet has a trim line."""
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    from terragen.render.tiler import grid_shape, overlaps, tile_board

    opts = PrintOptions(load_paper(paper))
    size = (571.6, 500.0)  # the Terrain board at 50 mm
    rows, cols = grid_shape(size, opts)
    assert rows > 1 and cols > 1
    ox, oy = overlaps(size, opts)
    pages = tile_board([], size, opts, "g", "board")
    for k, page in enumerate(pages):
        r, c = divmod(k, cols)
        t = page.trim  # the sheet's window on the page
        glue, trims, crosses = glue_and_trim(page)
        # the part of this sheet that the sheets to the right and below will cover
        covered = []
        if c < cols - 1:
            covered.append(SPolygon([(t.x1 - ox, t.y0), (t.x1, t.y0), (t.x1, t.y1), (t.x1 - ox, t.y1)]))
        if r < rows - 1:
            covered.append(SPolygon([(t.x0, t.y1 - oy), (t.x1, t.y1 - oy), (t.x1, t.y1), (t.x0, t.y1)]))
        if covered:
            strip = unary_union([SPolygon(g) for g in glue])
            assert strip.symmetric_difference(unary_union(covered)).area < 1e-6, (paper, k)
            seams = ([t.x1 - ox] if c < cols - 1 else []), ([t.y1 - oy] if r < rows - 1 else [])
            assert crosses and all(any(abs(x - s) < 1e-6 for s in seams[0]) or any(abs(y - s) < 1e-6 for s in seams[1])
                                   for x, y in crosses), (paper, k)
            # never two marks on one seam within 10 mm (Letter's had pairs 1 mm apart)
            for a in range(len(crosses)):
                for b in range(a):
                    assert math.dist(crosses[a], crosses[b]) >= 10.0, (paper, k, crosses[a], crosses[b])
            # each mark shows only where the glue goes: the half on the visible side is clipped away
            for clip, n in clipped_marks(page.items):
                assert n and SPolygon(clip).difference(strip.buffer(1e-6)).area < 1e-6, (paper, k)
            assert sum(n for _, n in clipped_marks(page.items)) == len(crosses)
        else:
            assert not glue and not crosses  # the last sheet goes on top of everything
        # trim lines exactly along the edges that lie on an earlier sheet, nowhere else
        want = ([[(t.x0, t.y0), (t.x0, t.y1)]] if c > 0 else []) + ([[(t.x0, t.y0), (t.x1, t.y0)]] if r > 0 else [])
        flat = lambda lines: [round(v, 6) for line in sorted(lines) for p in line for v in p]  # noqa: E731
        assert flat(trims) == flat(want), (paper, k)


def test_overview_pages_state_the_real_overlaps():
    from terragen.render.kits.terrain.kit import board_part
    from terragen.render.kits.terrain.art import board_drawing
    from terragen.render.palette import load_palette
    from terragen.render.tiler import overlaps

    for paper in ("a4", "letter"):
        opts = PrintOptions(load_paper(paper))
        pal = load_palette()
        _, (bw, bh) = board_drawing(5, 50.0 / 3 ** 0.5, pal)
        ox, oy = overlaps((bw, bh), opts)
        words = " ".join(it.text for it, _ in flatten(board_part(opts, 50.0, pal).doc.pages[0].items) if isinstance(it, Text))
        assert f"{ox:.0f} mm side to side" in words and f"{oy:.0f} mm top to bottom" in words


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(571.6, 500.0), (431.8, 431.8), (330.0, 470.0), (700.0, 150.0), (150.0, 120.0)])
def test_board_sheets_are_equal_shares_that_overlap_by_the_least_overlap_only(paper, size):
    """Windows as large as the page spread over the board overlapped by up to 169 mm (Terralogical
    on A4): ink printed twice and glue strips half a sheet wide. Each sheet now shows an equal share
    of the board, neighbours sharing exactly OVERLAP mm, the shares still covering all of it and
    each within the page's window."""
    from terragen.render.tiler import OVERLAP, grid_shape, overlaps, sheet_windows, tile_board, window_size

    opts = PrintOptions(load_paper(paper))
    rows, cols = grid_shape(size, opts)
    wins = [w for row in sheet_windows(size, opts) for w in row]
    aw, ah = window_size(opts)
    assert len({(round(w.w, 6), round(w.h, 6)) for w in wins}) == 1 and wins[0].w <= aw + 1e-9 and wins[0].h <= ah + 1e-9
    ox, oy = overlaps(size, opts)
    assert (ox is None) == (cols == 1) and (oy is None) == (rows == 1)
    for o in (ox, oy):
        assert o is None or abs(o - OVERLAP) < 1e-9
    if cols > 1:
        assert abs(wins[0].x) < 1e-9 and abs(wins[cols - 1].x + wins[0].w - size[0]) < 1e-6
    if rows > 1:
        assert abs(wins[0].y) < 1e-9 and abs(wins[-1].y + wins[0].h - size[1]) < 1e-6
    for page, win in zip(tile_board([], size, opts, "g", "board"), wins):
        assert (round(page.trim.x1 - page.trim.x0, 6), round(page.trim.y1 - page.trim.y0, 6)) == (round(win.w, 6), round(win.h, 6))


def test_nets_nest_and_never_touch():
    """Nets turn half round so lids share a band: the 96 pieces take 24 A4 pages (34 with one band
    per lid), three level-8 nets a page, and no two nets come closer than the cutting gap."""
    from shapely.geometry import Polygon as SPolygon

    from terragen.render.kits.terrain.kit import nets_part
    from terragen.render.model import Polyline
    from terragen.render.palette import load_palette
    from terragen.terrain.pieces import standard_inventory

    opts = PrintOptions(load_paper("a4"))
    doc = nets_part(opts, 50.0, load_palette(), standard_inventory()).doc
    assert len(doc.pages) <= 24
    c = opts.paper.content
    for page in doc.pages:
        cuts = [SPolygon([apply(m, p) for p in it.points]) for it, m in flatten(page.items)
                if isinstance(it, Polyline) and it.style.width == 0.2 and it.points[0] == it.points[-1]]
        for i, a in enumerate(cuts):
            x0, y0, x1, y1 = a.bounds
            assert c.x0 - 1e-6 <= x0 and x1 <= c.x1 + 1e-6 and c.y0 - 1e-6 <= y0 and y1 <= c.y1 + 1e-6
            for b in cuts[i + 1:]:
                assert a.distance(b) >= 3.0 - 0.05
    level8 = [p for p in doc.pages if "pieces 8" in p.label]
    assert sum(1 for it, _ in flatten(level8[0].items) if isinstance(it, Polyline) and it.style.width == 0.2
               and it.points[0] == it.points[-1]) == 3


def test_low_ink_pales_every_area_and_keeps_every_word():
    from terragen.render.kits.terrace.kit import terrace_kit
    from terragen.render.palette import luminance

    a4 = load_paper("a4")
    normal = {p.name: p.doc for p in terrace_kit(PrintOptions(a4))}
    low = {p.name: p.doc for p in terrace_kit(PrintOptions(a4, low_ink=True))}
    for name, doc in low.items():
        words = [[it.text for it, _ in flatten(p.items) if isinstance(it, Text)] for p in doc.pages]
        assert words == [[it.text for it, _ in flatten(p.items) if isinstance(it, Text)] for p in normal[name].pages]
        for page in doc.pages:
            for it, _ in flatten(page.items):
                if isinstance(it, (Polygon, Circle)) and it.style.fill and it.style.opacity == 1.0:
                    assert luminance(it.style.fill) >= 0.7, (name, it.style.fill)
                if isinstance(it, Text):
                    assert luminance(it.colour) < 0.6  # no white label left on a pale tint


def test_low_ink_keeps_the_pieces_pips_dark_and_pales_their_faces():
    """Pips are what a player reads a piece by: on a pale tint they must stay as dark as printed."""
    from terragen.render.kits.terrain.kit import terrain_kit
    from terragen.render.palette import luminance

    a4 = load_paper("a4")
    low = {p.name: p.doc for p in terrain_kit(PrintOptions(a4, low_ink=True))}
    pips = faces = 0
    for page in low["tiles"].pages[::2]:  # the fronts
        for it, _ in flatten(page.items):
            if isinstance(it, Circle) and it.style.fill:
                pips += 1
                assert luminance(it.style.fill) <= 0.15, it.style.fill
            elif isinstance(it, Polygon) and it.style.fill and len(it.points) == 6:
                faces += 1
                assert luminance(it.style.fill) >= 0.7, it.style.fill
    assert pips == 96 * 3 and faces >= 96


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm")
def test_low_ink_board_sheet_takes_far_less_ink(tmp_path: Path):
    """Ink measured as the mean darkness of a greyscale render of a Terrace board sheet."""
    from PIL import Image

    from terragen.render.kits.terrace.kit import terrace_kit

    def ink(low: bool) -> float:
        doc = {p.name: p.doc for p in terrace_kit(PrintOptions(load_paper("a4"), low_ink=low))}["board"]
        pdf = tmp_path / f"b{low}.pdf"
        pdf.write_bytes(document_pdf(Document("t", doc.pages[4:5])))  # the darkest sheet
        subprocess.run(["pdftoppm", "-gray", "-png", "-r", "20", str(pdf), str(tmp_path / f"b{low}")], check=True)
        img = Image.open(next(tmp_path.glob(f"b{low}*.png"))).convert("L")
        px = img.tobytes()
        return sum(255 - v for v in px) / (255 * len(px))

    full, low = ink(False), ink(True)
    # areas take a quarter of their ink; the dark numbers, letters and lines stay as they were
    assert full > 0.2 and low < 0.5 * full, (full, low)


def test_start_marks_name_their_players_token_in_large_type(a4):
    """On a mono print the seat colours are one grey: a start mark pairs with its token by the label."""
    from terragen.render.kits.terrain.kit import terrain_kit

    tokens = next(p for p in terrain_kit(a4) if p.name == "tokens")
    texts = [it for it, _ in flatten(tokens.doc.pages[0].items) if isinstance(it, Text)]
    starts = [t for t in texts if t.text == "START"]
    assert len(starts) == 6
    for k in range(1, 7):  # the start mark's label, the token's and the three flags': as large as START
        assert sum(1 for t in texts if t.text == f"P{k}" and t.size >= starts[0].size and
                   (t.bold or t.size > starts[0].size)) == 5, k


def test_an_overview_names_each_sheet_clear_of_the_boards_labels():
    """At its window's centre "A2" hid a Terralogical flower field's caption and "B1" a hex's
    coordinates. A name moves to the nearest spot within the middle half of its window that covers
    no label; with nothing to keep clear it stays at the centre."""
    from shapely.geometry import box

    from terragen.render.text import text_width
    from terragen.render.tiler import overview_outlines, sheet_windows

    opts = PrintOptions(load_paper("a4"))
    size, origin, k = (571.6, 500.0), (10.0, 20.0), 0.34
    wins = {w.name: w for row in sheet_windows(size, opts) for w in row}
    # a caption under every window's centre, as the boards' small print lies about
    captions = [Text(w.x + w.w / 2, w.y + w.h / 2 + 3.0, "flower field", 6.0) for w in wins.values()]
    plain = overview_outlines(size, opts, origin, k)
    moved = overview_outlines(size, opts, origin, k, keep_clear=captions, name_size=8.0)
    for (_, centre, name), (_, (x, y), same) in zip(plain, moved):
        w = wins[name]
        assert same == name and centre == (origin[0] + (w.x + w.w / 2) * k, origin[1] + (w.y + w.h / 2) * k)
        assert abs(x - centre[0]) <= w.w * k / 4 + 1e-9 and abs(y - centre[1]) <= w.h * k / 4 + 1e-9
        label = box(x - text_width(name, 8.0, True) / 2, y - 8.0, x + text_width(name, 8.0, True) / 2, y)
        for c in captions:
            cw = text_width(c.text, c.size * k)
            cx, cy = origin[0] + c.x * k, origin[1] + c.y * k
            assert not label.intersects(box(cx - cw / 2, cy - c.size * k, cx + cw / 2, cy)), name
