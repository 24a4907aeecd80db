"""Each kit's rules page states the rules a table needs most (checked against the rulebooks).

The phrases are the page's own wording of one rule each; a page that drops a rule fails here.
"""

from __future__ import annotations

import importlib
import re

import pytest

from terragen.render.model import Text, flatten

KEY_RULES = {
    "terrain": [
        r"never two tokens on one position",  # no sharing a hex
        r"ends on it, that token is sent back to its start corner",  # send-back
        r"more than three levels",  # elevation rule
        r"bad weather",
        r"both dice show the same number",  # doubles rotate
        r"as many of your points as you like, or none",
        r"corner nobody starts from",  # destination on a free corner
        r"ends a move on it",  # a flag counts only at the end of a move
    ],
    "terrace": [
        r"empty square on the next terrace up, straight or on the diagonal",
        r"straight only; never on the diagonal",
        r"pass your own pieces but no one else's",
        r"diagonal step down is a capture",
        r"no bigger than the mover",
        r"centre",
        r"draw",
    ],
    "terralogical": [
        r"next to \(not diagonal to\)",
        r"at least one touching edge must be a real match",
        r"2 when both halves sit on light subsoil",
        r"cloud score nothing",
        r"flower field",
        r"round passes without anybody laying a tile",
        r"hand costs 1 point",
    ],
    "terraflip": [
        r"touching a tile already on the table",
        r"starts; turns then go clockwise",
        r"framed when a straight line",
        r"no gap",
        r"spy token",
        r"never turn over",
        r"tie the player with more tiles",
    ],
}


def rules_text(game: str, opts) -> str:
    kit = importlib.import_module(f"terragen.render.kits.{game}.kit")
    part = kit.rules_part(opts)
    words = " ".join(it.text for page in part.doc.pages for it, _ in flatten(page.items) if isinstance(it, Text))
    return re.sub(r"\s+", " ", words)


@pytest.mark.parametrize("game", sorted(KEY_RULES))
def test_rules_page_states_the_key_rules(game, a4):
    text = rules_text(game, a4)
    missing = [r for r in KEY_RULES[game] if not re.search(r, text, re.IGNORECASE)]
    assert not missing, f"{game} rules page lacks: {missing}"


def test_printing_notes_match_the_sheets(a4):
    """The Terrace note told players to trim off the shaded strips the sheets are glued on, and the
    Terralogical note named the long edge for a kit laid out to flip on the short one."""
    from terragen.render.impose import PrintOptions

    terrace = rules_text("terrace", a4)
    assert "shaded strip of the sheet beneath" in terrace and "dashed edges" in terrace
    assert "Trim the board sheets on their shaded sides" not in terrace
    for flip in ("long", "short"):
        text = rules_text("terralogical", PrintOptions(a4.paper, flip=flip))
        assert f"flip on the {flip} edge" in text
