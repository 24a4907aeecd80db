"""Tiles: four edge triangles, each a landscape on light or dark subsoil.

A tile is written as four characters, one per edge in the order north, east,
south, west at rotation 0. The letter names the landscape (M meadow, F field,
W wood, C cloud); upper case means light subsoil, lower case dark. So
``MfWc`` is a light meadow north, dark field east, light wood south and a dark
cloud west. Four characters are short enough to type by hand and make every
tile readable in a deck file without a legend.
"""

from __future__ import annotations

from dataclasses import dataclass

MEADOW, FIELD, WOOD, CLOUD = "M", "F", "W", "C"
LANDSCAPES: tuple[str, ...] = (MEADOW, FIELD, WOOD)  # the three regular ones
KINDS: tuple[str, ...] = LANDSCAPES + (CLOUD,)
LANDSCAPE_NAMES = {MEADOW: "meadow", FIELD: "field", WOOD: "wood", CLOUD: "cloud"}

#: Sides in the same order as ``terragen.grids.square.ORTHOGONAL``: N, E, S, W.
SIDES: tuple[str, ...] = ("N", "E", "S", "W")


def opposite(side: int) -> int:
    """The side of the neighbouring tile that touches ``side``."""
    return (side + 2) % 4


@dataclass(frozen=True, order=True)
class Triangle:
    """One edge triangle: a landscape and whether its subsoil is light."""

    kind: str
    light: bool

    @property
    def is_cloud(self) -> bool:
        return self.kind == CLOUD

    @property
    def code(self) -> str:
        return self.kind if self.light else self.kind.lower()


@dataclass(frozen=True)
class Tile:
    """The four triangles of a tile at rotation 0, north first, clockwise."""

    edges: tuple[Triangle, Triangle, Triangle, Triangle]

    @property
    def code(self) -> str:
        return "".join(t.code for t in self.edges)

    def rotated(self, rotation: int) -> tuple[Triangle, ...]:
        """Triangles by side after turning the tile clockwise ``rotation`` quarter turns.

        Turning clockwise once brings the north triangle to the east side, so the
        triangle now on side ``i`` is the one that was on side ``i - rotation``.
        """
        k = rotation % 4
        return tuple(self.edges[(i - k) % 4] for i in range(4))

    def canonical(self) -> str:
        """The smallest code over the four rotations: equal for tiles equal up to rotation."""
        return min(code_of(self.rotated(k)) for k in range(4))

    @property
    def cloud_count(self) -> int:
        return sum(t.is_cloud for t in self.edges)

    @property
    def regular_kinds(self) -> frozenset[str]:
        return frozenset(t.kind for t in self.edges if not t.is_cloud)

    def __str__(self) -> str:
        return self.code


def code_of(triangles: tuple[Triangle, ...]) -> str:
    return "".join(t.code for t in triangles)


def parse_tile(code: str) -> Tile:
    """Parse a four-character tile code; raises ValueError with a reason (callers add the place)."""
    if len(code) != 4:
        raise ValueError(f"tile code {code!r} must have 4 letters (north, east, south, west)")
    tris = []
    for ch in code:
        kind = ch.upper()
        if kind not in KINDS:
            raise ValueError(f"tile code {code!r}: {ch!r} is not one of M F W C (upper case light, lower case dark)")
        tris.append(Triangle(kind, ch.isupper()))
    return Tile(tuple(tris))  # type: ignore[arg-type]


def all_canonical_tiles(max_clouds: int = 4) -> list[Tile]:
    """Every tile up to rotation (1044 of them with no cloud limit), sorted by canonical code."""
    letters = [k for k in KINDS] + [k.lower() for k in KINDS]
    seen: set[str] = set()
    out: list[Tile] = []
    for a in letters:
        for b in letters:
            for c in letters:
                for d in letters:
                    tile = parse_tile(a + b + c + d)
                    if tile.cloud_count > max_clouds:
                        continue
                    canon = tile.canonical()
                    if canon not in seen:
                        seen.add(canon)
                        out.append(parse_tile(canon))
    out.sort(key=lambda t: t.code)
    return out


# The start (sun) and end (flower) tiles. The sun tile has no cloud so that the
# two sides facing the board always offer a regular connection, whatever its
# random orientation; its fourth side repeats meadow. Light subsoil everywhere
# lets the first moves score like any good connection. The flower tile is all
# cloud: it never blocks a tile placed beside it and its random orientation
# cannot favour anyone (see docs/rules-decisions.md).
START_TILE = parse_tile("MFWM")
END_TILE = parse_tile("CCCC")
START_ID = "sun"
END_ID = "flower"
