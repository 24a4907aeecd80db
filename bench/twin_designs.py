"""More than twin games: how much a dice set is worth when it is played under more seat-stream
assignments than a game and its twin.

    python bench/twin_designs.py BOARD.json [BOARD.json ...] [--players greedy,solitary] [--sets 1200]

Four-seat boards of two classes (seats 0 and 2 against 1 and 3). Each dice set is four streams of
rolls (``terragen.terrain.sim.dice.pair_blocks``, as the generator's twin games use). A design plays
the set under several assignments of the streams to the seats, the set's opener being whichever
seat holds stream ``set mod 4``; the set's estimate of the first class's share of the wins is the
mean over its games. Designs: ``indep`` (one game a set), ``twin`` (the generator's: the game and its
twin, streams handed 0<->1 and 2<->3), ``splits`` (one game for each of the six ways of giving the
first class two of the four streams) and ``all`` (all 24 assignments, on a quarter of the sets).
Printed per design: what one of its games is worth in independent games for the same standard error,
``m (1 - m) / (variance of a set's mean * games a set)``.
"""

from __future__ import annotations

import argparse
import itertools
import statistics

from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules
from terragen.terrain.sim.dice import PairedDice, pair_blocks
from terragen.terrain.sim.engine import play_game
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.runner import _UNREAD, _setup_and_tables

SEED = 777
FIRST_CLASS = (0, 2)


def designs(n: int) -> dict[str, list[tuple[int, ...]]]:
    """Each design's assignments: seat ``s`` rolls stream ``p[s]``."""
    perms = list(itertools.permutations(range(n)))
    splits: dict[frozenset, tuple[int, ...]] = {}
    for p in perms:
        splits.setdefault(frozenset(p[s] for s in FIRST_CLASS), p)
    return {"indep": [tuple(range(n))], "twin": [tuple(range(n)), tuple(s ^ 1 for s in range(n))],
            "splits": list(splits.values()), "all": perms}


def measure(path: str, policy: str, sets: int) -> list[str]:
    layout = load_layout(path)
    rules = Rules()
    setup, template = _setup_and_tables(layout, rules)
    n = setup.players
    if n != 4:
        raise SystemExit(f"{path}: four-seat boards only ({n} seats)")
    players = [load_policy(policy)] * n
    plans = designs(n)
    means: dict[str, list[float]] = {name: [] for name in plans}
    for j in range(sets):
        firsts = pair_blocks(SEED, j, n)
        played: dict[tuple[int, ...], float] = {}

        def first_class_won(p: tuple[int, ...]) -> float:
            if p not in played:
                first = p.index(j % n)
                dice = PairedDice(SEED, j, p, [(first + k) % n for k in range(n)], firsts)
                game = play_game(setup, rules, players, _UNREAD, dice, first_seat=first, template=template)
                played[p] = 1.0 if game.winners and game.winners[0] in FIRST_CLASS else 0.0
            return played[p]

        for name, plan in plans.items():
            if name != "all" or j < sets // 4:
                means[name].append(sum(first_class_won(p) for p in plan) / len(plan))
    lines = []
    for name, plan in plans.items():
        xs = means[name]
        m, v = statistics.mean(xs), statistics.pvariance(xs)
        worth = m * (1 - m) / (v * len(plan)) if v > 0 else float("inf")
        lines.append(f"{path.rsplit('/', 1)[-1]:36s} {policy:8s} {name:6s} {len(plan):2d} games a set, {len(xs):5d} sets, "
                     f"first class {m:.4f}: a game worth {worth:.2f} independent games")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--players", default="greedy,solitary")
    ap.add_argument("--sets", type=int, default=1200)
    args = ap.parse_args()
    for board in args.boards:
        for policy in args.players.split(","):
            print("\n".join(measure(board, policy, args.sets)), flush=True)


if __name__ == "__main__":
    main()
