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
