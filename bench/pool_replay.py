"""Every batch of games one ``generate`` run asked its simulation processes for, recorded once and
played again: the generator's own workload, to time the simulator and the process pool on.

    python bench/pool_replay.py record --spec 5:medium:102001 --out /tmp/jobs.pkl
    python bench/pool_replay.py replay /tmp/jobs.pkl            # in this one process
    python bench/pool_replay.py replay /tmp/jobs.pkl --pool 2   # through a GamePool of 2 workers

``record`` runs the spec (players:difficulty:seed) with one process, so every batch (a
``GamePool.run`` or ``run_each`` job) is kept in the order the search asked for it. ``replay``
plays them again in that order and prints the CPU seconds, the games' turns per CPU second and a
fingerprint of every game; with ``--pool N`` through a pool of N workers, and then the wall time,
the CPU seconds of this (the parent) process and of each worker. Run it from two checkouts on the
same file, one after the other (``PYTHONPATH=<checkout> python bench/pool_replay.py ...``): the
fingerprints must match, and the times say what a change did. A pickle file of a checkout's own
classes: record and replay with checkouts whose ``Layout`` and ``Rules`` are the same.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import sys
import time
from pathlib import Path

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def record(spec_text: str, out: Path) -> None:
    from terragen.terrain.generate import BalanceSettings, generate_board
    from terragen.terrain.generate.options import build_spec
    from terragen.terrain.sim import pool as poolmod

    jobs: list[tuple] = []
    run, run_each = poolmod.GamePool.run, poolmod.GamePool.run_each

    def recording_run(self, layout, rules, specs, seed, start, stop, should_stop=None, progress=None, twins=None,
                      cycle=False):
        games = run(self, layout, rules, specs, seed, start, stop, should_stop, progress, twins, cycle)
        jobs.append((layout, rules, list(specs), seed, start, stop, twins, cycle))
        return games

    def recording_each(self, batch, should_stop=None):
        runs = run_each(self, batch, should_stop)
        # run_games' arguments, with its defaults for twins and cycle where a job leaves them out
        jobs.extend(tuple(job) + (None, False)[len(job) - 6:] for job in batch)
        return runs

    poolmod.GamePool.run, poolmod.GamePool.run_each = recording_run, recording_each
    players, difficulty, seed = spec_text.split(":")
    flags = {"players": int(players), "difficulty": difficulty, "seed": int(seed), "time_limit": None,
             "radius": None, "destinations": None, "inventory": None, "placement": None, "shape": None,
             "symmetry": None}
    spec, run_settings = build_spec(flags, None)
    generate_board(spec, run_settings["seed"], run_settings["time_limit"], balance=BalanceSettings(), workers=1)
    out.write_bytes(pickle.dumps(jobs))
    print(f"{len(jobs)} batches, {sum(j[5] - j[4] for j in jobs)} games -> {out}")


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def replay(path: Path, workers: int) -> None:
    from terragen.terrain.sim.pool import GamePool
    from terragen.terrain.sim.runner import run_games

    jobs = pickle.loads(path.read_bytes())
    digest = hashlib.sha256()
    games = turns = 0
    pool = GamePool(workers) if workers > 1 else None
    try:
        if pool is not None:
            pool.start_early()
            time.sleep(1.0)  # the workers up and their imports done: not the games' time
            pids = [p.pid for p in pool._workers]
            before = [_cpu_of(p) for p in pids]
        wall, cpu = time.monotonic(), time.process_time()
        for layout, rules, specs, seed, start, stop, twins, cycle in jobs:
            if pool is None:
                out = run_games(layout, rules, specs, seed, start, stop, twins, cycle)
            else:
                out = pool.run(layout, rules, specs, seed, start, stop, twins=twins, cycle=cycle)
            games += len(out)
            turns += sum(g.total_turns for g in out)
            digest.update(repr([(g.winners, g.total_turns, g.rotations, g.send_backs) for g in out]).encode())
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
        line = f"{games} games, {turns} turns: CPU {cpu:.2f} s ({turns / cpu:,.0f} turns/CPU-s)"
        if pool is not None:
            spent = [round(_cpu_of(p) - b, 2) for p, b in zip(pids, before)]
            line = (f"{games} games, {turns} turns: wall {wall:.2f} s, this process's CPU {cpu:.2f} s, "
                    f"workers' CPU {spent} s")
        print(f"{line}; fingerprint {digest.hexdigest()[:12]}")
    finally:
        if pool is not None:
            pool.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--spec", required=True, help="players:difficulty:seed")
    rec.add_argument("--out", type=Path, required=True)
    rep = sub.add_parser("replay")
    rep.add_argument("file", type=Path)
    rep.add_argument("--pool", type=int, default=1, help="workers (1: play in this process)")
    args = ap.parse_args()
    if args.cmd == "record":
        record(args.spec, args.out)
    else:
        replay(args.file, args.pool)


if __name__ == "__main__":
    main()
