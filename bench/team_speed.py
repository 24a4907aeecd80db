"""Team games' speed, old code against new, side by side in one run, and proof that they are the same games.

    python bench/team_speed.py --before DIR [--repeats 3] [--games N] [--policies greedy,solitary,expert]
                               [--specs 4:hard:122001,6:hard:122003] [--sim-seed T]

``DIR`` is a checkout of the code to compare with (``git clone`` of the older commit, with the compiled
``_kernels`` and ``_fast_turns`` modules copied in as the main checkout has them). For every player kind,
each code plays the same cases in a fresh process (``PYTHONPATH`` set to its checkout; this script's own
checkout for "after"): the example boards in teams (four seats as 0+1,2+3 and 0+2,1+3, six as
0+1,2+3,4+5 and 0+1+2,3+4+5) and the boards of ``--specs`` (``terragen generate`` with this checkout,
four seats as 0+1,2+3 and 0+2,1+3, six as 0+1,2+3,4+5), N games a case (a fifth of that for expert
players), simulation seed T. The two codes take turns, ``--repeats`` times each (before first on odd
repeats, after first on even ones), so a machine busy with other work slows both alike. Printed as
Markdown: per player kind the games' turns, the median CPU seconds of ``run_games`` (tables included)
before and after, the ratio, and whether every game (every field of every result) was the same.
Why: the team players' joint search and distance checks were made faster without changing a game
(``bench/README.md``, "Team play: faster, the same games").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the same cases and generated boards as bench/team_convoy.py (run from bench/)
from team_convoy import EXAMPLE_CASES, EXAMPLES, GENERATED_TEAMS, ROOT, generate


def worker(args: dict) -> None:
    """Play every case with whatever ``terragen`` the PYTHONPATH holds; print CPU seconds, turns and a
    hash of the games as JSON."""
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.runner import forget_tables, run_games
    from terragen.terrain.sim.variants import Rules, parse_teams

    seconds, turns, digest = 0.0, 0, hashlib.sha256()
    for board, teams, games in args["cases"]:
        layout = load_layout(board)
        n = len(layout.players)
        forget_tables()  # every case starts cold, as a new run would
        start = time.process_time()
        got = run_games(layout, Rules(teams=parse_teams(teams, n)), [args["policy"]] * n, args["seed"], 0, games)
        seconds += time.process_time() - start
        turns += sum(g.total_turns for g in got)
        for g in got:
            digest.update(repr(g).encode())
    print(json.dumps({"seconds": seconds, "turns": turns, "hash": digest.hexdigest()[:16]}))


def play(tree: Path, cases: list, policy: str, seed: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    spec = json.dumps({"cases": cases, "policy": policy, "seed": seed})
    p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", spec], capture_output=True,
                       text=True, env=env, check=False)
    if p.returncode != 0:
        raise SystemExit(f"{tree}: {policy}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--before", type=Path)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--games", type=int, default=300, help="games a case (expert players: a fifth)")
    ap.add_argument("--policies", default="greedy,solitary,expert")
    ap.add_argument("--specs", default="4:hard:122001,6:hard:122003",
                    help="generated boards, seats:preset:seed, comma-separated (empty: none)")
    ap.add_argument("--sim-seed", type=int, default=104901)
    a = ap.parse_args()
    if a.worker:
        worker(json.loads(a.worker))
        return
    if a.before is None:
        ap.error("--before DIR is needed (a checkout of the code to compare with)")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; simulation seed {a.sim_seed}; before = {a.before}\n")
    boards = [(str(EXAMPLES / name), teams) for name, teams in EXAMPLE_CASES]
    tmp = tempfile.TemporaryDirectory()
    for spec in filter(None, a.specs.split(",")):
        seats, preset, seed = spec.split(":")
        board = generate(Path(tmp.name) / spec.replace(":", "-"), int(seats), preset, int(seed))
        if board is None:
            print(f"(generate {spec} failed; left out)")
            continue
        boards += [(str(board), teams) for teams in GENERATED_TEAMS[int(seats)]]
    print(f"cases: {len(boards)} (the four example cases, then {', '.join(a.specs.split(',')) or 'no'} generated)\n")
    print("| players | games | turns | CPU s before (median) | CPU s after (median) | before/after | each run, "
          "before : after (s) | same games |")
    print("|---|---|---|---|---|---|---|---|")
    for policy in a.policies.split(","):
        games = max(1, a.games // 5) if policy == "expert" else a.games
        cases = [(board, teams, games) for board, teams in boards]
        runs: dict[str, list[dict]] = {"before": [], "after": []}
        for i in range(a.repeats):
            sides = (("before", a.before), ("after", ROOT))
            for side, tree in (sides if i % 2 == 0 else sides[::-1]):
                runs[side].append(play(tree, cases, policy, a.sim_seed))
        b = statistics.median(r["seconds"] for r in runs["before"])
        f = statistics.median(r["seconds"] for r in runs["after"])
        same = len({r["hash"] for r in runs["before"] + runs["after"]}) == 1
        pairs = ", ".join(f"{x['seconds']:.2f} : {y['seconds']:.2f}" for x, y in zip(runs["before"], runs["after"]))
        print(f"| {policy} | {games * len(cases):,} | {runs['after'][0]['turns']:,} | {b:.2f} | {f:.2f} | "
              f"{b / f:.2f}x | {pairs} | {'yes' if same else 'NO'} |", flush=True)
    tmp.cleanup()


if __name__ == "__main__":
    main()
