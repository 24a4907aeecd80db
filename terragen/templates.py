"""Where the run-time data (inventories, presets, examples, paper sizes, palettes) lives.

The data ships inside the installed package, in ``terragen/data/``, and is found
through :mod:`importlib.resources`, so a wheel installed anywhere (or a zipped
package) finds it without the source tree. ``TERRAGEN_TEMPLATES`` may point at a
folder with the same layout to use a customised set instead.

Callers only use the part of the API that both a real folder and a resource
inside a zip support (``joinpath``, ``is_file``, ``is_dir``, ``iterdir``,
``read_text``, ``read_bytes``, ``name``), never ``glob`` or ``exists``.
"""

from __future__ import annotations

import os
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path


def templates_root() -> Traversable:
    env = os.environ.get("TERRAGEN_TEMPLATES")
    if env:
        return Path(env)
    return files("terragen").joinpath("data")


def template_path(*parts: str) -> Traversable:
    return templates_root().joinpath(*parts)


def template_names(*parts: str, suffix: str = ".toml") -> list[str]:
    """Sorted stems of the files ending in ``suffix`` in one data folder ([] if it is missing)."""
    folder = template_path(*parts)
    if not folder.is_dir():
        return []
    return sorted(p.name[: -len(suffix)] for p in folder.iterdir() if p.is_file() and p.name.endswith(suffix))
