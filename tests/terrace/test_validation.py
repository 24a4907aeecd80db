"""Every rule violation a position file can contain becomes a finding with a stable code."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.terrace.formats import to_json, to_text
from terragen.terrace.position import Position
from terragen.terrace.validation import load_position, validate_text
from tests.example_checks import error_codes_in

FULL = to_text(Position.start("full"))


def codes(report):
    return sorted(f.code for f in report.findings)


def test_start_positions_are_valid():
    for setup in ("full", "short", "four"):
        for n in (6, 8, 10):
            rep = validate_text(to_text(Position.start(setup, n)), "s")
            assert rep.valid and rep.findings == [] and rep.game == "terrace"
            assert rep.data["legal_moves"] > 0 and rep.summary


def test_too_many_pieces_and_all_problems_reported():
    text = FULL.replace("- - - - - - - -", "D - - - - - - -", 1).replace("t a b b", "t t b b")
    text = text.replace("to-move: T", "to-move: TT")
    rep = validate_text(text, "f")
    assert not rep.valid
    assert "too-many-pieces" in codes(rep)  # a fifth D for top
    assert "too-many-t" in codes(rep)  # two t for bottom
    assert "to-move-unknown" in codes(rep)  # TT does not play in a 2-player game
    msg = [f.message for f in rep.findings if f.code == "too-many-pieces"][0]
    assert "a6" in msg and "5 D" in msg
    # located at the first piece past the set-up's count (the text's line and column), as too-many-t is
    extra = next(f for f in rep.findings if f.code == "too-many-pieces")
    lines = text.splitlines()
    assert extra.line is not None and lines[extra.line - 1][extra.col - 1] in "Dd"


def test_seat_not_in_game_is_located():
    text = FULL.replace("d d c c", "dd d c c")
    rep = validate_text(text, "f")
    assert "seat-not-in-game" in codes(rep)
    bad = [f for f in rep.findings if f.code == "seat-not-in-game"][0]
    assert bad.line == 9 and bad.col == 1


@pytest.mark.parametrize("setup", ["full", "short", "three", "four"])
def test_a_finished_game_reads_back_as_the_position_play_wrote(setup):
    """A two-player game whose T was taken was refused as t-missing, a many-player game won by the
    last seat standing as to-move-out, though to_text promises a position that reads back equal."""
    pos, rng = Position.start(setup), random.Random(3)
    while not pos.is_game_over():
        pos.push(rng.choice(pos.legal_moves()))
    rep = validate_text(to_text(pos), "f")
    assert rep.valid and codes(rep) == ["game-over"]
    again = load_position(to_text(pos), "f")
    assert again.key() == pos.key() and again.result() == pos.result()


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(["full", "short", "three", "four"]), size=st.sampled_from([6, 8]),
       seed=st.integers(0, 2**32), plies=st.integers(0, 400), as_json=st.booleans())
def test_every_position_random_play_reaches_reads_back_equal(setup, size, seed, plies, as_json):
    """Any position play reaches, finished or not, written as text or JSON reads back to an equal
    position with the same outcome (a finished one was refused)."""
    pos, rng = Position.start(setup, size), random.Random(seed)
    for _ in range(plies):
        if pos.is_game_over():
            break
        pos.push(rng.choice(pos.legal_moves()))
    text = to_json(pos) if as_json else to_text(pos)
    rep = validate_text(text, "f")
    assert rep.valid and set(codes(rep)) <= {"game-over"}
    again = load_position(text, "f")
    assert (again.key(), again.result()) == (pos.key(), pos.result())


def test_a_two_player_seat_without_its_t_has_lost_the_game():
    rep = validate_text(FULL.replace("A T\n", "A -\n"), "f")
    assert rep.valid and codes(rep) == ["game-over"] and "bottom (t) wins" in rep.findings[0].message


def test_rows_off_board_and_row_length():
    """A row or a board of the wrong length is unreadable as the board (syntax, exit 2), as in a
    Terrain Game map: it was a rule break (exit 1) in a Terrace file only."""
    lines = FULL.splitlines()
    lines[3] = lines[3] + " D"  # ninth square in row 2
    lines.append("- - - - - - - -")  # ninth row
    rep = validate_text("\n".join(lines) + "\n", "f")
    assert rep.exit_code == 2 and {"off-board", "syntax"} == set(codes(rep))
    syntax = [(f.line, f.col, f.message) for f in rep.findings if f.code == "syntax"]
    assert syntax == [(4, 17, "row 2 of the board has 9 squares; a size-8 board has 8"),
                      (11, 1, "the board has 9 rows; a size-8 board has 8 (the rows below are off the board)")]
    off = [f for f in rep.findings if f.code == "off-board"][0]
    assert off.line == 4 and off.col == 17
    short = FULL.replace("A A B B C C D D", "A A B B C C D")
    rep = validate_text(short, "f")
    assert rep.exit_code == 2 and [(f.code, f.line, f.col) for f in rep.findings] == [("syntax", 4, 13)]


def test_missing_to_move_and_height_mismatch():
    text = FULL.replace("to-move: T  ", "").replace("- - - - - - - -", "6 6 6 5 4 3 3 3", 1)
    rep = validate_text(text, "f")
    assert "to-move-missing" in codes(rep)
    # pointed at the header's last line, where the entry goes, not at a comment on line 1
    text = "# a comment first\n" + FULL.replace("to-move: T  ", "")
    missing = [f for f in validate_text(text, "f").findings if f.code == "to-move-missing"]
    assert [(f.line, f.col) for f in missing] == [(3, 1)]
    text = FULL.replace("- - - - - - - -", "6 6 6 5 4 3 3 9", 1)
    rep = validate_text(text, "f")
    assert rep.valid and codes(rep) == ["height-mismatch"]
    assert rep.warnings[0].line == 5 and rep.warnings[0].col == 15


def test_json_two_pieces_on_a_square_and_off_board():
    data = json.loads(to_json(Position.start("short")))
    data["pieces"].append({"square": "b8", "side": "bottom", "kind": "A"})
    data["pieces"].append({"square": "k3", "side": "bottom", "kind": "A"})
    rep = validate_text(json.dumps(data), "j")
    assert {"square-occupied-twice", "off-board"} <= set(codes(rep))
    assert any("b8" in f.message for f in rep.findings if f.code == "square-occupied-twice")
    data["pieces"].append({"square": "z99", "side": "bottom", "kind": "A"})  # named as the file wrote it
    rep = validate_text(json.dumps(data), "j")
    assert any("z99 is off the" in f.message for f in rep.findings if f.code == "off-board")


def test_four_player_seat_out_and_game_over_warning():
    pos = Position.start("four")
    text = to_text(pos)
    # remove every piece of the left seat: it has left the game; left to move is then an error
    lines = text.splitlines()
    for k in range(2, len(lines)):
        lines[k] = " ".join("-" if tok.isupper() and len(tok) == 2 else tok for tok in lines[k].split())
    out_text = "\n".join(lines) + "\n"
    assert validate_text(out_text, "f").valid
    rep = validate_text(out_text.replace("to-move: T ", "to-move: TT "), "f")
    assert codes(rep) == ["to-move-out"]
    # a seat with pieces but no T must not exist in a four-player game
    rep = validate_text(text.replace("TT ", "-  "), "f")
    assert codes(rep) == ["t-missing"]
    assert rep.findings[0].line is not None  # pointed at one of the seat's pieces, as other findings are
    # a T already on its objective: valid file, but the game is over
    won = "game: terrace\nto-move: t  setup: free\n" + "\n".join(["- " * 8] * 7) + "\nT - - - - - - t\n"
    rep = validate_text(won, "w")
    assert rep.valid and codes(rep) == ["game-over"]
    assert rep.data["result"] == {"winner": "top", "reason": "objective"}


# ----- the shipped examples --------------------------------------------------------------
EXAMPLES = Path(__file__).resolve().parents[2] / "terragen" / "data" / "terrace" / "examples"
INVALID = sorted((EXAMPLES / "invalid").glob("*.*"))
#: rule codes with no shipped example, and why: none today (``syntax`` is written as the constant
#: SYNTAX, not a quoted code, and is an unreadable file rather than a broken rule)
NO_EXAMPLE: set[str] = set()


def _error_codes_in_source() -> set[str]:
    """Every code the checks can report as an error: validation.py, and formats.py for
    to-move-missing (found while reading the header)."""
    import terragen.terrace.formats as formats
    import terragen.terrace.validation as validation

    return error_codes_in(validation, formats)


def test_every_error_code_has_an_invalid_example():
    shipped = {p.stem for p in INVALID}
    assert shipped == _error_codes_in_source() - NO_EXAMPLE, "add an invalid example for each new rule"
