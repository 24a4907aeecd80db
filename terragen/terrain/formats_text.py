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
the contract (piece ids, metadata), so the two forms convert losslessly; the
board.txt that ``generate`` writes leaves it out (the metadata stays in
board.json) so hand edits never contradict it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from terragen.errors import InputError
from terragen.fileio import elide
from terragen.formats import EXTRA_LINE, ExtraProblem, extra_object, refuse_other_text, text_lines, wrong_game
from terragen.grids import hex as hx
from terragen.plain_text import counted
from terragen.suggest import suggest
from terragen.terrain.formats_json import MAX_RADIUS
from terragen.terrain.layout import Cell, Destination, Layout, Player

_TOKEN = re.compile(r"^([0-9]{1,3})([A-Za-z])([0-9]{1,3})(\*?)$")
#: what the writer puts on the map: a token that reads back as itself (the reader upper-cases a pattern)
_WRITABLE = re.compile(r"^[0-9]{1,3}[A-Z][0-9]{1,3}\*?$")
_KEYWORD = re.compile(r"^(game|radius|map|players|extra)\s*[:=]?\s*(.*)$", re.IGNORECASE)
_PLAYER = re.compile(
    r"^seat\s+(-?[0-9]+)\s*,?\s*corner\s+(-?[0-9]+)\s*,?\s*(?:(?:dest|destinations?)\s*[:=]?\s*(.*))?$",
    re.IGNORECASE,
)
_COORD = re.compile(r"\(?\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)?")


def _strip_comment(line: str) -> str:
    i = line.find("#")
    return line if i < 0 else line[:i]


#: The section keywords of the text form, for "did you mean" suggestions.
KEYWORDS = ("game", "radius", "map", "players", "extra")
_WORD_LINE = re.compile(r"^([A-Za-z][A-Za-z_-]*)\s*[:=]")


class TextProblem(InputError):
    """One problem found while reading the text form: where it is and what is wrong."""

    def __init__(self, source: str, line: int | None, col: int | None, message: str) -> None:
        where = f"{source}:{line}:{col}" if line is not None else source
        super().__init__(f"{where}: {message}")
        self.line, self.col, self.detail = line, col, message


@dataclass
class TextParse:
    """What the forgiving reader made of a text file: the layout (None when nothing
    usable was found), every problem it stepped over, and the board positions of
    rows it had to skip (so validate does not report them a second time as missing)."""

    layout: Layout | None
    problems: list[TextProblem] = field(default_factory=list)
    skipped: set[tuple[int, int]] = field(default_factory=set)


def read_text_layout(text: str, source: str = "<layout>") -> Layout:
    """Parse the text form; raise InputError naming ``source:line:col`` of the first problem."""
    parsed = parse_text_layout(text, source)
    if parsed.problems:
        first = parsed.problems[0]
        more = len(parsed.problems) - 1
        if more:
            raise InputError(f"{first.message} (and {counted(more, 'more problem')}: 'terragen validate' lists them all)")
        raise InputError(first.message)
    assert parsed.layout is not None
    return parsed.layout


def parse_text_layout(text: str, source: str = "<layout>") -> TextParse:
    """Read the text form, stepping over what it cannot read: a bad line or row is
    reported and skipped, and reading goes on, so one run names every problem. A number
    of absurd length is not stepped over: ``int()`` of it would fail, and it is no typo."""
    from terragen.safejson import check_text_numbers

    check_text_numbers(text, source)
    refuse_other_text(text, source, "terrain")  # not stepped over: a spec's 13 lines were each an unknown section
    problems: list[TextProblem] = []

    def fail(line: int | None, col: int | None, message: str) -> None:
        problems.append(TextProblem(source, line, col, elide(message, 300)))  # a 1 MB token stays short

    radius_decl: tuple[int, int] | None = None  # (radius, line)
    rows: list[tuple[int, list[tuple[int, str]]]] = []  # (line, [(col, token)])
    players: list[Player] = []
    extra_data: dict[str, Any] = {}
    extra_line = 0
    section = "head"
    for lineno, raw in enumerate(text_lines(text), start=1):
        # the extra: line is JSON, where '#' may sit inside a string
        body = (raw if EXTRA_LINE.match(raw) else _strip_comment(raw)).rstrip()
        if not body.strip():
            continue
        stripped = body.strip()
        indent = len(body) - len(body.lstrip())
        kw = _KEYWORD.match(stripped)
        word = _WORD_LINE.match(stripped)
        if word and not kw:
            guess = suggest(word.group(1), KEYWORDS)
            hint = f": did you mean '{guess}:'?" if guess else f" (sections are {', '.join(k + ':' for k in KEYWORDS)})"
            fail(lineno, indent + 1, f"unknown section '{word.group(1)}:'{hint}")
            if guess in ("map", "players"):
                section = guess  # read on as the section it most likely is
            continue
        if kw and not _TOKEN.match(stripped.split()[0]):
            name, rest = kw.group(1).lower(), kw.group(2).strip()
            rest_col = indent + 1 + stripped.index(rest) if rest else indent + 1
            if name == "game":
                if rest.lower() != "terrain":
                    fail(lineno, rest_col, wrong_game(rest, "terrain"))
                    return TextParse(None, problems)
            elif name == "radius":
                if not re.fullmatch(r"-?[0-9]+", rest):  # -3 is whole: the range check below says what is wrong
                    fail(lineno, rest_col, f"radius must be a whole number, got {rest!r}")
                else:
                    radius_decl = (int(rest), lineno)
            elif name in ("map", "players"):
                if rest:
                    fail(lineno, rest_col, f"nothing may follow '{name}:' on its line")
                section = name
            elif name == "extra":
                if extra_line:
                    fail(lineno, 1, f"a second extra: line (the first is line {extra_line}); put everything on one")
                try:
                    value = extra_object(rest, rest_col)
                except ExtraProblem as exc:
                    fail(lineno, exc.col, exc.why)
                    value = {}
                extra_data, extra_line = value, lineno
                section = "extra"
            continue
        if section == "extra":
            fail(lineno, indent + 1, "nothing may follow the extra: line")
            continue
        if section in ("head", "map") and stripped[:4].lower() == "seat":
            fail(lineno, indent + 1, "a player line before 'players:': is the 'players:' line missing?")
            section = "players"
        if section in ("head", "map"):
            if section == "head" and not (stripped[0].isdigit() or stripped[0] == "."):
                fail(lineno, indent + 1, f"expected a map row or a keyword, got {stripped.split()[0]!r}")
                continue
            section = "map"
            tokens = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", body)]
            rows.append((lineno, tokens))
            continue
        player = _read_player(stripped, indent, lineno, fail)
        if player is not None:
            players.append(player)

    if not rows:
        fail(None, None, "no map rows found (one line of pieces per board row, e.g. '5B3 4A0 ...')")
        return TextParse(None, problems)
    radius = _board_radius(rows, radius_decl, fail)
    if radius is None:
        return TextParse(None, problems)

    cells: list[Cell] = []
    skipped: set[tuple[int, int]] = set()
    for k, (lineno, tokens) in enumerate(rows[: 2 * radius + 1]):
        r = k - radius
        qs = hx.row_range(radius, r)
        if len(tokens) != len(qs):
            bad = _unreadable_token(tokens)
            what = f" ({_not_a_piece(bad[1])})" if bad else ""
            fail(lineno, bad[0] if bad else tokens[-1][0] if tokens else 1,
                 f"row r={r} has {len(tokens)} positions, a radius-{radius} board needs {len(qs)}{what}; row skipped")
            skipped.update((q, r) for q in qs)
            continue
        for q, (col, tok) in zip(qs, tokens):
            if tok == ".":
                continue
            tm = _TOKEN.match(tok)
            if not tm:
                fail(lineno, col, f"bad piece {tok!r}: expected level, pattern letter and rotation, e.g. 5B3 (or . for empty)")
                skipped.add((q, r))
                continue
            cells.append(Cell(q, r, int(tm.group(1)), tm.group(2).upper(), int(tm.group(3)), bool(tm.group(4)), where=(lineno, col)))
    for k in range(len(rows), 2 * radius + 1):  # rows the declared radius needs but the map lacks
        skipped.update((q, k - radius) for q in hx.row_range(radius, k - radius))

    layout = Layout(radius, cells, players)
    for message in _apply_extra(layout, extra_data):
        fail(extra_line, 1, message)
    return TextParse(layout, problems, skipped)


#: a piece as it may stand inside a longer token (two pieces run together: ``4A5,2A2``)
_PIECE_INSIDE = re.compile(r"[0-9]{1,3}[A-Za-z][0-9]{1,3}\*?")


def _pieces_run_together(token: str) -> bool:
    """Whether the token is two or more pieces with nothing between them (``1A01A0``): a search over
    where each could end, since a rotation's digits run straight into the next piece's level and no
    single pattern match can tell where one stops."""
    if len(token) > 200:  # no row holds such a token by mistake; the search stays short
        return False
    ends = {0: 0}  # position -> the most pieces that end exactly there
    for start in range(len(token)):
        if start not in ends:
            continue
        for stop in range(start + 3, min(len(token), start + 8) + 1):
            if _TOKEN.match(token[start:stop]):
                ends[stop] = max(ends.get(stop, 0), ends[start] + 1)
    return ends.get(len(token), 0) >= 2


def _unreadable_token(tokens: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The first token of a row that is neither a piece nor ``.``, with its column: in a row of the
    wrong length it is most likely why (a missing space), and the count alone never named it."""
    return next(((col, tok) for col, tok in tokens if tok != "." and not _TOKEN.match(tok)), None)


def _not_a_piece(token: str) -> str:
    """What is wrong with a token that is not a piece, for a message."""
    from terragen.fileio import elide

    shown = repr(elide(token, 40))
    if len(_PIECE_INSIDE.findall(token)) >= 2 or _pieces_run_together(token):
        return f"{shown} is not one piece: a space missing between two?"
    return f"{shown} is not a piece (level, pattern letter and rotation, e.g. 5B3, or . for empty)"


def _board_radius(rows: list, radius_decl: tuple[int, int] | None, fail) -> int | None:
    """The board's radius from the declared ``radius:`` or the number of rows; None if neither works."""
    n = len(rows)
    if radius_decl is not None:
        radius, line = radius_decl
        if not 1 <= radius <= MAX_RADIUS:
            fail(line, 1, f"radius {radius} is outside 1 to {MAX_RADIUS}")
            return None
        if n != 2 * radius + 1:
            fail(line, 1, f"radius {radius} needs {2 * radius + 1} map rows, the map has {n}")
            if n > 2 * radius + 1:
                fail(rows[2 * radius + 1][0], 1, "map rows beyond the declared radius were skipped")
        return radius
    if n % 2 == 0:
        fail(rows[-1][0], 1, f"the map has {n} rows; a hexagonal board has an odd number (2 x radius + 1)")
        return None
    radius = (n - 1) // 2
    if radius < 1:
        fail(rows[0][0], 1, "the map has 1 row; the smallest board (radius 1) has 3")
        return None
    if radius > MAX_RADIUS:
        fail(rows[0][0], 1, f"the map has {n} rows, more than a radius-{MAX_RADIUS} board")
        return None
    return radius


def _read_player(stripped: str, indent: int, lineno: int, fail) -> Player | None:
    """One ``seat N corner C dest q,r ...`` line; None (and a problem) if it cannot be read."""
    m = _PLAYER.match(stripped)
    if not m:
        words = re.findall(r"[A-Za-z]+", stripped)
        known = ("seat", "corner", "dest", "destination", "destinations")
        typo = next(((w, g) for w in words if w.lower() not in known and (g := suggest(w, known[:3]))), None)
        hint = f": did you mean '{typo[1]}' for '{typo[0]}'?" if typo else ""
        fail(lineno, indent + 1, f"expected 'seat N corner C dest q,r ...'{hint}")
        return None
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
            fail(lineno, rest_start + pos, f"expected a destination 'q,r', got {rest[pos:].split()[0]!r}")
            return None
        dests.append(Destination(int(cm.group(1)), int(cm.group(2)), where=(lineno, rest_start + pos)))
        pos = cm.end()
    return Player(int(m.group(1)), int(m.group(2)), dests, where=(lineno, indent + 1))


#: what an extra: line may hold: the JSON form's keys beyond the contract, by where they sit
EXTRA_SECTIONS = ("layout", "cells", "players", "destinations")


def _apply_extra(layout: Layout, extra: dict[str, Any]) -> list[str]:
    """Put the extra: JSON back onto the layout's objects; the entries that name nothing are returned."""
    from terragen.terrain.formats_json import CONTRACT_KEYS

    problems: list[str] = [f"extra: {key!r} names nothing (it may hold 'layout', 'cells', 'players' and "
                           "'destinations')" for key in extra if key not in EXTRA_SECTIONS]

    def beyond_contract(value: dict[str, Any], kind: str, where: str) -> dict[str, Any]:
        # the map and the lines above say these: an extra: value for one would silently replace them
        clash = sorted(set(value) & set(CONTRACT_KEYS[kind]))
        if clash:
            problems.append(f"extra: {where} sets {', '.join(map(repr, clash))}, which the lines above give; "
                            "edit those lines instead")
        return {k: v for k, v in value.items() if k not in CONTRACT_KEYS[kind]}

    top = extra.get("layout", {})
    if isinstance(top, dict):
        layout.extra.update(beyond_contract(top, "layout", "'layout'"))
    else:
        problems.append("extra: 'layout' must be an object")
    cmap = {c.hex: c for c in layout.cells}
    for key, value in _entries(extra, "cells", problems):
        m = re.fullmatch(r"(-?[0-9]+),(-?[0-9]+)", key)
        if not m or (int(m.group(1)), int(m.group(2))) not in cmap:
            problems.append(f"extra: cell key {key!r} does not name a piece on the map")
        elif _is_object(value, f"cell {key}", problems):
            cmap[(int(m.group(1)), int(m.group(2)))].extra.update(beyond_contract(value, "cell", f"cell {key}"))
    for key, value in _entries(extra, "players", problems):
        if not (key.isascii() and key.isdigit()) or int(key) >= len(layout.players):
            problems.append(f"extra: player key {key!r} does not name a player line")
        elif _is_object(value, f"player {key}", problems):
            layout.players[int(key)].extra.update(beyond_contract(value, "player", f"player {key}"))
    for key, value in _entries(extra, "destinations", problems):
        m = re.fullmatch(r"([0-9]+)/([0-9]+)", key)
        if (not m or int(m.group(1)) >= len(layout.players)
                or int(m.group(2)) >= len(layout.players[int(m.group(1))].destinations)):
            problems.append(f"extra: destination key {key!r} does not name a destination")
        elif _is_object(value, f"destination {key}", problems):
            layout.players[int(m.group(1))].destinations[int(m.group(2))].extra.update(
                beyond_contract(value, "destination", f"destination {key}"))
    return problems


def _is_object(value: Any, where: str, problems: list[str]) -> bool:
    """Whether one entry's value is a JSON object (its keys beyond the contract); a problem saying
    so when not. Why apart from the key's check: a list for a cell that is on the map was said to
    name no piece, sending the user to look for a piece that is there."""
    if isinstance(value, dict):
        return True
    from terragen.safejson import shown

    problems.append(f"extra: the value for {where} must be an object {{...}}, got {shown(value)}")
    return False


#: how each section of the extra: line names its entries (for the message when a section is not an object)
_ENTRY_KEYS = {"cells": '"q,r"', "players": '"seat"', "destinations": '"seat/n"'}


def _entries(extra: dict[str, Any], key: str, problems: list[str]) -> list[tuple[str, Any]]:
    """One section's entries; a section that is not an object is a problem (a list, or null, read
    as an empty section: accepted without a word)."""
    value = extra.get(key, {})
    if not isinstance(value, dict):
        from terragen.safejson import shown

        problems.append(f"extra: '{key}' must be an object {{{_ENTRY_KEYS[key]}: {{...}}}}, got {shown(value)}")
        return []
    return list(value.items())


def _reads_back(cell: Cell) -> bool:
    """Whether the cell's token reads back as this very cell: matching the token's shape is not
    enough, as pattern '0A' on level 0 wrote '00A0', which reads as level 0 and pattern 'A'."""
    m = _WRITABLE.match(cell.token) and _TOKEN.match(cell.token)
    return bool(m) and (int(m.group(1)), m.group(2), int(m.group(3))) == (cell.level, cell.pattern, cell.rotation)


def write_text_layout(layout: Layout, header: str | None = None, extra: bool = True) -> str:
    """The canonical text form. Raises InputError for a layout the form cannot hold
    (a cell off the board or listed twice, a piece no token can write).

    With ``extra`` (the default) whatever the JSON form had beyond the contract
    is kept on one ``extra:`` line, so text and JSON convert losslessly. Without
    it the text is only the board and players: the form for people to edit,
    which ``generate`` writes as board.txt (its metadata stays in board.json).
    """
    cmap: dict[tuple[int, int], Cell] = {}
    for c in layout.cells:
        if not hx.on_board(c.hex, layout.radius):
            raise InputError(f"cannot write the text form: cell ({c.q},{c.r}) is off a radius-{layout.radius} board")
        if c.hex in cmap:
            raise InputError(f"cannot write the text form: cell ({c.q},{c.r}) is listed twice")
        if not _reads_back(c):  # written, it would not read back (or would add lines of its own)
            raise InputError(f"cannot write the text form: cell ({c.q},{c.r}) would read {elide(c.token, 40)!r}; the "
                             "form holds a level and a rotation of 0-999 and a capital pattern letter")
        cmap[c.hex] = c
    out: list[str] = []
    if header:
        out.extend(f"# {line}" if line else "#" for line in header.splitlines())
    out.append(f"radius: {layout.radius}")
    out.append("map:")
    rows = [[cmap[(q, r)].token if (q, r) in cmap else "." for q in hx.row_range(layout.radius, r)]
            for r in range(-layout.radius, layout.radius + 1)]
    width = _column_width(rows)
    for r, toks in zip(range(-layout.radius, layout.radius + 1), rows):
        indent = " " * ((width + 1) // 2 * abs(r))
        out.append((indent + " ".join(t.ljust(width) for t in toks)).rstrip())
    out.append("players:")
    for p in layout.players:
        line = f"seat {p.seat} corner {p.corner}"
        if p.destinations:
            line += " dest " + " ".join(f"{d.q},{d.r}" for d in p.destinations)
        out.append(line)
    if extra:
        out.extend(_extra_lines(layout))
    return "\n".join(out) + "\n"


def _column_width(rows: list[list[str]]) -> int:
    """How wide a column of the map is: the widest token, at least 3, and odd, so that each row
    starts half a column to the side of the next and every piece sits under the gap between the two
    pieces it touches above, as on the table. An upside-down piece (``3A0*``) or a level of 10 or
    more widens every column rather than pushing the rest of its row out of line."""
    width = max((len(t) for row in rows for t in row), default=3)
    width = max(width, 3)
    return width if width % 2 else width + 1


def _extra_lines(layout: Layout) -> list[str]:
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
    if not extra:
        return []
    return ["extra: " + json.dumps(extra, sort_keys=True, ensure_ascii=True, separators=(",", ":"))]
