"""Colour palettes for print kits, read from ``terragen/data/palettes/*.toml``.

Colours are data so a group can reprint a kit in their own scheme (or a
printer-friendly one) without touching code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from terragen.errors import InputError
from terragen.templates import template_path


@dataclass(frozen=True)
class Palette:
    levels: dict[int, str]
    ink: dict[int, str]
    seats: tuple[str, ...]
    seat_names: tuple[str, ...]
    #: seat number -> rank among a board's seats (see :meth:`for_seats`); a seat not in it is its own rank
    seat_ranks: dict[int, int] = field(default_factory=dict)

    def level(self, lv: int) -> str:
        return self.levels.get(lv, "#cccccc")

    def text_on(self, lv: int) -> str:
        """The palette's ink for level ``lv``, unless it reads worse than 4.5:1 on the level colour."""
        from terragen.render.contrast import MIN_TEXT_CONTRAST, contrast, ink_on

        ink = self.ink.get(lv, "#000000")
        return ink if contrast(ink, self.level(lv)) >= MIN_TEXT_CONTRAST else ink_on(self.level(lv))

    def for_seats(self, seats: Iterable[int]) -> Palette:
        """This palette colouring a board's seats by their rank, not their number: a file may number
        its seats 1 and 7, which by number would share a colour."""
        return replace(self, seat_ranks={seat: rank for rank, seat in enumerate(sorted(set(seats)))})

    def rank(self, s: int) -> int:
        return self.seat_ranks.get(s, s)

    def seat(self, s: int) -> str:
        return self.seats[self.rank(s) % len(self.seats)]

    def seat_name(self, s: int) -> str:
        return self.seat_names[self.rank(s) % len(self.seat_names)]


@lru_cache(maxsize=8)
def load_palette(name: str = "terrain") -> Palette:
    path = template_path("palettes", f"{name}.toml")
    try:
        d = tomllib.loads(path.read_text(encoding="utf-8"))
        return Palette(
            {int(k): str(v) for k, v in d["levels"].items()},
            {int(k): str(v) for k, v in d["ink"].items()},
            tuple(d["seats"]["colours"]),
            tuple(d["seats"]["names"]),
        )
    except (OSError, KeyError, ValueError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{path}: bad palette ({exc})") from None


def shade(colour: str, factor: float) -> str:
    """``colour`` darkened (factor < 1) or lightened toward white (factor > 1)."""
    c = colour.lstrip("#")
    rgb = [int(c[i:i + 2], 16) for i in (0, 2, 4)]
    if factor <= 1:
        rgb = [round(v * factor) for v in rgb]
    else:
        rgb = [round(v + (255 - v) * (factor - 1)) for v in rgb]
    return "#" + "".join(f"{max(0, min(255, v)):02x}" for v in rgb)


def luminance(colour: str) -> float:
    """Grey value (0 black .. 1 white) a printer's greyscale conversion gives ``colour``."""
    c = colour.lstrip("#")
    r, g, b = (int(c[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b
