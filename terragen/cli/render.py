"""``terragen render LAYOUT``: a layout as a printable build sheet (SVG or PDF)."""

from __future__ import annotations

import os

from pathlib import Path

import click

from terragen.cli._common import (NameChoice, NON_EMPTY_TEXT, PRINT_SCALE, SCALE_HELP, PathName, check_file_name, check_outputs,
                                  echo_json, force_option, json_option, one_standard_input, palette_option, paper_choice,
                                  read_palette_option,
                                  say, warn)

#: --out suffixes of formats render does not write: a name that promises one of them is refused
OTHER_FORMATS = frozenset({"png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "eps", "ps", "txt", "json",
                           "html", "htm"})


#: the longest --name a sheet's title takes (longer, the title's type shrank below readable)
MAX_NAME = 80
WARNINGS_SHOWN = 20  # rule breaks warned of one by one before the rest are counted


def warn_rule_breaks(name: str, errors: list, shown: int = WARNINGS_SHOWN) -> None:
    """One warning line per rule ``name``'s board breaks, up to ``shown`` of them (a screenful for
    render), then how many more: a hostile file printed 14,000 lines."""
    from terragen.plain_text import counted

    listed = errors[:shown] if len(errors) > shown + 1 else errors
    for f in listed:
        warn(f"{name}: breaks a rule: [{f.code}] {f.message}")
    if len(listed) < len(errors):
        warn(f"{name}: and {counted(len(errors) - len(listed), 'more rule break')} ('terragen validate' lists them all)")


@click.command()
@click.argument("layout_file", metavar="LAYOUT", type=PathName(dir_okay=False, path_type=str))
@click.option("--format", "fmt", type=NameChoice(["svg", "pdf"], "format"), default=None,
              help="Output format. [default: from --out's suffix, else pdf]")
@click.option("--paper", type=paper_choice(), default="a4", show_default=True, help="Paper size.")
@click.option("-o", "--out", "out", type=PathName(dir_okay=False, path_type=str), default=None,
              help="Output file. [default: LAYOUT's name with -build.pdf/.svg, next to it; layout-build.pdf here for - or a pipe]")
@force_option
@click.option("--scale", "print_scale", type=PRINT_SCALE, default=1.0, show_default=True,
              help=SCALE_HELP)
@palette_option
@click.option("--strict", is_flag=True, help="Refuse (exit 1) to draw a layout that breaks a rule, instead of warning.")
@click.option("--name", type=NON_EMPTY_TEXT, default=None,
              help="What the sheet calls the board. [default: LAYOUT's name; generate's board.json with its folder]")
@json_option
def render(layout_file: str, fmt: str | None, paper: str, out: str | Path | None, force: bool, print_scale: float,
           palette: str, strict: bool, name: str | None, as_json: bool) -> int:
    """Draw LAYOUT (JSON or text form, or a batch scenario file) as a build
    sheet: landscape pages with each position's piece, rotation and level,
    starts and destinations, then a map of each player's cheapest route, and
    the build order when the layout carries one. As SVG, each page is its own
    file (NAME-p01.svg ...); with --force, pages left from an earlier, longer
    sheet under the same name are removed (they would print the wrong build
    order), and only those.

    A layout that breaks a rule is still drawn, with one warning line per
    problem on stderr, the first 20 of them (run terragen validate for the
    full report), except a
    batch puzzle's single player, drawn as it is; --strict refuses it instead,
    in one error line naming the first problem and how many more there are.

    \b
    Examples:
      terragen render my-board.txt
      terragen render board.json --format svg --out board.svg
      terragen render board.json --paper letter --out sheets/board.pdf --force
      terragen render friday/board.json --name "Friday's race"
      terragen render board.json --palette grey   (a kit printed in grey)
      terragen render board.json --json

    Exit status: 0 sheet written, 1 the layout breaks a rule and --strict was
    given, or holds nothing to draw (no player, 7 or more, or more than 3
    destinations for a seat), 2 unreadable layout, bad options, or the output
    exists (add --force), 73 a file could not be written (read-only, disk full, a link
    to nothing, a file where a folder goes); 70, 129, 130, 143 as for every command
    (terragen --help).
    """
    from terragen.errors import EXIT_INVALID, InputError
    from terragen.fileio import display_name
    from terragen.render.impose import PrintOptions
    from terragen.render.kits.terrain.build_sheet import build_sheet
    from terragen.render.output import output_paths, refuse_stale, replace_stale, stale_pages, write_document
    from terragen.render.paper import load_paper
    from terragen.terrain.validation import check_game_shape, validate_layout

    if name is not None:  # a title line: one line of words, short enough to stay readable
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME:
            raise InputError(f"--name: give 1 to {MAX_NAME} characters (got {len(name)})")
    if out is not None:  # a str until here: Path() would drop the "/" that says "a folder"
        check_file_name(out)
        out = Path(out)
    suffix = out.suffix.lower().lstrip(".") if out is not None else ""
    if fmt is None:
        fmt = "svg" if suffix == "svg" else "pdf"
    elif suffix in ("pdf", "svg") and suffix != fmt:
        raise InputError(f"--format {fmt} but --out {display_name(out)} ends in .{suffix}: "
                         "give one or make them agree")
    if out is None:
        src = Path(layout_file)
        if layout_file == "-" or (os.path.exists(src) and not os.path.isfile(src)) or _system_path(src):
            # standard input, a device or pipe (/dev/stdin, a redirected file behind it) has no name
            # to build on, nor a folder to write beside: the sheet goes here as layout-build.pdf
            # (a missing file keeps its own name, so the error is the missing file's)
            out = Path(f"layout-build.{fmt}")
        else:
            out = src.with_name(f"{src.stem}-build.{fmt}")
    if os.path.exists(layout_file) and os.path.exists(out) and Path(layout_file).resolve() == out.resolve():
        raise InputError(f"--out {display_name(out)} is the layout being drawn: it would be overwritten")
    if suffix in OTHER_FORMATS:  # a PDF named x.png was written without a word
        raise InputError(f"--out {display_name(out)}: render writes PDF or SVG, not {suffix.upper()}; "
                         "end the name in .pdf or .svg (pdftoppm -png turns a PDF into images)")
    one_standard_input(**{"LAYOUT": layout_file, "--palette": palette})  # (the palette swallowed the layout)
    # a misspelt palette before an existing output: "add --force" first, and then the typo, was two tries
    colours = read_palette_option(palette)
    if fmt == "pdf":  # fail before any work; SVG page names are known once the sheet is drawn
        check_outputs([out], force, inputs=[layout_file])
    opts = PrintOptions(load_paper(paper), print_scale)
    from terragen.fileio import read_text_input
    from terragen.plain_text import counted
    from terragen.terrain.files import parse_layout
    from terragen.terrain.formats_json import is_scenario

    text = read_text_input(layout_file)  # read once: a scenario is told apart by its own text (stdin too)
    layout = parse_layout(text, str(layout_file))
    # no player or 7+ (20,000 would take a gigabyte) is nothing to draw; one is a puzzle from batch,
    # and a player with no destination yet is a board half built (validate's error is warned below)
    check_game_shape(layout, display_name(layout_file), min_players=1, distinct_seats=False, min_destinations=0,
                     whole_game=False)
    puzzle = is_scenario(text)
    # a batch puzzle's one player is the puzzle, not a broken rule, as validate judges it; any other
    # one-player board is warned about as every broken rule is (it was drawn without a word)
    report = validate_layout(layout, puzzle=puzzle)
    errors = report.errors
    if strict and errors:
        # a refusal is one error line, as every error is (it was one line per problem): the first
        # problem, how many more, and where to see them all, worded as terrace's commands word theirs
        first, more = errors[0], len(errors) - 1
        rest = f" (and {more} more; see 'terragen validate')" if more else ""
        if as_json:  # a script asked for a document: it says why nothing was drawn
            echo_json({"files": [], "removed": [], "format": fmt, "paper": paper, "pages": 0, "valid": False,
                       "errors": [f.to_json() for f in errors]})
        raise InputError(f"{display_name(layout_file)}: breaks a rule: [{first.code}] {first.message}{rest}",
                         EXIT_INVALID)
    warn_rule_breaks(display_name(layout_file), errors)  # drawn all the same, as the help says
    stale = [f for f in report.warnings if f.code == "piece-id-mismatch"]
    if stale:  # the sheet prints recorded ids and the recorded build order: say they are out of date
        match = "matches its piece" if len(stale) == 1 else "match their pieces"
        warn(f"{display_name(layout_file)}: {counted(len(stale), 'recorded piece id')} no longer {match} (first: "
             f"{stale[0].message.split(':')[0]}); the sheet's ids and build order come from the file's metadata")
    doc = build_sheet(layout, opts, name or sheet_name(layout_file), puzzle=puzzle, palette=colours)
    check_outputs(output_paths(doc, out, fmt), force, inputs=[layout_file])
    # pages of an earlier, longer sheet under this name are part of this result too
    old_pages = stale_pages(doc, out, fmt, keep=Path(layout_file))
    if not force:
        refuse_stale(old_pages, "an earlier build sheet under this name", "the new sheet, or choose another output")
    written = replace_stale(old_pages, lambda: write_document(doc, out, fmt))
    if as_json:
        echo_json({"files": [str(p) for p in written], "removed": [str(p) for p in old_pages], "format": fmt,
                   "paper": paper, "pages": len(doc.pages),
                   "valid": not errors, "errors": [f.to_json() for f in errors]})
    else:
        for path in written:
            say(f"written: {path}")  # as every command names a file it wrote
        for path in old_pages:
            say(f"removed {path}, a page of the earlier sheet under this name")
    return 0


def _system_path(path: Path) -> bool:
    """A path under /dev or /proc: a stream of the system's, never a folder for the sheet."""
    parts = Path(os.path.abspath(path)).parts  # as named: /dev/stdin resolves to the redirected file
    return len(parts) > 1 and parts[1] in ("dev", "proc")


def sheet_name(layout_file: str) -> str:
    """The name a sheet gives its board: the file's, and for the files generate writes the folder's
    too (``friday/board.json``), since every board it writes is called board.json and their sheets
    told nothing apart."""
    from terragen.fileio import display_name

    if layout_file == "-":
        return display_name(layout_file)
    p = Path(layout_file)
    return f"{p.parent.name}/{p.name}" if p.name in ("board.json", "board.txt") and p.parent.name else p.name
