"""Item 3 of issue 12 on given boards: `terragen simulate`'s defaults on 20 seeds no search used, for greedy
and solitary players; how many runs say BALANCED (at least 19 of 20 is the promise).

    python bench/simulate_twenty_seeds.py output/*/board.json
"""
import sys, json
from terragen.terrain.files import load_layout
from terragen.terrain.sim import simulate_layout
if __name__ == "__main__":
    for path in sys.argv[1:]:
        lay = load_layout(path)
        be = lay.extra["meta"]["balance"].get("best_effort")
        for pol in ("greedy", "solitary"):
            ok = 0; worst = []
            for seed in range(9_300_001, 9_300_021):
                r = simulate_layout(lay, seed=seed, policy=pol, workers=2)
                ok += r.balanced
                worst.append(max(abs(s.deviation) for s in r.seats))
            print(path, "best-effort" if be else "verified", pol, f"BALANCED {ok}/20", f"worst median {100*sorted(worst)[10]:.2f} max {100*max(worst):.2f}", flush=True)
