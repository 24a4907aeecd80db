"""What a simulated turn of each kind of player costs inside the generator, in wall time on two
simulation processes: the weight a turn should carry in the generator's work budget.

    python bench/expert_work_weight.py --players 4 6 --difficulties medium hard --seeds 4701 4702

Runs ``generate_board`` as the CLI does (two processes) on each spec and times every pooled
run of games (``GamePool.run``) by kind of player: turns, wall seconds, turns a second. The
work budget (``terragen.terrain.generate.work_budget``) counts simulated turns and was set
from greedy and solitary players' pace; a kind of player whose turns take many times longer
spends the clock without spending the budget, and the clock, not the budget, then decides
where a run ends (different boards on different runs).
"""

from __future__ import annotations

import argparse
import collections
import time

from terragen.terrain.generate import generate_board
from terragen.terrain.generate.balance import BalanceSettings
from terragen.terrain.generate.options import build_spec
from terragen.terrain.sim import pool as pool_module


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, nargs="+", default=[4, 6])
    ap.add_argument("--difficulties", nargs="+", default=["medium", "hard"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[4701, 4702])
    args = ap.parse_args()
    per_seats: dict[int, dict[str, list[float]]] = {}
    original = pool_module.GamePool.run

    def timed_run(self, layout, rules, policy_specs, seed, start, stop, *args, **kwargs):
        began = time.monotonic()
        games = original(self, layout, rules, policy_specs, seed, start, stop, *args, **kwargs)
        row = per_seats.setdefault(len(layout.players), collections.defaultdict(lambda: [0, 0.0]))[
            pool_module._policy_name(policy_specs)]
        row[0] += sum(g.total_turns for g in games)
        row[1] += time.monotonic() - began
        return games

    pool_module.GamePool.run = timed_run
    for n in args.players:
        for d in args.difficulties:
            for s in args.seeds:
                spec, _ = build_spec({"players": n, "difficulty": d, "seed": s, "time_limit": 60, "destinations": None,
                                      "radius": None, "inventory": None, "placement": None, "shape": None,
                                      "symmetry": None}, None)
                began = time.monotonic()
                generate_board(spec, s, 60, balance=BalanceSettings(), best_effort=True, workers=None)
                print(f"{n} {d} {s}: {time.monotonic() - began:.1f} s", flush=True)
    for n, rows in per_seats.items():
        base = None
        for policy in ("greedy", "solitary", "expert"):
            turns, secs = rows.get(policy, (0, 0.0))
            if not secs:
                continue
            rate = turns / secs
            base = base or rate
            print(f"{n} seats {policy:<9} {turns:>10,} turns {secs:7.1f} s {rate:>10,.0f} turns/s "
                  f"({base / rate:.1f}x a greedy turn's time)")
        # the budget's mix (greedy and solitary games as the search played them), which TURN_WORK is against
        mix = [rows[p] for p in ("greedy", "solitary") if p in rows]
        expert = rows.get("expert")
        if mix and expert and expert[1] and expert[0]:
            mix_rate = sum(t for t, _ in mix) / sum(s for _, s in mix)
            print(f"{n} seats the mix     {mix_rate:>29,.0f} turns/s; an expert's turn takes "
                  f"{mix_rate / (expert[0] / expert[1]):.1f} of its turns' time (TURN_WORK says "
                  f"{pool_module.TURN_WORK['expert']})")


if __name__ == "__main__":
    main()
