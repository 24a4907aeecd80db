"""``terragen kit terraflip``: the TerraFlip print-and-play kit (loaded lazily by the kit group)."""

from __future__ import annotations

from pathlib import Path

import click

from terragen.cli._common import FINITE, PathName, reading_option, seed_range

from terragen.cli.kit import build_options, print_options, write_kit
from terragen.errors import SpecError
from terragen.fileio import check_out_folder


@click.command()
@print_options
@click.option("--tiles", "tiles_file", type=PathName(dir_okay=False), default=None, metavar="FILE",
              help="Tile set written by 'terragen terraflip tiles' (which colour hides under which tile).")
@click.option("--seed", type=seed_range(), default=None, help="Without --tiles: design the tile set with this seed (as terragen terraflip tiles). [default: 0]")
@click.option("--tile-size", type=FINITE, default=40.0, show_default=True, metavar="MM",
              help="Hex tile size across flats in mm (25 to 70).")
def terraflip(paper: str, out_dir: Path, print_scale: float, outlines: bool | None, flip: str, back_offset: str | None, low_ink: bool,
              fmt: str, tiles_file: str | None, seed: int | None, tile_size: float) -> None:
    """TerraFlip: the double-sided land tiles of the tile set (36, nine per
    family, for the rulebook's set; as many as --tiles FILE holds otherwise),
    with fronts and backs on duplex sheets and a gutter-fold version, 12
    special tiles, the tower, 12 spy tokens, printing instructions, an
    alignment test and a rules summary.

    \b
    Files (PAPER is a4 or letter):
      terraflip-instructions-PAPER.pdf      printing, cutting; the set's rates
      terraflip-rules-PAPER.pdf             one-page rules summary
      terraflip-alignment-test-PAPER.pdf    finds your --back-offset
      terraflip-tiles-PAPER.pdf             all hexes, front and back (duplex)
      terraflip-tiles-gutterfold-PAPER.pdf  the same without duplex
      terraflip-tokens-PAPER.pdf            spy tokens and the tower, one-sided

    \b
    Examples:
      terragen kit terraflip --out kit
      terragen terraflip tiles --seed 7 --out tiles.json
      terragen kit terraflip --tiles tiles.json --paper letter --out kit

    Exit status: 0 files written, 2 bad options, an unreadable input file,
    or an output that exists (add --force), 73 a file could not be written (read-only,
    disk full, a link to nothing, a file where a folder goes); 70, 129, 130, 143 as for
    every command (terragen --help).
    """
    from terragen.fileio import read_text_input
    from terragen.render.kits.terraflip.kit import check_size, load_tileset, terraflip_kit

    opts = build_options(paper, print_scale, outlines, flip, back_offset, low_ink)
    check_size(tile_size)
    if tiles_file and seed is not None:
        raise SpecError("give either --tiles FILE or --seed, not both (the seed only designs a new tile set)")
    check_out_folder(out_dir)
    with reading_option("--tiles"):
        text = read_text_input(tiles_file) if tiles_file else None
        tileset, source = load_tileset(text, tiles_file, seed)
    write_kit(terraflip_kit(opts, tileset, tile_size, source), f"terraflip-{{name}}-{opts.paper.key}", out_dir, fmt)
