"""The TerraFlip print kit: pieces from the game package, true size, backs behind fronts, files.

The duplex checks do not trust the imposer's own mirror function: they compute
where a point of the front lands when a sheet is turned over its long or short
edge, and look there on the back page, first in the drawing model and then in
pixels of the rendered PDF.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from terragen.render.impose import PrintOptions
from terragen.render.model import Document, Group, Polygon, Text, flatten
from terragen.render.paper import load_paper
from terragen.render.pdf import document_pdf
from terragen.render.kits.terraflip.art import FAMILY_COLOUR, FAMILY_PATTERN, TOWER_FILL, colour_of
from terragen.render.palette import luminance
from terragen.render.kits.terraflip.kit import DEFAULT_TILE, terraflip_kit, tile_sheets
from terragen.terraflip.model import FAMILIES
from terragen.terraflip.model import SPECIAL_KINDS, SPIES_PER_PLAYER, TILES_PER_FAMILY, default_tileset

from .test_backends import NUM, has_calibration_bar, pdf_streams
from .test_cli_render import one_line_usage_error, run

HAS_PDFTOPPM = shutil.which("pdftoppm") is not None


@pytest.fixture(scope="module")
def tileset():
    return default_tileset()


@pytest.fixture(scope="module")
def kits(tileset):
    out = {}
    for paper in ("a4", "letter"):
        opts = PrintOptions(load_paper(paper))
        out[paper] = {p.name: p.doc for p in terraflip_kit(opts, tileset)}
    return out


N_TILES = len(FAMILIES) * (TILES_PER_FAMILY + len(SPECIAL_KINDS))  # the two-sided hexes


def test_page_counts_labels_and_calibration_bar(kits):
    for paper, kit in kits.items():
        counts = {name: len(doc.pages) for name, doc in kit.items()}
        assert counts["instructions"] == 1 and counts["rules"] == 1 and counts["alignment-test"] == 2
        assert counts["tokens"] == 1
        # 48 hexes of 40 mm: 28 fit an A4 sheet, 24 a Letter sheet: two duplex sheets either way
        assert counts["tiles"] == 4
        # gutter fold: three rows of four on each half of A4, two rows on the shorter Letter half
        assert counts["tiles-gutterfold"] == (4 if paper == "a4" else 6)
        for name, doc in kit.items():
            n = len(doc.pages)
            for k, page in enumerate(doc.pages, 1):
                assert page.label.endswith(f"page {k}/{n}") and "TerraFlip" in page.label, (name, page.label)
                assert has_calibration_bar(page), (name, k)
        tiles = kit["tiles"].pages
        assert all("(fronts)" in p.label for p in tiles[0::2]) and all("(backs" in p.label for p in tiles[1::2])


def _tile_groups(page):
    """(centre, items) of every clipped tile group on a page, in page mm."""
    out = []
    for top in page.items:
        for g in _groups(top):
            if g.clip and len(g.clip) == 6:
                out.append(((g.matrix[4], g.matrix[5]), g.items, g.clip))
    return out


def _groups(item):
    if isinstance(item, Group):
        yield item
        for c in item.items:
            yield from _groups(c)


def test_every_piece_comes_from_the_package(tileset):
    opts = PrintOptions(load_paper("a4"))
    tiles, imp = tile_sheets(opts, tileset)
    assert len(tiles) == N_TILES and len(imp.fronts) == N_TILES == len(imp.backs)
    by_name = {t.name: t for t in tiles}
    for t in tileset.tiles():
        piece = by_name[t.id]
        assert piece.bleed == colour_of(t.front) and piece.back_bleed == colour_of(t.back)
        front_fill = piece.front[0].style.fill
        back_fill = piece.back[0].style.fill
        assert (front_fill, back_fill) == (colour_of(t.front), colour_of(t.back))
        texts = {it.text for it, _ in flatten(piece.front + piece.back) if isinstance(it, Text)}
        assert t.front.upper() in {it.text for it, _ in flatten(piece.front) if isinstance(it, Text)}
        assert t.back.upper() in {it.text for it, _ in flatten(piece.back) if isinstance(it, Text)}
        if t.special:
            assert t.kind.upper() in texts and t.front == t.back == t.family
        # no number or id on a face: with the tile-set file it would give the hidden colour away
        assert not any(re.search(r"\d", s) for s in texts), texts


def test_a_front_tells_nothing_about_its_back(tileset):
    tiles, _ = tile_sheets(PrintOptions(load_paper("a4")), tileset)
    tiles = {t.name: t for t in tiles}
    for f in FAMILIES:
        fronts = [tiles[t.id].front for t in tileset.tiles((f,)) if not t.special]
        backs = {t.back for t in tileset.tiles((f,)) if not t.special}
        assert len(backs) > 1 and all(fr == fronts[0] for fr in fronts)


def test_tile_is_true_size_in_the_model_and_the_pdf(tileset):
    opts = PrintOptions(load_paper("a4"))
    size = 40.0
    _, imp = tile_sheets(opts, tileset, size)
    page = imp.pages[0]
    groups = _tile_groups(page)
    assert len(groups) == 28
    for _, _, clip in groups:
        xs = [p[0] for p in clip]
        ys = [p[1] for p in clip]
        assert max(xs) - min(xs) == pytest.approx(size, abs=0.01)
        assert max(ys) - min(ys) == pytest.approx(2 * size / 3 ** 0.5, abs=0.01)
    content = pdf_streams(document_pdf(Document("t", [page])))[0]
    assert re.search(r"2\.834646 0 0 -2\.834646 0 841\.8898 cm", content)  # 1 unit = 1 mm
    hexes = []
    for c in re.findall(rf"n ((?:{NUM} {NUM} [ml] )+)h W\*? n", content):
        nums = [float(v) for v in re.findall(NUM, c)]
        if len(nums) == 12:
            hexes.append(nums[0::2])
    # each tile's clip (its cut outline) is the size asked for; other hex clips are the hatched
    # colour fields, which run 8 % past the cut into the bleed
    widths = [max(xs) - min(xs) for xs in hexes]
    cuts = [w for w in widths if abs(w - size) < 1.0]
    assert len(cuts) == 28 and all(w == pytest.approx(size, abs=0.01) for w in cuts)


def _behind(p, paper, flip, offset=(0.0, 0.0)):
    """Where a mark printed at ``p`` on the front must be on the back page to land right behind it.

    Turned over the long (vertical) edge of a portrait sheet, left and right swap; over the
    short edge, top and bottom. A printer that shifts the back by ``offset`` (seen from the
    front) needs the drawing shifted the other way.
    """
    x, y = p
    if flip == "long":
        return (paper.width - (x - offset[0]), y - offset[1])
    return (x - offset[0], paper.height - (y - offset[1]))


@pytest.mark.parametrize("flip, offset", [("long", (0.0, 0.0)), ("short", (0.0, 0.0)), ("long", (0.6, -0.4)), ("short", (-1.0, 0.5))])
def test_each_back_lands_behind_its_front_in_the_model(tileset, flip, offset):
    paper = load_paper("a4")
    opts = PrintOptions(paper, flip=flip, back_offset=offset)
    tiles, imp = tile_sheets(opts, tileset)
    for s in range(len(imp.pages) // 2):
        front = {(round(x, 6), round(y, 6)): items for (x, y), items, _ in _tile_groups(imp.pages[2 * s])}
        back = {(round(x, 6), round(y, 6)): items for (x, y), items, _ in _tile_groups(imp.pages[2 * s + 1])}
        assert len(front) == len(back) > 0
        for pl in (p for p in imp.fronts if p.page == s):
            assert front[(round(pl.x, 6), round(pl.y, 6))] == tiles[pl.tile].front
            bx, by = _behind((pl.x, pl.y), paper, flip, offset)
            assert back[(round(bx, 6), round(by, 6))] == tiles[pl.tile].back, (flip, tiles[pl.tile].name)


def _nearest_colour(rgb):
    names = dict(FAMILY_COLOUR)
    def dist(hexc):
        c = hexc.lstrip("#")
        return sum((int(c[i:i + 2], 16) - v) ** 2 for i, v in zip((0, 2, 4), rgb))
    return min(sorted(names), key=lambda n: dist(names[n]))


@pytest.mark.skipif(not HAS_PDFTOPPM, reason="poppler-utils not installed")
@pytest.mark.parametrize("flip", ["long", "short"])
def test_each_back_lands_behind_its_front_on_paper(tileset, flip, tmp_path: Path):
    """Render a sheet, turn the back image over like the printer does, and read colours through the paper."""
    from PIL import Image

    paper = load_paper("a4")
    opts = PrintOptions(paper, flip=flip)
    tiles, imp = tile_sheets(opts, tileset)
    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(document_pdf(Document("t", imp.pages[:2])))
    dpi = 30
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), str(pdf), str(tmp_path / "p")], check=True)
    front = Image.open(tmp_path / "p-1.png").convert("RGB")
    back = Image.open(tmp_path / "p-2.png").convert("RGB")
    # what someone holding the sheet sees through it: the back, turned over the flip edge
    back = back.transpose(Image.FLIP_LEFT_RIGHT if flip == "long" else Image.FLIP_TOP_BOTTOM)
    px = dpi / 25.4
    R = DEFAULT_TILE / 3 ** 0.5
    family = {t.id: t for t in tileset.tiles()}
    for pl in (p for p in imp.fronts if p.page == 0):
        name = tiles[pl.tile].name
        # a spot in the plain colour band of the tile (between the land disc and the rim)
        for dx in (0.62 * R, -0.62 * R):
            x, y = pl.x + dx, pl.y - 0.1 * R
            f = _nearest_colour(front.getpixel((round(x * px), round(y * px))))
            b = _nearest_colour(back.getpixel((round(x * px), round(y * px))))
            assert (f, b) == (family[name].front, family[name].back), (flip, name, dx)


def test_greyscale_cues_keep_the_families_apart():
    lum = sorted(luminance(colour_of(f)) for f in FAMILIES)
    assert all(b - a >= 0.1 for a, b in zip(lum, lum[1:]))
    patterns = [FAMILY_PATTERN[f] for f in FAMILIES]
    assert len(set(patterns)) == len(FAMILIES)


def test_tokens_page_has_the_spies_and_a_true_size_tower(kits):
    page = kits["a4"]["tokens"].pages[0]
    words = [it.text for it, _ in flatten(page.items) if isinstance(it, Text)]
    assert words.count("SPY") == SPIES_PER_PLAYER * len(FAMILIES)
    for f in FAMILIES:
        assert words.count(f.upper()) == SPIES_PER_PLAYER
    assert words.count("TOWER") == 1
    (tower,) = [g for _, g, clip in _tile_groups(page)]
    (clip,) = [clip for _, _, clip in _tile_groups(page)]
    xs = [p[0] for p in clip]
    assert max(xs) - min(xs) == pytest.approx(DEFAULT_TILE, abs=0.01)
    fills = {it.style.fill for it, _ in flatten(tower) if isinstance(it, Polygon)}
    assert TOWER_FILL in fills and not fills & set(FAMILY_COLOUR.values())  # no family colour: it never scores


def test_same_input_same_bytes(tileset):
    opts = PrintOptions(load_paper("letter"), flip="short")
    a = [document_pdf(p.doc) for p in terraflip_kit(opts, tileset)]
    b = [document_pdf(p.doc) for p in terraflip_kit(opts, tileset)]
    assert a == b


@pytest.mark.skipif(not HAS_PDFTOPPM, reason="poppler-utils not installed")
def test_every_page_of_every_kit_file_rasterises(kits, tmp_path: Path):
    from PIL import Image

    for paper, kit in kits.items():
        for name, doc in kit.items():
            pdf = tmp_path / f"{name}-{paper}.pdf"
            pdf.write_bytes(document_pdf(doc))
            subprocess.run(["pdftoppm", "-png", "-r", "20", str(pdf), str(tmp_path / f"{name}-{paper}")],
                           check=True, capture_output=True)
            pngs = sorted(tmp_path.glob(f"{name}-{paper}-*.png"))
            assert len(pngs) == len(doc.pages), (name, paper)
            for png in pngs:
                lo, hi = Image.open(png).convert("L").getextrema()
                assert lo < 128 < hi, f"{png.name} looks blank"


def test_cli_writes_the_kit_from_a_tile_file(tmp_path: Path, tileset):
    tiles = tmp_path / "tiles.json"
    tiles.write_text(json.dumps({"game": "terraflip", "kind": "tileset", "version": 1, "tiles": tileset.to_json()}))
    out = tmp_path / "kit"
    p = run("kit", "terraflip", "--tiles", tiles, "--paper", "letter", "--flip", "short", "--out", out)
    assert p.returncode == 0, p.stderr
    names = sorted(f.name for f in out.iterdir())
    assert names == sorted(f"terraflip-{n}-letter.pdf" for n in
                           ["instructions", "rules", "alignment-test", "tiles", "tiles-gutterfold", "tokens"])
    assert all(f.read_bytes().startswith(b"%PDF-") for f in out.iterdir())


@pytest.mark.parametrize("args, needle", [
    (["--paper", "a3"], "--paper"),
    (["--back-offset", "1;2"], "--back-offset"),
    (["--tile-size", "300"], "--tile-size"),
    (["--tiles", "TILES", "--seed", "3"], "not both"),
    (["--tiles", "BADJSON"], "invalid JSON"),
    (["--tiles", "NOTTILES"], "not a TerraFlip tile-set file"),
    (["--tiles", "MISSING"], "no back colour"),
    (["--tiles", "NOSUCHFILE"], "no such file"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, tileset, args, needle):
    files = {
        "TILES": {"game": "terraflip", "kind": "tileset", "tiles": tileset.to_json()},
        "BADJSON": "{",
        "NOTTILES": {"game": "terrain"},
        "MISSING": {"game": "terraflip", "kind": "tileset", "tiles": {"backs": {"blue-river-1": "green"}}},
    }
    real = []
    for a in args:
        if a in files:
            f = tmp_path / f"{a}.json"
            f.write_text(files[a] if isinstance(files[a], str) else json.dumps(files[a]))
            real.append(f)
        elif a == "NOSUCHFILE":
            real.append(tmp_path / "nope.json")
        else:
            real.append(a)
    p = run("kit", "terraflip", "--out", tmp_path / "k", *real)
    assert needle in one_line_usage_error(p)
    assert not (tmp_path / "k").exists()


def _text_corners(it, m):
    from terragen.render.model import apply
    from terragen.render.text import text_width

    w = text_width(it.text, it.size, it.bold)
    x0 = {"middle": it.x - w / 2, "start": it.x, "end": it.x - w}[it.anchor]
    return [apply(m, p) for p in ((x0, it.y), (x0 + w, it.y), (x0, it.y - 0.72 * it.size), (x0 + w, it.y - 0.72 * it.size))]


def test_text_and_symbols_stay_inside_the_safe_zone(tileset):
    """Words, land discs and icons keep the paper's safe distance from every cut."""
    from terragen.render.model import Circle
    from terragen.render.kits.terraflip.art import spy_token, tower_face

    paper = load_paper("a4")
    R = DEFAULT_TILE / 3 ** 0.5
    inner = R * 3 ** 0.5 / 2 - paper.safe  # distance allowed from the centre along each edge normal
    tiles, _ = tile_sheets(PrintOptions(paper), tileset)
    faces = [t.front for t in tiles] + [t.back for t in tiles] + [tower_face(R)]
    for face in faces:
        for it, m in flatten(face):
            if isinstance(it, Text):
                pts = _text_corners(it, m)
            elif isinstance(it, Circle) and it.style.fill == "#ffffff":  # the land disc / icon disc
                pts = [(m[4] + it.cx + dx * it.r, m[5] + it.cy + dy * it.r) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7))]
            else:
                continue
            for x, y in pts:
                assert abs(x) <= inner + 1e-6 and abs(x) / 2 + abs(y) * 3 ** 0.5 / 2 <= inner + 1e-6, (getattr(it, "text", it), x, y)
    for f in FAMILIES:
        for it, m in flatten(spy_token(22.0, f)):
            if isinstance(it, Text):
                assert all((x * x + y * y) ** 0.5 <= 11.0 - paper.safe for x, y in _text_corners(it, m)), it.text


def test_nothing_is_drawn_outside_the_printer_margin(kits):
    from .test_geometry import page_printable, visible_points

    for kit in kits.values():
        for name, doc in kit.items():
            for page in doc.pages:
                x0, y0, x1, y1 = page_printable(page)
                for x, y in visible_points(page.items):
                    assert x0 - 1e-3 <= x <= x1 + 1e-3 and y0 - 1e-3 <= y <= y1 + 1e-3, (name, page.label, x, y)


def test_kit_command_module_loads_no_heavy_library():
    import subprocess as sp
    import sys

    code = ("import sys, terragen.cli.kit_terraflip; "
            "print([m for m in ('reportlab', 'shapely', 'svgwrite', 'ortools') if m in sys.modules])")
    p = sp.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "[]", p.stdout + p.stderr


@pytest.mark.parametrize("paper, size", [("a4", 25.0), ("letter", 55.0), ("a4", 70.0)])
def test_other_tile_sizes_stay_inside_the_margin(tileset, paper, size):
    from .test_geometry import page_printable, visible_points

    opts = PrintOptions(load_paper(paper), flip="short")
    tiles, imp = tile_sheets(opts, tileset, size)
    assert len(imp.fronts) == len(tiles) and len(imp.pages) % 2 == 0
    for page in imp.pages:
        x0, y0, x1, y1 = page_printable(page)
        assert all(x0 - 1e-3 <= x <= x1 + 1e-3 and y0 - 1e-3 <= y <= y1 + 1e-3 for x, y in visible_points(page.items))


def test_text_pages_end_above_the_footer(kits):
    """The rules and instructions must fit their page: only the footer's two lines sit below the content."""
    for paper, kit in kits.items():
        c = load_paper(paper).content
        for name in ("rules", "instructions"):
            (page,) = kit[name].pages
            below = [it.text for it, m in flatten(page.items) if isinstance(it, Text) and it.y + m[5] > c.y1]
            assert len(below) == 2, (paper, name, below)
        words = " ".join(it.text for it, _ in flatten(kit["rules"].pages[0].items) if isinstance(it, Text))
        assert f"{TILES_PER_FAMILY} land tiles" in words and f"{SPIES_PER_PLAYER} spy" in words


def test_gutter_fold_backs_sit_below_their_fronts(tileset):
    from terragen.render.impose import gutter_fold
    from terragen.render.shapes import Shape
    from terragen.render.kits.terraflip.kit import kit_tiles

    paper = load_paper("letter")
    shape = Shape("hex", DEFAULT_TILE)
    tiles = kit_tiles(shape.circumradius, tileset)
    imp = gutter_fold(shape, tiles, PrintOptions(paper), "TerraFlip", "t")
    (_, fold_y), (_, fold_y2) = imp.fold
    assert fold_y == fold_y2  # folded across the sheet
    for f, b in zip(imp.fronts, imp.backs):
        assert (b.tile, b.page, b.x) == (f.tile, f.page, f.x)
        assert b.y == pytest.approx(2 * fold_y - f.y)  # mirrored about the fold
        assert f.y < fold_y < b.y


def test_cli_designs_the_tile_set_from_a_seed_with_same_bytes(tmp_path: Path):
    pytest.importorskip("ortools")
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        p = run("kit", "terraflip", "--seed", "4", "--out", out)
        assert p.returncode == 0, p.stderr
    files = sorted(f.name for f in a.iterdir())
    assert len(files) == 6
    assert all((a / f).read_bytes() == (b / f).read_bytes() for f in files)


def test_the_instructions_name_the_tile_file_not_the_path_typed():
    """The path as typed (relative to where the command ran) made the same kit's bytes differ."""
    from terragen.render.kits.terraflip.kit import load_tileset
    from terragen.terraflip.design import DesignSpec, design_tileset

    text = json.dumps(design_tileset(DesignSpec(), 7).to_json())
    lines = {load_tileset(text, name, None)[1] for name in ("../../in/tiles.json", "/tmp/in/tiles.json", "tiles.json")}
    assert lines == {"Tile set read from tiles.json"}


def test_the_rules_page_counts_the_kits_own_land_tiles():
    """With a tile set of 12 per family the rules page still said each family has nine."""
    from terragen.terraflip.design import DesignSpec, design_tileset

    big = design_tileset(DesignSpec(per_family=12), 1).tileset
    rules = {p.name: p.doc for p in terraflip_kit(PrintOptions(load_paper("a4")), big)}["rules"]
    text = " ".join(t.text for page in rules.pages for t, _ in flatten(page.items) if isinstance(t, Text))
    assert "takes the 12 land tiles" in text and f"takes the {TILES_PER_FAMILY} land tiles" not in text


@pytest.mark.parametrize("family", FAMILIES)
def test_a_spy_tokens_words_sit_on_a_plain_plate_clear_of_the_eye(family):
    """The word SPY touched the eye's disc and the hatch ran through "SPY GREEN": the words sit on
    a plate of the plain colour, painted over the hatch, and keep 0.3 mm from the disc's ink."""
    from shapely.geometry import MultiPoint, Point, box

    from terragen.render.kits.terraflip.art import spy_token
    from terragen.render.model import Circle

    items = spy_token(22.0, family)
    words = [(k, it) for k, it in enumerate(items) if isinstance(it, Text)]
    assert [it.text for _, it in words] == ["SPY", family.upper()]
    disc = next(it for it in items if isinstance(it, Circle) and it.style.fill == "#ffffff")
    eye = Point(disc.cx, disc.cy).buffer(disc.r + disc.style.width / 2)
    hatch = max([k for k, it in enumerate(items) if isinstance(it, Circle) and it.style.hatch] or [0])
    for k, word in words:
        letters = MultiPoint(_text_corners(word, (1, 0, 0, 1, 0, 0))).envelope
        assert eye.distance(letters) >= 0.3, word.text
        plates = [it for it in items[hatch + 1:k] if isinstance(it, Polygon) and it.style.fill == colour_of(family)
                  and not it.style.hatch and box(*MultiPoint(it.points).bounds).contains(letters)]
        assert plates, word.text
        assert eye.distance(box(*MultiPoint(plates[-1].points).bounds)) >= 0.3
