"""Five-seat terrains out of the box, and a race model with send-backs in mean field (a lead).

    python bench/send_back_model.py 5 medium 702 6400 25   # players difficulty seed games seconds

The generator is run with its simulated tuning replaced: every terrain, right after the model
step that makes the solo-greedy race fair, is played ``games`` greedy and ``games`` solitary
games on a seed of its own and then given up, so the run walks through terrains until
``seconds``. Per terrain it prints the simulated rates, the exact race model's, the solo-greedy
race's, and a **mean-field send-back model**: each seat's Markov chain of the race model (cell,
destinations collected), pushed round by round in turn order (every opener in turn, as the
simulator plays), where each move of a seat sends home the part of every other seat's token
distribution on the cell it lands on (the tokens taken as independent). It costs 60-80 ms for
five seats. Errors are the worst seat's distance between a model and the simulated rates.
"""
import json
import sys
import time

import numpy as np

from terragen.terrain import race as R
from terragen.terrain.generate.fresh_checks import simulated_rates
from terragen.terrain.generate.seat_check import passes
from terragen.terrain.generate.seat_tuning import MAX_ROUNDS
from terrain_walk import walk_terrains


def chain_with_cells(board, fwd, start, goals, near, rank):
    """The race model's chain for one seat as a matrix, with each state's cell and the state its
    token is sent home to (its start, same collection)."""
    arcs, _, _, _, index = R._chain(board, fwd, start, goals, near, rank)
    size = len(index) + 1
    P = np.zeros((size, size))
    for i, j, w in arcs:
        P[i, j] += w
    cell = np.full(size, -1)
    mask_of = np.zeros(size, dtype=int)
    for (c, m), i in index.items():
        cell[i] = c
        mask_of[i] = m
    home = np.array([index.get((start, mask_of[i]), 1) for i in range(size)])
    return P, cell, home


def mean_field_race(board, starts, goals_per_seat, near, fwd, ranks, horizon=400, tail=1e-7):
    """Win chances with send-backs in mean field, every seat opening in turn (see the docstring)."""
    n = len(starts)
    ncell = len(board)
    chains = [chain_with_cells(board, fwd, s, g, near, r) for s, g, r in zip(starts, goals_per_seat, ranks)]
    # landing operator per seat: L[s, c] = P(from state s, end the move on cell c != cell(s), not finished)
    lands = []
    onehot = []
    for P, cell, home in chains:
        M = np.zeros((len(cell), ncell))
        M[np.arange(1, len(cell)), cell[1:]] = 1.0
        moved = P * (cell[:, None] != cell[None, :])  # a move to another cell (staying is no landing)
        moved[:, 0] = 0.0  # finishing ends the game: no one is sent home by it
        lands.append(moved @ M)
        onehot.append(M)
    wins = np.zeros(n)
    for first in range(n):
        order = [(first + k) % n for k in range(n)]
        x = []
        for P, cell, home in chains:
            v = np.zeros(len(cell))
            v[1] = 1.0
            x.append(v)
        F = [[0.0] for _ in range(n)]
        for t in range(1, horizon + 1):
            for i in order:
                P, cell, home = chains[i]
                land = x[i] @ lands[i]  # this seat's landing chance per cell this move
                x[i] = x[i] @ P
                for j in range(n):
                    if j == i:
                        continue
                    # seat j's token on a cell seat i lands on goes home
                    occ = x[j]
                    hit = occ * (onehot[j] @ land)
                    hit[0] = 0.0
                    if hit.any():
                        x[j] = occ - hit
                        np.add.at(x[j], chains[j][2], hit)
            for i in range(n):
                F[i].append(float(x[i][0]))
            if all(1 - F[i][-1] < tail for i in range(n)):
                break
        races = [R.SeatRace(i, tuple(F[i]), sum(1 - f for f in F[i])) for i in range(n)]
        w, _ = R.win_probabilities(races, first)
        wins += np.array(w)
    return list(wins / n)


rows = []


def fake_tune(self, seed, first, top, rounds=MAX_ROUNDS):
    """Stands in for Balancer.tune: measure the terrain as the model step left it, then give it up."""
    t = time.monotonic()
    lay = self.to_layout(self.cand)
    race = self.modelled(self.cand.dests)
    solo = [100 * r for r in self.solo_model(self.cand.dests)]
    out = {"attempt": self.attempt, "t": round(t - T0, 2), "race": round(100 * self.worst(race), 2),
           "solo": round(max(abs(r - 100 / len(solo)) for r in solo), 2)}
    for pol in ("greedy", "solitary"):
        rates, _ = simulated_rates(lay, N, 777_000 + self.attempt, pol, self.should_stop, self.pool)
        ok, odds = passes(rates, N, 0.015 if pol == "greedy" else 0.02, 0.025)
        out[pol] = (round(100 * self.worst(rates), 2), ok, round(odds, 3))
        out[pol + "_rates"] = [round(100 * r, 1) for r in rates]
    out["race_rates"] = [round(100 * r, 1) for r in race]
    t1 = time.monotonic()
    m = mean_field_race(self.cand.board, self.cand.starts, self.cand.dests, self.near, self.fwd, self._ranks)
    out["mf_rates"] = [round(100 * r, 1) for r in m]
    out["mf_s"] = round(time.monotonic() - t1, 3)
    sol = out["solitary_rates"]
    out["err_race"] = round(max(abs(a - b) for a, b in zip(out["race_rates"], sol)), 1)
    out["err_mf"] = round(max(abs(a - b) for a, b in zip(out["mf_rates"], sol)), 1)
    gr = out["greedy_rates"]
    out["solo_rates"] = [round(r, 1) for r in solo]
    out["gmf_rates"] = [round(a + b - c, 1) for a, b, c in zip(solo, out["mf_rates"], out["race_rates"])]
    out["err_solo"] = round(max(abs(a - b) for a, b in zip(solo, gr)), 1)
    out["err_gmf"] = round(max(abs(a - b) for a, b in zip(out["gmf_rates"], gr)), 1)
    out["sim_s"] = round(time.monotonic() - t, 2)
    rows.append(out)
    print(json.dumps(out), flush=True)
    return False


if __name__ == "__main__":
    players, diff, seed, N = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    T0 = time.monotonic()
    walk_terrains(players, diff, seed, float(sys.argv[5]), fake_tune)
    good = sum(1 for r in rows if r["greedy"][1] and r["solitary"][1])
    print(f"{players} {diff} {seed}: {len(rows)} terrains, {good} pass both out of the box")
