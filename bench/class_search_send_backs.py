"""Would send-backs in mean field tell the class search which pairs solitary players will fail?

    python bench/class_search_send_backs.py 4 brutal 3201 3202   # players preset seeds...

The generator runs as users run it (CLI defaults, two simulation processes); every pair the class
search screens (``ClassSearch._grow``) is recorded with the first class's pooled distance from fair
as the exact race model predicts it, as the race model with send-backs in mean field predicts it
(``send_back_model.mean_field_race``; not used by the search), and as solitary and greedy players
measured it on the screen's games. Both models are also shown corrected by the terrain's mean
miss over the pairs screened before (the search learns such offsets too). A quarter or so of the
screened pairs fail on solitary players; if the mean field called those off where the race model
did not, it could spare their screens.
"""
import json
import os
import statistics as st
import sys

from terragen.terrain.generate import class_search as C, generate_board
from terragen.terrain.generate.options import build_spec

sys.path.insert(0, os.path.dirname(__file__))
from send_back_model import mean_field_race  # noqa: E402

rows = []
_grow = C.ClassSearch._grow


def recorded_grow(self, tallies, limits, sizes):
    a = self.classes[0]
    dests = [list(d) for d in self.cand.dests]
    race = self.modelled(dests)
    mf = mean_field_race(self.cand.board, self.cand.starts, dests, self.near, self.fwd, self._ranks)
    passed = _grow(self, tallies, limits, sizes)
    greedy, lone = tallies

    def dev(rates):
        return 100 * (sum(rates[s] for s in a) / len(a) - self.fair)

    rows.append({"seed": SEED, "attempt": self.attempt, "passed": passed,
                 "race": round(dev(race), 2), "mf": round(dev(mf), 2),
                 "greedy": round(dev(greedy.rates), 2) if greedy.played else None, "greedy_games": greedy.played,
                 "solitary": round(dev(lone.rates), 2) if lone.played else None, "solitary_games": lone.played,
                 "solitary_limit": round(100 * limits["solitary"], 2)})
    print(json.dumps(rows[-1]), flush=True)
    return passed


if __name__ == "__main__":
    players, preset = int(sys.argv[1]), sys.argv[2]
    C.ClassSearch._grow = recorded_grow
    spec, _ = build_spec({"players": players, "difficulty": preset}, None)
    for SEED in map(int, sys.argv[3:]):
        generate_board(spec, SEED, time_limit=60, workers=None)
    measured = [r for r in rows if r["solitary_games"] >= 400]
    print(f"{len(rows)} pairs screened, {len(measured)} with solitary players on 400 games or more")
    for model in ("race", "mf"):
        misses = [abs(r[model] - r["solitary"]) for r in measured]
        # corrected by the mean miss of the pairs screened before on the same terrain
        corrected = []
        for k, r in enumerate(measured):
            before = [p[model] - p["solitary"] for p in measured[:k]
                      if (p["seed"], p["attempt"]) == (r["seed"], r["attempt"])]
            shift = sum(before) / len(before) if before else 0.0
            corrected.append(abs(r[model] - shift - r["solitary"]))
        print(f"  {model}: miss of the first class's pooled solitary rate, median {st.median(misses):.2f} "
              f"(max {max(misses):.2f}); corrected by the terrain's earlier pairs {st.median(corrected):.2f} "
              f"(max {max(corrected):.2f}) points")
