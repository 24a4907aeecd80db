"""No word on a true-size sheet is printed smaller than 6 pt (``MIN_TEXT_MM``).

A kit is read at arm's length off a home printer: start marks named their colour in 4.3 pt, the
duplex test's mm scales were numbered in 3.7 pt, Terrace pieces and TerraFlip spies named their
colours in 4.5-4.7 pt. The reduced overview pages (the sheets drawn small, to show how they fit
together) are the exception, and say on their label that they are reduced.
"""

from __future__ import annotations

import math

import pytest

from terragen.render.model import MIN_TEXT_MM, Text
from tests.render.test_contrast import kit_parts, walk


def small_words(page) -> list[tuple[str, float]]:
    out = []
    for it, m, _ in walk(page.items):
        if isinstance(it, Text) and it.text.strip():
            a, b, c, d = m[:4]
            size = it.size * math.sqrt(abs(a * d - b * c))
            if size < MIN_TEXT_MM - 1e-6:
                out.append((it.text, round(size / 25.4 * 72, 1)))
    return out


@pytest.mark.parametrize("game", ["terrain", "terrace", "terralogical", "terraflip"])
def test_every_word_on_a_true_size_sheet_is_6_pt_or_more(game, a4):
    bad = {}
    for part in kit_parts(game, a4):
        for k, page in enumerate(part.doc.pages, 1):
            if "reduced" in page.label:
                continue
            found = small_words(page)
            if found:
                bad[f"{part.name} p{k}"] = sorted(set(found))[:6]
    assert not bad, bad


def test_the_overview_pages_are_the_reduced_ones(a4):
    """The exception above must not grow: only boards' overviews and Terrace's set-ups are reduced."""
    reduced = {(game, part.name) for game in ("terrain", "terrace", "terralogical", "terraflip")
               for part in kit_parts(game, a4) for page in part.doc.pages if "reduced" in page.label}
    assert reduced == {("terrain", "board"), ("terrace", "board"), ("terrace", "setups"), ("terralogical", "board")}
