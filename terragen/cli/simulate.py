"""``terragen simulate FILE``: play many Terrain Game matches on a layout and judge it."""

from __future__ import annotations


import click

from terragen.cli._common import (Whole, MarginShare, PathName, checked_when_read, echo_json, json_option,
                                  note_missing_kernels, say, say_report, seed_range)
from terragen.errors import EXIT_INVALID, EXIT_OK, SpecError
from terragen.limits import MAX_PLAY_GAMES, MAX_TURN_CAP


def _check_policies(text: str) -> None:
    """Every --policy name a built-in player's or a plug-in that loads."""
    from terragen.names import comma_list
    from terragen.terrain.sim.policies import POLICIES, load_policy

    for name in comma_list(text, "--policy", POLICIES):
        if name not in POLICIES:
            load_policy(name)


def _check_variants(text: str) -> None:
    from terragen.terrain.sim.variants import variant_names

    variant_names(text)


@click.command()
@click.argument("file", type=PathName(dir_okay=False, path_type=str))
@click.option("--games", type=Whole(1, MAX_PLAY_GAMES), default=None,
              help="How many games to play. Default: enough that a fair seat's standard error is a seventh of "
                   "--margin (19600 for 2 seats, 17424 for 3, 14700 for 4, 12545 for 5, 10890 for 6 at "
                   "2.5 points).")
@click.option("--seed", type=seed_range(), default=0, show_default=True, help="Seed; same seed, same numbers.")
@click.option("--policy", default="greedy", show_default=True, metavar="NAME[,NAME...]",
              callback=checked_when_read(_check_policies),
              help="random (any legal move), greedy (the shortest way to its flags; on doubles turns a piece of "
                   "its own route), expert (plays by exact expected turns, and on doubles may turn a piece against "
                   "a leader close to winning), solitary (plays as if alone, forfeits every double) or "
                   "package.module:ClassName; one for all seats or one per player in seat order (the "
                   "lowest seat number first, wherever the file lists it).")
@click.option("--variant", multiple=True, metavar="NAME",
              callback=checked_when_read(_check_variants),
              help="inversion, green, lost, teams, no-pass-through, fixed-start, no-interactions "
                   "(repeat or comma-separate). teams: partners on neighbouring corners, for 4 or 6 "
                   "players; "
                   "--teams for any other split.")
@click.option("--teams", metavar="SEATS", help="Team play with these teams, e.g. 0+2,1+3: players by their place in seat "
                                               "order (0 the lowest seat number), whatever their seat numbers (implies "
                                               "--variant teams).")
@click.option("--workers", type=Whole(), default=1, show_default=True, help="Worker processes; 0 = one per CPU core. The numbers are the same whatever the count.")
@click.option("--turn-cap", type=Whole(1, MAX_TURN_CAP), default=500, show_default=True,
              help=f"Rounds after which a game stops undecided, 1 to {MAX_TURN_CAP:,}.")
@click.option("--margin", type=MarginShare(0.001, 1.0), default=0.025, show_default=True,
              help="BALANCED when every seat's win rate is within this of its fair share (0.025 = 2.5 points).")
@click.option("--twin-dice", metavar="SEATS",
              help="Play twin pairs of games, the second giving each seat the rolls of the seat it is paired with, "
                   "e.g. 0-1,2-3 (seat numbers as the file gives them): how the generator samples a board of two "
                   "classes of seats, so its record can be replayed. Rules where every seat rolls once a round "
                   "(no teams, no green die); an even number of games.")
@click.option("--cycle-dice", is_flag=True,
              help="Play the games in cycles of as many games as seats that share their streams of rolls, the "
                   "k-th seat to play rolling the k-th stream: how the generator samples a board whose seats it "
                   "checks one by one (five seats), so its record can be replayed. Same rules as --twin-dice; "
                   "a multiple of the seat count of games.")
@json_option
def simulate(file: str, games: int | None, seed: int, policy: str, variant: tuple[str, ...], teams: str | None,
             workers: int, turn_cap: int, margin: float, twin_dice: str | None, cycle_dice: bool, as_json: bool) -> int:
    """Play many games of the Terrain Game on FILE: is it playable, is it balanced?

    FILE is a layout, JSON or text form (a puzzle scenario from terragen batch
    has one player: no race to simulate, and it is refused).

    Reports each seat's win rate with a 95% (Wilson) interval and its distance
    from a fair share, turns to finish, the share of games stopped by the turn
    cap, and rotations and send-backs per game. Two verdicts: PLAYABLE when
    every destination can be reached ignoring pips and at least 99% of games
    finish under the cap; BALANCED when every seat's win rate is within
    --margin of its fair share (1/seats, or 1/teams in team play).

    \b
    Examples:
      terragen simulate board.txt --games 1000 --seed 7
      terragen simulate board.json --policy expert,greedy,greedy,greedy --json
      terragen simulate board.txt --variant green --workers 2
      terragen simulate board.json --policy solitary --variant no-interactions

    Exit status: 0 PLAYABLE and BALANCED, 1 NOT PLAYABLE or NOT BALANCED (a
    layout with 0, 1 or 7+ players, two on one seat, or a rule break that
    leaves no game, such as a level 99 piece or a flag off the board, is not
    played at all), 2 bad input or options; 70 (a worker process died, too), 129, 130,
    143 as for every command (terragen --help).
    """
    from terragen.cli.progress import Progress
    from terragen.errors import InputError
    from terragen.fileio import display_name
    from terragen.fileio import read_text_input
    from terragen.terrain.files import parse_layout
    from terragen.terrain.formats_json import is_scenario
    from terragen.terrain.sim.runner import parse_twins, seat_numbers, simulate_layout
    from terragen.terrain.sim.variants import rules_for_layout
    from terragen.terrain.validation import check_game_shape

    text = read_text_input(file)
    layout = parse_layout(text, file)
    try:  # 0, 1 or 7+ players is no game: NOT PLAYABLE without playing (validate rejects it too)
        check_game_shape(layout, display_name(file))
    except InputError as exc:
        problem = exc
        if is_scenario(text):  # validate passes a puzzle: "validate lists every problem" sent users there
            problem = InputError(f"{display_name(file)}: a one-player puzzle from terragen batch, not a race; "
                                 "simulate plays 2 to 6 seats (terragen validate checks the puzzle)", exc.exit_code)
        if not as_json:
            raise problem from None
        echo_json({"file": file, "playable": False, "balanced": False, "reason": problem.message})
        return EXIT_INVALID
    from terragen.process_pool import worker_count

    workers = worker_count(workers, "--workers")
    rules = rules_for_layout(layout, list(variant), turn_cap=turn_cap, teams=teams)
    if cycle_dice and twin_dice is not None:
        raise SpecError("--cycle-dice and --twin-dice are two ways to deal the rolls: give one")
    twins = parse_twins(twin_dice, seat_numbers(layout)) if twin_dice is not None else None
    if twins is not None and games is not None and games % 2:  # said with the flags (the library names "games")
        raise SpecError(f"--games must be even with --twin-dice (the games come in pairs), got {games}")
    if cycle_dice and games is not None and games % len(layout.players):
        raise SpecError(f"--games must be a multiple of the {len(layout.players)} seats with --cycle-dice "
                        f"(the games come in cycles), got {games}")
    note_missing_kernels()
    with Progress("terragen simulate", games or 1, "games") as bar:
        report = simulate_layout(layout, games=games, seed=seed, policy=policy, rules=rules, workers=workers,
                                 margin=margin, progress=bar.update, source=display_name(file), twins=twins,
                                 cycle=cycle_dice)
    if as_json:
        data = report.to_json()
        data["file"] = file
        echo_json(data)
    else:
        say(f"{file}:")
        say_report(report.lines())
    return EXIT_OK if report.playable and report.balanced else EXIT_INVALID
