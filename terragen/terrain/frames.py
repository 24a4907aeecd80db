"""Seat frames: how each seat sees the board, for breaking ties between equally good moves.

Why a module of its own: the simulator's players and the exact race model must break
ties the same way (the race model is the solitary player's exact distribution), and
neither should import the other. A seat's frame is the board turned so that its corner
is corner 0, and mirrored through corners 0 and 3 when the seat is "left-handed";
ties broken by a cell's place in that frame make seats that a turn or a mirror of the
board maps onto each other choose image moves, so a symmetric board stays fair.
"""

from __future__ import annotations

from collections.abc import Sequence

from terragen.grids import hex as hx
from terragen.terrain.board import Board


def seat_hand(board: Board, start: int, starts: Sequence[int]) -> int:
    """-1 when the seat sees the other seats' corners more simply clockwise than counter-clockwise.

    A mirror that maps one seat onto another reverses how each sees the rest: the seat at
    corner 2 of two seats on corners 0 and 2 sees the other four sixths round, the one at
    corner 0 two sixths. Taking the smaller view makes such seats mirror each other's
    frames; seats a turn relates see the same view and keep the same hand.
    """
    me = hx.corner_index(board.hexes[start], board.radius)
    others = [hx.corner_index(board.hexes[s], board.radius) for s in starts if s != start]
    if me is None or None in others:
        return 1
    ccw = sorted((c - me) % 6 for c in others)
    cw = sorted((me - c) % 6 for c in others)
    return -1 if cw < ccw else 1


def seat_frame_rank(board: Board, start: int, hand: int = 1) -> tuple[int, ...]:
    """Cell -> its reading-order index after turning the board so ``start``'s corner is corner 0
    and, for ``hand`` -1, mirroring it through corners 0 and 3 (the identity for a start that
    is no corner)."""
    corner = hx.corner_index(board.hexes[start], board.radius)
    if corner is None or (not corner and hand == 1):
        return tuple(range(len(board)))
    out = []
    for h in board.hexes:
        q, r = hx.rotate(h, -corner)
        out.append(board.index[(q + r, -r) if hand == -1 else (q, r)])
    return tuple(out)


def seat_ranks(board: Board, starts: Sequence[int]) -> list[tuple[int, ...]]:
    """The tie-break order of every seat whose start is one of ``starts`` (in that order)."""
    return [seat_frame_rank(board, s, seat_hand(board, s, starts)) for s in starts]
