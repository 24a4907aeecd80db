"""Order of play as a lever for a five-seat board: screen the 24 orders on one seed, judge the pick on another.

    python bench/five_seat_play_order.py BOARD.json [--screen 4000] [--truth 16000]

The rulebook ties no corner to a place in the order of play, so a board's seats could be reordered
(the corners and destinations kept, who plays after whom changed). Each of the 24 orders (the first
seat fixed: openers rotate, so a turn of the order is the same order) is played by greedy and
solitary players on ``--screen`` games of one seed; the order with the least sum of squared distances
from a fair share is then played beside the board's own order on ``--truth`` games of a seed the
screen never used. Prints the worst seat (points) of each, per corner, for both kinds of player.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import tempfile
from pathlib import Path

from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules
from terragen.terrain.sim.runner import run_games

SCREEN_SEED, TRUTH_SEED = 4242, 90909


def rates(layout, policy: str, games: int, seed: int) -> list[float]:
    wins = [0.0] * len(layout.players)
    for game in run_games(layout, Rules(), [policy] * len(layout.players), seed, 0, games):
        for s in game.winners:
            wins[s] += 1 / len(game.winners)
    return [w / games for w in wins]


def measure(data: dict, order: tuple[int, ...], games: int, seed: int, folder: Path) -> dict[str, list[float]]:
    """Rates per original seat (its corner and destinations) with the seats playing in ``order``."""
    board = copy.deepcopy(data)
    board["players"] = [dict(data["players"][i], seat=k) for k, i in enumerate(order)]
    path = folder / "order.json"
    path.write_text(json.dumps(board))
    layout = load_layout(path)
    out = {}
    for policy in ("greedy", "solitary"):
        played = rates(layout, policy, games, seed)
        per_seat = [0.0] * len(order)
        for k, i in enumerate(order):
            per_seat[i] = played[k]
        out[policy] = per_seat
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("board", type=Path)
    ap.add_argument("--screen", type=int, default=4000)
    ap.add_argument("--truth", type=int, default=16000)
    args = ap.parse_args()
    data = json.loads(args.board.read_text())
    data.pop("meta", None)
    n = len(data["players"])
    fair = 1 / n

    def worst(m: dict, policy: str) -> float:
        return 100 * max(abs(r - fair) for r in m[policy])

    orders = [(0, *rest) for rest in itertools.permutations(range(1, n))]
    with tempfile.TemporaryDirectory() as tmp:
        screened = {o: measure(data, o, args.screen, SCREEN_SEED, Path(tmp)) for o in orders}
        pick = min(orders, key=lambda o: sum((r - fair) ** 2 for rs in screened[o].values() for r in rs))
        own = tuple(range(n))
        for o in orders:
            print(o, " ".join(f"{worst(screened[o], p):5.2f}" for p in ("greedy", "solitary")))
        truth = {o: measure(data, o, args.truth, TRUTH_SEED, Path(tmp)) for o in (own, pick)}
    for label, o in (("the board's order", own), (f"picked {pick}", pick)):
        print(f"{label}: {args.truth} fresh games, worst seat greedy {worst(truth[o], 'greedy'):.2f}, "
              f"solitary {worst(truth[o], 'solitary'):.2f} points")


if __name__ == "__main__":
    main()
