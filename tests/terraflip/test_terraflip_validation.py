"""Position files: round trips, every violation reported, parser never crashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from terragen.errors import InputError
from terragen.terraflip.formats import dumps_json, parse_position, position_from_state
from terragen.terraflip.simulate import play_game
from terragen.terraflip.validation import validate_text
from tests.example_checks import error_codes_in

BAD = """game: terraflip
players: blue green
spies: blue=3 green=5
0 0 blue-river blue/green
5 0 blue-knight green/blue
1 0 green-forest-2 green/blue
1 0 blue-river blue/gray
4 -4 green-campsite green
-1 0 yellow-desert yellow/blue
"""


def codes(report):
    return sorted(f.code for f in report.findings)


def test_every_violation_is_reported_with_place():
    report = validate_text(BAD, "bad.txt")
    assert not report.valid
    assert codes(report) == sorted([
        "spies-out-of-range", "tile-on-tower", "tile-too-far", "special-face-down", "disconnected-tile",
        "duplicate-position", "tile-too-far", "disconnected-tile", "family-not-playing",
        "turn-order-counts"])
    far = [f for f in report.findings if f.code == "tile-too-far"]
    assert {f.cells for f in far} == {((5, 0),), ((4, -4),)}
    assert all("(5,0)" in f.message or "(4,-4)" in f.message for f in far)
    dup = next(f for f in report.findings if f.code == "duplicate-position")
    assert (dup.line, dup.col) == (7, 5)


def test_too_many_tiles_per_family_and_duplicate_ids():
    lines = ["game: terraflip", "players: blue green"]
    cells = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if 0 < max(abs(q), abs(r), abs(q + r)) <= 3]
    for i, (q, r) in enumerate(cells[:10]):
        lines.append(f"{q} {r} blue-river blue/green")
    lines.append(f"{cells[10][0]} {cells[10][1]} blue-knight blue")
    lines.append(f"{cells[11][0]} {cells[11][1]} blue-knight blue")
    lines.append(f"{cells[12][0]} {cells[12][1]} green-forest-4 green/gray")
    lines.append(f"{cells[13][0]} {cells[13][1]} green-forest-4 green/gray")
    report = validate_text("\n".join(lines) + "\n", "many.txt")
    found = codes(report)
    assert found.count("too-many-tiles") == 2 and "duplicate-tile" in found


def test_regular_tile_without_owner_face_and_same_faces():
    text = "game: terraflip\nplayers: blue green\n1 0 blue-river green/gray\n0 1 green-forest green/green\n"
    assert codes(validate_text(text, "x")) == ["no-owner-face", "same-colour-faces"]


@pytest.mark.parametrize("players,policy", [(2, "random"), (3, "greedy"), (4, "random")])
def test_positions_from_real_games_are_valid_and_round_trip(players, policy):
    state = play_game(players, (policy,) * players, 7, None, None)
    pos = position_from_state(state)
    text = pos.to_text()
    js = dumps_json(pos)
    for body in (text, js):
        report = validate_text(body, "game")
        assert report.valid, [f.format() for f in report.findings]
        assert [p["points"] for p in report.data["players"]] == [r.points for r in state.standings()]
    assert parse_position(js, "j").to_text() == text
    assert dumps_json(parse_position(text, "t")) == js


@pytest.mark.parametrize("text,where", [
    ("players: blue green\n", "x:1:1"),
    ("game: terraflip\n", "missing 'players:'"),
    ("game: terraflip\nplayers: blue pink\n", "x:2:15"),
    ("game: terraflip\nplayers: blue green\n1 x blue-river blue/green\n", "x:3:3"),
    ("game: terraflip\nplayers: blue green\n1 0 blue-forest blue/green\n", "x:3:5"),
    ("game: terraflip\nplayers: blue green\n1 0 blue-river blue\n", "x:3:16"),
    ('{"game": "terraflip", "players": ["blue"], "tiles": [{"q": 1}]}', "tiles[0]"),
    ('{"game": "terraflip",\n "players": [}', "x:2:14"),
    ("game: terraflip\nplayers: blue green\n1 100000 blue-river blue/green\n", "x:3:3: 100000 is out of range"),
])
def test_parse_errors_say_where(text, where):
    """convert's reader stops at the bad line; validate lists a bad text line as a syntax finding (exit 2)."""
    with pytest.raises(InputError) as exc:
        parse_position(text, "x")
    assert where in exc.value.message
    try:
        report = validate_text(text, "x")
    except InputError as exc:  # JSON, a wrong first line, or no players line at all
        assert where in exc.message
    else:
        assert report.exit_code == 2 and where in report.findings[0].format("x").replace(" error [syntax]", "")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_random_text_only_ever_raises_input_error(body):
    for text in (body, "game: terraflip\n" + body, "game: terraflip\nplayers: blue green\n" + body):
        try:
            validate_text(text, "fuzz")
        except InputError:
            pass


_tile_lines = st.lists(
    st.tuples(st.integers(-6, 6), st.integers(-6, 6),
              st.sampled_from(["blue-river", "green-forest-3", "gray-knight", "yellow-catapult", "blue-campsite"]),
              st.sampled_from(["blue", "green", "gray", "yellow"]), st.sampled_from(["blue", "green", "gray"])),
    max_size=12)


@settings(max_examples=80, deadline=None)
@given(_tile_lines)
def test_structured_positions_validate_without_crashing(rows):
    lines = ["game: terraflip", "players: blue green gray"]
    lines += [f"{q} {r} {tile} {up}/{hidden}" for q, r, tile, up, hidden in rows]
    report = validate_text("\n".join(lines), "s")
    assert json.dumps(report.to_json())
    for f in report.findings:
        assert f.code == f.code.lower() and " " not in f.code


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.sampled_from(["blue", "green", "knight", "river", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["q", "r", "family", "kind", "up", "hidden", "index", "blue"]), inner, max_size=5),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.fixed_dictionaries({"game": st.just("terraflip")}, optional={
    "players": _json_values, "spies": _json_values, "tiles": _json_values}))
def test_random_json_only_ever_raises_input_error(doc):
    try:
        report = validate_text(json.dumps(doc), "fuzz.json")
    except InputError:
        return
    assert report.game == "terraflip"


def test_analysis_lists_framed_tiles_per_reading():
    # blue at (1,0) and the blue knight at (5,-2) frame (3,-1) along an oblique line that runs
    # along the edges of (2,0)/(2,-1) and (4,-1)/(4,-2), all occupied
    text = ("game: terraflip\nplayers: blue green gray yellow\n"
            "1 0 blue-river blue/green\n2 -1 gray-mountain gray/blue\n2 0 gray-mountain gray/blue\n"
            "3 -1 green-forest green/blue\n4 -1 green-forest green/gray\n"
            "4 -2 yellow-desert yellow/blue\n5 -2 blue-knight blue\n")
    centres = validate_text(text, "x")
    assert centres.valid
    blue = centres.data["players"][0]
    assert blue["framed"] == [[3, -1]]
    axes = validate_text(text, "x", lines="axes")
    assert axes.data["players"][0]["framed"] == []


def test_a_finding_about_a_whole_line_names_the_line_only():
    report = validate_text("game: terraflip\nplayers: blue blue\n", "p.txt")
    lines = [f.format("p.txt") for f in report.findings]
    assert any(line.startswith("p.txt:2: error [duplicate-player]") for line in lines), lines
    assert not any("None" in line for line in lines)


def test_a_zero_padded_coordinate_reads_as_its_number():
    text = "game: terraflip\nplayers: blue green\n00001 -0000 blue-river blue/green\n"
    assert (parse_position(text, "x").tiles[0].q, parse_position(text, "x").tiles[0].r) == (1, 0)


@given(st.integers(min_value=-10**6, max_value=10**6))
def test_any_spy_count_json_reads_converts_to_text_that_reads_back(spies):
    """The JSON form once read 10000 spies, whose text form (four digits at most) was unreadable."""
    js = json.dumps({"game": "terraflip", "players": ["blue", "green"], "spies": {"blue": spies}, "tiles": []})
    try:
        pos = parse_position(js, "j")
    except InputError as exc:
        assert "at most four digits" in exc.message and abs(spies) > 9999
        return
    assert parse_position(pos.to_text(), "t").spies == {"blue": spies}


@pytest.mark.parametrize("tile, says", [
    ({"kind": "knight", "index": 2, "up": "blue", "hidden": "blue"}, "special tiles have no number"),
    ({"kind": "forest", "up": "blue", "hidden": "green"}, "blue tiles are river, not forest"),
    ({"kind": "regular", "up": "blue", "hidden": "green", "note": "x"}, "unknown key 'note'"),
    ({"kind": "regular", "up": "blue"}, "a regular tile needs both faces"),
])
def test_json_tiles_follow_the_text_forms_rules(tile, says):
    """Each of these read from JSON once, and converted to text terragen could not read back
    (or lost the key without a word)."""
    js = json.dumps({"game": "terraflip", "players": ["blue", "green"], "tiles": [{"q": 1, "r": 0, "family": "blue", **tile}]})
    with pytest.raises(InputError, match=says):
        parse_position(js, "j")


def test_a_duplicate_tile_is_named_as_written_with_its_line():
    text = "game: terraflip\nplayers: blue green\n1 0 blue-river-1 blue/green\n2 0 blue-river-1 blue/green\n"
    found = [f for f in validate_text(text, "x").findings if f.code == "duplicate-tile"]
    assert len(found) == 1 and "blue-river-1 appears 2 times" in found[0].message and found[0].line == 4


def test_a_tile_set_of_another_version_is_refused():
    from terragen.terraflip.design import DesignSpec, design_tileset
    from terragen.terraflip.tilefile import parse_tileset

    data = design_tileset(DesignSpec(), 7).to_json()
    assert parse_tileset(json.dumps(data), "t.json")
    with pytest.raises(InputError, match="unsupported version 9"):
        parse_tileset(json.dumps({**data, "version": 9}), "t.json")


def test_files_of_another_kind_are_named_for_what_they_are():
    from terragen.terraflip.tilefile import parse_tileset

    with pytest.raises(InputError, match="not a TerraFlip tile-set file"):  # was 'invalid JSON' at 1:1
        parse_tileset("game: terraflip\nplayers: blue green\n", "pos.txt")
    report = json.dumps({"game": "terraflip", "games": 2, "seats": [], "players": 2})
    with pytest.raises(InputError, match="the report of 'terragen terraflip play'"):
        parse_position(report, "r.json")


def test_the_summary_lists_the_tiles_each_player_could_flip():
    """The docs promise the list; the summary gave only a count (the list was in --json only)."""
    text = ("game: terraflip\nplayers: blue green\n1 0 blue-river-1 blue/green\n2 0 green-forest-1 green/blue\n"
            "3 0 blue-river-2 blue/green\n")
    assert "1 tile framed ((2,0))" in validate_text(text, "x").summary[1]


GOOD_HEAD = "game: terraflip\nplayers: blue green gray\nspies: blue=3 green=2 gray=3\n1 0 blue-river-4 blue/green\n"


@pytest.mark.parametrize("typo, key", [("player:", "players"), ("Player:", "players"), ("spie:", "spies")])
def test_a_misspelt_header_word_is_named_with_its_likely_fix_and_read_as_meant(typo, key):
    """One typo in a header word used to lose the players line, and so every check of the position."""
    text = GOOD_HEAD.replace(f"{key}:", typo, 1)
    report = validate_text(text, "typo.txt")
    syntax = [f for f in report.findings if f.code == "syntax"]
    assert len(syntax) == 1 and f"did you mean '{key}'" in syntax[0].message and syntax[0].line in (2, 3)
    assert report.summary  # the rest was checked
    with pytest.raises(InputError, match=f"typo.txt:[23]:1: unknown header .*did you mean '{key}'"):
        parse_position(text, "typo.txt")  # the strict reader refuses it, with the same hint


def test_an_unknown_header_word_and_a_misspelt_colour_say_what_is_allowed():
    report = validate_text(GOOD_HEAD.replace("spies:", "teams:"), "t.txt")
    assert [f.message for f in report.findings if f.code == "syntax"] == [
        "unknown header 'teams' (the header has game, players and spies; a tile line starts with its q)"]
    grey = validate_text(GOOD_HEAD.replace("gray=3", "grey=3"), "g.txt")
    assert any("unknown colour 'grey': did you mean 'gray'?" in f.message for f in grey.findings)


def test_a_header_with_an_equals_sign_keeps_its_first_value_and_a_tiles_line_is_one_problem():
    """'players=blue green gray' lost blue (split at ':' only), and a 'tiles:' line was guessed to be
    'spies' and then said to give them twice."""
    report = validate_text(GOOD_HEAD.replace("players: ", "players="), "eq.txt")
    assert report.valid and report.data["players"][0]["colour"] == "blue"
    lines = GOOD_HEAD.splitlines()
    tiles = validate_text("\n".join(lines[:3] + ["tiles:"] + lines[3:]) + "\n", "t.txt")
    assert [f.message for f in tiles.findings] == [
        "no 'tiles:' line in the text form (that is the JSON form's key): each tile is a line of its own, "
        "starting with its q"]


def test_a_misspelt_colour_on_a_tile_line_is_named_with_its_fix():
    report = validate_text(GOOD_HEAD.replace("blue/green", "blue/grean"), "c.txt")
    assert [f.message for f in report.findings if f.code == "syntax"] == [
        "unknown colour 'grean' in 'blue/grean': did you mean 'green'? (the colours are blue, green, gray, yellow)"]


# --- the shipped examples ------------------------------------------------------------------------
EXAMPLES = Path(__file__).resolve().parents[2] / "terragen" / "data" / "terraflip" / "examples"
INVALID = sorted((EXAMPLES / "invalid").glob("*.*"))
#: rule codes with no shipped example, and why: none today (``syntax`` is written as the constant
#: SYNTAX, not a quoted code, and is an unreadable line rather than a broken rule)
NO_EXAMPLE: set[str] = set()


def test_every_error_code_has_an_invalid_example():
    import terragen.terraflip.validation as validation

    assert {p.stem for p in INVALID} == error_codes_in(validation) - NO_EXAMPLE, "add an invalid example for each new rule"


@pytest.mark.parametrize("line, says", [
    ("  a  0  blue-river-1  blue/green", "x:4:3: a tile's q must be a whole number, got 'a'"),  # was 'unknown header 'a''
    ("  1  b  blue-river-1  blue/green", "x:4:6: a tile's r must be a whole number, got 'b'"),
    ("  plyers: blue green", "x:4:3: unknown header"),  # a header slip is still one
    ("  a  0  blue-river-1", "x:4:9: expected 'q r tile up/hidden', got 3 items"),  # a tile line all the same
    ("  a  0  Blue-River-1  blue/green  x", "x:4:23: expected 'q r tile up/hidden', got 5 items"),
])
def test_a_tile_line_with_a_bad_coordinate_is_read_as_a_tile_line(line, says):
    text = f"game: terraflip\nplayers: blue green\nspies: blue=3 green=3\n{line}\n"
    with pytest.raises(InputError) as exc:
        parse_position(text, "x")
    assert exc.value.message.startswith(says), exc.value.message


def test_a_spies_finding_points_at_the_spies_line():
    from terragen.terraflip.validation import validate_text

    text = "game: terraflip\nplayers: blue green\n# spies next\nspies: blue=3 green=4\n"
    found = [(f.code, f.line) for f in validate_text(text, "x").findings if f.code.startswith("spies")]
    assert found == [("spies-out-of-range", 4)]
