"""Experts on two-class boards: does the solo-expert race tell how far apart the classes win?

    python bench/expert_gap_model.py 4 medium,hard 1601 1602 1603 1604    # players presets seeds...

The class search (4 and 6 seats) balances greedy and solitary players but not experts, whose
imbalance is one number per board, the gap between the two classes. The cheapest model that could
rank pairs for experts is the one that works for greedy players: each class's first seat playing
alone, here as an expert (moves by exact expected turns, turns pieces of its own route on doubles;
alone it has no leader to defend against, so its lone game is a chain like greedy's,
``sim/lone_chain.py``). For every pair the search simulated on all its tuning games, this prints
the first class's distance from fair (points a seat) by the race model, the solo-greedy race, the
solo-expert race, and as simulated for greedy, solitary and expert players (``GAMES`` fresh games,
2,400 by default), plus what the expert games cost beside greedy ones.

A fourth model adds what moves experts, their defence, in mean field (``defended``): the lone
expert's chain, where after each of its turns, once its token stands within ``DEFEND_WITHIN`` expected
turns of finishing, some opponent rolls a double with chance 1 - (5/6)^(seats - 1) and turns the piece
of its route that costs it most, as an expert defender does against a leader (the defender's own gain
left out, at most ``MAX_TURNED`` pieces turned per board state); now in the library as
:mod:`terragen.terrain.sim.defended_chain`. ``TURNED=1,2`` also prints it with those limits (and its
time per pair), for the cost of the chain against its accuracy.
"""

from __future__ import annotations

import json
import os
import sys
import time

from terragen.terrain.generate import class_search as CS
from terragen.terrain.generate import generate_board
from terragen.terrain.generate.options import build_spec
from terragen.terrain.race import SeatRace, race_of
from terragen.terrain.sim import defended_chain as DC
from terragen.terrain.sim import lone_chain as LC
from terragen.terrain.sim.defended_chain import defended_chain
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.pool import GamePool
from terragen.terrain.sim.runner import simulate_layout
from terragen.terrain.sim.variants import Rules

GAMES = int(os.environ.get("GAMES", "2400"))
#: other limits on the pieces turned per board state to print the defended race at too (TURNED=1,2)
TURNED = [int(t) for t in os.environ.get("TURNED", "").split(",") if t]


def watch(pairs: list[dict]):
    """A ``_learn_class_offsets`` that keeps every pair played on at least 1,000 tuning games."""
    learn = CS.ClassSearch._learn_class_offsets

    def spy(self, dests, *tallies):
        learn(self, dests, *tallies)
        if len(tallies) == 2 and tallies[0].played >= 1000 and tallies[1].played:
            a = self.classes[0][0]
            pairs.append({"layout": self.to_layout(self.cand), "classes": self.classes, "fair": self.fair,
                          "race": self.modelled(dests)[a], "solo_greedy": self.class_solo_model(dests)[a],
                          "greedy": self.pooled(tallies[0].rates)[a], "solitary": self.pooled(tallies[1].rates)[a]})

    return spy


def win_chances(cdfs: list[tuple[float, ...]]) -> list[float]:
    """Independent tokens with these finishing rounds, in seat order, the opener rotating (the race model's
    combination, :func:`terragen.terrain.race.race_of`)."""
    races = [SeatRace(seat, cdf, sum(1 - f for f in cdf)) for seat, cdf in enumerate(cdfs)]
    return list(race_of(races).win_probability_rotating)


def class_share(layout, cls: list[int], cdf_of) -> float | None:
    """The first class's share when each seat's token finishes as ``cdf_of(its one-seat layout)``
    says, independently (None when a seat's chain grows too large)."""
    cdfs = []
    for seat in range(len(layout.players)):
        one = layout.copy()
        one.players = [layout.players[seat]]
        cdf = cdf_of(one)
        if cdf is None:
            return None
        cdfs.append(cdf)
    win = win_chances(cdfs)
    return sum(win[s] for s in cls) / len(cls)


def solo_expert(layout, cls: list[int]) -> float | None:
    """The first class's share by the solo-expert race (alone, an expert's turns depend on the board only)."""
    expert = load_policy("expert")

    def lone(one):
        chain = LC.lone_chain(one, Rules(), expert)
        return None if chain is None else chain.cdf

    return class_share(layout, cls, lone)


def defended(layout, cls: list[int]) -> float | None:
    """The first class's share by the defended solo-expert race (:mod:`terragen.terrain.sim.defended_chain`)."""
    opponents = len(layout.players) - 1

    def guarded(one):
        chain = defended_chain(one, opponents)
        return None if chain is None else chain.cdf

    return class_share(layout, cls, guarded)


def main() -> None:
    players, presets, seeds = int(sys.argv[1]), sys.argv[2].split(","), [int(s) for s in sys.argv[3:]]
    pairs: list[dict] = []
    CS.ClassSearch._learn_class_offsets = watch(pairs)
    for preset in presets:
        for seed in seeds:
            spec, _ = build_spec({"players": players, "difficulty": preset}, None)
            try:
                generate_board(spec, seed=seed, time_limit=60.0, workers=None)
            except Exception as exc:
                print(f"{players} {preset} {seed}: {type(exc).__name__}", file=sys.stderr)
    pool = GamePool(None)
    for k, pair in enumerate(pairs):
        cls, fair = pair["classes"][0], pair["fair"]
        clock = {}
        rates = {}
        for policy in ("greedy", "expert"):
            t0 = time.perf_counter()
            report = simulate_layout(pair["layout"], games=GAMES, seed=990_000 + k, policy=policy, pool=pool)
            clock[policy] = time.perf_counter() - t0
            rates[policy] = sum(report.seats[s].rate for s in cls) / len(cls)
        lone = solo_expert(pair["layout"], cls)
        guarded = defended(pair["layout"], cls)
        variants = {}
        for turned in TURNED:  # the defended race with other limits on pieces turned per board state
            keep, DC.MAX_TURNED = DC.MAX_TURNED, turned
            t0 = time.perf_counter()
            share = defended(pair["layout"], cls)
            variants[f"defended_turned_{turned}"] = None if share is None else round(100 * (share - fair), 2)
            variants[f"defended_turned_{turned}_seconds"] = round(time.perf_counter() - t0, 3)
            DC.MAX_TURNED = keep
        print(json.dumps({"pair": k, **{m: round(100 * (pair[m] - fair), 2) for m in
                                         ("race", "solo_greedy", "greedy", "solitary")},
                          "solo_expert": None if lone is None else round(100 * (lone - fair), 2),
                          "defended_solo_expert": None if guarded is None else round(100 * (guarded - fair), 2),
                          **variants,
                          "expert": round(100 * (rates["expert"] - fair), 2),
                          "fresh_greedy": round(100 * (rates["greedy"] - fair), 2),
                          "expert_cost_x_greedy": round(clock["expert"] / clock["greedy"], 1)}), flush=True)
    pool.close()


if __name__ == "__main__":
    main()
