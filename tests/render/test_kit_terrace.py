"""The Terrace kit: true-size squares and tokens, heights and set-ups from the package, pages, bytes, CLI."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from terragen.render.model import Circle, Group, Polygon, Polyline, Text, apply, compose, flatten
from terragen.render.pdf import document_pdf
from terragen.render.kits.terrace.art import SEAT_COLOURS, SQUARE_MM, board_drawing, level_colour
from terragen.render.kits.terrace.kit import piece_counts, terrace_kit, token_diameter
from terragen.terrace.board import board
from terragen.terrace.setups import setup_counts, start_pieces

from .test_backends import NUM, pdf_streams
from .test_cli_render import one_line_usage_error, run
from .test_geometry import page_printable, visible_points


@pytest.fixture(scope="module")
def kits(a4, letter):
    return {paper: {p.name: p.doc for p in terrace_kit(opts)} for paper, opts in (("a4", a4), ("letter", letter))}


@pytest.fixture(scope="module")
def pdfs(kits):
    return {(paper, name): document_pdf(doc) for paper, kit in kits.items() for name, doc in kit.items()}


def clipped_groups(items, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
    """(clip polygon in page mm) for every clipped group, however deep."""
    out = []
    for it in items:
        if isinstance(it, Group):
            mm = compose(m, it.matrix)
            if it.clip:
                out.append([apply(mm, p) for p in it.clip])
            out.extend(clipped_groups(it.items, mm))
    return out


def test_terrace_page_counts(kits):
    got = {paper: {name: len(doc.pages) for name, doc in kit.items()} for paper, kit in kits.items()}
    # board: overview + 3 x 2 sheets; pieces: 64 tokens in four sizes
    assert got["a4"] == {"rules": 1, "setups": 1, "board": 7, "pieces": 3}
    assert got["letter"] == {"rules": 1, "setups": 1, "board": 7, "pieces": 3}


@pytest.mark.parametrize("size", [6, 8, 10, 12])
def test_terrace_board_squares_are_two_inches_and_show_the_package_heights(size):
    items, side = board_drawing(size)
    n = size
    assert SQUARE_MM == pytest.approx(50.8)
    assert side == pytest.approx(n * 50.8 + 20.0)
    squares = [it for it, _ in flatten(items) if isinstance(it, Polygon) and it.style.fill and it.style.fill != "#ffffff"
               and it.style.opacity == 1.0]
    assert len(squares) == n * n
    for sq in squares:
        xs, ys = [p[0] for p in sq.points], [p[1] for p in sq.points]
        assert max(xs) - min(xs) == pytest.approx(50.8, abs=0.01)
        assert max(ys) - min(ys) == pytest.approx(50.8, abs=0.01)
    heights = board(n).heights
    big = [it for it, _ in flatten(items) if isinstance(it, Text) and it.bold and it.size > 15]
    assert [int(t.text) for t in big] == list(heights)
    # one shade per level, in the square's own colour
    assert [sq.style.fill for sq in squares] == [level_colour(h, n) for h in heights]
    assert len({level_colour(h, n) for h in range(1, n + 1)}) == n
    # a heavy line exactly where two side-by-side squares differ in height (plus the outer frame)
    heavy = [it for it, _ in flatten(items) if isinstance(it, Polyline) and it.style.width > 1.0
             and it.style.stroke == "#1a1a1a"]
    steps = sum(1 for r in range(n) for c in range(n) for dr, dc in ((0, 1), (1, 0))
                if r + dr < n and c + dc < n and heights[r * n + c] != heights[(r + dr) * n + c + dc])
    assert len(heavy) == steps
    # the centre cross sits on the centre point
    rings = [it for it, _ in flatten(items) if isinstance(it, Circle)]
    assert [(c.cx, c.cy) for c in rings] == [(side / 2, side / 2)]


def test_terrace_true_size_board_sheets_in_the_model_and_the_pdf(kits, pdfs):
    doc = kits["a4"]["board"]
    for page in doc.pages[1:]:
        # squares placed on the sheet (through every group) are still 50.8 mm
        sq = [(it, m) for it, m in flatten(page.items) if isinstance(it, Polygon) and it.style.fill in
              {level_colour(h, 8) for h in range(1, 9)}]
        assert sq
        for it, m in sq:
            pts = [apply(m, p) for p in it.points]
            assert max(p[0] for p in pts) - min(p[0] for p in pts) == pytest.approx(50.8, abs=0.01)
    for k, content in enumerate(pdf_streams(pdfs[("a4", "board")])):
        assert re.search(r"2\.834646 0 0 -2\.834646 0 841\.8898 cm", content)  # 1 unit = 1 mm
        if k == 0:
            continue  # the overview is reduced on purpose
        for a, b, c, d in re.findall(rf"({NUM}) ({NUM}) ({NUM}) ({NUM}) {NUM} {NUM} cm", content):
            if (a, d) != ("2.834646", "-2.834646"):
                assert abs(float(a)) == 1 and abs(float(d)) == 1 and float(b) == float(c) == 0
        boxes = []
        for path in re.findall(rf"((?:{NUM} {NUM} [ml] ){{4}})h", content):
            nums = [float(v) for v in re.findall(NUM, path)]
            xs, ys = nums[0::2], nums[1::2]
            w, h = max(xs) - min(xs), max(ys) - min(ys)
            if abs(w - 50.8) < 1 and abs(h - 50.8) < 1:
                boxes.append((w, h))
        assert len(boxes) >= 8
        for w, h in boxes:
            assert w == pytest.approx(50.8, abs=0.01) and h == pytest.approx(50.8, abs=0.01)


def test_terrace_tokens_follow_the_size_ranking_and_are_true_size(kits, pdfs):
    d = {k: token_diameter(k) for k in "TABCD"}
    assert d["A"] < d["B"] < d["C"] < d["D"]
    assert d["T"] == d["A"]  # the package's decision: the T ranks with the A
    for paper in ("a4", "letter"):
        clips = [c for page in kits[paper]["pieces"].pages for c in clipped_groups(page.items) if len(c) == 72]
        assert len(clips) == 4 * 16
        widths = sorted(round(max(p[0] for p in c) - min(p[0] for p in c), 3) for c in clips)
        expect = sorted(d[k] for k, n in piece_counts(8).items() for _ in range(4 * n))
        assert widths == pytest.approx(expect, abs=0.01)
        pdf_widths = []
        for content in pdf_streams(pdfs[(paper, "pieces")]):
            for c in re.findall(rf"n ((?:{NUM} {NUM} [ml] )+)h W\*? n", content):
                nums = [float(v) for v in re.findall(NUM, c)]
                if len(nums) == 144:
                    pdf_widths.append(max(nums[0::2]) - min(nums[0::2]))
        assert sorted(pdf_widths) == pytest.approx(expect, abs=0.01)


def test_terrace_tokens_cover_every_setup_for_four_colours(kits):
    counts = piece_counts(8)
    assert counts == setup_counts("full", 8) == {"T": 1, "A": 3, "B": 4, "C": 4, "D": 4}
    for setup in ("short", "four", "three"):
        assert all(counts[k] >= v for k, v in setup_counts(setup, 8).items())
    # each seat writes its pieces its own way (D, d, DD, dd), so sides differ even on a mono print
    letters = [it.text for page in kits["a4"]["pieces"].pages for it, _ in flatten(page.items)
               if isinstance(it, Text) and it.bold and it.text.upper() in {k * m for k in "TABCD" for m in (1, 2)}]
    for kind, n in counts.items():
        for form in (kind, kind.lower(), kind * 2, kind.lower() * 2):
            assert letters.count(form) == n, form
    assert sorted(t for t in letters if t.upper() in ("T", "TT")) == sorted(["T", "t", "TT", "tt"])


def test_terrace_setups_page_draws_the_package_setups(kits):
    texts = [it.text for it, _ in flatten(kits["a4"]["setups"].pages[0].items) if isinstance(it, Text) and it.bold]
    for setup in ("full", "short", "four"):
        tokens = sorted(p.token for p in start_pieces(setup, 8).values())
        assert all(texts.count(t) >= tokens.count(t) for t in set(tokens))
    total = sum(len(start_pieces(s, 8)) for s in ("full", "short", "four"))
    discs = [it for it, _ in flatten(kits["a4"]["setups"].pages[0].items)
             if isinstance(it, Circle) and it.style.fill in SEAT_COLOURS.values()]
    assert len(discs) == total


def test_terrace_nothing_outside_the_printable_area(kits):
    for kit in kits.values():
        for name, doc in kit.items():
            for page in doc.pages:
                x0, y0, x1, y1 = page_printable(page)
                for x, y in visible_points(page.items):
                    assert x0 - 1e-3 <= x <= x1 + 1e-3 and y0 - 1e-3 <= y <= y1 + 1e-3, (name, page.label)


def test_terrace_same_input_same_bytes(a4, pdfs):
    again = {p.name: document_pdf(p.doc) for p in terrace_kit(a4)}
    assert again == {name: data for (paper, name), data in pdfs.items() if paper == "a4"}


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_terrace_every_page_rasterises(kits, pdfs, tmp_path: Path):
    from PIL import Image

    for (paper, name), data in pdfs.items():
        pdf = tmp_path / f"{name}-{paper}.pdf"
        pdf.write_bytes(data)
        subprocess.run(["pdftoppm", "-png", "-r", "20", str(pdf), str(tmp_path / f"{name}-{paper}")], check=True, capture_output=True)
        pngs = sorted(tmp_path.glob(f"{name}-{paper}-*.png"))
        assert len(pngs) == len(kits[paper][name].pages)
        for png in pngs:
            lo, hi = Image.open(png).convert("L").getextrema()
            assert lo < 128 < hi, f"{png.name} looks blank"


def test_terrace_bigger_board_keeps_the_square_size(a4):
    kit = {p.name: p.doc for p in terrace_kit(a4, 12)}
    assert len(kit["board"].pages) == 1 + 4 * 3  # 630 mm square over 4 x 3 A4 sheets
    assert sum(piece_counts(12).values()) == 24
    page = kit["board"].pages[1]
    sq = [(it, m) for it, m in flatten(page.items) if isinstance(it, Polygon) and it.style.fill == level_colour(12, 12)]
    for it, m in sq:
        pts = [apply(m, p) for p in it.points]
        assert max(p[1] for p in pts) - min(p[1] for p in pts) == pytest.approx(50.8, abs=0.01)


def test_kit_terrace_cli_writes_four_files(tmp_path: Path):
    out = tmp_path / "kit"
    p = run("kit", "terrace", "--paper", "letter", "--size", "6", "--out", out)
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in out.iterdir()) == sorted(f"terrace-{n}-6x6-letter.pdf" for n in ("rules", "setups", "board", "pieces"))
    assert all(f.read_bytes().startswith(b"%PDF-") for f in out.iterdir())


@pytest.mark.parametrize("args, needle", [
    (["--paper", "a3"], "--paper"),
    (["--size", "7"], "--size"),
    (["--size", "14"], "--size"),
    (["--scale", "9"], "--scale"),
])
def test_kit_terrace_bad_options_are_one_line(tmp_path: Path, args, needle):
    p = run("kit", "terrace", "--out", tmp_path / "k", *args)
    assert needle in one_line_usage_error(p)
    assert not (tmp_path / "k").exists()


def test_kit_terrace_command_module_loads_no_heavy_library():
    import subprocess as sp
    import sys

    from .test_cli_render import ROOT

    code = ("import sys, terragen.cli.kit_terrace; "
            "print([m for m in ('reportlab', 'shapely', 'svgwrite') if m in sys.modules])")
    p = sp.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "[]", p.stdout + p.stderr


def test_terrace_t_rank_lowest_makes_the_t_the_smallest_token(a4):
    kit = {p.name: p.doc for p in terrace_kit(a4, 8, t_rank="lowest")}
    sizes = [token_diameter(k, "lowest") for k in "TABCD"]
    assert sizes == sorted(sizes) and len(set(sizes)) == 5
    clips = [c for page in kit["pieces"].pages for c in clipped_groups(page.items) if len(c) == 72]
    widths = {round(max(p[0] for p in c) - min(p[0] for p in c), 2) for c in clips}
    assert widths == set(sizes)
    texts = " ".join(it.text for it, _ in flatten(kit["rules"].pages[0].items) if isinstance(it, Text))
    assert "smaller than an A" in texts


def test_terrace_t_rank_above_a_prints_the_t_between_the_a_and_the_b(a4):
    kit = {p.name: p.doc for p in terrace_kit(a4, 8, t_rank="above-a")}
    sizes = [token_diameter(k, "above-a") for k in "ATBCD"]
    assert sizes == sorted(sizes) and len(set(sizes)) == 5
    clips = [c for page in kit["pieces"].pages for c in clipped_groups(page.items) if len(c) == 72]
    assert {round(max(p[0] for p in c) - min(p[0] for p in c), 2) for c in clips} == set(sizes)
    texts = " ".join(it.text for it, _ in flatten(kit["rules"].pages[0].items) if isinstance(it, Text))
    assert "bigger than an A and smaller than a B" in texts and "counts as an A" not in texts


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [6, 8, 10, 12])
def test_token_rows_are_full_except_the_very_last(paper, size):
    """Tokens fill each row before the next starts (sizes may share a row): no row holds a lone
    token while room is left, so no sheet starts with a near-empty row; every token is there."""
    from shapely.geometry import Polygon as SPolygon

    from terragen.render.impose import PrintOptions
    from terragen.render.kits.terrace.kit import pieces_part
    from terragen.render.paper import load_paper

    opts = PrintOptions(load_paper(paper))
    doc = pieces_part(opts, size).doc
    rows = []  # per row: diameters of its tokens
    for page in doc.pages:
        by_y: dict[float, list[float]] = {}
        for c in clipped_groups(page.items):
            if len(c) == 72:  # a token's circle
                poly = SPolygon(c)
                by_y.setdefault(round(poly.centroid.y, 1), []).append(poly.bounds[2] - poly.bounds[0])
        rows.extend(by_y[y] for y in sorted(by_y))
    assert sum(len(r) for r in rows) == 4 * sum(piece_counts(size).values())
    width = opts.paper.content.width
    for r in rows[:-1]:
        room = width - sum(d + 2 * opts.paper.bleed + 5.0 for d in r)
        assert room < max(r) + 2 * opts.paper.bleed + 5.0, (r, room)  # the next token could not fit


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [8, 12])
def test_terrace_overview_sheet_names_hide_no_square_height(paper, size):
    """The names A1, B2 ... sat on squares' centres and covered their heights (b6, e6, g6 on 8x8)."""
    from shapely.geometry import box

    from terragen.render.impose import PrintOptions
    from terragen.render.paper import load_paper
    from terragen.render.text import text_width

    board_part = next(p for p in terrace_kit(PrintOptions(load_paper(paper)), size=size) if p.name == "board")
    flat = flatten(board_part.doc.pages[0].items)
    names = [Polygon_box(it, m) for it, m in flat if isinstance(it, Polygon) and it.style.fill == "#ffffff"
             and it.style.stroke == "#1f77b4"]
    digits = [(it, m) for it, m in flat if isinstance(it, Text) and it.bold and it.text.isdigit() and m[0] < 1.0]
    big = max(it.size for it, _ in digits)  # a square's height, in the middle (its corners' are smaller)
    heights = []
    for it, m in digits:
        if it.size == big:
            w, s = text_width(it.text, it.size, True), it.size
            (x0, y0), (x1, y1) = apply(m, (it.x - w / 2, it.y - 0.72 * s)), apply(m, (it.x + w / 2, it.y))
            heights.append(box(x0, y0, x1, y1))
    assert len(names) == len(board_part.doc.pages) - 1 and len(heights) == size * size
    assert not [(n.bounds, h.bounds) for n in names for h in heights if n.intersects(h)]


def Polygon_box(it, m):
    from shapely.geometry import Polygon as SPolygon

    return SPolygon([apply(m, p) for p in it.points])


def test_every_pieces_cut_circle_shows_on_its_own_colour_and_the_file_asks_for_one_side(kits):
    """A thin black circle on the dark red pieces was about 2:1 and vanished on a mono printer, so a
    red A cut at its colour's edge came out bigger than a blue B; and a printer set to duplex put
    sheet 2's pieces on the back of sheet 1's."""
    from terragen.render.contrast import contrast

    for paper, kit in kits.items():
        doc = kit["pieces"]
        assert doc.duplex == "simplex"
        for page in doc.pages:
            leaves = flatten(page.items)
            fills = [(sum(x for x, _ in it.points) / len(it.points), sum(y for _, y in it.points) / len(it.points),
                      it.style.fill) for it, _ in leaves if isinstance(it, Polygon) and it.style.fill]
            cuts = [it for it, _ in leaves if isinstance(it, Circle) and it.style.stroke and not it.style.fill
                    and abs(it.style.width - 0.15) < 1e-9]
            assert cuts, paper
            for cut in cuts:  # the token's bleed, a polygon round the same centre, is its colour
                ground = next(f for x, y, f in fills if abs(x - cut.cx) < 0.05 and abs(y - cut.cy) < 0.05)
                assert contrast(cut.style.stroke, ground) >= 3.0, (paper, ground, cut.style.stroke)


@pytest.mark.parametrize("size", [6, 8, 10, 12])
def test_no_word_on_the_board_lies_under_the_centre_ring(size):
    """The ring that marks the centre stood over one square's name (e4 on the 8x8 board)."""
    from terragen.render.model import Circle, Text
    from terragen.render.text import text_width

    items, _ = board_drawing(size)
    ring = next(it for it in items if isinstance(it, Circle))
    for t in (it for it in items if isinstance(it, Text)):
        width = text_width(t.text, t.size, t.bold)
        x0 = {"start": t.x, "end": t.x - width}.get(t.anchor, t.x - width / 2)
        # the nearest point of the word's box (baseline to cap height) to the ring's centre
        nx = min(max(ring.cx, x0), x0 + width)
        ny = min(max(ring.cy, t.y - 0.72 * t.size), t.y)
        assert (nx - ring.cx) ** 2 + (ny - ring.cy) ** 2 > ring.r ** 2, (t.text, size)
