"""How often each of the generator's fresh checks passes and what it costs, per seat count: the numbers
that decide their order (cheapest per miss first: seconds per check over its odds of missing).

    python bench/early_looks-2026-12-07b/check_costs.py 4 medium,hard 133211 133212 133213

Runs ``generate_board`` as the CLI does (two processes) on each spec, timing every experts' glance and
every kind of player's check (``FreshChecks._expert_glance``, ``_confirm``, ``_seat_check``) and counting
the ones that passed.
"""

from __future__ import annotations

import collections
import sys
import time

from terragen.terrain.generate import BalanceSettings, fresh_checks, generate_board
from terragen.terrain.generate.options import build_spec

STATS: dict[str, list] = collections.defaultdict(lambda: [0, 0, 0.0])  # calls, passes, seconds


def timed(name: str, kind, passed) -> None:
    original = getattr(fresh_checks.FreshChecks, name)

    def run(self, *args, **kwargs):
        began = time.monotonic()
        out = original(self, *args, **kwargs)
        row = STATS[kind(args)]
        row[0] += 1
        row[1] += bool(passed(out))
        row[2] += time.monotonic() - began
        return out

    setattr(fresh_checks.FreshChecks, name, run)


def main() -> None:
    timed("_expert_glance", lambda args: "experts' glance", lambda out: out[1])
    timed("_confirm", lambda args: f"{args[2]} check", lambda out: out[2])
    timed("_seat_check", lambda args: f"{args[2]} check", lambda out: out[2])
    players, presets, seeds = int(sys.argv[1]), sys.argv[2].split(","), [int(s) for s in sys.argv[3:]]
    for preset in presets:
        for seed in seeds:
            flags = {"players": players, "destinations": None, "difficulty": preset, "seed": seed,
                     "time_limit": None, "radius": None, "inventory": None, "placement": None, "shape": None,
                     "symmetry": None}
            spec, run = build_spec(flags, None)
            generate_board(spec, seed, run["time_limit"], balance=BalanceSettings(), workers=None)
    for kind, (calls, passes, seconds) in sorted(STATS.items()):
        miss = 1 - passes / calls
        print(f"{players} seats {kind:<16} {calls:3} played, {passes:3} passed, {seconds / calls:.2f} s each, "
              f"{seconds / calls / miss if miss else float('inf'):.2f} s per miss")


if __name__ == "__main__":
    main()
