"""``terragen generate``: a Terrain Game board that meets a spec, with its build order."""

from __future__ import annotations

import click

from terragen.cli._common import (POSITIVE, FiniteFloat, check_folder, check_outputs, echo_json, force_option,
                                  json_option, range_check, say)


def _preset_choice() -> click.Choice:
    from terragen.terrain.generate.presets import preset_names

    return click.Choice(preset_names() or ["easy", "medium", "hard", "brutal"])


def default_folder(spec, seed: int) -> str:
    """``output/terrain-4p-hard-seed1``: players, difficulty and seed, plus radius and
    destinations when they differ from the standard game, so two runs never share a name."""
    parts = [f"terrain-{spec.players}p", spec.difficulty or "custom"]
    if spec.radius != 5:
        parts.append(f"r{spec.radius}")
    if spec.destinations != 1:
        parts.append(f"{spec.destinations}dest")
    parts.append(f"seed{seed}")
    return "output/" + "-".join(parts)


FILES = ("board.json", "board.txt", "board.svg")


@click.command()
@click.option("--players", type=int, callback=range_check(2, 6), help="Number of players, 2-6. [default: 4]")
@click.option("--destinations", type=int, callback=range_check(1, 3), help="Destinations per player, 1-3. [default: 1]")
@click.option("--difficulty", type=_preset_choice(),
              help="Difficulty preset (see 'terragen presets'). [default: medium]")
@click.option("--seed", type=int, help="Random seed; the same spec and seed give the same files. [default: 0]")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False, path_type=str),
              help="Output folder. [default: output/terrain-<N>p-<DIFFICULTY>-seed<SEED>]")
@force_option
@click.option("--time-limit", type=POSITIVE, help="Give up after this many seconds (exit 4). [default: 60]")
@click.option("--spec", "spec_file", type=click.Path(dir_okay=False, path_type=str),
              help="TOML spec file with every option (see docs/generate.md); flags override it.")
@click.option("--radius", type=int, callback=range_check(3, 6), help="Board radius 3-6. [default: 5]")
@click.option("--inventory", metavar="NAME|FILE", help="Piece inventory: standard, extended or a TOML file.")
@click.option("--placement", type=click.Choice(["free", "distance", "fixed", "opposite"]),
              help="Where destinations go. [default: free]")
@click.option("--shape", type=click.Choice(["none", "mountain", "valley", "ridge", "terraces"]), help="Height-shape hint.")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr. [default: when stderr is a terminal]")
@click.option("--gate-games", type=click.IntRange(1, 100_000), default=200, show_default=True,
              help="Simulated games each candidate board must pass (greedy players) before it is written.")
@click.option("--gate-margin", type=FiniteFloat(0.0, 1.0), default=None,
              help="Largest distance of a seat's simulated win rate from a fair share. [default: as terragen simulate, 0.1]")
@click.option("--no-gate", is_flag=True, help="Skip the simulation gate (faster; boards may then play unevenly).")
@json_option
def generate(players, destinations, difficulty, seed, out_dir, force, time_limit, spec_file, radius, inventory,
             placement, shape, progress, gate_games, gate_margin, no_gate, as_json) -> int:
    """Generate a fair Terrain Game board that meets a spec.

    Every board written passed the validator (no errors, no warnings) and the
    analysis: each destination is reachable by elevation and by pips, the
    inventory is respected and every band of the spec holds. It then has to
    pass the simulator: --gate-games full-rules games between greedy players
    must all end under the turn cap, with no seat's win rate further than
    --gate-margin from a fair share (the same PLAYABLE verdict as
    terragen simulate, reproducible with the seed recorded in the board).

    Writes board.json (with the spec, metrics, piece ids and a legal build
    order in "meta"), board.txt (the board alone, for people to read and
    edit) and board.svg to the output folder, whose default name says what is
    in it. An existing board is never replaced without --force.

    \b
    Examples:
      terragen generate --players 4 --difficulty hard --seed 1
      terragen generate --players 2 --difficulty easy --out my-board --json
      terragen examples copy terrain/specs/example.toml
      terragen generate --spec example.toml
      terragen presets                     (the difficulties and their bands)

    Exit status: 0 board written, 2 bad options or spec, or the output exists
    (add --force), 3 spec proved infeasible, 4 time limit reached without a board,
    73 the files could not be written (an earlier board is then left as it was).
    """
    import time

    from terragen.cli.progress import Progress
    from terragen.fileio import OutputSet
    from terragen.render.kits.terrain.board_picture import board_svg
    from terragen.terrain.analysis import analyse
    from terragen.terrain.formats_json import write_json_layout
    from terragen.terrain.formats_text import write_text_layout
    from terragen.terrain.generate import generate_board
    from terragen.terrain.generate.options import build_spec

    flags = {"players": players, "destinations": destinations, "difficulty": difficulty, "seed": seed,
             "time_limit": time_limit, "radius": radius, "inventory": inventory, "placement": placement,
             "shape": shape}
    spec, run = build_spec(flags, spec_file)
    folder = out_dir or default_folder(spec, run["seed"])
    check_folder(folder)
    check_outputs([f"{folder}/{name}" for name in FILES], force)
    gate = None if no_gate else SimulationGate(gate_games, run["seed"], gate_margin)
    bar = Progress("terragen generate", run["time_limit"], unit="s", enabled=False if progress is False else None)
    began = time.monotonic()

    def show(msg: str) -> None:
        bar.update(time.monotonic() - began, note=msg.split(",")[0])

    with bar:
        layout = generate_board(spec, run["seed"], run["time_limit"], gate=gate,
                                progress=show if bar.enabled or progress else None)
    if gate is not None:
        layout.extra["meta"]["simulation"] = gate.record()
    analysis = analyse(layout)
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
                   "simulation": gate.record() if gate is not None else None})
        return 0
    for line in summary(layout, analysis, spec):
        say(line)
    if gate is not None:
        for line in gate.summary():
            say(line)
    say(f"written: {folder}/board.json, board.txt, board.svg")
    return 0


class SimulationGate:
    """The simulator as the generator's last check: a board ships only if it plays PLAYABLE.

    Keeps the report of the board it accepted so the summary and the board's
    ``meta`` can show the simulated figures.
    """

    POLICY = "greedy"

    MARGIN = 0.10  # the gate's own margin (simulate's default is now 2.5 points, over thousands of games)

    def __init__(self, games: int, seed: int, margin: float | None) -> None:
        self.games = games
        self.seed = seed
        self.margin = self.MARGIN if margin is None else margin
        self.tried = 0
        self.report = None

    def __call__(self, layout) -> bool:
        from terragen.terrain.sim import simulate_layout

        self.tried += 1
        report = simulate_layout(layout, games=self.games, seed=self.seed, policy=self.POLICY, margin=self.margin)
        ok = report.playable and report.balanced  # simulate now gives the two verdicts apart
        if ok:
            self.report = report
        return ok

    def record(self) -> dict:
        assert self.report is not None
        return {"games": self.games, "seed": self.seed, "policy": self.POLICY, "margin": self.margin,
                "boards_simulated": self.tried, "verdict": "PLAYABLE",
                "win_rates": [round(s.rate, 4) for s in self.report.seats],
                "turns": {k: round(v, 3) for k, v in self.report.turns.items()},
                "capped_share": self.report.capped_share}

    def summary(self) -> list[str]:
        r = self.report
        rates = ", ".join(f"seat {s.seat} {100 * s.rate:.1f}%" for s in r.seats)
        return [
            f"simulated: {self.games} games (greedy players, seed {self.seed}): PLAYABLE; win rates {rates}",
            f"  turns to finish mean {r.turns['mean']:.1f}, p90 {r.turns['p90']:.0f}; "
            f"{r.rotations_per_game:.1f} rotations and {r.send_backs_per_game:.2f} send-backs per game; "
            f"{self.tried} candidate board(s) simulated",
        ]


def summary(layout, analysis, spec) -> list[str]:
    """Per seat: destinations, cheapest cost, expected turns; then fairness and difficulty."""
    lines = ["seat  corner  destinations        cost  exp.turns  up-3  critical"]
    for p, rep in zip(layout.players, analysis.players):
        dests = " ".join(f"({d.q},{d.r})" for d in p.destinations)
        lines.append(f"{p.seat:<5} {p.corner:<7} {dests:<19} {rep.tour_cost!s:<5} {rep.expected_turns or 0:<10.2f} "
                     f"{rep.up3_steps!s:<5} {rep.fragility}")
    m = analysis.metrics()
    lines.append(f"fairness: expected-turns spread {m['fairness_spread']:.2f}"
                 + (f" (spec <= {spec.fairness:g})" if spec.fairness is not None else ""))
    band = f", band {spec.turns_band[0]:g}-{spec.turns_band[1]:g}" if spec.turns_band else ""
    lines.append(f"difficulty: {spec.difficulty or 'custom'}, mean expected turns {m['expected_turns_mean']:.2f}{band}")
    return lines
