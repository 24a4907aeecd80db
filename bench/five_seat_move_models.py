"""Five seats: how well each model, corrected by the offsets measured at the current destinations,
predicts the rates after one seat moves to a cell not played yet (the seat-by-seat tuning's
situation: its new cells miss by 4-9 points).

    python bench/five_seat_move_models.py 5 medium 2601 6000 8 60   # players preset seed games moves seconds

The generator runs with its tuning replaced (as in ``send_back_model.py``): on each terrain, right
after the model step, the destinations are played ``games`` greedy and ``games`` solitary games
(seed A) and each model's per-seat offset learned (simulated rate minus model). Then ``moves``
random one-seat moves (a cell meeting the spec, expected turns within 1.5 of the seat's current
cell's) are each played on the same seed A (common random numbers, as the tuning does) and every
model's prediction (model at the new state plus the offsets of the old one) is compared with the
simulated rates. Models: for solitary players the exact race model and the race model with
send-backs in mean field (``send_back_model.mean_field_race``); for greedy players the solo-greedy
race, and that plus the mean field's change from the race model (send-backs).
"""
import json
import os
import random
import statistics as st
import sys
import time

from terragen.terrain.generate.construct import destination_options
from terragen.terrain.generate.fresh_checks import simulated_rates
from terragen.terrain.generate.seat_tuning import MAX_ROUNDS

sys.path.insert(0, os.path.dirname(__file__))
from send_back_model import mean_field_race  # noqa: E402
from terrain_walk import walk_terrains  # noqa: E402

WINDOW = 1.5
rows = []


def models_of(self, dests):
    race, solo = self.modelled(dests), self.solo_model(dests)
    t = time.monotonic()
    mf = mean_field_race(self.cand.board, self.cand.starts, dests, self.near, self.fwd, self._ranks)
    mf_s = time.monotonic() - t
    return {"solitary": {"race": race, "mf": mf},
            "greedy": {"solo": solo, "solo+mf-race": [a + b - c for a, b, c in zip(solo, mf, race)]}}, mf_s


def fake_tune(self, seed, first, top, rounds=MAX_ROUNDS):
    n = self.n
    dests = [list(d) for d in self.cand.dests]
    seed_a = 7_100_000 + self.attempt

    def measure(ds):
        trial = self.cand.copy()
        trial.dests = [list(d) for d in ds]
        lay = self.to_layout(trial)
        return {pol: simulated_rates(lay, GAMES, seed_a, pol, lambda: False, self.pool)[0]
                for pol in ("greedy", "solitary")}

    base_rates = measure(dests)
    base_models, mf_s = models_of(self, dests)
    offsets = {pol: {name: [r - m for r, m in zip(base_rates[pol], model)] for name, model in ms.items()}
               for pol, ms in base_models.items()}
    rng = random.Random(f"move-models:{self.seed}:{self.attempt}")
    out = {"attempt": self.attempt, "mf_s": round(mf_s, 3), "moves": []}
    for _ in range(MOVES):
        for _try in range(50):
            s = rng.randrange(n)
            now = self.turns(s, dests[s])
            cells = [c for c in destination_options(self.spec, self.cand.board, self.cand.starts, s)
                     if c not in {g for d in dests for g in d}
                     and abs(self.turns(s, [c]) - now) <= WINDOW and self.seat_ok(s, [c], self.turns(s, [c]))]
            if cells:
                break
        else:
            break
        new = [list(d) for d in dests]
        new[s] = [rng.choice(cells)]
        rates = measure(new)
        models, _ = models_of(self, new)
        row = {"seat": s}
        for pol, ms in models.items():
            for name, model in ms.items():
                pred = [m + o for m, o in zip(model, offsets[pol][name])]
                miss = [abs(p - r) for p, r in zip(pred, rates[pol])]
                row[f"{pol}/{name}"] = {"moved": round(100 * miss[s], 2),
                                        "others": round(100 * max(m for k, m in enumerate(miss) if k != s), 2)}
        out["moves"].append(row)
    rows.append(out)
    print(json.dumps(out), flush=True)
    return False


if __name__ == "__main__":
    players, diff, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    GAMES, MOVES = int(sys.argv[4]), int(sys.argv[5])
    walk_terrains(players, diff, seed, float(sys.argv[6]), fake_tune)
    moves = [m for r in rows for m in r["moves"]]
    print(f"{players} {diff} {seed}: {len(rows)} terrains, {len(moves)} moves; median (max) miss, points:")
    for key in ("solitary/race", "solitary/mf", "greedy/solo", "greedy/solo+mf-race"):
        for part in ("moved", "others"):
            v = [m[key][part] for m in moves]
            print(f"  {key:22s} {part:6s} {st.median(v):5.2f} ({max(v):5.2f})")
