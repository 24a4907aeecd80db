"""``terragen convert IN [OUT]``: a file of any game between its JSON and text forms."""

from __future__ import annotations

from pathlib import Path

import click

from terragen.cli._common import (NameChoice, FILE_OR_NAME, PathName, check_outputs, echo_data, echo_json, force_option,
                                  json_option, one_standard_input, say)
from terragen.formats import GAMES


@click.command()
@click.argument("source", metavar="IN", type=PathName(dir_okay=False, path_type=str))
@click.argument("target", metavar="[OUT]", required=False, type=PathName(dir_okay=False, path_type=str, called="OUT"))
@click.option("--to", "form", type=NameChoice(["json", "text"], "form"),
              help="Form to write. [default: json for an OUT ending in .json, else text; "
                   "without OUT (or with OUT -), the other form than IN's]")
@click.option("--game", type=NameChoice(GAMES, "game"),
              help="The game IN is for. [default: read from the file]")
@click.option("--deck", "deck_path", type=FILE_OR_NAME, metavar="FILE",
              help="Terralogical deck the board's tile ids must name (checked). [default: ids the shipped deck "
                   "lacks are carried over as written]")
@force_option
@json_option
def convert(source: str, target: str | None, form: str | None, game: str | None, deck_path: str | None, force: bool,
            as_json: bool) -> int:
    """Convert IN between its JSON and text forms: Terrain Game layouts,
    Terrace positions, Terralogical boards and TerraFlip positions. A batch
    scenario file converts to its layout. Without OUT, or with OUT "-", the
    result is printed.

    Terrain Game layouts convert losslessly both ways: keys beyond the file
    contract (piece ids, generator metadata) travel on the text form's
    extra: line. A Terralogical board made for a deck of your own converts
    without it (its tile ids are carried over as written); give --deck FILE
    to have the ids checked against that deck. A file that breaks a rule
    converts as it is (terragen validate says what is wrong); what the other
    form cannot hold is refused, such as a Terrace piece off the board.

    \b
    Examples:
      terragen convert my-board.txt my-board.json
      terragen convert output/terrain-4p-hard-seed1/board.json --to text
      terragen convert scenarios/00002-dice.json puzzle-board.txt
      terragen convert pos.txt pos.json --force
      terragen convert board.txt board.json --deck my-deck.json

    Exit status: 0 converted, 2 unreadable IN or deck, bad options, or OUT exists (add --force),
    73 OUT could not be written (read-only, disk full, a link to nothing, a file where a
    folder goes); 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.convert import convert_text
    from terragen.fileio import atomic_write, display_name, read_text_input
    from terragen.formats import looks_like_json

    one_standard_input(IN=source, **{"--deck": deck_path})
    if target == "-":  # as "-" reads standard input for IN, it prints for OUT (no file named "-")
        target = None
    if target is not None:
        check_outputs([target], force, inputs=[source, deck_path])
    text = read_text_input(source)
    from terragen.terralogical.formats import read_deck

    from terragen.cli._common import reading_option

    with reading_option("--deck"):  # its file's trouble is said as --deck's, as validate and kit say it
        deck = read_deck(deck_path) if deck_path is not None else None
    suffix = Path(target).suffix.lower() if target is not None else ""
    if form is not None and (suffix, form) in ((".json", "text"), (".txt", "json")):
        from terragen.errors import InputError

        raise InputError(f"--to {form} but OUT {display_name(target)} ends in {suffix}: give one or make them agree")
    if form is None:
        if target is not None:
            form = "json" if suffix == ".json" else "text"
        else:
            form = "text" if looks_like_json(text) else "json"
    name, out = convert_text(text, source, form, game, deck)
    if target is None:
        if as_json:  # a script asked for JSON: the converted file travels inside the document
            echo_json({"in": source, "out": None, "game": name, "form": form, "content": out})
        else:
            echo_data(out)
        return 0
    atomic_write(target, out)
    if as_json:
        echo_json({"in": source, "out": target, "game": name, "form": form})
    else:
        say(f"{display_name(source)} -> {display_name(target)} ({name}, {form})")  # a newline in a name split the line
    return 0
