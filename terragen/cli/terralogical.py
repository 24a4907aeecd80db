"""``terragen terralogical``: design the deck, play simulated matches, check a board."""

from __future__ import annotations

import json

import click

from terragen.cli._common import (NameChoice, TIME_LIMIT, Whole, checked_when_read, known_names, FILE_OR_NAME, PathName, check_outputs, echo_data, echo_json, force_option,
                                  json_even_on_failure, json_option, reading_option, say, say_report, seed_range,
                                  warn)
from terragen.errors import SpecError
from terragen.intervals import interval_text
from terragen.limits import MAX_PLAY_GAMES
from terragen.plain_text import counted


@click.group()
def terralogical() -> None:
    """Terralogical: design a balanced deck of land tiles, simulate games, validate boards.

    \b
    Examples:
      terragen terralogical deck --seed 7 --out deck.json
      terragen terralogical play --players 3 --games 200 --seed 5
      terragen terralogical validate board.txt

    Exit status: 0 done (validate: the board is legal), 1 validate found a
    rule broken, 2 bad options, an unreadable file, or an output that exists,
    3 (deck) no deck meets the parameters, 4 (deck) the solver ran out of time,
    73 (deck --out, play --record) a file could not be written; 70, 129, 130, 143 as for
    every command (terragen --help).
    """


def warn_small_deck(deck) -> None:
    """One line on stderr when the deck is too small for a real game (the command still runs: a
    designer may want to see it stall)."""
    from terragen.terralogical.deck import small_deck_warning

    why = small_deck_warning(len(deck.tiles))
    if why is not None:
        warn(why)


def _load_deck(path: str | None):
    """The --deck file's deck (one it cannot read is an error of --deck), or the shipped one."""
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.formats import read_deck

    with reading_option("--deck"):
        return default_deck() if path is None else read_deck(path)


@terralogical.command()
@click.option("--seed", type=seed_range(), default=0, show_default=True,
              help="Seed choosing among the decks that qualify (the shipped deck is seed 1).")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE", help="Override a design parameter (repeatable).")
@click.option("--time-limit", type=TIME_LIMIT, default=None,
              help="Solver limit in deterministic seconds (load-independent), as 'terraflip tiles' takes it; the same "
                   "as --param max_deterministic_time=N.  [default: 5.0]")
@click.option("-o", "--out", type=PathName(dir_okay=False), default=None,
              help="Write the deck here (JSON) and print a summary; else print the deck.")
@force_option
@json_option
def deck(seed: int, params: tuple[str, ...], time_limit: float | None, out: str | None, force: bool,
         as_json: bool) -> None:
    """Design land tiles with CP-SAT (63 unless --param tiles=N) and give them, with the sun
    and flower tiles, as a deck file (JSON).

    Without --out the deck is printed as JSON; with --out it is written there
    and a summary is printed (or, with --json, the file name and the deck's
    statistics), as 'terraflip tiles' does.

    \b
    Parameters (defaults in docs/terralogical.md): tiles, cloud_share,
    cloud_tolerance, light_share, light_tolerance, landscape_tolerance,
    max_clouds_per_tile, min_partners, min_connectors, max_deterministic_time.
    \b
    Examples:
      terragen terralogical deck --seed 7 --param cloud_share=0.12 --out deck.json
      terragen terralogical deck --seed 1 > deck.json   (the shipped deck)

    Exit status: 0 deck printed or written, 2 bad options or --out exists (add
    --force), 3 no deck meets the parameters, 4 no deck found within --time-limit,
    73 a file could not be written (read-only, disk full, a link to nothing, a file
    where a folder goes); 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.fileio import atomic_write
    from terragen.errors import TerragenError
    from terragen.terralogical.deck import DeckParams, as_given, design_deck
    from terragen.terralogical.formats import deck_to_json_text

    if time_limit is not None:
        if any(DeckParams.key_of(pair) == "max_deterministic_time" for pair in params):
            raise SpecError("give --time-limit or --param max_deterministic_time, not both (they are the same limit)")
        params = (*params, f"max_deterministic_time={time_limit!r}")
    p = DeckParams.from_pairs(list(params))
    if out == "-":  # standard output: what no --out does, as convert and terrace setup take it
        out = None
    if out:
        check_outputs([out], force)
    try:
        d = design_deck(seed, p)
    except TerragenError as exc:  # a parameter CP-SAT cannot meet, named as the user typed it
        raise type(exc)(as_given(exc.message, params), exc.exit_code) from None
    warn_small_deck(d)
    text = deck_to_json_text(d)
    if out is None:  # printed whole: the same bytes --out writes, so '> deck.json' gives the file
        echo_data(text)
        return
    # the report's figures are worked out before the file is written: a Ctrl-C while they were
    # (a quarter of a second for 400 tiles) said 'interrupted' over a deck already written
    stats = json.loads(text)["stats"]
    atomic_write(out, text)
    if as_json:
        echo_json({"out": out, "seed": seed, "stats": stats})
        return
    say(f"written: {out} ({stats['tiles']} land tiles + sun + flower, seed {seed})")
    say(
        f"triangles: meadow {stats['meadow']}, field {stats['field']}, wood {stats['wood']}, cloud {stats['cloud']}"
    )
    by_land = ", ".join(f"{k} {v}" for k, v in stats["light_by_landscape"].items())
    say(f"subsoil: light {stats['light']}, dark {stats['dark']} (light by landscape: {by_land})")
    say("tiles by clouds: " + ", ".join(f"{k}: {v}" for k, v in stats["tiles_by_clouds"].items() if v))
    say(
        f"connectors {stats['connectors']}, fewest partners of a tile {stats['min_partners']}, "
        f"duplicates up to rotation {stats['duplicates_up_to_rotation']}"
    )


@terralogical.command()
@click.option("--players", type=Whole(2, 4), default=2, show_default=True, help="Number of players.")
@click.option("--games", type=Whole(1, MAX_PLAY_GAMES), default=100, show_default=True, help="How many games to play.")
@click.option("--seed", type=seed_range(), default=0, show_default=True, help="Seed; same seed, same numbers.")
@click.option("--deck", "deck_path", type=FILE_OR_NAME, default=None, help="Deck JSON [default: the shipped deck].")
@click.option(
    "--policy",
    "policy",
    default="greedy",
    show_default=True,
    callback=checked_when_read(known_names("terragen.terralogical.players")),
    help="random (any legal tile), greedy (most points now), rusher (heads for the flower fields) or careful "
    "(greedy, but ends the game only while leading); a comma list gives one per seat (e.g. random,greedy).",
)
@click.option("--subsoil-rule", type=NameChoice(["both", "either", "placed"], "subsoil rule"), default="both", show_default=True,
              help="Which triangles must be light for a 2-point connection.")
@click.option(
    "--min-flock",
    type=Whole(1, 64),
    default=2,
    show_default=True,
    help="Smallest cube group that counts as a flock.",
)
@click.option("--stall-rule", type=NameChoice(["round", "empty-pile"], "stall rule"), default="round", show_default=True,
              help="End after any round without a placement, or only once the draw pile is empty.")
@click.option("--flock-ties", type=NameChoice(["share", "by-count"], "flock-ties rule"), default="share",
              show_default=True, help="How tied flocks rank: tied players share a place and the next takes the "
              "place after them (share), or the distinct counts are ranked (by-count: 5, 5, 3 pays the 3 second prize).")
@click.option("--record", type=PathName(dir_okay=False), default=None,
              help="Save the last game's board as a board-state file (.json, otherwise text).")
@force_option
@json_option
def play(
    players: int,
    games: int,
    seed: int,
    deck_path: str | None,
    policy: str,
    subsoil_rule: str,
    min_flock: int,
    stall_rule: str,
    flock_ties: str,
    record: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Simulate --games games and report length, flower versus stall endings, scores and seat advantage.

    \b
    Examples:
      terragen terralogical play --players 3 --games 200 --seed 5 --policy greedy
      terragen terralogical play --policy random,careful --record last.txt --json

    Exit status: 0 done, 2 bad options, an unreadable deck, or --record exists (add --force),
    73 a file could not be written (read-only, disk full, a link to nothing, a file
    where a folder goes); 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.cli.progress import Progress
    from terragen.names import comma_list, per_seat
    from terragen.terralogical.board import RuleOptions
    from terragen.terralogical.players import POLICIES
    from terragen.terralogical.simulate import simulate

    # each name was checked as the command line was read (known_names)
    names = per_seat(comma_list(policy, "--policy", POLICIES), players)
    if record == "-":  # the shared message says to leave the option out to print, but play prints no board
        raise SpecError("'-' (standard output) cannot take this output: --record needs a file name (.json, "
                        "otherwise text); standard output carries the play report")
    if record:
        check_outputs([record], force, inputs=[deck_path])
    d = _load_deck(deck_path)
    warn_small_deck(d)
    last: list = []
    bar = Progress("terragen terralogical play", games, "games")

    def keep(result) -> None:
        last[:] = [result.final]
        bar.update(bar.done + 1)

    stats = simulate(
        d.tiles,
        players,
        games,
        seed,
        names,
        RuleOptions(subsoil_rule=subsoil_rule, min_flock=min_flock, stall_rule=stall_rule,
                    flock_ties=flock_ties.lower()),
        on_game=keep,
    )
    bar.close()
    if record:
        from terragen.fileio import atomic_write
        from terragen.formats import json_file_text
        from terragen.terralogical.formats import board_state_of_game, state_to_json, state_to_text

        board = board_state_of_game(last[-1], by_code=deck_path is not None)  # readable without the deck
        if record.lower().endswith(".json"):
            atomic_write(record, json_file_text(state_to_json(board)))
        else:
            atomic_write(record, state_to_text(board))
    if as_json:
        echo_json(stats)
        return
    if record:  # named as every command names a file it wrote (it was written without a word)
        say(f"written: {record} (the last game's board)")
    say(f"{counted(games, 'game')}, {players} players ({', '.join(names)}), seed {seed}")
    say(f"ended at the flower: {stats['flower_share']:.1%}, stalled: {stats['stall_share']:.1%}")
    say(f"mean turns {stats['turns_mean']}, mean placements {stats['placements_mean']}")
    rules = stats["rules"]  # the readings played, as TerraFlip's report names its own
    say_report(["rules: " + ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in sorted(rules.items()))])
    say("mean score by seat: " + ", ".join(f"{s:.2f}" for s in stats["score_mean"]))
    say(f"mean spread (best - worst) {stats['spread_mean']:.2f} points")
    say_report([
        "wins by seat: " + ", ".join(f"{w:.1%} {interval_text(ci, width=0)}" for w, ci
                                     in zip(stats["win_share"], stats["win_share_ci95"]))
        + f" (95% intervals; {_first_seat_words(stats['first_player_advantage'], 1 / players)})"
    ])


def _first_seat_words(advantage: float, fair: float) -> str:
    """How far the first seat's wins are from a fair share, in words ("wins -50.0 points" read oddly)."""
    points = 100 * advantage
    if round(points, 1) == 0:
        return f"the first seat wins its fair {fair:.1%}"
    side = "more" if points > 0 else "less"
    return f"the first seat wins {abs(points):.1f} percentage points {side} than a fair {fair:.1%}"


@terralogical.command()
@click.argument("file", type=FILE_OR_NAME)
@click.option(
    "--deck", "deck_path", type=FILE_OR_NAME, default=None, help="Deck JSON resolving tile ids [default: shipped deck]."
)
@click.option("--subsoil-rule", type=NameChoice(["both", "either", "placed"], "subsoil rule"), default="both", show_default=True,
              help="Which triangles must be light for a 2-point connection.")
@click.option("--min-flock", type=Whole(1, 64), default=2, show_default=True,
              help="Smallest cube group that counts as a flock.")
@click.option("--flock-ties", type=NameChoice(["share", "by-count"], "flock-ties rule"), default="share",
              show_default=True, help="How tied flocks rank: tied players share a place and the next takes the "
              "place after them (share), or the distinct counts are ranked (by-count: 5, 5, 3 pays the 3 second prize).")
@json_option
def validate(file: str, deck_path: str | None, subsoil_rule: str, min_flock: int, flock_ties: str,
             as_json: bool) -> None:
    """Check a board state (JSON or text) against the placement rules and score it.

    The same report as 'terragen validate FILE' gives. A text file is read
    forgivingly: each line that cannot be read is listed with its line:col
    and skipped (exit 2), and the rest is still checked.

    \b
    Examples:
      terragen terralogical validate board.txt
      terragen terralogical validate board.json --deck my-deck.json --json

    Exit status: 0 legal, 1 a rule is broken, 2 unreadable file or bad options; 70, 129,
    130, 143 as for every command (terragen --help).
    """
    from terragen.cli._common import one_standard_input
    from terragen.cli.validate import finish_game_validation
    from terragen.fileio import read_text_input
    from terragen.terralogical.validation import validate_text

    one_standard_input(FILE=file, **{"--deck": deck_path})

    with json_even_on_failure(file, as_json, "terralogical"):
        text = read_text_input(file)
        deck = _load_deck(deck_path)
        report = validate_text(text, file, deck=deck, subsoil_rule=subsoil_rule, min_flock=min_flock,
                               flock_ties=flock_ties.lower())
    finish_game_validation(report, file, "terralogical", as_json)
