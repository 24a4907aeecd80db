"""TerraFlip position files: a JSON form and a hand-typed text form, both lossless.

A position is what is on the table (each tile's place, owner, kind and both
faces), the players in seat order and the spies they have left. Parsing checks
only the syntax and the vocabulary (numbers, colours, kinds); whether the
position obeys the rules is the validator's job, so that one file can report
every broken rule at once.

Text form, one item per line, ``#`` starts a comment::

    game: terraflip
    players: blue green gray
    spies: blue=3 green=2 gray=3
    # q  r  tile            up/hidden
    1   0  blue-river-4    blue/green
    0   1  green-knight    green
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from terragen.errors import InputError
from terragen.plain_text import counted
from terragen.safejson import load_json, shown
from terragen.grids.hex import Hex
from terragen.terraflip.model import FAMILIES, LAND_OF, REGULAR, SPECIAL_KINDS, SPIES_PER_PLAYER, Tile
from terragen.formats import (GAME_FILES, refuse_other_text, require_text, ExtraLine, LineProblem, check_item_keys, check_version, extra_text_line, json_file_text,
                              first_line_problem, header_key, looks_like_json, text_lines, wrong_game, wrong_kind)

_KIND_WORDS = {**{land: REGULAR for land in LAND_OF.values()}, REGULAR: REGULAR, **{k: k for k in SPECIAL_KINDS}}
_TILE = re.compile(r"^([a-z]+)-([a-z]+)(?:-([0-9]{1,3}))?$")
_INT = re.compile(r"^[+-]?[0-9]{1,4}$")
#: the largest spy count either form reads (four digits): out of range for the rules, but read so
#: validate can say so, and the same in both forms so each converts to the other
MAX_SPIES_WRITTEN = 9999
#: the keys the text form's own lines give; any other JSON key travels on its extra: line
OWN_KEYS = ("game", "version", "players", "spies", "tiles")
TILE_KEYS = ("q", "r", "family", "kind", "up", "hidden", "index")


@dataclass
class TileEntry:
    """One tile on the table as written in the file (line/col point at the tile token)."""

    q: int
    r: int
    family: str
    kind: str
    up: str
    hidden: str
    index: int | None = None
    line: int | None = field(default=None, compare=False)  # where it was read: not part of the value
    col: int | None = field(default=None, compare=False)  # where it was read: not part of the value

    @property
    def pos(self) -> Hex:
        return (self.q, self.r)

    @property
    def label(self) -> str:
        word = LAND_OF[self.family] if self.kind == REGULAR else self.kind
        return f"{self.family}-{word}" + (f"-{self.index}" if self.index is not None else "")

    def to_tile(self) -> Tile:
        """The model tile; the front is the owner's face when either face shows it."""
        if self.up == self.family:
            front, back = self.up, self.hidden
        elif self.hidden == self.family:
            front, back = self.hidden, self.up
        else:
            front, back = self.up, self.hidden
        return Tile(self.label, self.family, self.kind, front, back)


@dataclass
class Position:
    players: list[str]
    spies: dict[str, int]
    tiles: list[TileEntry] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    players_line: int | None = field(default=None, compare=False)  # where it was read: not part of the value
    spies_line: int | None = field(default=None, compare=False)  # so a spies finding points at its line

    def to_json(self) -> dict[str, Any]:
        tiles = []
        for t in self.tiles:
            item: dict[str, Any] = {"q": t.q, "r": t.r, "family": t.family, "kind": t.kind,
                                    "up": t.up, "hidden": t.hidden}
            if t.index is not None:
                item["index"] = t.index
            tiles.append(item)
        out = dict(self.extra)
        out.update({"game": "terraflip", "version": 1, "players": list(self.players),
                    "spies": dict(self.spies), "tiles": tiles})
        return out

    def _spies_in_seat_order(self) -> list[tuple[str, int]]:
        order = {c: i for i, c in enumerate(self.players)}
        return sorted(self.spies.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))

    def to_text(self) -> str:
        lines = ["game: terraflip", "players: " + " ".join(self.players),
                 "spies: " + " ".join(f"{c}={n}" for c, n in self._spies_in_seat_order()), "# q r tile up/hidden"]
        for t in self.tiles:
            lines.append(f"{t.q} {t.r} {t.label} {t.up}/{t.hidden}")
        return "\n".join(lines + extra_text_line(self.extra)) + "\n"


def dumps_json(position: Position) -> str:
    """The position's JSON form, keys sorted and indented, so the same position is the same bytes."""
    return json_file_text(position.to_json())


def parse_position(text: str, source: str) -> Position:
    """Parse either form; raises InputError naming file, line and column."""
    require_text(text, "parse_position")
    if looks_like_json(text):
        return _parse_json(text, source)
    return _parse_text(text, source)


# --- JSON ------------------------------------------------------------------------------------


def _parse_json(text: str, source: str) -> Position:
    data = load_json(text, source)
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a JSON object")
    other = wrong_kind(data, "terraflip")  # a tile set (given as the position), its play report, ...
    if other is not None:
        raise InputError(f"{source}: {other}")
    if data.get("game") != "terraflip":
        found = data.get("game", "terrain")  # a layout without "game" is a Terrain Game one
        if isinstance(found, str) and found.lower() in GAME_FILES:
            raise InputError(f"{source}: {wrong_game(found, 'terraflip')}")
        raise InputError(f"{source}: 'game' must be \"terraflip\"")
    check_version(data, source)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InputError(f"{source}: 'players' must be a list of colours in seat order")
    for p in players:
        _colour(p, source, "players")
    spies_raw = data.get("spies", {})
    if not isinstance(spies_raw, dict):
        raise InputError(f"{source}: 'spies' must map colours to counts")
    spies = {}
    for c, n in spies_raw.items():
        _colour(c, source, "spies")
        if not isinstance(n, int) or isinstance(n, bool) or abs(n) > MAX_SPIES_WRITTEN:
            # the text form's bound too, so every position read converts to text that reads back
            raise InputError(f"{source}: spies for {c} must be a whole number of at most four digits, got {n!r}")
        spies[c] = n
    tiles_raw = data.get("tiles")
    if not isinstance(tiles_raw, list):
        raise InputError(f"{source}: 'tiles' must be a list")
    tiles = []
    for i, t in enumerate(tiles_raw):
        where = f"{source}: tiles[{i}]"
        if not isinstance(t, dict):
            raise InputError(f"{where}: expected an object")
        vals = {}
        for key in ("q", "r"):
            v = t.get(key)
            if not isinstance(v, int) or isinstance(v, bool):
                raise InputError(f"{where}: '{key}' must be a whole number")
            if abs(v) > 9999:
                raise InputError(f"{where}: '{key}' is {v}; a tile's coordinates run from -9999 to 9999")
            vals[key] = v
        check_item_keys(t, TILE_KEYS, where, "a tile")
        family = _colour(t.get("family"), where, "family")
        word = t.get("kind", REGULAR)
        if not isinstance(word, str) or word not in _KIND_WORDS:
            raise InputError(f"{where}: unknown kind {shown(word)}")
        kind = _KIND_WORDS[word]
        # the same rules as the text form, so each form reads what the other writes
        if kind == REGULAR and word != REGULAR and word != LAND_OF[family]:
            raise InputError(f"{where}: {family} tiles are {LAND_OF[family]}, not {word}")
        up = _colour(t.get("up"), where, "up")
        if kind == REGULAR and "hidden" not in t:
            raise InputError(f"{where}: a regular tile needs both faces, 'up' and 'hidden'")
        hidden = _colour(t.get("hidden", up), where, "hidden")
        index = t.get("index")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool) or not 0 < index < 1000):
            raise InputError(f"{where}: 'index' must be a whole number from 1 to 999")
        if index is not None and kind != REGULAR:
            raise InputError(f"{where}: special tiles have no number ('index')")
        tiles.append(TileEntry(vals["q"], vals["r"], family, kind, up, hidden, index))
    extra = {k: v for k, v in data.items() if k not in OWN_KEYS}
    return Position(list(players), spies, tiles, extra)


def _colour(value: Any, where: str, what: str) -> str:
    if value not in FAMILIES:
        raise InputError(f"{where}: {what} must be one of {', '.join(FAMILIES)}, got {shown(value)}")
    return value


# --- text ------------------------------------------------------------------------------------


def _tokens(line: str) -> list[tuple[int, str]]:
    """(1-based column, token) pairs of a line with its comment removed."""
    body = line.split("#", 1)[0]
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", body)]


def _parse_text(text: str, source: str) -> Position:
    """The text form; the first bad line raises InputError naming file:line:col."""
    position = _read_text(text, source, None)
    assert position is not None  # only a problems list lets it return None
    return position


def parse_text_forgiving(text: str, source: str, problems: list[tuple[int | None, int | None, str]]) -> Position | None:
    """The text form read as ``validate`` reads it: each bad line is added to ``problems`` as
    ``(line, col, why)`` and skipped, so one run names every bad line (as the Terrain Game and
    Terrace readers do). None when no position is left to check (no players line could be read);
    a file that is not a TerraFlip position at all (its first line) still raises InputError.
    """
    return _read_text(text, source, problems)


def _read_text(text: str, source: str, problems: list | None) -> Position | None:
    from terragen.safejson import check_text_numbers

    check_text_numbers(text, source)
    refuse_other_text(text, source, "terraflip")
    players: list[str] | None = None
    players_line = spies_line = None
    spies: dict[str, int] | None = None
    seen_game = False
    tiles: list[TileEntry] = []
    players_refused = False  # a players line's own problem was reported: "no 'players:' line could be read" is no news
    extra = ExtraLine(source, OWN_KEYS, refused={"kind": "tileset"})
    for ln, raw in enumerate(text_lines(text), start=1):
        if seen_game and extra.take(raw, ln):
            continue
        toks = _tokens(raw)
        if not toks:
            continue
        col, first = toks[0]
        extra.refuse_after(ln, col)
        head = first.lower()
        if not seen_game:
            m = re.match(r"^\s*game\s*[:=]\s*(\S+)\s*$", raw.split("#", 1)[0], re.IGNORECASE)
            if not m or m.group(1).lower() != "terraflip":
                raise InputError(f"{source}:{ln}:{col}: {first_line_problem(raw.split('#', 1)[0], 'terraflip')}")
            seen_game = True
            continue
        key = None
        try:
            # a header line (every tile line starts with its q), unless the line has a tile line's
            # shape: a tile's name third and no ':' (' a b blue-river blue/blue' was 'unknown header 'a'')
            looks_like_tile = len(toks) >= 3 and not re.search(r"[:=]", raw.split("#", 1)[0]) and \
                _TILE.match(toks[2][1].lower()) is not None
            if first[0].isalpha() and not looks_like_tile:
                word, after = re.match(r"([^:=]*)[:=]?(.*)", first).groups()  # players: / players= / players:blue
                key = header_key(word, _HEADER_KEYS, (ln, col), problems, _HEADER_HOLDS, _HEADER_OWN_WORDS)
                rest = ([(col + len(first) - len(after), after)] if after else []) + \
                    [t for t in toks[1:] if t[1] not in (":", "=")]
                if key == "players":
                    if players is not None:
                        raise LineProblem(col, "'players' given twice")
                    players, players_line = _players(rest), ln
                else:
                    if spies is not None:
                        raise LineProblem(col, "'spies' given twice")
                    spies, spies_line = _spies(rest), ln
                continue
            tiles.append(_tile_line(toks, source, ln))
        except LineProblem as bad:
            if problems is None:
                raise InputError(f"{source}:{ln}:{bad.col}: {bad.why}") from None
            problems.append((ln, bad.col, bad.why))
            players_refused = players_refused or key == "players"
    if not seen_game:
        raise InputError(f"{source}:1:1: the first line must be 'game: terraflip'")
    if players is None:
        if problems:  # its players line was among the bad ones: say what is missing too (unless said), then stop
            if not players_refused:
                problems.append((None, None, "no 'players:' line could be read, so the position cannot be checked"))
            return None
        raise InputError(f"{source}: missing 'players:' line (colours in seat order)")
    if spies is None:
        spies = {c: SPIES_PER_PLAYER for c in players}
    return Position(players, spies, tiles, extra.keys, players_line, spies_line)


_HEADER_KEYS = ("players", "spies")
_HEADER_HOLDS = "the header has game, players and spies; a tile line starts with its q"
#: the JSON form's key for the tiles, which looks like a header word (and like 'spies' to a guess)
_HEADER_OWN_WORDS = {"tiles": "no 'tiles:' line in the text form (that is the JSON form's key): each tile "
                              "is a line of its own, starting with its q"}


def _unknown_colour(tok: str, where: str = "") -> str:
    from terragen.suggest import suggest

    guess = suggest(tok, FAMILIES)
    hint = f": did you mean {guess!r}?" if guess else ""
    return f"unknown colour {tok!r}{where}{hint} (the colours are {', '.join(FAMILIES)})"


def _players(rest: list[tuple[int, str]]) -> list[str]:
    players = []
    for c, tok in rest:
        if tok not in FAMILIES:
            raise LineProblem(c, _unknown_colour(tok))
        players.append(tok)
    return players


def _spies(rest: list[tuple[int, str]]) -> dict[str, int]:
    spies: dict[str, int] = {}
    for c, tok in rest:
        colour, eq, n = tok.partition("=")
        if colour in FAMILIES and eq and re.fullmatch(r"[+-]?[0-9]{5,}", n):
            raise LineProblem(c, f"spies for {colour} must be a whole number of at most four digits, got {n}")
        if colour not in FAMILIES and eq and _INT.match(n):
            raise LineProblem(c, _unknown_colour(colour))
        if colour not in FAMILIES or not eq or not _INT.match(n):
            raise LineProblem(c, f"expected COLOUR=COUNT, got {tok!r}")
        if colour in spies:  # once the last count won without a word
            raise LineProblem(c, f"spies for {colour} given twice")
        spies[colour] = int(n)
    return spies


def _tile_line(toks: list[tuple[int, str]], source: str, ln: int) -> TileEntry:
    if len(toks) != 4:
        col = toks[min(len(toks), 4) - 1][0] if len(toks) > 4 else toks[-1][0]
        raise LineProblem(col, f"expected 'q r tile up/hidden', got {counted(len(toks), 'item')}")
    (cq, q), (cr, r), (ct, tile), (cf, faces) = toks
    for c, v, name in ((cq, q, "q"), (cr, r, "r")):
        if not re.fullmatch(r"[+-]?[0-9]+", v):
            raise LineProblem(c, f"a tile's {name} must be a whole number, got {v!r}")
        if abs(int(v)) > 9999:
            raise LineProblem(c, f"{v} is out of range; a tile's coordinates run from -9999 to 9999")
    m = _TILE.match(tile)
    if not m or m.group(1) not in FAMILIES or m.group(2) not in _KIND_WORDS:
        raise LineProblem(ct, f"expected a tile like blue-river or gray-knight, got {tile!r}")
    family, word, index = m.group(1), m.group(2), m.group(3)
    kind = _KIND_WORDS[word]
    if kind == REGULAR and word != REGULAR and word != LAND_OF[family]:
        raise LineProblem(ct, f"{family} tiles are {LAND_OF[family]}, not {word}")
    if kind != REGULAR and index is not None:
        raise LineProblem(ct, "special tiles have no number")
    up, slash, hidden = faces.partition("/")
    for colour in (up, hidden) if slash else (up,):
        if colour not in FAMILIES and colour and "/" not in colour:  # a colour misspelt: say which, and its fix
            raise LineProblem(cf, _unknown_colour(colour, f" in {faces!r}"))
    if up not in FAMILIES or (slash and hidden not in FAMILIES):
        raise LineProblem(cf, f"expected UP/HIDDEN colours, got {faces!r}")
    if not slash:
        if kind == REGULAR:
            raise LineProblem(cf, "a regular tile needs both faces, UP/HIDDEN")
        hidden = up
    idx = int(index) if index is not None else None
    if idx is not None and idx == 0:
        raise LineProblem(ct, "tile numbers start at 1")
    return TileEntry(int(q), int(r), family, kind, up, hidden, idx, ln, ct)


def position_from_state(state: Any) -> Position:
    """Snapshot a :class:`~terragen.terraflip.state.GameState` (true faces included)."""
    from terragen.terraflip.model import parse_tile_id

    tiles = []
    for (q, r), p in sorted(state.board.cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        family, kind, index = parse_tile_id(p.tile.id)
        tiles.append(TileEntry(q, r, family, kind, p.up, p.hidden, index))
    return Position(list(state.colours), dict(zip(state.colours, state.spies)), tiles)
