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
_LONG_NUMBER = re.compile(r"\d{%d,}" % (MAX_DIGITS + 1))


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


def _where(text: str, token: str) -> str:
    at = text.find(token[:64]) if token else -1
    if at < 0:
        return ""
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return f"{line}:{col}:"


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


def load_json(text: str, source: str) -> Any:
    """Parse JSON text or raise an InputError: ``source:line:col: invalid JSON: why``."""
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except _Bad as exc:
        raise InputError(f"{source}:{_where(text, exc.token)} invalid JSON: {exc}") from None
    except RecursionError:
        raise InputError(f"{source}: invalid JSON: nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # anything else the decoder rejects by value
        raise InputError(f"{source}: invalid JSON: {elide(str(exc), 120)}") from None
    check_depth(data, source)
    return data


def load_toml(text: str, source: str, error: type[TerragenError] = InputError) -> dict[str, Any]:
    """Parse TOML text, rejecting nan/inf, over-long integers and deep nesting, as ``error``."""
    try:
        check_text_numbers(text, source)
    except InputError as exc:
        raise error(exc.message) from None
    try:
        data = tomllib.loads(text, parse_float=_float)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{source}: not valid TOML ({exc})") from None
    except _Bad as exc:
        raise error(f"{source}:{_where(text, exc.token)} not valid TOML: {exc}") from None
    except RecursionError:
        raise error(f"{source}: not valid TOML: nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # the int-string limit: a number of thousands of digits
        raise error(f"{source}: not valid TOML: {elide(str(exc), 120)}") from None
    check_depth(data, source)
    return data


def check_text_numbers(text: str, source: str) -> None:
    """Reject a text form holding a run of more than :data:`MAX_DIGITS` digits, with its line and
    column: no field of any terragen text form is that long, and ``int()`` of it would fail."""
    m = _LONG_NUMBER.search(text)
    if m:
        raise InputError(f"{source}:{_where(text, m.group())} number with {len(m.group())} digits "
                         f"(at most {MAX_DIGITS}): {elide(m.group(), 40)}")
