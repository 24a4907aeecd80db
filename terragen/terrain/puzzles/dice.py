"""Dice puzzles: a given list of rolls; in exactly one way the token ends a turn on the goal.

Definition of "a way" (recorded in every scenario's solution): the sequence of
cells the token ends each turn on, from the first roll up to the turn it ends
on the goal. A turn may spend any or none of its points (ending where it began
is a legal turn end), and the puzzle stops when the goal is reached. Each
roll's budget follows the rules: the white die, halved (rounded down) in bad
weather (odd red), since every cost doubles. Rolls never contain doubles (a
double allows no move). The solver counts ways by DP over (turn, cell) with
the goal absorbing; unique iff the count is exactly 1. Within a turn the
cheapest path to the turn's end cell is drawn in the answer key.
"""

from __future__ import annotations

import random

from terragen.grids import hex as hx
from terragen.terrain.board import Board
from terragen.terrain.paths import costs_from
from terragen.terrain.puzzles.grading import grade, in_band, preset
from terragen.terrain.puzzles.model import Puzzle, board_layout, hexes, puzzle_rng, random_board
from terragen.terrain.puzzles.route import cheapest_route
from terragen.terrain.puzzles.solver import COUNT_CAP
from terragen.terrain.rules import BAD_WEATHER_FACTOR, is_bad_weather

Roll = tuple[int, int]  # (white, red)


def budget(roll: Roll) -> int:
    white, red = roll
    return white // BAD_WEATHER_FACTOR if is_bad_weather(red) else white


def count_ways(board: Board, start: int, goal: int, rolls: list[Roll],
               reach: dict[tuple[int, int], dict[int, int]] | None = None) -> tuple[int, list[int] | None, int, int]:
    """(number of ways (capped), the way if exactly one else None, dead ends, states visited).

    ``reach`` caches ``(cell, budget) -> {cell: cost}``; dead ends count the
    turn-end cells after the last roll that are not the goal.
    """
    reach = {} if reach is None else reach
    layer: dict[int, int] = {start: 1}
    back: list[dict[int, int]] = []  # per turn: cell -> predecessor (valid when ways == 1)
    finished = 0
    last_pred = None
    states = 0
    for roll in rolls:
        b = budget(roll)
        nxt: dict[int, int] = {}
        pred: dict[int, int] = {}
        for i, w in sorted(layer.items()):
            states += 1
            key = (i, b)
            if key not in reach:
                reach[key] = costs_from(board, i, limit=b)
            for j in reach[key]:
                if j == goal:
                    finished = min(COUNT_CAP, finished + w)
                    last_pred = (len(back), i)
                else:
                    nxt[j] = min(COUNT_CAP, nxt.get(j, 0) + w)
                    pred[j] = i
        back.append(pred)
        layer = nxt
    way = None
    if finished == 1 and last_pred is not None:
        t, cell = last_pred
        ends = [goal]
        for s in range(t - 1, -1, -1):
            ends.append(cell)
            cell = back[s][cell]
        way = ends[::-1] if cell == start else None
    return finished, way, len(layer), states


def make_dice(difficulty: str, seed: int, index: int, max_boards: int = 400) -> Puzzle | None:
    """A dice puzzle for scenario ``index`` of ``seed``, or None if no board fits."""
    p = preset("dice", difficulty)
    rng = puzzle_rng(seed, index, "dice")
    for _ in range(max_boards):
        board = random_board(rng, p["radius"], p["roughness"])
        corner = rng.randrange(6)
        start = board.index[hx.corner(board.radius, corner)]
        rolls = _rolls(rng, p["rolls"], p["bad_weather"])
        reach: dict = {}
        options = [g for g in range(len(board)) if g != start and board.passable(g)]
        rng.shuffle(options)
        for goal in options[:20]:
            count, way, dead, states = count_ways(board, start, goal, rolls, reach)
            if count != 1 or way is None or len(way) != len(rolls):
                continue  # unique, and every roll is needed
            if _dead_roll(board, start, rolls, way, reach):
                continue
            puzzle = _puzzle(board, corner, start, goal, rolls, way, dead, states, difficulty, seed, index)
            if in_band(puzzle.metrics["grade"], p["grade"]):
                return puzzle
    return None


def _dead_roll(board: Board, start: int, rolls: list[Roll], way: list[int],
               reach: dict[tuple[int, int], dict[int, int]]) -> bool:
    """Whether a roll of the answer leaves the token no move at all, so its "stay" is forced: such a
    roll is in the puzzle for nothing (about one dice puzzle in five had one; a hard one's two bad
    rolls both dead made it two good rolls). ``reach`` holds every (cell, budget) the count visited."""
    at = start
    for roll, end in zip(rolls, way):
        key = (at, budget(roll))
        ends = reach[key] if key in reach else costs_from(board, at, limit=key[1])
        if not set(ends) - {at}:
            return True
        at = end
    return False


def _rolls(rng: random.Random, n: int, bad: int) -> list[Roll]:
    out = []
    bad_turns = set(rng.sample(range(n), bad))
    for t in range(n):
        while True:
            white, red = rng.randint(1, 6), rng.randint(1, 6)
            if white != red and is_bad_weather(red) == (t in bad_turns) and (t not in bad_turns or white >= 2):
                break
        out.append((white, red))
    return out


def _puzzle(board: Board, corner: int, start: int, goal: int, rolls: list[Roll], way: list[int], dead: int,
            states: int, difficulty: str, seed: int, index: int) -> Puzzle:
    layout = board_layout(board, corner, goal)
    legs = []
    cost = 0
    cur = start
    for roll, end in zip(rolls, way):
        dist = costs_from(board, cur, limit=budget(roll))
        leg = cheapest_route(board, cur, end, dist)
        legs.append({"end": list(board.hexes[end]), "cost": dist[end], "path": hexes(board, leg)})
        cost += dist[end]
        cur = end
    m = {"rolls": len(rolls), "bad_weather": sum(is_bad_weather(r) for _, r in rolls), "cost": cost,
         "dead_ends": dead, "work": states, "budget": sum(budget(r) for r in rolls)}
    m["grade"] = grade("dice", m)
    sq, sr = board.hexes[start]
    gq, gr = board.hexes[goal]
    roll_txt = ", ".join(f"white {w} red {r} ({'bad' if is_bad_weather(r) else 'good'} weather)" for w, r in rolls)
    question = (f"Dice: from corner {corner} at ({sq},{sr}) reach the goal at ({gq},{gr}) with these rolls, in "
                f"order: {roll_txt}. End one turn on the goal. A turn may use only some of its points, or none (it "
                "may end where it began); only where a turn ends counts, so passing over the goal does not. "
                "Exactly one sequence of turn-end cells works: find it.")
    return Puzzle("dice", difficulty, seed, index, layout, question,
                  {"start": [sq, sr], "goal": [gq, gr],
                   "rolls": [{"white": w, "red": r, "weather": "bad" if is_bad_weather(r) else "good",
                              "budget": budget((w, r))} for w, r in rolls]},
                  {"ends": [leg["end"] for leg in legs], "legs": legs, "cost": cost,
                   "definition": "a way is the sequence of cells the token ends each turn on; "
                                 "a turn may end where it began; the goal ends the puzzle"},
                  m)
