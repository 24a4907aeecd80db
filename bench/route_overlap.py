"""Seat-by-seat tuning rounds: does a seat whose route others share miss its prediction more?

    python bench/route_overlap.py 5 medium,hard,easy 1611 1612 1613     # players presets seeds...

Runs the generator (default flags, 60 s) on every preset and seed with the tuning's ``learn`` step
watched: for every round it records, per seat, the corrected prediction the tuning steered by
(the solo-greedy race plus learned offsets for greedy players, the race model plus offsets for
solitary ones), what the round's games measured, and how much of the seat's cheapest route (past its
start) another seat's cheapest route also takes. Printed: the mean miss by that share, for seats
whose destinations just moved (the tuning's guesses) and for seats that stayed (offsets known).
A round's games carry noise of their own (about 0.9 points a seat on 2,100 five-seat games, a mean
absolute miss of about 0.7), so misses near that are as good as the sample can tell.
"""

from __future__ import annotations

import json
import statistics
import sys

from terragen.terrain.analysis import analyse
from terragen.terrain.generate import generate_board
from terragen.terrain.generate import seat_tuning as ST
from terragen.terrain.generate.options import build_spec

BANDS = ((0.0, 0.01), (0.01, 0.3), (0.3, 0.6), (0.6, 1.01))


def watch(rows: list[dict]):
    """A ``learn`` that records each round before learning from it."""
    learn = ST.SeatTuning.learn
    last: dict = {}

    def spy(self, rates, lone=None):
        if rates is not None and lone is not None:
            layout = self.to_layout(self.cand)
            paths = [p.tour_path[1:] for p in analyse(layout, with_fragility=False).players]
            pred, pred_lone = self.predicted(self.cand.dests), self.predicted_lone(self.cand.dests)
            terrain = id(self.cand.board)
            for s, path in enumerate(paths):
                others = {h for k, p in enumerate(paths) if k != s for h in p}
                key, dests = (self.seed, self.attempt, terrain, s), tuple(self.cand.dests[s])
                rows.append({"shared": sum(h in others for h in path) / max(1, len(path)),
                             "moved": key in last and last[key] != dests,
                             "stayed": key in last and last[key] == dests,
                             "greedy": 100 * abs(rates[s] - pred[s]), "solitary": 100 * abs(lone[s] - pred_lone[s])})
                last[key] = dests
        learn(self, rates, lone)

    return spy


def main() -> None:
    players, presets, seeds = int(sys.argv[1]), sys.argv[2].split(","), [int(s) for s in sys.argv[3:]]
    rows: list[dict] = []
    ST.SeatTuning.learn = watch(rows)
    for preset in presets:
        for seed in seeds:
            spec, _ = build_spec({"players": players, "difficulty": preset}, None)
            try:
                generate_board(spec, seed=seed, time_limit=60.0, workers=None)
            except Exception as exc:  # a time-out still leaves its rounds
                print(f"{players} {preset} {seed}: {type(exc).__name__}", file=sys.stderr)
    print(f"{len(rows)} seat-rounds")
    for name in ("moved", "stayed"):
        for lo, hi in BANDS:
            band = [r for r in rows if r[name] and lo <= r["shared"] < hi]
            if band:
                print(json.dumps({"seats": name, "route_shared": [lo, min(hi, 1.0)], "n": len(band),
                                  "greedy_miss": round(statistics.mean(r["greedy"] for r in band), 2),
                                  "solitary_miss": round(statistics.mean(r["solitary"] for r in band), 2),
                                  "greedy_miss_over_2": round(sum(r["greedy"] > 2 for r in band) / len(band), 2)}))


if __name__ == "__main__":
    main()
