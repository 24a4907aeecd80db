"""Generator wall time with one simulation process against two (``TERRAGEN_WORKERS``).

For each spec, ``terragen generate`` runs as a user runs it (a fresh process, the fork
server and its workers started inside), once with ``TERRAGEN_WORKERS=1`` and once with
``TERRAGEN_WORKERS=2``, back to back and in alternating order so that a change in the
machine's load hits both alike; repeated ``--repeat`` times. Also checks that both
write the same bytes. Prints a Markdown table (median wall seconds, the ratio, the
one-minute load average seen before the runs); paste it into bench/README.md. The
machine's other load is not controlled: read the ratio with the load beside it.

Then, because a shared machine's load decides how much a second process can get, the
simulation alone, measured in CPU seconds (which the load does not change): one
process plays 2400 greedy games of the 4-player example from cold tables, then a
2-worker ``GamePool`` plays the same games, and each worker's CPU seconds are read
from /proc. Each worker's share of the one-process CPU time is what the pool's wall
time would be, relative to one process, on two otherwise idle cores.

Run: python bench/generate_workers.py [--repeat 3] [--spec "4 medium 1" ...] [--no-generate]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPECS = ["4 medium 1", "4 medium 2", "4 medium 3", "6 easy 1", "3 medium 1"]


def generate(players: str, difficulty: str, seed: str, workers: int, out: Path) -> tuple[float, int]:
    """(wall seconds, exit code)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_WORKERS=str(workers))
    cmd = [sys.executable, "-m", "terragen", "generate", "--players", players, "--difficulty", difficulty,
           "--seed", seed, "--out", str(out), "--force", "--no-progress"]
    t = time.perf_counter()
    code = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False).returncode
    return time.perf_counter() - t, code


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def split(repeat: int, games: int = 2400) -> None:
    """The simulation's CPU seconds in one process against each of two pool workers."""
    import multiprocessing as mp

    sys.path.insert(0, str(ROOT))
    from terragen.templates import template_path
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.pool import GamePool
    from terragen.terrain.sim.runner import forget_tables, run_games
    from terragen.terrain.sim.variants import Rules

    examples = template_path("terrain", "examples")
    board, other = load_layout(examples / "four-players.txt"), load_layout(examples / "two-players.txt")
    print(f"\n| run ({games} greedy games, cold tables) | one process: CPU s / wall s | pool of 2: wall s "
          "| worker CPU s | worker CPU / one-process CPU | load |")
    print("|---|---|---|---|---|---|")
    with GamePool(2) as pool:
        for k in range(repeat):
            forget_tables()
            cpu, wall = time.process_time(), time.perf_counter()
            one = run_games(board, Rules(), ["greedy"] * 4, k, 0, games)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            pool.run(other, Rules(), ["greedy"] * 2, k, 0, 400)  # the workers forget the board's tables
            workers = [p.pid for p in mp.active_children()]
            before = {p: cpu_seconds(p) for p in workers}
            t = time.perf_counter()
            assert pool.run(board, Rules(), ["greedy"] * 4, k, 0, games) == one
            took = time.perf_counter() - t
            used = [cpu_seconds(p) - before[p] for p in workers]
            print(f"| {k + 1} | {cpu:.2f} / {wall:.2f} | {took:.2f} | {' + '.join(f'{u:.2f}' for u in used)} "
                  f"| {max(used) / cpu:.2f} | {os.getloadavg()[0]:.1f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--spec", action="append", help='"PLAYERS DIFFICULTY SEED"; repeatable')
    ap.add_argument("--no-generate", action="store_true", help="only the CPU split of the simulation")
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores, load average at start {os.getloadavg()[0]:.1f}", file=sys.stderr)
    if not args.no_generate:
        compare(args)
    split(args.repeat)


def compare(args: argparse.Namespace) -> None:
    """The generator's wall time, one process against two workers."""
    print("| spec | 1 process: wall s | 2 workers: wall s | ratio | load | same bytes |")
    print("|---|---|---|---|---|---|")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.spec or SPECS:
            players, difficulty, seed = spec.split()
            walls: dict[int, list[float]] = {1: [], 2: []}
            loads, same = [], True
            for k in range(args.repeat):
                boards = {}
                for workers in ((1, 2) if k % 2 == 0 else (2, 1)):
                    out = Path(tmp) / f"w{workers}"
                    loads.append(os.getloadavg()[0])
                    wall, code = generate(players, difficulty, seed, workers, out)
                    walls[workers].append(wall if code == 0 else float("nan"))
                    boards[workers] = (out / "board.json").read_bytes() if code == 0 else None
                same = same and boards[1] is not None and boards[1] == boards[2]
            one, two = statistics.median(walls[1]), statistics.median(walls[2])
            ratios.append(one / two)
            print(f"| {players} seats {difficulty} seed {seed} | {one:.1f} | {two:.1f} | {one / two:.2f}x "
                  f"| {min(loads):.1f}-{max(loads):.1f} | {'yes' if same else 'NO'} |", flush=True)
    print(f"\nmedian ratio (1 process / 2 workers): {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
