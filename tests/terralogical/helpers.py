"""Small builders for hand-made Terralogical boards used across the tests."""

from __future__ import annotations

from terragen.terralogical.board import Board, Placed
from terragen.terralogical.tiles import parse_tile


def board_with(*tiles: tuple[tuple[int, int], str, int, int | None]) -> Board:
    """A board holding exactly the given (square, code, rotation, owner) tiles."""
    b = Board()
    for i, (sq, code, rot, owner) in enumerate(tiles):
        b.tiles[sq] = Placed(parse_tile(code), rot, f"X{i}", owner)
    return b
