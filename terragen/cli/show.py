"""``terragen show FILE``: a Terrain Game layout drawn in the terminal."""

from __future__ import annotations

import os
import sys

import click

from terragen.cli._common import PathName


#: where show sends a file of another game: Terrace has its own show; the others are printed by convert
_ANY = "show draws Terrain Game layouts (terragen validate reads every game's files)"
_ELSEWHERE = {
    "terrace": "show draws Terrain Game layouts; 'terragen terrace show FILE' prints a Terrace position",
    "terralogical": "show draws Terrain Game layouts; 'terragen convert FILE --to text' prints a Terralogical "
                    "board, 'terragen validate FILE' checks it",
    "terraflip": "show draws Terrain Game layouts; 'terragen convert FILE --to text' prints a TerraFlip position, "
                 "'terragen validate FILE' checks it",
}


@click.command()
@click.argument("file", type=PathName(dir_okay=False, path_type=str))
@click.option("--color/--no-color", "colour", default=None,
              help="Colour the levels and seats. [default: when stdout is a terminal and NO_COLOR is unset]")
def show(file: str, colour: bool | None) -> int:
    """Draw the Terrain Game layout FILE (text or JSON form, or a batch
    scenario) in the terminal: each cell shows its level and an arrow per
    pip, starts (sN) and destinations (dN) of each seat. Colour on a
    terminal, plain text when piped.

    \b
    Examples:
      terragen show my-board.txt
      terragen show output/terrain-4p-hard-seed1/board.json
      terragen show board.json --no-color > board-picture.txt

    A layout that breaks a rule is still drawn, with a warning on stderr
    naming the first problem and how many more there are (terragen validate
    lists them all).

    Exit status: 0 drawn, 2 unreadable file or not a Terrain Game layout; 70, 129, 130,
    143 as for every command (terragen --help).
    """
    from terragen.errors import InputError
    from terragen.fileio import read_text_input
    from terragen.formats import detect_game, wrong_game, wrong_kind_of_text
    from terragen.render.kits.terrain.terminal import ARROWS, ASCII_ARROWS, board_text
    from terragen.terrain.files import parse_layout

    text = read_text_input(file)
    game = detect_game(text)
    if game != "terrain":  # (a deck, a tile set, a play report: the reader's own words, as every command's)
        why = wrong_kind_of_text(text, "terrain")
        raise InputError(f"{file}: {why}" if why else f"{file}: {wrong_game(game, 'terrain')}: {_ELSEWHERE.get(game, _ANY)}")
    layout = parse_layout(text, file)
    from terragen.cli.render import warn_rule_breaks
    from terragen.fileio import display_name
    from terragen.terrain.formats_json import is_scenario
    from terragen.terrain.validation import validate_layout

    # drawn all the same, as render draws it, and said on stderr (a broken board was drawn without a
    # word, as if fine); the first break and a count, so the drawing stays on the screen
    warn_rule_breaks(display_name(file), validate_layout(layout, puzzle=is_scenario(text)).errors, shown=1)
    if colour is None:
        colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    try:  # a terminal set to latin-1 or ASCII gets arrows it can show
        ARROWS.encode(sys.stdout.encoding or "ascii")
        arrows = ARROWS
    except (LookupError, UnicodeEncodeError):
        arrows = ASCII_ARROWS
    click.echo(board_text(layout, colour, arrows), nl=False, color=colour)
    return 0
