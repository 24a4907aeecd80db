"""The hand-typed text form of a Terrain Game layout.

People type this after building a board at the table, so it is forgiving
about spacing and case, allows ``#`` comments anywhere, and reports mistakes
as ``file:line:col``. Example (radius 2)::

    # my board
    radius: 2
    map:
        5B3 4A0 3C1
      6D0 5A2 4B4 2C0
    7A1 6B1 5C5 3D1 1A0
      8A0 6C2 4D0 2B3
        7B2 5D1* 3A4
    players:
    seat 0 corner 0 dest -1,1
    seat 1 corner 3 dest 1,-1 0,2

One map line per board row, top row first (``r = -radius``), pieces left to
right (increasing ``q``). A piece is level, pattern letter, rotation: ``5B3``;
a trailing ``*`` marks an inverted piece; ``.`` leaves a position empty.
Indentation is free. The optional ``radius:`` must agree with the number of
rows. ``extra:`` carries, as one JSON line, whatever the JSON form had beyond
the contract (piece ids, metadata), so the two forms convert losslessly.
"""

from __future__ import annotations

import json
import re
from typing import Any

from terragen.errors import InputError
from terragen.safejson import load_json
from terragen.grids import hex as hx
from terragen.terrain.formats_json import MAX_RADIUS
from terragen.terrain.layout import Cell, Destination, Layout, Player

_TOKEN = re.compile(r"^(\d{1,3})([A-Za-z])(\d{1,3})(\*?)$")
_KEYWORD = re.compile(r"^(game|radius|map|players|extra)\s*[:=]?\s*(.*)$", re.IGNORECASE)
_PLAYER = re.compile(
    r"^seat\s+(-?\d+)\s*,?\s*corner\s+(-?\d+)\s*,?\s*(?:(?:dest|destinations?)\s*[:=]?\s*(.*))?$",
    re.IGNORECASE,
)
_EXTRA_LINE = re.compile(r"^\s*extra\s*[:=]", re.IGNORECASE)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # not str.splitlines: it also splits on U+0085 etc.
_COORD = re.compile(r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?")


def _strip_comment(line: str) -> str:
    i = line.find("#")
    return line if i < 0 else line[:i]


def read_text_layout(text: str, source: str = "<layout>") -> Layout:
    """Parse the text form; raise InputError naming ``source:line:col`` on any syntax problem."""
    from terragen.safejson import check_text_numbers

    check_text_numbers(text, source)

    def fail(line: int, col: int, message: str) -> InputError:
        return InputError(f"{source}:{line}:{col}: {message}")

    radius_decl: tuple[int, int] | None = None  # (radius, line)
    rows: list[tuple[int, list[tuple[int, str]]]] = []  # (line, [(col, token)])
    players: list[Player] = []
    extra_data: dict[str, Any] = {}
    section = "head"
    for lineno, raw in enumerate(_LINE_BREAK.split(text), start=1):
        # the extra: line is JSON, where '#' may sit inside a string
        body = (raw if _EXTRA_LINE.match(raw) else _strip_comment(raw)).rstrip()
        if not body.strip():
            continue
        stripped = body.strip()
        indent = len(body) - len(body.lstrip())
        kw = _KEYWORD.match(stripped)
        if kw and not _TOKEN.match(stripped.split()[0]):
            name, rest = kw.group(1).lower(), kw.group(2).strip()
            rest_col = indent + 1 + stripped.index(rest) if rest else indent + 1
            if name == "game":
                if rest.lower() != "terrain":
                    raise fail(lineno, rest_col, f"this is a {rest!r} file, not a Terrain Game layout")
            elif name == "radius":
                if not re.fullmatch(r"\d+", rest):
                    raise fail(lineno, rest_col, f"radius must be a whole number, got {rest!r}")
                radius_decl = (int(rest), lineno)
            elif name == "map":
                if rest:
                    raise fail(lineno, rest_col, "nothing may follow 'map:' on its line")
                section = "map"
            elif name == "players":
                if rest:
                    raise fail(lineno, rest_col, "nothing may follow 'players:' on its line")
                section = "players"
            elif name == "extra":
                try:
                    value = load_json(rest, "extra")
                except InputError as exc:
                    raise fail(lineno, rest_col, f"extra: is not valid JSON ({exc.message})") from None
                if not isinstance(value, dict):
                    raise fail(lineno, rest_col, "extra: must be a JSON object")
                extra_data = value
                section = "extra"
            continue
        if section == "extra":
            raise fail(lineno, indent + 1, "nothing may follow the extra: line")
        if section in ("head", "map") and section != "players":
            if section == "head" and not (stripped[0].isdigit() or stripped[0] == "."):
                raise fail(lineno, indent + 1, f"expected a map row or a keyword, got {stripped.split()[0]!r}")
            section = "map"
            tokens = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", body)]
            rows.append((lineno, tokens))
            continue
        # players section
        m = _PLAYER.match(stripped)
        if not m:
            raise fail(lineno, indent + 1, "expected 'seat N corner C dest q,r ...'")
        dests: list[Destination] = []
        rest = m.group(3) or ""
        rest_start = indent + 1 + (m.start(3) if m.group(3) is not None else len(stripped))
        pos = 0
        while pos < len(rest):
            if rest[pos] in " \t;":
                pos += 1
                continue
            cm = _COORD.match(rest, pos)
            if not cm:
                raise fail(lineno, rest_start + pos, f"expected a destination 'q,r', got {rest[pos:].split()[0]!r}")
            dests.append(Destination(int(cm.group(1)), int(cm.group(2)), where=(lineno, rest_start + pos)))
            pos = cm.end()
        players.append(Player(int(m.group(1)), int(m.group(2)), dests, where=(lineno, indent + 1)))

    if not rows:
        raise InputError(f"{source}: no map rows found (one line of pieces per board row, e.g. '5B3 4A0 ...')")
    if len(rows) % 2 == 0:
        raise fail(rows[-1][0], 1, f"the map has {len(rows)} rows; a hexagonal board has an odd number (2 x radius + 1)")
    radius = (len(rows) - 1) // 2
    if radius < 1:
        raise fail(rows[0][0], 1, "the map has 1 row; the smallest board (radius 1) has 3")
    if radius > MAX_RADIUS:
        raise fail(rows[0][0], 1, f"the map has {len(rows)} rows, more than a radius-{MAX_RADIUS} board")
    if radius_decl is not None and radius_decl[0] != radius:
        raise fail(radius_decl[1], 1, f"radius {radius_decl[0]} needs {2 * radius_decl[0] + 1} map rows, the map has {len(rows)}")

    cells: list[Cell] = []
    for k, (lineno, tokens) in enumerate(rows):
        r = k - radius
        qs = hx.row_range(radius, r)
        if len(tokens) != len(qs):
            raise fail(lineno, tokens[-1][0] if tokens else 1,
                       f"row r={r} has {len(tokens)} positions, a radius-{radius} board needs {len(qs)}")
        for q, (col, tok) in zip(qs, tokens):
            if tok == ".":
                continue
            tm = _TOKEN.match(tok)
            if not tm:
                raise fail(lineno, col, f"bad piece {tok!r}: expected level, pattern letter and rotation, e.g. 5B3 (or . for empty)")
            cells.append(Cell(q, r, int(tm.group(1)), tm.group(2).upper(), int(tm.group(3)), bool(tm.group(4)), where=(lineno, col)))

    layout = Layout(radius, cells, players)
    _apply_extra(layout, extra_data, source)
    return layout


def _apply_extra(layout: Layout, extra: dict[str, Any], source: str) -> None:
    """Put the extra: JSON back onto the layout's objects."""

    def bad(what: str) -> InputError:
        return InputError(f"{source}: extra: {what}")

    top = extra.get("layout", {})
    if not isinstance(top, dict):
        raise bad("'layout' must be an object")
    layout.extra.update(top)
    cmap = {c.hex: c for c in layout.cells}
    for key, value in (extra.get("cells") or {}).items():
        m = re.fullmatch(r"(-?\d+),(-?\d+)", key)
        if not m or (int(m.group(1)), int(m.group(2))) not in cmap or not isinstance(value, dict):
            raise bad(f"cell key {key!r} does not name a piece on the map")
        cmap[(int(m.group(1)), int(m.group(2)))].extra.update(value)
    for key, value in (extra.get("players") or {}).items():
        if not key.isdigit() or int(key) >= len(layout.players) or not isinstance(value, dict):
            raise bad(f"player key {key!r} does not name a player line")
        layout.players[int(key)].extra.update(value)
    for key, value in (extra.get("destinations") or {}).items():
        m = re.fullmatch(r"(\d+)/(\d+)", key)
        if not m or int(m.group(1)) >= len(layout.players) or not isinstance(value, dict):
            raise bad(f"destination key {key!r} does not name a destination")
        dests = layout.players[int(m.group(1))].destinations
        if int(m.group(2)) >= len(dests):
            raise bad(f"destination key {key!r} does not name a destination")
        dests[int(m.group(2))].extra.update(value)


def write_text_layout(layout: Layout, header: str | None = None) -> str:
    """The canonical text form. Raises InputError for a layout the form cannot hold
    (a cell off the board or listed twice)."""
    cmap: dict[tuple[int, int], Cell] = {}
    for c in layout.cells:
        if not hx.on_board(c.hex, layout.radius):
            raise InputError(f"cannot write the text form: cell ({c.q},{c.r}) is off a radius-{layout.radius} board")
        if c.hex in cmap:
            raise InputError(f"cannot write the text form: cell ({c.q},{c.r}) is listed twice")
        cmap[c.hex] = c
    out: list[str] = []
    if header:
        out.extend(f"# {line}" if line else "#" for line in header.splitlines())
    out.append(f"radius: {layout.radius}")
    out.append("map:")
    for r in range(-layout.radius, layout.radius + 1):
        toks = []
        for q in hx.row_range(layout.radius, r):
            c = cmap.get((q, r))
            toks.append(c.token if c else ".")
        out.append(("  " * abs(r) + " ".join(t.ljust(3) for t in toks)).rstrip())
    out.append("players:")
    for p in layout.players:
        line = f"seat {p.seat} corner {p.corner}"
        if p.destinations:
            line += " dest " + " ".join(f"{d.q},{d.r}" for d in p.destinations)
        out.append(line)
    extra: dict[str, Any] = {}
    if layout.extra:
        extra["layout"] = layout.extra
    cells_extra = {f"{c.q},{c.r}": c.extra for c in layout.sorted_cells() if c.extra}
    if cells_extra:
        extra["cells"] = cells_extra
    players_extra = {str(i): p.extra for i, p in enumerate(layout.players) if p.extra}
    if players_extra:
        extra["players"] = players_extra
    dest_extra = {f"{i}/{j}": d.extra for i, p in enumerate(layout.players) for j, d in enumerate(p.destinations) if d.extra}
    if dest_extra:
        extra["destinations"] = dest_extra
    if extra:
        out.append("extra: " + json.dumps(extra, sort_keys=True, ensure_ascii=True, separators=(",", ":")))
    return "\n".join(out) + "\n"
