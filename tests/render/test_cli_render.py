"""``terragen kit`` and ``terragen render`` as a user meets them: files, exit codes, one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "terragen" / "data" / "terrain" / "examples"


def run(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TERRAGEN_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def one_line_usage_error(p):
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    return lines[0]


def test_kit_terrain_writes_every_file_into_a_new_folder(tmp_path: Path):
    out = tmp_path / "new" / "kit"
    p = run("kit", "terrain", "--paper", "letter", "--out", out)
    assert p.returncode == 0, p.stderr
    names = sorted(f.name for f in out.iterdir())
    assert names == sorted(f"terrain-{n}-letter.pdf" for n in
                           ["rules", "tiles", "tiles-gutterfold", "alignment-test", "board", "tokens"])
    for f in out.iterdir():
        assert f.read_bytes().startswith(b"%PDF-")
    assert not list(out.glob(".*tmp"))  # no temporary files left behind
    first = {f.name: f.read_bytes() for f in out.iterdir()}
    again = run("kit", "terrain", "--paper", "letter", "--out", out)
    assert again.returncode == 2 and "--force" in again.stderr  # never overwritten unasked
    assert run("kit", "terrain", "--paper", "letter", "--out", out, "--force").returncode == 0
    assert first == {f.name: f.read_bytes() for f in out.iterdir()}  # same input, same bytes


@pytest.mark.parametrize("args, needle", [
    (["--paper", "a3"], "--paper"),
    (["--back-offset", "1;2"], "--back-offset"),
    (["--back-offset", "50,0"], "--back-offset"),
    (["--scale", "4"], "--scale"),
    (["--tile-size", "500"], "--tile-size"),
])
def test_kit_bad_options_are_one_line_exit_2(tmp_path: Path, args, needle):
    p = run("kit", "terrain", "--out", tmp_path / "k", *args)
    assert needle in one_line_usage_error(p)
    assert not (tmp_path / "k").exists() or not list((tmp_path / "k").iterdir())


def test_render_pdf_and_svg(tmp_path: Path):
    pdf = tmp_path / "sheets" / "b.pdf"
    p = run("render", EXAMPLES / "four-players.json", "--out", pdf)
    assert p.returncode == 0, p.stderr
    assert pdf.read_bytes().startswith(b"%PDF-")
    svg = tmp_path / "b.svg"
    p = run("render", EXAMPLES / "four-players.txt", "--format", "svg", "--out", svg)
    assert p.returncode == 0, p.stderr
    pages = sorted(tmp_path.glob("b-p*.svg"))  # a multi-page sheet: one SVG per page
    assert len(pages) >= 2
    text = pages[0].read_text()
    assert text.startswith("<svg") and 'width="297mm"' in text  # landscape A4


def test_render_errors_keep_existing_output(tmp_path: Path):
    out = tmp_path / "keep.pdf"
    out.write_bytes(b"old")
    p = run("render", EXAMPLES / "two-players.txt", "--out", out)
    assert "--force" in one_line_usage_error(p)  # an existing file is never replaced unasked
    p = run("render", tmp_path / "missing.txt", "--out", out, "--force")
    assert "no such file" in one_line_usage_error(p)
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "terrain", "radius": ')
    p = run("render", bad, "--out", out, "--force")
    one_line_usage_error(p)
    p = run("render", EXAMPLES / "two-players.txt", "--paper", "tabloid", "--out", out, "--force")
    assert "--paper" in one_line_usage_error(p)
    assert out.read_bytes() == b"old"


def test_render_svg_pages_of_an_earlier_longer_sheet_are_part_of_the_result(tmp_path: Path):
    """A folder holding the pages of two boards would print the wrong build order: a page left
    from an earlier sheet under the same name is refused without --force and removed with it,
    and said so. Only such pages: a board picture named like the output, a file whose name is not
    a page name terragen writes, or an SVG that is no build sheet are left alone."""
    import json

    p = run("render", EXAMPLES / "four-players.txt", "--format", "svg", "--out", tmp_path / "first" / "b.svg")
    assert p.returncode == 0, p.stderr
    sheet_page = next((tmp_path / "first").glob("b-p01.svg")).read_text()
    (tmp_path / "b-p09.svg").write_text(sheet_page)  # an earlier, longer sheet's last page
    keep = {"b.svg": "<svg>generate's board picture</svg>", "b-p007.svg": sheet_page, "b-p10.svg": "<svg>mine</svg>",
            "b-p11.txt": sheet_page}
    for name, text in keep.items():
        (tmp_path / name).write_text(text)
    p = run("render", EXAMPLES / "two-players.txt", "--format", "svg", "--out", tmp_path / "b.svg")
    assert "b-p09.svg is a page of an earlier build sheet" in one_line_usage_error(p)
    assert not (tmp_path / "b-p01.svg").exists()
    p = run("render", EXAMPLES / "two-players.txt", "--format", "svg", "--out", tmp_path / "b.svg", "--force", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert [Path(f).name for f in doc["removed"]] == ["b-p09.svg"]
    pages = sorted(q.name for q in tmp_path.glob("b-p??.svg") if q.name != "b-p10.svg")
    assert pages == [f"b-p{k:02d}.svg" for k in range(1, len(pages) + 1)] and len(pages) >= 2
    assert all((tmp_path / name).read_text() == text for name, text in keep.items())


def test_pages_set_aside_come_back_when_the_new_sheet_cannot_be_written(tmp_path: Path):
    from terragen.render.output import replace_stale

    old = tmp_path / "b-p09.svg"
    old.write_text("an earlier page")

    def fails():
        raise OSError("disk full")

    with pytest.raises(OSError):
        replace_stale([old], fails)
    assert old.read_text() == "an earlier page" and sorted(q.name for q in tmp_path.iterdir()) == ["b-p09.svg"]
    assert replace_stale([old], lambda: []) == [] and not list(tmp_path.iterdir())


def test_render_draws_a_board_whose_players_have_no_destination_yet(tmp_path: Path):
    """A board built by hand has no destinations at first; its sheet is how the builder checks the
    pieces, so it is drawn with validate's error as a warning (refused only with --strict)."""
    board = EXAMPLES / "invalid" / "destination-count.txt"
    p = run("render", board, "--out", tmp_path / "b.pdf")
    assert p.returncode == 0 and "warning" in p.stderr and "destination-count" in p.stderr, p.stderr
    text = subprocess.run(["pdftotext", str(tmp_path / "b.pdf"), "-"], capture_output=True, text=True).stdout
    assert "no destination yet" in text
    p = run("render", board, "--out", tmp_path / "c.pdf", "--strict")
    assert p.returncode == 1 and not (tmp_path / "c.pdf").exists()


def test_help_lists_examples():
    p = run("kit", "terrain", "--help")
    assert p.returncode == 0 and "--flip" in p.stdout and "--back-offset" in p.stdout and "--nets" in p.stdout
    p = run("render", "--help")
    assert p.returncode == 0 and "terragen render" in p.stdout


def test_kit_svg_writes_one_true_size_file_per_page(tmp_path: Path):
    p = run("kit", "terrain", "--format", "svg", "--out", tmp_path)
    assert p.returncode == 0, p.stderr
    svgs = sorted(tmp_path.glob("terrain-tiles-a4-p*.svg"))
    assert len(svgs) == 14
    assert 'width="210mm"' in svgs[0].read_text()
    assert len(list(tmp_path.glob("*.svg"))) == 43


@pytest.mark.parametrize("game", ["terrace", "terralogical", "terraflip"])
def test_every_kit_takes_the_shared_format_option(tmp_path: Path, game):
    """--format is one of the print options every kit shares (Terrace's kit once lacked it)."""
    assert "--format" in run("kit", game, "--help").stdout
    p = run("kit", game, "--format", "svg", "--out", tmp_path)
    assert p.returncode == 0, p.stderr
    pdf_pages = run("kit", game, "--out", tmp_path / "pdf")
    assert pdf_pages.returncode == 0 and not list(tmp_path.glob("*.pdf")) and list((tmp_path / "pdf").glob("*.pdf"))
    assert not list((tmp_path / "pdf").glob("*.svg"))
    svgs = sorted(tmp_path.glob(f"{game}-*-a4-p*.svg"))
    assert svgs and all(s.read_text().startswith("<svg ") and 'width="210mm"' in s.read_text() for s in svgs)


def test_every_example_layout_renders_even_when_invalid():
    from terragen.render.kits.terrain.build_sheet import build_sheet
    from terragen.render.impose import PrintOptions
    from terragen.render.paper import load_paper
    from terragen.render.pdf import document_pdf
    from terragen.terrain.files import load_layout

    opts = PrintOptions(load_paper("a4"))
    files = sorted(EXAMPLES.glob("*.*")) + sorted((EXAMPLES / "invalid").glob("*.*"))
    assert len(files) > 10
    for f in files:
        try:
            layout = load_layout(f)
        except Exception as exc:  # a file the parser refuses is the parser's business, not the renderer's
            assert type(exc).__name__ in ("InputError", "SpecError"), f
            continue
        doc = build_sheet(layout, opts, f.name)
        assert document_pdf(doc).startswith(b"%PDF-")


def test_command_modules_load_no_heavy_library():
    code = ("import sys, terragen.cli.kit, terragen.cli.render; "
            "heavy = [m for m in ('reportlab', 'shapely', 'svgwrite') if m in sys.modules]; print(heavy)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "[]", p.stdout + p.stderr


@pytest.mark.parametrize("source,redirected", [("-", False), ("/dev/stdin", False), ("/dev/stdin", True)])
def test_a_layout_read_from_a_pipe_draws_to_layout_build_pdf_here(tmp_path: Path, source, redirected):
    """Standard input has no name to build the sheet's on (it made '--build.pdf', and /dev/stdin
    made /dev/stdin-build.pdf, also when a file was redirected to it): the sheet goes to the
    current folder under a plain name."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TERRAGEN_DEBUG", None)
    run_dir = tmp_path / "here"
    run_dir.mkdir()
    layout = EXAMPLES / "two-players.txt"
    with open(layout) as stdin:
        p = subprocess.run([sys.executable, "-m", "terragen", "render", source],
                           stdin=stdin if redirected else None, input=None if redirected else layout.read_text(),
                           capture_output=True, text=True, cwd=run_dir, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert [f.name for f in run_dir.iterdir()] == ["layout-build.pdf"]
    assert (run_dir / "layout-build.pdf").read_bytes().startswith(b"%PDF")
    assert not Path("/dev/stdin-build.pdf").exists()


def test_a_missing_layout_is_reported_as_missing_whatever_lies_here(tmp_path: Path):
    (tmp_path / "layout-build.pdf").write_bytes(b"%PDF-1.4 mine")
    p = run("render", "nosuch.json", cwd=tmp_path)
    assert p.returncode == 2 and "nosuch.json" in p.stderr and "exists already" not in p.stderr


def test_kit_svg_pages_of_an_earlier_longer_kit_are_part_of_the_result(tmp_path: Path):
    """Pages a longer kit left (more tiles, another paper's page count) would be printed with the
    new kit's pages: refused without --force, removed with it; a page name holding someone else's
    SVG stays."""
    import json

    p = run("kit", "terrace", "--format", "svg", "--out", tmp_path)
    assert p.returncode == 0, p.stderr
    first = sorted(tmp_path.glob("terrace-*-a4-p01.svg"))[0]
    stem = first.name[: -len("-p01.svg")]
    (tmp_path / f"{stem}-p17.svg").write_text(first.read_text())
    (tmp_path / f"{stem}-p18.svg").write_text("<svg><title>my own drawing</title></svg>")
    p = run("kit", "terrace", "--format", "svg", "--out", tmp_path)
    assert p.returncode == 2 and "exists already" in one_line_usage_error(p)
    p = run("kit", "terrace", "--format", "svg", "--out", tmp_path, "--force", "--json")
    assert p.returncode == 0, p.stderr
    assert [Path(f).name for f in json.loads(p.stdout)["removed"]] == [f"{stem}-p17.svg"]
    assert not (tmp_path / f"{stem}-p17.svg").exists() and (tmp_path / f"{stem}-p18.svg").exists()


def test_render_svg_pages_named_in_capitals_are_found_too(tmp_path: Path):
    p = run("render", EXAMPLES / "four-players.txt", "--format", "svg", "--out", tmp_path / "first" / "B.SVG")
    assert p.returncode == 0, p.stderr
    (tmp_path / "B-p09.SVG").write_text((tmp_path / "first" / "B-p01.SVG").read_text())
    p = run("render", EXAMPLES / "two-players.txt", "--format", "svg", "--out", tmp_path / "B.SVG")
    assert "B-p09.SVG is a page of an earlier build sheet" in one_line_usage_error(p)


def test_a_long_page_name_set_aside_for_a_shorter_sheet_fits_the_name_limit():
    """Stale pages are renamed aside to ".<name>.<pid>.old": a 251-byte page name made that 260
    bytes, and render --force failed with "File name too long" after all its work."""
    from terragen.render.output import set_aside_name

    for name in ("c" * 251 + ".svg", "é" * 125 + ".svg", "board-build-1.svg"):
        aside = set_aside_name(name)
        assert len(aside.encode("utf-8")) <= 255 and aside.startswith(".") and aside.endswith(".old")
    assert set_aside_name("board-build-1.svg").startswith(".board-build-1.svg.")


def test_kit_terrain_prints_the_board_and_pieces_of_another_radius(tmp_path: Path):
    """A board from generate --radius 6 called for fourth copies of 31 pieces, and a radius-3 one
    put corner 0 at (3, 0), while the kit printed the boxed set and a radius-5 board marked at
    (5, 0): neither could be built from the kit. --radius and --inventory take generate's values."""
    import shutil

    if not shutil.which("pdftotext"):
        pytest.skip("needs poppler-utils' pdftotext")

    def text(pdf: Path) -> str:
        return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, timeout=60).stdout

    p = run("kit", "terrain", "--radius", "6", "--out", tmp_path / "r6")
    assert p.returncode == 0, p.stderr
    pieces = text(tmp_path / "r6" / "terrain-tiles-r6-a4.pdf")  # named for its radius, beside a standard kit
    assert "128 pieces" in pieces and "8D4" in pieces  # the extended set generate builds radius 6 from
    assert "127 positions, radius 6" in text(tmp_path / "r6" / "terrain-board-r6-a4.pdf")
    rules = " ".join(text(tmp_path / "r6" / "terrain-rules-r6-a4.pdf").split())
    assert "127-position board, the 128 pieces (127 go on the board, 1 is a spare)" in rules and "91" not in rules
    assert run("kit", "terrain", "--out", tmp_path / "r6").returncode == 0  # the standard kit beside it
    p = run("kit", "terrain", "--radius", "3", "--out", tmp_path / "r3")
    assert p.returncode == 0, p.stderr
    board = text(tmp_path / "r3" / "terrain-board-r3-a4.pdf")
    assert "37 positions, radius 3" in board and "3,0" in board and "5,0" not in board
    assert "96 pieces" in text(tmp_path / "r3" / "terrain-tiles-r3-a4.pdf")
    line = one_line_usage_error(run("kit", "terrain", "--radius", "6", "--inventory", "standard", "--out", tmp_path / "x"))
    assert "the 96 pieces of the 'standard' set cannot cover a radius-6 board's 127 positions" in line
    assert not (tmp_path / "x").exists()
    line = one_line_usage_error(run("kit", "terrain", "--inventory", "nosuch", "--out", tmp_path / "x"))
    assert line.startswith("terragen: error: --inventory: unknown inventory 'nosuch'") and not (tmp_path / "x").exists()


def test_a_sheet_names_generates_board_by_its_folder_or_as_told(tmp_path: Path):
    """Every board generate writes is board.json: its sheets were all titled 'Build sheet: board.json'."""
    import shutil

    if not shutil.which("pdftotext"):
        pytest.skip("needs poppler-utils' pdftotext")
    (tmp_path / "friday").mkdir()
    shutil.copy(EXAMPLES / "two-players.txt", tmp_path / "friday" / "board.txt")
    shutil.copy(EXAMPLES / "two-players.txt", tmp_path / "castle.txt")

    def title(*args) -> str:
        p = run("render", *args, "--out", tmp_path / "s.pdf", "--force", cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        page = subprocess.run(["pdftotext", "-l", "1", str(tmp_path / "s.pdf"), "-"], capture_output=True, text=True)
        return page.stdout.splitlines()[0].split(" (part ")[0]

    assert title("friday/board.txt") == "Build sheet: friday/board.txt"
    assert title("castle.txt") == "Build sheet: castle.txt"  # a name of the user's own says enough
    assert title("castle.txt", "--name", "Friday's\n  race") == "Build sheet: Friday's race"
    line = one_line_usage_error(run("render", "castle.txt", "--name", "x" * 81, "--out", tmp_path / "t.pdf", cwd=tmp_path))
    assert "--name: give 1 to 80 characters (got 81)" in line and not (tmp_path / "t.pdf").exists()


def test_control_characters_in_a_users_text_never_break_a_page_or_a_line(tmp_path: Path):
    """A build order in a layout's meta, or the file's own name, holding a control character gave SVG
    pages no viewer would open (exit 0), and the 'written to' line carried the raw byte."""
    import json
    import xml.dom.minidom

    data = json.loads(run("convert", EXAMPLES / "two-players.txt", "-", "--to", "json").stdout)
    data["meta"] = {"build_order": [{"seat": 0, "piece": "5B\x07\x1b[2J", "q": 0, "r": 0}]}
    board = tmp_path / "ctl\x01name.json"
    board.write_text(json.dumps(data))
    p = run("render", board, "--format", "svg")
    assert p.returncode == 0, p.stderr
    assert "\x01" not in p.stdout and "ctl\\x01name-build-p01.svg" in p.stdout
    pages = sorted(tmp_path.glob("*.svg"))
    assert len(pages) >= 3
    for page in pages:
        xml.dom.minidom.parse(str(page))  # well-formed
    assert "5B\ufffd\ufffd[2J" in pages[-1].read_text(encoding="utf-8")


def test_kit_terrace_says_duplex_options_change_nothing(tmp_path: Path):
    """--flip short and --back-offset gave the Terrace kit, which prints on one side, the same bytes
    without a word."""
    p = run("kit", "terrace", "--flip", "short", "--back-offset", "1,1", "--out", tmp_path / "k")
    assert p.returncode == 0 and "warning: the Terrace kit prints on one side only" in p.stderr, p.stderr
    p = run("kit", "terrace", "--out", tmp_path / "plain")
    assert p.returncode == 0 and p.stderr == "", p.stderr


def test_a_duplex_kit_says_to_print_its_alignment_test_first(tmp_path: Path):
    """The README's first printing step; the kit's list of files left it unsaid."""
    p = run("kit", "terrain", "--out", tmp_path / "k")
    last = p.stdout.splitlines()[-1]
    assert p.returncode == 0 and last.startswith("print terrain-alignment-test-a4.pdf double-sided first"), p.stdout
    # the page as this install has it (a wheel's user has no docs/ folder to open)
    page = last.rsplit("(", 1)[1].rstrip(")")
    assert Path(page).is_file() or page == "docs/printing.md in terragen's source distribution", last
    p = run("kit", "terrace", "--out", tmp_path / "t")  # one-sided: no alignment test to print
    assert p.returncode == 0 and "double-sided first" not in p.stdout


def test_kit_json_gives_each_files_pages_as_numbers(tmp_path: Path):
    """'what': '7 pages' was the only page count: a script had to parse words."""
    import json
    import re
    import subprocess

    p = run("kit", "terrace", "--out", tmp_path, "--json")
    assert p.returncode == 0, p.stderr
    files = json.loads(p.stdout)["files"]
    for f in files:
        info = subprocess.run(["pdfinfo", f["path"]], capture_output=True, text=True, check=True).stdout
        assert f["pages"] == int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1)), f
    p = run("kit", "terrace", "--out", tmp_path / "svg", "--format", "svg", "--json")
    pages = json.loads(p.stdout)["files"]
    assert [(f["page"], f["pages"]) for f in pages][:2] == [(1, 1), (1, 1)]  # the rules and set-ups: a page each
    assert all(1 <= f["page"] <= f["pages"] for f in pages)


def test_render_warns_of_twenty_rule_breaks_and_counts_the_rest(tmp_path: Path):
    """A hostile file printed one warning line per rule break: 14,000 lines."""
    import json

    assert run("convert", EXAMPLES / "two-players.txt", tmp_path / "b.json").returncode == 0
    data = json.loads((tmp_path / "b.json").read_text())
    for cell in data["cells"][:30]:
        cell["level"] = 9
    (tmp_path / "b.json").write_text(json.dumps(data))
    p = run("render", tmp_path / "b.json", "--out", tmp_path / "b.pdf")
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 0 and (tmp_path / "b.pdf").is_file(), p.stderr
    assert sum("level-out-of-range" in line for line in lines) == 20
    assert lines[-1].endswith("and 10 more rule breaks ('terragen validate' lists them all)")


@pytest.mark.parametrize("args", [["render", EXAMPLES / "two-players.txt", "--out", "x.pdf"],
                                  ["batch", "--count", "2", "--kind", "route", "--difficulty", "easy", "--out", "b"]])
def test_a_source_date_epoch_a_pdf_cannot_use_is_one_line_before_any_work(tmp_path: Path, args):
    """'abc' failed inside reportlab as an internal error (exit 70), for a batch after its scenarios."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SOURCE_DATE_EPOCH="abc")
    p = subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=120)
    assert "SOURCE_DATE_EPOCH='abc'" in one_line_usage_error(p)
    assert list(tmp_path.iterdir()) == []
    if args[0] == "render":  # set empty, as build scripts often export it: unset, as reportlab reads it
        p = subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                           cwd=tmp_path, env={**env, "SOURCE_DATE_EPOCH": ""}, timeout=120)
        assert p.returncode == 0 and (tmp_path / "x.pdf").is_file(), p.stderr


def test_a_kit_of_an_inventory_too_large_to_print_is_refused_at_once(tmp_path: Path):
    """copies = 1000 (what an inventory may hold) ran for minutes towards 1.6 GB, saying nothing."""
    (tmp_path / "huge.toml").write_text('name = "huge"\ncopies = 100\n')
    p = run("kit", "terrain", "--inventory", tmp_path / "huge.toml", "--out", tmp_path / "k")
    assert "has 3200 pieces; a kit prints at most" in one_line_usage_error(p)
    assert not (tmp_path / "k").exists()
