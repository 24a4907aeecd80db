"""Which partners make team play fair on a generated board? Team win rates under each pairing.

    python bench/team_pairings.py [--games N] [--sim-seed T] [--first-seed S] [--per-preset K]

For each preset, K four-seat boards (seeds S, S+1, ...; easy from S, medium from S+10, hard from
S+20, brutal from S+30) and K six-seat medium and hard boards (from S+100 and S+110) are generated
by ``terragen generate`` (a fresh process, default settings), then played in teams by
``terragen simulate --teams`` under each pairing: partners on opposite corners ("facing"), on
neighbouring corners, and for six seats two teams of three neighbours. Printed as Markdown: each
team's win rate (the games no team finished are the rest to 100%), and whether ``simulate`` calls
the board BALANCED (every team within 2.5 points of its fair share). Why: the default pairing of
``--variant teams`` was chosen on these figures (``docs/rules-decisions.md``, team play).
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
#: generate's seating: four seats on corners 0, 1, 4, 3; six on 0-5 (seat k on corner k)
PAIRINGS = {
    4: {"facing (0+3, 1+2)": "0+3,1+2", "neighbours (0+1, 2+3)": "0+1,2+3"},
    6: {"facing (0+3, 1+4, 2+5)": "0+3,1+4,2+5", "neighbours (0+1, 2+3, 4+5)": "0+1,2+3,4+5",
        "threes (0+1+2, 3+4+5)": "0+1+2,3+4+5"},
}


def terragen(*args: object) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                          env=env, check=False)


def fresh_specs(first_seed: int, per_preset: int, six_per_preset: int) -> list[tuple[int, str, int]]:
    """(seats, preset, seed): four seats each preset from ``first_seed`` (10 apart a preset), six seats
    medium and hard from ``first_seed`` + 100."""
    specs = [(4, d, first_seed + 10 * i + j) for i, d in enumerate(["easy", "medium", "hard", "brutal"])
             for j in range(per_preset)]
    return specs + [(6, d, first_seed + 100 + 10 * i + j) for i, d in enumerate(["medium", "hard"])
                    for j in range(six_per_preset)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--sim-seed", type=int, default=21)
    ap.add_argument("--first-seed", type=int, default=119100)
    ap.add_argument("--per-preset", type=int, default=4)
    a = ap.parse_args()
    specs = fresh_specs(a.first_seed, a.per_preset, max(1, a.per_preset - 1))
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {a.games} games a pairing, simulation seed {a.sim_seed}\n")
    balanced: dict[str, int] = {}
    counted: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for seats in (4, 6):
            names = list(PAIRINGS[seats])
            print(f"| seats | preset | seed | {' | '.join(names)} |")
            print("|---|---|---|" + "---|" * len(names))
            for n, diff, seed in (s for s in specs if s[0] == seats):
                out = Path(tmp) / f"{n}-{diff}-{seed}"
                g = terragen("generate", "--players", n, "--difficulty", diff, "--seed", seed, "--out", out, "-q")
                if g.returncode != 0:
                    print(f"| {n} | {diff} | {seed} | generate exit {g.returncode} |")
                    continue
                cells = []
                for name in names:
                    s = terragen("simulate", out / "board.json", "--teams", PAIRINGS[n][name], "--games", a.games,
                                 "--seed", a.sim_seed, "--json")
                    d = json.loads(s.stdout)
                    rates = {}
                    for team in PAIRINGS[n][name].split(","):
                        first = int(team.split("+")[0])
                        rates[team] = 100 * next(x["win_rate"] for x in d["seats"] if x["seat"] == first)
                    verdict = "BALANCED" if d["balanced"] else "not"
                    balanced[name] = balanced.get(name, 0) + bool(d["balanced"])
                    counted[name] = counted.get(name, 0) + 1
                    cells.append(" / ".join(f"{r:.1f}" for r in rates.values()) + f" ({verdict})")
                print(f"| {n} | {diff} | {seed} | {' | '.join(cells)} |", flush=True)
            print()
    print("BALANCED: " + "; ".join(f"{name} {balanced[name]} of {counted[name]}" for name in counted))


if __name__ == "__main__":
    main()
