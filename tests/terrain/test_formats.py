"""Both layout forms: lossless round trips, clear errors, and fuzzing."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.errors import InputError
from terragen.grids import hex as hx
from terragen.terrain.files import parse_layout
from terragen.terrain.formats_json import layout_to_data, read_json_layout, write_json_layout
from terragen.terrain.formats_text import read_text_layout, write_text_layout
from terragen.terrain.layout import Cell, Destination, Layout, Player
from tests.terrain.helpers import EXAMPLES

json_scalars = st.one_of(st.integers(-5, 5), st.text(max_size=5), st.booleans(), st.none())
extra_dicts = st.dictionaries(st.text("abcxyz_", min_size=1, max_size=6).filter(lambda k: k not in
                              {"q", "r", "level", "pattern", "rotation", "inverted", "seat", "corner",
                               "destinations", "game", "version", "radius", "cells", "players"}),
                              json_scalars, max_size=2)


@st.composite
def layouts(draw):
    radius = draw(st.integers(1, 4))
    cells = []
    for q, r in hx.board_cells(radius):
        if draw(st.integers(0, 20)) == 0:
            continue  # an empty position
        cells.append(Cell(q, r, draw(st.integers(1, 8)), draw(st.sampled_from("ABCD")), draw(st.integers(0, 5)),
                          draw(st.booleans()), draw(extra_dicts)))
    players = []
    for seat, corner in enumerate(draw(st.lists(st.integers(0, 5), max_size=4, unique=True))):
        dests = [Destination(q, r, draw(extra_dicts)) for q, r in draw(st.lists(st.sampled_from(hx.board_cells(radius)), max_size=3))]
        players.append(Player(seat, corner, dests, draw(extra_dicts)))
    return Layout(radius, cells, players, draw(extra_dicts))


@given(layouts())
def test_text_json_text_round_trip_is_lossless(layout):
    text = write_text_layout(layout)
    from_text = read_text_layout(text)
    assert layout_to_data(from_text) == layout_to_data(layout)
    js = write_json_layout(from_text)
    from_json = read_json_layout(js)
    assert layout_to_data(from_json) == layout_to_data(layout)
    assert write_text_layout(from_json) == text
    assert write_json_layout(read_json_layout(js)) == js


def test_shipped_examples_round_trip():
    for path in sorted(EXAMPLES.glob("*.*")):
        layout = parse_layout(path.read_text(), str(path))
        again = parse_layout(write_json_layout(layout))
        assert layout_to_data(again) == layout_to_data(layout)
        assert layout_to_data(parse_layout(write_text_layout(layout))) == layout_to_data(layout)


def test_json_and_text_examples_agree():
    a = parse_layout((EXAMPLES / "four-players.json").read_text())
    b = parse_layout((EXAMPLES / "four-players.txt").read_text())
    assert layout_to_data(a) == layout_to_data(b)


def test_unknown_keys_survive_json_round_trip():
    data = {"game": "terrain", "version": 1, "radius": 1, "meta": {"seed": 7, "spec": {"players": 2}},
            "cells": [{"q": q, "r": r, "level": 3, "pattern": "B", "rotation": 2, "piece": f"3B{i % 3 + 1}"}
                      for i, (q, r) in enumerate(hx.board_cells(1))],
            "players": [{"seat": 0, "corner": 0, "name": "Ann", "destinations": [{"q": -1, "r": 0, "note": "x"}]}]}
    layout = read_json_layout(json.dumps(data))
    out = json.loads(write_json_layout(layout))
    assert out["meta"] == data["meta"]
    assert out["players"][0]["name"] == "Ann" and out["players"][0]["destinations"][0]["note"] == "x"
    assert {c["piece"] for c in out["cells"]} == {c["piece"] for c in data["cells"]}
    # and through the text form too
    assert json.loads(write_json_layout(read_text_layout(write_text_layout(layout)))) == out


TEXT_OK = """# comment line
radius: 1
map:
  5B3 4A0   # trailing comment
3C1 2D0 1A5*
  6B2 .
players:
seat 0 corner 0 dest -1,1
seat 1 corner 3 dest (1,-1) (0,1)
"""


def test_text_form_details():
    layout = read_text_layout(TEXT_OK, "t.txt")
    cells = layout.cell_map()
    assert cells[(0, -1)].token == "5B3" and cells[(0, -1)].where == (4, 3)
    assert cells[(1, 0)].inverted and cells[(1, 0)].rotation == 5
    assert (0, 1) not in cells  # '.' leaves the position empty
    assert [(d.q, d.r) for d in layout.players[1].destinations] == [(1, -1), (0, 1)]


@pytest.mark.parametrize("text, where, words", [
    ("radius: 1\nmap:\n  5B3 4A0\n3C1 2D0 1A5\n  6B2\n", ":5:", "row r=1 has 1 positions"),
    # a row the wrong length names the token that could not be read, at its column (the count alone did not)
    ("map:\n  5B3 4A0\n3C1,2D0 1A5\n  6B2 3A1\n", ":3:1:",
     "row r=0 has 2 positions, a radius-1 board needs 3 ('3C1,2D0' is not one piece: a space missing between two?)"),
    # with nothing at all between them a rotation's digit runs into the next level ('1A01' reads as one)
    ("map:\n  5B3 4A0\n1A01A0 1A5\n  6B2 3A1\n", ":3:1:",
     "row r=0 has 2 positions, a radius-1 board needs 3 ('1A01A0' is not one piece: a space missing between two?)"),
    ("map:\n  5B3 4A0\n3C1 2D0*4A2\n  6B2 3A1\n", ":3:5:", "'2D0*4A2' is not one piece: a space missing"),
    ("map:\n  5B3 4A0\n3C1 2X 1A5 1A5\n  6B2 3A1\n", ":3:5:", "needs 3 ('2X' is not a piece (level, pattern"),
    ("map:\n  5B3 4A0\n3C1 2X 1A5\n  6B2 3A1\n", ":3:5:", "bad piece '2X'"),
    ("map:\n  5B3 4A0\n3C1 2D0 1A5\n", ":3:", "odd number"),
    ("radius: 2\nmap:\n  5B3 4A0\n3C1 2D0 1A5\n  6B2 3A1\n", ":1:", "radius 2 needs 5 map rows"),
    ("map:\n  5B3 4A0\n3C1 2D0 1A5\n  6B2 3A1\nplayers:\nseat zero corner 1\n", ":6:1:", "seat N corner C"),
    ("map:\n  5B3 4A0\n3C1 2D0 1A5\n  6B2 3A1\nplayers:\nseat 0 corner 1 dest 1;x\n", ":6:", "expected a destination"),
    ("hello there\n", ":1:1:", "expected a map row"),
    ("players:\nseat 0 corner 1\n", "no map rows", "no map rows"),
    ("game: terrace\n", ":1:", "not a Terrain Game layout"),
])
def test_text_errors_name_line_and_column(text, where, words):
    with pytest.raises(InputError) as exc:
        read_text_layout(text, "b.txt")
    assert where in str(exc.value) and words in str(exc.value)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("text, words", [
    ('{"radius": 1, "cells": [', "invalid JSON"),
    ('{"radius": "5"}', "$.radius: expected a whole number"),
    ('{"radius": 1, "cells": [{"q": 0, "r": 0, "level": "5", "pattern": "A", "rotation": 0}]}', "$.cells[0].level"),
    ('{"radius": 1, "cells": [{"q": 0, "r": 0, "level": 5, "rotation": 0}]}', "missing key 'pattern'"),
    ('{"radius": 1, "players": [{"seat": 0}]}', "missing key 'corner'"),
    ('{"radius": 1, "players": {}}', "expected a list"),
    ('{"game": "terraflip", "radius": 1}', "not a Terrain Game layout"),
    ('{"radius": 1, "version": 2}', "unsupported format version"),
    ('{"radius": 1000}', "outside 1 to 12"),
    ('[1, 2]', "expected an object"),
    ('{"radius": 1, "cells": [{"q": 0, "r": 0, "level": 5, "pattern": "A", "rotation": 0, "inverted": 1}]}', "true or false"),
])
def test_json_errors_name_the_path(text, words):
    with pytest.raises(InputError) as exc:
        read_json_layout(text, "b.json")
    assert words in str(exc.value) and str(exc.value).startswith("b.json")


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("0123456789ABCDEabcde*.,()-:# \n\tradiusmapplayersetcorndxj{}[]\"")), max_size=200))
def test_text_parser_fuzz_raises_only_input_error(text):
    try:
        parse_layout(text, "fuzz")
    except InputError:
        pass


@settings(max_examples=300)
@given(st.recursive(json_scalars | st.floats(allow_nan=False), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["radius", "cells", "players", "q", "r", "level", "pattern",
                                                       "rotation", "inverted", "seat", "corner", "destinations",
                                                       "game", "version", "x"]), inner, max_size=6), max_leaves=30))
def test_json_parser_fuzz_raises_only_input_error(data):
    try:
        read_json_layout(json.dumps(data), "fuzz")
    except InputError:
        pass


@settings(max_examples=80)
@given(layouts(), st.data())
def test_mutated_text_raises_only_input_error(layout, data):
    text = write_text_layout(layout)
    pos = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.text(max_size=4))
    try:
        parse_layout(text[:pos] + junk + text[pos + 1:], "mut")
    except InputError:
        pass


@given(st.lists(st.sampled_from(list("0123456789ABCDE.*:# \n-,;") + ["map:", "players:", "seat ", "corner ",
                                                                     "player:", "radius: ", "extra: {"]),
                max_size=120).map("".join))
def test_forgiving_parser_never_raises_and_names_a_line(text):
    from terragen.terrain.formats_text import parse_text_layout

    parsed = parse_text_layout(text, "f.txt")
    assert parsed.layout is not None or parsed.problems
    for p in parsed.problems:
        assert p.message.startswith("f.txt")


@pytest.mark.parametrize("line,says", [
    ('extra: {"layout": {"radius": 3, "players": [], "game": "terrace", "version": 7}}', "which the lines above give"),
    ('extra: {"cells": {"0,0": {"level": 9}}}', "which the lines above give"),
    ('extra: {"players": {"0": {"corner": 2}}}', "which the lines above give"),
    ('extra: {"destinations": {"0/0": {"q": 1}}}', "which the lines above give"),
    ('extra: {"meta": {"note": 1}}', "names nothing"),
    ('extra: {"layout": {"a": 1}}\nextra: {"layout": {"b": 2}}', "a second extra: line"),
])
def test_an_extra_line_cannot_replace_or_lose_what_the_board_says(line, says):
    """The text form's extra: line carries what the JSON form has beyond the contract; a value for a
    contract key would replace the board silently on conversion (a valid text became a broken
    JSON file), and an unknown section or a second line was dropped without a word."""
    text = (EXAMPLES / "four-players.txt").read_text().rstrip("\n") + "\n" + line + "\n"
    with pytest.raises(InputError, match=says):
        read_text_layout(text, "board.txt")


@pytest.mark.parametrize("line,says", [
    ('extra: {"cells": {"0,0": [1, 2]}}', r"the value for cell 0,0 must be an object \{...\}, got \[1, 2\]"),
    ('extra: {"players": {"0": 5}}', r"the value for player 0 must be an object \{...\}, got 5"),
    ('extra: {"destinations": {"0/0": "x"}}', r'the value for destination 0/0 must be an object \{...\}, got "x"'),
    ('extra: {"cells": []}', r"'cells' must be an object .*, got \[\]"),
    ('extra: {"players": null}', r"'players' must be an object .*, got null"),
])
def test_an_extra_entry_that_is_not_an_object_is_named_as_such(line, says):
    """A list where an object goes was said to name no piece (or player) though the key named one,
    and a section given as a list was read as empty without a word."""
    text = (EXAMPLES / "four-players.txt").read_text().rstrip("\n") + "\n" + line + "\n"
    with pytest.raises(InputError, match=says) as caught:
        read_text_layout(text, "board.txt")
    assert "does not name" not in caught.value.message and caught.value.message.startswith("board.txt:")


def test_extra_keys_never_override_the_contract_when_written():
    layout = read_text_layout((EXAMPLES / "four-players.txt").read_text(), "board.txt")
    layout.extra.update(radius=3, note="kept")
    layout.cells[0].extra.update(level=9)
    layout.players[0].extra.update(corner=5)
    dest = layout.players[0].destinations[0]
    dest.extra.update(q=99, note="n")
    data = layout_to_data(layout)
    assert list(data["players"][0]["destinations"][0].items()) == [("q", dest.q), ("r", dest.r), ("note", "n")]
    assert data["radius"] == layout.radius and data["note"] == "kept"
    assert data["cells"][0]["level"] == layout.sorted_cells()[0].level
    assert data["players"][0]["corner"] == layout.players[0].corner


def test_a_long_number_in_a_comment_is_not_read_but_one_in_a_field_is_refused_where_it_stands():
    text = (EXAMPLES / "four-players.txt").read_text()
    long = "1234567890" * 4
    commented = f"# build order {long}\n" + text
    assert read_text_layout(commented, "board.txt").radius == read_text_layout(text, "board.txt").radius
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("seat 0"))
    lines[k] = lines[k].replace("seat 0", f"seat {long}", 1) + f"  # {long}"
    with pytest.raises(InputError, match=rf"board.txt:{k + 1}:6: number with 40 digits"):
        read_text_layout("\n".join(lines) + "\n", "board.txt")


@settings(max_examples=150, deadline=None)
@given(level=st.integers(-5, 2000), rotation=st.integers(-5, 2000),
       pattern=st.text(min_size=0, max_size=4))
def test_whatever_the_text_form_writes_reads_back_and_the_rest_is_refused(level, rotation, pattern):
    """The web page's export wrote '-1C1' or a pattern holding a newline, which its upload then refused."""
    data = json.loads((EXAMPLES / "two-players.json").read_text()) if (EXAMPLES / "two-players.json").exists() \
        else layout_to_data(parse_layout((EXAMPLES / "two-players.txt").read_text(), "x"))
    data["cells"][0].update(level=level, rotation=rotation, pattern=pattern)
    try:
        layout = read_json_layout(json.dumps(data), "x.json")
    except InputError:
        return  # refused on reading already: nothing to write
    try:
        text = write_text_layout(layout)
    except InputError as exc:
        assert "cannot write the text form" in exc.message
        return
    back = read_text_layout(text, "x.txt")
    cell = back.cell_map()[(data["cells"][0]["q"], data["cells"][0]["r"])]
    assert (cell.level, cell.rotation, cell.pattern) == (level, rotation, pattern)


def test_a_pattern_that_would_read_back_as_another_is_not_written():
    """Level 0 with pattern '0A' wrote '00A0', which reads as pattern 'A' (found by the property above)."""
    data = layout_to_data(parse_layout((EXAMPLES / "two-players.txt").read_text(), "x"))
    data["cells"][0].update(level=0, rotation=0, pattern="0A")
    try:
        layout = read_json_layout(json.dumps(data), "x.json")
    except InputError:
        return
    with pytest.raises(InputError, match="cannot write the text form"):
        write_text_layout(layout)


def _token_columns(text: str, radius: int) -> dict[tuple[int, int], int]:
    """Where each map token starts on its line, by the cell it names."""
    lines = text.splitlines()
    first = lines.index("map:") + 1
    columns = {}
    for k, r in enumerate(range(-radius, radius + 1)):
        line = lines[first + k]
        starts = [i for i, ch in enumerate(line) if ch != " " and (i == 0 or line[i - 1] == " ")]
        for q, col in zip(hx.row_range(radius, r), starts, strict=True):
            columns[(q, r)] = col
    return columns


@pytest.mark.parametrize("odd_token", ["1A5*", "12C4", "123B1*"])
def test_text_form_keeps_the_hex_grid_lined_up_with_wide_tokens(odd_token):
    """A wider token (upside down, or a level of 10 or more) must not push the rest of its row out of
    line: every piece stays under the gap between the two it touches in the row above."""
    radius = 2
    text = write_text_layout(read_text_layout(_radius_two_board(odd_token)))
    cols = _token_columns(text, radius)
    unit = cols[(1, 0)] - cols[(0, 0)]
    assert unit >= len(odd_token) + 1
    for (q, r), col in cols.items():
        assert 2 * (col - cols[(0, 0)]) == unit * (2 * q + r), (q, r, text)
    assert write_text_layout(read_text_layout(text)) == text  # and it reads back the same


def _radius_two_board(odd_token: str) -> str:
    rows = []
    for r in range(-2, 3):
        toks = ["2A0"] * len(hx.row_range(2, r))
        if r == 0:
            toks[3] = odd_token
        rows.append("  " * abs(r) + " ".join(toks))
    return "radius: 2\nmap:\n" + "\n".join(rows) + "\nplayers:\nseat 0 corner 0\n"


def test_text_form_of_a_plain_board_keeps_three_wide_columns():
    layout = read_text_layout(_radius_two_board("2A0"))
    assert write_text_layout(layout).splitlines()[2:4] == ["    2A0 2A0 2A0", "  2A0 2A0 2A0 2A0"]


def test_convert_names_the_input_a_text_form_cannot_hold(tmp_path, capsys):
    """It said "cannot write the text form: cell (-60,-60) is off ...", which read as the output's fault."""
    from terragen.cli import main

    data = layout_to_data(parse_layout((EXAMPLES / "two-players.txt").read_text(), "x"))
    data["cells"].append({"q": -60, "r": -60, "level": 1, "pattern": "A", "rotation": 0})
    source = tmp_path / "far.json"
    source.write_text(json.dumps(data))
    with pytest.raises(SystemExit) as exc:
        main(["convert", str(source), str(tmp_path / "far.txt")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"{source}: cannot write the text form: cell (-60,-60) is off" in err, err
    assert not (tmp_path / "far.txt").exists()
