"""How often tokens are expected to land on each other, from the seats' lone races alone (a bench
measure: tried as a term of the five-seat tuning's loss and not kept, ``five_seat_meeting_loss.patch``,
which also holds its tests against a brute-force lone game).

Why: on five-seat boards tokens landing on each other (the token there goes home) part the
simulated rates from the lone models most: where games average two or three send-backs a seat
can sit 5-8 points from the race model (bench/README.md, "Five seats: send-backs").

For each seat, its token's lone chain (the race model's: every turn a move by exact expected
turns, doubles forfeited) gives the expected number of turns it begins on each cell and the
expected number of moves that land on each cell. The **meeting potential** of two seats is
one's expected landings times the other's expected stays, cell by cell, over the longer of
their expected games; of a board, the sum over ordered pairs of seats. It leaves out when the
tokens are there (two tokens passing a cell at different times never meet), yet on five-seat
terrains it tracks the simulated send-backs per game at a correlation of 0.73-0.88
(`five_seat_send_backs.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from terragen.terrain.board import Board
from terragen.terrain.race import _chain


@dataclass(frozen=True)
class Presence:
    """One seat's lone token: expected turns begun on each cell (``stays``), expected moves
    landing on each cell from another (``landings``), and its expected turns (``length``)."""

    stays: tuple[float, ...]
    landings: tuple[float, ...]
    length: float


def presence(board: Board, start: int, goals: Sequence[int], near, fwd, rank: Sequence[int]) -> Presence:
    """The seat's :class:`Presence` on ``board`` (start ``start``, destinations ``goals``)."""
    import numpy as np

    arcs, size, s0, value, index = _chain(board, fwd, start, list(dict.fromkeys(goals)), near, rank)
    cells = len(board)
    if value == float("inf"):
        return Presence((0.0,) * cells, (0.0,) * cells, float("inf"))
    cell_of = np.full(size, -1)
    for (c, _), i in index.items():
        cell_of[i] = c
    q = np.zeros((size, size))
    for i, j, w in arcs:
        if i and j:  # state 0 is "finished": it absorbs
            q[i, j] += w
    # expected visits of every state before finishing, starting from s0 (the transient block)
    t = slice(1, size)
    e = np.zeros(size - 1)
    e[s0 - 1] = 1.0
    visits = np.linalg.solve((np.eye(size - 1) - q[t, t]).T, e)
    stays = np.zeros(cells)
    np.add.at(stays, cell_of[1:], visits)
    moved = q[t, t] * (cell_of[1:, None] != cell_of[None, 1:])
    arrivals = visits @ moved
    landings = np.zeros(cells)
    np.add.at(landings, cell_of[1:], arrivals)
    return Presence(tuple(stays.tolist()), tuple(landings.tolist()), float(visits.sum()))


def pair_potential(a: Presence, b: Presence) -> float:
    """How often ``a`` lands where ``b`` stays and the other way round, per game."""
    span = max(a.length, b.length)
    if span == float("inf") or span <= 0:
        return 0.0
    ab = sum(x * y for x, y in zip(a.landings, b.stays))
    ba = sum(x * y for x, y in zip(b.landings, a.stays))
    return (ab + ba) / span


def meeting_potential(seats: Sequence[Presence]) -> float:
    """The board's meeting potential: :func:`pair_potential` summed over pairs of seats."""
    return sum(pair_potential(seats[i], seats[j]) for i in range(len(seats)) for j in range(i + 1, len(seats)))


def balancer_potential(balancer, dests: list[list[int]], cache: dict) -> float:
    """The meeting potential of destination state ``dests`` on a generator balancer's terrain
    (``cache`` keeps each seat's presence per destinations, and starts afresh on a new terrain)."""
    if cache.get("board") is not balancer.cand.board:
        cache.clear()
        cache["board"] = balancer.cand.board
    seats = []
    for s, d in enumerate(dests):
        key = (s, tuple(d))
        if key not in cache:
            cache[key] = presence(balancer.cand.board, balancer.cand.starts[s], d, balancer.near, balancer.fwd,
                                  balancer._ranks[s])
        seats.append(cache[key])
    return meeting_potential(seats)
