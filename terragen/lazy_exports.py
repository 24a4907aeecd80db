"""Names a package offers from its modules, imported only when first used.

Why: a library user should find the main entry points one level down
(``from terragen.terrain import load_layout, simulate_layout``) rather than guess module paths,
but importing every module up front would cost the CLI its fast start (``bench/README.md``,
start-up), since every command imports some game package.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, names: dict[str, str]) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``__all__``, ``__getattr__`` and ``__dir__`` for ``package``: each of ``names`` (name ->
    module) is imported from its module when first asked for (PEP 562)."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)  # found in the package's namespace from now on
        return value

    def __dir__() -> list[str]:
        return sorted(set(names) | set(vars(sys.modules[package])))

    return sorted(names), __getattr__, __dir__
