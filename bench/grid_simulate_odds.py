"""Re-read grids of ``bench/generate_balance.py`` by today's ``terragen simulate`` default.

Each board of a grid keeps the win rates of its large fresh sample (``--truth-games``). This
works out, for every board, the chance that one ``terragen simulate`` run with *today's*
default number of games calls it BALANCED, the worse of the kinds of player, so grids run
before and after a change of that default compare on the same user's check. It prints per
grid and seat count: total and median seconds, best-effort boards, mean P and how many
boards have P below 0.95 and 0.99.

    python bench/grid_simulate_odds.py bench/generate_balance-2026-11-27-4-6-seats-220-*.json

Read with care: P from 10,000 games is itself noisy. A 4-seat board truly at P 0.99 reads
below 0.95 in 38 of 100 samples of that size (median 0.97).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    from terragen.terrain.sim.runner import DEFAULT_MARGIN, default_games
    from terragen.terrain.sim.stats import balanced_odds

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("grids", nargs="+", type=Path)
    args = ap.parse_args()
    for path in args.grids:
        runs = json.loads(path.read_text())
        for n in sorted({r["players"] for r in runs}):
            rows = [r for r in runs if r["players"] == n]
            games = default_games(n, DEFAULT_MARGIN, n)
            odds = [min(balanced_odds(r[k]["rates"], games, DEFAULT_MARGIN) for k in r if k.endswith("_truth"))
                    for r in rows if any(k.endswith("_truth") for k in r)]
            secs = [r["seconds"] for r in rows]
            print(f"{path.name}: {n} seats, {len(rows)} runs, total {sum(secs):.1f} s, median "
                  f"{statistics.median(secs):.2f} s, best-effort {sum(bool(r.get('best_effort')) for r in rows)}; "
                  f"P(one {games}-game simulate run says BALANCED): mean {statistics.mean(odds):.3f}, "
                  f"below 0.95: {sum(p < 0.95 for p in odds)}, below 0.99: {sum(p < 0.99 for p in odds)}")


if __name__ == "__main__":
    main()
