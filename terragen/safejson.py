"""JSON and TOML parsing that hostile files cannot crash.

Python's parsers fail on hostile input with the wrong exceptions: a deep
nesting raises RecursionError, a number of more than 4,300 digits raises a
bare ValueError (the int-string limit), ``NaN``/``Infinity``/``1e999`` become
floats that no range check rejects, and TOML allows ``nan`` and ``inf``
outright. These loaders turn each of them into one InputError (exit 2) naming
the file and, where it can be found, the line and column.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from typing import Any

from terragen.errors import InputError, TerragenError
from terragen.fileio import elide

#: No terragen file nests deeper than a handful of levels.
MAX_DEPTH = 32
#: Digits allowed in one integer (seeds fit in 20).
MAX_DIGITS = 30
#: The largest seed a command takes: every file it writes records its seed, and the readers above
#: refuse a number of more than MAX_DIGITS digits, so a longer seed made files terragen then refused
MAX_SEED = 2**63 - 1
_LONG_NUMBER = re.compile(r"\d(?:_?\d){%d,}" % MAX_DIGITS)
#: such a run standing as a number of its own: not inside a word or a quoted string (a file name
#: ``inv_1234...toml`` or a player named ``b1234...`` is no number, and was refused as one)
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')
_LONG_NUMBER_TOKEN = re.compile(r"(?<![A-Za-z_.'\"])\d(?:_?\d){%d,}(?![A-Za-z_.'\"])" % MAX_DIGITS)


class _Bad(ValueError):
    def __init__(self, message: str, token: str) -> None:
        super().__init__(message)
        self.token = token


def _int(token: str) -> int:
    digits = len(token.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise _Bad(f"number with {digits} digits (at most {MAX_DIGITS})", token)
    return int(token)


def _float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _Bad(f"number out of range: {elide(token, 40)}", token)
    return value


def _constant(token: str) -> float:
    raise _Bad(f"{token} is not a number terragen accepts", token)


def _where(text: str, token: str) -> tuple[int, int] | None:
    at = text.find(token[:64]) if token else -1
    if at < 0:
        return None
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, col


def _at(position: tuple[int, int] | None) -> str:
    return f"{position[0]}:{position[1]}:" if position else ""


def check_depth(data: Any, source: str, limit: int = MAX_DEPTH) -> None:
    """Reject data nested deeper than ``limit`` (checked without recursion)."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                raise InputError(f"{source}: nested more than {limit} levels deep")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))


#: where tomllib (before 3.14, which has lineno and colno) says a syntax error is: "... (at line 2, column 12)"
_TOML_PLACE = re.compile(r" \(at line ([0-9]+), column ([0-9]+)\)$")


#: how tomllib says an error is at the end of the text (a bracket or string never closed)
_TOML_END = " (at end of document)"


def _end_of(text: str) -> tuple[int, int]:
    """The line and column just past the last character of ``text`` that is not a line break."""
    body = text.rstrip("\r\n")
    return body.count("\n") + 1, len(body) - (body.rfind("\n") + 1) + 1


def _json_words(reason: str, text: str, pos: int) -> str:
    """Python's JSON complaint in a hand-editor's words: "Expecting property name enclosed in double
    quotes" was what a comma before '}' got, the commonest slip in a hand-edited file."""
    before = text[:pos].rstrip()[-1:]
    if reason.startswith(("Expecting property name", "Expecting value")) and before == ",":
        return "a comma with nothing after it (JSON allows no comma before '}' or ']')"
    words = {
        "Expecting property name enclosed in double quotes": "a key must be a string in double quotes",
        "Expecting value": "a value is missing here (a number, a string in double quotes, true, false, null, "
                           "a list or an object)",
        "Expecting ',' delimiter": "a comma is missing before this (or a bracket was not closed)",
        "Expecting ':' delimiter": "a ':' is missing after the key",
        "Extra data": "more text after the end of the JSON document",
    }
    return words.get(reason, reason)


def _parse(parse, text: str, source: str, what: str, syntax_error: type[ValueError],
           error: type[TerragenError]) -> Any:
    """Run ``parse(text)`` and turn every way hostile text makes it fail into one ``error``."""
    try:
        data = parse(text)
    except syntax_error as exc:
        at = (exc.lineno, exc.colno) if hasattr(exc, "lineno") and hasattr(exc, "colno") else None
        reason = exc.msg if hasattr(exc, "msg") else str(exc)
        tail = _TOML_PLACE.search(reason) if at is None else None
        if tail:  # tomllib before Python 3.14 gives its place only in the words: as file:line:col, as JSON's
            at, reason = (int(tail.group(1)), int(tail.group(2))), reason[:tail.start()]
        elif at is None and reason.endswith(_TOML_END):  # "Unclosed array (at end of document)": the last line
            at, reason = _end_of(text), reason[: -len(_TOML_END)]
        if reason.endswith(" at") and at:  # json's "Unterminated string starting at" keeps its place apart
            reason = f"{reason} line {at[0]} column {at[1]}"
        if isinstance(exc, json.JSONDecodeError):
            reason = _json_words(reason, text, exc.pos)
        raise error(f"{source}:{_at(at)} invalid {what}: {reason}", position=at) from None
    except _Bad as exc:
        at = _where(text, exc.token)
        raise error(f"{source}:{_at(at)} invalid {what}: {exc}", position=at) from None
    except RecursionError:
        raise error(f"{source}: invalid {what}: nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # anything else rejected by value (the int-string limit, ...)
        raise error(f"{source}: invalid {what}: {elide(str(exc), 120)}") from None
    check_depth(data, source)
    _check_surrogates(data, source)
    return data


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_surrogates(data: Any, source: str) -> None:
    """Refuse a string holding half of a UTF-16 pair (JSON's ``"\\ud800"`` alone): Python reads it,
    but no UTF-8 file, page or terminal can hold it, so it failed only when the data was written."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            m = _SURROGATE.search(item)
            if m:
                raise InputError(f"{source}: a string holds {ascii(m.group())[1:-1]}, half of a UTF-16 pair "
                                 "without its other half (no text can hold it)")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class _Duplicate(_Bad):
    """A key twice in one object: JSON readers keep one or the other, so the file says two things."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            # the reader does not say where an object starts, and the key's text may stand in many
            # objects: the object is named by its first plain values instead ({"q": 3, "r": -1, ...})
            shown = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pairs
                     if k != key and isinstance(v, (str, int, float, bool)) and len(json.dumps(v)) <= 20][:3]
            inside = f" {{{', '.join(shown)}, ...}}" if shown else ""
            raise _Duplicate(f"key {json.dumps(key)} twice in the object{inside} (which one counts?)", "")
        out[key] = value
    return out


def load_json(text: str, source: str) -> Any:
    """Parse JSON text or raise an InputError: ``source:line:col: invalid JSON: why``."""
    def parse(t: str) -> Any:
        return json.loads(t, parse_int=_int, parse_float=_float, parse_constant=_constant, object_pairs_hook=_object)

    return _parse(parse, text, source, "JSON", json.JSONDecodeError, InputError)


class JsonValueError(InputError):
    """Well-formed JSON holding a value a reader cannot take (a string where a number goes), at a
    place found again in the text: ``validate --json`` reports it as unreadable, not as a syntax error."""


_PATH_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def json_path_position(text: str, path: str) -> tuple[int, int] | None:
    """The 1-based line and column of the value a JSON path (``$.cells[3].level``) names in ``text``.

    Why: a reader checks types on decoded data, which keeps no positions, and "$.cells[41]" sends a
    user counting objects in an editor; the line and column take them there. None when the path does
    not lead anywhere in the text (it was made from other data)."""
    decoder = json.JSONDecoder()
    blank = re.compile(r"[ \t\n\r]*")

    def skip(i: int) -> int:
        return blank.match(text, i).end()

    if not path.startswith("$"):
        return None
    at = skip(1 if text.startswith("\ufeff") else 0)
    try:
        for step in _PATH_STEP.finditer(path, 1):
            key, index = step.group(1), step.group(2)
            opener = "{" if key is not None else "["
            if text[at:at + 1] != opener:
                return None
            at, n = skip(at + 1), 0
            while True:
                if text[at:at + 1] in ("}", "]", ""):
                    return None
                if key is not None:
                    name, at = json.decoder.scanstring(text, at + 1)
                    at = skip(skip(at) + 1)  # past the colon
                    if name == key:
                        break
                elif n == int(index):
                    break
                at = skip(decoder.raw_decode(text, at)[1])
                if text[at:at + 1] == ",":
                    at = skip(at + 1)
                n += 1
    except (ValueError, IndexError):
        return None
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def load_toml(text: str, source: str, error: type[TerragenError] = InputError) -> dict[str, Any]:
    """Parse TOML text, rejecting nan/inf, over-long integers and deep nesting, as ``error``."""
    try:
        check_text_numbers(text, source, extra_line=False)
    except InputError as exc:
        raise error(exc.message) from None
    return _parse(lambda t: tomllib.loads(t, parse_float=_float), text, source, "TOML",
                  tomllib.TOMLDecodeError, error)


def check_text_numbers(text: str, source: str, extra_line: bool = True) -> None:
    """Reject a text form holding a run of more than :data:`MAX_DIGITS` digits, with its line and
    column: no field of any terragen text form is that long, and ``int()`` of it would fail.
    A ``#`` comment is skipped (every terragen text form and TOML has them): a long number
    there is read by no one, and it made a whole hand-written file unreadable. So is a text
    form's ``extra:`` line, whose JSON reader checks its own numbers (``extra_line``; TOML has none)."""
    if not _LONG_NUMBER.search(text):
        return
    from terragen.formats import EXTRA_LINE

    from terragen.formats import text_lines

    for lineno, line in enumerate(text_lines(text), 1):  # as the readers count lines
        if extra_line and EXTRA_LINE.match(line):
            continue  # JSON: its reader bounds its numbers, and a string of digits there is no number
        # a quoted string holds no number (its place kept, so the column stays right); TOML's 1_000
        # counts its digits only
        bare = _QUOTED.sub(lambda q: " " * len(q.group()), line.split("#", 1)[0])
        m = _LONG_NUMBER_TOKEN.search(bare)
        if m:
            digits = len(m.group().replace("_", ""))
            raise InputError(f"{source}:{lineno}:{m.start() + 1}: number with {digits} digits "
                             f"(at most {MAX_DIGITS}): {elide(m.group(), 40)}")


def shown(value: object, limit: int = 60) -> str:
    """A value read from a JSON file, spelt as the file spells it (``true``, ``null``, ``"x"``), not
    as Python would (``True``, ``None``, ``'x'``): a message quotes what the user wrote."""
    import json

    from terragen.fileio import elide

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # a TOML date is written as TOML writes it, not datetime.datetime(...)
        text = value.isoformat() if hasattr(value, "isoformat") else repr(value)
        text = text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
    return elide(text, limit)
