"""Which game a layout or position file belongs to, and where its validator lives.

JSON files say so in their ``"game"`` key. Text files of the other games start
with a ``game: NAME`` line; a text file without one is a Terrain Game layout
(the common, hand-typed case).
"""

from __future__ import annotations

import re

GAMES = ("terrain", "terrace", "terralogical", "terraflip")

#: game -> module providing ``validate_text(text: str, source: str, **options) -> ValidationReport``
VALIDATORS = {
    "terrain": "terragen.terrain.validation",
    "terrace": "terragen.terrace.validation",
    "terralogical": "terragen.terralogical.validation",
    "terraflip": "terragen.terraflip.validation",
}

_GAME_LINE = re.compile(r"^\s*game\s*[:=]\s*([A-Za-z_-]+)\s*$", re.IGNORECASE)


def check_version(data: dict, source: str, supported: int = 1) -> None:
    """Refuse a JSON file of another format version (absent: this one), as every game's reader does."""
    from terragen.errors import InputError

    version = data.get("version", supported)
    if type(version) is not int or version != supported:
        raise InputError(f"{source}: unsupported version {version!r} (this terragen reads version {supported})")


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith(("{", "["))


def detect_game(text: str) -> str | None:
    """The game named by the file, ``"terrain"`` for an unlabelled text file, or None if unknown."""
    if looks_like_json(text):
        from terragen.errors import InputError
        from terragen.safejson import load_json

        try:
            data = load_json(text, "")
        except InputError:
            return "terrain"  # let the Terrain parser report the JSON error with its position
        if isinstance(data, dict):
            game = data.get("game", "terrain")
            if game == "terrain-puzzle":  # a batch scenario: its layout is a Terrain Game layout
                return "terrain"
            return game if game in GAMES else None
        return "terrain"
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = _GAME_LINE.match(stripped)
        if m:
            name = m.group(1).lower()
            return name if name in GAMES else None
        return "terrain"
    return "terrain"
