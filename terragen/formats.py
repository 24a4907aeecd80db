"""Which game a layout or position file belongs to, and where its validator lives.

JSON files say so in their ``"game"`` key. Text files of the other games start
with a ``game: NAME`` line; a text file without one is a Terrain Game layout
(the common, hand-typed case).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

GAMES = ("terrain", "terrace", "terralogical", "terraflip")

#: game -> module providing ``validate_text(text: str, source: str, **options) -> ValidationReport``
VALIDATORS = {
    "terrain": "terragen.terrain.validation",
    "terrace": "terragen.terrace.validation",
    "terralogical": "terragen.terralogical.validation",
    "terraflip": "terragen.terraflip.validation",
}

_GAME_LINE = re.compile(r"^\s*game\s*[:=]\s*([A-Za-z_-]+)\s*$", re.IGNORECASE)

#: what one file of each game is called in messages
GAME_FILES = {"terrain": "Terrain Game layout", "terrace": "Terrace position",
              "terralogical": "Terralogical board", "terraflip": "TerraFlip position"}


def wrong_game(found: object, wanted: str) -> str:
    """The one wording for a file of another game than a command reads: six wordings named the
    found game as a quoted key value, or not at all ("unknown key 'radius'")."""
    from terragen.fileio import elide

    key = found.lower() if isinstance(found, str) else None  # a hostile file's "game" may be a list
    if key == wanted:  # "TerraFlip": the right game, written in another case than the files' own
        return f"the game is written {wanted!r} (got {elide(repr(found), 40)})"
    if found is None:
        return f"this is no file of a game terragen knows, not a {GAME_FILES[wanted]}"
    what = f"a {GAME_FILES[key]}" if key in GAME_FILES else f"a {elide(repr(found), 40)} file"
    return f"this is {what}, not a {GAME_FILES[wanted]}"


#: terragen's own files that hold no layout or position (:func:`other_file`): the game whose
#: readers have the option the file goes to, where it goes said to them, and said to the others
_WHERE_IT_GOES = {
    "a Terralogical deck": ("terralogical", "a deck goes to --deck",
                            "a deck goes to --deck of 'terragen terralogical play' or 'terragen kit terralogical'"),
    "a TerraFlip tile set": ("terraflip", "a tile set goes to --tiles",
                             "a tile set goes to --tiles of 'terragen terraflip play' or 'terragen kit terraflip'"),
    "a batch manifest": ("terrain", "give one of its scenarios/*.json", "its scenarios/*.json are Terrain Game layouts"),
}


def other_file(data: object) -> str | None:
    """What terragen's own JSON file that holds no layout or position is, by the keys its writer
    gives it: ``"a Terralogical deck"``, ``"a TerraFlip tile set"``, ``"the report of 'terragen
    terraflip play'"``, ``"a batch manifest"``; None for any other ``data``."""
    if not isinstance(data, dict):
        return None
    game = data.get("game")
    if game == "terralogical" and data.get("kind") == "deck":
        return "a Terralogical deck"
    if game == "terraflip" and data.get("kind") == "tileset":
        return "a TerraFlip tile set"
    if game == "terraflip" and "seats" in data and "games" in data:
        return "the report of 'terragen terraflip play'"
    if ("game" not in data and "radius" not in data and isinstance(data.get("batch"), dict)
            and isinstance(data.get("scenarios"), list)):
        return "a batch manifest"
    return None


def wrong_kind(data: object, wanted: str) -> str | None:
    """The one wording for terragen's own file that holds no layout or position (:func:`other_file`)
    given where a ``wanted`` game's file belongs, and where it goes; None for any other ``data``.
    Every game's JSON reader asks it before :func:`wrong_game`, which knows the game only: a deck,
    a tile set and a play report were called "a Terralogical board" and "a TerraFlip position" by
    the commands reading Terrain Game layouts, and a batch manifest lacked a key 'radius'."""
    what = other_file(data)
    if what is None:
        return None
    game, own, others = _WHERE_IT_GOES.get(what, (None, None, None))
    hint = own if wanted == game else others
    return f"this is {what}, not a {GAME_FILES[wanted]}" + (f" ({hint})" if hint else "")


def wrong_kind_of_text(text: str, wanted: str) -> str | None:
    """:func:`wrong_kind` of a file's text, for a command that looks at a file before its reader
    does (``show``); None for text that is no JSON or not valid JSON (the reader says where)."""
    if not looks_like_json(text):
        return None
    from terragen.errors import InputError
    from terragen.safejson import load_json

    try:
        return wrong_kind(load_json(text, ""), wanted)
    except InputError:
        return None


def toml_file(text: str, wanted: str) -> str | None:
    """Why ``text`` is no ``wanted`` file when it is a generator spec or a piece inventory, TOML of
    ``key = value`` lines that no game's text form is; None for any other text."""
    if not re.search(r"^[ \t]*[A-Za-z_][A-Za-z0-9_-]*[ \t]*=", text, re.MULTILINE):
        return None  # no TOML key line: the common case costs no TOML parse
    import tomllib

    try:
        data = tomllib.loads(text.lstrip("\ufeff"))
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return None
    from terragen.terrain.generate.spec import SPEC_KEYS
    from terragen.terrain.pieces import INVENTORY_KEYS

    keys = set(data)
    if not keys or keys <= {"game", "radius", "map", "players", "extra"}:  # ``radius = 3`` alone: a text form's line
        return None
    spec_keys = SPEC_KEYS | {"seed", "time_limit"}
    if keys <= set(INVENTORY_KEYS) and not keys <= spec_keys:
        return (f"this is a piece inventory, not a {GAME_FILES[wanted]} (give it as --inventory FILE, "
                "or name it in a generator spec)")
    if keys & spec_keys:
        return f"this is a generator spec, not a {GAME_FILES[wanted]}: use 'terragen generate --spec FILE'"
    return None


#: lines of a game's text form that no TOML file has: ``game: NAME``, ``map:``, a map row of pieces
_TEXT_FORM_LINE = re.compile(r"^[ \t]*(?:game[ \t]*:[ \t]*[A-Za-z_-]+|map[ \t]*:|(?:[0-9]{1,3}[A-Za-z][0-9]{1,3}\*?"
                             r"|\.)(?:[ \t]+(?:[0-9]{1,3}[A-Za-z][0-9]{1,3}\*?|\.))+)[ \t]*(?:#.*)?$",
                             re.IGNORECASE | re.MULTILINE)


def not_toml_kind(text: str) -> str | None:
    """What ``text`` given where a TOML file (a generator spec, a piece inventory) belongs looks like
    instead, for "this looks like X": ``"a Terrain Game layout"`` (in its text form or JSON), another
    game's file, terragen's own JSON (:func:`other_file`), ``"JSON"``; None when it may well be TOML.
    Why: a layout given as --spec was refused with TOML's own words ("Expected '=' after a key") at
    its second line, which sent the user to fix the layout's syntax."""
    if looks_like_json(text):
        try:
            data = json.loads(text.lstrip("\ufeff"))
        except (ValueError, RecursionError):
            return "JSON"
        return _json_kind(data)
    m = _TEXT_FORM_LINE.search(text)
    if m is None:
        return None
    game = _GAME_LINE.match(m.group())
    key = game.group(1).lower() if game else "terrain"  # a map: line or a row of pieces
    return f"a {GAME_FILES[key]}" if key in GAME_FILES else None


def _json_kind(data: object) -> str:
    """What terragen JSON ``data`` holds (a layout, a position, a deck, ...), or plain ``"JSON"``."""
    own = other_file(data)
    if own is not None or not isinstance(data, dict):
        return own or "JSON"
    game = data.get("game", "terrain" if "cells" in data or "radius" in data else None)
    if game == "terrain-puzzle":  # a batch scenario: a puzzle around a layout
        return "a batch scenario (JSON)"
    return f"a {GAME_FILES[game]} (JSON)" if isinstance(game, str) and game in GAME_FILES else "JSON"


def markup_file(text: str, wanted: str) -> str | None:
    """Why ``text`` is no ``wanted`` file when it is markup (an SVG picture, such as the board.svg
    generate writes beside its board, or HTML): read as a layout, it failed at "got '<svg'"."""
    head = text.lstrip("\ufeff \t\r\n")[:200].lower()
    if not head.startswith("<"):
        return None
    what = "an SVG picture" if "<svg" in head else "markup (HTML or XML)"
    return f"this is {what}, not a {GAME_FILES[wanted]}"


def refuse_other_text(text: str, source: str, wanted: str) -> None:
    """InputError when ``text`` is a generator spec or piece inventory (:func:`toml_file`) or markup
    (:func:`markup_file`): every game's text reader asks first, since read as a position, a spec's
    lines were each a problem of their own, or 'radius = 4' made it "a Terrain Game layout"."""
    other = markup_file(text, wanted) or toml_file(text, wanted)
    if other is not None:
        from terragen.errors import InputError

        raise InputError(f"{source}: {other}")


def first_line_problem(line: str, wanted: str) -> str:
    """Why ``line``, the first of a text file that must open with ``game: WANTED``, is wrong: the
    file of another game it names (or a Terrain Game layout's ``radius:``/``map:``), else what it
    must be."""
    m = _GAME_LINE.match(line)
    found = m.group(1) if m else "terrain" if re.match(r"\s*(radius|map)\s*[:=]", line, re.IGNORECASE) else None
    if found is not None and found.lower() in GAME_FILES:
        return wrong_game(found, wanted)
    return f"the first line must be 'game: {wanted}'"


class LineProblem(Exception):
    """A line of a text form that cannot be read: its column and why (the reader adds where).
    ``needs_players``: it could be read only after a players line, and is not said again when
    that line was there but bad."""

    def __init__(self, col: int, why: str, needs_players: bool = False) -> None:
        super().__init__(why)
        self.col, self.why, self.needs_players = col, why, needs_players


def header_key(word: str, keys: Sequence[str], where: tuple[int, int], problems: list | None, header: str,
               own_words: Mapping[str, str] | None = None) -> str:
    """Which of a text form's header ``keys`` the line's first ``word`` gives, at ``where`` (line, column).

    A misspelt key (``player``) is the key it most likely meant: refused with that hint when the file
    is read strictly, and when ``validate`` reads it (``problems`` a list) noted and read as that key,
    so one typo does not lose the players and with them every check. ``game`` again, a word of
    ``own_words`` (with its own reason) or a word like no key is refused, naming what ``header`` holds.
    Why one function: TerraFlip's and Terralogical's readers each had their own copy."""
    from terragen.suggest import suggest

    line, col = where
    low = word.lower()
    if low in keys:
        return low
    if low == "game":
        raise LineProblem(col, "the game is named twice")
    if own_words and low in own_words:
        raise LineProblem(col, own_words[low])
    guess = suggest(low, keys)
    if guess is None:
        raise LineProblem(col, f"unknown header {word!r} ({header})")
    if problems is None:
        raise LineProblem(col, f"unknown header {word!r}: did you mean {guess!r}?")
    problems.append((line, col, f"unknown header {word!r}: did you mean {guess!r}? (read as {guess!r})"))
    return guess



LINE_BREAK = re.compile(r"\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """The lines of a text form, split where editors and the number guard split them.

    Not ``str.splitlines()``: it also breaks at form feeds, U+0085, U+2028 and others, so a reader
    saw lines the guard against over-long numbers (``safejson.check_text_numbers``) did not (a
    ``# comment`` ending in a form feed hid a 5000-digit number, and ``int()`` of it failed), and
    its line numbers differed from the editor's."""
    return LINE_BREAK.split(text)

def check_version(data: dict, source: str, supported: int = 1) -> None:
    """Refuse a JSON file of another format version (absent: this one), as every game's reader does."""
    from terragen.errors import InputError

    version = data.get("version", supported)
    if type(version) is not int or version != supported:
        raise InputError(f"{source}: unsupported version {version!r} (this terragen reads version {supported})")


def check_item_keys(item: dict, allowed: tuple[str, ...], where: str, what: str) -> None:
    """Refuse a key an item of a JSON form (a piece, a tile) does not have: the text form has no
    place for it, so converting dropped it without a word."""
    from terragen.errors import InputError

    unknown = sorted(set(item) - set(allowed))
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r} ({what} has {', '.join(allowed)})")


#: the text forms' last line: JSON keys the form has no line for, so text <-> JSON loses nothing
#: (a greedy group, stripped after: a lazy one before ``\s*$`` took quadratic time on a long run of spaces)
EXTRA_LINE = re.compile(r"^\s*extra\s*[:=]\s*(.*)$", re.IGNORECASE)


def extra_text_line(extra: dict) -> list[str]:
    """``["extra: {...}"]`` for a file's keys beyond its text form's lines, ``[]`` when there are none."""
    import json

    # ASCII escapes: a raw U+2028 or U+0085 inside a string would split the line when read back
    return [f"extra: {json.dumps(extra, sort_keys=True)}"] if extra else []


class ExtraProblem(ValueError):
    """What is wrong with an ``extra:`` line, and the column where it is."""

    def __init__(self, col: int, why: str) -> None:
        super().__init__(why)
        self.col, self.why = col, why


def extra_object(text: str, col: int) -> dict:
    """The JSON object written after ``extra:``, which starts at column ``col`` of its line.

    Raises :class:`ExtraProblem` at the JSON's own column, so each game's parser reports it
    in its own way (Terrain collects problems, the other games stop at the first).
    """
    from terragen.errors import InputError
    from terragen.safejson import load_json

    try:
        value = load_json(text, "extra")
    except InputError as exc:
        m = re.match(r"extra:1:([0-9]+): (.*)$", exc.message)
        if m:
            raise ExtraProblem(col + int(m.group(1)) - 1, f"extra: {m.group(2)} (the line is one JSON object; "
                               "it takes no # comment)") from None
        raise ExtraProblem(col, f"extra: {exc.message.removeprefix('extra: ')}") from None
    if not isinstance(value, dict):
        raise ExtraProblem(col, "extra: must be a JSON object")
    return value


class ExtraLine:
    """A text form's optional last line, ``extra: {...}``: the JSON form's keys the text has no line for.

    ``own_keys`` are refused on it (they would silently replace what the lines above say), as is
    any ``refused`` key's value that would turn the file into another kind of file (a TerraFlip
    position's ``"kind": "tileset"``) once written as JSON.
    """

    def __init__(self, source: str, own_keys: tuple[str, ...], refused: dict[str, str] | None = None) -> None:
        self.source, self.own_keys, self.refused = source, own_keys, refused or {}
        self.keys: dict = {}
        self.line = 0

    def take(self, raw: str, lineno: int) -> bool:
        """Whether ``raw`` is the extra: line (then read and kept); InputError naming file:line:col."""
        from terragen.errors import InputError

        m = EXTRA_LINE.match(raw)
        if not m:
            return False
        where = f"{self.source}:{lineno}"
        if self.line:
            raise InputError(f"{where}:1: a second extra: line (the first is line {self.line}); put everything on one")
        try:
            value = extra_object(m.group(1).rstrip(), m.start(1) + 1)
        except ExtraProblem as exc:
            raise InputError(f"{where}:{exc.col}: {exc.why}") from None
        clash = sorted(set(value) & set(self.own_keys))
        if clash:
            raise InputError(f"{where}:{m.start(1) + 1}: extra: sets {', '.join(map(repr, clash))}, "
                             "which the form's own lines give")
        for key, bad in self.refused.items():
            if value.get(key) == bad:
                raise InputError(f"{where}:{m.start(1) + 1}: extra: {key!r} {bad!r} would make this file another "
                                 f"kind of file")
        self.keys, self.line = value, lineno
        return True

    def refuse_after(self, lineno: int, col: int) -> None:
        """A line with content below the extra: line is refused: the extra: line is the last."""
        from terragen.errors import InputError

        if self.line:
            raise InputError(f"{self.source}:{lineno}:{col}: nothing may follow the extra: line (line {self.line})")


def json_file_text(data: object) -> str:
    """A JSON document as terragen writes its files (positions, decks, tile sets, play reports,
    batch manifests; a Terrain Game layout has its own writer, which keeps non-ASCII text as
    written): keys sorted, two-space indents, ASCII, a final newline, so the same data is the same
    bytes whichever command or game writes it (nine writers spelt these settings out)."""
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def looks_like_json(text: str) -> bool:
    """Whether to read ``text`` as JSON: an object or a list, or a whole text that is one JSON value
    (``123``, ``null``, ``"hello"`` were read as a text map and told about map rows)."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("{", "[")):
        return True
    if not stripped or stripped[0] not in '-0123456789"tfn':  # a text map or keyword line: not JSON
        return False
    try:
        json.loads(stripped)
    except ValueError:
        return False
    return True


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
    for line in text_lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = _GAME_LINE.match(stripped)
        if m:
            name = m.group(1).lower()
            return name if name in GAMES else None
        return "terrain"
    return "terrain"


def validate_any(text: str, source: str = "<file>", game: str = "auto", **options: object) -> tuple[str, object]:
    """Any game's file checked as ``terragen validate`` checks it: ``(game, report)``, the game read
    from the file unless given. The report lists every problem it can (a text file's unreadable lines
    among them, with line and column) instead of stopping at the first, which is what a script that
    vets a folder of submitted boards wants; ``options`` go to the game's own ``validate_text``
    (``inventory`` for the Terrain Game, ``deck`` for Terralogical, ``tileset`` for TerraFlip).
    InputError for a file no game's reader takes at all."""
    import importlib

    require_text(text, "validate_any")
    name = game_of(text, source, game)
    return name, importlib.import_module(VALIDATORS[name]).validate_text(text, source, **options)


def game_of(text: str, source: str, game: str = "auto") -> str:
    """The game ``text`` is for: ``game`` when given, else as :func:`detect_game` reads the file;
    InputError naming ``source`` when the file names no game terragen knows."""
    if game != "auto" and game not in VALIDATORS:  # the caller's slip, not the file's
        raise ValueError(f"game is one of {', '.join(GAMES)} or 'auto', not {game!r}")
    name = detect_game(text) if game == "auto" else game
    if name not in VALIDATORS:
        from terragen.errors import InputError

        raise InputError(f"{source}: cannot tell which game this file is for (its 'game' is not one of "
                         f"{', '.join(GAMES)})")
    return name


def require_text(text: object, caller: str) -> None:
    """Refuse anything but a file's text at a reader's door: ``parse_layout(None)`` or a path given
    for the text failed deep inside with an AttributeError about ``lstrip``."""
    if not isinstance(text, str):
        hint = " (load_layout reads a file by its path)" if caller == "parse_layout" else ""
        raise TypeError(f"{caller} takes a file's text, a str, not {type(text).__name__}{hint}")
