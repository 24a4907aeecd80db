"""Five seats: how much tokens send each other home, and how far that puts the lone models off.

    python bench/five_seat_send_backs.py medium 3304 80     # preset seed seconds

The generator is run with its seat-by-seat tuning replaced by a probe (``terrain_walk.py``): on each
terrain it reaches, ``PER`` destination sets are drawn at random (each seat's cell within ``WINDOW``
expected turns of the one the model step chose, every per-seat and cross-seat requirement met) and
played ``GAMES`` greedy and ``GAMES`` solitary games on one seed. Per set it prints the send-backs a
game for each kind of player, the worst seat's distance between the simulated rates and the lone model
the tuning corrects (the solo-greedy race for greedy players, the exact race model for solitary ones),
and the set's meeting potential (``meeting_potential.py``, from the lone chains alone). At the
end: the sets split in thirds by send-backs with the mean misses of each, and the correlations.
"""
import json
import random
import statistics
import sys
import time

import numpy as np

from terragen.terrain.generate.construct import destination_options
from terragen.terrain.sim.variants import Rules
from meeting_potential import balancer_potential
from terrain_walk import walk_terrains

WINDOW = 2.0
PER = 10
GAMES = 3000
rows = []
presences: dict = {}


def rates_and_send_backs(games, n):
    wins = [0.0] * n
    for g in games:
        for s in g.winners:
            wins[s] += 1.0 / len(g.winners)
    return [w / len(games) for w in wins], sum(g.send_backs for g in games) / len(games)


def probe(self, seed, first, top, rounds=None):
    n = self.n
    cands = []
    for s in range(n):
        now = self.turns(s, self.cand.dests[s])
        cands.append([c for c in destination_options(self.spec, self.cand.board, self.cand.starts, s)
                      if abs(self.turns(s, [c]) - now) <= WINDOW and self.seat_ok(s, [c], self.turns(s, [c]))])
    rng = random.Random(f"send-backs:{self.seed}:{self.attempt}")
    sets = []
    for _ in range(500):
        tup = tuple(rng.choice(cands[s]) for s in range(n))
        ds = [[c] for c in tup]
        if len(set(tup)) == n and tup not in sets and self._cross_ok(ds, [self.turns(s, d) for s, d in enumerate(ds)]):
            sets.append(tup)
        if len(sets) >= PER:
            break
    self.prefetch_solos([(s, [c]) for t in sets for s, c in enumerate(t)])
    played = {}
    for pol in ("greedy", "solitary"):
        jobs = []
        for tup in sets:
            trial = self.cand.copy()
            trial.dests = [[c] for c in tup]
            jobs.append((self.to_layout(trial), Rules(), [pol] * n, 9_300_000 + self.attempt, 0, GAMES))
        for tup, games in zip(sets, self.pool.run_each(jobs)):
            played.setdefault(tup, {})[pol] = rates_and_send_backs(games, n)
    for tup in sets:
        ds = [[c] for c in tup]
        (greedy, g_sb), (lone, l_sb) = played[tup]["greedy"], played[tup]["solitary"]
        t = time.perf_counter()
        meet = balancer_potential(self, ds, presences)
        row = {"attempt": self.attempt, "send_backs_greedy": round(g_sb, 3), "send_backs_solitary": round(l_sb, 3),
               "meeting_potential": round(meet, 3), "potential_ms": round(1000 * (time.perf_counter() - t), 1),
               "miss_greedy": round(100 * max(abs(a - b) for a, b in zip(greedy, self.solo_model(ds))), 2),
               "miss_solitary": round(100 * max(abs(a - b) for a, b in zip(lone, self.modelled(ds))), 2),
               "worst_greedy": round(100 * self.worst(greedy), 2), "worst_solitary": round(100 * self.worst(lone), 2)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return False


def summary() -> None:
    print(f"{len(rows)} destination sets")
    for key in ("send_backs_greedy", "send_backs_solitary"):
        ordered = sorted(rows, key=lambda r: r[key])
        third = len(ordered) // 3
        for name, part in (("low third", ordered[:third]), ("middle", ordered[third:2 * third]),
                           ("high third", ordered[2 * third:])):
            print(f"{key} {name}: {statistics.mean(r[key] for r in part):.2f} a game; mean miss greedy "
                  f"{statistics.mean(r['miss_greedy'] for r in part):.2f}, solitary "
                  f"{statistics.mean(r['miss_solitary'] for r in part):.2f} points")
    cols = ["meeting_potential", "send_backs_greedy", "send_backs_solitary", "miss_greedy", "miss_solitary"]
    a = np.array([[r[c] for c in cols] for r in rows])
    corr = np.corrcoef(a.T)
    for i in range(len(cols)):
        for j in range(i + 1, len(cols)):
            print(f"correlation {cols[i]} / {cols[j]}: {corr[i, j]:.2f}")


if __name__ == "__main__":
    walk_terrains(5, sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), probe)
    summary()
