"""Team play before and after a change of the team players: unfinished games, team win rates, speed.

    python bench/team_convoy.py --before DIR [--games N] [--gen-games M] [--first-seed S] [--per-preset K]
                                [--specs 4:hard:119121,...] [--sim-seed T] [--policy P] [--no-examples]
                                [--no-generated]

``DIR`` is a checkout of the code to compare with (e.g. ``git worktree add /tmp/before <commit>``,
with the compiled ``_kernels`` and ``_fast_turns`` modules copied in, as the main checkout has them).
Each case (a board and its teams) is played by both codes, one after the other, each in a fresh
process (``PYTHONPATH`` set to its checkout; this script's own checkout for "after"), on the same
seeds: the example boards (four seats as 0+1,2+3 and 0+2,1+3; six seats as 0+1,2+3,4+5 and
0+1+2,3+4+5) and freshly generated boards (``terragen generate`` with this checkout's default
settings; four seats easy, medium, hard, brutal from seeds S, S+10, S+20, S+30, K a preset, and
six seats medium and hard from S+100, S+110), four seats as 0+1,2+3 and 0+2,1+3, six as
0+1,2+3,4+5. Printed as Markdown: each case's unfinished share (games stopped at the turn cap),
its teams' win rates, and turns per second (all seats' turns over the time of ``run_games``, tables
included, as ``simulate`` would spend it), then the totals and the speed ratio.
Why: the team players were changed to plan together when their convoy stalls
(``terragen/terrain/sim/convoy.py``; ``bench/README.md``, "Team play: a convoy that plans together").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "terragen" / "data" / "terrain" / "examples"
EXAMPLE_CASES = [("four-players.txt", "0+1,2+3"), ("four-players.txt", "0+2,1+3"),
                 ("six-players.txt", "0+1,2+3,4+5"), ("six-players.txt", "0+1+2,3+4+5")]
GENERATED_TEAMS = {4: ["0+1,2+3", "0+2,1+3"], 6: ["0+1,2+3,4+5"]}


def worker(args: dict) -> None:
    """Play one case with whatever ``terragen`` the PYTHONPATH holds; print the result as JSON."""
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.runner import run_games
    from terragen.terrain.sim.variants import Rules, parse_teams

    layout = load_layout(args["board"])
    n = len(layout.players)
    teams = parse_teams(args["teams"], n)
    start = time.perf_counter()
    games = run_games(layout, Rules(teams=teams), [args["policy"]] * n, args["seed"], 0, args["games"])
    seconds = time.perf_counter() - start
    wins = [sum(1 for g in games if g.winners and g.winners[0] in team) for team in teams]
    print(json.dumps({"games": len(games), "capped": sum(g.capped for g in games), "wins": wins,
                      "turns": sum(g.total_turns for g in games), "seconds": seconds}))


def play(tree: Path, board: Path, teams: str, games: int, seed: int, policy: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    spec = json.dumps({"board": str(board), "teams": teams, "games": games, "seed": seed, "policy": policy})
    p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", spec], capture_output=True,
                       text=True, env=env, check=False)
    if p.returncode != 0:
        raise SystemExit(f"{tree}: {board} {teams}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout)


def generate(out: Path, seats: int, preset: str, seed: int) -> Path | None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "terragen", "generate", "--players", str(seats), "--difficulty", preset,
                        "--seed", str(seed), "--out", str(out), "-q"], capture_output=True, text=True, env=env,
                       check=False)
    return out / "board.json" if p.returncode == 0 else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--before", type=Path)
    ap.add_argument("--games", type=int, default=2000, help="games a case on the example boards")
    ap.add_argument("--gen-games", type=int, default=1000, help="games a case on generated boards")
    ap.add_argument("--first-seed", type=int, default=121700)
    ap.add_argument("--per-preset", type=int, default=2)
    ap.add_argument("--sim-seed", type=int, default=104901)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--no-examples", action="store_true")
    ap.add_argument("--no-generated", action="store_true")
    ap.add_argument("--specs", help="generated boards to play instead of the presets' run of seeds: "
                    "seats:preset:seed, comma-separated (e.g. 4:hard:119121)")
    a = ap.parse_args()
    if a.worker:
        worker(json.loads(a.worker))
        return
    if a.before is None:
        ap.error("--before DIR is needed (a checkout of the code to compare with)")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {a.policy} players, simulation seed {a.sim_seed}; "
          f"before = {a.before}\n")
    cases: list[tuple[str, Path, str, int]] = []
    if not a.no_examples:
        cases += [(f"example {name.split('.')[0]}", EXAMPLES / name, teams, a.games) for name, teams in EXAMPLE_CASES]
    tmp = tempfile.TemporaryDirectory()
    if not a.no_generated:
        specs = [(4, d, a.first_seed + 10 * i + j) for i, d in enumerate(["easy", "medium", "hard", "brutal"])
                 for j in range(a.per_preset)]
        specs += [(6, d, a.first_seed + 100 + 10 * i + j) for i, d in enumerate(["medium", "hard"])
                  for j in range(max(1, a.per_preset - 1))]
        if a.specs:
            specs = [(int(n), d, int(seed)) for n, d, seed in (x.split(":") for x in a.specs.split(","))]
        for seats, preset, seed in specs:
            board = generate(Path(tmp.name) / f"{seats}-{preset}-{seed}", seats, preset, seed)
            if board is None:
                print(f"(generate {seats} seats {preset} seed {seed} failed; left out)")
                continue
            cases += [(f"{seats} seats {preset} {seed}", board, teams, a.gen_games) for teams in GENERATED_TEAMS[seats]]
    print("| board | teams | games | unfinished before | unfinished after | team wins before (%) | "
          "team wins after (%) | turns/s before | turns/s after |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals = {"before": [0, 0, 0, 0.0], "after": [0, 0, 0, 0.0]}  # games, capped, turns, seconds
    for label, board, teams, games in cases:
        got = {}
        for side, tree in (("before", a.before), ("after", ROOT)):
            r = got[side] = play(tree, board, teams, games, a.sim_seed, a.policy)
            t = totals[side]
            t[0] += r["games"]
            t[1] += r["capped"]
            t[2] += r["turns"]
            t[3] += r["seconds"]
        b, f = got["before"], got["after"]

        def wins(r: dict) -> str:
            return " / ".join(f"{100 * w / r['games']:.1f}" for w in r["wins"])

        print(f"| {label} | {teams} | {games} | {100 * b['capped'] / games:.2f}% | {100 * f['capped'] / games:.2f}% "
              f"| {wins(b)} | {wins(f)} | {b['turns'] / b['seconds']:,.0f} | {f['turns'] / f['seconds']:,.0f} |",
              flush=True)
    tb, tf = totals["before"], totals["after"]
    if tb[0]:
        print(f"\nunfinished: before {tb[1]} of {tb[0]} games ({100 * tb[1] / tb[0]:.2f}%), after {tf[1]} of {tf[0]} "
              f"({100 * tf[1] / tf[0]:.2f}%); turns/s over all cases: before {tb[2] / tb[3]:,.0f}, after "
              f"{tf[2] / tf[3]:,.0f} (after/before {tf[2] / tf[3] / (tb[2] / tb[3]):.2f}x)")
    tmp.cleanup()


if __name__ == "__main__":
    main()
