"""The JSON layout file: the interchange contract of ../shared/DESIGN.md.

Reading is strict about types (a level must be a whole number, not "5") and
says exactly where a problem is, as a JSON path. It is lenient about rules: a
level 9 or a duplicate cell is read fine and left for ``validate`` to report.
Keys the contract does not name are kept in ``extra`` and written back.
"""

from __future__ import annotations

import json
from typing import Any

from terragen.errors import InputError
from terragen.formats import wrong_game, wrong_kind
from terragen.safejson import JsonValueError, json_path_position, load_json, shown
from terragen.terrain.layout import Cell, Destination, Layout, Player

FORMAT_VERSION = 1
MAX_RADIUS = 12  # a 469-cell board; anything larger is a typo, not a layout

_LAYOUT_KEYS = {"game", "version", "radius", "cells", "players"}
_CELL_KEYS = {"q", "r", "level", "pattern", "rotation", "inverted"}
_PLAYER_KEYS = {"seat", "corner", "destinations"}
_DEST_KEYS = {"q", "r"}
#: The contract's keys per object, for "did you mean" on a misspelt one.
CONTRACT_KEYS = {"layout": sorted(_LAYOUT_KEYS), "cell": sorted(_CELL_KEYS), "player": sorted(_PLAYER_KEYS),
                 "destination": sorted(_DEST_KEYS)}


class _Reader:
    def __init__(self, source: str, text: str | None = None, within: str = "$") -> None:
        self.source = source
        #: the file's text, when there is one, to say at which line and column a path's value stands;
        #: ``within`` is the path of the layout in it (a batch scenario holds it under ``layout``)
        self.text, self.within = text, within

    def fail(self, path: str, message: str) -> InputError:
        path = self.within + path[1:]  # the path in the file: a scenario's layout is under $.layout
        at = json_path_position(self.text, path) if self.text is not None else None
        if at is None:
            return InputError(f"{self.source}: {path}: {message}")
        return JsonValueError(f"{self.source}:{at[0]}:{at[1]}: {path}: {message}", position=at)

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object, got {_kind(value)}")
        return value

    def lst(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, got {_kind(value)}")
        return value

    def int_(self, d: dict[str, Any], key: str, path: str, default: int | None = None) -> int:
        if key not in d:
            if default is not None:
                return default
            raise self.fail(path, f"missing key {key!r}")
        v = d[key]
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"{path}.{key}", f"expected a whole number, got {_kind(v)}")
        return v

    def str_(self, d: dict[str, Any], key: str, path: str) -> str:
        if key not in d:
            raise self.fail(path, f"missing key {key!r}")
        v = d[key]
        if not isinstance(v, str) or not v:
            raise self.fail(f"{path}.{key}", f"expected a pattern letter, got {_kind(v)}")
        return v

    def bool_(self, d: dict[str, Any], key: str, path: str) -> bool:
        v = d.get(key, False)
        if not isinstance(v, bool):
            raise self.fail(f"{path}.{key}", f"expected true or false, got {_kind(v)}")
        return v


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return f"the number {v!r}"
    if isinstance(v, str):
        return f"the string {shown(v, 24)}"  # as the file spells it: "5", not '5'
    if isinstance(v, list):
        return "a list"
    return "an object"


def layout_from_data(data: Any, source: str = "<layout>", text: str | None = None, within: str = "$") -> Layout:
    """Build a Layout from already-decoded JSON data (``text``: the JSON it was decoded from, whose
    lines and columns an error then names; ``within``: the layout's own path in that text)."""
    rd = _Reader(source, text, within)
    top = rd.obj(data, "$")
    other = wrong_kind(top, "terrain")  # a deck, a tile set, a play report, a batch manifest
    if other is not None:
        raise rd.fail("$.game" if "game" in top else "$", other)
    game = top.get("game", "terrain")
    if game != "terrain":
        raise rd.fail("$.game", wrong_game(game, "terrain"))
    version = rd.int_(top, "version", "$", default=FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise rd.fail("$.version", f"unsupported format version {version} (this terragen reads version {FORMAT_VERSION})")
    radius = rd.int_(top, "radius", "$")
    if not 1 <= radius <= MAX_RADIUS:
        raise rd.fail("$.radius", f"radius {radius} is outside 1 to {MAX_RADIUS}")
    cells = []
    for i, raw in enumerate(rd.lst(top.get("cells", []), "$.cells")):
        path = f"$.cells[{i}]"
        c = rd.obj(raw, path)
        cells.append(
            Cell(
                q=rd.int_(c, "q", path),
                r=rd.int_(c, "r", path),
                level=rd.int_(c, "level", path),
                pattern=rd.str_(c, "pattern", path),
                rotation=rd.int_(c, "rotation", path),
                inverted=rd.bool_(c, "inverted", path),
                extra={k: v for k, v in c.items() if k not in _CELL_KEYS},
            )
        )
    players = []
    for i, raw in enumerate(rd.lst(top.get("players", []), "$.players")):
        path = f"$.players[{i}]"
        p = rd.obj(raw, path)
        dests = []
        for j, rawd in enumerate(rd.lst(p.get("destinations", []), f"{path}.destinations")):
            dpath = f"{path}.destinations[{j}]"
            d = rd.obj(rawd, dpath)
            dests.append(
                Destination(rd.int_(d, "q", dpath), rd.int_(d, "r", dpath), {k: v for k, v in d.items() if k not in _DEST_KEYS})
            )
        players.append(
            Player(
                seat=rd.int_(p, "seat", path, default=i),
                corner=rd.int_(p, "corner", path),
                destinations=dests,
                extra={k: v for k, v in p.items() if k not in _PLAYER_KEYS},
            )
        )
    return Layout(radius, cells, players, {k: v for k, v in top.items() if k not in _LAYOUT_KEYS})


def read_json_layout(text: str, source: str = "<layout>") -> Layout:
    data = load_json(text, source)
    layout = scenario_layout(data, source, text)
    return layout_from_data(layout, source, text, "$" if layout is data else "$.layout")


#: The ``game`` of a batch scenario file: a puzzle wrapped around a layout.
SCENARIO_GAME = "terrain-puzzle"
#: The scenario format this terragen writes (terrain/puzzles/model.py) and reads.
SCENARIO_VERSION = 1


def scenario_layout(data: Any, source: str = "<scenario>", text: str | None = None) -> Any:
    """A batch scenario's layout (its ``layout`` object); any other data unchanged.

    So every command that reads a layout also reads a scenario file from ``terragen batch``. A
    scenario of another version, or with its layout missing or not an object, is an InputError
    naming that (``text``: the JSON, for its line and column): a missing layout was read as the
    scenario itself and blamed on its ``game``, and version 99 was read as version 1."""
    if not (isinstance(data, dict) and data.get("game") == SCENARIO_GAME):
        return data
    rd = _Reader(source, text)
    version = rd.int_(data, "version", "$", default=SCENARIO_VERSION)
    if version != SCENARIO_VERSION:
        raise rd.fail("$.version", f"unsupported batch scenario format version {version} (this terragen reads "
                                   f"version {SCENARIO_VERSION})")
    if "layout" not in data:
        raise rd.fail("$", f"a batch scenario ('{SCENARIO_GAME}') holds its board under 'layout', and this one "
                           "has no 'layout' key")
    if not isinstance(data["layout"], dict):
        raise rd.fail("$.layout", f"a batch scenario's board must be a layout object, got {_kind(data['layout'])}")
    return data["layout"]


def is_scenario(text: str) -> bool:
    """Whether a file's text is a batch scenario (a puzzle around its layout), whose answer a sheet
    drawn to set the puzzle up must leave out. Read after the layout was: the text is known good."""
    from terragen.formats import looks_like_json

    if not looks_like_json(text):
        return False
    data = load_json(text, "<scenario>")
    return isinstance(data, dict) and data.get("game") == SCENARIO_GAME and isinstance(data.get("layout"), dict)


def layout_to_data(layout: Layout) -> dict[str, Any]:
    """The contract's JSON object; extra keys come back where they were."""
    cells = []
    for c in layout.sorted_cells():
        d: dict[str, Any] = {"q": c.q, "r": c.r, "level": c.level, "pattern": c.pattern, "rotation": c.rotation}
        if c.inverted:
            d["inverted"] = True
        d.update({k: v for k, v in c.extra.items() if k not in _CELL_KEYS})  # extra never overrides the contract
        cells.append(d)
    players = []
    for p in layout.players:
        pd: dict[str, Any] = {
            "seat": p.seat,
            "corner": p.corner,
            "destinations": [{"q": d.q, "r": d.r, **{k: v for k, v in d.extra.items() if k not in _DEST_KEYS}}
                             for d in p.destinations],
        }
        pd.update({k: v for k, v in p.extra.items() if k not in _PLAYER_KEYS})
        players.append(pd)
    out: dict[str, Any] = {"game": "terrain", "version": FORMAT_VERSION, "radius": layout.radius}
    out["cells"] = cells
    out["players"] = players
    out.update({k: v for k, v in layout.extra.items() if k not in _LAYOUT_KEYS})
    return out


def write_json_layout(layout: Layout) -> str:
    """Deterministic JSON text: one cell per line so diffs of boards stay readable."""
    data = layout_to_data(layout)
    lines = ["{"]
    keys = list(data)
    for n, key in enumerate(keys):
        comma = "," if n < len(keys) - 1 else ""
        value = data[key]
        if key in ("cells", "players") and value:
            lines.append(f"  {json.dumps(key)}: [")
            for m, item in enumerate(value):
                sep = "," if m < len(value) - 1 else ""
                lines.append(f"    {json.dumps(item, ensure_ascii=False, separators=(', ', ': '))}{sep}")
            lines.append(f"  ]{comma}")
        else:
            body = json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True).replace("\n", "\n  ")
            lines.append(f"  {json.dumps(key)}: {body}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
