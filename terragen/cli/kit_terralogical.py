"""``terragen kit terralogical``: the Terralogical print-and-play kit (loaded lazily by the kit group)."""

from __future__ import annotations

from pathlib import Path

import click

from terragen.cli._common import FILE_OR_NAME, FINITE, reading_option

from terragen.cli.kit import build_options, print_options, write_kit
from terragen.fileio import check_out_folder


@click.command()
@print_options
@click.option("--deck", "deck_path", type=FILE_OR_NAME, default=None, metavar="FILE",
              help="Deck JSON from 'terragen terralogical deck' [default: the shipped default deck].")
@click.option("--tile-size", type=FINITE, default=38.0, show_default=True, metavar="MM",
              help="Tile side in mm, 25 to 60; board squares are 2 mm larger (40 mm for 38 mm tiles).")
def terralogical(paper: str, out_dir: Path, print_scale: float, outlines: bool | None, flip: str, back_offset: str | None, low_ink: bool,
                 fmt: str, deck_path: str | None, tile_size: float) -> None:
    """Terralogical: every tile (sun, flower and the deck's land tiles: 65 with the game's deck) with
    plain backs for duplex printing, the 8x8 board at true size with the start
    and flower fields and a 0-100 scoring track, a legend and a rules summary.

    \b
    Files (PAPER is a4 or letter):
      terralogical-rules-PAPER.pdf             rules summary and legend
      terralogical-tiles-PAPER.pdf             tiles, fronts and backs (duplex)
      terralogical-tiles-gutterfold-PAPER.pdf  tiles without duplex
      terralogical-alignment-test-PAPER.pdf    finds your --back-offset
      terralogical-board-PAPER.pdf             overview, then the board

    \b
    Examples:
      terragen kit terralogical --out my-kit
      terragen kit terralogical --paper letter --deck my-deck.json --out my-kit

    Exit status: 0 files written, 2 bad options, an unreadable input file,
    or an output that exists (add --force), 73 a file could not be written (read-only,
    disk full, a link to nothing, a file where a folder goes); 70, 129, 130, 143 as for
    every command (terragen --help).
    """
    from terragen.render.kits.terralogical.kit import terralogical_kit
    from terragen.terralogical.formats import read_deck

    opts = build_options(paper, print_scale, outlines, flip, back_offset, low_ink)
    check_out_folder(out_dir)
    with reading_option("--deck"):
        deck = read_deck(deck_path) if deck_path is not None else None
    if deck is not None:
        from terragen.cli.terralogical import warn_small_deck

        warn_small_deck(deck)
    write_kit(terralogical_kit(opts, tile_size, deck), f"terralogical-{{name}}-{opts.paper.key}", out_dir, fmt)
