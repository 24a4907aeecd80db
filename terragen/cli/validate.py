"""``terragen validate FILE``: rule check and analysis of a layout or position."""

from __future__ import annotations

import click

from terragen.cli._common import (NameChoice, FILE_OR_NAME, PathName, check_outputs, echo_json, force_option, json_even_on_failure,
                                  json_option, one_standard_input, reading_option, say, say_report)
from terragen.errors import EXIT_INVALID, SpecError
from terragen.formats import GAMES


@click.command()
@click.argument("file", type=FILE_OR_NAME, metavar="FILE")  # not click.Path: a folder must still give a JSON document
@json_option
@click.option("--svg", "svg_out", type=PathName(dir_okay=False, path_type=str),
              help="Also draw the board with routes and problems to this SVG file (Terrain Game).")
@force_option
@click.option("--game", type=NameChoice(["auto", *GAMES], "game"),
              default="auto", show_default=True, help="Which game the file is; auto reads it from the file.")
@click.option("--inventory", type=FILE_OR_NAME, metavar="NAME|FILE",
              help="Terrain Game piece inventory to check counts against (default: standard, extended for radius 6).")
@click.option("--deck", type=FILE_OR_NAME, metavar="FILE",
              help="Terralogical deck from 'terragen terralogical deck' that the board's tile ids name "
                   "[default: the shipped deck].")
@click.option("--tiles", type=FILE_OR_NAME, metavar="FILE",
              help="TerraFlip tile set from 'terragen terraflip tiles' (how many numbered tiles a family has) "
                   "[default: the rulebook's nine].")
def validate(file: str, as_json: bool, svg_out: str | None, force: bool, game: str, inventory: str | None,
             deck: str | None, tiles: str | None) -> int:
    """Check FILE against the rules, report every problem, then analyse it.

    FILE is a layout or position in JSON or the game's text form, or a
    scenario file from terragen batch (its layout is checked). A text file is
    read forgivingly: a line it cannot read is reported (with a "did you
    mean" for a misspelt section) and skipped, and the rest is still checked.
    For a Terrain Game layout the report shows, per player, whether each
    destination can be reached (ignoring pips and as the pieces are turned),
    the cheapest cost in good and bad weather, the exact expected number of
    turns, the race model (finishing rounds p10/p50/p90 of a lone token, and
    each seat's exact win chance in a race of lone tokens, with seat 0
    opening and with the opener rotating), and board metrics (cliffs, up-3
    steps, fragility, fairness).
    With --json a JSON document is printed whatever happens to FILE, even when
    it cannot be read at all; a bad option (an --inventory, --deck or --tiles
    file that cannot be read, or an option for another game) is bad usage:
    one line, exit 2, no document.

    \b
    Examples:
      terragen validate my-board.txt
      terragen validate board.json --json
      terragen validate my-board.txt --svg my-board.svg
      terragen validate output/batch-mix-medium-seed0/scenarios/00000-route.json
      terragen validate my-board.txt --deck my-deck.json    (Terralogical)

    Exit status: 0 valid, 1 rule violations found, 2 unreadable or malformed
    file (every problem is still listed), bad usage, or --svg exists without --force,
    73 the --svg picture could not be written; 70, 129, 130, 143 as for every command
    (terragen --help).
    """
    if svg_out:  # an output in the way is bad usage, not an unreadable input: no JSON report for it
        check_outputs([svg_out], force, inputs=[file])
    one_standard_input(FILE=file, **{"--inventory": inventory, "--deck": deck, "--tiles": tiles})
    with json_even_on_failure(file, as_json, game):  # --game, when given, named as the game commands name theirs
        report, name, no_picture = _check(file, game, inventory, svg_out, force, deck, tiles)
    note = f"--svg: no picture drawn: {no_picture}" if no_picture else ""
    show_report(report, file, name, as_json, note)
    if svg_out and not no_picture and not as_json:
        say(f"\nwritten: {svg_out} (the board's picture)")
    if no_picture and report.exit_code != 2:  # (a malformed file's one stderr line carries the note)
        click.echo(f"terragen: error: {note}", err=True)
        return max(report.exit_code, EXIT_INVALID)
    return report.exit_code


def show_report(report, file: str, name: str, as_json: bool, note: str = "") -> None:
    """Print a validation report: the JSON document, or the verdict line first, the findings and
    the summary; for a malformed file one line on stderr too, ending with ``note`` when given (what
    else the command could not do: still one line).

    Shared by ``terragen validate`` and every ``<game> validate``, so the same file gives the
    same report (and the same first line, ``FILE: valid ...``) whichever command checked it.
    """
    from terragen.plain_text import counted

    if as_json:
        data = report.to_json()
        data.update({"file": file, "readable": report.exit_code != 2})
        echo_json(data)
    else:
        status = "valid" if report.valid else "INVALID"
        counts = f"{counted(len(report.errors), 'error')}, {counted(len(report.warnings), 'warning')}"
        noun = "layout" if name == "terrain" else "position"
        say(f"{file}: {status} {name} {noun} ({counts})")
        for f in report.findings:
            say("  " + f.format(file))
        if report.summary:
            say("")
            say_report(report.summary)
    if report.exit_code == 2:  # malformed: one line on stderr too, as for any unreadable input
        from terragen.findings import SYNTAX

        unread = [f for f in report.findings if f.code == SYNTAX]
        others = len(report.findings) - 1  # (warnings among them: "problems" counted them as errors)
        more = f" (and {counted(others, 'more finding')}, listed on stdout)" if others else ""
        from terragen.fileio import elide

        line = elide(" ".join(unread[0].format(file).replace(" error [syntax]", "").splitlines()), 600)
        click.echo(f"terragen: error: {line}{more}" + (f"; {note}" if note else ""), err=True)


def finish_game_validation(report, file: str, name: str, as_json: bool) -> None:
    """The tail of ``terralogical validate`` and ``terraflip validate``: :func:`show_report`, then
    exit with the report's status (1 invalid, 2 malformed)."""
    show_report(report, file, name, as_json)
    if report.exit_code:
        raise SystemExit(report.exit_code)


def _check(file: str, game: str, inventory: str | None, svg_out: str | None, force: bool,
           deck: str | None = None, tiles: str | None = None):
    """The report of ``file`` (and its picture when asked, its output already checked); InputError
    when it cannot be read."""
    from terragen.fileio import atomic_write, read_text_input
    from terragen.formats import game_of, validate_any

    text = read_text_input(file)
    name = game_of(text, file, game)
    # options that do not fit the file's game, or whose own file cannot be read, are bad usage:
    # never reported as the board being unreadable (SpecError passes json_even_on_failure by)
    if inventory and name != "terrain":
        raise SpecError(f"--inventory applies to Terrain Game layouts only; {file} is a {name} file")
    if svg_out and name != "terrain":
        raise SpecError(f"--svg draws Terrain Game layouts only; {file} is a {name} file")
    if deck and name != "terralogical":
        raise SpecError(f"--deck applies to Terralogical boards only; {file} is a {name} file")
    if tiles and name != "terraflip":
        raise SpecError(f"--tiles applies to TerraFlip positions only; {file} is a {name} file")
    options: dict[str, object] = {}
    if inventory:
        from terragen.terrain.pieces import load_inventory

        with reading_option("--inventory"):
            options["inventory"] = load_inventory(inventory)
    if deck:
        from terragen.terralogical.formats import read_deck

        with reading_option("--deck"):
            options["deck"] = read_deck(deck)
    if tiles:
        from terragen.terraflip.tilefile import read_tileset

        with reading_option("--tiles"):
            options["tileset"] = read_tileset(tiles)
    _, report = validate_any(text, file, name, **options)

    no_picture = _why_no_picture(report, file) if svg_out else None
    if svg_out and no_picture is None:
        from terragen.render.kits.terrain.board_picture import board_svg
        from terragen.terrain.analysis import analyse
        from terragen.terrain.files import parse_layout

        layout = parse_layout(text, file)
        atomic_write(svg_out, board_svg(layout, analyse(layout, with_fragility=False)))
    return report, name, no_picture


def _why_no_picture(report, file: str) -> str | None:
    """Why ``--svg`` cannot draw the board ``report`` is of, or None when it can: the lines that
    could not be read, or the very player or destination count that stops the analysis the picture
    shows. Why said exactly: it said "N players or a player with too many destinations", leaving
    the user to guess which, and the report that lists them was not printed at all."""
    from terragen.terrain.validation import BLOCKING_CODES

    if report.exit_code == 2:
        return f"{file} has lines that could not be read (listed in the report)"
    blocking = [f.message for f in report.findings if f.code in BLOCKING_CODES]
    if blocking:
        return f"{file}: {'; '.join(dict.fromkeys(blocking))} (fix the errors the report lists first)"
    return None
