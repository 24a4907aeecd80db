"""Findings and validation reports shared by every game's ``validate``.

A finding is one broken rule (error) or one doubtful thing (warning) with a
stable ``code`` that scripts and tests can rely on, a message naming the
places involved, and, for text input, the line and column. Keeping one shape
for all four games lets ``terragen validate`` print and serialise them alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterable, Sequence
from typing import Any, Literal

Severity = Literal["error", "warning"]

#: the longest finding message, as long as the CLI's one error line
MAX_MESSAGE = 600

#: The code of a problem met while reading a file (a line the reader had to skip). A report
#: holding one means the file is malformed, which the CLI reports with exit status 2, not 1.
SYNTAX = "syntax"


@dataclass(frozen=True)
class Finding:
    severity: Severity
    code: str
    message: str
    cells: tuple[tuple[int, ...], ...] = ()
    line: int | None = None
    col: int | None = None

    def __post_init__(self) -> None:
        # a message quotes what the file holds: a pattern of a million letters made a 1 MB report line
        if len(self.message) > MAX_MESSAGE:
            from terragen.fileio import elide

            object.__setattr__(self, "message", elide(self.message, MAX_MESSAGE))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "cells": [list(c) for c in self.cells],
        }
        if self.line is not None:
            out["line"] = self.line
            out["col"] = self.col
        return out

    def where(self, source: str | None = None) -> str:
        """``source:line:col`` as far as they are known ("" when none is)."""
        where = source or ""
        if self.line is not None:
            if self.col is None:  # a finding about a whole line (the players line, say)
                where = f"{where}:{self.line}" if where else f"line {self.line}"
            else:
                where = f"{where}:{self.line}:{self.col}" if where else f"line {self.line}, col {self.col}"
        return where

    def format(self, source: str | None = None) -> str:
        where = self.where(source)
        prefix = f"{where}: " if where else ""
        return f"{prefix}{self.severity} [{self.code}] {self.message}"


def error(code: str, message: str, cells: Iterable[Sequence[int]] = (), line: int | None = None, col: int | None = None) -> Finding:
    return Finding("error", code, message, tuple(tuple(c) for c in cells), line, col)


def warning(code: str, message: str, cells: Iterable[Sequence[int]] = (), line: int | None = None, col: int | None = None) -> Finding:
    return Finding("warning", code, message, tuple(tuple(c) for c in cells), line, col)


def in_file_order(findings: list[Finding]) -> list[Finding]:
    """``findings`` in the order of the file they were read from, unreadable lines among the rule
    breaks (they came first: 7:11, 9:1, then 6:5 sent a reader up and down the file); those with no
    line keep their order after the rest."""
    return sorted(findings, key=lambda f: (f.line is None, f.line or 0, f.col or 0))


@dataclass
class ValidationReport:
    """What ``validate`` found for one file of any game.

    ``data`` holds the game-specific analysis (players, metrics, ...) that goes
    into the JSON output next to ``valid``/``errors``/``warnings``;
    ``summary`` holds the human-readable lines printed after the findings.
    """

    game: str
    findings: list[Finding] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def exit_code(self) -> int:
        """0 valid, 1 rules broken, 2 the file itself is malformed (a syntax finding)."""
        from terragen.errors import EXIT_INVALID, EXIT_OK, EXIT_USAGE

        if any(f.code == SYNTAX for f in self.findings):
            return EXIT_USAGE
        return EXIT_OK if self.valid else EXIT_INVALID

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "valid": self.valid,
            "errors": [f.to_json() for f in self.errors],
            "warnings": [f.to_json() for f in self.warnings],
        }
        out.update(self.data)
        return out
