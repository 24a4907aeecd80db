"""What every game's kit is made of besides its own art: a kit file, the duplex alignment test, and
the check of a tile size, so the four kits name and refuse things the same way."""

from __future__ import annotations

from dataclasses import dataclass

from terragen.errors import SpecError
from terragen.render.impose import PrintOptions, alignment_test
from terragen.render.model import Document


@dataclass
class KitPart:
    """One file of the kit: a short name for the file and its document."""

    name: str
    doc: Document


def alignment_part(opts: PrintOptions, game: str) -> KitPart:
    """The duplex alignment test, printed before any two-sided sheet so the backs can be lined up
    (``--back-offset``) before ink is spent on tiles."""
    return KitPart("alignment-test", Document(f"{game}: duplex alignment test", alignment_test(opts, game),
                                              duplex=opts.flip))


def check_tile_size(tile_size: float, low: float, high: float, measured: str = "across flats") -> None:
    """Refuse a tile size outside the kit's range (``measured``: how the size is taken, said in the
    message since hexes and squares are measured differently)."""
    if not low <= tile_size <= high:
        how = f" {measured}" if measured else ""
        raise SpecError(f"--tile-size must be {low:g}–{high:g} mm{how} (got {tile_size:g})")
