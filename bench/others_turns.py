"""Greedy players' rates against models of the other seats' turns of pieces: the race model, the
exact solo-greedy race, that race on a board where the others' likeliest turns are already made,
and a mean field in which the others' turns come round by round.

    python bench/others_turns.py bench/boards/readme-4p-hard-seed1.json --games 3000

Why: what parts greedy players from the solo-greedy race (their own turns on doubles, exact since
2026-11-29) is mostly the *other* seats' turns (``bench/README.md``, "Five seats out of the box").
The cheapest model of those: every other seat's token alone (its exact lone chain) ends its race
with some pieces turned; take the likeliest such set per seat, make those turns before the race
starts, and work out this seat's lone chain on that board. It overstates them (a turn made late
cannot touch a seat that has passed the piece), so the mean of the two races is reported too. The
**mean field** times them: this seat's chain runs over boards made of its own turns and the others',
and after its move each round every other seat's turn of a piece is made with the chance that seat's
own lone chain gives it in that round (the seats taken as independent). Only turns that change this
seat's remaining cost somewhere its token goes are kept, and chances under 1e-3 a round are dropped:
without that the boards the turns combine into made one destination set take 100-220 s.

Seat 0's destination is moved over ``--candidates`` cells, every seat's rate is simulated with
greedy players (full rules, ``--games`` games), and the worst seat's distance from each model is
printed per cell and summed up per board.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import math
import statistics

from terragen.grids import hex as hx
from terragen.terrain.board import Board
from terragen.terrain.files import load_layout
from terragen.terrain.layout import Destination
from terragen.terrain.race import race_for_layout, race_of
from terragen.terrain.sim.lone_chain import LoneSeat, Turns, lone_chain
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.runner import run_games
from terragen.terrain.sim.variants import Rules

GREEDY = load_policy("greedy")
MODELS = ("race model", "solo-greedy race", "others' turns made first", "mean of the two", "mean field")
ROUNDS = 300
TAIL = 1e-6
MIN_CHANCE = 1e-3


def turn_chances(seat: LoneSeat) -> list[dict[tuple[int, int], float]]:
    """Per round, the chance that this seat's lone token turns each piece in that round."""
    mass: dict[tuple[Turns, int, int], float] = {((), seat.start, 0): 1.0}
    rounds = []
    for _ in range(ROUNDS):
        nxt: dict[tuple[Turns, int, int], float] = {}
        made: dict[tuple[int, int], float] = {}
        for state, m in mass.items():
            outcomes, turn = seat.step(*state)
            for p, turns, cell, mask in outcomes:
                if mask is not None:
                    nxt[(turns, cell, mask)] = nxt.get((turns, cell, mask), 0.0) + m * p
            if turn is not None:
                made[turn] = made.get(turn, 0.0) + m * outcomes[-1][0]
        rounds.append(made)
        mass = nxt
        if sum(mass.values()) < TAIL:
            break
    return rounds


def that_matter(seat: LoneSeat, rounds: list[dict]) -> list[dict]:
    """The turns that change this seat's remaining cost on a cell and collection its lone token meets."""
    met = set()
    mass = {((), seat.start, 0)}
    while mass:  # every (cell, collection) of the lone chain, on the start board's turns or its own
        state = mass.pop()
        if state[1:] in met:
            continue
        met.add(state[1:])
        mass.update((t, c, m) for _, t, c, m in seat.step(*state)[0] if m is not None and (c, m) not in met)
    start = seat.game(())
    keep: dict[tuple[int, int], bool] = {}
    out = []
    for made in rounds:
        kept = {}
        for turn, p in made.items():
            if p < MIN_CHANCE:
                continue
            if turn not in keep:
                board = seat.game(seat.turned((), *turn))
                keep[turn] = any(board.cache.tours(seat.groups, m)[c] != start.cache.tours(seat.groups, m)[c]
                                 for c, m in met)
            if keep[turn]:
                kept[turn] = p
        out.append(kept)
    return out


def mean_field_cdf(seat: LoneSeat, others: list[list[dict]]) -> tuple[float, ...]:
    mass: dict[tuple[Turns, int, int], float] = {((), seat.start, 0): 1.0}
    total, cdf = 0.0, [0.0]
    for t in range(ROUNDS):
        nxt: dict[tuple[Turns, int, int], float] = {}
        for state, m in mass.items():
            for p, turns, cell, mask in seat.step(*state)[0]:
                if mask is None:
                    total += m * p
                else:
                    nxt[(turns, cell, mask)] = nxt.get((turns, cell, mask), 0.0) + m * p
        for rounds in others:
            made = rounds[t] if t < len(rounds) else {}
            if not made:
                continue
            moved: dict[tuple[Turns, int, int], float] = {}
            for (turns, cell, mask), m in nxt.items():
                stay = m
                for turn, p in made.items():
                    key = (seat.turned(turns, *turn), cell, mask)
                    moved[key] = moved.get(key, 0.0) + m * p
                    stay -= m * p
                moved[(turns, cell, mask)] = moved.get((turns, cell, mask), 0.0) + max(stay, 0.0)
            nxt = moved
        cdf.append(min(total, 1.0))
        mass = nxt
        if 1.0 - total < TAIL:
            break
    return tuple(cdf)


def alone(layout, seat: int):
    one = copy.deepcopy(layout)
    one.players = [one.players[seat]]
    return one


def with_cdf(race, cdf):
    return dataclasses.replace(race, cdf=cdf, expected_rounds=sum(1 - f for f in cdf))


def predictions(layout) -> dict[str, list[float]]:
    n = len(layout.players)
    race = race_for_layout(layout)
    board = Board.from_layout(layout)
    chains = [lone_chain(alone(layout, s), Rules(), GREEDY) for s in range(n)]
    solo, first = [], []
    for s in range(n):
        solo.append(with_cdf(race.seats[s], chains[s].cdf))
        turned = alone(layout, s)
        cells = {(c.q, c.r): c for c in turned.cells}
        for x in range(n):
            if x != s and chains[x].turns_at_finish:
                for cell, rotation in chains[x].turns_at_finish[0][1]:
                    cells[board.hexes[cell]].rotation = rotation
        first.append(with_cdf(race.seats[s], lone_chain(turned, Rules(), GREEDY).cdf))
    out = {MODELS[0]: list(race.win_probability_rotating), MODELS[1]: list(race_of(solo).win_probability_rotating),
           MODELS[2]: list(race_of(first).win_probability_rotating)}
    out[MODELS[3]] = [(a + b) / 2 for a, b in zip(out[MODELS[1]], out[MODELS[2]])]
    seats = [LoneSeat(alone(layout, s), Rules(), GREEDY) for s in range(n)]
    chances = [turn_chances(seat) for seat in seats]
    field = [with_cdf(race.seats[s], mean_field_cdf(seats[s], [that_matter(seats[s], chances[x])
                                                                for x in range(n) if x != s]))
             for s in range(n)]
    out[MODELS[4]] = list(race_of(field).win_probability_rotating)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--candidates", type=int, default=16)
    ap.add_argument("--seed", type=int, default=77)
    args = ap.parse_args()
    for path in args.boards:
        layout = load_layout(path)
        n = len(layout.players)
        start = layout.start(layout.players[0])
        cells = [(c.q, c.r) for c in layout.cells if hx.distance((c.q, c.r), start) >= 4][::4]
        errors: dict[str, list[float]] = {m: [] for m in MODELS}
        for cell in cells[:args.candidates]:
            trial = copy.deepcopy(layout)
            trial.players[0].destinations = [Destination(*cell)]
            models = predictions(trial)
            if any(math.isnan(p) for ps in models.values() for p in ps):
                continue
            wins = [0.0] * n
            for game in run_games(trial, Rules(), ["greedy"] * n, args.seed, 0, args.games):
                for w in game.winners:
                    wins[w] += 1 / len(game.winners)
            rates = [w / args.games for w in wins]
            for name, ps in models.items():
                errors[name].append(max(abs(a - b) for a, b in zip(rates, ps)))
            print(f"  {cell}: simulated {' '.join(f'{100 * r:.1f}' for r in rates)}; worst-seat error "
                  + ", ".join(f"{name} {100 * e[-1]:.1f}" for name, e in errors.items()), flush=True)
        name = path.split("/")[-1]
        for model, e in errors.items():
            print(f"| {name} | {model} | {len(e)} | {100 * statistics.median(e):.2f} | {100 * statistics.mean(e):.2f} "
                  f"| {100 * max(e):.2f} |")


if __name__ == "__main__":
    main()
