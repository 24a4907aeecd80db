"""Move-choosing policies for simulated games.

* ``random`` — a uniformly random legal move.
* ``greedy`` — one-move look-ahead with a fixed scoring (ties broken at
  random): a winning move first (taking an enemy T, or the T reaching its
  objective); never a move that loses the own T; then moves that do not leave
  the own T capturable next turn; then captures of bigger enemy pieces
  (sacrificing an own piece counts against); then progress of the T towards
  its objective. See docs/terrace.md.
"""

from __future__ import annotations

import random
from typing import Callable

from terragen.names import unknown_name
from terragen.terrace.model import Move
from terragen.terrace.position import Position

Policy = Callable[[Position, random.Random], Move]


def random_policy(pos: Position, rng: random.Random) -> Move:
    return rng.choice(pos.legal_moves())


def _dist(pos: Position, a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _t_threatened(pos: Position, side: str) -> bool:
    """Whether another seat could take ``side``'s T on its next turn.

    Only a piece diagonally next to the T and one level higher can capture
    it, so the check looks at those (at most four) squares.
    """
    t = pos.t_square(side)
    if t is None:
        return True
    b = pos.board
    h = b.height_at(t)
    t_rank = pos.rules.rank("T")
    for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
        q = (t[0] + dr, t[1] + dc)
        if b.on_board(q) and b.height_at(q) == h + 1:
            p = pos.piece_at(q)
            if p is not None and p.side != side and pos.rules.rank(p.kind) >= t_rank:
                return True
    return False


def score_move(pos: Position, mv: Move) -> float:
    """The greedy policy's value of a move for the side to move (higher is better)."""
    me = pos.to_move
    target = pos.piece_at(mv.to)
    after = pos.copy()
    after._push_idx(pos.board.index(mv.frm), pos.board.index(mv.to))  # a move of legal_moves(): unchecked, as perft
    res = after.result()
    if res is not None and res.winner == me:
        return 1e6
    if me not in [after.seats[i] for i, alive in enumerate(after.alive) if alive]:
        return -1e6
    score = 0.0
    if _t_threatened(after, me):
        score -= 1e4
    if target is not None:
        value = pos.rules.rank(target.kind) + 1
        score += 100 * value if target.side != me else -100 * value
    if mv.piece == "T":
        goal = pos.objective_of(me)
        score += 10 * (_dist(pos, mv.frm, goal) - _dist(pos, mv.to, goal))
    return score


def greedy_policy(pos: Position, rng: random.Random) -> Move:
    moves = pos.legal_moves()
    scored = [(score_move(pos, mv), k) for k, mv in enumerate(moves)]
    best = max(s for s, _ in scored)
    return moves[rng.choice([k for s, k in scored if s == best])]


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        raise unknown_name("policy", name, list(POLICIES)) from None
