"""Five seats: learn every candidate destination's offset at once, from games whose destinations
are drawn at random (a factorial experiment), then pick the destinations the corrected models call
fairest. Measured offline, on the terrains the generator reaches its tuning with.

    python bench/five_seat_factorial.py 5 hard 2501 20000 50 60   # players preset seed games batch seconds

The generator is run with its tuning replaced (as in ``send_back_model.py``): on each terrain,
right after the model step, every seat's candidate cells (meeting the spec, expected turns within
``WINDOW`` of its current cell's) are listed; ``games`` greedy and ``games`` solitary games are
played in batches of ``batch``, every batch on destinations drawn at random (one cell per seat)
and a seed of its own. Per seat and cell, the offset is the mean of (simulated rate - model) over
the batches that gave the seat that cell (the solo-greedy race for greedy players, the exact race
model for solitary ones). A descent over the seats from several starts then picks the
destinations whose corrected predictions are fairest for both kinds of player, and those are
played on a fresh seed with ``simulate``'s default games (12,545), as are three random tuples
(to see how well the corrected models predict destinations as a whole).
"""
import json
import random
import sys
import time

from terragen.terrain.generate.construct import destination_options
from terragen.terrain.generate.fresh_checks import simulated_rates
from terragen.terrain.generate.seat_check import passes
from terragen.terrain.generate.seat_tuning import MAX_ROUNDS
from terragen.terrain.sim.variants import Rules

sys.path.insert(0, __import__("os").path.dirname(__file__))
from send_back_model import mean_field_race  # noqa: E402
from terrain_walk import walk_terrains  # noqa: E402

WINDOW = 1.5  # expected turns either side of the seat's current cell
CHECK = 12_545
rows = []


def wins_of(games, n):
    w = [0] * n
    for g in games:
        for s in g.winners:
            w[s] += 1.0 / len(g.winners)
    return w


def fake_tune(self, seed, first, top, rounds=MAX_ROUNDS):
    t0 = time.monotonic()
    n = self.n
    fair = self.fair
    dests = [list(d) for d in self.cand.dests]
    cands = []
    for s in range(n):
        now = self.turns(s, dests[s])
        cells = []
        for c in destination_options(self.spec, self.cand.board, self.cand.starts, s):
            t = self.turns(s, [c])
            if abs(t - now) <= WINDOW and self.seat_ok(s, [c], t):
                cells.append(c)
        cands.append(cells)
    self.prefetch_solos([(s, [c]) for s in range(n) for c in cands[s]])
    rng = random.Random(f"factorial:{self.seed}:{self.attempt}")
    resid = {"greedy": {}, "solitary": {}}
    batches = GAMES // BATCH
    t_sim = time.monotonic()
    tuples = []
    for b in range(batches):
        while True:
            tup = [rng.choice(cands[s]) for s in range(n)]
            if len(set(tup)) == n:
                break
        tuples.append(tup)
    for pol, model_of in (("greedy", self.solo_model), ("solitary", self.modelled)):
        jobs = []
        for b, tup in enumerate(tuples):
            trial = self.cand.copy()
            trial.dests = [[c] for c in tup]
            jobs.append((self.to_layout(trial), Rules(), [pol] * n, 5_000_000 + 1000 * self.attempt + b, 0, BATCH))
        played = self.pool.run_each(jobs)
        for tup, games in zip(tuples, played):
            w = wins_of(games, n)
            m = model_of([[c] for c in tup])
            for s in range(n):
                resid[pol].setdefault((s, tup[s]), []).append(w[s] / BATCH - m[s])
    t_sim = time.monotonic() - t_sim

    def off(pol, s, c):
        r = resid[pol].get((s, c))
        if not r:
            allr = [x for (k, _), v in resid[pol].items() if k == s for x in v]
            return sum(allr) / len(allr)
        # shrink toward the seat's mean by the batches seen
        allr = [x for (k, _), v in resid[pol].items() if k == s for x in v]
        mean_s = sum(allr) / len(allr)
        k = len(r)
        prior = 4.0  # batches' worth of weight on the seat's mean
        return (sum(r) + prior * mean_s) / (k + prior)

    def pred(tup):
        ds = [[c] for c in tup]
        g = [p + off("greedy", s, c) for s, (p, c) in enumerate(zip(self.solo_model(ds), tup))]
        lo = [p + off("solitary", s, c) for s, (p, c) in enumerate(zip(self.modelled(ds), tup))]
        return g, lo

    def loss(tup):
        if len(set(tup)) < n:
            return float("inf")
        g, lo = pred(tup)
        return sum((a - fair) ** 2 + (b - fair) ** 2 for a, b in zip(g, lo))

    t_opt = time.monotonic()
    starts = [[d[0] for d in dests]] + [tuples[k] for k in range(min(8, len(tuples)))]
    best_tup, best_loss = None, float("inf")
    for st in starts:
        cur = list(st)
        cur_loss = loss(cur)
        improved = True
        while improved:
            improved = False
            for s in range(n):
                for c in cands[s]:
                    if c == cur[s]:
                        continue
                    trial = list(cur)
                    trial[s] = c
                    l = loss(trial)
                    if l < cur_loss - 1e-12:
                        cur, cur_loss, improved = trial, l, True
        ds = [[c] for c in cur]
        if cur_loss < best_loss and self._cross_ok(ds, [self.turns(s, d) for s, d in enumerate(ds)]):
            best_tup, best_loss = cur, cur_loss
    t_opt = time.monotonic() - t_opt
    out = {"attempt": self.attempt, "cands": [len(c) for c in cands], "batches": batches,
           "sim_s": round(t_sim, 1), "opt_s": round(t_opt, 1)}
    checks = []
    fresh = [best_tup] + [tuples[-k] for k in range(1, 4)]
    for k, tup in enumerate(fresh):
        if tup is None:
            continue
        trial = self.cand.copy()
        trial.dests = [[c] for c in tup]
        lay = self.to_layout(trial)
        g, lo = pred(tup)
        ds = [[c] for c in tup]
        mf = mean_field_race(self.cand.board, self.cand.starts, ds, self.near, self.fwd, self._ranks)
        race, solo = self.modelled(ds), self.solo_model(ds)
        models = {"solitary": {"race": race, "mf": mf},
                  "greedy": {"solo": solo, "solo+mf-race": [a + b - c for a, b, c in zip(solo, mf, race)]}}
        row = {"tuple": tup, "chosen": k == 0}
        for pol, p in (("greedy", g), ("solitary", lo)):
            rates, _ = simulated_rates(lay, CHECK, 6_000_000 + 100 * self.attempt + k, pol, lambda: False, self.pool)
            ok, odds = passes(rates, CHECK, 0.015 if pol == "greedy" else 0.02, 0.025)
            row[pol] = {"worst": round(100 * self.worst(rates), 2), "ok": ok, "odds": round(odds, 3),
                        "pred_worst": round(100 * self.worst(p), 2),
                        "miss": round(100 * max(abs(a - b) for a, b in zip(rates, p)), 2),
                        "rates": [round(100 * r, 1) for r in rates], "pred": [round(100 * r, 1) for r in p],
                        "model_miss": {name: round(100 * max(abs(a - b) for a, b in zip(rates, m)), 2)
                                       for name, m in models[pol].items()}}
        checks.append(row)
    out["checks"] = checks
    out["s"] = round(time.monotonic() - t0, 1)
    rows.append(out)
    print(json.dumps(out), flush=True)
    return False


if __name__ == "__main__":
    players, diff, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    GAMES, BATCH = int(sys.argv[4]), int(sys.argv[5])
    walk_terrains(players, diff, seed, float(sys.argv[6]), fake_tune)
    chosen = [c for r in rows for c in r["checks"] if c["chosen"]]
    print(f"{players} {diff} {seed}: {len(rows)} terrains; chosen boards passing both: "
          f"{sum(1 for c in chosen if c['greedy']['ok'] and c['solitary']['ok'])}/{len(chosen)}")
