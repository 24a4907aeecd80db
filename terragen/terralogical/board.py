"""The 8x8 board, placed tiles, and the placement rule.

Squares are ``(row, col)``, 0-based from the top left, as in
``terragen.grids.square``. The sun start field is the bottom-left corner
``(7, 0)``; the flower tile lies in the opposite corner ``(0, 7)`` and the
flower fields are the other three squares of that corner's 2x2 block. A tile
placed on a flower field ends the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from terragen.grids.square import ORTHOGONAL, Square, in_bounds, step
from terragen.terralogical.tiles import END_ID, END_TILE, START_ID, START_TILE, Tile, Triangle, opposite

SIZE = 8
SUN_SQUARE: Square = (7, 0)
FLOWER_CORNER: Square = (0, 7)
FLOWER_FIELDS: tuple[Square, ...] = ((0, 6), (1, 6), (1, 7))

SUBSOIL_RULES = ("both", "either", "placed")
#: How tied flocks rank (``RuleOptions.flock_ties``; docs/rules-decisions.md, Terralogical 11).
FLOCK_TIES = ("share", "by-count")


@dataclass(frozen=True)
class RuleOptions:
    """The readings of the rulebook that players may want to switch.

    ``subsoil_rule``: when the two touching triangles of a regular connection
    lie on different subsoils, ``both`` scores 2 only if both are light,
    ``either`` if one is, ``placed`` looks at the newly placed tile only.
    ``min_flock``: the smallest group of cubes that counts as a flock.
    ``flock_ties``: how tied flocks rank: ``share`` (tied players share a place and
    the next player takes the place after them: 5, 5, 3 earn 4, 4, 1 with four
    players) or ``by-count`` (the distinct counts are ranked: 5, 5, 3 earn 4, 4, 2).
    ``stall_rule``: ``round`` ends the game after any full round without a
    placement (the literal rule); ``empty-pile`` only once the pile is empty,
    so a round of draws just refills hands.
    """

    subsoil_rule: str = "both"
    min_flock: int = 2
    hand_size: int = 3
    cubes_per_player: int = 30
    stall_rule: str = "round"
    flock_ties: str = "share"

    def __post_init__(self) -> None:
        """A reading the rules do not have is refused here, not at the end of the first game
        (a misspelt ``flock_ties`` failed only when the game was scored)."""
        for name, allowed in (("subsoil_rule", SUBSOIL_RULES), ("stall_rule", ("round", "empty-pile")),
                              ("flock_ties", FLOCK_TIES)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be {' or '.join(allowed)}, not {getattr(self, name)!r}")
        # hand_size 0 made a game that stalled after three actions; None or "3" failed mid-game
        for name, least in (("min_flock", 1), ("hand_size", 1), ("cubes_per_player", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number, at least {least}, not {value!r}")


@dataclass(frozen=True)
class Placed:
    tile: Tile
    rotation: int
    tile_id: str
    owner: int | None = None  # seat of the player whose cube is on it

    def side(self, side: int) -> Triangle:
        return self.tile.rotated(self.rotation)[side]


@dataclass(frozen=True)
class Connection:
    """Two triangles touching across an edge between the new tile and a placed one."""

    neighbour: Square
    side: int  # side of the new tile
    mine: Triangle
    theirs: Triangle

    @property
    def involves_cloud(self) -> bool:
        return self.mine.is_cloud or self.theirs.is_cloud

    @property
    def matches(self) -> bool:
        return self.involves_cloud or self.mine.kind == self.theirs.kind

    @property
    def regular(self) -> bool:
        return not self.involves_cloud and self.mine.kind == self.theirs.kind


def connection_points(conn: Connection, subsoil_rule: str = "both") -> int:
    """2 for a regular connection on light subsoil, 1 on dark, 0 with a cloud or a mismatch."""
    if not conn.regular:
        return 0
    if subsoil_rule == "both":
        light = conn.mine.light and conn.theirs.light
    elif subsoil_rule == "either":
        light = conn.mine.light or conn.theirs.light
    elif subsoil_rule == "placed":
        light = conn.mine.light
    else:
        raise ValueError(f"unknown subsoil rule {subsoil_rule!r}")
    return 2 if light else 1


@dataclass
class PlacementCheck:
    square: Square
    connections: list[Connection] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (code, message)
    points: int = 0

    @property
    def legal(self) -> bool:
        return not self.problems


def fmt(sq: Square) -> str:
    return f"{sq[0]},{sq[1]}"


@dataclass
class Board:
    """Placed tiles by square. Copy-free mutation keeps the simulator fast."""

    size: int = SIZE
    tiles: dict[Square, Placed] = field(default_factory=dict)

    @classmethod
    def initial(cls, start_rotation: int = 0, end_rotation: int = 0) -> "Board":
        board = cls()
        board.tiles[SUN_SQUARE] = Placed(START_TILE, start_rotation, START_ID)
        board.tiles[FLOWER_CORNER] = Placed(END_TILE, end_rotation, END_ID)
        return board

    def copy(self) -> "Board":
        return Board(self.size, dict(self.tiles))

    def neighbours(self, sq: Square) -> list[tuple[int, Square]]:
        out = []
        for side, d in enumerate(ORTHOGONAL):
            n = step(sq, d)
            if in_bounds(n, self.size):
                out.append((side, n))
        return out

    def anchors(self, sq: Square) -> bool:
        """Whether ``sq`` touches a placed land tile (the flower tile carries no neighbour: decision 3)."""
        for _, n in self.neighbours(sq):
            placed = self.tiles.get(n)
            if placed is not None and placed.tile_id != END_ID:
                return True
        return False

    def frontier(self) -> list[Square]:
        """Empty squares next to an anchoring tile, in row-major order (deterministic)."""
        out = set()
        for sq, placed in self.tiles.items():
            if placed.tile_id == END_ID:
                continue
            for _, n in self.neighbours(sq):
                if n not in self.tiles:
                    out.add(n)
        return sorted(out)

    def check(self, sq: Square, tile: Tile, rotation: int, options: RuleOptions) -> PlacementCheck:
        """Every reason the placement breaks the rules (empty when legal) and its points."""
        result = PlacementCheck(sq)
        if not in_bounds(sq, self.size):
            result.problems.append(("off-board", f"square {fmt(sq)} is off the {self.size}x{self.size} board"))
            return result
        if sq in self.tiles:
            result.problems.append(("square-occupied", f"square {fmt(sq)} already holds tile {self.tiles[sq].tile_id}"))
            return result
        sides = tile.rotated(rotation)
        for side, n in self.neighbours(sq):
            placed = self.tiles.get(n)
            if placed is None:
                continue
            result.connections.append(Connection(n, side, sides[side], placed.side(opposite(side))))
        if not self.anchors(sq):
            result.problems.append(("not-adjacent", f"square {fmt(sq)} touches no placed land tile"))
            return result
        for conn in result.connections:
            if not conn.matches:
                result.problems.append(
                    (
                        "edge-mismatch",
                        f"{fmt(sq)} shows {conn.mine.kind} towards {fmt(conn.neighbour)}, "
                        f"which shows {conn.theirs.kind}",
                    )
                )
        if not any(c.regular for c in result.connections):
            result.problems.append(
                ("no-regular-connection", f"tile on {fmt(sq)} has no cloud-free matching edge with a placed tile")
            )
        if result.legal:
            result.points = sum(connection_points(c, options.subsoil_rule) for c in result.connections)
        return result

    def touching(self, sq: Square) -> list[tuple[int, Triangle]]:
        """(side of a tile on ``sq``, the neighbour's triangle facing it) for every placed neighbour."""
        out = []
        for side, n in self.neighbours(sq):
            placed = self.tiles.get(n)
            if placed is not None:
                out.append((side, placed.side(opposite(side))))
        return out


def quick_points(sides: tuple[Triangle, ...], touching: list[tuple[int, Triangle]], subsoil_rule: str) -> int | None:
    """Points of a placement on an empty anchored square, or None when it is illegal.

    The simulator's hot path: the same verdict as :meth:`Board.check` (a test
    compares them) without building the explanation objects.
    """
    regular = False
    points = 0
    for side, theirs in touching:
        mine = sides[side]
        if mine.kind == "C" or theirs.kind == "C":
            continue
        if mine.kind != theirs.kind:
            return None
        regular = True
        if subsoil_rule == "both":
            light = mine.light and theirs.light
        elif subsoil_rule == "either":
            light = mine.light or theirs.light
        else:
            light = mine.light
        points += 2 if light else 1
    return points if regular else None
