"""Rotation puzzles: the goal is cut off; which single turn of one piece opens it?

Why the search can stay small: turning piece ``x`` changes only ``x``'s own
exits, so a turn can matter only if the token can already reach ``x``. For one
turn the solver therefore tries every piece of the current reachable region in
every rotation that changes its exits (one per distinct exit set: pattern D
has only two), and counts the openers. For two turns (hard grade) it requires
no single opener and exactly one unordered pair: the first piece must be
reachable before any turn, the second after the first. An answer names the
piece, its cell and its new exit set; equivalent rotation numbers are listed.
"""

from __future__ import annotations

from terragen.grids import hex as hx
from terragen.terrain.board import Board
from terragen.terrain.paths import costs_from, reachable
from terragen.terrain.pieces import exits
from terragen.terrain.puzzles.grading import grade, in_band, preset
from terragen.terrain.puzzles.model import Puzzle, board_layout, hexes, puzzle_rng, random_board
from terragen.terrain.puzzles.route import cheapest_route
from terragen.terrain.puzzles.solver import equivalent_rotations, rotation_options

Turn = tuple[int, int]  # (cell, rotation)


def single_map(board: Board, start: int) -> tuple[dict[int, list[Turn]], int, int]:
    """For every cell the single turns that make it reachable, turns that enlarge the region, turns checked.

    One pass serves every possible goal: a turn's new reachable region is
    computed once and credited to each cell it newly reaches.
    """
    region = reachable(board, start)
    openers: dict[int, list[Turn]] = {}
    enlarging = 0
    checked = 0
    for i in sorted(region):
        for k in rotation_options(board, i):
            checked += 1
            new = reachable(board.rotated(i, k), start) - region
            if new:
                enlarging += 1
            for g in new:
                openers.setdefault(g, []).append((i, k))
    return openers, enlarging, checked


def _targets(board: Board) -> list[list[int]]:
    return [[j for j, _, _ in arcs] for arcs in board.pip_arcs]


def _turned_targets(board: Board, i: int, k: int) -> list[int]:
    """Where piece ``i`` leads once turned to rotation ``k`` (elevation rule and board edge applied)."""
    from terragen.terrain.pieces import exit_mask

    m = exit_mask(board.pattern[i], k)
    elev = {j for j, _, _ in board.elev_arcs[i]}
    return [j for d, j in enumerate(board.nbr[i]) if m >> d & 1 and j in elev]


def _reach(targets: list[list[int]], start: int, override: dict[int, list[int]]) -> set[int]:
    seen = {start}
    stack = [start]
    while stack:
        i = stack.pop()
        for j in override.get(i, targets[i]):
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


def pair_map(board: Board, start: int, skip: set[int]) -> tuple[dict[int, set[tuple[Turn, Turn]]], int]:
    """For every cell outside ``skip`` the unordered pairs of turns (two different pieces) that reach it.

    The first piece must be reachable before any turn and the second after the
    first (a turn only changes its own piece's exits), so this covers every pair.
    Turned pieces are applied as overrides of the arc lists (no board copies): this
    is the hard grade's inner loop.
    """
    targets = _targets(board)
    region = _reach(targets, start, {})
    turned = {(i, k): _turned_targets(board, i, k) for i in range(len(board)) if board.passable(i)
              for k in rotation_options(board, i)}
    out: dict[int, set[tuple[Turn, Turn]]] = {}
    checked = 0
    for a in sorted(region):
        for ka in rotation_options(board, a):
            first = {a: turned[(a, ka)]}
            for b in sorted(_reach(targets, start, first)):
                if b == a:
                    continue
                for kb in rotation_options(board, b):
                    checked += 1
                    both = {a: first[a], b: turned[(b, kb)]}
                    for g in _reach(targets, start, both) - region - skip:
                        out.setdefault(g, set()).add(tuple(sorted(((a, ka), (b, kb)))))
    return out, checked


def _answer(board: Board, start: int, goal: int, turns: int, singles: dict, enlarging: int, checked: int,
            pairs: tuple[dict, int] | None) -> dict | None:
    own = singles.get(goal, [])
    if turns == 1:
        if len(own) != 1:
            return None
        answer = [own[0]]
        near = enlarging - 1
    else:
        if own:
            return None
        if pairs is None:
            pairs = pair_map(board, start, set(singles))
        found = pairs[0].get(goal, set())
        checked += pairs[1]
        if len(found) != 1:
            return None
        answer = list(next(iter(found)))
        near = enlarging
    after = board.copy()
    for i, k in answer:
        after.set_rotation(i, k)
    dist = costs_from(after, start)
    path = cheapest_route(after, start, goal, dist)
    return {"answer": answer, "cost_after": dist[goal], "path": path, "near_misses": near, "work": checked}


def make_rotation(difficulty: str, seed: int, index: int, max_boards: int = 1500) -> Puzzle | None:
    """A rotation puzzle for scenario ``index`` of ``seed``, or None if no board fits."""
    p = preset("rotation", difficulty)
    rng = puzzle_rng(seed, index, "rotation")
    for _ in range(max_boards):
        board = random_board(rng, p["radius"], p["roughness"])
        corners = list(range(6))
        rng.shuffle(corners)
        for corner in corners:  # every corner of a board is a fresh chance, and cheap to try
            start = board.index[hx.corner(board.radius, corner)]
            region = reachable(board, start)
            if not in_band(len(region), p["region"]):
                continue
            elev = reachable(board, start, pips=False)
            singles, enlarging, checked = single_map(board, start)
            pairs = pair_map(board, start, set(singles)) if p["turns"] == 2 else None
            options = [g for g in sorted(elev - region) if hx.distance(board.hexes[g], board.hexes[start]) >= 2]
            rng.shuffle(options)
            for goal in options:
                res = _answer(board, start, goal, p["turns"], singles, enlarging, checked, pairs)
                if res is None or not in_band(res["cost_after"], p["cost"]):
                    continue
                if p["max_near"] is not None and res["near_misses"] > p["max_near"]:
                    continue
                puzzle = _puzzle(board, corner, start, goal, res, difficulty, seed, index, p["turns"])
                if in_band(puzzle.metrics["grade"], p["grade"]):
                    return puzzle
    return None


def _puzzle(board: Board, corner: int, start: int, goal: int, res: dict, difficulty: str, seed: int, index: int,
            turns: int) -> Puzzle:
    layout = board_layout(board, corner, goal)
    m = {"rotations": turns, "cost_after": res["cost_after"], "steps_after": len(res["path"]) - 1,
         "near_misses": res["near_misses"], "work": res["work"], "region": len(reachable(board, start))}
    m["grade"] = grade("rotation", m)
    answer = []
    for i, k in res["answer"]:
        h = board.hexes[i]
        answer.append({"q": h[0], "r": h[1], "piece": layout.cell_map()[h].piece_name, "from_rotation": board.rotation[i],
                       "rotation": k, "equivalent_rotations": equivalent_rotations(board.pattern[i], k),
                       "exits": list(exits(board.pattern[i], k))})
    gq, gr = board.hexes[goal]
    sq, sr = board.hexes[start]
    what = "one piece to a new rotation" if turns == 1 else "two pieces (a new rotation each)"
    question = (f"Rotation: from corner {corner} at ({sq},{sr}) the goal at ({gq},{gr}) cannot be reached. "
                f"Turn {what} so that it can. Exactly one such "
                f"{'turn' if turns == 1 else 'pair of turns'} works: which?")
    return Puzzle("rotation", difficulty, seed, index, layout, question,
                  {"start": [sq, sr], "goal": [gq, gr], "turns": turns},
                  {"turns": answer, "cost_after": res["cost_after"], "path": hexes(board, res["path"]),
                   "definition": "the set of (piece, new exit set) turns; any equivalent rotation number is the same turn"},
                  m)
