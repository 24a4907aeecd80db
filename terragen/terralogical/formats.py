"""Deck files and board-state files (JSON and a hand-typed text form).

Parsing never raises anything but :class:`~terragen.errors.InputError`, whose
one-line message says where (``file:line:col`` for text). Rule breaches are
not parse errors: the parser keeps every entry, in the listed order, and
``validation`` judges them.

Board-state text form (see docs/terralogical.md)::

    game: terralogical
    players: red green
    hands: 2 1            # optional: tiles left in each hand
    # square  tile  rotation  cube
    7,0  sun     0
    0,7  flower  2
    7,1  MfWc    1  red
    6,0  T12     3  green

Entries are in placement order. A tile is a deck id (``sun``, ``flower``,
``T12``) or a four-letter code (M F W C, upper case light, lower case dark).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from terragen.errors import InputError
from terragen.safejson import load_json, shown
from terragen.terralogical.deck import Deck
from terragen.terralogical.board import FLOWER_CORNER as FLOWER
from terragen.terralogical.board import SUN_SQUARE as SUN
from terragen.terralogical.tiles import END_ID, END_TILE, START_ID, START_TILE, Tile, parse_tile
from terragen.formats import (GAME_FILES, refuse_other_text, require_text, ExtraLine, LineProblem, check_item_keys, check_version, extra_text_line, json_file_text,
                              first_line_problem, header_key, looks_like_json, text_lines, wrong_game, wrong_kind)

if TYPE_CHECKING:
    from terragen.terralogical.state import GameState


#: the keys the text form's own lines give; any other JSON key travels on its extra: line
OWN_KEYS = ("game", "version", "players", "tiles", "hands")
#: the longest deck tile id: the kit prints ids on the tiles
MAX_ID_LENGTH = 12
#: the most tiles a hand may hold: a deck holds at most 500 (``MAX_DECK_TILES``)
MAX_HAND = 500
#: a name the text form can hold: one word, no comment sign, not the "no cube" dash
_WORD = re.compile(r"[^\s#]+")


def _check_word(name: str, where: str, what: str) -> None:
    if not _WORD.fullmatch(name) or name == "-":
        raise InputError(f"{where}: {what} {name!r} must be one word without spaces or '#' (and not '-'), "
                         "so the text form can hold it")
    if not name.isprintable():  # a control character in an id reached the kit's pages, which no viewer opened
        raise InputError(f"{where}: {what} {ascii(name)} holds a character no page can print")


@dataclass
class Entry:
    square: tuple[int, int]
    tile_ref: str  # as written: deck id or code
    tile: Tile | None  # None only for an id passed through unresolved (convert without --deck)
    tile_id: str  # deck id, or the code when given as a code
    rotation: int
    cube: int | None  # seat index
    line: int | None = field(default=None, compare=False)  # where it was read: not part of the value
    col: int | None = field(default=None, compare=False)  # where it was read: not part of the value
    from_deck: bool = False  # given by deck id (so each id may appear once)


@dataclass
class BoardState:
    players: list[str]
    entries: list[Entry] = field(default_factory=list)
    hands: list[int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # unknown JSON keys, kept for round trip
    #: where a text file listed the players, so a player-count finding points there; not part of the value
    players_line: int | None = field(default=None, compare=False)


# --------------------------------------------------------------------------- decks
def read_deck(path: str) -> Deck:
    """The deck in the file at ``path`` (``-`` for stdin), read as every command reads a file."""
    from terragen.fileio import read_text_input

    return deck_from_json(read_text_input(path), path)


def deck_from_json(text: str, source: str) -> Deck:
    """Read a deck written by ``deck`` (or by hand); ids must be unique so board files can name tiles."""
    if not looks_like_json(text):  # not 'invalid JSON: Expecting value' at 1:1 for a board or layout's text
        raise InputError(f"{source}: not a Terralogical deck (a deck is the JSON 'terragen terralogical deck' writes)")
    data = load_json(text, source)
    if not isinstance(data, dict) or data.get("game") != "terralogical" or data.get("kind", "deck") != "deck":
        raise InputError(f'{source}: not a Terralogical deck (expected "game": "terralogical", "kind": "deck")')
    if "players" in data:  # a board file given as the deck: say so, not that its tiles lack edges
        raise InputError(f"{source}: this is a Terralogical board (it lists players), not a deck")
    check_version(data, source)  # as every position reader does
    from terragen.terralogical.deck import MAX_DECK_TILES

    raw = data.get("tiles")
    if not isinstance(raw, list):
        raise InputError(f'{source}: deck has no "tiles" list')
    if not raw:
        raise InputError(f'{source}: the deck\'s "tiles" list is empty')
    if len(raw) > MAX_DECK_TILES:
        raise InputError(f"{source}: {len(raw)} tiles; a deck holds at most {MAX_DECK_TILES} (the game's has 63)")
    tiles: list[tuple[str, Tile]] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not isinstance(item.get("edges"), str):
            raise InputError(f'{source}: tiles[{i}] needs string "id" and "edges"')
        _check_word(item["id"], f"{source}: tiles[{i}]", "tile id")
        if len(item["id"]) > MAX_ID_LENGTH:
            raise InputError(f"{source}: tiles[{i}]: tile id of {len(item['id'])} characters; at most {MAX_ID_LENGTH} "
                             "(a kit prints it on the tile)")
        try:
            parse_tile(item["id"])
        except ValueError:
            pass
        else:  # a board line reads a deck id first: such an id would hide the tile its letters name
            raise InputError(f"{source}: tiles[{i}]: tile id {item['id']!r} reads as a tile code; give ids that "
                             "are not four of the letters M F W C")
        if item["id"] in seen or item["id"] in (START_ID, END_ID):
            raise InputError(f"{source}: tiles[{i}]: duplicate or reserved id {item['id']!r}")
        seen.add(item["id"])
        try:
            tiles.append((item["id"], parse_tile(item["edges"])))
        except ValueError as exc:
            raise InputError(f"{source}: tiles[{i}]: {exc}") from None
    for key, tid, tile in (("start", START_ID, START_TILE), ("end", END_ID, END_TILE)):
        _check_fixed_tile(data, key, tid, tile, source)
    params = data.get("params") if isinstance(data.get("params"), dict) else None
    seed = data.get("seed") if isinstance(data.get("seed"), int) else None
    return Deck(tiles, seed, params, source=source)


def _check_fixed_tile(data: dict, key: str, tid: str, tile: Tile, source: str) -> None:
    """Refuse a deck's ``start``/``end`` entry that is not the rulebook's sun or flower tile.

    Every command places the fixed tiles the rules print (sun MFWM, flower CCCC); a deck that
    named others was once read and its entry silently ignored, so the user's tile never played.
    A missing entry is fine (it can only mean the fixed tile).
    """
    if key not in data:
        return
    want = {"id": tid, "edges": tile.code}
    got = data[key]
    if got != want:
        raise InputError(f'{source}: "{key}" is {shown(got)}; the {tid} tile is fixed by the rules: give '
                         f'{{"id": "{tid}", "edges": "{tile.code}"}} or leave "{key}" out')


def deck_to_json_text(deck: Deck) -> str:
    """Sorted keys and a final newline: the same deck always gives the same bytes."""
    return json_file_text(deck.to_json())


# --------------------------------------------------------------------------- tiles by reference
def _resolve(ref: str, deck: Deck | None, pass_ids: bool = False) -> tuple[Tile | None, str, bool]:
    """A deck id or a tile code -> (tile, id, given by id). Raises ValueError with the reason.

    ``pass_ids`` (``convert`` without ``--deck``): a word shaped like a deck id (``T2``) that the
    deck does not hold is kept as written, with no tile: converting only rewrites the reference,
    and a board made for a deck of the user's must convert without that deck.
    """
    if ref == START_ID:
        return START_TILE, START_ID, True
    if ref == END_ID:
        return END_TILE, END_ID, True
    if deck is not None:
        by_id = deck.by_id()
        if ref in by_id:
            return by_id[ref], ref, True
    try:
        return parse_tile(ref), ref, False
    except ValueError as exc:
        if re.fullmatch(r"[A-Za-z]+[0-9]+", ref):
            if pass_ids and len(ref) <= MAX_ID_LENGTH:
                return None, ref, True
            raise ValueError(f"unknown deck tile id {ref!r} ({_deck_hint(deck)})") from None
        raise exc


def _deck_hint(deck: Deck | None) -> str:
    """Which deck an unknown id was looked up in, and how to name another (``--deck FILE``)."""
    if deck is None:
        return "no deck was given to look it up in"
    ids = [tid for tid, _ in deck.tiles]
    held = f"{ids[0]} to {ids[-1]}" if len(ids) > 1 else ids[0]
    if deck.source is None:
        return f"the shipped deck holds {held}; give --deck FILE for a deck of your own"
    return f"{deck.source} holds {held}"


# --------------------------------------------------------------------------- JSON state
def state_from_json(text: str, source: str, deck: Deck | None = None, pass_ids: bool = False) -> BoardState:
    """Parse the JSON board form; unknown top-level keys are kept in ``extra`` for round trips."""
    data = load_json(text, source)
    other = wrong_kind(data, "terralogical")  # a deck (given as the board), a tile set, ...
    if other is not None:
        raise InputError(f"{source}: {other}")
    if not isinstance(data, dict) or data.get("game") != "terralogical":
        found = data.get("game", "terrain") if isinstance(data, dict) else None
        if isinstance(found, str) and found.lower() in GAME_FILES:
            raise InputError(f"{source}: {wrong_game(found, 'terralogical')}")
        raise InputError(f'{source}: not a Terralogical board (expected "game": "terralogical")')
    check_version(data, source)
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) and p for p in players):
        raise InputError(f'{source}: "players" must be a list of player names')
    for name in players:
        _check_word(name, source, "player name")
    if len(set(players)) != len(players):
        raise InputError(f"{source}: player names must differ")
    raw = data.get("tiles")
    if not isinstance(raw, list):
        raise InputError(f'{source}: "tiles" must be a list')
    state = BoardState(list(players))
    for i, item in enumerate(raw):
        where = f"{source}: tiles[{i}]"
        if not isinstance(item, dict):
            raise InputError(f"{where}: must be an object")
        check_item_keys(item, ("row", "col", "tile", "rotation", "cube"), where, "a tile")
        for key in ("row", "col", "rotation"):
            if not isinstance(item.get(key), int) or isinstance(item.get(key), bool):
                from terragen.safejson import shown

                if key not in item:
                    raise InputError(f"{where}: '{key}' is missing (a whole number)")
                raise InputError(f"{where}: '{key}' must be a whole number (got {shown(item[key])})")
        ref = item.get("tile")
        if not isinstance(ref, str):
            raise InputError(f'{where}: "tile" must be a deck id or a tile code')
        try:
            tile, tid, by_id = _resolve(ref, deck, pass_ids)
        except ValueError as exc:
            raise InputError(f"{where}: {exc}") from None
        if not 0 <= item["rotation"] <= 3:
            raise InputError(f"{where}: rotation must be 0 to 3")
        cube = item.get("cube")
        seat = None
        if cube is not None:
            if cube not in players:
                raise InputError(f"{where}: cube {cube!r} belongs to no listed player")
            seat = players.index(cube)
        state.entries.append(Entry((item["row"], item["col"]), ref, tile, tid, item["rotation"], seat, from_deck=by_id))
    hands = data.get("hands")
    if hands is not None:
        if not isinstance(hands, list) or len(hands) != len(players) or not all(
            isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= MAX_HAND for h in hands
        ):
            raise InputError(f'{source}: "hands" must list one tile count (0 to {MAX_HAND}) per player')
        state.hands = list(hands)
    state.extra = {k: v for k, v in data.items() if k not in OWN_KEYS}
    return state


def state_to_json(state: BoardState) -> dict[str, Any]:
    """The JSON board form; the inverse of :func:`state_from_json` for the fields it knows."""
    out: dict[str, Any] = dict(state.extra)
    out.update(
        {
            "game": "terralogical",
            "version": 1,
            "players": list(state.players),
            "tiles": [
                {
                    "row": e.square[0],
                    "col": e.square[1],
                    "tile": e.tile_ref,
                    "rotation": e.rotation,
                    **({"cube": state.players[e.cube]} if e.cube is not None else {}),
                }
                for e in state.entries
            ],
        }
    )
    if state.hands is not None:
        out["hands"] = list(state.hands)
    return out


# --------------------------------------------------------------------------- text state
_SQUARE = re.compile(r"^(-?[0-9]+),(-?[0-9]+)$")


def state_from_text(text: str, source: str, deck: Deck | None = None, pass_ids: bool = False,
                    problems: list[tuple[int | None, int | None, str]] | None = None) -> BoardState | None:
    """Parse the hand-typed form; every error names ``source:line:col`` so a typo is easy to find.

    Without ``problems`` the first bad line raises InputError (``convert`` must not write half a
    board). With a list, each bad line is added to it as ``(line, col, why)`` and skipped, and the
    rest is still read, so ``validate`` names every bad line in one run, as the Terrain Game and
    Terrace readers do; None is returned when no board is left to check (no players line).
    A file that is not a Terralogical board at all (its first line) still raises.
    """
    from terragen.safejson import check_text_numbers

    check_text_numbers(text, source)
    refuse_other_text(text, source, "terralogical")
    players: list[str] | None = None
    players_line: int | None = None
    hands: list[int] | None = None
    saw_game = False
    entries: list[Entry] = []
    players_bad = False  # a players line was given but could not be read
    players_refused = False  # that line's own problem was reported: "no 'players:' line could be read" is no news
    extra = ExtraLine(source, OWN_KEYS, refused={"kind": "deck"})
    for lineno, raw_line in enumerate(text_lines(text), start=1):
        if saw_game and extra.take(raw_line, lineno):
            continue
        line = raw_line.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        extra.refuse_after(lineno, indent + 1)
        body = line.strip()
        if not saw_game:
            m = re.fullmatch(r"game\s*[:=]\s*(\S+)", body, re.IGNORECASE)
            if not m or m.group(1).lower() != "terralogical":
                raise InputError(f"{source}:{lineno}:{indent + 1}: {first_line_problem(body, 'terralogical')}")
            saw_game = True
            continue
        key = None
        try:
            m = _HEADER.fullmatch(body)  # no tile line starts with a letter
            if m:
                key = header_key(m.group(1), _LISTS, (lineno, indent + 1), problems, "the header has game, players "
                                 "and hands")
                if key == "players":
                    players, players_line = _players_line(m, indent, players), lineno
                else:
                    hands = _hands_line(m, indent, players, hands)
                continue
            entries.append(_tile_line(line, indent, players, deck, pass_ids, lineno))
        except LineProblem as bad:
            if problems is None:
                raise InputError(f"{source}:{lineno}:{bad.col}: {bad.why}") from None
            if bad.needs_players and players_bad:
                continue  # the players line was there but unreadable: 30 lines saying it was missing buried it
            problems.append((lineno, bad.col, bad.why))
            # an unknown header word before any players line was most likely meant to list them
            players_bad = players_bad or key == "players" or (m is not None and key is None and players is None)
            players_refused = players_refused or key == "players"
    if not saw_game:
        raise InputError(f"{source}: empty board, expected 'game: terralogical' first")
    if players is None:
        if problems:  # its players line was among the bad ones: say what is missing too (unless said), then stop
            if not players_refused:
                problems.append((None, None, "no 'players:' line could be read, so the board cannot be checked"))
            return None
        raise InputError(f"{source}: no 'players:' line")
    return BoardState(players, entries, hands, extra.keys, players_line)


#: a ``key: value`` line of the header (no tile line starts with a letter)
_HEADER = re.compile(r"([A-Za-z][\w-]*)\s*[:=]\s*(.*)")
_LISTS = ("players", "hands")


def _players_line(m: re.Match, indent: int, players: list[str] | None) -> list[str]:
    rest = m.group(2).split()
    col = indent + m.start(2) + 1
    if players is not None:
        raise LineProblem(indent + 1, "'players' given twice")
    if not rest:
        raise LineProblem(col, "list one or more player names")
    seen: set[str] = set()
    for word in re.finditer(r"\S+", m.group(2)):  # the repeated name and where it is, not only "different"
        if word.group() in seen:
            raise LineProblem(col + word.start(), f"player {word.group()!r} is listed twice; each player needs a "
                                                  "different name")
        seen.add(word.group())
    if "-" in rest:
        raise LineProblem(col, "'-' cannot name a player (it marks a tile without a cube)")
    return rest


def _hands_line(m: re.Match, indent: int, players: list[str] | None, hands: list[int] | None) -> list[int]:
    rest = m.group(2).split()
    col = indent + m.start(2) + 1
    if players is None:
        raise LineProblem(indent + 1, "'hands' must come after 'players'", needs_players=True)
    if hands is not None:  # once the last one won without a word
        raise LineProblem(indent + 1, "'hands' given twice")
    if len(rest) != len(players):
        raise LineProblem(col, f"'hands' needs one count per player ({len(players)}), got {len(rest)}")
    bad = next((t for t in rest if not re.fullmatch(r"[0-9]{1,3}", t) or int(t) > MAX_HAND), None)
    if bad is not None:
        raise LineProblem(col, f"'hands' counts are whole numbers from 0 to {MAX_HAND}, got {bad!r}")
    return [int(t) for t in rest]


def _tile_line(line: str, indent: int, players: list[str] | None, deck: Deck | None, pass_ids: bool,
               lineno: int) -> Entry:
    if players is None:
        raise LineProblem(indent + 1, "'players:' line must come before the tiles", needs_players=True)
    tokens = [(mt.group(0), mt.start() + 1) for mt in re.finditer(r"\S+", line)]
    if len(tokens) not in (3, 4):
        raise LineProblem(indent + 1, f"expected 'row,col tile rotation [player]', got {len(tokens)} fields")
    (sq_tok, sq_col), (tile_tok, tile_col), (rot_tok, rot_col) = tokens[:3]
    sm = _SQUARE.match(sq_tok)
    if not sm:
        raise LineProblem(sq_col, f"square {sq_tok!r} must be row,col (e.g. 7,1)")
    try:
        tile, tid, by_id = _resolve(tile_tok, deck, pass_ids)
    except ValueError as exc:
        raise LineProblem(tile_col, str(exc)) from None
    if rot_tok not in ("0", "1", "2", "3"):
        raise LineProblem(rot_col, f"rotation {rot_tok!r} must be 0, 1, 2 or 3")
    seat = None
    if len(tokens) == 4:
        name, ncol = tokens[3]
        if name != "-":
            if name not in players:
                raise LineProblem(ncol, f"{name!r} is not a listed player")
            seat = players.index(name)
    return Entry((int(sm.group(1)), int(sm.group(2))), tile_tok, tile, tid, int(rot_tok), seat, lineno, sq_col, by_id)


def state_to_text(state: BoardState) -> str:
    """The text form, one tile per line in placement order; parses back to the same state."""
    lines = ["game: terralogical", "players: " + " ".join(state.players)]
    if state.hands is not None:
        lines.append("hands: " + " ".join(str(h) for h in state.hands))
    lines.append("# square tile rotation cube")
    for e in state.entries:
        cube = state.players[e.cube] if e.cube is not None else "-"
        lines.append(f"{e.square[0]},{e.square[1]} {e.tile_ref} {e.rotation} {cube}")
    return "\n".join(lines + extra_text_line(state.extra)) + "\n"


def board_state_of_game(game: "GameState", names: list[str] | None = None, by_code: bool = False) -> BoardState:
    """The board of a (simulated) game as a board-state file, tiles in placement order.

    Lets a simulated game be saved, re-checked by the validator and typed up. ``by_code`` names
    land tiles by their four letters instead of deck ids: a game played with a deck of the user's
    reads back without that deck (``terragen validate`` knows only the shipped one's ids).
    """
    names = names or [f"p{i + 1}" for i in range(game.players)]
    entries = []
    for sq in (SUN, FLOWER):
        placed = game.board.tiles[sq]
        entries.append(Entry(sq, placed.tile_id, placed.tile, placed.tile_id, placed.rotation, None, from_deck=True))
    for seat, action in game.history:
        if action[0] != "place":
            continue
        sq = action[2]
        placed = game.board.tiles[sq]
        ref = placed.tile.code if by_code else placed.tile_id
        entries.append(Entry(sq, ref, placed.tile, ref, placed.rotation, placed.owner, from_deck=not by_code))
    return BoardState(list(names), entries, [len(h) for h in game.hands])


def parse_state(text: str, source: str, deck: Deck | None = None, pass_ids: bool = False) -> BoardState:
    """JSON when the text looks like JSON (:func:`terragen.formats.looks_like_json`), the text form otherwise; the first error raises.

    Tile ids are looked up in ``deck``, the shipped deck unless given, as ``validate_text`` and
    ``terragen validate`` look them up (without it the shipped examples could not be read)."""
    require_text(text, "parse_state")
    if deck is None:
        from terragen.terralogical.default_deck import default_deck

        deck = default_deck()
    if looks_like_json(text):
        return state_from_json(text, source, deck, pass_ids)
    state = state_from_text(text, source, deck, pass_ids)
    assert state is not None  # only a problems list lets it return None
    return state
