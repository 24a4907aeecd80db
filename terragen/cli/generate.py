"""``terragen generate``: a Terrain Game board that meets a spec, with its build order."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from terragen.cli._common import (Whole, FILE_OR_NAME, TIME_LIMIT, FolderName, MarginShare, PathName, check_folder,
                                  check_outputs, echo_json, force_option, json_option, reading_option, say, say_report,
                                  seed_range)

if TYPE_CHECKING:  # the heavy modules load only when a command runs
    from terragen.terrain.analysis import Analysis
    from terragen.terrain.generate.spec import Spec
    from terragen.terrain.layout import Layout


def _preset_choice() -> click.Choice:
    from terragen.terrain.generate.presets import preset_names

    return click.Choice(preset_names() or ["easy", "medium", "hard", "brutal"], case_sensitive=False)


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


def balance_flags_clash(no_balance: bool, strict_balance: bool, check_experts: bool) -> str | None:
    """Why these balance flags cannot go together, or None (the web page's form asks too)."""
    if no_balance and check_experts:
        return "--check-experts needs the balance check: leave out --no-balance"
    if no_balance and strict_balance:
        return ("--strict-balance writes only a board whose balance was verified, and --no-balance skips that "
                "check: give one of them")
    return None


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
@click.option("--placement", type=click.Choice(["free", "distance", "fixed", "opposite"], case_sensitive=False),
              help="Where destinations go. [default: free]")
@click.option("--shape", type=click.Choice(["none", "mountain", "valley", "ridge", "terraces"], case_sensitive=False), help="Height-shape hint.")
@click.option("--symmetry", type=click.Choice(["auto", "none"], case_sensitive=False),
              help="auto: a terrain that a turn or a mirror of the board maps onto itself, so that seats which are "
                   "images of each other face the same terrain (which one for each seat count and radius: "
                   "docs/generate.md, \"Symmetric boards\"); none: free-form terrain. [default: auto]")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr. [default: when stderr is a terminal]")
@click.option("--balance-games", "--gate-games", "balance_games", type=Whole(1, MAX_BALANCE_GAMES),
              help="Fresh-seed games the final balance check plays; fewer than 2000 is a quick look, not a balance "
                   "check (the summary says so); a large number can run past --time-limit. [default: enough for "
                   "a standard error of a quarter of the margin, 4800 with 4 seats; docs/generate.md has the rest]")
@click.option("--margin", "--gate-margin", "margin", type=MarginShare(0.001, 0.5), default=0.025, show_default=True,
              help="Largest distance of a seat's win rate from a fair share that terragen simulate may measure; "
                   "the generator's own check uses 0.6 of it (0.8 for solitary players) and asks for odds of 99% "
                   "that simulate agrees.")
@click.option("--no-balance", "--no-gate", "no_balance", is_flag=True,
              help="Skip balancing by simulation (faster; the seats may then win unequally often).")
@click.option("--strict-balance", is_flag=True,
              help="Write a board only if its balance was verified; otherwise exit 4 when the time is up.")
@click.option("--check-experts", is_flag=True,
              help="Also require the balance for the simulator's expert players (who turn pieces against a near "
                   "winner). Much slower: the search can only reject a board for them, so on 4 and 6 seats it gets "
                   "twice the usual work budget (a median of about 14 s instead of about 3 s, best-effort runs "
                   "25-55 s; see docs/generate.md).")
@click.option("--expert-glance/--no-expert-glance", default=True, show_default=True,
              help="On 4- to 6-seat symmetric boards, a few hundred games of expert players refuse a board plainly "
                   "unfair for them (a search that is late keeps it and says so; docs/generate.md says when there "
                   "is none). --no-expert-glance is faster and leaves more boards unfair for experts.")
@json_option
def generate(players, destinations, difficulty, seed, out_dir, force, time_limit, spec_file, radius, inventory,
             placement, shape, symmetry, progress, balance_games, margin, no_balance, strict_balance, check_experts,
             expert_glance, as_json) -> int:
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
    refuses only a board plainly unfair for them, and --check-experts checks
    them in full, at several times the time. docs/generate.md says how.

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
    73 the files could not be written (an earlier board is then left as it was).
    """
    import time

    from terragen.cli.progress import Progress
    from terragen.fileio import OutputSet
    from terragen.render.kits.terrain.board_picture import board_svg
    from terragen.terrain.analysis import analyse
    from terragen.terrain.formats_json import write_json_layout
    from terragen.terrain.formats_text import write_text_layout
    from terragen.terrain.generate import BalanceSettings, generate_board
    from terragen.terrain.generate.options import build_spec, load_spec_inventory

    flags = {"players": players, "destinations": destinations, "difficulty": difficulty, "seed": seed,
             "time_limit": time_limit, "radius": radius, "inventory": inventory, "placement": placement,
             "shape": shape, "symmetry": symmetry}
    clash = balance_flags_clash(no_balance, strict_balance, check_experts)
    if clash:  # before any file check: the options alone are wrong
        raise click.UsageError(clash)
    with reading_option("--spec"):
        spec, run = build_spec(flags, spec_file)
    pieces = load_spec_inventory(spec, flags, spec_file)
    folder = out_dir or default_folder(spec, run["seed"])
    check_folder(folder)
    inventory_file = spec.inventory if spec.inventory and os.path.lexists(spec.inventory) else None
    check_outputs([f"{folder}/{name}" for name in FILES], force, inputs=[spec_file, inventory_file])
    balance = None if no_balance else BalanceSettings(margin=margin, verify_games=balance_games,
                                                      expert_glance=expert_glance)
    if balance is not None and check_experts:
        balance = balance.with_experts()
    bar = Progress("terragen generate", run["time_limit"], unit="s", enabled=False if progress is False else None)
    began = time.monotonic()

    def show(msg: str) -> None:
        bar.update(time.monotonic() - began, note=msg.split(",")[0])

    with bar:
        layout = generate_board(spec, run["seed"], run["time_limit"], inventory=pieces, balance=balance,
                                best_effort=not strict_balance, workers=None,
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
        say_report(summary(layout, analysis, spec))
        say(f"written: {folder}/board.json, board.txt, board.svg")
    record = layout.extra["meta"].get("balance") or {}
    if record.get("verdict") == "NOT BALANCED":  # on stderr with --json too: stdout stays one JSON document
        ended = ("the search's work budget (simulation worth part of --time-limit) was spent"
                 if record.get("ended_by") == "work budget" else "the time ran out")
        where = "the balance record in the JSON" if as_json else "the balance lines"
        click.echo(f"terragen generate: warning: {ended} before the seats were balanced; this board is NOT "
                   f"BALANCED (see {where}); try another --seed, a longer --time-limit or a wider --margin", err=True)
    return 0


#: the simulator's expert players, said once where a summary names them (users met the word undefined)
EXPERTS = "expert players (who turn pieces against a leader close to winning)"


def _experts_line(players: int, symmetry: str | None, glance: dict | None = None) -> str:
    """What the summary says of expert players when the run did not check them (``glance``: the
    few hundred games the generator looked at them on, if it did).

    Why a line at all: the balance lines name the kinds of player checked, and a reader who
    sees every one BALANCED would take the board as fair for all; the simulator's experts (who
    turn pieces against a near winner) are not, on about half of 4- and 6-seat boards. Where the
    symmetry makes every seat an image of every other (one class of seats: 2 and 3 seats), no
    kind of player can tell the seats apart, so the line says that instead."""
    one_class = bool(symmetry) and symmetry != "none" and symmetry.count("{") == 1
    if one_class and players <= 3:
        return ("balance: expert players not simulated; every seat is an image of every other under the "
                "symmetry, so they are even for experts too")
    if glance:
        seen = (f"{glance['games']} fresh games of expert players (seed {glance['seed']}) put the seat classes "
                f"{100 * glance['pooled_worst_deviation']:.2f} points from fair")
        if glance["verdict"] == "PLAINLY OFF":
            return (f"balance: NOT BALANCED for expert players by a glance: {seen}, plainly over "
                    f"{100 * glance['pooled_limit']:.1f}; the search was late and kept this board, balanced for "
                    "the others (try --check-experts with a longer --time-limit, or another --seed)")
        # say the limit a glance really applies: "3.58 points ... refuses only a board plainly over 2.5"
        # read as a contradiction (the board passed because 3.58 was within the glance's noise)
        refused = glance.get("refused_above")
        bar = f"it refuses only above {100 * refused:.1f}, the margin plus twice its noise" if refused else \
            f"it refuses only a board plainly over {100 * glance['pooled_limit']:.1f}"
        if glance["pooled_worst_deviation"] > glance["pooled_limit"]:
            # what it means and what to do first, in plain words; the figures after (a user asked what an
            # expert was and what to do about "likely NOT BALANCED for experts ... within the noise")
            return (f"balance: {EXPERTS} only glanced at: likely NOT BALANCED for experts, some seats a few points "
                    f"ahead when players block the leader; for a board fair for them too, add --check-experts "
                    f"(slower). The glance: {seen}, over the {100 * glance['pooled_limit']:.1f} margin but within "
                    f"its noise ({bar})")
        return f"balance: {EXPERTS} only glanced at: {seen} ({bar}; add --check-experts for a full check)"
    if players == 5:
        odds = "; about four five-seat boards in five are unfair for them"
    elif players in (4, 6):
        odds = "; about half of 4- and 6-seat boards are unfair for them"
    else:  # measured only on the symmetric boards, where every seat is an image of every other
        odds = ""
    return f"balance: {EXPERTS} not checked (add --check-experts{odds})"


def _floor_percent(p: float) -> str:
    """A lower bound as a percentage rounded down: "at least 100%" read oddly for 99.6%."""
    import math

    return f"{math.floor(p * 1000) / 10:g}%"


def summary(layout: Layout, analysis: Analysis, spec: Spec) -> list[str]:
    """Per seat: destinations, cheapest cost, expected turns, race-model and simulated win
    chances; then the balance verdict and the difficulty."""
    from terragen.terrain.generate.fresh_checks import MIN_FRESH_GAMES
    from terragen.plain_text import columns
    from terragen.terrain.race import race_for_layout

    race = race_for_layout(layout).win_probability_rotating
    sim = layout.extra.get("meta", {}).get("balance")
    rates = sim["verification"][0]["win_rates"] if sim else [None] * len(layout.players)
    # the columns validate has are named as validate names them (this table said "critical" and
    # "race win" for validate's "fragility" and its opener-rotating race)
    rows = [("seat", "corner", "destinations", "cost", "exp.\nturns", "up-3", "fragility", "race,\nrotating",
             "simulated\nwin")]
    for p, rep, pr, rate in zip(layout.players, analysis.players, race, rates):
        # one destination a row, as validate has them: three on one row took the table past 80 columns
        first, *more = [f"({d.q},{d.r})" for d in p.destinations] or ["-"]
        rows.append((str(p.seat), str(p.corner), first,
                     str(rep.tour_cost), f"{rep.expected_turns or 0:.2f}", str(rep.up3_steps), str(rep.fragility),
                     f"{100 * pr:.1f}%", f"{100 * rate:.1f}%" if rate is not None else "-"))
        rows.extend(("", "", dest, "", "", "", "", "", "") for dest in more)
    lines = columns(rows)
    m = analysis.metrics()
    symmetry = layout.extra.get("meta", {}).get("symmetry")
    if symmetry:
        lines.append(f"symmetry: {symmetry}")
    if sim:
        tag = ""
        if sim.get("best_effort"):
            tag = (" (best effort: the search's work budget was spent while tuning)"
                   if sim.get("ended_by") == "work budget" else " (best effort: the time ran out while tuning)")
        if sim.get("time_limited"):
            tag = tag[:-1] + "; measured on fewer games to end within --time-limit)"
        for v in sim["verification"]:
            # what a player reads first on a line of its own, the figures to replay or audit it indented
            # below (one line of about 300 characters was a wall of text)
            lines.append(f"balance: {v['verdict']}{tag} for {v['policy']} players: worst seat "
                         f"{100 * v['worst_deviation']:.2f} points from a fair {100 * v['fair_share']:.1f}% "
                         f"(checked against {100 * v['threshold']:.2f}; margin {100 * sim['margin']:.1f}), "
                         f"on {v['games']} fresh games")
            details = [f"seed {v['seed']}" + (f", twin dice {v['twin_dice']}" if v.get("twin_dice") else "")]
            if "pooled_threshold" in v:
                details.append(f"seat classes pooled {100 * v['pooled_worst_deviation']:.2f} "
                               f"(checked against {100 * v['pooled_threshold']:.2f})")
            if "simulate_odds_bound" in v:
                details.append(f"a default `terragen simulate` run says BALANCED with odds of at least "
                               f"{_floor_percent(v['simulate_odds_bound'])} (a cautious bound: every seat taken a "
                               f"little further from fair than measured; the promise needs "
                               f"{100 * v['simulate_odds_needed']:.0f}%)")
            lines.append("  " + "; ".join(details))
        if sim.get("best_effort"):  # read as "simulate will refuse it", which it often does not
            lines.append("balance: best effort means the board missed the generator's promise (BALANCED in at least "
                         "99 default `terragen simulate` runs of 100), measured on fewer games than simulate plays; "
                         "simulate may still call it BALANCED: `terragen simulate board.json` measures it")
        quick = [v for v in sim["verification"] if v["verdict"] == "BALANCED" and v["games"] < MIN_FRESH_GAMES]
        if quick:
            why = ("the time limit cut the measurement" if sim.get("time_limited")
                   else "--balance-games asked for fewer")
            lines.append(f"balance: a quick look only: {min(v['games'] for v in quick)} fresh games is fewer than the "
                         f"{MIN_FRESH_GAMES} a balance check needs ({why}); `terragen simulate` on the board "
                         "measures it properly")
        if not any(v["policy"] == "expert" for v in sim["verification"]):
            lines.append(_experts_line(len(layout.players), symmetry, sim.get("expert_glance")))
    else:
        lines.append("balance: not simulated (--no-balance)")
    lines.append(f"expected-turns spread {m['fairness_spread']:.2f}"
                 + (f" (spec <= {spec.fairness:g})" if spec.fairness is not None else ""))
    band = f", band {spec.turns_band[0]:g}-{spec.turns_band[1]:g}" if spec.turns_band else ""
    lines.append(f"difficulty: {spec.difficulty or 'custom'}, mean expected turns {m['expected_turns_mean']:.2f}{band}")
    return lines
