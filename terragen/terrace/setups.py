"""The rulebook's starting set-ups (plus a three-player one), and how they scale to other sizes.

On the 8x8 board the set-ups are exactly the rulebook's diagram. For an
``n x n`` board (n even, 6..12):

* **full** — two home rows per player, ``2n`` pieces: one T, ``n/2 - 1`` A and
  ``n/2`` each of B, C, D (on 8x8: 1 T, 3 A, 4 B, 4 C, 4 D). The pieces other
  than the T, sorted smallest first, are dealt alternately to the second row
  (left to right) and the back row (right to left after the T, which sits on
  the low corner of the back row).
* **short** — one home row with the corners empty, ``n - 2`` pieces: the T next
  to the left corner, then B, C, D in ascending size, ``n - 3`` of them shared as
  evenly as possible with any extra going to the smaller sizes.
* **four** — four players, one per edge, corners empty, each with the short
  game's pieces in mirror order (top row ``D C C B B T`` on 8x8, the left
  column the same read downwards), so every T starts next to a low corner.
* **three** — the four-player set-up without the left seat (its edge stays
  empty); the rulebook mentions three players but shows no set-up.

The bottom (and right) seat is the top (and left) seat turned half a turn.
"""

from __future__ import annotations

from terragen.errors import SpecError
from terragen.grids.square import Square
from terragen.terrace.board import board, check_size
from terragen.terrace.model import OPPOSITE, Piece

SETUPS = ("full", "short", "four", "three")

#: Seats in turn order for each number of players (the first named moves first).
SEAT_ORDER = {2: ("top", "bottom"), 3: ("top", "right", "bottom"), 4: ("top", "right", "bottom", "left")}

#: Number of players of each set-up; the "free" ones are positions with no piece-count limit.
SETUP_PLAYERS = {"full": 2, "short": 2, "four": 4, "three": 3, "free": 2, "free3": 3, "free4": 4}


def check_setup(setup: str) -> str:
    if setup not in SETUP_PLAYERS:
        raise SpecError(f"unknown set-up {setup!r}; expected one of full, short, four, three, free, free3, free4")
    return setup


def side_squares(side: str, size: int) -> list[Square]:
    n = size
    if side == "top":
        return [(0, c) for c in range(n)]
    if side == "bottom":
        return [(n - 1, c) for c in range(n)]
    if side == "left":
        return [(r, 0) for r in range(n)]
    return [(r, n - 1) for r in range(n)]


def objective(side: str, size: int) -> Square:
    """The lowest square of the side opposite the seat's home side."""
    b = board(size)
    return min(side_squares(OPPOSITE[side], size), key=b.height_at)


def _short_kinds(size: int) -> list[str]:
    """B, C, D pieces of a short-game row, ascending, ``size - 3`` of them."""
    total = size - 3
    base, extra = divmod(total, 3)
    counts = [base + (1 if i < extra else 0) for i in range(3)]
    out: list[str] = []
    for kind, k in zip("BCD", counts):
        out += [kind] * k
    return out


def _full_kinds(size: int) -> list[str]:
    half = size // 2
    return ["A"] * (half - 1) + ["B"] * half + ["C"] * half + ["D"] * half


def setup_counts(setup: str, size: int) -> dict[str, int]:
    """Pieces of each kind one seat starts with (the most it can ever have)."""
    kinds = ["T"] + (_full_kinds(size) if setup == "full" else _short_kinds(size))
    return {k: kinds.count(k) for k in "TABCD"}


def _rotate(sq: Square, size: int) -> Square:
    return (size - 1 - sq[0], size - 1 - sq[1])


def start_pieces(setup: str, size: int = 8) -> dict[Square, Piece]:
    """Where every piece stands at the start of a game with this set-up."""
    check_size(size)
    check_setup(setup)
    n = size
    placed: dict[Square, str] = {}  # for the top seat (and the left seat in "four")
    if setup == "full":
        rest = _full_kinds(n)
        placed[(0, n - 1)] = "T"
        for j in range(n):
            placed[(1, j)] = rest[2 * j]
        for k in range(n - 1):
            placed[(0, n - 2 - k)] = rest[2 * k + 1]
        seats = {"top": placed}
    elif setup == "short":
        row = ["T"] + _short_kinds(n)
        placed = {(0, 1 + j): kind for j, kind in enumerate(row)}
        seats = {"top": placed}
    elif setup in ("four", "three"):
        row = list(reversed(["T"] + _short_kinds(n)))  # D ... B T, T next to the low corner
        placed = {(0, 1 + j): kind for j, kind in enumerate(row)}
        left = {(1 + j, 0): kind for j, kind in enumerate(row)}
        seats = {"top": placed, "left": left}
    else:
        raise SpecError(f"set-up {setup!r} has no starting position")
    out: dict[Square, Piece] = {}
    for side, squares in seats.items():
        for sq, kind in squares.items():
            out[sq] = Piece(side, kind)
            out[_rotate(sq, n)] = Piece(OPPOSITE[side], kind)
    if setup == "three":  # the four-player set-up with the left edge left empty
        out = {sq: p for sq, p in out.items() if p.side != "left"}
    return out
