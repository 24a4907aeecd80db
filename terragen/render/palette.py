"""Colour palettes for the Terrain Game's print kit and build sheets: ``colour`` (the default), ``grey``
(for black-and-white printers) in ``terragen/data/palettes/*.toml``, or a group's own TOML file.

Colours are data so a group can reprint a kit in their own scheme (or a
printer-friendly one) without touching code (``--palette``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from terragen.errors import InputError
from terragen.templates import load_template_toml, template_names, template_path

#: seats a Terrain board has, each with a colour and a name in a palette
SEATS = 6
MAX_SEAT_NAME = 20


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


#: the palette kits and build sheets use unless told otherwise
DEFAULT_PALETTE = "colour"
PALETTE_SECTIONS = ("levels", "ink", "seats")
#: the palettes' other spellings (a US player typed --palette gray)
SPELLINGS = {"color": "colour", "gray": "grey"}
_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def palette_names() -> list[str]:
    """The shipped palettes, the default first (as the help lists them)."""
    return sorted(template_names("palettes"), key=lambda n: n != DEFAULT_PALETTE)


@lru_cache(maxsize=8)
def load_palette(name: str = DEFAULT_PALETTE) -> Palette:
    """A shipped palette by name (``colour``, ``grey``; ``color`` and ``gray`` as well)."""
    name = SPELLINGS.get(name, name)
    if name not in palette_names():
        from terragen.names import unknown_name

        raise InputError(unknown_name("palette", name, palette_names(), "a .toml file").message)
    parts = ("palettes", f"{name}.toml")
    from terragen.fileio import display_name

    source = display_name(str(template_path(*parts)))  # its file: a user's own under TERRAGEN_TEMPLATES
    return palette_from_dict(load_template_toml(*parts), source, base=None if name == DEFAULT_PALETTE else load_palette())


def read_palette(name_or_path: str | Path) -> Palette:
    """A shipped palette by name, or a group's own from a TOML file (``-``: standard input).

    Why a file may give only part of a palette: a group reprinting the pieces in their own colours
    should not have to copy the seats' colours too; what it leaves out is the default palette's."""
    p = Path(name_or_path)
    name = str(name_or_path)
    # a shipped name is the palette unless a file of that name is there (a folder called "grey", as
    # `kit terrain --palette grey --out grey` makes, was read as the palette file); any other name
    # without a suffix that names nothing is a name, never a path
    if name != "-" and (SPELLINGS.get(name, name) in palette_names() and not p.is_file()
                        or not p.suffix and not os.path.lexists(p)):
        return load_palette(name)
    from terragen.fileio import read_text_input

    return palette_from_dict(_read_toml(read_text_input(p), str(p)), str(p), base=load_palette())


def _read_toml(text: str, source: str) -> dict[str, Any]:
    from terragen.safejson import load_toml

    return load_toml(text, source)


def palette_from_dict(data: dict[str, Any], source: str, base: Palette | None = None) -> Palette:
    """A palette from TOML's tables, each colour checked (``#rrggbb``); tables ``data`` leaves out, and
    levels an [ink] table leaves out, are ``base``'s. A [levels] table must give every level."""
    from terragen.terrain.pieces import MAX_LEVEL, MIN_LEVEL

    unknown = sorted(set(data) - set(PALETTE_SECTIONS))
    if unknown:
        from terragen.suggest import suggest

        guess = suggest(unknown[0], list(PALETTE_SECTIONS))
        raise InputError(f"{source}: unknown table {unknown[0]!r} in a palette"
                         + (f": did you mean [{guess}]?" if guess else f" (known: {', '.join(PALETTE_SECTIONS)})"))

    def colour(value: Any, where: str) -> str:
        if not isinstance(value, str) or not _HEX.fullmatch(value):
            raise InputError(f"{source}: {where} must be a colour written \"#rrggbb\" (got {value!r})")
        return value.lower()

    def by_level(table: str) -> dict[int, str]:
        got = data.get(table, {})
        if not isinstance(got, dict):
            raise InputError(f"{source}: [{table}] must be a table of level = \"#rrggbb\"")
        if table not in data and base is not None:
            return dict(getattr(base, table))
        # a level's ink may fall back on the base's; a [levels] table given is the pieces' whole
        # scale (mixing two palettes' levels made a scale no one chose)
        out = dict(base.ink) if base is not None and table == "ink" else {}
        for key, value in got.items():
            lv = int(key) if re.fullmatch(r"[0-9]{1,2}", str(key).strip()) else None  # "²" is a digit to isdigit
            if lv is None or not MIN_LEVEL <= lv <= MAX_LEVEL:
                raise InputError(f"{source}: [{table}] key {key!r} is no level ({MIN_LEVEL} to {MAX_LEVEL})")
            out[lv] = colour(value, f"[{table}] {key}")
        missing = [lv for lv in range(MIN_LEVEL, MAX_LEVEL + 1) if lv not in out]
        if missing and table == "levels":
            raise InputError(f"{source}: [levels] has no colour for level {missing[0]}")
        return out

    seats = data.get("seats", {})
    if not isinstance(seats, dict) or set(seats) - {"colours", "names"}:
        raise InputError(f"{source}: [seats] holds 'colours' and 'names', lists of six")
    colours, names = seats.get("colours"), seats.get("names")
    if colours is None:
        colours = list(base.seats) if base is not None else None
    if names is None:
        names = list(base.seat_names) if base is not None else None
    for what, values in (("colours", colours), ("names", names)):
        if not isinstance(values, list) or len(values) != SEATS:
            raise InputError(f"{source}: [seats] {what} must be a list of {SEATS}, one per seat")
    if not all(isinstance(n, str) and n.strip() and n.isprintable() and len(n) <= MAX_SEAT_NAME for n in names):
        raise InputError(f"{source}: [seats] names must be words of 1 to {MAX_SEAT_NAME} characters")
    return Palette(by_level("levels"), by_level("ink"),
                   tuple(colour(c, f"[seats] colours {k + 1}") for k, c in enumerate(colours)),
                   tuple(n.strip() for n in names))


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
