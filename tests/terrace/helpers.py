"""Turning rulebook-style diagrams into positions for the tests."""

from __future__ import annotations

from terragen.terrace.model import Piece
from terragen.terrace.position import Position


def diagram(text: str, to_move: str = "bottom", setup: str = "free", size: int = 8):
    """Read a diagram: digits are empty squares, letters pieces (case = side), other marks returned.

    Returns (position, marks) where marks maps each non-piece symbol (``*``,
    ``X``, ``x``) to the squares carrying it. Pieces: upper case = top seat,
    lower case = bottom seat, as in the rulebook.
    """
    rows = [line.split() for line in text.strip().splitlines()]
    assert len(rows) == size and all(len(r) == size for r in rows)
    pieces, marks = {}, {}
    for i, row in enumerate(rows):
        for j, tok in enumerate(row):
            if tok.isdigit():
                continue
            if tok in ("*", "X", "x"):
                marks.setdefault(tok, set()).add((i, j))
                continue
            pieces[(i, j)] = Piece("top" if tok.isupper() else "bottom", tok.upper())
    return Position(pieces, to_move=to_move, setup=setup, size=size), marks


def find(pos: Position, token: str) -> list[tuple[int, int]]:
    return sorted(sq for sq, p in pos.pieces().items() if p.token == token)


def targets(pos: Position, sq, kind: str) -> set:
    """Destinations of the piece on sq for one kind of move, checked two ways (piece and turn)."""
    per_piece = {m.to for m in pos.piece_moves(sq) if m.kind == kind}
    side = pos.piece_at(sq).side
    turn = Position(pos.pieces(), to_move=side, setup=pos.setup, size=pos.size, rules=pos.rules)
    by_turn = {m.to for m in turn.legal_moves() if m.frm == sq and m.kind == kind}
    assert per_piece == by_turn
    return per_piece
