"""``terragen kit GAME``: print-and-play sheets. One subcommand per game; the group is shared."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from terragen.cli._common import (NameChoice, FILE_OR_NAME, FINITE, PRINT_SCALE, SCALE_HELP, FolderName, Whole, check_folder,
                                  check_outputs, echo_json, one_standard_input, palette_option, paper_choice,
                                  read_palette_option, say)

if TYPE_CHECKING:
    from terragen.render.impose import PrintOptions

PAPER_HELP = "Paper size."
#: print_options keeps --force and --json here (context meta) for write_kit, so each kit's signature stays short
KIT_FLAGS = "terragen.kit_flags"


def _remember(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta.setdefault(KIT_FLAGS, {})[param.name] = value
    return value


def print_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The print flags every kit shares: paper, output folder and format, scale, outlines, ink, duplex flip and back offset."""
    opts = [
        click.option("--paper", default="a4", show_default=True, type=paper_choice(), help=PAPER_HELP),
        click.option("-o", "--out", "out_dir", default="output/kit", show_default=True, type=FolderName(path_type=Path),
                     help="Folder to write the files into (created if missing); file names say game, part and paper."),
        click.option("--force", is_flag=True, expose_value=False, callback=_remember,
                     help="Replace existing kit files (without it, nothing is overwritten)."),
        click.option("--json", "as_json", is_flag=True, expose_value=False, callback=_remember,
                     help="Print a JSON list of the files written (path, what: its pages, bytes) instead of lines."),
        click.option("--scale", "print_scale", type=PRINT_SCALE, default=1.0, show_default=True,
                     help=SCALE_HELP),
        click.option("--outlines/--no-outlines", default=None,
                     help="Cut lines round every piece (default: on for hex pieces and round tokens, crop ticks only for square tiles)."),
        click.option("--flip", type=NameChoice(["long", "short"], "flip edge"), default="long", show_default=True,
                     help="The edge your printer turns the sheet over for double-sided printing."),
        click.option("--low-ink", is_flag=True,
                     help="Pale tints instead of solid colour areas (a quarter of the ink); lines, symbols and text stay dark."),
        click.option("--format", "fmt", type=NameChoice(["pdf", "svg"], "format"), default="pdf", show_default=True,
                     help="pdf: one file per part; svg: one file per page (NAME-p01.svg ...), for editing (an SVG "
                          "names the DejaVu Sans Condensed font the PDF embeds: without it installed, "
                          "text may run wider)."),
        click.option("--back-offset", metavar="X,Y", default=None,
                     help="Duplex misregistration read on the alignment test sheet (mm, right/down positive, seen from the front); backs are shifted to cancel it."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def build_options(paper: str, print_scale: float, outlines: bool | None, flip: str, back_offset: str | None,
                  low_ink: bool = False) -> PrintOptions:
    from terragen.render.impose import PrintOptions, parse_offset
    from terragen.render.paper import load_paper

    return PrintOptions(load_paper(paper), print_scale, outlines, flip, parse_offset(back_offset), low_ink)


def write_kit(parts: Any, prefix: str, out_dir: Path, fmt: str = "pdf") -> None:
    """Draw every part of a kit, then write the files, so a failure leaves an earlier kit untouched.

    ``parts`` yields objects with ``name`` and ``doc``; files are named
    ``<prefix>-<name>.pdf`` (or one ``-pNN.svg`` per page with ``fmt="svg"``).
    """
    from terragen.fileio import OutputSet
    from terragen.render.output import refuse_stale, replace_stale

    flags = click.get_current_context().meta.get(KIT_FLAGS, {}) if click.get_current_context(silent=True) else {}
    check_folder(out_dir)
    files: list[tuple[Path, bytes | str, str]] = []
    counts: dict[Path, dict[str, int]] = {}  # --json: each file's pages as numbers, not only as words
    svg_parts: list[tuple[Path, str]] = []  # (the part's name as one file, what its pages' titles start with)
    for part in parts:
        stem = prefix.format(name=part.name)
        n = len(part.doc.pages)
        if fmt == "pdf":
            from terragen.render.pdf import document_pdf

            files.append((out_dir / f"{stem}.pdf", document_pdf(part.doc), f"{n} page{'s' if n != 1 else ''}"))
            counts[files[-1][0]] = {"pages": n}
        else:
            from terragen.render.svg import page_svg

            svg_parts.append((out_dir / f"{stem}.svg", part.doc.title.split(" (")[0]))
            for k, page in enumerate(part.doc.pages, 1):
                files.append((out_dir / f"{stem}-p{k:02d}.svg", page_svg(page, part.doc.title), f"page {k}/{n}"))
                counts[files[-1][0]] = {"page": k, "pages": n}
    force = flags.get("force", False)
    check_outputs([path for path, _, _ in files], force)
    old_pages = _stale_kit_pages(svg_parts, {path for path, _, _ in files})
    if not force:
        refuse_stale(old_pages, "an earlier kit in this folder", "the new kit, or choose another --out")

    def write_all() -> list[Path]:
        with OutputSet() as out:  # every file of the kit or none: a failure leaves an earlier kit whole
            for path, data, _ in files:
                out.add(path, data)
        return [path for path, _, _ in files]

    replace_stale(old_pages, write_all)
    for path, data, what in files:
        if not flags.get("as_json"):
            say(f"{path}  ({what}, {len(data) / 1024:.0f} KiB)")
    for path in old_pages:
        if not flags.get("as_json"):
            say(f"removed {path} (a page of the earlier kit)")
    test = next((path for path, _, _ in files if "alignment-test" in path.name), None)
    if test is not None and not flags.get("as_json"):  # the README's first step, which the list left unsaid
        from terragen.docs import doc_page

        # the page where this install has it: a wheel's user has no docs/printing.md to open
        say(f"print {test.name if fmt == 'pdf' else test.name.rsplit('-p', 1)[0] + '-p*.svg'} double-sided "
            f"first: it measures your printer's --back-offset ({doc_page('printing.md')})")
    if flags.get("as_json"):
        echo_json({"folder": str(out_dir), "files": [{"path": str(path), "what": what, "bytes": len(data), **counts[path]}
                                                     for path, data, what in files],
                   "removed": [str(path) for path in old_pages]})


def _stale_kit_pages(svg_parts: list[tuple[Path, str]], new: set[Path]) -> list[Path]:
    """SVG pages an earlier, longer kit part left in the folder that this kit will not overwrite:
    a folder holding pages of two kits prints the wrong sheets, so they are part of the result."""
    from terragen.render.output import stale_page_files

    return [q for name, title in svg_parts for q in stale_page_files(name, new, f"<title>{title}")]


#: Kits of the other games live in their own modules, loaded only when asked for:
#: name -> (module, attribute). Each is a click command taking ``print_options``.
GAME_KITS: dict[str, tuple[str, str]] = {
    "terrace": ("terragen.cli.kit_terrace", "terrace"),
    "terralogical": ("terragen.cli.kit_terralogical", "terralogical"),
    "terraflip": ("terragen.cli.kit_terraflip", "terraflip"),
}


class KitGroup(click.Group):
    """The ``kit`` group: the Terrain kit is defined here, the other games' kits load lazily."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        import importlib.util

        names = set(super().list_commands(ctx))
        names |= {g for g, (mod, _) in GAME_KITS.items() if importlib.util.find_spec(mod) is not None}
        return sorted(names)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None or cmd_name not in GAME_KITS:
            return cmd
        import importlib
        import importlib.util

        mod, attr = GAME_KITS[cmd_name]
        if importlib.util.find_spec(mod) is None:
            return None
        return getattr(importlib.import_module(mod), attr)


@click.group(cls=KitGroup)
def kit() -> None:
    """Print-and-play sheets for a game: pieces, boards, tokens, rules.

    Every kit shares the print options (--paper, --out, --format, --scale,
    --outlines, --low-ink, --flip, --back-offset, --force, --json); files are named after the game,
    the part and the paper, and an existing file is never replaced without
    --force. The Terrain Game's kit also takes --palette (its pieces are
    coloured by level: grey for a black-and-white printer); the other games
    mark their sides with a letter or sign as well as a colour, so they print
    as they are.

    Before the rest, print the kit's alignment test double-sided at 100% and
    measure its 100 mm bar: it says whether your printer keeps the scale and
    how far its backs land from its fronts (--back-offset; docs/printing.md).
    The Terrace kit has no backs to align, so no test; the 100 mm bar is at
    the foot of every page of every kit.

    \b
    Examples:
      terragen kit terrain --out my-kit
      terragen kit terrain --paper letter --nets --out my-kit
      terragen kit terrace --paper letter --out my-kit --json
      terragen kit terraflip --out my-kit --force

    Exit status: 0 files written, 2 bad options, an unreadable input file,
    or an output that exists (add --force), 73 a file could not be written (read-only,
    disk full, a link to nothing, a file where a folder goes); 70, 129, 130, 143 as for
    every command (terragen --help).
    """


@kit.command()
@print_options
@click.option("--tile-size", type=FINITE, default=50.0, show_default=True, metavar="MM",
              help="Piece size across flats in mm, 25 to 80; 50 mm suits 6 mm levels (the real game's scale).")
@click.option("--nets", is_flag=True, help="Also write fold-up 3D nets for every piece (walls level x 6 mm).")
@click.option("--radius", type=Whole(3, 6, show_range=False),
              help="Board radius 3-6, as given to generate: the board sheets and their start marks. [default: 5]")
@click.option("--inventory", type=FILE_OR_NAME, metavar="NAME|FILE",
              help="The pieces to print: standard, extended or a TOML file, as given to generate. "
                   "[default: standard; extended for radius 6]")
@palette_option
def terrain(paper: str, out_dir: Path, print_scale: float, outlines: bool | None, flip: str, back_offset: str | None, low_ink: bool,
            fmt: str, tile_size: float, nets: bool, radius: int | None, inventory: str | None, palette: str) -> None:
    """The Terrain Game: 96 pieces (the boxed set; --inventory another, --radius
    6 the extended set's 128), double-sided and gutter-fold, the board at
    true size over several sheets plus an overview, start marks, player and
    destination tokens, an elevation gauge, a rules summary and, with --nets,
    fold-up 3D pieces.

    \b
    Files (PAPER is a4 or letter):
      terrain-rules-PAPER.pdf             one-page rules summary
      terrain-tiles-PAPER.pdf             pieces, fronts and backs (print duplex)
      terrain-tiles-gutterfold-PAPER.pdf  pieces for printers without duplex
      terrain-alignment-test-PAPER.pdf    duplex test: finds your --back-offset
      terrain-board-PAPER.pdf             overview, then the board over sheets
      terrain-tokens-PAPER.pdf            start marks, tokens, flags, gauge
      terrain-nets-PAPER.pdf              fold-up pieces (with --nets)
    \b
    Examples:
      terragen kit terrain --out my-kit
      terragen kit terrain --paper letter --nets --format svg --out my-kit
      terragen kit terrain --radius 6 --out kit    (terrain-tiles-r6-a4.pdf ...)
      terragen kit terrain --palette grey --out kit   (a black-and-white printer)

    Exit status: 0 files written, 2 bad options, an unreadable input file,
    or an output that exists (add --force), 73 a file could not be written (read-only,
    disk full, a link to nothing, a file where a folder goes); 70, 129, 130, 143 as for
    every command (terragen --help).
    """
    from terragen.errors import InputError, SpecError
    from terragen.render.kits.terrain.kit import terrain_kit
    from terragen.terrain.pieces import load_inventory
    from terragen.terrain.validation import default_inventory

    opts = build_options(paper, print_scale, outlines, flip, back_offset, low_ink)
    one_standard_input(**{"--inventory": inventory, "--palette": palette})  # before either is read
    radius = radius or 5
    try:  # the set generate builds a board of this radius from, unless one is named
        pieces = load_inventory(inventory) if inventory else default_inventory(radius)
    except InputError as exc:
        raise SpecError(f"--inventory: {exc.message}", exc.exit_code) from None
    colours = read_palette_option(palette)
    check_folder(out_dir)
    # another radius's kit is named so, as Terrace's other board sizes are: it was refused over (or,
    # with --force, replaced) the standard kit in the same folder
    tag = "" if radius == 5 else f"-r{radius}"
    write_kit(terrain_kit(opts, tile_size, nets, pieces, radius, colours), f"terrain-{{name}}{tag}-{opts.paper.key}", out_dir, fmt)
