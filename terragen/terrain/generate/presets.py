"""Difficulty presets: bands of expected turns plus the structural features of hard boards.

Presets are data in ``terragen/data/terrain/presets/<name>.toml`` (see the README
there for how the bands were measured). A preset's bands are written for the
standard board (radius 5) and one destination; :func:`preset_keys` scales the
expected-turns band by board radius and destination count, as measured.
"""

from __future__ import annotations

from typing import Any

from terragen.errors import SpecError
from terragen.templates import load_template_toml, template_error, template_names

PRESET_KEYS = {"turns_band", "min_up3", "min_cliff_exits", "min_critical", "fairness", "shape", "description"}


def preset_names() -> list[str]:
    """Preset names from easiest to hardest (by the low end of the expected-turns band)."""

    def low(name: str) -> tuple[float, str]:
        # read, not checked: one preset's bad value (under TERRAGEN_TEMPLATES) is said when that preset
        # is used, and no longer stops every other difficulty and generate --help (found in review)
        band = load_template_toml("terrain", "presets", f"{name}.toml").get("turns_band")
        try:
            return (float(band[0]), name)
        except (TypeError, ValueError, IndexError, KeyError):
            return (float("inf"), name)

    return sorted(template_names("terrain", "presets"), key=low)


def load_preset(name: str) -> dict[str, Any]:
    """A preset's keys, each checked as a spec's: a preset under TERRAGEN_TEMPLATES is the user's own
    file, and a bad value in it was an internal error (a TypeError) only when the preset was used."""
    if name not in template_names("terrain", "presets"):  # a name, never a path into or out of the folder
        raise SpecError(f"unknown difficulty {name!r} (presets: {', '.join(preset_names())})")
    parts = ("terrain", "presets", f"{name}.toml")
    data = load_template_toml(*parts)
    unknown = set(data) - PRESET_KEYS
    if unknown:
        from terragen.plain_text import named

        raise template_error(parts, f"unknown {named('key', unknown)} in a preset (known: {', '.join(sorted(PRESET_KEYS))})")
    if not isinstance(data.get("description", ""), str):
        raise template_error(parts, "'description' must be text in quotes")
    from terragen.terrain.generate.spec import spec_from_dict

    try:
        spec_from_dict({k: v for k, v in data.items() if k != "description"})
    except SpecError as exc:
        raise template_error(parts, exc.message.replace("spec key", "preset key", 1)) from None
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
