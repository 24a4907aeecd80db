"""The TerraFlip rules as pure functions over a board: placement, framing, specials.

Every function takes the board and the options explicitly, so the game state,
the validator, the players' look-ahead and the tests all share one reading of
the rules. Readings the rulebook leaves open are fields of :class:`Options`
(documented in docs/rules-decisions.md).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from numbers import Integral

from terragen.errors import SpecError
from terragen.grids.hex import Hex, is_axis_line, length, neighbors
from terragen.terraflip.geometry import line_offsets
from terragen.terraflip.model import REGULAR, TOWER, Tile

LINE_MODES = ("centres", "axes")
FIRST_FRAME_MODES = ("placed", "any")
BONUS_SCHEMES = ("from-first", "from-last")
#: the largest turn-order bonus a seat may be given: far above any the rules or the fair-bonus search use
MAX_BONUS = 1000


@dataclass(frozen=True)
class Options:
    """Switches for the readings players could reasonably disagree on.

    lines: ``centres`` (any straight line through two tile centres) or ``axes``
    (only the six hex directions). first_frame: the first flip of a turn must be
    framed from the tile just placed (``placed``) or by any two tiles of the
    player's colour (``any``). tower_passable: a framing line may run over the
    tower. owner_knows_backs: a player has seen the backs of their own tiles.
    bonus: explicit turn-order bonus per seat, else derived from bonus_scheme.
    """

    lines: str = "centres"
    first_frame: str = "placed"
    tower_passable: bool = True
    owner_knows_backs: bool = True
    bonus_scheme: str = "from-first"
    bonus: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        """Checked when made, as the other games' rules are: Options(lines="bogus") was taken and
        failed only when a game began."""
        self.check()

    def check(self) -> None:
        for name in ("tower_passable", "owner_knows_backs"):
            if not isinstance(getattr(self, name), bool):
                raise SpecError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.lines not in LINE_MODES:
            raise SpecError(f"line reading must be one of {', '.join(LINE_MODES)}, got {self.lines!r}")
        if self.first_frame not in FIRST_FRAME_MODES:
            raise SpecError(f"first-frame reading must be one of {', '.join(FIRST_FRAME_MODES)}")
        if self.bonus_scheme not in BONUS_SCHEMES:
            raise SpecError(f"bonus scheme must be one of {', '.join(BONUS_SCHEMES)}")
        if self.bonus is not None and any(isinstance(v, bool) or not isinstance(v, Integral) or not 0 <= v <= MAX_BONUS
                                          for v in self.bonus):
            raise SpecError(f"bonus values must be whole numbers from 0 to {MAX_BONUS} (points a seat adds to its "
                            f"score), got {tuple(self.bonus)!r}")

    def bonuses(self, players: int) -> tuple[int, ...]:
        """Turn-order bonus per seat (seat 0 plays first). The last seat never gets one;
        ``from-first`` hands out 3, 2, 1 from the first seat, ``from-last`` counts 1, 2, 3
        back from the seat before last."""
        if self.bonus is not None:
            if len(self.bonus) != players:
                raise SpecError(f"bonus list has {len(self.bonus)} values for {players} players")
            return self.bonus
        if self.bonus_scheme == "from-first":
            return tuple(max(0, 3 - s) if s < players - 1 else 0 for s in range(players))
        return tuple(players - 1 - s for s in range(players))


@dataclass
class Placed:
    """A tile on the table and the colour it currently shows."""

    tile: Tile
    up: str

    @property
    def hidden(self) -> str:
        return self.tile.other_face(self.up)


@dataclass
class Board:
    """Tiles on the table keyed by axial position; the tower sits at (0, 0) and is not stored."""

    cells: dict[Hex, Placed] = field(default_factory=dict)

    def copy(self) -> "Board":
        return Board({h: Placed(p.tile, p.up) for h, p in self.cells.items()})

    def occupied(self, h: Hex) -> bool:
        return h == TOWER or h in self.cells

    def colour(self, h: Hex) -> str | None:
        p = self.cells.get(h)
        return p.up if p is not None else None


def placement_limit(players: int, kind: str) -> int:
    """Farthest allowed hex distance from the tower: 4 with four players, 3 with fewer,
    one more for a knight."""
    base = 4 if players >= 4 else 3
    return base + 1 if kind == "knight" else base


def legal_positions(board: Board, kind: str, players: int) -> list[Hex]:
    """Empty spots touching a tile or the tower and within the kind's distance, sorted."""
    limit = placement_limit(players, kind)
    spots = set()
    for h in [TOWER, *board.cells]:
        for n in neighbors(h):
            if not board.occupied(n) and length(n) <= limit:
                spots.add(n)
    return sorted(spots)


def reachable_from_tower(board: Board, without: Hex | None = None) -> set[Hex]:
    """Tile positions joined to the tower by a chain of touching tiles (optionally with one
    position taken off the table)."""
    seen = {TOWER}
    todo = deque([TOWER])
    while todo:
        h = todo.popleft()
        for n in neighbors(h):
            if n not in seen and n != without and n in board.cells:
                seen.add(n)
                todo.append(n)
    seen.discard(TOWER)
    return seen


def frame_line(board: Board, a: Hex, b: Hex, colour: str, options: Options) -> list[Hex] | None:
    """Flippable tiles framed by the ``colour`` tiles at ``a`` and ``b``, or None when a-b is
    not a framing line (wrong direction, a ``colour`` centre in between, an empty space or a
    blocked tower on the way). An empty list means a valid line with nothing to flip.

    The tower is passable as ``options`` say, any other cell when a tile lies on it. Written out
    with the line's remembered offsets rather than through :func:`line_cells`: the players ask it
    of every pair of tiles for every placement they weigh, and it was a fifth of a game's time."""
    cells = board.cells
    pa, pb = cells.get(a), cells.get(b)
    if pa is None or pb is None or pa.up != colour or pb.up != colour:
        return None
    axes = options.lines == "axes"
    if axes and not is_axis_line(a, b):
        return None
    q, r = a
    centres, off = line_offsets((b[0] - q, b[1] - r), axes)
    if not centres:
        return None
    tower_ok = options.tower_passable
    out = []
    for dq, dr in centres:
        h = (q + dq, r + dr)
        p = cells.get(h)
        if h == TOWER:
            if not tower_ok:
                return None
        elif p is None:
            return None  # an empty space on the way
        if p is None:
            continue  # the tower
        if p.up == colour:
            return None  # the line stops at the first centre of the framing colour
        if p.tile.kind == REGULAR:
            out.append(h)
    for dq, dr in off:
        h = (q + dq, r + dr)
        if not (tower_ok if h == TOWER else h in cells):
            return None
    return out


def frame_targets(board: Board, anchor: Hex, colour: str, options: Options) -> dict[Hex, list[Hex]]:
    """Tiles flippable by framing from ``anchor``: target -> partner tiles that frame it."""
    out: dict[Hex, list[Hex]] = {}
    for b, p in board.cells.items():
        if b == anchor or p.up != colour:
            continue
        line = frame_line(board, anchor, b, colour, options)
        for t in line or ():
            out.setdefault(t, []).append(b)
    return {t: sorted(v) for t, v in sorted(out.items())}


def all_frame_targets(board: Board, colour: str, options: Options) -> dict[Hex, list[Hex]]:
    """Every tile framed by some pair of ``colour`` tiles anywhere on the board."""
    out: dict[Hex, set[Hex]] = {}
    ends = [h for h, p in board.cells.items() if p.up == colour]
    for i, a in enumerate(ends):
        for b in ends[i + 1:]:
            for t in frame_line(board, a, b, colour, options) or ():
                out.setdefault(t, set()).update((a, b))
    return {t: sorted(v) for t, v in sorted(out.items())}


def first_targets(board: Board, placed: Hex, colour: str, options: Options) -> dict[Hex, list[Hex]]:
    if options.first_frame == "any":
        return all_frame_targets(board, colour, options)
    return frame_targets(board, placed, colour, options)


def campsite_targets(board: Board, camp: Hex, colour: str) -> list[Hex]:
    """Touching regular tiles that show another colour: the campsite flips one unframed."""
    return sorted(n for n in neighbors(camp)
                  if n in board.cells and board.cells[n].tile.kind == REGULAR and board.cells[n].up != colour)


def catapult_moves(board: Board, catapult: Hex, colour: str, players: int) -> list[tuple[Hex, Hex]]:
    """(from, to) pairs for the catapult: a touching regular tile of another colour whose
    removal leaves every other tile joined to the tower, moved to a different legal spot."""
    out = []
    everyone = set(board.cells)
    for src in campsite_targets(board, catapult, colour):
        if reachable_from_tower(board, without=src) != everyone - {src}:
            continue
        limit = placement_limit(players, REGULAR)
        spots = set()
        for h in [TOWER, *board.cells]:
            if h == src:
                continue
            for n in neighbors(h):
                if n != src and not board.occupied(n) and length(n) <= limit:
                    spots.add(n)
        out.extend((src, dst) for dst in sorted(spots))
    return out
