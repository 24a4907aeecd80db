"""Terrain pieces: levels, the four pip patterns, rotation, piece ids and inventories.

A piece has three exits (pips). Up to rotation there are exactly four ways to
choose three of six sides, which are the patterns A-D. Rotating by ``k`` turns
every exit ``d`` into ``(d + k) mod 6``. Exits are kept as 6-bit masks (bit
``d`` set = exit towards direction ``d``) because the analysis and simulator
test them in their innermost loops.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from terragen.errors import InputError
from terragen.templates import load_template_toml, template_names, template_path

MIN_LEVEL, MAX_LEVEL = 1, 8
PATTERNS: dict[str, tuple[int, int, int]] = {
    "A": (0, 1, 2),
    "B": (0, 1, 3),
    "C": (0, 1, 4),
    "D": (0, 2, 4),
}
PATTERN_NAMES = tuple(PATTERNS)


def exit_mask(pattern: str, rotation: int) -> int:
    """Bit mask of exit directions for ``pattern`` turned by ``rotation`` steps (0 for unknown)."""
    base = PATTERNS.get(pattern)
    if base is None:
        return 0
    mask = 0
    for d in base:
        mask |= 1 << ((d + rotation) % 6)
    return mask


def exits(pattern: str, rotation: int) -> tuple[int, ...]:
    """Exit directions of a turned piece, ascending."""
    m = exit_mask(pattern, rotation)
    return tuple(d for d in range(6) if m >> d & 1)


def distinct_rotations(pattern: str) -> list[int]:
    """Rotations 0..5 that give different exit sets (pattern D repeats after 2 turns)."""
    seen: dict[int, int] = {}
    for k in range(6):
        seen.setdefault(exit_mask(pattern, k), k)
    return sorted(seen.values())


_PIECE_ID = re.compile(r"^([1-9][0-9]*)([A-Za-z])([0-9]+)$")


def piece_id(level: int, pattern: str, copy: int) -> str:
    return f"{level}{pattern}{copy}"


def parse_piece_id(text: str) -> tuple[int, str, int]:
    """Split ``"5B2"`` into ``(5, "B", 2)``; raise ValueError for anything else."""
    m = _PIECE_ID.match(text.strip())
    if not m:
        raise ValueError(f"not a piece id: {text!r} (expected level, pattern, copy, e.g. 5B2)")
    return int(m.group(1)), m.group(2).upper(), int(m.group(3))


@dataclass(frozen=True)
class Inventory:
    """How many pieces of each (level, pattern) a player group owns.

    The standard set has every (level 1-8, pattern A-D) three times: 96 pieces,
    91 of which fill a radius-5 board. Partial sets (someone missing pieces) and
    larger sets for bigger boards come from TOML files.
    """

    name: str
    counts: dict[tuple[int, str], int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def count(self, level: int, pattern: str) -> int:
        return self.counts.get((level, pattern), 0)

    def levels(self) -> list[int]:
        return sorted({lv for (lv, _), n in self.counts.items() if n > 0})

    def piece_ids(self) -> list[str]:
        """Every physical piece, e.g. ``1A1 .. 8D3``, in level, pattern, copy order."""
        out = []
        for (lv, pat) in sorted(self.counts):
            out.extend(piece_id(lv, pat, c) for c in range(1, self.counts[(lv, pat)] + 1))
        return out


def standard_inventory() -> Inventory:
    return load_inventory("standard")


#: More copies of one piece than any board has positions (127 at radius 6) is a typo, and
#: inventories are expanded piece by piece: a billion copies would exhaust memory.
MAX_COPIES = 1000


def load_inventory(name_or_path: str | Path) -> Inventory:
    """Load an inventory by template name (``standard``, ``extended``) or from a TOML file.

    File format::

        name = "my set"
        copies = 3          # how many of each (level, pattern) by default
        levels = 8          # levels 1..levels
        [counts]            # optional overrides, "<level><pattern>" = count
        "8D" = 2
    """
    p = Path(name_or_path)
    if str(name_or_path) == "-":  # standard input, as --spec and --deck read it (it said "unknown inventory '-'")
        from terragen.fileio import read_text_input

        text = read_text_input("-")
    elif not p.suffix and not os.path.lexists(p):  # lexists: a name too long for a path is a name, not an error
        names = template_names("terrain", "inventories")
        if str(name_or_path) not in names:  # a name, never a path
            from terragen.names import unknown_name

            # the names and the likely one, as for every other unknown name ("template" named no name)
            names.sort(key=lambda n: n != "standard")  # standard first, as the help lists them
            raise InputError(unknown_name("inventory", str(name_or_path), names, "a .toml file").message)
        parts = ("terrain", "inventories", f"{name_or_path}.toml")
        # a template under TERRAGEN_TEMPLATES is the user's own file: named by its path in every error
        return inventory_from_dict(load_template_toml(*parts), str(template_path(*parts)))
    else:
        from terragen.fileio import read_text_input

        text = read_text_input(p)
    from terragen.formats import not_toml_kind
    from terragen.safejson import load_toml

    try:
        data = load_toml(text, str(p))
    except InputError:
        # said only of a file that is not TOML (one starting with its [counts] table looked like JSON):
        # TOML's own words ("Invalid statement" at 1:1) sent the user to fix a layout's syntax
        other = not_toml_kind(text)
        if other is None:
            raise
        raise InputError(f"{p}: this looks like {other}, not a piece inventory: an inventory is TOML "
                         f"({INVENTORY_FORM})") from None
    return inventory_from_dict(data, str(p))


#: what an inventory file holds, for the messages that say a file is not one
INVENTORY_FORM = "name, copies, levels and a [counts] table"


INVENTORY_KEYS = ("name", "copies", "levels", "counts")


def _is_a_spec(unknown: list[str]) -> bool:
    """Whether an inventory's keys it does not know are all a generator spec's (players, corners, ...):
    then the file is a spec, not an inventory with a misspelt key."""
    from terragen.terrain.generate.spec import SPEC_KEYS

    return set(unknown) <= SPEC_KEYS | {"seed", "time_limit"}


def inventory_from_dict(data: dict, source: str = "inventory") -> Inventory:
    unknown = sorted(set(data) - set(INVENTORY_KEYS))
    if unknown and _is_a_spec(unknown):  # it said "unknown key 'corners' in an inventory: did you mean counts?"
        raise InputError(f"{source}: this is a generator spec, not a piece inventory: give it as --spec FILE (an "
                         f"inventory holds {INVENTORY_FORM})")
    if unknown:  # a misspelt [count] table was once read as no overrides: the full set, without a word
        from terragen.suggest import suggest

        guess = suggest(unknown[0], list(INVENTORY_KEYS))
        raise InputError(f"{source}: unknown key {unknown[0]!r} in an inventory"
                         + (f": did you mean {guess}?" if guess else f" (known: {', '.join(INVENTORY_KEYS)})"))
    if "copies" not in data and not data.get("counts"):  # it read as a set of no pieces, which said nothing of why
        raise InputError(f"{source}: an inventory needs 'copies' (how many of each level and pattern) or a "
                         "[counts] table, or both")
    copies = data.get("copies", 0)
    levels = data.get("levels", MAX_LEVEL)
    if not isinstance(copies, int) or isinstance(copies, bool) or not 0 <= copies <= MAX_COPIES:
        raise InputError(f"{source}: 'copies' must be a whole number from 0 to {MAX_COPIES}")
    if not isinstance(levels, int) or isinstance(levels, bool) or not MIN_LEVEL <= levels <= MAX_LEVEL:
        raise InputError(f"{source}: 'levels' must be a whole number from {MIN_LEVEL} to {MAX_LEVEL}")
    counts = {(lv, p): copies for lv in range(MIN_LEVEL, levels + 1) for p in PATTERN_NAMES}
    overrides = data.get("counts", {})
    if not isinstance(overrides, dict):
        raise InputError(f"{source}: [counts] must be a table of \"<level><pattern>\" = count")
    for key, n in overrides.items():
        m = re.fullmatch(r"([1-8])([A-D])", str(key).strip().upper())
        if not m:
            raise InputError(f"{source}: bad piece kind {key!r} in [counts] (expected e.g. \"5B\")")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_COPIES:
            raise InputError(f"{source}: count for {key!r} must be a whole number from 0 to {MAX_COPIES}")
        counts[(int(m.group(1)), m.group(2))] = n
    return Inventory(str(data.get("name", Path(source).stem)), {k: v for k, v in counts.items() if v > 0})
