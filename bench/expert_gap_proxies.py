"""Which part of the expert player makes its seat classes' gap, and what cheaper player shows it.

    python bench/expert_gap_proxies.py BOARD.json [BOARD.json ...] [--games 4000] [--seed 424242]
                                       [--players greedy,solitary,defender6,hybrid,hybrid-stale,expert]

Every board must be a two-class board the generator wrote (4 or 6 seats; its ``meta.symmetry`` names
the classes). Each kind of player plays the same ``--games`` games (same seed, so the same dice
for the same turns) and the script prints, per board, the first class's pooled win rate minus a
fair share, in points, and the CPU seconds it took; then each kind's correlation with the
experts' gap over the boards, its mean miss and its cost against the experts'.

The kinds besides the simulator's own (defined here, not in the package: they are instruments):

- ``defender<P>``: greedy moves and greedy turns of its own route, and a defence like the expert's
  judged by greedy's tour costs: when the leader is ahead and at most P points from finishing, the
  turn of a piece of the leader's route that raises its cost most (less what it costs itself).
- ``hybrid``: greedy's moves with the expert's turns on doubles (offence and defence, exact tables).
- ``hybrid-stale``: the same, its turns judged on the starting board's exact tables, never updated.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules
from terragen.terrain.sim.policies import INF, ExpertPolicy, GreedyPolicy, _leader, _route, _turns, load_policy, tour_cost
from terragen.terrain.sim.runner import forget_tables, run_games
from twin_games import classes  # the board's seat classes (bench/ is on the path when run as a script)

#: a defence raises a leader's cost by at most this much (a closed route counts as this detour)
DETOUR_CAP = 12


class GreedyDefender(GreedyPolicy):
    """Greedy, defending by tour costs against a leader within ``points`` of finishing."""

    decides_by_board = True
    rotates_by_board = False

    def __init__(self, points: float) -> None:
        self.points = points

    def choose_rotation(self, state, seat, roll, options):
        who = _leader(state, seat)
        if who is not None:
            theirs = tour_cost(state, who, state.pos[who], state.collected[who])
            mine = tour_cost(state, seat, state.pos[seat], state.collected[seat])
            if theirs < mine and theirs <= self.points:
                act = self._defend(state, seat, who)
                if act is not None:
                    return act
        return self._own_rotation(state, seat)

    @staticmethod
    def _defend(state, seat, who):
        b = state.board
        exits_as = state.cache.exits_as
        theirs = state.cache.tours(state.setup.groups[who], state.collected[who])
        mine = state.cache.tours(state.setup.groups[seat], state.collected[seat])
        own_route = set(_route(state, seat))
        best, choice = 0.0, None
        for cell in _route(state, who)[1:]:
            if state.gain(who, cell) != state.collected[who]:
                break
            if theirs[cell] == INF:
                continue
            for rot, m in _turns(b.pattern[cell], b.rotation[cell], state.setup.hand[seat]):
                if m == b.mask[cell]:
                    continue
                via = min((c + theirs[j] for j, c in exits_as(cell, m)), default=INF)
                score = min(via, theirs[cell] + DETOUR_CAP) - theirs[cell]
                if cell in own_route and mine[cell] < INF:
                    own = min((c + mine[j] for j, c in exits_as(cell, m)), default=INF)
                    score -= min(own, mine[cell] + DETOUR_CAP) - mine[cell]
                if score > best:
                    best, choice = score, ("rotate", cell, rot)
        return choice


class Hybrid(ExpertPolicy):
    """Greedy's moves, the expert's turns on doubles."""

    decides_by_board = True
    rotates_alone_by_board = True

    def choose_move(self, state, seat, roll, options):
        return GreedyPolicy.choose_move(self, state, seat, roll, options)


def _at_start(cache) -> bool:
    return not cache._turned and not cache._flipped


class HybridStale(Hybrid):
    """:class:`Hybrid` judging its turns on the starting board's exact tables."""

    def choose_move(self, state, seat, roll, options):
        if _at_start(state.cache):  # make every seat's starting table while the board is as it began
            for s in range(state.players):
                state.cache.table(state.setup.groups[s])[state.collected[s]]
        return GreedyPolicy.choose_move(self, state, seat, roll, options)

    def _table(self, state, seat):
        start = state.cache._states.get((frozenset(), frozenset()))
        table = start.tables.get(state.setup.groups[seat]) if start is not None else None
        if table is None:
            raise RuntimeError("the starting board's table was never made")
        return table

    def _local(self, state, cell, mask, seat):
        return self._find_local(state, cell, mask, seat)


def make_player(name: str):
    if name.startswith("defender"):
        return GreedyDefender(float(name[len("defender"):]))
    if name == "hybrid":
        return Hybrid()
    if name == "hybrid-stale":
        return HybridStale()
    return load_policy(name)


def class_gap(path: str, name: str, games: int, seed: int) -> tuple[float, float]:
    """(first class's pooled rate minus a fair share in points, CPU seconds)."""
    seats = classes(path)[0]
    layout = load_layout(path)
    n = len(layout.players)
    forget_tables()
    began = time.process_time()
    results = run_games(layout, Rules(), [make_player(name) for _ in range(n)], seed, 0, games)
    cpu = time.process_time() - began
    wins = sum(1 for r in results if r.winners and r.winners[0] in seats)
    return 100 * (wins / len(seats) / games - 1 / n), cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=424242)
    ap.add_argument("--players", default="greedy,solitary,defender6,hybrid,hybrid-stale,expert")
    args = ap.parse_args()
    names = args.players.split(",")
    rows = []
    for path in args.boards:
        row = {"board": path}
        for name in names:
            gap, cpu = class_gap(path, name, args.games, args.seed)
            row[name], row[name + " cpu"] = round(gap, 2), round(cpu, 1)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if "expert" in names and len(rows) > 2:
        experts = [r["expert"] for r in rows]
        print(f"\n{len(rows)} boards, {args.games} games each; experts' gap: mean size "
              f"{statistics.mean(abs(e) for e in experts):.2f} points")
        print("| player | correlation with the experts' gap | mean miss (points) | CPU against the experts' |")
        print("|---|---:|---:|---:|")
        expert_cpu = sum(r["expert cpu"] for r in rows)
        for name in names:
            if name == "expert":
                continue
            xs = [r[name] for r in rows]
            print(f"| {name} | {statistics.correlation(xs, experts):+.2f} | "
                  f"{statistics.mean(abs(x - e) for x, e in zip(xs, experts)):.2f} | "
                  f"{sum(r[name + ' cpu'] for r in rows) / expert_cpu:.2f} |")


if __name__ == "__main__":
    main()
