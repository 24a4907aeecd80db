"""How much noise cycles of dice take out of each seat's rate, and a class's, against twin pairs and
independent games (the generator's seat-by-seat samples: ``docs/generate-design.md``, "Cycles of dice").

    python bench/cycle_dice.py BOARD.json [BOARD.json ...] --games 10000 --policies greedy solitary expert

For each board and kind of player it plays ``--games`` games three ways on fresh seeds: cycles of
dice, twin pairs (when the board's record names its twin dice) and independent games, and prints the
variance of each seat's and of the first class's wins per block (a cycle, a pair, a game) against
what independent games give: the number of independent games each game is worth (above 1: less
noise). The class is the first of ``meta.seat_classes`` (none: seat 0 alone).
"""

from __future__ import annotations

import argparse
import math

from terragen.terrain.files import load_layout
from terragen.terrain.sim.runner import parse_twins, run_games, seat_numbers
from terragen.terrain.sim.variants import Rules


def worth(blocks: list[list], seats: int, members: set[int]) -> float:
    """Independent games per game for the count of ``members``' wins, from per-block winners."""
    size = len(blocks[0])
    counts = [sum(1.0 / len(w) for w in block for s in w if s in members) for block in blocks]
    mean = sum(counts) / len(counts)
    var = sum((c - mean) ** 2 for c in counts) / (len(counts) - 1)
    p = mean / size
    return size * p * (1 - p) / var if var > 0 else math.inf


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--policies", nargs="+", default=["greedy", "solitary"])
    ap.add_argument("--seed", type=int, default=4_400_000)
    args = ap.parse_args()
    print("board | players | design | first class | each seat")
    for path in args.boards:
        layout = load_layout(path)
        n = len(layout.players)
        meta = layout.extra.get("meta", {})
        first = set((meta.get("seat_classes") or [[0]])[0])
        checks = (meta.get("balance") or {}).get("verification") or [{}]
        twin_text = checks[0].get("twin_dice")
        games = args.games - args.games % (2 * n)
        for policy in args.policies:
            designs = {"cycles": (None, True, n), "independent": (None, False, 1)}
            if twin_text:
                designs["twin pairs"] = (parse_twins(twin_text, seat_numbers(layout)), False, 2)
            for k, (name, (twins, cycle, size)) in enumerate(designs.items()):
                played = run_games(layout, Rules(), [policy] * n, args.seed + k, 0, games, twins, cycle)
                blocks = [[g.winners for g in played[i:i + size] if g.winners] or [()] for i in range(0, games, size)]
                blocks = [[w for w in b if w] for b in blocks]
                blocks = [b for b in blocks if len(b) == size]
                seat_worth = [worth(blocks, n, {s}) for s in range(n)]
                print(f"{path} | {policy} | {name} | {worth(blocks, n, first):.2f} | "
                      + " ".join(f"{w:.2f}" for w in seat_worth), flush=True)


if __name__ == "__main__":
    main()
