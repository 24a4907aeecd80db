"""Perft: count the move sequences of a given length, the standard move-generator check.

As in chess programming, a sequence stops early when the game ends (a T is
captured or reaches its objective), so decided positions contribute nothing
at deeper levels.
"""

from __future__ import annotations

from terragen.errors import SpecError
from terragen.terrace.position import Position


def perft(pos: Position, depth: int) -> int:
    """Number of legal move sequences of exactly ``depth`` moves from ``pos``."""
    if depth < 0:
        raise SpecError(f"perft depth must be 0 or more, got {depth}")
    return _perft(pos, depth)


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
    if depth < 1:
        raise SpecError(f"perft --divide needs depth 1 or more, got {depth}")
    out = []
    for mv in pos.legal_moves():
        name = pos.san(mv)
        pos.push(mv)
        out.append((name, _perft(pos, depth - 1)))
        pos.pop()
    return out
