"""Two more cheap guesses at the experts' class gap on four-seat boards, tried on fresh boards.

    python bench/expert_gap_levels.py BOARD.json [BOARD.json ...]     # four-seat boards `generate` wrote

``expert_gap_static.py`` asked whether the *difference* between the classes in how dearly their routes
can be cut near the end tells the sign and size of the experts' gap (it did not). Two other guesses:

1. the *level* of those features (both classes together) tells the gap's *size*: where routes are hard
   to cut, experts' defence should matter less to either class, so the gap should be small;
2. the defended solo-expert race (``terragen.terrain.sim.defended_chain``), which followed the gap at
   0.88-0.91 on 2026-11-29's medium and hard boards, still does on today's boards.

For each board: expert and greedy players on 4,000 games each (seed 424242), the first class's pooled
rate minus a fair share in points (classes {0, 2} and {1, 3}: seats on corners 0 and 4, 1 and 3), the
static features of ``expert_gap_static.seat_features`` averaged over all four seats (``L_``) and as the
class difference (``D_``), and the defended and solo-expert races' first-class share; then each
measure's correlation with the gap (``L_`` with its size).
"""

from __future__ import annotations

import json
import sys

from expert_gap_model import defended, solo_expert  # bench/ is on the path when run as a script
from expert_gap_static import correlation, seat_features

FIRST, SECOND = [0, 2], [1, 3]


def main() -> None:
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.pool import GamePool
    from terragen.terrain.sim.runner import simulate_layout

    pool = GamePool(None)
    rows = []
    try:
        for path in sys.argv[1:]:
            layout = load_layout(path)
            fragility = [s["fragility"] for s in json.load(open(path))["meta"]["seats"]]
            gaps = {}
            for policy in ("expert", "greedy"):
                report = simulate_layout(layout, games=4000, seed=424242, policy=policy, pool=pool)
                gaps[policy] = 100 * (sum(report.seats[s].rate for s in FIRST) / 2 - 0.25)
            feats = [seat_features(layout, s, fragility[s]) for s in range(4)]
            guarded, lone = defended(layout, FIRST), solo_expert(layout, FIRST)
            row = {"board": path, "gap": round(gaps["expert"], 2), "greedy_gap": round(gaps["greedy"], 2),
                   **{"L_" + k: round(sum(f[k] for f in feats) / 4, 2) for k in feats[0]},
                   **{"D_" + k: round(sum(feats[s][k] for s in FIRST) / 2 - sum(feats[s][k] for s in SECOND) / 2, 2)
                      for k in feats[0]},
                   "defended": None if guarded is None else round(100 * (guarded - 0.25), 2),
                   "solo_expert": None if lone is None else round(100 * (lone - 0.25), 2)}
            print(json.dumps(row), flush=True)
            rows.append(row)
    finally:
        pool.close()
    size = [abs(r["gap"]) for r in rows]
    print(f"\n{len(rows)} boards; experts' gap: mean size {sum(size) / len(size):.2f} points")
    print("| measure | correlation |\n|---|---:|")
    for k in rows[0]:
        if k.startswith("L_"):
            print(f"| {k} (with the gap's size) | {correlation([r[k] for r in rows], size):+.2f} |")
    for k in rows[0]:
        if k.startswith("D_") or k in ("defended", "solo_expert"):
            kept = [r for r in rows if r[k] is not None]
            # the races are in points of the first class's share, as the gap; the features are not
            miss = "" if k.startswith("D_") else \
                f"; mean miss {sum(abs(r[k] - r['gap']) for r in kept) / len(kept):.2f} points"
            print(f"| {k} (with the gap{miss}) | {correlation([r[k] for r in kept], [r['gap'] for r in kept]):+.2f} |")


if __name__ == "__main__":
    main()
