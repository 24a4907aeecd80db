"""Comma-separated lists of names given on the command line (``--policy greedy,expert``)."""

from __future__ import annotations

from collections.abc import Iterable

from terragen.errors import SpecError


def comma_list(text: str, option: str, known: Iterable[str] = ()) -> list[str]:
    """The names in ``text``, refusing an empty one; a name in ``known`` is matched in any case.

    Why: ``random,,greedy`` or a trailing comma was read as two names, so a player meant for one
    seat silently played another's; a slip in a list of seats should be named, not guessed at.
    Built-in names match in any case (``GREEDY``) as every other named option value does, while a
    name outside ``known`` (a plug-in's ``module:Class``) keeps its case, which Python needs."""
    parts = [p.strip() for p in text.split(",")]
    if any(not p for p in parts):
        raise SpecError(f"{option} {text!r} has an empty name (two commas in a row, or one at an end)")
    by_lower = {k.lower(): k for k in known}
    return [by_lower.get(p.lower(), p) for p in parts]
