"""``terragen kit terrace``: the Terrace print-and-play kit (loaded lazily by the kit group)."""

from __future__ import annotations

from pathlib import Path

import click

from terragen.cli._common import NameChoice, Whole
from terragen.cli.kit import build_options, print_options, write_kit
from terragen.fileio import check_out_folder
from terragen.limits import TERRACE_SIZES as BOARD_SIZES
from terragen.terrace.model import T_RANKS


@click.command()
@print_options
@click.option("--t-rank", type=NameChoice(T_RANKS, "T rank"), default="a",
              show_default=True,
              help="Size of the T token: 'a' = an A's size (terragen's reading), 'lowest' = smaller than an A, "
                   "'above-a' = between an A and a B (the same switch as --t-rank of 'terragen terrace "
                   "moves/perft/play').")
@click.option("--size", "board_size", type=Whole(one_of=BOARD_SIZES), default=8, show_default=True, metavar="N",
              help="Squares per side: 6, 8, 10 or 12 (squares stay 50.8 mm, so bigger boards take more sheets).")
def terrace(paper: str, out_dir: Path, print_scale: float, outlines: bool | None, flip: str, back_offset: str | None, low_ink: bool,
            fmt: str, board_size: int, t_rank: str) -> None:
    """Terrace: the stepped board at true size (16 in square for 8x8) over
    several sheets plus an overview, round piece tokens in four colours and
    sizes (A to D, the T A-sized and marked; --t-rank lowest makes it the
    smallest, --t-rank above-a a size between the A and the B), the full,
    short and four-player set-ups, and a rules summary.

    \b
    Files (PAPER is a4 or letter; boards other than 8x8 add -NxN):
      terrace-rules-PAPER.pdf    one-page rules summary
      terrace-setups-PAPER.pdf   the three set-ups as diagrams
      terrace-board-PAPER.pdf    overview, then the board over sheets
      terrace-pieces-PAPER.pdf   4 colours x 16 tokens (cut out)

    \b
    Examples:
      terragen kit terrace --paper letter --out my-kit
      terragen kit terrace --size 6 --t-rank lowest --out my-kit

    Exit status: 0 files written, 2 bad options, an unreadable input file,
    or an output that exists (add --force), 73 a file could not be written (read-only,
    disk full, a link to nothing, a file where a folder goes); 70, 129, 130, 143 as for
    every command (terragen --help).
    """
    from terragen.render.kits.terrace.kit import check_board_size, terrace_kit

    opts = build_options(paper, print_scale, outlines, flip, back_offset, low_ink)
    check_board_size(board_size)
    if flip.lower() != "long" or back_offset is not None:  # they were taken and did nothing
        from terragen.cli._common import warn

        warn("the Terrace kit prints on one side only: --flip and --back-offset change nothing in it")
    check_out_folder(out_dir)
    tag = "" if board_size == 8 else f"-{board_size}x{board_size}"
    write_kit(terrace_kit(opts, board_size, t_rank), f"terrace-{{name}}{tag}-{opts.paper.key}", out_dir, fmt)
