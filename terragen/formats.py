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


#: the text forms' last line: JSON keys the form has no line for, so text <-> JSON loses nothing
EXTRA_LINE = re.compile(r"^\s*extra\s*[:=]\s*(.*?)\s*$", re.IGNORECASE)


def extra_text_line(extra: dict) -> list[str]:
    """``["extra: {...}"]`` for a file's keys beyond its text form's lines, ``[]`` when there are none."""
    import json

    # ASCII escapes: a raw U+2028 or U+0085 inside a string would split the line when read back
    return [f"extra: {json.dumps(extra, sort_keys=True)}"] if extra else []


def read_extra_line(raw: str, where: str, own_keys: tuple[str, ...]) -> dict | None:
    """The JSON object of an ``extra:`` line (None for another line); InputError naming ``where``.

    A key the form's own lines give (``players``, ``tiles``...) is refused: it
    would silently replace what the lines above say.
    """
    from terragen.errors import InputError
    from terragen.safejson import load_json

    m = EXTRA_LINE.match(raw)
    if not m:
        return None
    try:
        value = load_json(m.group(1), "extra")
    except InputError as exc:
        raise InputError(f"{where}: extra: is not valid JSON ({exc.message})") from None
    if not isinstance(value, dict):
        raise InputError(f"{where}: extra: must be a JSON object")
    clash = sorted(set(value) & set(own_keys))
    if clash:
        raise InputError(f"{where}: extra: sets {', '.join(map(repr, clash))}, which the form's own lines give")
    return value


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
