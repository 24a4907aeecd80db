"""Write the small hostile corpus next to this script (deterministic; rerun after format changes)."""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
DIGITS = "1" * 5000


def deep(game: str, extra: str = "") -> str:
    return '{"game": "%s"%s, "x": %s%s}' % (game, extra, "[" * 5000, "]" * 5000)


def files() -> dict[str, str]:
    return {
        "deep-terrain.json": deep("terrain"),
        "deep-terrace.json": deep("terrace"),
        "deep-terralogical.json": deep("terralogical"),
        "deep-terraflip.json": deep("terraflip"),
        "deep-tileset.json": deep("terraflip", ', "kind": "tileset"'),
        "huge-radius.txt": f"radius: {DIGITS}\nmap:\n  1A0\n",
        "huge-radius.json": '{"game": "terrain", "radius": %s, "cells": [], "players": []}' % DIGITS,
        "huge-terrace.txt": f"game: terrace\nto-move: T  setup: full  size: {DIGITS}\n",
        "huge-terraflip.json": '{"game": "terraflip", "players": ["blue", "green"], "tiles": [{"q": %s, "r": 0}]}' % DIGITS,
        "huge-terralogical.txt": f"game: terralogical\nplayers: red green\nhands: {DIGITS} 3\n",
        "nan-radius.json": '{"game": "terrain", "radius": NaN, "cells": [], "players": []}',
        "inf-coordinate.json": '{"game": "terrain", "radius": 2, "cells": [{"q": 1e999, "r": 0, "level": 1, '
                               '"pattern": "A", "rotation": 0}], "players": []}',
        "inf-band.toml": "players = 4\nturns_band = [6.0, inf]\n",
        "nan-fairness.toml": "players = 4\nfairness = nan\n",
        "huge-seed.toml": f"players = 4\nseed = {DIGITS}\n",
        "copies-billion.toml": "name = \"greedy\"\ncopies = 1000000000\n",
        "far-tile-terraflip.txt": "game: terraflip\nplayers: blue green\n  1 0 blue-river-1 blue/green\n"
                                  "  9999 -9999 green-forest-1 green/blue\n  -9999 9999 blue-river-2 blue/green\n",
        "far-cell-terrain.json": json.dumps({"game": "terrain", "radius": 1, "cells": [
            {"q": 10**18, "r": -10**18, "level": 1, "pattern": "A", "rotation": 0}], "players": []}),
    }


if __name__ == "__main__":
    for name, text in files().items():
        (HERE / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files())} files to {HERE}")
