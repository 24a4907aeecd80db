"""Benchmark of ``terragen generate`` against plain rejection sampling.

For each spec: success rate and median wall time over 10 seeds for the
generator (``generate_board``) and for a rejection-sampling baseline given the
same time limit (random fill of the inventory over the board, random
rotations, destinations drawn by the placement rule, then the same checks the
generator uses: fast score, then the full verification). Infeasible specs:
the time to the proof.

Run: python bench/generate_suite.py [--seeds 10] [--limit 10] [--write-readme]
"""

from __future__ import annotations

import argparse
import datetime
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from terragen.errors import InfeasibleError, TimeLimitError  # noqa: E402
from terragen.grids import hex as hx  # noqa: E402
from terragen.terrain.board import Board  # noqa: E402
from terragen.terrain.generate import generate_board, initial_targets, to_layout  # noqa: E402
from terragen.terrain.generate.construct import Candidate, destination_options, opposite_cell  # noqa: E402
from terragen.terrain.generate.evaluate import Evaluator  # noqa: E402
from terragen.terrain.generate.options import build_spec  # noqa: E402
from terragen.terrain.generate.spec import Spec, spec_from_dict  # noqa: E402
from terragen.terrain.generate.verify import spec_problems  # noqa: E402
from terragen.terrain.pieces import load_inventory  # noqa: E402

PARTIAL = str(ROOT / "terragen" / "data" / "terrain" / "specs" / "partial-inventory.toml")
RING = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def specs() -> dict[str, tuple[Spec, bool]]:
    """name -> (spec, feasible?)"""
    medium4, _ = build_spec({"players": 4, "difficulty": "medium"})
    x3, _ = build_spec({"players": 3, "destinations": 3, "difficulty": "medium"})
    partial, _ = build_spec({"players": 3, "radius": 4, "inventory": PARTIAL, "difficulty": "medium"})
    partial_hard, _ = build_spec({"players": 3, "radius": 4, "inventory": PARTIAL, "difficulty": "hard"})
    walled = [{"q": 0, "r": 0, "piece": "1A"}] + [
        {"q": q, "r": r, "piece": f"8{'ABCD'[k % 4]}"} for k, (q, r) in enumerate(RING)]
    return {
        "4 seats, free dest., medium": (medium4, True),
        "6 seats, opposite corners, costs equal ±1": (spec_from_dict({"players": 6, "placement": "opposite", "cost_spread": 1}), True),
        "2 seats, cost ≥ 28, ≥ 3 up-3 steps": (spec_from_dict({"players": 2, "cost_band": [28, 200], "min_up3": 3}), True),
        "3 seats × 3 destinations, medium": (x3, True),
        "4 seats, turns spread ≤ 0.25": (spec_from_dict({"players": 4, "fairness": 0.25}), True),
        "radius 4, partial inventory, 3 seats, medium": (partial, True),
        "radius 4, partial inventory, 3 seats, hard": (partial_hard, True),
        "infeasible: walled-in destination (CP-SAT)": (spec_from_dict({"players": 2, "placement": "fixed", "fixed": [[[0, 0]], [[2, 2]]], "pins": walled}), False),
        "infeasible: cost band below distance (bound)": (spec_from_dict({"players": 2, "placement": "opposite", "cost_band": [0, 8]}), False),
    }


def rejection(spec: Spec, seed: int, limit: float) -> tuple[bool, float, int]:
    """Random boards until one passes every check or time runs out: (found, seconds, boards tried)."""
    rng = random.Random(seed)
    inv = load_inventory(spec.inventory_name())
    cells = hx.board_cells(spec.radius)
    pool = [k for k, n in sorted(inv.counts.items()) for _ in range(n)]
    pinned = {(p.q, p.r): p for p in spec.pins}
    for p in spec.pins:
        pool.remove((p.level, p.pattern))
    free = [h for h in cells if h not in pinned]
    ev = Evaluator(spec, initial_targets(spec))
    ev.targets = [list(spec.cost_band or [0, 10_000]) for _ in range(spec.players)]
    ev.cost_spread = spec.cost_spread
    corners = spec.seat_corners()
    start_hexes = {hx.corner(spec.radius, c) for c in corners}
    t0 = time.monotonic()
    tried = 0
    while time.monotonic() - t0 < limit:
        tried += 1
        rng.shuffle(pool)
        levels = {h: k[0] for h, k in zip(free, pool)}
        pats = {h: k[1] for h, k in zip(free, pool)}
        rots = {h: rng.randrange(6) for h in cells}
        for h, p in pinned.items():
            levels[h], pats[h] = p.level, p.pattern
            if p.rotation is not None:
                rots[h] = p.rotation
        board = Board(spec.radius, levels, pats, rots)
        starts = [board.index[hx.corner(spec.radius, c)] for c in corners]
        dests: list[list[int]] = []
        used: set[int] = set()
        for seat, c in enumerate(corners):
            if spec.placement == "fixed":
                chosen = [board.index[tuple(h)] for h in spec.fixed[seat]]
            elif spec.placement == "opposite":
                chosen = [board.index[opposite_cell(spec, c, start_hexes)]]
            else:
                opts = [i for i in destination_options(spec, board, starts, seat) if i not in used]
                chosen = rng.sample(opts, spec.destinations)
            used.update(chosen)
            dests.append(chosen)
        cand = Candidate(board, [], dests, starts)
        if not ev.score(cand).ok:
            continue
        if not spec_problems(to_layout(cand, spec), spec, inv):
            return True, time.monotonic() - t0, tried
    return False, limit, tried


def ours(spec: Spec, seed: int, limit: float) -> tuple[str, float, float]:
    """(outcome, wall seconds, CPU seconds of this process)."""
    t0, c0 = time.monotonic(), time.process_time()
    try:
        generate_board(spec, seed, limit, balance=None)  # construction only: balance has its own bench
        out = "ok"
    except InfeasibleError:
        out = "infeasible"
    except TimeLimitError:
        out = "timeout"
    return out, time.monotonic() - t0, time.process_time() - c0


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def machine() -> str:
    try:
        cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
        model = next((ln.split(":", 1)[1].strip() for ln in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
                      if ln.startswith("Model name")), platform.processor())
    except OSError:
        cores, model = "?", platform.processor()
    return f"{model}, {cores} cores (nproc), Python {platform.python_version()}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--write-readme", action="store_true")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    rows = []
    for name, (spec, feasible) in specs().items():
        if args.only and args.only not in name:
            continue
        res = [ours(spec, s, args.limit) for s in range(args.seeds)]
        good = [t for st, t, _ in res if st == ("ok" if feasible else "infeasible")]
        med = statistics.median([t for _, t, _ in res])
        cpu = statistics.median([c for _, _, c in res])
        if feasible:
            base = [rejection(spec, s, args.limit) for s in range(args.seeds)]
            bfound = [t for f, t, _ in base if f]
            bmed = statistics.median([t for _, t, _ in base])
            tried = sum(n for _, _, n in base)
            if bfound:
                ratio = f"{bmed / med:.0f}×" if len(bfound) * 2 > len(base) else f"≥ {bmed / med:.0f}× (median is the limit)"
            else:
                ratio = "rejection found none"
            rows.append((name, f"{len(good)}/{len(res)}", f"{med:.2f}", f"{cpu:.2f}", f"{len(bfound)}/{len(base)} ({tried} boards)",
                         f"{bmed:.2f}", ratio))
        else:
            rows.append((name, f"{len(good)}/{len(res)} proved", f"{med:.2f}", f"{cpu:.2f}", "—", "—", "—"))
        print(" | ".join(rows[-1]), flush=True)
    header = ("spec", "generator solved", "median wall s", "median CPU s", "rejection solved", "median wall s", "speed-up (wall)")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    table = "\n".join(lines)
    info = (f"Run {datetime.date.today().isoformat()} on {machine()}: `python bench/generate_suite.py "
            f"--seeds {args.seeds} --limit {args.limit:g}`. Time limit {args.limit:g} s per run for both; "
            "a run that fails counts as the full limit in the median. Load average during the run: "
            f"{load()} (other jobs share the machine, so wall times include waiting; CPU s is this process only).")
    print(info)
    print(table)
    if args.write_readme:
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text()
        head = "## Generator (Terrain Game)\n"
        a = text.index(head) + len(head)
        # only this script's part: the balance sections after it are written by hand
        b = text.index("<!-- generate_suite end -->")
        text = text[:a] + "\n" + info + "\n\n" + table + "\n\n" + NOTES + "\n" + text[b:]
        readme.write_text(text)


NOTES = """Baseline: each board is a uniformly random placement of the inventory with random
rotations and destinations drawn by the spec's placement rule, scored by the
same fast checker and then the same full verification as the generator.
Generator: randomized construction on a seeded height field, local-search
repair steered by exact expected-turns checks, CP-SAT rotation model as the
fallback, CP-SAT level relaxation for infeasibility proofs."""


if __name__ == "__main__":
    main()
