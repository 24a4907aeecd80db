import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from terragen.errors import InputError
from terragen.terralogical.default_deck import default_deck
from terragen.terralogical.formats import deck_to_json_text, parse_state, state_to_json, state_to_text
from terragen.terralogical.validation import validate_text
from terragen.templates import template_path

ROOT = Path(__file__).resolve().parents[2]

GOOD = """\
game: terralogical
players: red green
# square tile rotation cube
7,0 sun 0
0,7 flower 0
7,1 FFFF 0 red
6,0 MMMM 0 green
6,1 MMFM 0 red
"""


def codes(report):
    return sorted(f.code for f in report.errors)


def test_legal_board_is_valid_and_scored():
    r = validate_text(GOOD, "good.txt")
    assert r.valid, [f.format() for f in r.findings]
    assert r.game == "terralogical"
    assert r.data["placement_points"] == [6, 2]  # red 2 + (2 + 2), green 2
    assert r.data["largest_flocks"]["field"] == [2, 0]
    assert r.data["final_scores"] == [10, 2]
    assert r.data["flower_reached"] is False
    assert r.summary


def test_every_breach_is_reported_with_its_line():
    text = """\
game: terralogical
players: red green
7,0 sun 0
0,7 flower 0
7,1 FFFF 0 red
5,5 MMMM 0 green
7,1 WWWW 0 red
7,2 MMMM 0 green
9,9 MMMM 0 red
"""
    r = validate_text(text, "bad.txt")
    assert codes(r) == ["edge-mismatch", "no-regular-connection", "not-adjacent", "off-board", "square-occupied"]
    by_code = {f.code: f for f in r.errors}
    assert by_code["not-adjacent"].line == 6 and by_code["not-adjacent"].col == 1
    assert by_code["not-adjacent"].cells == ((5, 5),)
    assert by_code["square-occupied"].line == 7
    assert "7,2" in by_code["edge-mismatch"].message and "7,1" in by_code["edge-mismatch"].message
    assert by_code["off-board"].line == 9
    assert r.to_json()["valid"] is False


def test_start_end_cubes_and_order_breaches():
    text = """\
game: terralogical
players: a b
7,1 sun 0 a
6,1 MMMM 0 b
5,1 MMMM 0 b
4,1 MMMM 0 b
"""
    r = validate_text(text, "x.txt", cubes_per_player=2)
    assert codes(r) == ["cube-on-special", "missing-end", "start-misplaced", "too-many-cubes"]


def test_placement_after_the_flower_and_duplicate_deck_ids():
    deck = default_deck()
    tid, tile = deck.tiles[0]
    text = f"""\
game: terralogical
players: a b
7,0 sun 0
0,7 flower 0
2,6 MMMM 0 a
1,6 MMMM 0 b
3,6 MMMM 0 a
"""
    # 2,6 floats (not-adjacent) but is still laid, so 1,6 reaches a flower field and 3,6 comes too late
    r = validate_text(text, "x.txt")
    assert "placed-after-end" in codes(r)
    dup = f"game: terralogical\nplayers: a b\n7,0 sun 0\n0,7 flower 0\n7,1 {tid} 0 a\n7,2 {tid} 0 b\n"
    r2 = validate_text(dup, "d.txt")
    assert "duplicate-tile" in codes(r2)


def test_player_count_is_checked():
    r = validate_text("game: terralogical\nplayers: solo\n7,0 sun 0\n0,7 flower 0\n", "p.txt")
    assert codes(r) == ["player-count"]


def test_json_and_text_round_trip():
    state = parse_state(GOOD, "good.txt")
    as_json = json.dumps(state_to_json(state), sort_keys=True)
    back = parse_state(as_json, "good.json")
    assert state_to_text(back) == state_to_text(state)
    assert parse_state(state_to_text(state), "again.txt").entries[2].tile.code == "FFFF"
    r = validate_text(as_json, "good.json")
    assert r.valid and r.data["final_scores"] == [10, 2]


def test_json_keeps_extra_keys_and_hands_cost_points():
    data = state_to_json(parse_state(GOOD, "g"))
    data["meta"] = {"note": "kept"}
    data["hands"] = [2, 0]
    state = parse_state(json.dumps(data), "g.json")
    assert state_to_json(state)["meta"] == {"note": "kept"}
    assert validate_text(json.dumps(data), "g.json").data["final_scores"] == [8, 2]


@pytest.mark.parametrize(
    "text,where",
    [
        ("players: a b\n", "x:1:1"),
        ("game: terralogical\n7,0 sun 0\n", "x:2:1"),
        ("game: terralogical\nplayers: a b\n7,0 sun 5\n", "x:3:9"),
        ("game: terralogical\nplayers: a b\n7;0 sun 0\n", "x:3:1"),
        ("game: terralogical\nplayers: a b\n7,1 MMXM 0 a\n", "x:3:5"),
        ("game: terralogical\nplayers: a b\n7,1 T99 0 a\n", "x:3:5"),
        ("game: terralogical\nplayers: a b\n7,1 MMMM 0 zed\n", "x:3:12"),
        ("game: terralogical\nplayers: a b\nhands: 1\n", "x:3:8"),
        ("game: terralogical\nplayers: a a\n", "x:2:12"),  # at the name given twice
    ],
)
def test_text_parse_errors_say_where(text, where):
    """convert's reader stops at the bad line; validate lists it as a syntax finding (exit 2) at the same place."""
    with pytest.raises(InputError, match=f"^{where}: "):
        parse_state(text, "x")
    try:
        report = validate_text(text, "x")
    except InputError as exc:  # not a Terralogical board at all (its first line)
        assert str(exc).startswith(f"{where}: ")
    else:
        assert report.exit_code == 2
        assert report.findings[0].code == "syntax" and report.findings[0].format("x").startswith(f"{where}: ")


@pytest.mark.parametrize(
    "doc",
    [
        "{",
        "[]",
        '{"game": "terralogical"}',
        '{"game": "terralogical", "players": ["a"], "tiles": [{"row": 1}]}',
        '{"game": "terralogical", "players": ["a"], "tiles": [{"row": 1, "col": 1, "rotation": 7, "tile": "MMMM"}]}',
        '{"game": "terralogical", "players": ["a"], "tiles": [], "hands": [-1]}',
    ],
)
def test_json_parse_errors(doc):
    with pytest.raises(InputError):
        validate_text(doc, "x.json")


HEADER = "game: terralogical\nplayers: a b\n"
TOKENS = st.sampled_from(["7,0", "0,7", "3,3", "-1,2", "sun", "flower", "MMMM", "fFwC", "T01", "T63", "0", "3", "a", "b", "#", "x", ",", "hands:", "players:"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_random_text_raises_only_input_error(text):
    try:
        validate_text(text, "fuzz")
    except InputError:
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(TOKENS, max_size=5).map(" ".join), max_size=12).map("\n".join))
def test_random_boards_raise_only_input_error(body):
    try:
        r = validate_text(HEADER + body, "fuzz")
    except InputError:
        return
    assert isinstance(r.valid, bool)


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=5), lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from(["game", "players", "tiles", "row", "col", "rotation", "tile", "cube", "hands"]), c, max_size=5), max_leaves=20))
def test_random_json_raises_only_input_error(doc):
    if isinstance(doc, dict):
        doc.setdefault("game", "terralogical")
    try:
        validate_text(json.dumps(doc), "fuzz.json")
    except InputError:
        pass


def test_documented_example_board_is_legal_and_scores_as_explained():
    doc = open(ROOT / "docs" / "terralogical.md", encoding="utf-8").read()
    block = doc.split("Text form:\n\n```\n", 1)[1].split("```", 1)[0]
    r = validate_text(block, "docs/terralogical.md")
    assert r.valid
    assert [f.code for f in r.warnings] == ["missing-cube"]
    # red 2 (light field to the sun), green 1 (dark meadow on the sun's light one), blue 2 + 1
    assert r.data["placement_points"] == [2, 1, 3]
    assert r.data["final_scores"] == [1, 1, 1]


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_simulated_games_validate_and_score_the_same(players, seed):
    """A whole simulated game, written out and read back, is legal and scores identically."""
    from terragen.terralogical.formats import board_state_of_game
    from terragen.terralogical.simulate import play_game

    deck = default_deck()
    result = play_game(deck.tiles, ["greedy", "random", "careful", "rusher"][:players], seed)
    text = state_to_text(board_state_of_game(result.final))
    r = validate_text(text, "sim.txt")
    assert r.valid, [f.format() for f in r.errors]
    assert r.data["final_scores"] == result.scores
    assert r.data["flower_reached"] == (result.end_reason == "flower")
    assert validate_text(json.dumps(state_to_json(parse_state(text, "s", deck))), "sim.json").data["final_scores"] == result.scores


EXAMPLES = str(ROOT / "terragen" / "data" / "terralogical" / "examples")


@pytest.mark.parametrize("name", ["three-players-start.txt", "two-players-finished.json", "four-players-finished.txt"])
def test_shipped_examples_are_legal(name):
    with open(f"{EXAMPLES}/{name}", encoding="utf-8") as fh:
        r = validate_text(fh.read(), name)
    assert r.valid, [f.format() for f in r.errors]


INVALID = [
    "off-board", "square-occupied", "not-adjacent", "edge-mismatch", "no-regular-connection", "missing-start",
    "missing-end", "start-misplaced", "end-misplaced", "cube-on-special", "duplicate-tile", "placed-after-end",
    "player-count",
]


@pytest.mark.parametrize("code", INVALID)
def test_each_invalid_example_breaks_its_rule(code):
    with open(f"{EXAMPLES}/invalid/{code}.txt", encoding="utf-8") as fh:
        r = validate_text(fh.read(), code)
    # its rule only; without the sun on its corner the first tiles touch nothing placed, which follows
    follows = {"not-adjacent"} if code in ("missing-start", "start-misplaced") else set()
    assert code in {f.code for f in r.errors} and {f.code for f in r.errors} <= {code} | follows


@pytest.mark.parametrize("change, says", [
    ({"id": "MMMM"}, "reads as a tile code"),  # it hid the tile those letters name
    ({"id": "x" * 13}, "at most 12"),
])
def test_deck_ids_a_board_line_can_name_without_doubt(change, says):
    from terragen.terralogical.formats import deck_from_json

    deck = json.loads(deck_to_json_text(default_deck()))
    deck["tiles"][0].update(change)
    with pytest.raises(InputError, match=says):
        deck_from_json(json.dumps(deck), "d.json")
    deck["tiles"] = []
    with pytest.raises(InputError, match="list is empty"):
        deck_from_json(json.dumps(deck), "d.json")


@pytest.mark.parametrize("hands", ["hands: 501 0", "hands: 99999999999999999999999 0"])
def test_hands_larger_than_any_deck_are_refused(hands):
    """A hand of 10^23 tiles was read as valid, with a score of minus that."""
    with pytest.raises(InputError, match="'hands' counts are whole numbers from 0 to 500"):
        parse_state(f"game: terralogical\nplayers: a b\n{hands}\n", "x.txt")
    with pytest.raises(InputError, match="0 to 500"):
        parse_state(json.dumps({"game": "terralogical", "players": ["a", "b"], "tiles": [], "hands": [501, 0]}), "x.json")


def test_a_deck_of_another_version_or_kind_or_a_board_is_not_read_as_a_deck():
    from terragen.terralogical.formats import deck_from_json

    deck = json.loads(deck_to_json_text(default_deck()))
    for change, says in (({"version": 2}, "unsupported version 2"), ({"kind": "tileset"}, "not a Terralogical deck"),
                         ({"players": ["a"]}, "this is a Terralogical board")):
        with pytest.raises(InputError, match=says):
            deck_from_json(json.dumps({**deck, **change}), "d.json")


def test_a_deck_parameter_given_twice_is_refused():
    from terragen.errors import SpecError
    from terragen.terralogical.deck import DeckParams

    with pytest.raises(SpecError, match="given twice"):
        DeckParams.from_pairs(["tiles=10", "tiles=20"])


@pytest.mark.parametrize("line, says", [("foo: bar", "unknown header 'foo'"), ("game: terralogical", "named twice")])
def test_a_header_line_out_of_place_is_named(line, says):
    """These were read as tile lines ('got 2 fields') or blamed on a missing players line."""
    with pytest.raises(InputError, match=says):
        parse_state(f"game: terralogical\nplayers: a b\n{line}\n", "x.txt")


def test_tiles_in_hand_count_against_the_deck_too():
    """A 1-tile deck with one tile placed and five in each hand passed as valid: only placed tiles counted."""
    from terragen.terralogical.deck import Deck

    deck = default_deck()
    one = Deck(deck.tiles[:1])
    text = GOOD.replace("7,1 FFFF 0 red\n6,0 MMMM 0 green\n6,1 MMFM 0 red\n", "")
    placed = validate_text(text + "hands: 0 0\n", "b.txt", deck=one)
    assert "too-many-tiles" not in codes(placed)
    held = validate_text(text + "hands: 1 1\n", "b.txt", deck=one)
    assert "too-many-tiles" in codes(held)
    assert any("in hand" in f.message for f in held.errors)


def test_an_illegal_tile_on_a_flower_field_ends_nothing():
    """Only a legal placement on a flower field ends the game: a tile there touching no land tile
    is one error, and the legal tiles after it are not all 'placed after the end' too."""
    text = ("game: terralogical\nplayers: red green\nhands: 2 3\n7,0 sun 0\n0,7 flower 0\n0,6 MMMM 0 red\n"
            "6,0 MMMM 0 red\n6,1 MMMM 0 green\n5,0 MMMM 0 red\n")
    report = validate_text(text, "b.txt")
    assert codes(report) == ["not-adjacent"]
    assert report.data["flower_reached"] is False


@pytest.mark.parametrize("typo, key", [("player:", "players"), ("hand:", "hands")])
def test_a_misspelt_header_word_is_named_with_its_likely_fix_and_read_as_meant(typo, key):
    """One typo in 'players:' used to bury the file under a 'players line must come first' per tile."""
    text = GOOD.replace("players: red green", "players: red green\nhands: 0 0", 1) if key == "hands" else GOOD
    text = text.replace(f"{key}:", typo, 1)
    r = validate_text(text, "typo.txt")
    assert [f.message for f in r.errors] == [f"unknown header '{typo[:-1]}': did you mean '{key}'? (read as '{key}')"]
    assert r.data["final_scores"] == [10, 2]  # the rest was read and checked as meant
    with pytest.raises(InputError, match=f"unknown header '{typo[:-1]}': did you mean '{key}'"):
        parse_state(text, "typo.txt")


def test_an_unknown_header_word_before_the_players_is_one_problem_not_one_per_tile():
    r = validate_text(GOOD.replace("players:", "colours:", 1), "c.txt")
    assert [f.message for f in r.errors] == [
        "unknown header 'colours' (the header has game, players and hands)",
        "no 'players:' line could be read, so the board cannot be checked"]


@pytest.mark.parametrize("players, says", [
    ("red red blue", "3:14: player 'red' is listed twice; each player needs a different name"),
    ("", "3:9: list one or more player names"),
])
def test_a_bad_players_line_is_one_problem_that_names_what_is_wrong(players, says):
    """It said "list one or more different player names" without naming the repeated one, and then
    "no 'players:' line could be read" of a file that has one."""
    text = template_path("terralogical", "examples", "three-players-start.txt").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^players:.*$", f"players: {players}".rstrip(), text)
    report = validate_text(text, "b.txt")
    assert [f.format("b.txt") for f in report.findings] == [f"b.txt:{says.split(': ', 1)[0]}: error [syntax] "
                                                             f"{says.split(': ', 1)[1]}"]
    assert report.exit_code == 2
    with pytest.raises(InputError, match=f"^b.txt:{re.escape(says)}$"):
        parse_state(text, "b.txt")


@pytest.mark.parametrize("change, says", [
    ({"row": "3"}, "tiles[0]: 'row' must be a whole number (got \"3\")"),  # it gave no value, and 'an integer'
    ({"row": None}, "tiles[0]: 'row' must be a whole number (got null)"),
    ({"row": ...}, "tiles[0]: 'row' is missing (a whole number)"),
])
def test_a_tiles_bad_number_is_quoted_as_the_file_has_it(change, says):
    from terragen.errors import InputError

    with open(f"{EXAMPLES}/two-players-finished.json", encoding="utf-8") as fh:
        data = json.load(fh)
    for key, value in change.items():
        if value is ...:
            del data["tiles"][0][key]
        else:
            data["tiles"][0][key] = value
    with pytest.raises(InputError) as exc:
        validate_text(json.dumps(data), "b.json")
    assert exc.value.message == f"b.json: {says}"


def test_a_player_count_finding_points_at_the_players_line():
    with open(f"{EXAMPLES}/invalid/player-count.txt", encoding="utf-8") as fh:
        text = fh.read()
    players_line = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("players"))
    found = [(f.code, f.line) for f in validate_text(text, "x").findings if f.code == "player-count"]
    assert found == [("player-count", players_line)]
