"""Where the data templates (inventories, presets, examples, paper sizes) live.

Templates are data, not code, and sit in the top-level ``templates/`` folder of
the source tree. ``TERRAGEN_TEMPLATES`` can point elsewhere (a customised set).
"""

from __future__ import annotations

import os
from pathlib import Path


def templates_root() -> Path:
    env = os.environ.get("TERRAGEN_TEMPLATES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "templates"


def template_path(*parts: str) -> Path:
    return templates_root().joinpath(*parts)
