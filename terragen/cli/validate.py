"""``terragen validate FILE``: rule check and analysis of a layout or position."""

from __future__ import annotations

import importlib

import click

from terragen.cli._common import echo_json
from terragen.errors import EXIT_INVALID, EXIT_OK, InputError


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of a table.")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False, writable=True, path_type=str),
              help="Also draw the board with routes and problems to this SVG file (Terrain Game).")
@click.option("--game", type=click.Choice(["auto", "terrain", "terrace", "terralogical", "terraflip"]),
              default="auto", show_default=True, help="Which game the file is; auto reads it from the file.")
@click.option("--inventory", metavar="NAME|FILE",
              help="Terrain Game piece inventory to check counts against (default: standard, extended for radius 6).")
def validate(file: str, as_json: bool, svg_out: str | None, game: str, inventory: str | None) -> int:
    """Check FILE against the rules, report every problem, then analyse it.

    FILE is a layout or position in JSON or the game's text form. For a
    Terrain Game layout the report shows, per player, whether each
    destination can be reached (ignoring pips and as the pieces are turned),
    the cheapest cost in good and bad weather, the exact expected number of
    turns, and board metrics (cliffs, up-3 steps, fragility, fairness).

    \b
    Examples:
      terragen validate my-board.txt
      terragen validate board.json --json
      terragen validate my-board.txt --svg my-board.svg

    Exit status: 0 valid, 1 rule violations found, 2 unreadable file or bad usage.
    """
    from terragen.fileio import atomic_write, read_text_input
    from terragen.formats import VALIDATORS, detect_game

    text = read_text_input(file)
    name = game if game != "auto" else detect_game(text)
    if name is None:
        raise InputError(f"{file}: cannot tell which game this file is for (its 'game' is not one of terrain, terrace, terralogical, terraflip)")
    try:
        module = importlib.import_module(VALIDATORS[name])
    except ModuleNotFoundError:
        raise InputError(f"{file}: validating {name} files is not available in this version") from None
    options = {"inventory": inventory} if inventory else {}
    if inventory and name != "terrain":
        raise InputError("--inventory applies to Terrain Game layouts only")
    report = module.validate_text(text, file, **options)

    if svg_out:
        if name != "terrain":
            raise InputError("--svg draws Terrain Game layouts only")
        from terragen.render.kits.terrain.board_picture import board_svg
        from terragen.terrain.analysis import analyse
        from terragen.terrain.files import parse_layout

        layout = parse_layout(text, file)
        atomic_write(svg_out, board_svg(layout, analyse(layout, with_fragility=False)))

    if as_json:
        echo_json(report.to_json())
    else:
        status = "valid" if report.valid else "INVALID"
        counts = f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)"
        noun = "layout" if name == "terrain" else "position"
        click.echo(f"{file}: {status} {name} {noun} ({counts})")
        for f in report.findings:
            click.echo("  " + f.format(file))
        if report.summary:
            click.echo("")
            for line in report.summary:
                click.echo(line)
        if svg_out:
            click.echo(f"\npicture written to {svg_out}")
    return EXIT_OK if report.valid else EXIT_INVALID
