"""Plain-text layout for reports read in a terminal: tables in columns, prose wrapped.

Why one place: validate, generate and simulate print tables and long lines side by side; a table
wider than the terminal, or a 300-character line the terminal breaks mid-word, is hard to read,
and each command laying text out its own way made them differ.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

#: the width reports are laid out for: the classic terminal's, so a report reads the same whatever
#: window printed it (the same inputs give the same bytes) and fits the narrowest one in common use
WIDTH = 80


def columns(rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    """``rows`` (the first the heading) as columns two spaces apart, a rule under the heading; the
    columns numbered in ``right`` are right-aligned (figures), the others left-aligned.

    A heading cell may hold a line break ("simulated\nwin"): a heading of two lines keeps a column
    of short figures as narrow as its figures, which is what fits a nine-column table in 80.
    """
    heading = [cell.split("\n") for cell in rows[0]]
    depth = max(len(parts) for parts in heading)
    head_rows = [tuple(parts[k] if k < len(parts) else "" for parts in heading) for k in range(depth)]
    body = [tuple(r) for r in rows[1:]]
    every = head_rows + body
    widths = [max(len(r[i]) for r in every) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in enumerate(zip(r, widths)))
             .rstrip() for r in every]
    lines.insert(depth, "  ".join("-" * w for w in widths))
    return lines


def wrapped(lines: Iterable[str], width: int = WIDTH) -> list[str]:
    """Each line longer than ``width`` broken at spaces, its continuation indented two more than it.

    A line with two spaces in a row after its indent is a table's row (columns are two spaces
    apart): it is left alone, since re-flowing it would lose its columns.
    """
    out: list[str] = []
    for line in (part for whole in lines for part in whole.split("\n")):  # a line break inside stays one
        body = line.lstrip(" ")
        if len(line) <= width or "  " in body or not body:
            out.append(line)
            continue
        indent = line[: len(line) - len(body)]
        out.extend(textwrap.wrap(body, width, initial_indent=indent, subsequent_indent=indent + "  ",
                                 break_long_words=False, break_on_hyphens=False))
    return out


def named(noun: str, names: Iterable[str]) -> str:
    """``key 'a'`` or ``keys 'a', 'b'``: unknown names listed as every such message lists them."""
    listed = sorted(map(str, names))
    return f"{noun if len(listed) == 1 else noun + 's'} {', '.join(repr(k) for k in listed)}"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun in the right number ("1 game", "2 games", "1 land tile"): reports print
    counts that are often 1 (one game played, one tile placed), and "1 games" reads as a bug."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
