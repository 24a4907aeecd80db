"""``terragen terraflip``: design the tile set, play simulated matches, check positions."""

from __future__ import annotations

from collections.abc import Iterable

import click

from terragen.cli._common import (NameChoice, Whole, checked_when_read, known_names, FILE_OR_NAME, TIME_LIMIT, PathName, check_outputs, echo_data, echo_json, force_option,
                                  json_even_on_failure, json_option, reading_option, say, say_report, seed_range, warn)
from terragen.errors import SpecError
from terragen.plain_text import columns, counted
from terragen.intervals import interval_text
from terragen.limits import MAX_PLAY_GAMES
from terragen.fileio import atomic_write, read_text_input


@click.group()
def terraflip() -> None:
    """TerraFlip: design the double-sided tile set, simulate matches, validate positions.

    \b
    Examples:
      terragen terraflip tiles --seed 7 --out tiles.json
      terragen terraflip play --players 4 --games 200 --seed 1 --tiles tiles.json
      terragen terraflip validate position.txt

    Exit status: 0 done (validate: the position is legal), 1 validate found a
    rule broken, 2 bad options, an unreadable file, or an output that exists,
    3 (tiles) no set can meet the wishes, 4 (tiles) no set found in time,
    73 (tiles --out, play --out) a file could not be written; 70, 129, 130, 143 as for
    every command (terragen --help).
    """


@terraflip.command()
@click.option("--seed", type=seed_range(), default=0, show_default=True, help="Picks one of the balanced sets.")
@click.option("-o", "--out", "out", type=PathName(dir_okay=False), help="Write the set here (JSON); else print it.")
@click.option("--per-family", type=Whole(1, 30), default=9, show_default=True, help="Regular tiles per family.")
@click.option("--own", type=Whole(0, 30), default=0, show_default=True,
              help="Tiles per family that hide their owner's own colour.")
@click.option("--pair-symmetric/--no-pair-symmetric", default=True, show_default=True,
              help="Family A hides B as often as B hides A.")
@click.option("--time-limit", type=TIME_LIMIT, default=10.0, show_default=True, help="Solver limit in deterministic seconds (load-independent).")
@force_option
@json_option
def tiles(seed: int, out: str | None, per_family: int, own: int, pair_symmetric: bool, time_limit: float,
          force: bool, as_json: bool) -> None:
    """Design which colour hides under each regular tile (CP-SAT).

    Without --out the tile set is printed as JSON; with --out it is written
    there and a summary is printed (or, with --json, the tile set's statistics).

    \b
    Examples:
      terragen terraflip tiles --seed 7 --out tiles.json
      terragen terraflip tiles --own 3 --json > tiles.json

    Exit status: 0 done, 2 bad options or --out exists (add --force), 3 no set
    can meet the wishes, 4 no set found within --time-limit, 73 a file could not be
    written (read-only, disk full, a link to nothing, a file where a folder goes); 70,
    129, 130, 143 as for every command (terragen --help).
    """
    from terragen.formats import json_file_text
    from terragen.terraflip.design import DesignSpec, design_tileset

    if out == "-":  # standard output: what no --out does, as convert and terrace setup take it
        out = None
    if out:
        check_outputs([out], force)
    design = design_tileset(DesignSpec(per_family, own, pair_symmetric, time_limit), seed)
    if own == per_family:  # a legal set, and a game in which no flip ever changes a tile's colour
        warn(f"--own {own} is every tile: each hides its owner's colour, so no flip changes hands")
    text = json_file_text(design.to_json())
    if out is None:
        echo_data(text)
        return
    atomic_write(out, text)
    stats = design.stats
    if as_json:
        echo_json({"out": out, "seed": seed, "stats": stats})
        return
    say(f"written: {out} ({stats['regular_tiles']} regular tiles, seed {seed})")
    for fam, row in stats["hides"].items():
        say(f"  {fam:<7} hides " + ", ".join(f"{c} {n}" for c, n in row.items()))
    say("  hidden under: " + ", ".join(f"{c} {n}" for c, n in stats["hidden_under"].items()))


def _csv(value: str | None, option: str, known: Iterable[str] = (), item: str = "name") -> tuple[str, ...]:
    from terragen.names import comma_list

    return tuple(comma_list(value, option, known, item)) if value is not None else ()  # '' is an empty name, said so


@terraflip.command()
@click.option("--players", type=Whole(2, 4), default=4, show_default=True, help="Number of players.")
@click.option("--games", type=Whole(1, MAX_PLAY_GAMES), default=100, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=seed_range(), default=0, show_default=True, help="Seed; same seed, same numbers.")
@click.option("--tiles", "tiles_file", type=PathName(dir_okay=False), help="Tile set from 'terraflip tiles'.")
@click.option("--policy", default="memory", show_default=True,
              callback=checked_when_read(known_names("terragen.terraflip.players")),
              help="random (any legal action), greedy (most points now) or memory (greedy, remembering the hidden "
                   "colours it has seen, and spying before a doubtful flip); or a comma list, one per seat.")
@click.option("--lines", type=NameChoice(["centres", "axes"], "line reading"), default="centres", show_default=True,
              help="Framing lines: any line through centres, or the six hex axes only.")
@click.option("--first-frame", type=NameChoice(["placed", "any"], "first-frame reading"), default="placed", show_default=True,
              help="The first flip must be framed from the tile just placed, or by any two tiles.")
@click.option("--tower-blocks", is_flag=True, help="Framing lines may not run over the tower.")
@click.option("--bonus", default=None,
              help="Turn-order bonus per seat, e.g. 3,2,1,0, instead of the rulebook's (not with --bonus-scheme).")
@click.option("--bonus-scheme", type=NameChoice(["from-first", "from-last"], "bonus scheme"), default="from-first",
              show_default=True, help="How the rulebook bonus reads with 2-3 players (not with --bonus).")
@json_option
@click.option("-o", "--out", type=PathName(dir_okay=False), help="Also write the JSON result here.")
@force_option
def play(players: int, games: int, seed: int, tiles_file: str | None, policy: str, lines: str, first_frame: str,
         tower_blocks: bool, bonus: str | None, bonus_scheme: str, as_json: bool, out: str | None, force: bool) -> None:
    """Simulate matches and report seat fairness with and without the turn-order bonus.

    \b
    Examples:
      terragen terraflip play --players 4 --games 200 --seed 1
      terragen terraflip play --players 3 --policy memory,greedy,random --json

    Exit status: 0 done, 2 bad options, an unreadable tile set, or --out exists (add --force),
    73 a file could not be written (read-only, disk full, a link to nothing, a file
    where a folder goes); 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.cli.progress import Progress
    from terragen.terraflip.players import POLICIES
    from terragen.terraflip.rules import Options
    from terragen.terraflip.simulate import PlaySpec, simulate
    from terragen.terraflip.tilefile import read_tileset

    bonus_values = None
    scheme_given = click.get_current_context().get_parameter_source("bonus_scheme") != click.core.ParameterSource.DEFAULT
    if bonus is not None and scheme_given:  # the explicit bonus wins: --bonus-scheme was silently ignored
        raise SpecError("give --bonus or --bonus-scheme, not both (--bonus-scheme only reads the rulebook's bonus)")
    if bonus is not None:
        try:
            bonus_values = tuple(int(v) for v in _csv(bonus, "--bonus", item="value"))
        except ValueError:
            raise SpecError(f"--bonus must be whole numbers separated by commas, got {bonus!r}") from None
        from terragen.terraflip.rules import MAX_BONUS

        if any(not 0 <= v <= MAX_BONUS for v in bonus_values):  # a bonus is points a seat adds to its score
            raise SpecError(f"--bonus values must be whole numbers from 0 to {MAX_BONUS}, got {bonus!r}")
        if len(bonus_values) != players:
            raise SpecError(f"--bonus: {len(bonus_values)} given for {players} seats; give one per seat, "
                            f"the last seat's 0 included (e.g. {_bonus(tuple(range(players - 1, -1, -1)))})")
    from terragen.names import per_seat

    policies = _csv(policy, "--policy", POLICIES)
    per_seat(policies, players, "--policy")  # the count said as every game's --policy says it
    if out:
        check_outputs([out], force, inputs=[tiles_file])
    with reading_option("--tiles"):
        tileset = read_tileset(tiles_file) if tiles_file else None
    options = Options(lines=lines, first_frame=first_frame, tower_passable=not tower_blocks,
                      bonus_scheme=bonus_scheme, bonus=bonus_values)
    with Progress("terragen terraflip play", games, "games") as bar:
        result = simulate(PlaySpec(players, games, seed, policies), tileset, options, progress=bar.update)
    if out:
        from terragen.formats import json_file_text

        atomic_write(out, json_file_text(result))
    if as_json:
        echo_json(result)
        return
    if out:  # named as every command names a file it wrote (it was written without a word)
        say(f"written: {out}")
    say_report([f"{counted(games, 'game')}, {players} players, policies {','.join(result['policies'])}, "
                f"lines {lines}, first frame {first_frame}, tower {'blocks' if tower_blocks else 'passable'}, "
                f"bonus {_bonus(result['bonus'])}"])
    rows = [("seat", "policy", "points", "+bonus", "tiles", "win %\nno bonus", "win %\nbonus", "95% interval", "gap")]
    for s in result["seats"]:
        rows.append((str(s["seat"]), s["policy"], f"{s['mean_points']:.2f}", f"{s['mean_total']:.2f}",
                     f"{s['mean_tiles']:.2f}", f"{100 * s['win_rate_without_bonus']:.1f}",
                     f"{100 * s['win_rate_with_bonus']:.1f}", interval_text(s["win_rate_with_bonus_ci95"]),
                     f"{s['gap_to_best_seat']:.2f}"))
    say_report(columns(rows, right=(0, 2, 3, 4, 5, 6, 8)))  # 89 columns with a one-line heading
    say_report([f"a fair share is {1 / players:.1%}; points and tiles are means per game, gap the mean points "
                "behind the best seat",
                f"bonus that would even the mean scores: --bonus {_bonus(result['proposed_bonus'])}",
                f"bonus that evens the win rates best in these games: --bonus {_bonus(result['win_fair_bonus'])} "
                f"(win % " + " / ".join(f"{100 * x:.1f}" for x in result["win_rate_with_win_fair_bonus"]) + ")"])


@terraflip.command()
@click.argument("path", type=FILE_OR_NAME)
@json_option
@click.option("--tiles", "tiles_file", type=FILE_OR_NAME, metavar="FILE",
              help="Tile set from 'terraflip tiles' the game was played with (how many numbered tiles a family "
                   "has). [default: the rulebook's nine]")
@click.option("--lines", type=NameChoice(["centres", "axes"], "line reading"), default="centres", show_default=True,
              help="Framing reading used to list the tiles each player could flip.")
@click.option("--tower-blocks", is_flag=True, help="Framing lines may not run over the tower (as in 'terraflip play').")
def validate(path: str, as_json: bool, tiles_file: str | None, lines: str, tower_blocks: bool) -> None:
    """Check a TerraFlip position file (JSON or text) against the rules.

    The same check and report as 'terragen validate PATH' (which reads the
    game from the file). A text file is read forgivingly: each line that
    cannot be read is listed with its line:col and skipped (exit 2), and the
    rest is still checked. The "framed" list shows the tiles each player's
    tiles frame anywhere on the table (any two tiles: a position does not
    say which tile was placed last, so play's --first-frame does not apply);
    --lines and --tower-blocks read framing as 'terraflip play' does.

    \b
    Examples:
      terragen terraflip validate position.txt
      terragen terraflip validate position.json --json
      terragen terraflip validate position.txt --tiles tiles.json --tower-blocks

    Exit status: 0 legal, 1 a rule is broken, 2 unreadable file or bad options; 70, 129,
    130, 143 as for every command (terragen --help).
    """
    from terragen.cli._common import one_standard_input
    from terragen.cli.validate import finish_game_validation
    from terragen.terraflip.tilefile import read_tileset
    from terragen.terraflip.validation import validate_text

    one_standard_input(PATH=path, **{"--tiles": tiles_file})

    with json_even_on_failure(path, as_json, "terraflip"):
        text = read_text_input(path)
        with reading_option("--tiles"):
            tileset = read_tileset(tiles_file) if tiles_file else None
        report = validate_text(text, path, lines=lines, tileset=tileset, tower_passable=not tower_blocks)
    finish_game_validation(report, path, "terraflip", as_json)


def _bonus(values) -> str:
    """A bonus list as --bonus takes it (``3,2,1,0``), so a suggestion can be pasted back; it was
    printed as Python's list, ``[3, 2, 1, 0]``."""
    return ",".join(str(v) for v in values)
