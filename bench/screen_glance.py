"""What an earlier first look at each screened pair would save: measured on the screens a run
really plays, without changing them.

    python bench/screen_glance.py --players 4 6 --difficulties hard brutal --seeds 360 361 --out F.json

The class search screens destination pairs in steps (a sixth, half, all of its first sample) and
drops a pair once its odds of ending inside its limit are below ``SCREEN_FUTILITY``. This script
runs the generator as it is, but before each screen plays the first games of the pair up to each
``--glances`` share of the sample (game ``i`` of a seed is the same game whatever the sample size,
so the screen itself is unchanged) and records what the odds rule would have said there, with the
simulated turns every step cost. Then, per glance share: the turns the screens would have spared
(pairs dropped at the glance that the steps dropped later) and the pairs that passed the screen
that the glance would have dropped; and, from each step's recorded odds, what dropping below a
higher threshold would have spared, and the passing (and verified: both fresh checks of the pair
passed) pairs it would have lost. ``--glances`` with no value records the screens as they are. Why this way and not side by side: two versions that drop
different pairs go on to different pairs and terrains, and on a dozen specs that path noise is far
larger than the change (`generate_side_by_side-2026-11-27-screen-glance-350.txt`). But the figures
leave out what the search does next (a pair dropped early teaches the terrain's offsets less, and a
terrain whose fair pair is dropped is given up), so they are an upper bound: settle a change on whole
runs (bench/README.md, "Screened pairs dropped at odds below 10%").
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[4, 6])
    ap.add_argument("--difficulties", nargs="+", default=["hard", "brutal"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[360, 361])
    ap.add_argument("--glances", type=float, nargs="*", default=[1 / 24, 1 / 12],
                    help="shares of the first sample to look at before each screen (none: the screens as they are)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()

    import terragen.terrain.generate.balance as balance
    import terragen.terrain.generate.class_search as class_search
    from terragen.terrain.generate import generate_board
    from terragen.terrain.generate.options import build_spec

    screens: list[dict] = []
    pools: list = [None]  # the run's simulation processes, to read its whole count of turns
    original_grow = balance.Balancer._grow

    def recording_grow(self, tallies, limits, sizes):
        final = sizes[-1]
        pool = self.pool
        pools[0] = pool
        record = {"sizes": list(sizes), "glances": [], "steps": []}
        layout = self.to_layout(self.cand)
        for share in args.glances:
            glance = self.n * math.ceil(final * share / self.n)
            look = []
            for tally in tallies:
                before = pool.turns_played
                self.play(layout, tally, glance)
                measured = self.worst(self.pooled(tally.rates))
                odds = class_search.screen_pass_odds(measured, limits[tally.policy], glance, final,
                                                     self._class_se(glance))
                look.append({"policy": tally.policy, "games": glance, "turns": pool.turns_played - before,
                             "odds": odds})
                if odds < class_search.SCREEN_FUTILITY:
                    break
            record["glances"].append({"share": share, "looks": look})
        original_play = self.play

        def counting_play(layout_, tally, size):
            before = pool.turns_played
            original_play(layout_, tally, size)
            measured = self.worst(self.pooled(tally.rates))
            odds = class_search.screen_pass_odds(measured, limits[tally.policy], size, final, self._class_se(size))
            record["steps"].append({"policy": tally.policy, "games": size, "turns": pool.turns_played - before,
                                    "odds": odds})

        self.play = counting_play
        try:
            passed = original_grow(self, tallies, limits, sizes)
        finally:
            del self.play
        record["passed"] = passed
        screens.append(record)
        return passed

    original_confirm = balance.Balancer._confirm

    def recording_confirm(self, seed, games, policy, threshold):
        before = self.pool.turns_played
        rates, rec, ok = original_confirm(self, seed, games, policy, threshold)
        if screens:  # the check of the pair the last screen passed
            screens[-1].setdefault("checks", []).append({"policy": policy, "passed": ok,
                                                         "turns": self.pool.turns_played - before})
        return rates, rec, ok

    balance.Balancer._grow = recording_grow
    balance.Balancer._confirm = recording_confirm
    runs = []
    for players in args.players:
        for difficulty in args.difficulties:
            for seed in args.seeds:
                flags = {"players": players, "destinations": None, "difficulty": difficulty, "seed": seed,
                         "time_limit": None, "radius": None, "inventory": None, "placement": None,
                         "shape": None, "symmetry": None}
                spec, run = build_spec(flags, None)
                first = len(screens)
                t0 = time.monotonic()
                pools[0] = None
                generate_board(spec, seed, run["time_limit"], workers=2)
                runs.append({"players": players, "difficulty": difficulty, "seed": seed,
                             "seconds": round(time.monotonic() - t0, 2), "screens": screens[first:],
                             "turns": pools[0].turns_played if pools[0] is not None else 0})
                print(f"{players} {difficulty} {seed}: {len(screens) - first} screens", flush=True)
    args.out.write_text(json.dumps({"glances": args.glances, "runs": runs}, indent=1))
    summarise(runs, args.glances)


def summarise(runs: list[dict], glances: list[float]) -> None:
    """Per seat count and glance share: the screens' turns (glances included), the turns
    a glance would have spared, and the passing pairs it would have dropped."""
    from terragen.terrain.generate.class_search import SCREEN_FUTILITY

    for players in sorted({r["players"] for r in runs}):
        screens = [s for r in runs if r["players"] == players for s in r["screens"]]
        spent = sum(step["turns"] for s in screens for step in s["steps"])
        spent += sum(look["turns"] for s in screens for g in s["glances"] for look in g["looks"])
        passes = sum(s["passed"] for s in screens)
        whole = sum(r.get("turns", 0) for r in runs if r["players"] == players)  # older records lack it
        print(f"{players} seats: {len(screens)} screens, {passes} passed, {spent:,} turns in screens "
              f"of {whole:,} in the runs ({whole / max(passes, 1):,.0f} a passing pair)")
        for k, share in enumerate(glances):
            spared, lost, dropped = 0, 0, 0
            for s in screens:
                looks = s["glances"][k]["looks"]
                if looks[-1]["odds"] >= SCREEN_FUTILITY:
                    continue  # the glance keeps the pair: the steps play as before
                dropped += 1
                lost += s["passed"]
                # all the turns the pair cost (every recorded glance is a prefix of the steps' games),
                # less what it had cost up to this glance
                total = sum(look["turns"] for g in s["glances"] for look in g["looks"])
                total += sum(step["turns"] for step in s["steps"])
                upto = sum(look["turns"] for g in s["glances"][:k + 1] for look in g["looks"])
                spared += total - upto
            print(f"  glance {share:.4f}: drops {dropped} pairs, spares {spared:,} turns "
                  f"({100 * spared / max(spent, 1):.1f}%), drops {lost} of {passes} passing pairs")
        if not any("odds" in step for s in screens for step in s["steps"]):
            continue  # recorded before the steps' odds were
        for threshold in (0.05, 0.1, 0.15, 0.2, 0.3):
            spared, lost = 0, 0
            for s in screens:
                steps = s["steps"]
                final = s["sizes"][-1]
                for j, step in enumerate(steps):
                    if step["games"] < final and step.get("odds", 1.0) < threshold:
                        spared += sum(later["turns"] for later in steps[j + 1:])
                        lost += s["passed"]
                        break
            print(f"  odds below {threshold:.2f} at any step: spares {spared:,} turns "
                  f"({100 * spared / max(spent, 1):.1f}%), drops {lost} of {passes} passing pairs")


if __name__ == "__main__":
    main()
