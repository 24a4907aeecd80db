"""Small helpers shared by the command modules (output paths, JSON printing)."""

from __future__ import annotations

import json
from typing import Any

import click


def echo_json(data: Any) -> None:
    """Print JSON deterministically (sorted keys, stable indentation)."""
    click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
