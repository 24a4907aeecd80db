"""Difficulty presets: bands of expected turns plus the structural features of hard boards.

Presets are data in ``terragen/data/terrain/presets/<name>.toml`` (see the README
there for how the bands were measured). A preset's bands are written for the
standard board (radius 5) and one destination; :func:`preset_keys` scales the
expected-turns band by board radius and destination count, as measured.
"""

from __future__ import annotations

import tomllib
from typing import Any

from terragen.errors import SpecError
from terragen.templates import template_names, template_path

PRESET_KEYS = {"turns_band", "min_up3", "min_cliff_exits", "min_critical", "fairness", "shape", "description"}


def preset_names() -> list[str]:
    """Preset names from easiest to hardest (by the low end of the expected-turns band)."""

    def low(name: str) -> tuple[float, str]:
        band = load_preset(name).get("turns_band", [0])
        return (float(band[0]), name)

    return sorted(template_names("terrain", "presets"), key=low)


def load_preset(name: str) -> dict[str, Any]:
    if name not in template_names("terrain", "presets"):  # a name, never a path into or out of the folder
        raise SpecError(f"unknown difficulty {name!r} (presets: {', '.join(preset_names())})")
    p = template_path("terrain", "presets", f"{name}.toml")
    data = tomllib.loads(p.read_text(encoding="utf-8"))
    unknown = set(data) - PRESET_KEYS
    if unknown:
        from terragen.plain_text import named

        raise SpecError(f"preset {name!r}: unknown {named('key', unknown)}")
    return data


#: Median expected turns relative to radius 5 with one destination, measured by
#: ``bench/generate_calibrate.py`` (see terragen/data/terrain/presets/README.md).
RADIUS_FACTOR = {3: 0.80, 4: 0.82, 5: 1.0, 6: 1.12}
DESTINATION_FACTOR = {1: 1.0, 2: 1.40, 3: 1.62}


def scale_factor(radius: int, destinations: int) -> float:
    """How much longer races are than on radius 5 with one destination (measured)."""
    return RADIUS_FACTOR[radius] * DESTINATION_FACTOR[destinations]


def preset_keys(name: str, radius: int, destinations: int) -> dict[str, Any]:
    """The spec keys a preset sets, scaled to the board radius and destination count."""
    data = dict(load_preset(name))
    data.pop("description", None)
    if "turns_band" in data:
        f = scale_factor(radius, destinations)
        lo, hi = data["turns_band"]
        data["turns_band"] = [round(lo * f, 2), round(hi * f, 2)]
    if "min_up3" in data:
        data["min_up3"] = int(data["min_up3"]) if radius >= 5 else max(0, int(data["min_up3"]) - 1)
    return data
