"""Five seats: can one seat's destination, moved alone, close the gap between the seats of a class?

    python bench/five_seat_single_seat_moves.py --difficulties hard brutal --first-seed 134001 --seeds 4 \
        [--states 2] [--out F.jsonl]

Five seats sit on a board a turn by 120 degrees maps onto itself, corner 5 empty; the class search
moves a whole class's destinations at once, so it cannot move one seat of the class {0, 2, 4}
against its mates, and most five-seat hard and brutal runs end when the classes read fair but a seat
stands far from its class (``docs/generate-design.md``, "Five seats on a turned board"). This runs
``generate_board`` as the CLI does and, at the first ``--states`` such screens of each run (a full
screen whose classes read within 1.5 points while a seat is past the screen's seat limit), tries the
lever the class search lacks: every destination set one move away for one seat alone (the other
seats kept, the spec's bands met), ranked by the measured rates plus what the models (the race model
for solitary players, the solo-greedy race for greedy ones) say the move changes; the best ``TOP``
are played on 2,100 games of greedy and of solitary players (cycles of dice, one seed for all, so
the moves are compared on the same dice), and the one with the smallest worst seat again on 4,200
fresh games. It prints one JSON line per state: the state's own rates, the moves tried (predicted and
measured worst seat, points) and the fresh reading of the best. The probe's games count towards the
run's work budget, so the runs end sooner than they would; they are only its vehicle.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from terragen.terrain.generate import BalanceSettings, class_search, generate_board  # noqa: E402
from terragen.terrain.generate.fresh_checks import Tally, grow_tally  # noqa: E402
from terragen.terrain.generate.options import build_spec  # noqa: E402

TOP = 5  # moves played per state
SCREEN = 2100  # games a move is played on, per kind of player
FRESH = 4200  # games the best move is read on again, on another seed
CLASSES_FAIR = 0.015  # a screen whose classes read within this is one a single-seat move might save
PROBE_SEED = 777_000


def measure(balancer, dests: list[list[int]], seed: int, games: int) -> dict[str, list[float]]:
    """Each seat's distance from fair (a share) for greedy and solitary players on ``dests``."""
    saved = balancer.cand.dests
    balancer.cand.dests = [list(d) for d in dests]
    layout = balancer.to_layout(balancer.cand)
    balancer.cand.dests = saved
    out = {}
    for policy in ("greedy", "solitary"):
        tally = Tally(policy, seed, balancer.n, first=tuple(balancer.classes[0]), cycle=True)
        grow_tally(layout, tally, games, balancer.pool, lambda: False)
        out[policy] = [r - balancer.fair for r in tally.rates]
    return out


def worst_points(rates: dict[str, list[float]]) -> float:
    return round(100 * max(abs(x) for v in rates.values() for x in v), 2)


def single_seat_moves(balancer, base: dict[str, list[float]]) -> list[tuple[float, int, list[list[int]]]]:
    """Every one-seat move that meets the spec, with its predicted worst seat (a share)."""
    dests = [list(d) for d in balancer.cand.dests]
    race0, solo0 = balancer.modelled(dests), balancer.solo_model(dests)
    moves = []
    for seat in range(balancer.n):
        taken = {g for k, ds in enumerate(dests) if k != seat for g in ds} | set(balancer.cand.starts)
        for option in balancer.options(seat, dests)[1:]:
            if any(g in taken for g in option.dests) or not balancer._meets_spec(seat, option):
                continue
            trial = [list(d) for d in dests]
            trial[seat] = list(option.dests)
            if not balancer._cross_ok(trial, [balancer.turns(k, d) for k, d in enumerate(trial)]):
                continue
            race, solo = balancer.modelled(trial), balancer.solo_model(trial)
            greedy = [b + x - y for b, x, y in zip(base["greedy"], solo, solo0)]
            lone = [b + x - y for b, x, y in zip(base["solitary"], race, race0)]
            moves.append((max(map(abs, greedy + lone)), seat, trial))
    return sorted(moves, key=lambda m: m[0])


def probe(balancer, index: int) -> dict:
    began = time.monotonic()
    seed = PROBE_SEED + 17 * index + balancer.seed
    dests = [list(d) for d in balancer.cand.dests]
    base = measure(balancer, dests, seed, SCREEN)
    moves = single_seat_moves(balancer, base)
    tried = []
    for predicted, seat, trial in moves[:TOP]:
        rates = measure(balancer, trial, seed, SCREEN)
        tried.append({"seat": seat, "predicted": round(100 * predicted, 2), "measured": worst_points(rates),
                      "trial": trial})
    best = min(tried, key=lambda t: t["measured"]) if tried else None
    fresh = measure(balancer, best["trial"], seed + 5, FRESH) if best else None
    return {"spec_seed": balancer.seed, "attempt": balancer.attempt, "moves": len(moves),
            "state": {k: [round(100 * x, 2) for x in v] for k, v in base.items()},
            "state_worst": worst_points(base),
            "tried": [{k: v for k, v in t.items() if k != "trial"} for t in tried],
            "best_fresh": {k: [round(100 * x, 2) for x in v] for k, v in fresh.items()} if fresh else None,
            "best_fresh_worst": worst_points(fresh) if fresh else None,
            "seconds": round(time.monotonic() - began, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--difficulties", nargs="+", default=["hard", "brutal"])
    parser.add_argument("--first-seed", type=int, required=True)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--states", type=int, default=2, help="states probed per run")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    records: list[dict] = []
    probed: dict[int, int] = {}
    plainly_off = class_search.ClassSearch._seats_plainly_off

    def watched(self, tally, last):
        off = plainly_off(self, tally, last)
        if off and last and probed.get(self.seed, 0) < args.states \
                and self.worst(self.pooled(tally.rates)) <= CLASSES_FAIR:
            probed[self.seed] = probed.get(self.seed, 0) + 1
            record = probe(self, len(records))
            records.append(record)
            print(json.dumps(record), flush=True)
            if args.out:
                with args.out.open("a") as f:
                    print(json.dumps(record), file=f)
        return off

    class_search.ClassSearch._seats_plainly_off = watched
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for difficulty in args.difficulties:
            flags = {"players": 5, "destinations": None, "difficulty": difficulty, "seed": seed, "time_limit": None,
                     "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}
            spec, run = build_spec(flags, None)
            generate_board(spec, seed, run["time_limit"], balance=BalanceSettings(), workers=None)
    fixed = sum(1 for r in records if r["best_fresh_worst"] is not None and r["best_fresh_worst"] <= 2.0)
    print(f"{len(records)} states; the best single-seat move within 2.0 points on fresh games on {fixed}; "
          f"predicted best move's worst seat: median "
          f"{sorted(r['tried'][0]['predicted'] for r in records if r['tried'])[len(records) // 2]:.2f} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
