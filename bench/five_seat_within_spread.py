"""Five seats: how far the seats of one class part on the class search's screens, terrain by terrain.

    python bench/five_seat_within_spread.py --difficulties hard brutal --first-seed 99871 --seeds 5 [--out F]
    python bench/five_seat_within_spread.py --seat-two F   # from a run's --out: how much seat 2 alone parts

Five seats sit on a board that a turn by 120 degrees maps onto itself, corner 5 empty: the classes
{0, 2, 4} and {1, 3} face images of one terrain and one set of destinations, but not the same
neighbours, and the class search moves only whole classes. This runs ``generate_board`` as the CLI
does (two simulation processes, 60 s limit) and records every screen the class search plays to its
full size (greedy and solitary players' rates per seat), grouped by terrain. It prints, per terrain,
how far apart the seats of the three-seat class read (largest minus smallest rate, mean over its
full screens), and how many full screens had both classes' pooled rates within 1.5 points of fair
while a seat was past the screen's own seat limit (1.5 + one standard error of 2,100 games, 2.37
points): screens that no move of a class's destinations could have passed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from terragen.terrain.generate import balance, class_search, generate_board  # noqa: E402
from terragen.terrain.generate.options import build_spec  # noqa: E402

FULL = 2000  # a screen with at least this many games reached its full size (2,100 for five seats)
CLASS_A, CLASS_B = (0, 2, 4), (1, 3)
SEAT_LIMIT = 2.37  # points: the screen's seat limit at its full size for greedy players

_terrains: list[list] = []


def _record() -> None:
    """Hook the balancer's terrain reset and the class search's learning step (called once a screen ends)."""
    reset = balance.Balancer._reset_board
    learn = class_search.ClassSearch._learn_class_offsets

    def on_reset(self) -> None:
        _terrains.append([])
        reset(self)

    def on_learn(self, dests, *tallies) -> None:
        if _terrains and len(tallies) == 2 and tallies[0].played:
            greedy, lone = tallies
            _terrains[-1].append({"games": greedy.played,
                                  "greedy": [round(100 * (r - self.fair), 2) for r in greedy.rates],
                                  "solitary": [round(100 * (r - self.fair), 2) for r in lone.rates] if lone.played else []})
        learn(self, dests, *tallies)

    balance.Balancer._reset_board = on_reset
    class_search.ClassSearch._learn_class_offsets = on_learn


def _spread(rates: list[float], seats: tuple[int, ...]) -> float:
    return max(rates[s] for s in seats) - min(rates[s] for s in seats)


def seat_two(path: Path) -> None:
    """How much of the three-seat class's spread a destination of seat 2's own could take away.

    Why ask: seat 2 is the one seat of the class with class-B seats on both sides; a search that gave
    it a destination set of its own (seats 0 and 4 keeping images of one set) would have one more
    lever, and what it cannot reach is how far seats 0 and 4 stand apart. Per terrain, each seat's
    distance from the class's mean (greedy, games-weighted over its full screens)."""
    rows = []
    for run in json.loads(path.read_text()):
        for screens in run["terrains"]:
            done = [s for s in screens if s["games"] >= FULL]
            if not done:
                continue
            games = sum(s["games"] for s in done)
            rates = [sum(s["greedy"][i] * s["games"] for s in done) / games for i in range(5)]
            mean = statistics.mean(rates[i] for i in CLASS_A)
            zero, two, four = (rates[i] - mean for i in CLASS_A)
            rows.append((max(zero, two, four) - min(zero, two, four), abs(zero - four), abs(two)))
    print(f"{len(rows)} terrains: the class's spread a median {statistics.median(r[0] for r in rows):.2f} points; "
          f"seats 0 and 4 apart a median {statistics.median(r[1] for r in rows):.2f} (within 2 points on "
          f"{sum(r[1] <= 2.0 for r in rows)}); seat 2 from the class's mean a median {statistics.median(r[2] for r in rows):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--difficulties", nargs="+", default=["hard", "brutal"])
    parser.add_argument("--first-seed", type=int)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--out", help="JSON file for every run's screens")
    parser.add_argument("--seat-two", type=Path, help="a run's --out file: what seat 2 alone parts (no run)")
    args = parser.parse_args()
    if args.seat_two:
        seat_two(args.seat_two)
        return
    if args.first_seed is None:
        parser.error("--first-seed is needed for a run")
    _record()
    runs = []
    for difficulty in args.difficulties:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            _terrains.clear()
            flags = {"players": 5, "difficulty": difficulty, "seed": seed, "time_limit": 60, "destinations": None,
                     "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}
            spec, _ = build_spec(flags, None)
            began = time.monotonic()
            layout = generate_board(spec, seed, 60, workers=None)
            best_effort = bool(layout.extra.get("meta", {}).get("balance", {}).get("best_effort"))
            runs.append({"difficulty": difficulty, "seed": seed, "seconds": round(time.monotonic() - began, 1),
                         "best_effort": best_effort, "terrains": [list(t) for t in _terrains]})
            print(f"5 {difficulty} {seed}: {runs[-1]['seconds']} s, {'best-effort' if best_effort else 'verified'}, "
                  f"{len(_terrains)} terrains", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(runs))
    spreads, blocked, full = [], 0, 0
    for run in runs:
        for screens in run["terrains"]:
            done = [s for s in screens if s["games"] >= FULL]
            full += len(done)
            if done:
                spreads.append(statistics.mean(_spread(s["greedy"], CLASS_A) for s in done))
            for s in done:
                g = s["greedy"]
                pooled = (statistics.mean(g[i] for i in CLASS_A), statistics.mean(g[i] for i in CLASS_B))
                blocked += max(map(abs, pooled)) <= 1.5 and max(map(abs, g)) > SEAT_LIMIT
    print(f"{len(spreads)} terrains screened to full size, {full} full screens; {blocked} of them with both classes "
          f"within 1.5 points and a seat past {SEAT_LIMIT} (greedy players)")
    if spreads:
        print(f"the three-seat class's spread on a terrain (greedy, mean over its full screens): median "
              f"{statistics.median(spreads):.1f} points, over 3 points on {sum(x > 3 for x in spreads)} of {len(spreads)}")


if __name__ == "__main__":
    main()
