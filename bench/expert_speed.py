"""Turns per CPU second of two checkouts side by side, alternating, on the two bench boards.

    python bench/expert_speed.py --before /path/to/old/checkout [--after /path/to/new/checkout]
                                 [--games 1000] [--repeats 7] [--policies expert,greedy] [--boards a.json,b.json]

Each measurement is a fresh process (``PYTHONPATH`` set to one checkout, tables cold, as a new
``terragen simulate`` would be) playing ``--games`` games of one kind of player on one board; the
process times its own games in CPU seconds (``time.process_time``). Other jobs on a shared machine
still slow a process down (two cores, caches), never speed it up, so each side's best repeat is
the figure least touched by them, and the report gives the ratio of the bests; before and after
alternate (who goes first too), and the median of the per-repeat ratios is shown beside it, with
every ratio. Every process also prints a hash of its games: the two checkouts must play the same
games, and the script stops if they do not.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOARDS = {"README board, 4 seats hard": "readme-4p-hard-seed1.json", "6 seats easy": "six-easy-seed1.json",
          # boards whose greedy games meet many new board states (turned pieces): asked for by name
          "4 seats brutal 1907": "gen-4p-brutal-seed1907.json", "5 seats hard 2001": "gen-5p-hard-seed2001-best-effort.json",
          "6 seats medium 902": "gen-6p-medium-seed902.json"}

WORKER = """
import hashlib, json, sys, time
from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules
from terragen.terrain.sim.runner import forget_tables, run_games
board, policy, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
layout = load_layout(board)
forget_tables()
t = time.process_time()
results = run_games(layout, Rules(), [policy] * len(layout.players), seed, 0, games)
cpu = time.process_time() - t
digest = hashlib.sha256(repr([(g.winners, g.rounds, g.turns, g.rotations, g.inversions, g.send_backs, g.forfeits,
                                g.total_turns) for g in results]).encode()).hexdigest()[:16]
print(json.dumps({"cpu": cpu, "turns": sum(g.total_turns for g in results), "digest": digest}))
"""


def measure(checkout: Path, board: Path, policy: str, games: int, seed: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", WORKER, str(board), policy, str(games), str(seed)],
                         env=env, cwd="/", capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, required=True, help="checkout of the code before the change")
    ap.add_argument("--after", type=Path, default=HERE.parent, help="checkout with the change (default: this one)")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--policies", default="expert,greedy")
    ap.add_argument("--boards", default=",".join(BOARDS.values()), help="board files in bench/boards, comma list")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}; {args.games} games per process, {args.repeats} repeats, "
          f"before {args.before}, after {args.after}", flush=True)
    print(f"{'board':<28} {'player':<8} {'before t/CPU-s':>15} {'after t/CPU-s':>14} {'ratio':>7} "
          f"{'median ratio':>13}  ratios (after / before, each repeat)", flush=True)
    for label, name in BOARDS.items():
        if name not in args.boards.split(","):
            continue
        board = HERE / "boards" / name
        for policy in args.policies.split(","):
            rates: dict[str, list[float]] = {"before": [], "after": []}
            ratios = []
            for k in range(args.repeats):
                order = [("before", args.before), ("after", args.after)]
                if k % 2:
                    order.reverse()  # who goes first alternates too
                got = {side: measure(path, board, policy, args.games, args.seed) for side, path in order}
                if got["before"]["digest"] != got["after"]["digest"] or got["before"]["turns"] != got["after"]["turns"]:
                    sys.exit(f"{label}, {policy}: the two checkouts played different games ({got})")
                for side in rates:
                    rates[side].append(got[side]["turns"] / got[side]["cpu"])
                ratios.append(rates["after"][-1] / rates["before"][-1])
            before, after = max(rates["before"]), max(rates["after"])
            print(f"{label:<28} {policy:<8} {before:15,.0f} {after:14,.0f} {after / before:6.2f}x "
                  f"{statistics.median(ratios):12.2f}x  {' '.join(f'{r:.2f}' for r in ratios)}", flush=True)


if __name__ == "__main__":
    main()
