"""Where a generated board's unfairness for experts sits: between its seat classes or inside one.

    python bench/expert_class_readings.py BOARD.json [BOARD.json ...] [--seed 424242] [--games N]

For each board the generator wrote, plays expert players at ``terragen simulate``'s default games
(or ``--games``) on a seed no search uses, and prints each seat class's distance from its fair
share (its seats' mean rate minus 1/n, in points) for experts beside the same figure for the greedy
and solitary players of the board's own verification and for the experts' glance it got (from
``meta.balance``). A class far off for experts while its seats agree says the glance (which judges
classes only) could have seen it; seats of one class far apart say it could not.

Why: on five seats the glance passed, or the search wrote late, boards that then failed
``simulate --policy expert``; this tells which of the two failures a board is.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

FRESH_SEED = 424_242  # far from the generator's own seeds (as in generate_balance.py)


def class_points(rates: list[float], seats: list[int]) -> float:
    """A class's mean rate minus the fair share, in points."""
    return 100 * (sum(rates[s] for s in seats) / len(seats) - 1 / len(rates))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="+", type=Path)
    parser.add_argument("--seed", type=int, default=FRESH_SEED)
    parser.add_argument("--games", type=int, default=0, help="0: simulate's default for the seat count")
    args = parser.parse_args()

    from terragen.terrain.files import load_layout
    from terragen.terrain.sim import simulate_layout

    for path in args.boards:
        layout = load_layout(str(path))
        balance = json.loads(path.read_text())["meta"].get("balance") or {}
        classes = balance.get("seat_classes") or json.loads(path.read_text())["meta"].get("seat_classes")
        if not classes:
            print(f"{path}: no seat classes in its meta (not a symmetric generated board)")
            continue
        report = simulate_layout(layout, games=args.games or None, seed=args.seed, policy="expert", workers=2)
        experts = [s.rate for s in report.seats]
        verified = {v["policy"]: v["win_rates"] for v in balance.get("verification", []) if "win_rates" in v}
        glance = balance.get("expert_glance") or {}
        print(f"{path.parent.name}: experts {'BALANCED' if report.balanced else 'NOT BALANCED'} on "
              f"{report.games} games; seats " + " ".join(f"{100 * r:.1f}" for r in experts)
              + (f"; glance {glance.get('verdict', 'of the best-effort choice')} on {glance['games']} games"
                 if glance else "; no glance"))
        for seats in classes:
            line = f"  class {seats}: experts {class_points(experts, seats):+.1f}"
            line += "".join(f", {p} {class_points(verified[p], seats):+.1f}" for p in ("greedy", "solitary")
                            if p in verified)
            if glance.get("win_rates"):
                line += f", glance {class_points(glance['win_rates'], seats):+.1f}"
            spread = max(100 * experts[s] for s in seats) - min(100 * experts[s] for s in seats)
            print(line + f"; its seats {spread:.1f} points apart for experts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
