"""Reports laid out for an 80-column terminal: tables whole, prose wrapped without losing a word."""

import pytest
from hypothesis import given, strategies as st

from terragen.errors import InputError, SpecError
from terragen.plain_text import WIDTH, columns, counted, wrapped


def test_a_heading_of_two_lines_keeps_a_column_as_narrow_as_its_figures():
    lines = columns([("seat", "simulated\nwin"), ("0", "25.5%"), ("11", "24.8%")])
    assert lines == ["seat  simulated", "      win", "----  ---------", "0     25.5%", "11    24.8%"]


def test_a_table_row_is_never_reflowed_even_when_long():
    row = "0     0 (5,0)   (-5,2)       yes   yes   22/44" + " " * 2 + "x" * 60
    assert wrapped([row]) == [row]


def test_a_long_line_breaks_at_spaces_and_its_continuation_is_indented():
    line = "  note: " + " ".join(["word"] * 40)
    out = wrapped([line])
    assert len(out) > 1 and all(len(x) <= WIDTH for x in out)
    assert out[0].startswith("  note: ") and all(x.startswith("    word") for x in out[1:])


words = st.text(alphabet="abcdefghij.,:;()%0123456789", min_size=1, max_size=30)


@given(st.lists(words, min_size=1, max_size=60), st.integers(0, 6))
def test_wrapping_keeps_every_word_in_order(ws, indent):
    line = " " * indent + " ".join(ws)
    out = wrapped([line])
    assert " ".join(x.strip() for x in out).split(" ") == ws
    # a line only exceeds the width when one word alone does
    assert all(len(x) <= WIDTH or len(x.split()) == 1 for x in out)


def test_a_line_break_inside_a_line_and_a_blank_line_survive():
    long = "word " * 20
    assert wrapped([" " * 85]) == [" " * 85]
    out = wrapped(["first\n" + long.strip()])
    assert out[0] == "first" and " ".join(x.strip() for x in out[1:]) == long.strip()


def test_figures_can_be_right_aligned_under_a_heading():
    lines = columns([("seat", "points"), ("0", "8.50"), ("11", "20.25")], right=(0, 1))
    assert lines == ["seat  points", "----  ------", "   0    8.50", "  11   20.25"]


def test_counted_puts_the_noun_in_the_number_of_its_count():
    assert [counted(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert counted(2, "more such rule break") == "2 more such rule breaks"
    assert counted(3, "family", "families") == "3 families"


def _missing_positions(n):
    from terragen.terrain.validation import check_layout
    from tests.terrain.helpers import flat_layout, with_players

    layout = with_players(flat_layout(3), [(0, [(0, 0)]), (3, [(1, 0)])])
    del layout.cells[:n]
    return next(f.message for f in check_layout(layout) if f.code == "cell-missing")


def _empty_positions_simulated(n):
    from terragen.terrain.sim.state import setup_from_layout
    from terragen.terrain.sim.variants import Rules
    from tests.terrain.helpers import flat_layout, with_players

    layout = with_players(flat_layout(3), [(0, [(0, 0)]), (3, [(1, 0)])])
    del layout.cells[:n]
    with pytest.raises(SpecError) as e:
        setup_from_layout(layout, Rules())
    return str(e.value)


def _player_count(n):
    from terragen.terrain.validation import check_layout
    from tests.terrain.helpers import flat_layout, with_players

    layout = with_players(flat_layout(3), [(c % 6, [(0, 0)]) for c in range(n)])
    return next(f.message for f in check_layout(layout) if f.code == "player-count")


def _corners(n):
    from terragen.terrain.generate.spec import check_spec, spec_from_dict

    with pytest.raises(SpecError) as e:
        check_spec(spec_from_dict({"players": 3, "corners": [0, 2, 4][:n]}))
    return str(e.value)


def _unknown_pin_keys(n):
    from terragen.terrain.generate.spec import spec_from_dict

    with pytest.raises(SpecError) as e:
        spec_from_dict({"players": 2, "pins": [{"q": 0, "r": 0, "piece": "8A", **dict.fromkeys(["zzz", "yyy"][:n], 1)}]})
    return str(e.value)


def _other_outputs(n, tmp_path):
    from terragen.cli._common import check_outputs

    paths = [tmp_path / f"out{k}.svg" for k in range(n + 1)]
    for p in paths:
        p.write_text("")
    with pytest.raises(InputError) as e:
        check_outputs(paths, force=False)
    return str(e.value)


def _moves_to_take_back(n):
    from terragen.terrace.position import Position

    pos = Position.start()
    for _ in range(n):
        pos.push(pos.legal_moves()[0])
    return repr(pos)


@pytest.mark.parametrize("message, one, two", [
    (_missing_positions, "1 board position has no piece: ", "2 board positions have no piece: "),
    (_empty_positions_simulated, "leaves 1 board position empty", "leaves 2 board positions empty"),
    (_corners, "lists 1 corner but 'players' is 3", "lists 2 corners but 'players' is 3"),
    (_unknown_pin_keys, "unknown key 'zzz'", "unknown keys 'yyy', 'zzz'"),
    (_other_outputs, "(as does 1 other output file)", "(as do 2 other output files)"),
    (_moves_to_take_back, ", 1 move to take back>", ", 2 moves to take back>"),
])
def test_a_count_in_a_message_agrees_with_its_noun_and_verb(message, one, two, tmp_path):
    """Messages said "1 board position(s) have no piece"; each now reads right at 1 and at 2."""
    said = [message(n, tmp_path) if message is _other_outputs else message(n) for n in (1, 2)]
    assert one in said[0] and two in said[1], said
    assert not any("(s)" in s for s in said)


def test_a_player_count_out_of_range_says_player_or_players():
    assert _player_count(1).startswith("1 player; the game takes 2 to 6")
    assert _player_count(7).startswith("7 players; the game takes 2 to 6")
