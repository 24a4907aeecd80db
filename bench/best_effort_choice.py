"""Best-effort boards: the one chosen on fresh games against the search's least-bound state.

When the work budget ends a search before any board was verified, the generator plays its
few fairest states (least bound first) on a fresh seed and writes the one most likely to pass
a default ``terragen simulate`` run (``choose_best_effort``). Until 2026-11-27 it wrote the
least-bound state. Both come out of one run: this script generates each spec, keeps the
states the choice was made from, and measures the least-bound state and the chosen one on
``--truth-games`` more games per kind of player, on a seed nothing else used, as the true
chance that one default ``simulate`` run says BALANCED.

    python bench/best_effort_choice.py --players 5 --first-seed 308 --seeds 3 \\
        --out bench/best_effort_choice-DATE.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from generate_balance import FRESH_SEED, truth, write_atomically  # noqa: E402


def one_spec(players: int, difficulty: str, seed: int, truth_games: int) -> dict:
    """Generate one spec with the CLI's defaults; the truth of the least-bound state and of the
    board written (when the run ended best-effort)."""
    from terragen.terrain.generate import BalanceSettings, best_effort, generate_board
    from terragen.terrain.generate.options import build_spec

    seen: list = []
    choose = best_effort.choose_best_effort

    def keep(layouts, *args, **kwargs):
        seen.extend(layouts)
        return choose(layouts, *args, **kwargs)

    best_effort.choose_best_effort = keep
    try:
        flags = {"players": players, "destinations": None, "difficulty": difficulty, "seed": seed,
                 "time_limit": None, "radius": None, "inventory": None, "placement": None, "shape": None,
                 "symmetry": None}
        spec, run = build_spec(flags, None)
        began = time.monotonic()
        layout = generate_board(spec, seed, run["time_limit"], balance=BalanceSettings(), workers=None)
        seconds = time.monotonic() - began
    finally:
        best_effort.choose_best_effort = choose
    record = layout.extra["meta"]["balance"]
    row = {"players": players, "difficulty": difficulty, "seed": seed, "seconds": round(seconds, 2),
           "best_effort": bool(record.get("best_effort")), "choice": record.get("choice")}
    if not row["best_effort"]:
        return row
    first = seen[0] if seen else layout
    for name, board in (("least_bound", first), ("written", layout)):
        row[name] = {policy: truth(board, policy, FRESH_SEED, truth_games) for policy in ("greedy", "solitary")}
    return row


def worse_p(side: dict) -> float:
    return min(side[p]["p_simulate_balanced"] for p in ("greedy", "solitary"))


def worse_points(side: dict) -> float:
    return max(side[p]["worst_points"] for p in ("greedy", "solitary"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[5])
    ap.add_argument("--difficulties", nargs="+", default=["easy", "medium", "hard", "brutal"])
    ap.add_argument("--first-seed", type=int, default=308)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--truth-games", type=int, default=10_000)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    rows = []
    for players in args.players:
        for difficulty in args.difficulties:
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                row = one_spec(players, difficulty, seed, args.truth_games)
                rows.append(row)
                if row["best_effort"]:
                    a, b = row["least_bound"], row["written"]
                    print(f"{players} {difficulty:6} {seed}  {row['seconds']:5.1f} s  least bound: worse kind "
                          f"{worse_points(a):.2f} points, P {worse_p(a):.3f}  written: {worse_points(b):.2f} points, "
                          f"P {worse_p(b):.3f}  (chose {row['choice']['chosen'] if row['choice'] else 0})", flush=True)
                else:
                    print(f"{players} {difficulty:6} {seed}  {row['seconds']:5.1f} s  verified", flush=True)
                if args.out:
                    write_atomically(args.out, json.dumps(rows, indent=1))
    done = [r for r in rows if r["best_effort"]]
    if done:
        print(f"{len(done)} best-effort boards: mean P (worse kind) least bound "
              f"{statistics.mean(worse_p(r['least_bound']) for r in done):.3f}, written "
              f"{statistics.mean(worse_p(r['written']) for r in done):.3f}; median worse-kind points "
              f"{statistics.median(worse_points(r['least_bound']) for r in done):.2f} -> "
              f"{statistics.median(worse_points(r['written']) for r in done):.2f}; written fairer "
              f"{sum(worse_points(r['written']) < worse_points(r['least_bound']) for r in done)}, less fair "
              f"{sum(worse_points(r['written']) > worse_points(r['least_bound']) for r in done)}")


if __name__ == "__main__":
    main()
