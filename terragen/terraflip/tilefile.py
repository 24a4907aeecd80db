"""Reading a tile-set file written by ``terragen terraflip tiles`` (text in, TileSet out)."""

from __future__ import annotations


from terragen.errors import InputError
from terragen.safejson import load_json
from terragen.terraflip.model import TileSet


def read_tileset(path: str) -> TileSet:
    """The tile set in the file at ``path`` (``-`` for stdin), read as every command reads a file."""
    from terragen.fileio import read_text_input

    return parse_tileset(read_text_input(path), path)


def parse_tileset(text: str, source: str) -> TileSet:
    if not text.lstrip("\ufeff \t\r\n").startswith("{"):  # not 'invalid JSON at 1:1' for a position file
        raise InputError(f"{source}: not a TerraFlip tile-set file (a tile set is the JSON 'terragen terraflip tiles' "
                         "writes)")
    data = load_json(text, source)
    if not isinstance(data, dict) or data.get("game") != "terraflip" or data.get("kind") != "tileset":
        raise InputError(f"{source}: not a TerraFlip tile-set file (expected \"game\": \"terraflip\", "
                         "\"kind\": \"tileset\")")
    from terragen.formats import check_version

    check_version(data, source)  # as every position reader does
    return TileSet.from_json(data.get("tiles"), f"{source}: tiles")
