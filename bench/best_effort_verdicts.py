"""Best-effort boards: the verdict the generator writes, against the boards' true odds.

A best-effort board is written when the search's budget runs out before a board was
verified (most five-seat runs). Its verdict comes from a fresh-seed check; this script
compares that verdict with the one a single sample of the check's first size gives (the
rule until 2026-11-27) and with the board's true odds that one default ``terragen
simulate`` run calls it BALANCED, estimated from ``--truth-games`` more games per kind of
player on a seed nothing else used.

    python bench/best_effort_verdicts.py --players 5 --first-seed 280 --seeds 5 \
        --out bench/best_effort_verdicts-DATE.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from generate_balance import FRESH_SEED, generated, truth, write_atomically  # noqa: E402


def one_sample_verdict(layout, check: dict, margin: float) -> dict:
    """The verdict of one sample of the check's first size, on the check's own seed (its first
    games: the same games the grown check began with)."""
    from terragen.terrain.generate.balance import BalanceSettings
    from terragen.terrain.generate.fresh_checks import _chunked
    from terragen.terrain.generate.seat_check import SEAT_LOOKS, passes
    from terragen.terrain.sim.runner import win_rates

    n = len(layout.players)
    first = _chunked(SEAT_LOOKS[0] * BalanceSettings(margin=margin).games_for(n)[2], n)
    rates = win_rates(layout, first, check["seed"], check["policy"])
    ok, odds = passes(rates, first, check["threshold"], margin)
    return {"games": first, "odds": round(odds, 4), "verdict": "BALANCED" if ok else "NOT BALANCED"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[5])
    ap.add_argument("--difficulties", nargs="+", default=["easy", "medium", "hard", "brutal"])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=280)
    ap.add_argument("--truth-games", type=int, default=20000)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    from terragen.terrain.formats_json import read_json_layout

    runs = []
    for n, diff, seed, took, _, rc, text in generated(args.players, args.difficulties, args.first_seed, args.seeds, None):
        run: dict = {"players": n, "difficulty": diff, "seed": seed, "seconds": round(took, 2), "exit": rc}
        if text is not None:
            layout = read_json_layout(text)
            record = json.loads(text)["meta"]["balance"]
            run.update(best_effort=bool(record.get("best_effort")), verdict=record["verdict"]
                       if record.get("best_effort") else "BALANCED (verified)", checks={})
            for check in record["verification"]:
                pol = check["policy"]
                row = {"games": check["games"], "odds": check.get("simulate_odds_bound", check.get("simulate_odds")),
                       "verdict": check["verdict"],
                       "truth": truth(layout, pol, FRESH_SEED + 1, args.truth_games)}
                if record.get("best_effort"):
                    row["one_sample"] = one_sample_verdict(layout, check, record["margin"])
                run["checks"][pol] = row
        runs.append(run)
        print(json.dumps(run), flush=True)
        if args.out:
            write_atomically(args.out, json.dumps(runs, indent=1) + "\n")
    print()
    print("| spec | s | verdict written | greedy: games, odds, verdict / one sample / true P | "
          "solitary: games, odds, verdict / one sample / true P |")
    print("|---|---|---|---|---|")
    for r in runs:
        cells = []
        for pol in ("greedy", "solitary"):
            c = r.get("checks", {}).get(pol)
            if not c:
                cells.append("")
                continue
            one = c.get("one_sample")
            one_text = f"{one['verdict']} ({one['odds']:.3f})" if one else "-"
            cells.append(f"{c['games']}, {c['odds']}, {c['verdict']} / {one_text} / {c['truth']['p_simulate_balanced']:.3f}")
        print(f"| {r['players']} {r['difficulty']} {r['seed']} | {r['seconds']:.1f} | {r.get('verdict', 'exit ' + str(r['exit']))} | "
              + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
