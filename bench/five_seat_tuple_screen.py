"""Five seats: how many whole destination tuples near fair by the lone models are fair when played?

If a few per cent of model-near-fair tuples on a terrain play fair for both kinds of player,
a screen (many tuples on few games, the best on more: successive halving) finds one without
any model of what tokens meeting do. This measures the share: on each terrain the generator
reaches its tuning with (``terrain_walk.py``), draw ``tuples`` random tuples (a cell per seat,
meeting the spec and the cross-seat rules) whose race model and solo-greedy race are both
within ``model_cap`` points of fair, and play each on ``games`` greedy and solitary games of one
seed. Prints each tuple's worst seat per kind of player, then per terrain how many are within
1.5 / 2.0 points for both.

    python bench/five_seat_tuple_screen.py 5 hard 94021 --tuples 40 --games 4000 --seconds 240
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from terrain_walk import walk_terrains  # noqa: E402

from terragen.terrain.generate.construct import destination_options  # noqa: E402
from terragen.terrain.generate.fresh_checks import simulated_rates  # noqa: E402

A = None


def probe(self, seed, first, top, rounds=20):
    t0 = time.monotonic()
    n, fair = self.n, self.fair
    cells = []
    for s in range(n):
        ok = []
        for c in destination_options(self.spec, self.cand.board, self.cand.starts, s):
            t = self.turns(s, [c])
            if self.seat_ok(s, [c], t):
                ok.append(c)
        cells.append(ok)
    self.prefetch_solos([(s, [c]) for s in range(n) for c in cells[s]])
    rng = random.Random(f"tuple-screen:{self.seed}:{self.attempt}")
    tuples, tries = [], 0
    while len(tuples) < A.tuples and tries < 200_000:
        tries += 1
        tup = [[rng.choice(cells[s])] for s in range(n)]
        if len({c[0] for c in tup}) < n or any(c[0] in self.cand.starts for c in tup):
            continue
        if not self._cross_ok(tup, [self.turns(k, d) for k, d in enumerate(tup)]):
            continue
        race, solo = self.modelled(tup), self.solo_model(tup)
        if max(self.worst(race), self.worst(solo)) > A.model_cap / 100:
            continue
        tuples.append((tup, race, solo))
    rows = []
    for tup, race, solo in tuples:
        self.cand.dests = tup
        layout = self.to_layout(self.cand)
        g, _ = simulated_rates(layout, A.games, 7_700_000 + self.attempt, "greedy", pool=self.pool)
        s, _ = simulated_rates(layout, A.games, 7_700_000 + self.attempt, "solitary", pool=self.pool)
        row = {"attempt": self.attempt, "race": round(100 * self.worst(race), 2), "solo": round(100 * self.worst(solo), 2),
               "greedy": round(100 * self.worst(g), 2), "solitary": round(100 * self.worst(s), 2)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    both = [max(r["greedy"], r["solitary"]) for r in rows]
    print(json.dumps({"terrain": self.attempt, "cells_per_seat": [len(c) for c in cells], "tries": tries,
                      "tuples": len(rows), "within_1.5": sum(b <= 1.5 for b in both),
                      "within_2.0": sum(b <= 2.0 for b in both), "within_2.5": sum(b <= 2.5 for b in both),
                      "best": sorted(both)[:5], "seconds": round(time.monotonic() - t0, 1)}), flush=True)
    return False


def main() -> None:
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("players", type=int)
    ap.add_argument("preset")
    ap.add_argument("seed", type=int)
    ap.add_argument("--tuples", type=int, default=40)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--model-cap", type=float, default=3.0)
    ap.add_argument("--seconds", type=float, default=240)
    A = ap.parse_args()
    globals()["A"] = A
    walk_terrains(A.players, A.preset, A.seed, A.seconds, probe)


if __name__ == "__main__":
    main()
