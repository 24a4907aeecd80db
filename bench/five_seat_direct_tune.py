"""Five seats: tune destinations by simulated win rates alone (no model of the move's effect).

The seat-by-seat tuning ranks moves by models that miss a five-seat move by 4-9 points,
on samples of 300-1,200 games (1.2-2.3 points of noise a seat). This probe replaces its
``tune`` with a descent on simulation only: each round the seats furthest from fair get
``--per-seat`` candidate moves each (the models only say which cells lie in the right
direction), every candidate is played on the same seed and games as the current state
(greedy and solitary players, common random numbers), and the best one is kept when it
measures fairer. The generator's own fresh checks then judge the board as usual.

    python bench/five_seat_direct_tune.py --specs medium:94011 hard:94012 --games 1000
    python bench/five_seat_direct_tune.py --baseline --specs medium:94011

Each line: the spec, seconds, whether best effort, the generator's checks, and a default
``terragen simulate`` (greedy and solitary) of the written board on a seed no search used.
"""
from __future__ import annotations

import argparse
import json
import math
import time

FRESH_SEED = 9_500_000


def direct_tune(self, seed: int, first: int, top: int, rounds: int = 40, *, games: int = 1000,
                per_seat: int = 3, seats: int = 2) -> bool:
    from terragen.terrain.generate.fresh_checks import simulated_rates

    n_games = max(games, first if rounds < 40 else 0)

    def measure(dests):
        self.cand.dests = [list(d) for d in dests]
        layout = self.to_layout(self.cand)
        g, _ = simulated_rates(layout, n_games, seed, self.settings.policy, self.should_stop, self.pool)
        s, _ = simulated_rates(layout, n_games, seed, "solitary", self.should_stop, self.pool)
        return g, s

    def loss(g, s):
        return sum((x - self.fair) ** 2 for x in g) + sum((x - self.fair) ** 2 for x in s)

    cur = [list(d) for d in self.cand.dests]
    g, s = measure(cur)
    self.learn(g, s)
    for rnd in range(rounds):
        if self.should_stop():
            return False
        worst = max(self.worst(g), self.worst(s))
        se = math.sqrt(self.fair * (1 - self.fair) / n_games)
        self._keep_if_fairest(worst + 2.0 * se, 0.0)
        self._say(f"direct round {rnd + 1}: {n_games} games, worst seat {100 * self.worst(g):.1f} points off "
                  f"({100 * self.worst(s):.1f} with solitary players)")
        if self._worth_a_check(g, s, n_games):
            if n_games >= top:
                return True
            n_games = min(top, 2 * n_games)
            g, s = measure(cur)
            self.learn(g, s)
            continue
        both = [(a + b) / 2 for a, b in zip(g, s)]
        order = sorted(range(self.n), key=lambda k: -abs(both[k] - self.fair))
        trials = []
        for seat in order:
            if len([t for t in trials if t[0] == seat]) >= per_seat:
                continue
            for cand in self._candidates(seat, cur, both[seat], per_seat):
                new = self._with(cur, seat, cand)
                if new is None or not self._cross_ok(new, [self.turns(k, d) for k, d in enumerate(new)]):
                    continue
                trials.append((seat, new))
            if len({t[0] for t in trials}) >= seats:
                break
        if not trials:
            self.cand.dests = cur
            return False
        base = loss(g, s)
        best = None
        for seat, new in trials:
            self._seen.add(tuple(map(tuple, new)))
            tg, ts = measure(new)
            self.learn(tg, ts)
            tl = loss(tg, ts)
            if best is None or tl < best[0]:
                best = (tl, new, tg, ts)
        if best[0] < base:
            cur, g, s = best[1], best[2], best[3]
        self.cand.dests = [list(d) for d in cur]
    return False


def run(spec_text: str, baseline: bool, opts) -> dict:
    from terragen.terrain.generate import BalanceSettings, balance, generate_board
    from terragen.terrain.generate.options import build_spec
    from terragen.terrain.sim.runner import simulate_layout

    if not baseline:
        orig = balance.Balancer.tune

        def tune(self, seed, first, top, rounds=40):
            if len(self.classes) == self.n and self.mirror is None:
                return direct_tune(self, seed, first, top, rounds if rounds != 20 else 40, games=opts.games,
                                   per_seat=opts.per_seat, seats=opts.seats)
            return orig(self, seed, first, top, rounds)
        balance.Balancer.tune = tune
    preset, seed = spec_text.split(":")
    spec, run_ = build_spec({"players": opts.players, "difficulty": preset}, None)
    t0 = time.monotonic()
    say = (lambda m: print(f"  {time.monotonic() - t0:6.1f} {m}", flush=True)) if opts.trace else None
    layout = generate_board(spec, int(seed), run_["time_limit"], balance=BalanceSettings(), workers=None, progress=say)
    wall = time.monotonic() - t0
    rec = layout.extra["meta"].get("balance", {})
    out = {"spec": spec_text, "seconds": round(wall, 1), "best_effort": bool(rec.get("best_effort")),
           "checks": [f"{c['policy']} {c['games']} {100 * c['worst_deviation']:.2f}" for c in rec.get("verification", [])]}
    for pol in ("greedy", "solitary"):
        rep = simulate_layout(layout, seed=FRESH_SEED + int(seed), policy=pol, workers=2)
        out[pol] = round(100 * max(abs(s.rate - 0.2) for s in rep.seats), 2)
        out[pol + "_ok"] = rep.balanced
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--specs", nargs="+", required=True)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--per-seat", type=int, default=3)
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--baseline", action="store_true")
    ap.add_argument("--trace", action="store_true", help="print the generator's progress")
    opts = ap.parse_args()
    for spec_text in opts.specs:
        print(json.dumps(run(spec_text, opts.baseline, opts)), flush=True)


if __name__ == "__main__":
    main()
