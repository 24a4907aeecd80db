"""Games per CPU second, one core, 4 players on a standard radius-5 board, per policy,
side by side with the plain baseline (bench/sim_baseline.py) in the same run.

    python bench/simulate_speed.py [--games N] [--boards B]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim_baseline import play as baseline_play  # noqa: E402
from sim_board import standard_board  # noqa: E402

from terragen.terrain.sim import Rules  # noqa: E402
from terragen.terrain.sim.runner import run_games  # noqa: E402


def rate(fn, games: int, repeats: int) -> tuple[float, float]:
    """Games per CPU second of this process, best of ``repeats``.

    CPU time rather than wall time: the benchmark machine is shared, and other
    jobs stretch wall time; CPU time is what one core spends on the games.
    """
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        total_rounds = fn(games)
        best = min(best, time.process_time() - t)
    return games / best, total_rounds / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--boards", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    boards = [standard_board(s) for s in range(args.boards)]
    per = max(1, args.games // len(boards))
    n = per * len(boards)

    def baseline(_):
        return sum(baseline_play(b, seed=1000 * k + i)[1] for k, b in enumerate(boards) for i in range(per))

    def ours(policy, count):
        def run(_):
            total = 0
            for k, b in enumerate(boards):
                for res in run_games(b, Rules(), [policy] * 4, 1000 + k, 0, count):
                    total += res.rounds
            return total
        return run

    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"{len(boards)} boards x {per} games, 4 players, 2 destinations each")
    base, base_rounds = rate(baseline, n, args.repeats)
    print(f"{'baseline greedy':<18} {base:8.1f} games/s   {base_rounds:6.1f} rounds/game   1.00x")
    for policy in ("greedy", "expert", "random"):
        count = per if policy != "random" else max(1, per // 10)  # random games run to the cap
        r, rounds = rate(ours(policy, count), count * len(boards), args.repeats)
        print(f"{policy:<18} {r:8.1f} games/s   {rounds:6.1f} rounds/game   {r / base:5.2f}x")


if __name__ == "__main__":
    main()
