"""The Terralogical kit: every tile, true sizes, the board's marked fields, duplex backs, every page printable."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from terragen.render.impose import mirror_point
from terragen.render.model import Circle, Group, Polygon, Polyline, Text, apply, flatten
from terragen.render.pdf import document_pdf
from terragen.render.kits.terralogical.art import (
    COLOURS, SUBSOIL_BAND, TRACK_FIELDS, board_drawing, tile_face, track_fields, triangle_art,
)
from terragen.render.kits.terralogical.kit import (
    DEFAULT_TILE, board_items, board_square, deck_tiles, terralogical_kit,
)
from terragen.terralogical.board import FLOWER_CORNER, FLOWER_FIELDS, SIZE, SUN_SQUARE
from terragen.terralogical.default_deck import default_deck
from terragen.terralogical.tiles import Triangle, parse_tile

from .test_backends import has_calibration_bar
from .test_cli_render import one_line_usage_error, run
from .test_geometry import flatten_groups, page_printable, visible_points

PARTS = ["rules", "tiles", "tiles-gutterfold", "alignment-test", "board"]


@pytest.fixture(scope="module")
def tl_a4(a4):
    return {p.name: p.doc for p in terralogical_kit(a4)}


@pytest.fixture(scope="module")
def tl_letter(letter):
    return {p.name: p.doc for p in terralogical_kit(letter)}


def test_parts_and_page_counts(tl_a4, tl_letter):
    for kit in (tl_a4, tl_letter):
        assert list(kit) == PARTS
        assert len(kit["rules"].pages) == 1
        assert len(kit["tiles"].pages) == 6  # 24 tiles a sheet, 3 sheets, fronts and backs
        assert len(kit["alignment-test"].pages) == 2
        assert len(kit["board"].pages) == 5  # overview + 2 x 2 true-size sheets
    assert len(tl_a4["tiles-gutterfold"].pages) == 6  # 12 a page
    assert len(tl_letter["tiles-gutterfold"].pages) == 6  # 12 a page: folded down the middle, 2 columns of 6


def test_deck_gives_all_65_tiles_sun_and_flower_first():
    tiles = deck_tiles(default_deck(), DEFAULT_TILE)
    assert len(tiles) == 65
    assert [t.name for t in tiles[:2]] == ["sun", "flower"]
    assert [t.name for t in tiles[2:]] == [tid for tid, _ in default_deck().tiles]
    # every land tile shows its id for typing a board in; every back is the same plain back
    assert all(any(isinstance(i, Text) and i.text == t.name for i in t.front) for t in tiles[2:])
    assert all(t.back == tiles[0].back and t.back_bleed == tiles[0].back_bleed for t in tiles)


def clip_sizes(page):
    out = []
    for g, m in flatten_groups(page.items):
        if g.clip and len(g.clip) == 4:
            pts = [apply(m, p) for p in g.clip]
            out.append((max(p[0] for p in pts) - min(p[0] for p in pts), max(p[1] for p in pts) - min(p[1] for p in pts)))
    return out


@pytest.mark.parametrize("size", [DEFAULT_TILE, 32.5])
def test_tiles_are_true_size_on_the_page(a4, size):
    doc = {p.name: p.doc for p in terralogical_kit(a4, size)}["tiles"]
    sizes = [s for page in doc.pages for s in clip_sizes(page)]
    bleed = a4.paper.bleed
    art = [(w, h) for w, h in sizes if w < size + bleed]
    assert len(art) == 2 * 65  # fronts and backs
    for w, h in art:
        assert w == pytest.approx(size, abs=0.01) and h == pytest.approx(size, abs=0.01)
    # the fronts' art carries on into the bleed: one clip per front, the tile grown by the bleed
    grown = [(w, h) for w, h in sizes if w >= size + bleed]
    assert len(grown) == 65 and all(w == pytest.approx(size + 2 * bleed, abs=0.01) for w, _ in grown)


def test_duplex_backs_fall_exactly_behind_their_fronts(a4):
    from terragen.render.impose import impose
    from terragen.render.shapes import Shape

    tiles = deck_tiles(default_deck(), DEFAULT_TILE)
    imp = impose(Shape("square", DEFAULT_TILE), tiles, a4, "Terralogical", "tiles", duplex=True)
    assert len(imp.fronts) == len(imp.backs) == 65
    for f, b in zip(imp.fronts, imp.backs):
        assert f.tile == b.tile and f.page == b.page
        assert (b.x, b.y) == pytest.approx(mirror_point((f.x, f.y), a4.paper, "long", (0.0, 0.0)))


def test_every_landscape_has_its_own_pattern_and_dark_subsoil_a_band():
    s = 40.0

    def kinds(items):
        return {type(i).__name__ for i, _ in flatten(items)}

    def hatched(items):
        return any(isinstance(i, Polygon) and i.style.hatch for i, _ in flatten(items))

    def band(items):
        return any(isinstance(i, Polygon) and i.style.fill == SUBSOIL_BAND for i, _ in flatten(items))

    for light in (True, False):
        m, f, w, c = (triangle_art(0, Triangle(k, light), s) for k in "MFWC")
        assert not hatched(m) and "Polyline" in kinds(m)          # grass tufts
        assert hatched(f)                                          # furrows
        assert not hatched(w) and sum(isinstance(i, Polygon) for i, _ in flatten(w)) > 3  # fir trees
        assert "Circle" in kinds(c)                                # the cloud symbol
        for art in (m, f, w, c):
            assert band(art) == (not light)
    # the two tints differ for every landscape
    assert all(light != dark for light, dark in COLOURS.values())


def test_pattern_marks_stay_inside_their_triangle():
    s = 40.0
    tile = parse_tile("MfWc")
    face = tile_face(tile, s, "T99")
    groups = [g for g in face if isinstance(g, Group) and g.clip]
    assert len(groups) == 4  # one clipped group per triangle
    for side, g in enumerate(groups):
        for item, m in flatten(g.items):
            if isinstance(item, Polyline) and item.style.stroke and item.style.fill is None:
                for x, y in item.points:  # tufts: every stroke point inside the triangle
                    nx, ny = {0: (x, y), 1: (y, -x), 2: (-x, -y), 3: (-y, x)}[side]
                    assert -ny >= abs(nx) - 1e-6


def test_board_squares_are_true_size_on_the_sheets(a4):
    doc = {p.name: p.doc for p in terralogical_kit(a4)}["board"]
    sq = board_square(DEFAULT_TILE)
    assert sq == pytest.approx(40.0)
    seen = 0
    for page in doc.pages[1:]:
        for item, m in flatten(page.items):
            if isinstance(item, Polygon) and item.style.width == 0.35 and m[0] == 1.0:
                pts = [apply(m, p) for p in item.points]
                assert max(p[0] for p in pts) - min(p[0] for p in pts) == pytest.approx(sq, abs=0.01)
                assert max(p[1] for p in pts) - min(p[1] for p in pts) == pytest.approx(sq, abs=0.01)
                seen += 1
    assert seen >= SIZE * SIZE  # every square on some sheet (overlaps show some twice)


def test_sun_and_flower_fields_are_where_the_game_puts_them():
    sq = board_square(DEFAULT_TILE)
    items, side, marks = board_items(DEFAULT_TILE)
    band = SIZE * sq / 24

    def centre(rc):
        return (band + (rc[1] + 0.5) * sq, band + (rc[0] + 0.5) * sq)

    assert marks["sun"] == pytest.approx(centre(SUN_SQUARE))
    assert marks["flower"] == pytest.approx(centre(FLOWER_CORNER))
    assert {k for k in marks if k.startswith("flower-field")} == {f"flower-field {r},{c}" for r, c in FLOWER_FIELDS}
    for r, c in FLOWER_FIELDS:
        assert marks[f"flower-field {r},{c}"] == pytest.approx(centre((r, c)))
    # the words sit inside their square
    for word, rc in (("START", SUN_SQUARE), ("END TILE", FLOWER_CORNER)):
        t = next(i for i in items if isinstance(i, Text) and i.text == word)
        cx, cy = centre(rc)
        assert abs(t.x - cx) < sq / 2 and abs(t.y - cy) < sq / 2
    # another board layout moves the marks with it: the art takes positions, decides none
    _, _, moved = board_drawing(sq, SIZE, (0, 0), (7, 7), ((6, 7),))
    assert moved["sun"] == pytest.approx(centre((0, 0)))


def test_scoring_track_has_fields_0_to_99_with_0_as_100():
    sq = board_square(DEFAULT_TILE)
    inner = SIZE * sq
    band = inner / 24
    fields = track_fields(inner, band)
    assert sorted(n for n, _ in fields) == list(range(TRACK_FIELDS))
    for n, pts in fields:  # square fields a third of a board square, none overlapping the playing area
        assert pts[2][0] - pts[0][0] == pytest.approx(band) and pts[2][1] - pts[0][1] == pytest.approx(band)
        cx, cy = (pts[0][0] + pts[2][0]) / 2, (pts[0][1] + pts[2][1]) / 2
        assert not (band < cx < band + inner and band < cy < band + inner)
    items, _, marks = board_items(DEFAULT_TILE)
    assert any(isinstance(i, Text) and i.text == "0/100" for i in items)
    # field 0 (the arrow field) is the corner beside the sun square
    x0, y0 = marks["track0"]
    sx, sy = marks["sun"]
    assert abs(x0 - sx) < sq and abs(y0 - sy) < sq


def test_every_page_labelled_with_bar_and_inside_the_printable_area(tl_a4, tl_letter):
    for kit in (tl_a4, tl_letter):
        for name, doc in kit.items():
            n = len(doc.pages)
            for k, page in enumerate(doc.pages, 1):
                assert page.label.endswith(f"page {k}/{n}") and "Terralogical" in page.label and "scale" in page.label
                assert has_calibration_bar(page), (name, k)
                box = page_printable(page)
                for x, y in visible_points(page.items):
                    assert box[0] - 1e-3 <= x <= box[2] + 1e-3 and box[1] - 1e-3 <= y <= box[3] + 1e-3, (name, k, x, y)


def test_same_input_same_bytes(a4):
    a = [document_pdf(p.doc) for p in terralogical_kit(a4)]
    b = [document_pdf(p.doc) for p in terralogical_kit(a4)]
    assert a == b


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_every_page_of_every_kit_file_rasterises(tl_a4, tl_letter, tmp_path: Path):
    from PIL import Image

    for paper, kit in (("a4", tl_a4), ("letter", tl_letter)):
        for name, doc in kit.items():
            pdf = tmp_path / f"{name}-{paper}.pdf"
            pdf.write_bytes(document_pdf(doc))
            out = tmp_path / f"{name}-{paper}"
            subprocess.run(["pdftoppm", "-png", "-r", "12", str(pdf), str(out)], check=True, capture_output=True)
            pngs = sorted(tmp_path.glob(f"{name}-{paper}-*.png"))
            assert len(pngs) == len(doc.pages), (name, paper)
            for png in pngs:
                lo, hi = Image.open(png).convert("L").getextrema()
                assert lo < 128 < hi, f"{png.name} looks blank"


def test_cli_writes_the_kit_and_takes_a_deck_file(tmp_path: Path):
    deck = default_deck().to_json()
    deck["tiles"] = deck["tiles"][:5]  # a small custom deck: 5 land tiles + sun + flower
    deck_file = tmp_path / "deck.json"
    deck_file.write_text(json.dumps(deck))
    out = tmp_path / "kit"
    p = run("kit", "terralogical", "--paper", "letter", "--deck", deck_file, "--tile-size", "35", "--out", out)
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in out.iterdir()) == sorted(f"terralogical-{n}-letter.pdf" for n in PARTS)
    assert "(2 pages" in p.stdout  # 7 tiles: one duplex sheet


@pytest.mark.parametrize("args, needle", [
    (["--paper", "a3"], "--paper"),
    (["--tile-size", "5"], "--tile-size"),
    (["--deck", "missing-deck.json"], "missing-deck.json"),
    (["--back-offset", "x"], "--back-offset"),
])
def test_cli_bad_input_is_one_line_exit_2(tmp_path: Path, args, needle):
    p = run("kit", "terralogical", "--out", tmp_path / "k", *args)
    assert needle in one_line_usage_error(p)
    assert not (tmp_path / "k").exists()


def test_no_crop_tick_runs_into_the_footer(tl_a4, tl_letter):
    from terragen.render.marks import MARK

    for kit, opts_paper in ((tl_a4, "a4"), (tl_letter, "letter")):
        from terragen.render.paper import load_paper

        limit = load_paper(opts_paper).content.y1 + 0.01
        for name in ("tiles", "tiles-gutterfold"):
            for page in kit[name].pages:
                for group in page.items:
                    for it in group.items:
                        if isinstance(it, Polyline) and it.style == MARK:
                            assert max(p[1] for p in it.points) <= limit, (name, page.label)


def test_front_bleed_carries_each_sides_own_colour_past_the_cut(tmp_path):
    """Rendered, a sliver just past the outer cut of a tile shows that side's colour (its landscape,
    or the brown subsoil band), not a plain band: an off cut shows no foreign colour."""
    import shutil
    import subprocess

    if not shutil.which("pdftoppm"):
        pytest.skip("poppler-utils not installed")
    from PIL import Image

    from terragen.render.impose import PrintOptions, impose
    from terragen.render.kits.terralogical.art import SUBSOIL_BAND, fill_of
    from terragen.render.kits.terralogical.kit import tick_area
    from terragen.render.model import Document
    from terragen.render.paper import load_paper
    from terragen.render.pdf import document_pdf
    from terragen.render.shapes import Shape
    from terragen.terralogical.tiles import END_TILE, START_TILE

    opts = PrintOptions(load_paper("a4"))
    deck = default_deck()
    tiles = deck_tiles(deck, DEFAULT_TILE, opts.paper.bleed)
    imp = impose(Shape("square", DEFAULT_TILE), tiles, opts, "g", "c", duplex=True, area=tick_area(opts))
    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(document_pdf(Document("t", imp.pages[:1])))
    dpi = 60
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), str(pdf), str(tmp_path / "p")], check=True)
    img = Image.open(next(tmp_path.glob("p*.png"))).convert("RGB")
    px = dpi / 25.4
    by_name = {tid: t for tid, t in deck.tiles} | {"sun": START_TILE, "flower": END_TILE}
    first = [p for p in imp.fronts if p.page == 0]
    top = min(p.y for p in first)
    checked = 0
    for p in (q for q in first if q.y == top):  # the top row: its north edges are outer cuts
        tri = by_name[tiles[p.tile].name].edges[0]
        want = fill_of(tri) if tri.light else SUBSOIL_BAND
        want_rgb = tuple(int(want[i:i + 2], 16) for i in (1, 3, 5))
        x, y = p.x + DEFAULT_TILE * 0.1, p.y - DEFAULT_TILE / 2 - opts.paper.bleed / 2
        got = img.getpixel((round(x * px), round(y * px)))
        assert sum(abs(a - b) for a, b in zip(got, want_rgb)) < 40, (tiles[p.tile].name, got, want)
        checked += 1
    assert checked >= 3


def test_the_rules_page_counts_the_kits_own_deck():
    """A kit of a 9-tile deck said "the 65 tiles (... 63 land tiles)" and "Tile ids (T01 ...)"."""
    from terragen.render.impose import PrintOptions
    from terragen.render.kits.terralogical.kit import rules_part
    from terragen.render.paper import load_paper
    from terragen.terralogical.deck import Deck
    from terragen.terralogical.default_deck import default_deck

    nine = Deck([(f"T{k}", tile) for k, (_, tile) in enumerate(default_deck().tiles[:9], 1)])
    words = " ".join(it.text for it, _ in flatten(rules_part(PrintOptions(load_paper("a4")), nine).doc.pages[0].items)
                     if isinstance(it, Text))
    assert "the 11 tiles" in words and "9 land tiles" in words and "Tile ids (T1" in words
    assert "63 land" not in words and "65 tiles" not in words


@pytest.mark.parametrize("kit_name", ["tl_a4", "tl_letter"])
def test_the_overviews_sheet_frames_cross_no_label(kit_name, request):
    """At overview scale a dashed sheet frame ran through a flower field's small note; a frame is
    now broken where it would cross any label of the board."""
    from shapely.geometry import LineString, box

    from terragen.render.text import text_width

    page = request.getfixturevalue(kit_name)["board"].pages[0]
    leaves = flatten(page.items)
    frames = [LineString([apply(m, p) for p in it.points]) for it, m in leaves
              if isinstance(it, (Polyline, Polygon)) and it.style.stroke == "#1f77b4" and it.style.dash]
    # every word of the reduced board (the note itself is now left out of the overview, under 4.5 pt there)
    scaled = [(it, m, apply(m, (it.x + 1.0, it.y))[0] - apply(m, (it.x, it.y))[0]) for it, m in leaves
              if isinstance(it, Text) and not it.angle]
    notes = [(it, m) for it, m, k in scaled if k < 0.9]
    assert frames and notes
    for note, m in notes:
        (x, y), (x1, _) = apply(m, (note.x, note.y)), apply(m, (note.x + 1.0, note.y))
        k = x1 - x  # the board's scale on the page
        half, cap = text_width(note.text, note.size) * k / 2, note.size * k
        words = box(x - half, y - cap, x + half, y + 0.2 * cap)  # the letters, from cap height to just below the line
        assert not any(frame.intersects(words) for frame in frames)
