"""Every game can be played from a mono print: sides differ in grey value AND in a printed sign."""

from __future__ import annotations

import itertools

from terragen.render.palette import luminance
from terragen.render.model import Text, flatten


def token_words(items) -> set[str]:
    return {it.text for it, _ in flatten(items) if isinstance(it, Text)}


def test_terrace_sides_print_as_different_greys_and_letter_forms():
    from terragen.render.kits.terrace.art import SEAT_COLOURS, SEAT_COLOUR_NAMES, piece_token

    greys = {s: round(255 * luminance(c)) for s, c in SEAT_COLOURS.items()}
    assert all(abs(greys[a] - greys[b]) >= 35 for a, b in itertools.combinations(greys, 2)), greys
    assert abs(greys["top"] - greys["bottom"]) >= 100  # the two-player game: darkest against lightest
    for kind in "TABCD":
        signs = [token_words(piece_token(20.0, kind, SEAT_COLOURS[s], SEAT_COLOUR_NAMES[s], s)) - {SEAT_COLOUR_NAMES[s]}
                 for s in SEAT_COLOURS]
        assert len({frozenset(w) for w in signs}) == len(SEAT_COLOURS), (kind, signs)


def test_terrace_pieces_page_in_grey_keeps_four_sides_apart(tmp_path, a4):
    """Rendered with poppler's -gray, the four seats' token discs still land on four grey levels."""
    import shutil
    import subprocess

    import pytest

    if not shutil.which("pdftoppm"):
        pytest.skip("poppler-utils not installed")
    from PIL import Image

    from terragen.render.kits.terrace.art import SEAT_COLOURS
    from terragen.render.kits.terrace.kit import pieces_part
    from terragen.render.model import Circle, Document
    from terragen.render.pdf import document_pdf

    doc = pieces_part(a4, 8).doc
    page = doc.pages[0]
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(document_pdf(Document("t", [page])))
    subprocess.run(["pdftoppm", "-gray", "-png", "-r", "40", str(pdf), str(tmp_path / "g")], check=True)
    img = Image.open(next(tmp_path.glob("g*.png"))).convert("L")
    px = 40 / 25.4
    seen: dict[str, set[int]] = {}
    for it, m in flatten(page.items):
        if isinstance(it, Circle) and it.style.fill in SEAT_COLOURS.values():
            x, y = m[4] + it.cx + it.r * 0.95, m[5] + it.cy  # in the coloured rim, clear of letters
            seen.setdefault(it.style.fill, set()).add(img.getpixel((round(x * px), round(y * px))))
    levels = sorted(sum(v) / len(v) for v in seen.values())
    assert len(levels) == 4 and all(b - a >= 30 for a, b in zip(levels, levels[1:])), levels


def test_terrain_tokens_and_flags_name_their_player(a4):
    from terragen.render.kits.terrain.kit import tokens_part

    from terragen.render.palette import load_palette

    texts = [it.text for it, _ in flatten(tokens_part(a4, load_palette()).doc.pages[0].items) if isinstance(it, Text)]
    for s in range(1, 7):  # the start mark, the token and the three flags each name the player
        assert texts.count(f"P{s}") == 5, s
