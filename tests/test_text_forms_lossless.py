"""Every game's text form holds everything its JSON form holds (docs: convert is lossless)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.convert import convert_text
from terragen.errors import InputError
from terragen.templates import template_path

EXAMPLES = {
    "terrace": ("terrace", "four-players-setup.json"),
    "terraflip": ("terraflip", "three-players-midgame.txt"),
    "terralogical": ("terralogical", "four-players-finished.txt"),
}
OWN = {
    "terrace": {"game", "version", "size", "setup", "to_move", "pieces"},
    "terraflip": {"game", "version", "players", "spies", "tiles"},
    "terralogical": {"game", "version", "players", "tiles", "hands"},
}


def as_json(game: str) -> dict:
    folder, name = EXAMPLES[game]
    text = template_path(folder, "examples", name).read_text()
    return json.loads(convert_text(text, "example", "json")[1])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12)
    | st.from_regex(r"[0-9]{31,45}", fullmatch=True),  # a hash or an id: digits, but no number
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.parametrize("game", sorted(EXAMPLES))
@settings(max_examples=40, deadline=None)
@given(extra=st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=3))
def test_keys_beyond_the_text_lines_survive_json_text_json(game, extra):
    data = as_json(game)
    extra = {k: v for k, v in extra.items() if k not in OWN[game]}
    data.update(extra)
    text = convert_text(json.dumps(data), "in.json", "text")[1]
    back = json.loads(convert_text(text, "in.txt", "json")[1])
    assert back == data


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_an_extra_line_may_not_restate_the_forms_own_lines(game):
    data = as_json(game)
    text = convert_text(json.dumps(data), "in.json", "text")[1]
    own = sorted(OWN[game] - {"game", "version"})[0]
    with pytest.raises(InputError, match=f"extra: sets '{own}'"):
        convert_text(text + f'extra: {{"{own}": 1}}\n', "in.txt", "json")
    with pytest.raises(InputError, match="nothing may follow the extra: line"):
        convert_text(text + 'extra: {"a": 1}\n' + text.splitlines()[-1] + "\n", "in.txt", "json")


@pytest.mark.parametrize("name", ["Anna Maria", "a#b", "-", ""])
def test_a_terralogical_player_name_the_text_form_cannot_hold_is_refused(name):
    data = as_json("terralogical")
    data["players"][0] = name
    for tile in data["tiles"]:
        if tile.get("cube") == as_json("terralogical")["players"][0]:
            tile["cube"] = name
    with pytest.raises(InputError, match="player name"):
        convert_text(json.dumps(data), "in.json", "text")


@pytest.mark.parametrize("game, kind", [("terraflip", "tileset"), ("terralogical", "deck")])
def test_an_extra_line_cannot_turn_a_position_into_another_kind_of_file(game, kind):
    text = convert_text(json.dumps(as_json(game)), "in.json", "text")[1]
    with pytest.raises(InputError, match="another kind of file"):
        convert_text(text + f'extra: {{"kind": "{kind}"}}\n', "in.txt", "json")


@pytest.mark.parametrize("game", sorted(EXAMPLES) + ["terrain"])
def test_a_comment_after_an_extra_line_is_named_at_its_column(game):
    if game == "terrain":
        text = template_path("terrain", "examples", "two-players.txt").read_text()
    else:
        text = convert_text(json.dumps(as_json(game)), "in.json", "text")[1]
    line = len(text.splitlines()) + 1
    with pytest.raises(InputError, match=f"in.txt:{line}:17: extra: .*takes no # comment"):
        convert_text(text + 'extra: {"a": 1} # note\n', "in.txt", "json")


def test_a_long_run_of_spaces_on_an_extra_line_is_read_in_linear_time():
    """A lazy group before \\s*$ took seconds for 40,000 spaces (hours for a few MB)."""
    import time

    text = convert_text(json.dumps(as_json("terraflip")), "in.json", "text")[1]
    began = time.process_time()
    with pytest.raises(InputError, match="more text after the end of the JSON document"):
        convert_text(text + "extra: {}" + " " * 200_000 + "x\n", "in.txt", "json")
    assert time.process_time() - began < 2.0  # linear: about 0.05 s; the quadratic reading took minutes


@pytest.mark.parametrize("game, text, says", [
    ("terrace", '{"game": "terrace", "pieces": [{"square": "a1", "side": "bottom", "kind": "T", "note": 1}]}',
     "unknown key 'note'"),
    ("terralogical", '{"game": "terralogical", "players": ["a"], "tiles": [{"row": 7, "col": 0, "tile": "sun", '
                     '"rotation": 0, "note": "x"}]}', "unknown key 'note'"),
    ("terraflip", "game: terraflip\nplayers: blue green\nspies: blue=1 blue=2\n", "spies for blue given twice"),
    ("terralogical", "game: terralogical\nplayers: a b\nhands: 1 1\nhands: 2 2\n", "'hands' given twice"),
])
def test_what_the_other_form_could_not_keep_or_a_repeat_is_refused(game, text, says):
    """A key inside an item was dropped by convert without a word; a repeated line's last value won."""
    with pytest.raises(InputError, match=says):
        convert_text(text, "in", "json" if text.startswith("game") else "text")


@pytest.mark.parametrize("game, name", [("terralogical", "three-players-start.txt"),
                                        ("terralogical", "two-players-finished.json"),
                                        ("terraflip", "three-players-midgame.txt")])
def test_a_board_read_written_and_read_again_is_equal_to_the_first_reading(game, name):
    """Where a tile was read (its line and column) made two readings of the same board unequal,
    and Terralogical's reader could not read the shipped examples without a deck given."""
    text = template_path(game, "examples", name).read_text()
    if game == "terralogical":
        from terragen.terralogical.formats import parse_state, state_to_json, state_to_text

        first = parse_state(text, name)
        again = [parse_state(state_to_text(first), "text"), parse_state(json.dumps(state_to_json(first)), "json")]
    else:
        from terragen.terraflip.formats import dumps_json, parse_position

        first = parse_position(text, name)
        again = [parse_position(first.to_text(), "text"), parse_position(dumps_json(first), "json")]
    assert again == [first, first]
