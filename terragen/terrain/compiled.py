"""The optional compiled extensions (``_kernels.c``, ``sim/_fast_turns.c``), loaded in one place.

Why optional: ``pip install`` builds them only where the machine has a C compiler, and every one
of their functions follows a Python function that gives the same results (a run's games and
boards are the same with or without them). ``TERRAGEN_PURE_PYTHON=1`` ignores them, to compare
the two or to debug in Python.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def load(module: str) -> ModuleType | None:
    """The compiled module ``module`` (a dotted name), or None when it was not built or
    ``TERRAGEN_PURE_PYTHON`` is set."""
    if os.environ.get("TERRAGEN_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


#: the compiled modules a full build has, by the source file they are built from
MODULES = {"_kernels.c": "terragen.terrain._kernels", "sim/_fast_turns.c": "terragen.terrain.sim._fast_turns"}


def missing_kernels() -> list[str]:
    """The compiled modules this install lacks (none when ``TERRAGEN_PURE_PYTHON`` asks for Python)."""
    if os.environ.get("TERRAGEN_PURE_PYTHON", "") not in ("", "0"):
        return []
    return [source for source, ok in kernels_in_use().items() if not ok]


def kernels_in_use() -> dict[str, bool]:
    """Whether each compiled module loads here (``terragen --version`` says so): without them the
    results are the same, only slower, so nothing else would tell a user their build lacks them."""
    return {source: load(module) is not None for source, module in MODULES.items()}
