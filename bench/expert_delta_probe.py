"""Is the experts' class gap a property of the terrain, so that a cheap look at a terrain's first pair
could tell a search to give the terrain up before it balances greedy players on it?

    python bench/expert_delta_probe.py 4 hard:139401 brutal:139401 medium:139402 ...   # players preset:seed ...

Runs ``generate_board`` on each spec and, on every two-class terrain, plays ``GAMES`` (1,200) greedy and
expert games on the same dice (the same seed) twice: on the destinations the terrain starts the class
search with ("first"), and on every pair the experts' glance looks at ("glance"). Each line is the
first class's pooled rate minus a fair share, in points, for both kinds of player, and their
difference ``delta`` (what experts make of the board beyond what greedy players make of it). The probe's
games are played on a pool of their own, so they do not count in the search's work budget, but they do
take its CPU, so the runs' times mean nothing. ``analyse`` (``--analyse LOG``) pairs each glanced pair
with its terrain's first probe.
"""

from __future__ import annotations

import json
import statistics
import sys

GAMES = 1200


def _signed(balancer, rates: list[float]) -> float:
    first = balancer.classes[0]
    return 100 * (sum(rates[s] for s in first) / len(first) - balancer.fair)


def main() -> None:
    from terragen.terrain.generate import balance as B
    from terragen.terrain.generate import generate_board
    from terragen.terrain.generate.fresh_checks import simulated_rates
    from terragen.terrain.generate.options import build_spec
    from terragen.terrain.sim.pool import GamePool

    pool = GamePool(None)

    def probe(balancer, tag: str) -> None:
        layout = balancer.to_layout(balancer.cand)
        seed = 777 + balancer.attempt
        greedy, _ = simulated_rates(layout, GAMES, seed, "greedy", pool=pool)
        expert, _ = simulated_rates(layout, GAMES, seed, "expert", pool=pool)
        rec = {"tag": tag, "attempt": balancer.attempt, "dests": [list(d) for d in balancer.cand.dests],
               "greedy": round(_signed(balancer, greedy), 2), "expert": round(_signed(balancer, expert), 2)}
        rec["delta"] = round(rec["expert"] - rec["greedy"], 2)
        print(json.dumps(rec), flush=True)

    search_classes, glance = B.Balancer.search_classes, B.Balancer._expert_glance

    def probed_search(self, *args, **kwargs):
        if len(self.classes) == 2:
            probe(self, "first")
        return search_classes(self, *args, **kwargs)

    def probed_glance(self, *args, **kwargs):
        rec, ok = glance(self, *args, **kwargs)
        probe(self, "glance")
        return rec, ok

    B.Balancer.search_classes, B.Balancer._expert_glance = probed_search, probed_glance
    players = int(sys.argv[1])
    try:
        for arg in sys.argv[2:]:
            preset, seed = arg.split(":")
            print(f"== {players} {preset} {seed}", flush=True)
            spec, _ = build_spec({"players": players, "difficulty": preset}, None)
            generate_board(spec, seed=int(seed), time_limit=60.0, workers=None)
    finally:
        pool.close()


def analyse(path: str) -> None:
    """Each glanced pair against the first probe of its terrain: correlation and mean distance."""
    from expert_gap_static import correlation  # bench/ is on the path when run as a script

    runs: list[dict] = []
    for line in open(path):
        if line.startswith("=="):
            runs.append({"name": line.strip("= \n"), "recs": []})
        elif line.startswith('{"tag"'):
            runs[-1]["recs"].append(json.loads(line))
    pairs, firsts_all, glances_all = [], [], []
    for run in runs:
        firsts: dict[int, dict] = {}
        for rec in run["recs"]:
            if rec["tag"] == "first":
                firsts.setdefault(rec["attempt"], rec)
                firsts_all.append(abs(rec["delta"]))
            else:
                glances_all.append(abs(rec["delta"]))
                if rec["attempt"] in firsts:
                    pairs.append((firsts[rec["attempt"]]["delta"], rec["delta"]))
    r = correlation([p[0] for p in pairs], [p[1] for p in pairs])
    print(f"{len(firsts_all)} first probes (median |delta| {statistics.median(firsts_all):.2f}), "
          f"{len(glances_all)} glanced pairs (median |delta| {statistics.median(glances_all):.2f}); "
          f"{len(pairs)} glanced pairs against their terrain's first probe: correlation {r:.2f}, "
          f"mean distance {statistics.mean(abs(x - y) for x, y in pairs):.2f} points")


if __name__ == "__main__":
    if sys.argv[1] == "--analyse":
        analyse(sys.argv[2])
    else:
        main()
