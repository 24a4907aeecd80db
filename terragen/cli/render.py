"""``terragen render LAYOUT``: a layout as a printable build sheet (SVG or PDF)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("layout_file", metavar="LAYOUT", type=click.Path(dir_okay=False, path_type=str))
@click.option("--format", "fmt", type=click.Choice(["svg", "pdf"]), default=None,
              help="Output format (default: from --out's suffix, else pdf).")
@click.option("--paper", default="a4", show_default=True, metavar="a4|letter", help="Paper size.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Output file (default: LAYOUT's name with -build.pdf/.svg, next to it).")
@click.option("--scale", "print_scale", type=float, default=1.0, show_default=True,
              help="Print-scale correction, e.g. 1.02 if the 100 mm bar prints as 98 mm.")
def render(layout_file: str, fmt: str | None, paper: str, out: Path | None, print_scale: float) -> None:
    """Draw LAYOUT (JSON or text form) as a build sheet: each position's piece,
    rotation and level colour, starts and destinations, each player's cheapest
    route, and the build order when the layout carries one.

    \b
    Examples:
      terragen render my-board.txt
      terragen render board.json --format svg --out board.svg
      terragen render board.json --paper letter --out sheets/board.pdf
    """
    from terragen.render.kits.terrain.build_sheet import build_sheet
    from terragen.render.impose import PrintOptions
    from terragen.render.output import write_document
    from terragen.render.paper import load_paper
    from terragen.terrain.files import load_layout

    if fmt is None:
        fmt = "svg" if out is not None and out.suffix.lower() == ".svg" else "pdf"
    if out is None:
        src = Path(layout_file)
        out = src.with_name(f"{src.stem}-build.{fmt}")
    opts = PrintOptions(load_paper(paper), print_scale)
    layout = load_layout(layout_file)
    doc = build_sheet(layout, opts, Path(layout_file).name)
    for path in write_document(doc, out, fmt):
        click.echo(f"build sheet written to {path}")
