"""Text and JSON position files: round trips, errors with positions, fuzzing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.errors import InputError
from terragen.formats import detect_game
from terragen.terrace.formats import parse_any, parse_text, to_json, to_text
from terragen.terrace.position import Position
from terragen.terrace.validation import load_position, validate_text


@pytest.mark.parametrize("setup", ["full", "short", "four"])
@pytest.mark.parametrize("n", [6, 8, 12])
def test_round_trips(setup, n):
    pos = Position.start(setup, n)
    text, js = to_text(pos), to_json(pos)
    assert detect_game(text) == "terrace" and detect_game(js) == "terrace"
    from_text = load_position(text, "t")
    from_json = load_position(js, "j")
    assert from_text == pos and from_json == pos
    assert to_text(from_json) == text and to_json(from_text) == js
    assert json.loads(js)["game"] == "terrace"


def test_round_trip_after_moves_keeps_side_to_move():
    pos = Position.start("four")
    for _ in range(3):
        pos.push(pos.legal_moves()[-1])
    again = load_position(to_text(pos), "t")
    assert again == pos and again.to_move == pos.to_move == "left"
    assert load_position(to_json(pos), "j") == pos


def test_json_keeps_extra_keys():
    data = json.loads(to_json(Position.start("short")))
    data["meta"] = {"note": "from a puzzle"}
    pos = load_position(json.dumps(data), "j")
    assert json.loads(to_json(pos))["meta"] == {"note": "from a puzzle"}


def test_rulebook_style_heights_and_dots_are_empty_squares():
    text = """game: terrace
to-move: t  setup: free
8 7 6 5 4 3 2 1
7 7 6 5 4 3 2 2
6 6 6 5 4 3 3 3
5 5 5 5 4 4 4 4
4 4 4 4 5 5 5 5
. . . 4 5 6 6 6
2 2 3 4 5 T 7 7
t 2 3 4 5 6 7 8
"""
    pos = load_position(text, "d")
    assert len(pos.pieces()) == 2 and pos.to_move == "bottom"


@pytest.mark.parametrize(
    "text,where",
    [
        ("to-move: T\n- - -\n", "x:1:1"),  # no game line
        ("game: terralogical\n", "x:1:7"),
        ("game: terrace\nto-move: Q\n" + "- " * 8 + "\n", "x:2:10"),
        ("game: terrace\nto-move: T size: 7\n", "x:2:18"),
        ("game: terrace\nto-move: T  colour: red\n", "x:2:13"),
        ("game: terrace\nto-move: T\n- - Z - - - - -\n" + "- - - - - - - -\n" * 7, "x:3:5"),
        ("game: terrace\nto-move: T\n" + "- - - - - - - -\n" * 8 + "setup: full\n", "x:11:1"),
        ('{"game": "terrace", "pieces": 3}', "x:"),
        ('{"game": "terrace",', "x:1:"),
    ],
)
def test_malformed_input_says_where(text, where):
    with pytest.raises(InputError) as exc:  # as a command that plays from the file reads it
        load_position(text, "x")
    assert exc.value.message.startswith(where)
    assert "\n" not in exc.value.message


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("game:terrace tTdD-.0123456789\n{}\"[],:#xAbBcC")), max_size=300))
def test_fuzz_text_only_raises_input_error(text):
    try:
        validate_text(text, "fuzz")
    except InputError:
        pass


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_any_text_only_raises_input_error(text):
    try:
        validate_text("game: terrace\n" + text, "fuzz")
    except InputError:
        pass


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from(["game", "size", "setup", "to_move", "pieces", "square", "side", "kind"]), kids, max_size=5),
        max_leaves=12,
    )
)
def test_fuzz_json_only_raises_input_error(data):
    if isinstance(data, dict):
        data = dict(data, game="terrace")
    try:
        validate_text(json.dumps(data), "fuzz")
    except InputError:
        pass


def test_a_long_word_in_the_header_is_read_in_linear_time():
    """Each start inside a run of letters once tried the whole run as a key: 20,000 letters took 4 s."""
    import time

    began = time.process_time()
    with pytest.raises(InputError, match=r"in.txt:1:15: cannot read"):
        parse_any("game: terrace " + "a" * 200_000 + "\n", "in.txt")
    assert time.process_time() - began < 2.0  # linear: milliseconds; the quadratic reading took minutes


def test_a_json_value_is_quoted_as_the_file_spells_it():
    """Messages showed Python's spelling (True, None) of what the file says (true, null)."""
    with pytest.raises(InputError, match="got true$"):
        parse_any('{"game": "terrace", "size": true, "pieces": []}', "x.json")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("to-mvesupizgam:=_ TtXx0123456789#")), max_size=60))
def test_fuzz_header_problems_are_listed_where_they_are(header):
    """Whatever the header line holds, validate lists each problem of it as a syntax finding with
    its line and column and still checks the board, and the strict reader refuses exactly the files
    validate finds unreadable."""
    lines = to_text(Position.start("full")).splitlines()
    text = "\n".join([lines[0], header, *lines[2:]]) + "\n"
    try:
        rep = validate_text(text, "f")
    except InputError:  # e.g. 'game: terrain' in the header: another game's file, nothing to list
        with pytest.raises(InputError):
            parse_any(text, "f")
        return
    syntax = [f for f in rep.findings if f.code == "syntax"]
    assert all(f.line == 2 and f.col is not None for f in syntax)
    assert (rep.exit_code == 2) == bool(syntax)
    if syntax:
        with pytest.raises(InputError, match=f"^f:2:{syntax[0].col}: "):
            parse_any(text, "f")
    else:
        parse_any(text, "f")


def test_a_misspelt_or_late_game_line_is_named_as_such_not_as_missing():
    """'gmae: terrace' and a game line below the board both said "missing 'game: terrace' line" at
    1:1, though the file had one (the problem found first was dropped)."""
    from terragen.terrace.formats import parse_text_forgiving

    start = to_text(Position.start("short", 8))
    misspelt = start.replace("game: terrace", "gmae: terrace", 1)
    late = start.replace("game: terrace\n", "", 1) + "game: terrace\n"
    for text, why in ((misspelt, "unknown header 'gmae': did you mean 'game'?"),
                      (late, "header line after the board rows")):
        problems = []
        assert parse_text_forgiving(text, "p.txt", problems) is not None
        assert len(problems) == 1 and why in problems[0][2] and "missing" not in problems[0][2], problems
        with pytest.raises(InputError, match=why.replace("?", r"\?")):
            parse_text(text, "p.txt")


@pytest.mark.parametrize("change, why", [
    (("size: 8", "size: 6"), "size 6, but the board below it is 8 x 8 squares"),
    (("to-move: T  setup: short  size: 8", "to-move T"), "'to-move' needs a ':' after it ('to-move: ...')"),
    (("size: 8", "sise: 10 size: 8"), "unknown header 'sise': did you mean 'size'?"),  # not read as the size
])
def test_one_slip_in_the_header_is_one_problem(change, why):
    """'size: 6' over an 8 x 8 board gave a wrong-length problem for every row, and 'to-move T' (no
    colon) was read as a board row."""
    from terragen.terrace.formats import parse_text_forgiving

    text = to_text(Position.start("short", 8)).replace(*change, 1)
    assert change[1] in text
    problems = []
    assert parse_text_forgiving(text, "p.txt", problems) is not None
    assert [p[2] for p in problems] == [why] or (len(problems) == 1 and why in problems[0][2]), problems
