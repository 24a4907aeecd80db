"""Where the run-time data (inventories, presets, examples, paper sizes, palettes) lives.

The data ships inside the installed package, in ``terragen/data/``, and is found
through :mod:`importlib.resources`, so a wheel installed anywhere (or a zipped
package) finds it without the source tree. ``TERRAGEN_TEMPLATES`` may point at a
folder with the same layout to use a customised set instead.

Callers only use the part of the API that both a real folder and a resource
inside a zip support (``joinpath``, ``is_file``, ``is_dir``, ``iterdir``,
``read_text``, ``read_bytes``, ``name``), never ``glob`` or ``exists``.

Why every template file is read here (:func:`read_template`, :func:`load_template_toml`): a
``TERRAGEN_TEMPLATES`` folder is the user's own files, so a typo in one is bad input, to be named
in one line with its file (and line and column), never an internal error.
"""

from __future__ import annotations

import os
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from terragen.errors import InputError

#: the environment variable that points at a user's own data folder (README.md)
TEMPLATES_VARIABLE = "TERRAGEN_TEMPLATES"


def templates_root() -> Traversable:
    """The data folder: ``TERRAGEN_TEMPLATES``'s when set (an InputError if it names no folder), else
    the package's own."""
    env = os.environ.get(TEMPLATES_VARIABLE)
    if env:
        root = Path(env)
        if not root.is_dir():
            from terragen.fileio import display_name

            what = "is not a folder" if os.path.lexists(root) else "no such folder"
            raise TemplateError(f"{TEMPLATES_VARIABLE}={display_name(env)}: {what} (it should name a folder laid out "
                             "as terragen's data folder; unset it to use the shipped data)")
        return root
    return files("terragen").joinpath("data")


def template_path(*parts: str) -> Traversable:
    return templates_root().joinpath(*parts)


def template_names(*parts: str, suffix: str = ".toml") -> list[str]:
    """Sorted stems of the files ending in ``suffix`` in one data folder ([] if it is missing from
    the package). In a ``TERRAGEN_TEMPLATES`` folder a missing or empty one is an InputError naming
    the variable: the choices it would have given read as an empty list ("must be one of  (got ...)")."""
    folder = template_path(*parts)
    names = []
    if folder.is_dir():
        names = sorted(p.name[: -len(suffix)] for p in folder.iterdir() if p.is_file() and p.name.endswith(suffix))
    if not names and os.environ.get(TEMPLATES_VARIABLE):
        what = "has no" if folder.is_dir() else "is missing, so there are no"
        raise TemplateError(f"{_shown(folder)} {what} *{suffix} files ({TEMPLATES_VARIABLE} names the data folder; "
                         "copy the missing files from terragen's own, or unset it)")
    return names


def read_template(*parts: str) -> str:
    """The text of one template file, or an InputError naming the file and what is wrong with it (not
    UTF-8, empty, unreadable, too large): the user's file when ``TERRAGEN_TEMPLATES`` is set."""
    path = template_path(*parts)
    try:
        if isinstance(path, Path):  # a real file (TERRAGEN_TEMPLATES, or an unzipped package): read as any input
            from terragen.fileio import read_text_input

            return read_text_input(path)
        from terragen.fileio import decode_text

        return decode_text(path.read_bytes(), _shown(path))
    except OSError as exc:
        raise InputError(f"{_shown(path)}: cannot read ({exc.strerror or exc})") from None
    except InputError as exc:
        raise _from_templates(exc) from None


def load_template_toml(*parts: str) -> dict[str, Any]:
    """One template file's TOML table; a syntax error is an InputError naming the file, line and column."""
    from terragen.safejson import load_toml

    text = read_template(*parts)
    try:
        return load_toml(text, _shown(template_path(*parts)))
    except InputError as exc:
        raise _from_templates(exc) from None


def template_error(parts: tuple[str, ...], problem: str) -> InputError:
    """The error for a template file whose content is wrong (a key missing, a value of the wrong
    kind): ``<file>: <problem>``, noted as ``TERRAGEN_TEMPLATES``'s when it is."""
    return _from_templates(InputError(f"{_shown(template_path(*parts))}: {problem}"))


def _shown(path: Traversable) -> str:
    from terragen.fileio import display_name

    return display_name(str(path))


class TemplateError(InputError):
    """A data file (a preset, an inventory, a paper, a palette of the data folder) that cannot be used.
    Its own kind so that a command reading an option's file does not say it as that option's
    (a bad preset under ``TERRAGEN_TEMPLATES`` was "--spec: .../hard.toml: ..." with no --spec given)."""


def _from_templates(exc: InputError) -> InputError:
    """``exc`` as a :class:`TemplateError`, with a note that the file is one of ``TERRAGEN_TEMPLATES``'s
    when it is: the user may have set the variable long ago and not think of it."""
    note = f" (a template file of {TEMPLATES_VARIABLE})" if os.environ.get(TEMPLATES_VARIABLE) else ""
    return TemplateError(f"{exc.message}{note}", exc.exit_code, position=exc.position)
