"""Route puzzles: find the cheapest route from the start corner to the goal.

The answer is unique by proof: the number of cheapest routes is counted by DP
over the cheapest-path DAG (:func:`solver.count_cheapest`) and a puzzle is
kept only when that count is exactly 1. Decoys are the walks that cost one or
two points more than the answer: the near-misses a reader has to rule out.
"""

from __future__ import annotations

import random

from terragen.grids import hex as hx
from terragen.terrain.board import Board
from terragen.terrain.puzzles.grading import grade, in_band, preset
from terragen.terrain.puzzles.model import Puzzle, board_layout, hexes, puzzle_rng, random_board
from terragen.terrain.puzzles.solver import count_cheapest, count_walks_upto
from terragen.terrain.rules import MAX_CLIMB

DECOY_SLACK = 2  # decoys: routes costing at most this much more than the cheapest
#: the fewest steps of an answer: a goal next to the start (easy boards offered some, cost 3 in one
#: step) leaves nothing to find
MIN_STEPS = 2


def cheapest_route(board: Board, start: int, goal: int, dist: dict[int, int]) -> list[int]:
    """The cheapest route, walked back from the goal over the cheapest-path DAG (unique here)."""
    path = [goal]
    while path[-1] != start:
        j = path[-1]
        preds = sorted(i for i in dist for (k, c, _) in board.pip_arcs[i] if k == j and dist[i] + c == dist[j])
        path.append(preds[0])
    return path[::-1]


def solve_route(board: Board, start: int, goal: int) -> dict | None:
    """Solve and measure; None when the goal is unreachable. ``unique`` says whether the count is 1."""
    cost, count, dist = count_cheapest(board, start, goal)
    if cost is None:
        return None
    path = cheapest_route(board, start, goal, dist)
    walks = count_walks_upto(board, start, goal, cost + DECOY_SLACK)
    up3 = sum(1 for a, b in zip(path, path[1:]) if board.level[b] - board.level[a] == MAX_CLIMB)
    dag_arcs = sum(1 for i in dist for (j, c, _) in board.pip_arcs[i] if dist.get(j) == dist[i] + c)
    return {
        "unique": count == 1,
        "count": count,
        "cost": cost,
        "path": path,
        "metrics": {"cost": cost, "steps": len(path) - 1, "up3": up3, "decoys": sum(walks[cost + 1:]),
                    "cheapest_routes": count, "work": len(dist) + dag_arcs},
    }


def make_route(difficulty: str, seed: int, index: int, max_boards: int = 400) -> Puzzle | None:
    """A route puzzle for scenario ``index`` of ``seed``, or None if no board fits in ``max_boards`` tries."""
    p = preset("route", difficulty)
    rng = puzzle_rng(seed, index, "route")
    for _ in range(max_boards):
        board = random_board(rng, p["radius"], p["roughness"])
        corner = rng.randrange(6)
        start = board.index[hx.corner(board.radius, corner)]
        got = _pick_goal(board, start, p, rng)
        if got is None:
            continue
        goal, res = got
        m = dict(res["metrics"])
        m["grade"] = grade("route", m)
        layout = board_layout(board, corner, goal)
        gq, gr = board.hexes[goal]
        question = (f"Cheapest route: the token starts on corner {corner} at ({board.hexes[start][0]},"
                    f"{board.hexes[start][1]}). Find the cheapest route (good weather) to the goal at "
                    f"({gq},{gr}). Exactly one route is cheapest: trace it and give its cost.")
        return Puzzle("route", difficulty, seed, index, layout, question,
                      {"start": list(board.hexes[start]), "goal": [gq, gr], "weather": "good"},
                      {"cost": res["cost"], "path": hexes(board, res["path"]), "cheapest_routes": 1,
                       "definition": "the unique cheapest sequence of cells from start to goal"},
                      m)
    return None


def _pick_goal(board: Board, start: int, p: dict, rng: random.Random) -> tuple[int, dict] | None:
    from terragen.terrain.paths import costs_from

    dist = costs_from(board, start)
    options = [g for g, c in sorted(dist.items()) if g != start and in_band(c, p["cost"])]
    rng.shuffle(options)
    for goal in options[:12]:
        res = solve_route(board, start, goal)
        if res is None or not res["unique"]:
            continue
        m = res["metrics"]
        if (m["steps"] >= MIN_STEPS and m["up3"] >= p["min_up3"] and m["decoys"] >= p["min_decoys"]
                and in_band(grade("route", m), p["grade"])):
            return goal, res
    return None
