""""Did you mean ...?": the known name a mistyped one was most likely meant to be.

Used wherever a user types a name terragen must know (text-form sections,
spec keys, JSON keys), so every such error can name the likely fix.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The choice ``word`` was most likely meant to be (a typo or a missing letter), or None."""
    options = list(choices)
    low = word.lower()
    hits = difflib.get_close_matches(low, options, n=1, cutoff=0.6)
    if hits:
        return hits[0]
    prefixed = [c for c in options if c.startswith(low) or low.startswith(c)]
    return prefixed[0] if len(low) >= 3 and len(prefixed) == 1 else None
