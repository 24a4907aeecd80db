"""Checks every game's shipped examples share: an invalid example breaks its own rule and no other,
a legal one reads clean, and every rule a validator can break has an example."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

#: a validator's ``error("code", ...)`` calls: the codes it can report
ERROR_CALL = re.compile(r'\berror\(\s*"([a-z0-9-]+)"')


def error_codes_in(*modules: ModuleType) -> set[str]:
    return {code for mod in modules for code in ERROR_CALL.findall(Path(mod.__file__).read_text(encoding="utf-8"))}


def breaks_only_its_rule(validate_text: Callable, path: Path) -> None:
    """The example named after a code (``too-many-t.txt``) gives that error, no other, no warning."""
    report = validate_text(path.read_text(encoding="utf-8"), path.name)
    errors = {f.code for f in report.findings if f.severity == "error"}
    assert errors == {path.stem}, [f.format() for f in report.findings]
    assert not [f for f in report.findings if f.severity == "warning"]


def reads_clean(validate_text: Callable, path: Path) -> None:
    report = validate_text(path.read_text(encoding="utf-8"), path.name)
    assert report.valid and report.findings == [], [f.format() for f in report.findings]
