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


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_an_overview_keeps_no_word_under_4_5_pt_and_the_terrain_corners_stay(paper):
    """A board's coordinates came out at 3.1-3.6 pt on the overviews, a speckle no one reads; the
    words left out are on the true-size sheets. The Terrain board's corners, where the start marks
    go, stay named."""
    from terragen.render.impose import PrintOptions
    from terragen.render.paper import load_paper

    opts = PrintOptions(load_paper(paper))
    floor = 4.5 * 25.4 / 72
    for game in ("terrain", "terrace", "terralogical"):
        for part in kit_parts(game, opts):
            for page in part.doc.pages:
                if "reduced" in page.label and "overview" in page.label:
                    tiny = [(it.text, size) for it, size in _word_sizes(page) if size < floor - 1e-6]
                    assert not tiny, (game, paper, tiny[:5])
                    if game == "terrain":
                        assert {f"corner {i}" for i in range(6)} <= {it.text for it, _ in _word_sizes(page)}


def _word_sizes(page):
    for it, m, _ in walk(page.items):
        if isinstance(it, Text) and it.text.strip():
            a, b, c, d = m[:4]
            yield it, it.size * math.sqrt(abs(a * d - b * c))
