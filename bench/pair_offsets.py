"""How well do per-destination offsets predict a class pair's simulated win rate?

Builds the terrain the generator reaches for ``--players/--difficulty/--seed`` (the
class search is intercepted the first time it is called), simulates a grid of
destination pairs (``--options`` destinations of each class, drawn at random) with
greedy and solitary players on one seed, and compares three predictions of the first
class's pooled rate: the models plus one offset for the terrain (the class search before
2026-11-25 pm), and the models plus an offset with one term per destination of each
class on the log-odds scale (``terragen.terrain.generate.pair_offsets``), fitted by least
squares and scored on each pair left out in turn.

    python bench/pair_offsets.py --players 4 --difficulty hard --seed 82 --games 2400
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class _Done(Exception):
    pass


def measure(players: int, difficulty: str, seed: int, games: int, options: int) -> list[tuple]:
    """Rows (i, j, greedy rate - fair, solitary rate - fair, race model - fair, solo greedy - fair)."""
    from terragen.terrain.generate import BalanceSettings, generate_board
    from terragen.terrain.generate import balance as balance_module
    from terragen.terrain.generate.options import build_spec

    rows: list[tuple] = []

    def grid(self, tune_seed, first):
        a, b = (c[0] for c in self.classes)
        dests = [list(d) for d in self.cand.dests]
        rng = random.Random(seed)
        opts_a, opts_b = self._class_options(a, dests), self._class_options(b, dests)
        opts_a = rng.sample(opts_a, min(options, len(opts_a)))
        opts_b = rng.sample(opts_b, min(options, len(opts_b)))
        for i, oa in enumerate(opts_a):
            for j, ob in enumerate(opts_b):
                trial = self._with(dests, a, oa.dests)
                trial = self._with(trial, b, ob.dests) if trial is not None else None
                if trial is None:
                    continue
                self.cand.dests = trial
                layout = self.to_layout(self.cand)
                tallies = [balance_module.Tally(p, tune_seed, self.n) for p in ("greedy", "solitary")]
                for t in tallies:
                    self.play(layout, t, games)
                rows.append((i, j, *(self.pooled(t.rates)[a] - self.fair for t in tallies),
                             self.modelled(trial)[a] - self.fair, self.class_solo_model(trial)[a] - self.fair))
        raise _Done

    balance_module.Balancer.search_classes = grid
    flags = {"players": players, "destinations": None, "difficulty": difficulty, "seed": seed, "time_limit": 3600,
             "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}
    spec, _ = build_spec(flags, None)
    try:
        generate_board(spec, seed, 3600, balance=BalanceSettings())
    except _Done:
        return rows
    raise SystemExit("this spec has no board of two classes (4 or 6 seats with --symmetry auto)")


def score(rows: list[tuple], players: int, games: int) -> None:
    import numpy as np

    k, fair = players // 2, 1.0 / players
    share = k * fair
    noise = math.sqrt(share * (1 - share) / games) / k

    def logit(dev):
        s = k * (np.asarray(dev) + fair)
        return np.log(s / (1 - s))

    def back(z):
        return 1 / (1 + np.exp(-z)) / k - fair

    n_a, n_b = max(r[0] for r in rows) + 1, max(r[1] for r in rows) + 1
    design = np.zeros((len(rows), 1 + n_a + n_b))
    for t, r in enumerate(rows):
        design[t, [0, 1 + r[0], 1 + n_a + r[1]]] = 1
    print(f"{len(rows)} pairs, {games} games each; a sample's own noise {100 * noise:.2f} points")
    for col, model_col, policy in ((2, 5, "greedy"), (3, 4, "solitary")):
        y = np.array([r[col] for r in rows])
        model = np.array([r[model_col] for r in rows])
        terrain_wide = (y - model) - (y - model).mean()
        target = logit(y) - logit(model)
        misses = []
        for d in range(len(rows)):
            keep = [t for t in range(len(rows)) if t != d]
            coef, *_ = np.linalg.lstsq(design[keep], target[keep], rcond=None)
            misses.append(y[d] - back(logit(model[d]) + design[d] @ coef))
        print(f"  {policy:8}: spread of the pairs {100 * y.std():.2f}; models + one terrain offset "
              f"{100 * terrain_wide.std():.2f} (in the fit); + per-destination offsets "
              f"{100 * math.sqrt(np.mean(np.square(misses))):.2f} (pair left out) points rms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4, choices=(4, 6))
    ap.add_argument("--difficulty", default="hard")
    ap.add_argument("--seed", type=int, default=82)
    ap.add_argument("--games", type=int, default=2400)
    ap.add_argument("--options", type=int, default=6, help="destinations of each class (pairs: the square)")
    args = ap.parse_args()
    score(measure(args.players, args.difficulty, args.seed, args.games, args.options), args.players, args.games)


if __name__ == "__main__":
    main()
