"""How busy the generator's two simulation processes are during a run, and what overlapping the
generator's own work with theirs could save at most.

Why: a five-seat medium run spends most of its wall time waiting for the pool, and this process
works in between (terrains, exact expected turns, race models, the class search's choices) while
the workers wait. If that in-between work were a large share, running it beside the games would
be the next speed lever. This measures it: the workers' CPU seconds (read from /proc before the
pool ends), this process's CPU seconds and the wall time; the idle core-seconds are what perfect
overlap could recover, so ``(workers + main) / 2`` is a floor on the wall time.

    python bench/pool_utilisation.py --players 5 --difficulty medium --first-seed 104301 --seeds 8

Linux only (/proc). Boards are the CLI's, unchanged.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time


def worker_cpu(pool) -> float:
    """CPU seconds (user + system) the pool's worker processes have used so far."""
    total = 0.0
    for w in getattr(pool, "_workers", []):
        try:
            with open(f"/proc/{w.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def measure(players: int, difficulty: str, seed: int, out: str) -> dict:
    from terragen.cli import main
    from terragen.terrain.sim import pool as pool_module

    seen: dict[str, float] = {}
    original_close = pool_module.GamePool.close

    def close(self) -> None:  # read the workers' CPU time before they end
        seen["workers"] = seen.get("workers", 0.0) + worker_cpu(self)
        original_close(self)

    pool_module.GamePool.close = close
    began, cpu = time.monotonic(), time.process_time()
    try:
        main(["generate", "--players", str(players), "--difficulty", difficulty, "--seed", str(seed),
              "--out", out, "--force", "--quiet"])
    except SystemExit:
        pass
    finally:
        pool_module.GamePool.close = original_close
    wall, main_cpu = time.monotonic() - began, time.process_time() - cpu
    workers = seen.get("workers", 0.0)
    return {"seed": seed, "wall": wall, "main_cpu": main_cpu, "workers_cpu": workers,
            "busy": workers / (2 * wall), "floor": (workers + main_cpu) / 2}


def run() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--difficulty", default="medium")
    ap.add_argument("--first-seed", type=int, default=104301)
    ap.add_argument("--seeds", type=int, default=8)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            r = measure(args.players, args.difficulty, seed, os.path.join(tmp, str(seed)))
            rows.append(r)
            print(f"seed {seed}: wall {r['wall']:.2f} s, this process {r['main_cpu']:.2f} CPU s, workers "
                  f"{r['workers_cpu']:.2f} CPU s, workers busy {r['busy']:.0%}, floor with perfect overlap "
                  f"{r['floor']:.2f} s ({r['wall'] / r['floor']:.2f}x)", flush=True)
    walls, floors = [r["wall"] for r in rows], [r["floor"] for r in rows]
    print(f"total wall {sum(walls):.1f} s, floor {sum(floors):.1f} s: perfect overlap at most "
          f"{sum(walls) / sum(floors):.2f}x; median workers busy {statistics.median(r['busy'] for r in rows):.0%}")


if __name__ == "__main__":
    sys.exit(run())
