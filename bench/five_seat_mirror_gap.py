"""Five seats on mirrored terrain with mirrored destinations: how far apart do a seat and its image win?

    python bench/five_seat_mirror_gap.py 5 medium 741 20000 60   # players difficulty seed games seconds

A five-seat board is a mirror image of itself (corners 0-4 taken, the mirror through corners 2 and
5), so seats 0 and 4, and 1 and 3, play the same terrain. The mirror reverses the order of play,
though: the seat just after 0 is its neighbour 1, the seat just after 4 is the empty corner's far
side. Whether the two seats of a pair can be tuned as one class (as the 4- and 6-seat search does
with seats a turn relates) depends on how far apart they win when their destinations are images
of each other too. The generator is run with its balancing replaced: each terrain, with the
destinations as built (mirrored), is played ``games`` greedy and ``games`` solitary games on a
seed of its own and then given up, so the run walks through terrains until ``seconds``. Printed
per terrain: the rates, the race model's (which has no meeting tokens and so calls a pair equal),
and each pair's gap. The gap of two seats' rates on 20,000 games has a noise of about 0.45 points.

With ``--order 0,2,4,1,3`` (a sixth argument) the same destinations are also played with the seats in
that order of corners (the k-th seat to play sits on the k-th corner listed), on the same seed, and the
gaps of the same mirrored corners are printed for it: whether an order in which corner neighbours do
not play one after the other shrinks what the mirror's reversal of the order does.
"""
import json
import sys
from dataclasses import replace

from terragen.errors import TimeLimitError
from terragen.terrain.generate import balance as B, generate_board
from terragen.terrain.generate.fresh_checks import simulated_rates
from terragen.terrain.generate.options import build_spec

ORDER = None


def measure_as_built(self):
    """Stands in for Balancer.balance: measure the mirrored destinations, then give the terrain up."""
    mirror = self.cand.mirror
    layout = self.to_layout(self.cand)
    out = {"attempt": self.attempt, "mirrored": mirror.is_symmetric(self.cand), "classes": mirror.classes}
    for policy in ("greedy", "solitary"):
        rates, _ = simulated_rates(layout, GAMES, 777_000 + self.attempt, policy, self.should_stop, self.pool)
        points = [round(100 * r, 2) for r in rates]
        out[policy] = points
        out[policy + "_gaps"] = [round(abs(points[c[0]] - points[c[-1]]), 2) for c in mirror.classes if len(c) == 2]
    out["race"] = [round(100 * r, 2) for r in self.modelled(self.cand.dests)]
    if ORDER:
        # seat k of the new order plays the corner ORDER[k] (and that corner's destinations)
        by_corner = {p.corner: p for p in layout.players}
        reordered = layout.copy()
        reordered.players = [replace(by_corner[c], seat=k) for k, c in enumerate(ORDER)]
        for policy in ("greedy", "solitary"):
            rates, _ = simulated_rates(reordered, GAMES, 777_000 + self.attempt, policy, self.should_stop, self.pool)
            corner_rate = {c: 100 * rates[k] for k, c in enumerate(ORDER)}
            points = [round(corner_rate[by_corner_seat.corner], 2) for by_corner_seat in layout.players]
            out[policy + "_reordered"] = points
            out[policy + "_reordered_gaps"] = [round(abs(points[c[0]] - points[c[-1]]), 2)
                                               for c in mirror.classes if len(c) == 2]
    print(json.dumps(out), flush=True)
    return None


if __name__ == "__main__":
    players, difficulty, seed, GAMES = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    ORDER = [int(c) for c in sys.argv[6].split(",")] if len(sys.argv) > 6 else None
    B.Balancer.balance = measure_as_built
    spec, _ = build_spec({"players": players, "difficulty": difficulty}, None)
    try:
        generate_board(spec, seed=seed, time_limit=float(sys.argv[5]), workers=None, best_effort=False,
                       budget=10**12)
    except TimeLimitError:
        pass
