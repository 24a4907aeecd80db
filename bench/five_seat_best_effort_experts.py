"""Five seats: would another choice among the best-effort states have been fair for experts?

    python bench/five_seat_best_effort_experts.py run --first-seed 134101 --seeds 8 --states-dir D
    python bench/five_seat_best_effort_experts.py read D [--out F.json]

Most five-seat hard and brutal runs end on a best-effort board, chosen among the three fairest states
the search reached by fresh games of greedy and solitary players and a glance of expert players
judged by the seat classes' pooled rates (``best_effort.choose_best_effort``); most such boards are
not BALANCED for experts. ``run`` generates the specs as the CLI does and, where a run ends that way,
saves the states it chose among (``stateK.json``) and its choice (``choice.json``). ``read`` plays
every saved state's experts at ``terragen simulate``'s default games on a seed no search uses and
replays each state's glance seat by seat (its own seed and games), so that the choice can be compared
with one that judged the glance's seats one by one, and with a perfect choice for experts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

FRESH_SEED = 424_242  # as in expert_class_readings.py


def run(first_seed: int, seeds: int, difficulties: list[str], states_dir: Path) -> None:
    from terragen.terrain.files import save_layout
    from terragen.terrain.generate import BalanceSettings, best_effort, generate_board
    from terragen.terrain.generate.options import build_spec

    chooser = best_effort.choose_best_effort
    where: list[Path] = []

    def saving(layouts, settings, seed, attempt, pool=None, fits=None, policies=None, expert_classes=None):
        chosen, measured = chooser(layouts, settings, seed, attempt, pool, fits, policies, expert_classes)
        where[-1].mkdir(parents=True, exist_ok=True)
        for k, layout in enumerate(layouts):
            save_layout(layout, str(where[-1] / f"state{k}.json"))
        (where[-1] / "choice.json").write_text(json.dumps({"chosen": chosen, "measured": measured,
                                                           "classes": expert_classes}))
        return chosen, measured

    best_effort.choose_best_effort = saving
    for seed in range(first_seed, first_seed + seeds):
        for difficulty in difficulties:
            where.append(states_dir / f"{difficulty}-{seed}")
            flags = {"players": 5, "destinations": None, "difficulty": difficulty, "seed": seed, "time_limit": None,
                     "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}
            spec, settings = build_spec(flags, None)
            layout = generate_board(spec, seed, settings["time_limit"], balance=BalanceSettings(), workers=None)
            print(difficulty, seed, "best effort" if layout.extra["meta"]["balance"].get("best_effort") else "verified",
                  flush=True)


def read(states_dir: Path, out: Path | None) -> None:
    from terragen.terrain.files import load_layout
    from terragen.terrain.generate.fresh_checks import simulated_rates
    from terragen.terrain.generate.seat_check import simulate_odds
    from terragen.terrain.sim import simulate_layout

    report = {}
    for folder in sorted(p for p in states_dir.iterdir() if (p / "choice.json").exists()):
        choice = json.loads((folder / "choice.json").read_text())
        states = []
        for k, measured in enumerate(choice["measured"]):
            layout = load_layout(str(folder / f"state{k}.json"))
            fair = 1 / len(layout.players)
            experts = simulate_layout(layout, games=None, seed=FRESH_SEED, policy="expert", workers=2)
            glance = measured.get("expert_glance")
            seat_odds = seat_worst = None
            if glance:
                rates, _ = simulated_rates(layout, glance["games"], measured["seed"], "expert")
                seat_odds = round(simulate_odds(rates, glance["games"], 0.025, 0.0), 4)
                seat_worst = round(100 * max(abs(r - fair) for r in rates), 2)
            states.append({"others_odds": measured["simulate_odds"],
                           "others_worst": round(100 * measured["worst_deviation"], 2),
                           "glance_pooled_odds": glance and glance["simulate_odds"],
                           "glance_seat_odds": seat_odds, "glance_seat_worst": seat_worst,
                           "experts": [round(100 * (s.rate - fair), 2) for s in experts.seats],
                           "experts_worst": round(100 * max(abs(s.rate - fair) for s in experts.seats), 2),
                           "experts_balanced": experts.balanced, "experts_games": experts.games})
        # the choice had it judged the glance's seats one by one (the others' odds times the seats' odds)
        by_seats = max(range(len(states)), key=lambda k: (round(states[k]["others_odds"] * (states[k]["glance_seat_odds"] or 0), 4),
                                                          states[k]["others_odds"], -states[k]["others_worst"], -k))
        report[folder.name] = {"chosen": choice["chosen"], "by_seats": by_seats, "states": states}
        line = " | ".join(f"{'*' if k == choice['chosen'] else ' '}{'s' if k == by_seats else ' '}k{k}: others "
                          f"{s['others_worst']:.2f} (odds {s['others_odds']:.2f}), glance seats {s['glance_seat_worst']}, "
                          f"experts {s['experts_worst']:.2f}{' BALANCED' if s['experts_balanced'] else ''}"
                          for k, s in enumerate(states))
        print(f"{folder.name}: {line}", flush=True)
    n = len(report)
    count = {name: sum(1 for r in report.values() if r["states"][r[name]]["experts_balanced"]) for name in ("chosen", "by_seats")}
    any_fair = sum(1 for r in report.values() if any(s["experts_balanced"] for s in r["states"]))
    print(f"{n} best-effort runs: BALANCED for experts as chosen {count['chosen']}, chosen by the glance's seats "
          f"{count['by_seats']}, by a perfect choice {any_fair}; states BALANCED for experts "
          f"{sum(s['experts_balanced'] for r in report.values() for s in r['states'])} of "
          f"{sum(len(r['states']) for r in report.values())}")
    if out:
        out.write_text(json.dumps(report, indent=1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run")
    p_run.add_argument("--first-seed", type=int, required=True)
    p_run.add_argument("--seeds", type=int, default=8)
    p_run.add_argument("--difficulties", nargs="+", default=["hard", "brutal"])
    p_run.add_argument("--states-dir", type=Path, required=True)
    p_read = sub.add_parser("read")
    p_read.add_argument("states_dir", type=Path)
    p_read.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.first_seed, args.seeds, args.difficulties, args.states_dir)
    else:
        read(args.states_dir, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
