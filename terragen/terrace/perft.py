"""Perft: count the move sequences of a given length, the standard move-generator check.

As in chess programming, a sequence stops early when the game ends (a T is
captured or reaches its objective), so decided positions contribute nothing
at deeper levels.
"""

from __future__ import annotations

from terragen.errors import SpecError
from terragen.terrace.position import Position


def perft(pos: Position, depth: int) -> int:
    """Number of legal move sequences of exactly ``depth`` moves from ``pos``.

    Both are checked first: a depth of 1.5 never reached 0 and recursed until Python gave up, and
    a position of None failed inside as an AttributeError."""
    from terragen.arguments import check_whole

    _check_position(pos, "perft")
    return _perft(pos, check_whole(depth, "perft depth", 0))


def _check_position(pos: object, function: str) -> None:
    if not isinstance(pos, Position):
        raise TypeError(f"{function} takes a Position (Position.start('full') makes one), not {type(pos).__name__}")


def _perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    pairs = pos._move_pairs()
    if depth == 1:
        return len(pairs)
    total = 0
    for a, b in pairs:
        pos._push_idx(a, b)  # unchecked: the generator made these moves
        total += _perft(pos, depth - 1)
        pos._pop_idx()
    return total


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """Perft split by first move: ``[(notation, count), ...]`` in move order."""
    from terragen.arguments import check_whole

    _check_position(pos, "divide")
    if check_whole(depth, "perft depth", 0) < 1:
        raise SpecError(f"perft --divide needs depth 1 or more, got {depth}")
    out = []
    for mv in pos.legal_moves():
        name = pos.san(mv)
        pos.push(mv)
        out.append((name, _perft(pos, depth - 1)))
        pos.pop()
    return out
