"""Families, tiles and tile sets: the pieces every other TerraFlip module talks about.

A tile is identified by a stable string id (``blue-river-3``, ``gray-knight``) so
that states, tile-set files and player memories can refer to it without
carrying objects around. Its two faces are colours; the front is always the
owner's colour because that is the face used to deal the tiles and the one a
player puts down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from terragen.errors import InputError

#: The four families in seat order of assignment (seat i plays FAMILIES[i]).
FAMILIES: tuple[str, ...] = ("blue", "green", "gray", "yellow")
#: Each family's nine regular tiles show one land; the rulebook lists four lands
#: of nine tiles and four families, so the pairing is one land per family.
LAND_OF: dict[str, str] = {"blue": "river", "green": "forest", "gray": "mountain", "yellow": "desert"}
SPECIAL_KINDS: tuple[str, ...] = ("knight", "catapult", "campsite")
REGULAR = "regular"
KINDS: tuple[str, ...] = (REGULAR, *SPECIAL_KINDS)
TILES_PER_FAMILY = 9
SPIES_PER_PLAYER = 3
TOWER = (0, 0)


@dataclass(frozen=True)
class Tile:
    """One physical tile: owner family, kind, and the colour on each face."""

    id: str
    family: str
    kind: str
    front: str
    back: str

    @property
    def special(self) -> bool:
        return self.kind != REGULAR

    @property
    def land(self) -> str | None:
        return LAND_OF.get(self.family) if self.kind == REGULAR else None

    def other_face(self, colour: str) -> str:
        return self.back if colour == self.front else self.front

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "family": self.family, "kind": self.kind, "land": self.land,
                "front": self.front, "back": self.back}


def regular_id(family: str, index: int) -> str:
    return f"{family}-{LAND_OF[family]}-{index}"


def special_id(family: str, kind: str) -> str:
    return f"{family}-{kind}"


def parse_tile_id(tile_id: str) -> tuple[str, str, int | None]:
    """Split an id into (family, kind, index); raises ValueError for a malformed id."""
    parts = tile_id.split("-")
    if len(parts) == 2 and parts[0] in FAMILIES and parts[1] in SPECIAL_KINDS:
        return parts[0], parts[1], None
    if len(parts) == 3 and parts[0] in FAMILIES and parts[1] == LAND_OF[parts[0]] and parts[2].isascii() and parts[2].isdigit():
        index = int(parts[2])
        if index >= 1:
            return parts[0], REGULAR, index
    raise ValueError(f"not a TerraFlip tile id: {tile_id!r}")


@dataclass(frozen=True)
class TileSet:
    """Which colour hides under each regular tile. Specials show their owner on both faces:
    they never flip, so a second colour would never be seen."""

    backs: tuple[tuple[str, str], ...]  # sorted (regular tile id, back colour)
    per_family: int = TILES_PER_FAMILY

    @property
    def back_of(self) -> dict[str, str]:
        return dict(self.backs)

    def tiles(self, families: tuple[str, ...] = FAMILIES) -> list[Tile]:
        backs = self.back_of
        out: list[Tile] = []
        for f in families:
            for i in range(1, self.per_family + 1):
                tid = regular_id(f, i)
                out.append(Tile(tid, f, REGULAR, f, backs[tid]))
            for kind in SPECIAL_KINDS:
                out.append(Tile(special_id(f, kind), f, kind, f, f))
        return out

    def tile(self, tile_id: str) -> Tile:
        family, kind, index = parse_tile_id(tile_id)
        if kind != REGULAR:
            return Tile(tile_id, family, kind, family, family)
        back = self.back_of.get(tile_id)
        if back is None:
            raise ValueError(f"tile {tile_id} is not in this tile set")
        return Tile(tile_id, family, kind, family, back)

    def back_counts(self, family: str) -> dict[str, int]:
        """How many of ``family``'s regular tiles hide each colour: the public base rates."""
        counts = {c: 0 for c in FAMILIES}
        for tid, back in self.backs:
            if tid.startswith(family + "-"):
                counts[back] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {"per_family": self.per_family, "backs": {tid: b for tid, b in self.backs}}

    @classmethod
    def from_json(cls, data: Any, source: str = "tile set") -> "TileSet":
        """Read the ``tiles`` part of a tile-set file, checking it is complete and well formed."""
        if not isinstance(data, dict):
            raise InputError(f"{source}: expected a JSON object")
        per_family = data.get("per_family", TILES_PER_FAMILY)
        backs = data.get("backs")
        if not isinstance(per_family, int) or isinstance(per_family, bool) or not 1 <= per_family <= 30:
            raise InputError(f"{source}: 'per_family' must be a whole number from 1 to 30")
        if not isinstance(backs, dict):
            raise InputError(f"{source}: 'backs' must map tile ids to colours")
        expected = {regular_id(f, i) for f in FAMILIES for i in range(1, per_family + 1)}
        for tid, colour in backs.items():
            if tid not in expected:
                raise InputError(f"{source}: unknown tile id {tid!r} in 'backs'")
            if colour not in FAMILIES:
                raise InputError(f"{source}: tile {tid} has unknown back colour {colour!r}")
        missing = sorted(expected - set(backs))
        if missing:
            raise InputError(f"{source}: no back colour for tile {missing[0]} ({len(missing)} missing)")
        return cls(tuple(sorted(backs.items())), per_family)


def default_tileset() -> TileSet:
    """A balanced set without a solver: a family's tiles 1, 2, 3 hide its first, second and third
    other colour, and so on round (each other colour three times in nine tiles).
    Used when no tile-set file is given, so simulations need no OR-Tools."""
    backs = []
    for f in FAMILIES:
        others = [c for c in FAMILIES if c != f]
        for i in range(1, TILES_PER_FAMILY + 1):
            backs.append((regular_id(f, i), others[(i - 1) % 3]))
    return TileSet(tuple(sorted(backs)))
