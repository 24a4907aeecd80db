"""Does how easily a class's route can be cut near its end tell the experts' class gap?

    python bench/expert_gap_static.py BOARD.json [BOARD.json ...] [--games 4000] [--seed 97500]

Every board must be a two-class board the generator wrote (4 or 6 seats; ``meta.symmetry`` names the
classes). The experts' gap (the first class's pooled win rate minus a fair share, in points) is what
an expert defence makes of the board (``bench/README.md``, "What makes the experts' class gap"), and
a defender turns the piece of the leader's route that costs it most once it stands within
``DEFEND_WITHIN`` expected turns of the end. So the idea measured here: a class whose last cells can
be cut more dearly loses more under defence, and static features of the starting board, costing
milliseconds, might tell the gap where models of the games cost seconds.

For each seat, on the starting board, its token's cheapest route from its corner to its destination
(the expert's own tie-break), and for each route cell the most a single turn of that piece raises the
token's exact expected turns there (capped at 20; the expert's own ``_local`` value):

- ``sum_near`` / ``max_near`` / ``n_near``: the sum, largest, and number at least 1, over route cells
  within ``DEFEND_WITHIN`` expected turns of the end (where an expert defends);
- ``sum_near6``: the same within ``DEFEND_WITHIN + 2``; ``sum_all``: over the whole route;
- ``critical``: the seat's rotation-critical pieces (``meta.seats[].fragility``);
- ``start_et``: its expected turns from the start.

Each feature's class difference (first class's mean minus the other's) is then correlated with the
experts' gap, measured on ``--games`` expert games.
"""

from __future__ import annotations

import argparse
import json
import math

from terragen.terrain.files import load_layout
from terragen.terrain.sim.lone_chain import LoneSeat
from terragen.terrain.sim.policies import DEFEND_WITHIN, INF, _turns, load_policy
from terragen.terrain.sim.pool import GamePool
from terragen.terrain.sim.runner import simulate_layout
from terragen.terrain.sim.variants import Rules
from twin_games import classes  # bench/ is on the path when run as a script

LOSS_CAP = 20.0  # a turn that cuts the route counts as this many expected turns lost


def seat_features(layout, seat: int, fragility: int) -> dict[str, float]:
    """The features above for one seat's token alone on the starting board."""
    expert = load_policy("expert")
    one = layout.copy()
    one.players = [layout.players[seat]]
    lone = LoneSeat(one, Rules(), expert)
    game = lone.standing((), lone.start, 0)
    groups = game.setup.groups[0]
    table = game.cache.table(groups)[0]
    tour = game.cache.tours(groups, 0, False)
    arcs, rank, board = game.cache.arcs, game.setup.rank[0], game.board
    route, cell = [lone.start], lone.start
    while tour[cell] > 0 and len(route) < 60:
        cell = min((j for j, c, _ in arcs[cell] if tour[j] + c == tour[cell]), key=rank.__getitem__, default=None)
        if cell is None:
            break
        route.append(cell)
    loss = {}
    for c in route:
        if table[c] in (0, INF):
            continue
        loss[c] = max((min(expert._local(game, c, exits, 0), table[c] + LOSS_CAP) - table[c]
                       for _, exits in _turns(board.pattern[c], board.rotation[c], 1) if exits != board.mask[c]),
                      default=0.0)
    near = [loss[c] for c in loss if table[c] <= DEFEND_WITHIN]
    return {"sum_near": sum(near), "max_near": max(near, default=0.0), "n_near": sum(x >= 1 for x in near),
            "sum_near6": sum(loss[c] for c in loss if table[c] <= DEFEND_WITHIN + 2),
            "sum_all": sum(loss.values()), "critical": fragility, "start_et": table[lone.start]}


def correlation(xs: list[float], ys: list[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=97500)
    args = ap.parse_args()
    pool = GamePool(None)
    gaps, diffs = [], []
    for path in args.boards:
        first, second = classes(path)
        layout = load_layout(path)
        fragility = [s["fragility"] for s in json.load(open(path))["meta"]["seats"]]
        report = simulate_layout(layout, games=args.games, seed=args.seed, policy="expert", pool=pool)
        n = len(report.seats)
        gap = 100 * (sum(report.seats[s].rate for s in first) / len(first) - 1 / n)
        feats = [seat_features(layout, s, fragility[s]) for s in range(n)]
        diff = {k: sum(feats[s][k] for s in first) / len(first) - sum(feats[s][k] for s in second) / len(second)
                for k in feats[0]}
        gaps.append(gap)
        diffs.append(diff)
        print(json.dumps({"board": path, "expert_gap": round(gap, 2), **{k: round(v, 2) for k, v in diff.items()}}),
              flush=True)
    pool.close()
    print(f"\n{len(gaps)} boards, {args.games} expert games each (seed {args.seed}); experts' gap: mean "
          f"{sum(gaps) / len(gaps):+.2f}, mean size {sum(map(abs, gaps)) / len(gaps):.2f} points")
    print("| class difference of | correlation with the experts' gap |\n|---|---:|")
    for k in diffs[0]:
        print(f"| {k} | {correlation([d[k] for d in diffs], gaps):+.2f} |")


if __name__ == "__main__":
    main()
