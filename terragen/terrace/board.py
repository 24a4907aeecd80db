"""Geometry of the stepped Terrace board: heights, terraces and step tables.

The board is pure geometry, independent of pieces, so it is computed once per
size and shared by every position (see :func:`board`). Squares are
``(row, col)`` tuples, 0-based from the top left, as in ``terragen.grids.square``;
internally a square is the index ``row * size + col``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from terragen.errors import SpecError
from terragen.limits import TERRACE_SIZES
from terragen.grids.square import DIAGONAL, KING, ORTHOGONAL, Square

#: Board sizes the generalised game supports (even, so the four quadrants are equal).
SIZES = TERRACE_SIZES


def height(row: int, col: int, size: int = 8) -> int:
    """Height of a square: the hyperboloid of the rulebook, generalised to any even size.

    Each quadrant is a set of nested L-shaped terraces; the high corners are the
    top-left and bottom-right, the low corners top-right and bottom-left.
    """
    half = size // 2
    top, left = row < half, col < half
    if top and left:
        return size - max(row, col)
    if top:
        return 1 + max(row, size - 1 - col)
    if left:
        return 1 + max(size - 1 - row, col)
    return size - max(size - 1 - row, size - 1 - col)


def check_size(size: int) -> int:
    """Reject sizes the board formula does not cover, with a one-line reason."""
    if not isinstance(size, int) or isinstance(size, bool) or size not in SIZES:
        raise SpecError(f"board size must be one of {', '.join(map(str, SIZES))} (even, 6 to 12), got {size!r}")
    return size


@dataclass(frozen=True)
class Board:
    """Precomputed tables for one board size.

    ``up``/``down``/``capture`` list, per square index, the neighbouring
    squares a piece may step to for that kind of move (geometry only:
    occupancy is checked by the move generator). ``terrace_adj`` lists the
    neighbours along the same terrace used for sliding.
    """

    size: int
    heights: tuple[int, ...]
    terrace_of: tuple[int, ...]  # square index -> terrace id
    terraces: tuple[tuple[int, ...], ...]  # terrace id -> square indices
    terrace_adj: tuple[tuple[int, ...], ...]
    up: tuple[tuple[int, ...], ...]
    down: tuple[tuple[int, ...], ...]
    capture: tuple[tuple[int, ...], ...]
    forbidden: frozenset[tuple[int, int]]  # diagonal steps across the centre point

    def index(self, sq: Square) -> int:
        """The index of ``sq``; a square off the board is a ValueError (a column past the edge
        wrapped round to the next row, and a library caller read another square's piece)."""
        row, col = sq
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise ValueError(f"square {sq!r} is off the {self.size}x{self.size} board (row and column 0-{self.size - 1})")
        return row * self.size + col

    def square(self, idx: int) -> Square:
        return divmod(idx, self.size)

    def height_at(self, sq: Square) -> int:
        return self.heights[self.index(sq)]

    def on_board(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.size and 0 <= sq[1] < self.size

    def rows(self) -> list[list[int]]:
        return [list(self.heights[r * self.size:(r + 1) * self.size]) for r in range(self.size)]


def centre_crossing_steps(size: int) -> frozenset[tuple[int, int]]:
    """The one-square diagonal steps whose path passes through the board's centre point.

    Only the two diagonals of the central 2x2 block cross the centre point;
    each may be stepped in either direction, so four directed steps in all.
    """
    h = size // 2
    pairs = [((h - 1, h - 1), (h, h)), ((h - 1, h), (h, h - 1))]
    out = set()
    for a, b in pairs:
        ia, ib = a[0] * size + a[1], b[0] * size + b[1]
        out.add((ia, ib))
        out.add((ib, ia))
    return frozenset(out)


@lru_cache(maxsize=None)
def board(size: int = 8) -> Board:
    """The (cached) board of the given size."""
    check_size(size)
    n = size
    heights = tuple(height(r, c, n) for r in range(n) for c in range(n))
    forbidden = centre_crossing_steps(n)

    def nbrs(idx: int, dirs) -> list[int]:
        r, c = divmod(idx, n)
        out = []
        for dr, dc in dirs:
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n:
                j = rr * n + cc
                if (idx, j) not in forbidden:
                    out.append(j)
        return out

    # Terraces: equal-height squares joined side to side (see docs/rules-decisions.md).
    terrace_adj = tuple(
        tuple(j for j in nbrs(i, ORTHOGONAL) if heights[j] == heights[i]) for i in range(n * n)
    )
    terrace_of = [-1] * (n * n)
    terraces: list[tuple[int, ...]] = []
    for start in range(n * n):
        if terrace_of[start] >= 0:
            continue
        tid = len(terraces)
        stack, members = [start], []
        terrace_of[start] = tid
        while stack:
            i = stack.pop()
            members.append(i)
            for j in terrace_adj[i]:
                if terrace_of[j] < 0:
                    terrace_of[j] = tid
                    stack.append(j)
        terraces.append(tuple(sorted(members)))
    up = tuple(tuple(j for j in nbrs(i, KING) if heights[j] == heights[i] + 1) for i in range(n * n))
    down = tuple(tuple(j for j in nbrs(i, ORTHOGONAL) if heights[j] == heights[i] - 1) for i in range(n * n))
    capture = tuple(tuple(j for j in nbrs(i, DIAGONAL) if heights[j] == heights[i] - 1) for i in range(n * n))
    return Board(n, heights, tuple(terrace_of), tuple(terraces), terrace_adj, up, down, capture, forbidden)


FILES = "abcdefghijkl"


def square_name(sq: Square, size: int) -> str:
    """Chess-like name: file letter = column from the left, rank 1 = bottom row."""
    return f"{FILES[sq[1]]}{size - sq[0]}"


def parse_square(name: str, size: int) -> Square | None:
    """The square a name denotes, or None if it is not a square of this board."""
    name = name.strip().lower()
    if len(name) < 2 or name[0] not in FILES[:size] or not (name[1:].isascii() and name[1:].isdigit()):
        return None
    rank = int(name[1:])
    if not 1 <= rank <= size:
        return None
    return (size - rank, FILES.index(name[0]))
