"""A Terrain Game layout as a file describes it: cells, players, destinations.

The layout is deliberately permissive: it can hold a homemade board with
mistakes (a duplicate cell, a level 9, a player on no corner) so that
``validate`` can report every one of them. Analysis works on a
:class:`~terragen.terrain.board.Board` built from a layout. Unknown keys from
the JSON form are kept in ``extra`` dicts so they survive a round trip;
``where`` remembers the line and column a text file gave, for messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from terragen.grids import hex as hx
from terragen.grids.hex import Hex

SourcePos = tuple[int, int]  # (line, column), 1-based


@dataclass
class Cell:
    q: int
    r: int
    level: int
    pattern: str
    rotation: int
    inverted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    where: SourcePos | None = field(default=None, compare=False)

    @property
    def hex(self) -> Hex:
        return (self.q, self.r)

    @property
    def token(self) -> str:
        """The hand-typed form: level, pattern, rotation, and ``*`` when inverted (``5B3``)."""
        return f"{self.level}{self.pattern}{self.rotation}{'*' if self.inverted else ''}"

    @property
    def piece_name(self) -> str:
        """The piece's id where the layout names one (``extra.piece``, e.g. ``5B2``: which copy of the
        set to take), else its level and pattern: what a builder looks for in the box."""
        piece = self.extra.get("piece") if isinstance(self.extra, dict) else None
        return str(piece) if piece else f"{self.level}{self.pattern}"


@dataclass
class Destination:
    q: int
    r: int
    extra: dict[str, Any] = field(default_factory=dict)
    where: SourcePos | None = field(default=None, compare=False)

    @property
    def hex(self) -> Hex:
        return (self.q, self.r)


@dataclass
class Player:
    seat: int
    corner: int
    destinations: list[Destination] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    where: SourcePos | None = field(default=None, compare=False)


@dataclass
class Layout:
    radius: int
    cells: list[Cell] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def cell_map(self) -> dict[Hex, Cell]:
        """Cells by position; where a file lists a position twice, the first one counts."""
        out: dict[Hex, Cell] = {}
        for c in self.cells:
            out.setdefault(c.hex, c)
        return out

    def start(self, player: Player) -> Hex | None:
        """The player's start hex, or None when the corner number is not 0..5."""
        if 0 <= player.corner < 6:
            return hx.corner(self.radius, player.corner)
        return None

    def copy(self) -> Layout:
        """A layout of its own: editing the copy's cells, players or metadata leaves this one as it
        was (the ``extra`` dicts are copied all the way down: a copy's ``meta`` edited the original's)."""
        from copy import deepcopy

        return Layout(
            self.radius,
            [replace(c, extra=deepcopy(c.extra)) for c in self.cells],
            [
                replace(p, destinations=[replace(d, extra=deepcopy(d.extra)) for d in p.destinations],
                        extra=deepcopy(p.extra))
                for p in self.players
            ],
            deepcopy(self.extra),
        )

    def sorted_cells(self) -> list[Cell]:
        """Cells in reading order (row r, then q), the order both file forms write."""
        return sorted(self.cells, key=lambda c: (c.r, c.q))


def require_layout(layout: Any, function: str) -> None:
    """A TypeError that says what to pass, for a library caller who gave the file's text or path
    (it failed deep inside with "'str' object has no attribute 'radius'")."""
    if not isinstance(layout, Layout):
        raise TypeError(f"{function} takes a Layout (load_layout(path) or parse_layout(text) makes one), "
                        f"not {type(layout).__name__}")
