"""A compact, index-based view of a layout for the hot loops of analysis and play.

Cells are numbered in reading order over every position of the board's radius;
a position the layout leaves empty is a hole (no moves in or out). For each
cell the board keeps its neighbours by direction and two arc lists: the pip
graph (moves the current rotations allow) and the elevation graph (pips
ignored), each arc with its good-weather cost and level change.
"""

from __future__ import annotations

from collections.abc import Iterable

from terragen.grids import hex as hx
from terragen.grids.hex import Hex
from terragen.terrain.compiled import load
from terragen.terrain.layout import Cell, Layout
from terragen.terrain.pieces import exit_mask, piece_id
from terragen.terrain.rules import MAX_CLIMB, step_allowed, step_cost

Arc = tuple[int, int, int]  # (target cell, good-weather cost, level change)
#: :meth:`Board._rebuild_arcs` compiled (``_kernels.c``: ``board_arcs``), or None. Why: the terrain
#: search makes and undoes several moves for every one it keeps, each rebuilding a piece's arcs and
#: its neighbours', over a hundred thousand times in a five-seat run's main process
_BOARD_ARCS = getattr(load("terragen.terrain._kernels"), "board_arcs", None)


class Board:
    """Levels, exits and inversion of every board position, plus the move graphs."""

    __slots__ = (
        "radius", "hexes", "index", "nbr", "present", "level", "pattern", "rotation",
        "inverted", "mask", "pip_arcs", "elev_arcs", "_turns",
    )

    def __init__(
        self,
        radius: int,
        levels: dict[Hex, int],
        patterns: dict[Hex, str],
        rotations: dict[Hex, int],
        inverted: Iterable[Hex] = (),
    ) -> None:
        self.radius = radius
        self.hexes: list[Hex] = hx.board_cells(radius)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        n = len(self.hexes)
        self.nbr: list[tuple[int, ...]] = [
            tuple(self.index.get(hx.neighbor(h, d), -1) for d in range(6)) for h in self.hexes
        ]
        self.present = [h in levels for h in self.hexes]
        self.level = [levels.get(h, 0) for h in self.hexes]
        self.pattern = [patterns.get(h, "") for h in self.hexes]
        self.rotation = [rotations.get(h, 0) % 6 for h in self.hexes]
        inv = set(inverted)
        self.inverted = [h in inv for h in self.hexes]
        self.mask = [exit_mask(self.pattern[i], self.rotation[i]) for i in range(n)]
        self.pip_arcs: list[list[Arc]] = [[] for _ in range(n)]
        self.elev_arcs: list[list[Arc]] = [[] for _ in range(n)]
        self._turns: dict[tuple[int, int], tuple[int, list[Arc]]] = {}
        for i in range(n):
            self._rebuild_arcs(i)

    @classmethod
    def from_layout(cls, layout: Layout) -> Board:
        cells = [c for c in layout.cell_map().values() if hx.on_board(c.hex, layout.radius)]
        return cls(
            layout.radius,
            {c.hex: c.level for c in cells},
            {c.hex: c.pattern for c in cells},
            {c.hex: c.rotation for c in cells},
            [c.hex for c in cells if c.inverted],
        )

    def numbered_cells(self) -> list[Cell]:
        """The pieces as layout cells, each with its physical piece id (``5B2``: the second level-5
        B piece), copies of a kind numbered in reading order (row, then column), as a build sheet
        and a kit count them. Why here: the generator and the puzzles each wrote this loop."""
        cells: list[Cell] = []
        copies: dict[tuple[int, str], int] = {}
        for i in sorted((i for i in range(len(self)) if self.present[i]), key=lambda i: (self.hexes[i][1], self.hexes[i][0])):
            kind = (self.level[i], self.pattern[i])
            copies[kind] = copies.get(kind, 0) + 1
            q, r = self.hexes[i]
            cells.append(Cell(q, r, kind[0], kind[1], self.rotation[i], self.inverted[i],
                              extra={"piece": piece_id(kind[0], kind[1], copies[kind])}))
        return cells

    def __len__(self) -> int:
        return len(self.hexes)

    def passable(self, i: int) -> bool:
        return self.present[i] and not self.inverted[i]

    def _rebuild_arcs(self, i: int) -> None:
        if _BOARD_ARCS is None or _BOARD_ARCS(i, self.nbr, self.level, self.mask, self.present, self.inverted,
                                              self.pip_arcs, self.elev_arcs, MAX_CLIMB) is None:
            self._rebuild_arcs_python(i)

    def _rebuild_arcs_python(self, i: int) -> None:
        """Piece ``i``'s arcs in both graphs (the reference of the compiled ``board_arcs``)."""
        pip: list[Arc] = []
        elev: list[Arc] = []
        if self.passable(i):
            lv = self.level[i]
            m = self.mask[i]
            for d, j in enumerate(self.nbr[i]):
                if j < 0 or not self.passable(j):
                    continue
                delta = self.level[j] - lv
                if not step_allowed(delta):
                    continue
                arc = (j, step_cost(delta), delta)
                elev.append(arc)
                if m >> d & 1:
                    pip.append(arc)
        self.pip_arcs[i] = pip
        self.elev_arcs[i] = elev

    def _refresh(self, i: int) -> None:
        self._rebuild_arcs(i)
        for j in self.nbr[i]:
            if j >= 0:
                self._rebuild_arcs(j)

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.radius = self.radius
        other.hexes = self.hexes
        other.index = self.index
        other.nbr = self.nbr
        other.present = list(self.present)
        other.level = list(self.level)
        other.pattern = list(self.pattern)
        other.rotation = list(self.rotation)
        other.inverted = list(self.inverted)
        other.mask = list(self.mask)
        other.pip_arcs = list(self.pip_arcs)
        other.elev_arcs = list(self.elev_arcs)
        other._turns = self._turns  # shared until either board changes more than a rotation
        return other

    def restore(self, start: Board) -> None:
        """Make this board, a :meth:`copy` of ``start`` that games have turned or inverted pieces
        of, equal to ``start`` again, in place: a run's next game starts on it without a new copy."""
        self.present[:] = start.present
        self.level[:] = start.level
        self.pattern[:] = start.pattern
        self.rotation[:] = start.rotation
        self.inverted[:] = start.inverted
        self.mask[:] = start.mask
        self.pip_arcs[:] = start.pip_arcs
        self.elev_arcs[:] = start.elev_arcs
        self._turns = start._turns

    def set_rotation(self, i: int, rotation: int) -> None:
        """Turn piece ``i`` in place; only its own outgoing arcs change.

        Simulated games turn the same pieces to the same rotations again and again, so the
        exits and arcs of each turn are kept, shared by copies of the board, until a change
        other than a rotation (a level, piece or inversion) makes them wrong."""
        rotation %= 6
        self.rotation[i] = rotation
        known = self._turns.get((i, rotation))
        if known is None:
            self.mask[i] = exit_mask(self.pattern[i], rotation)
            self._rebuild_arcs(i)
            self._turns[(i, rotation)] = (self.mask[i], self.pip_arcs[i])
        else:
            self.mask[i], self.pip_arcs[i] = known

    def set_piece(self, i: int, level: int, pattern: str, rotation: int) -> None:
        """Put another piece on cell ``i``; its neighbours' arcs change too (they depend on its level)."""
        self.present[i] = True
        self.level[i] = level
        self.pattern[i] = pattern
        self.rotation[i] = rotation % 6
        self.mask[i] = exit_mask(pattern, self.rotation[i])
        self._turns = {}
        self._refresh(i)

    def rebuild(self) -> None:
        """Recompute every exit mask and arc after the per-cell lists were filled in bulk."""
        self.mask = [exit_mask(self.pattern[i], self.rotation[i]) for i in range(len(self.hexes))]
        self._turns = {}
        for i in range(len(self.hexes)):
            self._rebuild_arcs(i)

    def set_inverted(self, i: int, inverted: bool = True) -> None:
        """Turn piece ``i`` upside down: no arcs into or out of it any more."""
        self.inverted[i] = inverted
        self._turns = {}
        self._refresh(i)

    def rotated(self, i: int, rotation: int) -> Board:
        b = self.copy()
        b.set_rotation(i, rotation)
        return b

    def cliffs(self) -> list[tuple[int, int]]:
        """Neighbouring pairs ``(i, j)``, ``i < j``, more than 3 levels apart."""
        out = []
        for i, ns in enumerate(self.nbr):
            if not self.present[i]:
                continue
            for j in ns:
                if j > i and self.present[j] and not step_allowed(self.level[j] - self.level[i]):
                    out.append((i, j))
        return out

    def blocked_exits(self) -> int:
        """Pips that lead nowhere: off the board, into a hole or inverted piece, or over a cliff."""
        count = 0
        for i in range(len(self.hexes)):
            if not self.passable(i):
                continue
            usable = {j for j, _, _ in self.pip_arcs[i]}
            for d in range(6):
                if self.mask[i] >> d & 1 and self.nbr[i][d] not in usable:
                    count += 1
        return count
