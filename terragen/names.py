"""Comma-separated lists of names given on the command line (``--policy greedy,expert``)."""

from __future__ import annotations

from terragen.errors import SpecError


def comma_list(text: str, option: str) -> list[str]:
    """The names in ``text``, refusing an empty one.

    Why: ``random,,greedy`` or a trailing comma was read as two names, so a player meant for one
    seat silently played another's; a slip in a list of seats should be named, not guessed at."""
    parts = [p.strip() for p in text.split(",")]
    if any(not p for p in parts):
        raise SpecError(f"{option} {text!r} has an empty name (two commas in a row, or one at an end)")
    return parts
