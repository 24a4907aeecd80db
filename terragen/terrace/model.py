"""Pieces, seats, rule options and moves of Terrace.

Kinds are ``T, A, B, C, D``. For captures a piece may only take one of the
same size or smaller; the T is the small marked piece and by default ranks
with the A, the smallest size (``Rules.t_rank``; see docs/rules-decisions.md).

A seat is identified by its home side of the board. The side fixes how its
pieces are written (the rulebook's convention: top = upper case, bottom =
lower case, left = doubled upper case, right = doubled lower case) and where
its objective lies (the lowest square of the opposite side).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from terragen.grids.square import Square

KINDS = ("T", "A", "B", "C", "D")
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
#: The T's size among the others (A is 1, B 2) for each reading of the rulebook (docs/rules-decisions.md,
#: Terrace decision 5): an A's size, below the A, or between the A and the B.
T_RANKS = {"a": 1, "lowest": 0, "above-a": 1.5}

SIDES = ("top", "bottom", "left", "right")
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}

#: The seat's name as the rulebook writes it: the T token of that seat.
SEAT_NAME = {"top": "T", "bottom": "t", "left": "TT", "right": "tt"}
SEAT_BY_NAME = {v: k for k, v in SEAT_NAME.items()}


def seat_words(side: str) -> str:
    """A seat as messages name it: its side with the file form's letter (``top (T)``). Why not the
    letter alone: ``T`` is also the piece every side protects, so "T to move" or "seat t has no T"
    read as pieces."""
    return f"{side} ({SEAT_NAME[side]})"


def piece_token(side: str, kind: str) -> str:
    """How a piece of ``kind`` belonging to the seat at ``side`` is written."""
    letter = kind.upper() if side in ("top", "left") else kind.lower()
    return letter * 2 if side in ("left", "right") else letter


def parse_piece_token(token: str) -> tuple[str, str] | None:
    """(side, kind) for a piece token such as ``D``, ``d``, ``DD``, ``dd``; None if not a piece."""
    if len(token) == 2 and token[0] != token[1]:
        return None
    if len(token) not in (1, 2):
        return None
    letter = token[0]
    if letter.upper() not in KIND_INDEX:
        return None
    upper = letter.isupper()
    if len(token) == 1:
        side = "top" if upper else "bottom"
    else:
        side = "left" if upper else "right"
    return side, letter.upper()


@dataclass(frozen=True)
class Rules:
    """Rule readings players may want to switch (defaults are terragen's decisions).

    ``t_rank``: ``"a"`` makes the T the same size as an A for captures (a T may
    take an A or a T; anything may take a T); ``"lowest"`` makes it smaller
    than the A (a T may only take a T); ``"above-a"`` puts it between the A and
    the B (a T may take an A or a T; an A may not take a T), the one order in
    which all five kinds differ in size and the A is still the smallest.
    ``own_t_capture``: whether a piece may capture its own side's T (which
    loses the game for that side, as any lost T does).
    """

    t_rank: str = "a"
    own_t_capture: bool = True

    def __post_init__(self) -> None:
        if self.t_rank not in T_RANKS:
            from terragen.errors import SpecError

            raise SpecError(f"t_rank must be one of {', '.join(repr(r) for r in T_RANKS)}, got {self.t_rank!r}")
        if not isinstance(self.own_t_capture, bool):
            from terragen.errors import SpecError

            raise SpecError(f"own_t_capture must be True or False, got {self.own_t_capture!r}")

    def rank(self, kind: str) -> float:
        """Size rank used to decide captures (bigger number = bigger piece; A is 1, D is 4)."""
        if kind == "T":
            return T_RANKS[self.t_rank]
        return KIND_INDEX[kind]


@dataclass(frozen=True)
class Piece:
    side: str
    kind: str

    @property
    def token(self) -> str:
        return piece_token(self.side, self.kind)


@dataclass(frozen=True)
class Move:
    """A move from one square to another, like ``chess.Move``.

    Two moves are equal when their squares are; ``kind`` (slide, up, down,
    capture) is filled in by the move generator for convenience, and is
    determined by the squares and the position anyway.
    """

    frm: Square
    to: Square
    kind: str = field(default="", compare=False)
    piece: str = field(default="", compare=False)  # kind letter of the moving piece
