"""The generator's balance and speed grid: seats x presets x seeds, each board re-simulated on fresh seeds.

For every cell of the grid (2-6 seats x easy/medium/hard/brutal x seeds) this runs
``terragen generate`` in a fresh process at the default time limit, records the wall
time and whether it timed out (exit 4), and then plays each written board with the
settings ``terragen simulate`` uses by default (its default number of games for the
seat count, margin 2.5 points) on seeds the generator never used, once per policy
(greedy, expert, solitary). Reported per cell: median and 95th-percentile time,
time-outs, and per policy the median and worst "worst-seat distance from 1/n" in
points, with how many boards came out BALANCED.

Run the whole grid (about 200 generations; use ``nice`` on a shared machine):
    nice python bench/generate_balance.py --out bench/generate_balance.json
A quick subset:
    python bench/generate_balance.py --players 2 4 --difficulties easy --seeds 3
Measure each board finely (20,000 greedy and solitary games on one more fresh seed: each seat's
rate, and the chance one default ``terragen simulate`` run calls it BALANCED): ``--truth-games 20000``.
Check one board 20 times like a user would (``terragen simulate`` default settings,
seeds 1..20): ``--repeat-check 20`` (greedy only). More seeds for a cell already run:
    python bench/generate_balance.py --players 3 --first-seed 3 --seeds 8
The JSON is rewritten after every board, so a grid stopped early keeps what it measured.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FRESH_SEED = 424_242  # far from the generator's own seeds and from the small ones people type


def generate(players: int, difficulty: str, seed: int, out: Path, time_limit: float | None,
             flags: tuple[str, ...] = ()) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (the process and its workers) and exit status of one run."""
    cmd = [sys.executable, "-m", "terragen", "generate", "--players", str(players), "--difficulty", difficulty,
           "--seed", str(seed), "--out", str(out), "--no-progress", *flags]
    if time_limit:
        cmd += ["--time-limit", str(time_limit)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    began = time.monotonic()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    took = time.monotonic() - began
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    if proc.returncode not in (0, 4):
        sys.stderr.write(proc.stderr)
    return took, cpu, proc.returncode


def generated(players: list[int], difficulties: list[str], first_seed: int, seeds: int,
              time_limit: float | None, flags: tuple[str, ...] = ()) -> Iterator[tuple[int, str, int, float, float, int, str | None]]:
    """Generate every spec of a grid, one after another, into a temporary folder: per run
    (players, difficulty, seed, wall seconds, CPU seconds, exit status, the board's JSON text
    or None when none was written)."""
    with tempfile.TemporaryDirectory() as tmp:
        for n in players:
            for diff in difficulties:
                for seed in range(first_seed, first_seed + seeds):
                    out = Path(tmp) / f"p{n}-{diff}-{seed}"
                    took, cpu, rc = generate(n, diff, seed, out, time_limit, flags)
                    yield n, diff, seed, took, cpu, rc, (out / "board.json").read_text() if rc == 0 else None


def worst_distance(layout, policy: str, seed: int, games: int | None) -> tuple[float, bool]:
    """Worst seat's distance from 1/n (points) and the BALANCED verdict (margin 2.5 points)."""
    from terragen.terrain.sim.runner import DEFAULT_MARGIN, default_games, win_rates

    n = len(layout.players)
    g = games or default_games(n, DEFAULT_MARGIN, n)  # what `terragen simulate` plays by default
    rates = win_rates(layout, g, seed, policy)
    worst = max(abs(r - 1.0 / n) for r in rates)
    return 100 * worst, worst <= DEFAULT_MARGIN


def truth(layout, policy: str, seed: int, games: int) -> dict:
    """Each seat's rate on a large fresh sample, and from it the chance that one run of
    ``terragen simulate`` with its defaults calls the board BALANCED (``balanced_odds``):
    a finer measure of a board than one pass/fail check. The rates are taken as measured,
    with their own noise, so the chance is slightly understated."""
    from terragen.terrain.sim.runner import DEFAULT_MARGIN, default_games, win_rates
    from terragen.terrain.sim.stats import balanced_odds

    n = len(layout.players)
    rates = win_rates(layout, games, seed, policy)
    p_ok = balanced_odds(rates, default_games(n, DEFAULT_MARGIN, n), DEFAULT_MARGIN)
    return {"games": games, "rates": [round(r, 4) for r in rates],
            "worst_points": round(100 * max(abs(r - 1.0 / n) for r in rates), 2), "p_simulate_balanced": round(p_ok, 3)}


def write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    k = max(1, -(-len(s) * q // 100))
    return s[int(k) - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    ap.add_argument("--difficulties", nargs="+", default=["easy", "medium", "hard", "brutal"])
    ap.add_argument("--seeds", type=int, default=10, help="seeds per cell: FIRST..FIRST+N-1")
    ap.add_argument("--first-seed", type=int, default=1, help="the first generator seed of each cell")
    ap.add_argument("--time-limit", type=float, default=None, help="default: the generator's own")
    ap.add_argument("--policies", nargs="+", default=["greedy", "expert", "solitary"])
    ap.add_argument("--check-games", type=int, default=None,
                    help="games per check (default: terragen simulate's default for the seat count)")
    ap.add_argument("--expert-games", type=int, default=1000,
                    help="games per check for the (10x slower) expert players; 0 = as --check-games")
    ap.add_argument("--repeat-check", type=int, default=0,
                    help="also simulate each board with seeds 1..K (greedy, default games) and count BALANCED")
    ap.add_argument("--truth-games", type=int, default=0,
                    help="also play N greedy and N solitary games of each board on another fresh seed: each seat's "
                         "rate to a tenth of a point or so, and the chance a default `terragen simulate` calls it BALANCED")
    ap.add_argument("--out", type=Path, help="write every run as JSON here")
    ap.add_argument("--check-experts", action="store_true", help="generate with --check-experts")
    args = ap.parse_args()

    from terragen.terrain.formats_json import read_json_layout

    runs = []
    for n, diff, seed, took, cpu, rc, text in generated(args.players, args.difficulties, args.first_seed,
                                                         args.seeds, args.time_limit,
                                                         ("--check-experts",) if args.check_experts else ()):
        run = {"players": n, "difficulty": diff, "seed": seed, "seconds": round(took, 2),
               "cpu_seconds": round(cpu, 2), "exit": rc}
        if text is not None:
            layout = read_json_layout(text)
            balance = json.loads(text).get("meta", {}).get("balance", {})
            run["best_effort"] = bool(balance.get("best_effort"))
            for pol in args.policies:
                games = args.expert_games if pol == "expert" else args.check_games
                d, ok = worst_distance(layout, pol, FRESH_SEED + seed, games)
                run[pol] = {"worst_points": round(d, 2), "balanced": ok}
            if args.truth_games:
                for pol in ("greedy", "solitary"):
                    run[f"{pol}_truth"] = truth(layout, pol, 2 * FRESH_SEED + seed, args.truth_games)
            if args.repeat_check:
                checks = [worst_distance(layout, "greedy", k, None) for k in range(1, args.repeat_check + 1)]
                run["repeat_balanced"] = sum(ok for _, ok in checks)
                run["repeat_worst_points"] = [round(d, 2) for d, _ in checks]
        runs.append(run)
        print(json.dumps(run), flush=True)
        if args.out:  # after every run, so a run cut short keeps what it measured
            write_atomically(args.out, json.dumps(runs, indent=1) + "\n")
    print_table(runs, args.policies, args.repeat_check)


def print_table(runs: list[dict], policies: list[str], repeat: int) -> None:
    head = "| seats | preset | median s | p95 s | median CPU s | time-outs | best-effort boards | " + " | ".join(
        f"{p}: median / worst points, BALANCED" for p in policies) + "".join(
        f" | {p}, large sample: median / worst points, P(simulate says BALANCED)" for p in ("greedy", "solitary")
        if any(f"{p}_truth" in r for r in runs)) + (f" | BALANCED in {repeat} user checks" if repeat else "") + " |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    cells: dict[tuple[int, str], list[dict]] = {}
    for r in runs:
        cells.setdefault((r["players"], r["difficulty"]), []).append(r)
    for (n, diff), rs in cells.items():
        times = [r["seconds"] for r in rs]
        row = [str(n), diff, f"{statistics.median(times):.1f}", f"{pct(times, 95):.1f}",
               f"{statistics.median([r.get('cpu_seconds', 0) for r in rs]):.1f}",
               f"{sum(r['exit'] == 4 for r in rs)}/{len(rs)}"]
        ok = [r for r in rs if r["exit"] == 0]
        row.append(f"{sum(r.get('best_effort', False) for r in ok)}/{len(ok)}")
        for p in policies:
            ds = [r[p]["worst_points"] for r in ok if p in r]
            row.append(f"{statistics.median(ds):.2f} / {max(ds):.2f}, {sum(r[p]['balanced'] for r in ok if p in r)}/{len(ds)}"
                       if ds else "-")
        for p in ("greedy", "solitary"):
            tr = [r[f"{p}_truth"] for r in ok if f"{p}_truth" in r]
            if tr:
                row.append(f"{statistics.median(t['worst_points'] for t in tr):.2f} / "
                           f"{max(t['worst_points'] for t in tr):.2f}, P(BALANCED) mean "
                           f"{statistics.mean(t['p_simulate_balanced'] for t in tr):.2f} min "
                           f"{min(t['p_simulate_balanced'] for t in tr):.2f}")
        if repeat:
            reps = [r["repeat_balanced"] for r in ok if "repeat_balanced" in r]
            row.append(", ".join(f"{x}/{repeat}" for x in reps) or "-")
        print("| " + " | ".join(row) + " |")
    allt = [r["seconds"] for r in runs]
    if allt:
        cpu = [r.get("cpu_seconds", 0) for r in runs]
        print(f"\nall {len(allt)} runs: median {statistics.median(allt):.1f} s (CPU {statistics.median(cpu):.1f} s), "
              f"p95 {pct(allt, 95):.1f} s (CPU {pct(cpu, 95):.1f} s), time-outs {sum(r['exit'] == 4 for r in runs)}")


if __name__ == "__main__":
    main()
