"""Small helpers shared by the command modules (output paths, JSON printing)."""

from __future__ import annotations

import json
from typing import Any

import click


def echo_json(data: Any) -> None:
    """Print JSON deterministically (sorted keys, stable indentation)."""
    click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


def finish_validation(report: Any, source: str, as_json: bool) -> None:
    """Print a game's validation report (JSON, or findings, summary and a verdict line) and
    exit 1 when it is invalid: the shared tail of every ``<game> validate`` command."""
    from terragen.errors import EXIT_INVALID

    if as_json:
        echo_json(report.to_json())
    else:
        for finding in report.findings:
            click.echo(finding.format(source))
        for line in report.summary:
            click.echo(line)
        click.echo("valid" if report.valid else f"invalid: {len(report.errors)} error(s)")
    if not report.valid:
        raise SystemExit(EXIT_INVALID)


class FiniteFloat(click.ParamType):
    """A float option that refuses ``nan`` and ``inf`` (``float()`` accepts both, and no range
    check catches nan: ``--time-limit nan`` used to remove the time limit), optionally in a range."""

    name = "number"

    def __init__(self, lo: float | None = None, hi: float | None = None, positive: bool = False) -> None:
        self.lo, self.hi, self.positive = lo, hi, positive

    def convert(self, value, param, ctx) -> float:
        import math

        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if self.positive and number <= 0:
            self.fail(f"{value!r} must be greater than 0", param, ctx)
        if (self.lo is not None and number < self.lo) or (self.hi is not None and number > self.hi):
            self.fail(f"{value!r} is not in the range {self.lo:g} to {self.hi:g}", param, ctx)
        return number


#: Any finite number; a strictly positive one (sizes, scales, time limits).
FINITE = FiniteFloat()
POSITIVE = FiniteFloat(positive=True)
