"""Check generated boards the way a user would: ``terragen generate``, then ``terragen simulate
board.json --seed S`` with its defaults for 20 seeds, once per kind of player.

The issue's promise is that a generated board comes out BALANCED in at least 19 of such 20
runs. This counts the runs that exit 0 (PLAYABLE and BALANCED) per board and kind of player.

    python bench/user_check.py --players 4 6 --difficulties easy medium hard brutal --seeds 260 261
    python bench/user_check.py --spec 4 hard 1 --spec 6 hard 225
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> int:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "terragen", *args], capture_output=True, env=env).returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[])
    ap.add_argument("--difficulties", nargs="*", default=["easy", "medium", "hard", "brutal"])
    ap.add_argument("--seeds", type=int, nargs="*", default=[])
    ap.add_argument("--spec", nargs=3, action="append", default=[], metavar=("PLAYERS", "DIFFICULTY", "SEED"))
    ap.add_argument("--runs", type=int, default=20, help="simulate runs per kind of player (seeds 11..)")
    ap.add_argument("--policies", nargs="+", default=["greedy", "solitary"])
    args = ap.parse_args()
    specs = [tuple(s) for s in args.spec] + [
        (str(p), d, str(s)) for p, d, s in itertools.product(args.players, args.difficulties, args.seeds)]
    total = ok_total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for players, difficulty, seed in specs:
            out = Path(tmp) / f"{players}-{difficulty}-{seed}"
            code = run("generate", "--players", players, "--difficulty", difficulty, "--seed", seed,
                       "--out", str(out), "--no-progress")
            if code != 0:
                print(f"{players} {difficulty} {seed}: generate exit {code}")
                continue
            for policy in args.policies:
                ok = sum(run("simulate", str(out / "board.json"), "--seed", str(11 + k), "--policy", policy) == 0
                         for k in range(args.runs))
                total, ok_total = total + args.runs, ok_total + ok
                print(f"{players} {difficulty} {seed} {policy}: BALANCED {ok}/{args.runs}", flush=True)
    print(f"all: BALANCED in {ok_total} of {total} runs")


if __name__ == "__main__":
    main()
