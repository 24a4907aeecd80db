"""Twin games: how much less noise a class gap has when every game is played again with the seats'
dice handed to the other class.

    python bench/twin_games.py BOARD.json [BOARD.json ...] [--pairs 4000] [--expert-pairs 1000]
                               [--players greedy,solitary,expert]

Measured here with dice of its own (the generator's two-class samples play twin games since
2026-12-02 with ``terragen.terrain.sim.dice.PairedDice``, the same scheme). Each seat rolls from a stream of its own; game ``i`` opens with seat
``i mod n``; its twin hands seat ``s``'s stream to seat ``sigma(s)``, where ``sigma`` swaps the
k-th seat of the first class with the k-th of the second, and opens with ``sigma(i mod n)``. Both
games are fair games (every seat's rolls are uniform and independent, every seat opens equally often),
so the mean of the two is an unbiased estimate of the first class's rate; when the dice decide much of
a race the twin's winner tends to be in the other class, and the pair's mean is less noisy than two
independent games. The script prints the correlation ``rho`` of "the first class won" between a game
and its twin and ``1 / (1 + rho)``: how many independent games each game of a twin sample is worth
for the same standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import time

from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules
from terragen.terrain.sim.engine import play_game
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.runner import _UNREAD, _setup_and_tables, forget_tables


class SeatDice:
    """Dice that give each seat the next roll of its own stream (play goes round ``order``)."""

    def __init__(self, order: list[int], streams: list[random.Random]) -> None:
        self.order, self.streams, self.rolled = order, streams, 0

    def roll(self) -> tuple[int, int]:
        bits = self.streams[self.order[self.rolled % len(self.order)]].getrandbits
        self.rolled += 1
        r = bits(6)
        while r >= 36:
            r = bits(6)
        return r // 6 + 1, r % 6 + 1

    def green(self) -> int:
        raise RuntimeError("the main rules roll no green die")


def classes(path: str) -> list[list[int]]:
    data = json.load(open(path))
    groups = [[int(c) for c in g.split(",")] for g in re.findall(r"\{([\d, ]+)\}", data["meta"]["symmetry"])]
    seat_of = {p["corner"]: p["seat"] for p in data["players"]}
    return [sorted(seat_of[c] for c in g) for g in groups]


def twin_correlation(path: str, policy: str, pairs: int, shift: int = 0, reverse: bool = False) -> dict:
    first, second = classes(path)
    second = second[::-1] if reverse else second
    second = second[shift:] + second[:shift]  # which seat of the other class each seat is paired with
    sigma = {}
    for a, b in zip(first, second):
        sigma[a], sigma[b] = b, a
    layout = load_layout(path)
    forget_tables()
    setup, template = _setup_and_tables(layout, Rules())
    n = setup.players
    players = [load_policy(policy) for _ in range(n)]
    won = ([], [])
    began = time.process_time()
    for i in range(pairs):
        for twin in (0, 1):
            # seat t rolls stream t in the game and stream sigma(t) in its twin (sigma swaps seats two by two)
            opener = sigma[i % n] if twin else i % n
            streams = [random.Random(f"twin/{i}/{sigma[t] if twin else t}") for t in range(n)]
            order = [(opener + k) % n for k in range(n)]
            dice = SeatDice(order, streams)
            game = play_game(setup, Rules(), players, _UNREAD, dice, first_seat=opener, template=template)
            won[twin].append(1.0 if game.winners and game.winners[0] in first else 0.0)
    cpu = time.process_time() - began
    a, b = won
    ma, mb = sum(a) / pairs, sum(b) / pairs
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b)) / pairs
    va = sum((x - ma) ** 2 for x in a) / pairs
    vb = sum((y - mb) ** 2 for y in b) / pairs
    rho = cov / math.sqrt(va * vb) if va and vb else 0.0
    return {"board": path, "policy": policy, "pairs": pairs, "pairing": [[a, b] for a, b in zip(first, second)], "first_class_rate": round(ma, 4),
            "twin_first_class_rate": round(mb, 4), "rho": round(rho, 3), "worth": round(1 / (1 + rho), 2),
            "cpu": round(cpu, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--pairs", type=int, default=4000)
    ap.add_argument("--expert-pairs", type=int, default=1000)
    ap.add_argument("--players", default="greedy,solitary,expert")
    ap.add_argument("--pairings", action="store_true",
                    help="every way of pairing the classes' seats (the second class turned and reversed), each measured")
    args = ap.parse_args()
    for path in args.boards:
        for policy in args.players.split(","):
            pairs = args.expert_pairs if policy == "expert" else args.pairs
            k = len(classes(path)[1])
            ways = [(shift, rev) for rev in (False, True) for shift in range(k)] if args.pairings else [(0, False)]
            for shift, rev in ways:
                print(json.dumps(twin_correlation(path, policy, pairs, shift, rev)), flush=True)


if __name__ == "__main__":
    main()
