"""``terragen terralogical``: design the deck, play simulated matches, check a board."""

from __future__ import annotations

import json

import click

from terragen.cli._common import echo_json, finish_validation
from terragen.errors import SpecError


@click.group()
def terralogical() -> None:
    """Terralogical: design a balanced deck of land tiles, simulate games, validate boards."""


def _load_deck(path: str | None):
    from terragen.fileio import read_text_input
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.formats import deck_from_json

    if path is None:
        return default_deck()
    return deck_from_json(read_text_input(path), path)


@terralogical.command()
@click.option("--seed", type=int, default=1, show_default=True, help="Seed choosing among the decks that qualify.")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE", help="Override a design parameter (repeatable).")
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Deck file to write [default: output/terralogical-deck-<seed>.json].",
)
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
def deck(seed: int, params: tuple[str, ...], out: str | None, as_json: bool) -> None:
    """Design 63 land tiles with CP-SAT and write them (plus sun and flower tiles) as JSON.

    \b
    Parameters (defaults in docs/terralogical.md): tiles, cloud_share, cloud_tolerance,
    light_share, light_tolerance, landscape_tolerance, max_clouds_per_tile,
    min_partners, min_connectors, max_deterministic_time.
    Example: terragen terralogical deck --seed 7 --param cloud_share=0.12 --out deck.json
    """
    from terragen.fileio import atomic_write
    from terragen.terralogical.deck import DeckParams, design_deck
    from terragen.terralogical.formats import deck_to_json_text

    p = DeckParams.from_pairs(list(params))
    d = design_deck(seed, p)
    path = out or f"output/terralogical-deck-{seed}.json"
    atomic_write(path, deck_to_json_text(d))
    stats = d.to_json()["stats"]
    if as_json:
        echo_json({"out": path, "stats": stats})
        return
    click.echo(f"wrote {path}: {stats['tiles']} land tiles + sun + flower (seed {seed})")
    click.echo(
        f"triangles: meadow {stats['meadow']}, field {stats['field']}, wood {stats['wood']}, cloud {stats['cloud']}"
    )
    by_land = ", ".join(f"{k} {v}" for k, v in stats["light_by_landscape"].items())
    click.echo(f"subsoil: light {stats['light']}, dark {stats['dark']} (light by landscape: {by_land})")
    click.echo("tiles by clouds: " + ", ".join(f"{k}: {v}" for k, v in stats["tiles_by_clouds"].items() if v))
    click.echo(
        f"connectors {stats['connectors']}, fewest partners of a tile {stats['min_partners']}, "
        f"duplicates up to rotation {stats['duplicates_up_to_rotation']}"
    )


@terralogical.command()
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--games", type=click.IntRange(1, 1_000_000), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--deck", "deck_path", type=str, default=None, help="Deck JSON [default: the shipped deck].")
@click.option(
    "--policy",
    "policy",
    default="greedy",
    show_default=True,
    help="random, greedy, rusher or careful; a comma list gives one per seat (e.g. random,greedy).",
)
@click.option("--subsoil-rule", type=click.Choice(["both", "either", "placed"]), default="both", show_default=True,
              help="Which triangles must be light for a 2-point connection.")
@click.option(
    "--min-flock",
    type=click.IntRange(1, 64),
    default=2,
    show_default=True,
    help="Smallest cube group that counts as a flock.",
)
@click.option("--stall-rule", type=click.Choice(["round", "empty-pile"]), default="round", show_default=True,
              help="End after any round without a placement, or only once the draw pile is empty.")
@click.option("--record", type=click.Path(dir_okay=False), default=None,
              help="Save the last game's board as a board-state file (.json, otherwise text).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
def play(
    players: int,
    games: int,
    seed: int,
    deck_path: str | None,
    policy: str,
    subsoil_rule: str,
    min_flock: int,
    stall_rule: str,
    record: str | None,
    as_json: bool,
) -> None:
    """Simulate GAMES games and report length, flower versus stall endings, scores and seat advantage.

    Example: terragen terralogical play --players 3 --games 200 --seed 5 --policy greedy
    """
    from terragen.terralogical.board import RuleOptions
    from terragen.terralogical.players import POLICIES
    from terragen.terralogical.simulate import simulate

    names = [s.strip() for s in policy.split(",") if s.strip()]
    for name in names:
        if name not in POLICIES:
            raise SpecError(f"--policy {name!r}: choose from {', '.join(POLICIES)}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SpecError(f"--policy lists {len(names)} policies for {players} players")
    d = _load_deck(deck_path)
    last: list = []

    def keep(result) -> None:
        last[:] = [result.final]

    stats = simulate(
        d.tiles,
        players,
        games,
        seed,
        names,
        RuleOptions(subsoil_rule=subsoil_rule, min_flock=min_flock, stall_rule=stall_rule),
        on_game=keep if record else None,
    )
    if record:
        from terragen.fileio import atomic_write
        from terragen.terralogical.formats import board_state_of_game, state_to_json, state_to_text

        board = board_state_of_game(last[-1])
        if record.lower().endswith(".json"):
            atomic_write(record, json.dumps(state_to_json(board), indent=2, sort_keys=True) + "\n")
        else:
            atomic_write(record, state_to_text(board))
    if as_json:
        echo_json(stats)
        return
    click.echo(f"{games} games, {players} players ({', '.join(names)}), seed {seed}")
    click.echo(f"ended at the flower: {stats['flower_share']:.1%}, stalled: {stats['stall_share']:.1%}")
    click.echo(f"mean turns {stats['turns_mean']}, mean placements {stats['placements_mean']}")
    click.echo("mean score by seat: " + ", ".join(str(s) for s in stats["score_mean"]))
    click.echo(f"mean spread (best - worst) {stats['spread_mean']}")
    click.echo(
        "wins by seat: " + ", ".join(f"{w:.1%}" for w in stats["win_share"])
        + f" (first-player advantage {stats['first_player_advantage']:+.1%})"
    )


@terralogical.command()
@click.argument("file", type=str)
@click.option(
    "--deck", "deck_path", type=str, default=None, help="Deck JSON resolving tile ids [default: shipped deck]."
)
@click.option("--subsoil-rule", type=click.Choice(["both", "either", "placed"]), default="both", show_default=True)
@click.option("--min-flock", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def validate(file: str, deck_path: str | None, subsoil_rule: str, min_flock: int, as_json: bool) -> None:
    """Check a board state (JSON or text) against the placement rules and score it. Exit 1 if illegal."""
    from terragen.fileio import read_text_input
    from terragen.terralogical.validation import validate_text

    text = read_text_input(file)
    report = validate_text(text, file, deck=_load_deck(deck_path), subsoil_rule=subsoil_rule, min_flock=min_flock)
    finish_validation(report, file, as_json)
