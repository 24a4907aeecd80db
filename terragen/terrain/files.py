"""Reading and writing layout files in either form, chosen by content or name."""

from __future__ import annotations

import os
from pathlib import Path

from terragen.fileio import atomic_write, read_text_input
from terragen.formats import looks_like_json, require_text
from terragen.terrain.formats_json import read_json_layout, write_json_layout
from terragen.terrain.formats_text import read_text_layout, write_text_layout
from terragen.terrain.layout import Layout, require_layout


def parse_layout(text: str, source: str = "<layout>") -> Layout:
    """JSON when the text looks like JSON (:func:`terragen.formats.looks_like_json`: a document,
    even one that is not an object, so a list is told it is the wrong shape rather than read as
    rows of a map), the text form otherwise."""
    require_text(text, "parse_layout")
    if looks_like_json(text):
        return read_json_layout(text, source)
    return read_text_layout(text, source)


def load_layout(path: str | os.PathLike[str]) -> Layout:
    """The layout in the file at ``path`` (``-`` for standard input), either form, read as every
    command reads it: size-capped, UTF-8 only, and any error one InputError naming file:line:col,
    so a library user meets the CLI's messages and limits, not a bare exception."""
    return parse_layout(read_text_input(path), str(path))


def save_layout(layout: Layout, path: str | os.PathLike[str]) -> Path:
    """Write JSON for ``.json`` files and the text form for anything else, whole or not at all (a
    temporary file renamed into place); a missing folder on the way is made, as the commands'
    ``--out`` folders are."""
    require_layout(layout, "save_layout")
    p = Path(path)
    data = write_json_layout(layout) if p.suffix.lower() == ".json" else write_text_layout(layout)
    return atomic_write(p, data)
