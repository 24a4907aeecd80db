"""Reading a tile-set file written by ``terragen terraflip tiles`` (text in, TileSet out)."""

from __future__ import annotations

import json

from terragen.errors import InputError
from terragen.terraflip.model import TileSet


def parse_tileset(text: str, source: str) -> TileSet:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("game") != "terraflip" or data.get("kind") != "tileset":
        raise InputError(f"{source}: not a TerraFlip tile-set file (expected \"game\": \"terraflip\", "
                         "\"kind\": \"tileset\")")
    return TileSet.from_json(data.get("tiles"), f"{source}: tiles")
