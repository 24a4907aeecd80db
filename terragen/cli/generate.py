"""``terragen generate``: a Terrain Game board that meets a spec, with its build order."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from terragen.cli._common import (NameChoice, OldNamesOption, Whole, FILE_OR_NAME, TIME_LIMIT, FolderName, MarginShare, PathName, check_folder,
                                  check_outputs, echo_json, force_option, json_option, one_standard_input, reading_option, say,
                                  note_missing_kernels, say_report, seed_range, warn)

if TYPE_CHECKING:  # the heavy modules load only when a command runs
    from terragen.terrain.generate.spec import Spec


#: generate tunes a board to its margin, and past 0.5 that tunes nothing anyone calls balance (at 0.5
#: a seat of a two-player board may win every game or none): the wish is --no-balance, said so on
#: refusal. simulate only judges, and its margin goes to 1 so that --margin 1 reads the playability
#: verdict alone (docs/cli.md, "Options that mean the same everywhere")
GENERATE_MARGIN = MarginShare(0.001, 0.5, wider="a board not tuned for balance at all is --no-balance "
                                                   "(which --team-play cannot go with)")


def _preset_choice() -> NameChoice:
    from terragen.terrain.generate.presets import preset_names

    return NameChoice(preset_names() or ["easy", "medium", "hard", "brutal"], "difficulty")


def default_folder(spec: Spec, seed: int) -> str:
    """``output/terrain-4p-hard-seed1``: players, difficulty and seed, plus radius and
    destinations when they differ from the standard game, so runs of different sizes get
    different names (two runs that differ only in other options do share one: the check
    before writing refuses to replace the first without --force)."""
    parts = [f"terrain-{spec.players}p", spec.difficulty or "custom"]
    if spec.radius != 5:
        parts.append(f"r{spec.radius}")
    if spec.destinations != 1:
        parts.append(f"{spec.destinations}dest")
    parts.append(f"seed{seed}")
    return "output/" + "-".join(parts)


FILES = ("board.json", "board.txt", "board.svg")
#: the largest --balance-games (``balance.MAX_VERIFY_GAMES``, written out so --help loads no generator code)
MAX_BALANCE_GAMES = 500_000


def balance_flags_clash(no_balance: bool, strict_balance: bool, check_experts: bool,
                        team_play: bool = False) -> str | None:
    """Why these balance flags cannot go together, or None (the web page's form asks too)."""
    if no_balance and check_experts:
        return "--check-experts needs the balance check: leave out --no-balance"
    if no_balance and team_play:
        return "--team-play needs the balance check: leave out --no-balance"
    if no_balance and strict_balance:
        return ("--strict-balance writes only a board whose balance was verified, and --no-balance skips that "
                "check: give one of them")
    return None


def _warn_unused_with_no_balance(ctx: click.Context) -> None:
    """Say which flags given on the command line --no-balance makes do nothing: ``--no-balance
    --margin 0.1`` ran without a word, as if the margin had been kept."""
    from click.core import ParameterSource

    unused = [(p.secondary_opts[0] if p.secondary_opts and not ctx.params[p.name] else p.opts[0])
              for p in ctx.command.params
              if p.name in ("margin", "balance_games", "expert_glance") and isinstance(p, click.Option)
              and ctx.get_parameter_source(p.name) == ParameterSource.COMMANDLINE]
    if unused:
        warn(f"{' and '.join(unused)} {'does' if len(unused) == 1 else 'do'} nothing with --no-balance "
             "(no balance check is made)")


@click.command()
@click.option("--players", type=Whole(2, 6, show_range=False), help="Number of players, 2-6. [default: 4]")
@click.option("--destinations", type=Whole(1, 3, show_range=False), help="Destinations per player, 1-3. [default: 1]")
@click.option("--difficulty", type=_preset_choice(),
              help="Difficulty preset (see 'terragen presets'). [default: medium]")
@click.option("--seed", type=seed_range(), help="Random seed; the same spec and seed give the same files. [default: 0]")
@click.option("-o", "--out", "out_dir", type=FolderName(path_type=str),
              help="Output folder. [default: output/terrain-<N>p-<DIFFICULTY>-seed<SEED>]")
@force_option
@click.option("--time-limit", type=TIME_LIMIT, help="Search for at most this many seconds, then exit 4 if no board met the bands, or write the "
                   "best-effort board. The search's own stop is a fixed amount of simulation (at most 85% of this "
                   "on a 2-core machine), so that a seed gives the same board every time; a best-effort board on a "
                   "busy or slower machine, where the clock ends the search first, can differ (docs/generate.md). "
                   "[default: 60]")
@click.option("--spec", "spec_file", type=PathName(dir_okay=False, path_type=str),
              help="TOML spec file: the board's requirements (players, bands, placement, pins...; docs/generate.md); "
                   "flags override it.")
@click.option("--radius", type=Whole(3, 6, show_range=False), help="Board radius 3-6. [default: 5]")
@click.option("--inventory", type=FILE_OR_NAME, metavar="NAME|FILE", help="Piece inventory: standard, extended or a TOML file.")
@click.option("--placement", type=NameChoice(["free", "distance", "fixed", "opposite"], "placement"),
              help="Where destinations go. [default: free]")
@click.option("--shape", type=NameChoice(["none", "mountain", "valley", "ridge", "terraces"], "shape"), help="Height-shape hint.")
@click.option("--symmetry", type=NameChoice(["auto", "none"], "symmetry"),
              help="auto: a terrain that a turn or a mirror of the board maps onto itself, so that seats which are "
                   "images of each other face the same terrain (which one for each seat count and radius: "
                   "docs/generate.md, \"Symmetric boards\"); none: free-form terrain. [default: auto]")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr. [default: when stderr is a terminal]")
@click.option("--balance-games", "--gate-games", "balance_games", type=Whole(1, MAX_BALANCE_GAMES),
              cls=OldNamesOption, old_names=["--gate-games"],
              help="Fresh-seed games the final balance check plays; fewer than 2000 is a quick look, not a balance "
                   "check (the summary says so); a large number can run past --time-limit. [default: enough for "
                   "a standard error of a quarter of the margin, 4800 with 4 seats, played twice over as twin pairs "
                   "with 4 and 6 seats; docs/generate.md has the rest]")
@click.option("--margin", "--gate-margin", "margin", type=GENERATE_MARGIN, default=0.025, show_default=True,
              cls=OldNamesOption, old_names=["--gate-margin"],
              help="Largest distance of a seat's win rate from a fair share that terragen simulate may measure "
                   "(0.025 = 2.5 points); the generator's own check uses 0.6 of it (0.8 for solitary players) and "
                   "asks for odds of 99% that simulate agrees.")
@click.option("--no-balance", "--no-gate", "no_balance", is_flag=True, cls=OldNamesOption, old_names=["--no-gate"],
              help="Skip balancing by simulation (faster; the seats may then win unequally often).")
@click.option("--strict-balance", is_flag=True,
              help="Write a board only if its balance was verified; otherwise exit 4 when the time is up.")
@click.option("--check-experts", is_flag=True,
              help="Also require the balance for the simulator's expert players (who turn pieces against a near "
                   "winner). Much slower: the search can only reject a board for them, so on 4 and 6 seats it gets "
                   "twice the usual work budget (a median of about 14 s instead of about 3 s, best-effort runs "
                   "25-55 s; see docs/generate.md).")
@click.option("--expert-glance/--no-expert-glance", default=True, show_default=True,
              help="On 4- to 6-seat symmetric boards, a few hundred games of expert players refuse a board they "
                   "read unfair for them (late in a 4- or 6-seat search such a board is set aside, and written, "
                   "saying so, only if no board passes in time; docs/generate.md says when there is none). "
                   "--no-expert-glance is faster and leaves more boards unfair for experts.")
@click.option("--team-play", is_flag=True,
              help="Also play the board in teams (4 or 6 seats; partners on neighbouring corners, as "
                   "'simulate --variant teams' pairs them) and keep it only when every team wins close to its "
                   "share (docs/generate.md). Slower (about 3 times as long on fresh specs: a median 12 s of CPU "
                   "against 3.7 s on one worker): where a board fair for seats alone is not fair in teams, the "
                   "search goes on.")
@click.option("--workers", type=Whole(0), default=None,
              help="Processes that play the balance games; 0 = one per CPU core. The board is the same whatever the "
                   "count (the search's work is counted in games, not seconds). [default: TERRAGEN_WORKERS, else one "
                   "per core up to two]")
@json_option
def generate(players, destinations, difficulty, seed, out_dir, force, time_limit, spec_file, radius, inventory,
             placement, shape, symmetry, progress, balance_games, margin, no_balance, strict_balance, check_experts,
             expert_glance, team_play, workers, as_json) -> int:
    """Generate a balanced Terrain Game board that meets a spec.

    The board is legal: validate finds no error and no warning (every
    destination reachable by elevation and by pips, the inventory respected,
    the preset's bands met). And it is fair: seats that a turn or a mirror of
    the board maps onto each other face the same terrain, the destinations are
    tuned against full-rules simulated games, and the board is written only
    once games on fresh seeds put every seat close enough to its fair share
    that a default 'terragen simulate' calls it BALANCED 99 times in 100, for
    greedy and for solitary players. Expert players (who turn pieces against a
    leader close to winning) are even on 2 and 3 seats, where every seat is an
    image of every other; on 4 to 6 seats a glance of a few hundred games
    refuses a board it reads unfair for them (it cannot see a point or two),
    and --check-experts checks them in full, at several times the time.
    docs/generate.md says how.

    If the search's time or work runs out first (often for 5-seat hard and
    brutal boards), the fairest board it reached is written with its verdict
    as measured on fresh seeds: NOT BALANCED, and a warning, when it is not;
    --strict-balance writes nothing instead and exits 4.

    Writes board.json (with the spec, metrics, piece ids, the simulations and a
    legal build order in "meta"), board.txt (the board alone, for people to read and
    edit) and board.svg to the output folder, whose default name says what is
    in it. An existing board is never replaced without --force.

    \b
    Examples:
      terragen generate --players 4 --difficulty hard --seed 1
      terragen generate --players 2 --difficulty easy --out my-board --json
      terragen generate --players 4 --difficulty hard --check-experts
      terragen examples copy terrain/specs/example.toml
      terragen generate --spec example.toml
      terragen presets                     (the difficulties and their bands)

    Exit status: 0 board written, 2 bad options or spec, or the output exists
    (add --force), 3 spec proved infeasible, 4 time limit reached without a board
    (or, with --strict-balance, without a verified balanced one),
    73 the files could not be written (an earlier board is then left as it
    was); 70, 129, 130, 143 as for every command (terragen --help).
    """
    import time

    from terragen.cli.progress import Progress
    from terragen.fileio import OutputSet
    from terragen.render.kits.terrain.board_picture import board_svg
    from terragen.terrain.analysis import analyse
    from terragen.terrain.formats_json import write_json_layout
    from terragen.terrain.formats_text import write_text_layout
    from terragen.terrain.generate import BalanceSettings, generate_board
    from terragen.terrain.generate.report import generation_report, not_balanced_warning, team_warning
    from terragen.terrain.generate.options import build_spec, load_spec_inventory

    flags = {"players": players, "destinations": destinations, "difficulty": difficulty, "seed": seed,
             "time_limit": time_limit, "radius": radius, "inventory": inventory, "placement": placement,
             "shape": shape, "symmetry": symmetry}
    clash = balance_flags_clash(no_balance, strict_balance, check_experts, team_play)
    if clash:  # before any file check: the options alone are wrong
        raise click.UsageError(clash)
    if no_balance:
        _warn_unused_with_no_balance(click.get_current_context())
    one_standard_input(**{"--spec": spec_file, "--inventory": inventory})
    with reading_option("--spec"):
        spec, run = build_spec(flags, spec_file, as_flags=True)
    pieces = load_spec_inventory(spec, flags, spec_file)
    folder = out_dir or default_folder(spec, run["seed"])
    check_folder(folder)
    inventory_file = spec.inventory if spec.inventory and os.path.lexists(spec.inventory) else None
    check_outputs([f"{folder}/{name}" for name in FILES], force, inputs=[spec_file, inventory_file])
    balance = None if no_balance else BalanceSettings(margin=margin, verify_games=balance_games,
                                                      expert_glance=expert_glance)
    if balance is not None and check_experts:
        balance = balance.with_experts()
    if balance is not None and team_play:
        from dataclasses import replace

        from terragen.errors import SpecError
        from terragen.terrain.generate.team_check import TEAM_SEATS

        if spec.players not in TEAM_SEATS:
            raise SpecError(f"--team-play pairs partners on neighbouring corners for 4 or 6 players only "
                            f"(this spec has {spec.players})")
        from terragen.terrain.sim.variants import neighbour_teams

        if neighbour_teams(spec.seat_corners()) is None:  # its check would pair partners the rule never binds
            raise SpecError(f"--team-play pairs partners on neighbouring corners, and the spec's corners "
                            f"{', '.join(map(str, spec.seat_corners()))} pair no seats so")
        balance = replace(balance, teams=True)
    from terragen.process_pool import worker_count

    processes = worker_count(workers, "--workers") if workers is not None else None
    note_missing_kernels()
    # --progress forces the bar on (into a log file too), --no-progress off; neither: on a terminal only
    bar = Progress("terragen generate", run["time_limit"], unit="s", enabled=progress)
    began = time.monotonic()

    def show(msg: str) -> None:
        bar.update(time.monotonic() - began, note=msg.split(",")[0])

    with bar:
        layout = generate_board(spec, run["seed"], run["time_limit"], inventory=pieces, balance=balance,
                                best_effort=not strict_balance, workers=processes,
                                progress=show if bar.enabled or progress else None)
    analysis = analyse(layout, with_race=True)  # --json lists each seat's race model as validate does
    header = (f"terragen generate, seed {run['seed']}, difficulty {spec.difficulty or 'custom'}\n"
              "piece ids, build order and metrics are in board.json; edit this file freely")
    files = {
        "board.json": write_json_layout(layout),
        "board.txt": write_text_layout(layout, header=header, extra=False),
        "board.svg": board_svg(layout, analysis),
    }
    with OutputSet() as out:  # all three files or none: a failure leaves an earlier board whole
        for name, text in files.items():
            out.add(f"{folder}/{name}", text)
    if as_json:
        echo_json({"folder": folder, "files": [f"{folder}/{name}" for name in FILES], "seed": run["seed"],
                   "spec": spec.to_json(), "metrics": analysis.metrics(),
                   "players": [rep.to_json() for rep in analysis.players],
                   "balance": layout.extra["meta"].get("balance")})
    else:
        say_report(generation_report(layout, analysis, spec))
        say(f"written: {folder}/board.json, board.txt, board.svg")
        # the printable sheet is render's job (it takes a second; not every run wants paper), but a
        # new user looking for what to print was not told where it comes from
        import shlex

        # (a spec naming the boxed set itself, "standard", asked for the default kit by name)
        other_set = spec.inventory and str(spec.inventory) != "standard"
        # a set read from standard input is named by the file it came from, which only the user knows
        named = "FILE (the set given on standard input)" if str(spec.inventory) == "-" else shlex.quote(str(spec.inventory))
        kit_flags = (f" --radius {spec.radius}" if spec.radius != 5 else "") + (
            f" --inventory {named}" if other_set else "")
        say(f"to print its build sheet: terragen render {shlex.quote(folder + '/board.json')}")
        if kit_flags:  # the kit's board and pieces are radius 5's and the boxed set's by default
            say(f"to print a kit with its board and pieces: terragen kit terrain{kit_flags}")
    for warning in (not_balanced_warning(layout, as_json), team_warning(layout)):
        if warning:  # on stderr with --json too: stdout stays one JSON document
            warn(warning)
    return 0
