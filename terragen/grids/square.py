"""Square-grid helpers for the 8x8 (or n x n) boards of Terrace and Terralogical.

Squares are ``(row, col)`` tuples, 0-based from the top left.
"""

from __future__ import annotations

from typing import TypeAlias

Square: TypeAlias = tuple[int, int]

ORTHOGONAL: tuple[Square, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W
DIAGONAL: tuple[Square, ...] = ((-1, -1), (-1, 1), (1, 1), (1, -1))  # NW NE SE SW
KING: tuple[Square, ...] = ORTHOGONAL + DIAGONAL


def in_bounds(sq: Square, size: int) -> bool:
    return 0 <= sq[0] < size and 0 <= sq[1] < size


def step(sq: Square, d: Square) -> Square:
    return (sq[0] + d[0], sq[1] + d[1])


def squares(size: int) -> list[Square]:
    return [(i, j) for i in range(size) for j in range(size)]
