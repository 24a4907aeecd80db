"""Turns per CPU second of full-rules greedy play against the plain baseline, same run.

    python bench/sim_turns.py [--games N] [--repeats R]

Boards: the README's board (``terragen generate --players 4 --difficulty hard
--seed 1`` as main's generator wrote it on 2026-11-23, kept in bench/boards/)
and a 6-seat board (``--players 6 --difficulty easy --seed 1``, same day).
The baseline (bench/sim_baseline.py) plays the same greedy player the plain
way, a fresh Dijkstra search per turn. Games differ in length, so the figure
is turns (all seats' turns together) per CPU second of this process.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from sim_baseline import play as baseline_play, turns_taken  # noqa: E402

from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.sim import Rules  # noqa: E402
from terragen.terrain.sim.runner import forget_tables, run_games  # noqa: E402

BOARDS = {"README board, 4 seats hard": "readme-4p-hard-seed1.json", "6 seats easy": "six-easy-seed1.json"}


def best_of(fn, repeats: int) -> tuple[float, int]:
    """(fewest CPU seconds over ``repeats`` runs, turns one run played)."""
    best, turns = float("inf"), 0
    for _ in range(repeats):
        t = time.process_time()
        turns = fn()
        best = min(best, time.process_time() - t)
    return best, turns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300, help="games per row (simulate's default is 2004-3600)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--policies", default="greedy,expert,solitary")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}; {args.games} games per row, best of {args.repeats} (CPU s)")
    print(f"{'board':<28} {'player':<18} {'turns/CPU-s':>12} {'turns/game':>11} {'vs baseline':>12}")
    for label, name in BOARDS.items():
        layout = load_layout(HERE / "boards" / name)
        n = len(layout.players)

        def baseline() -> int:
            total = 0
            for i in range(args.games):
                w, rounds = baseline_play(layout, seed=1000 + i)
                total += turns_taken(n, w, rounds)
            return total

        secs, turns = best_of(baseline, args.repeats)
        base = turns / secs
        print(f"{label:<28} {'baseline greedy':<18} {base:12.0f} {turns / args.games:11.1f} {1.0:11.2f}x")
        for policy in args.policies.split(","):
            def ours(policy=policy) -> int:
                forget_tables()  # every repeat starts cold, as a fresh `terragen simulate` would
                return sum(r.total_turns for r in run_games(layout, Rules(), [policy] * n, 1, 0, args.games))

            secs, turns = best_of(ours, args.repeats)
            print(f"{label:<28} {policy:<18} {turns / secs:12.0f} {turns / args.games:11.1f} {turns / secs / base:11.2f}x")


if __name__ == "__main__":
    main()
