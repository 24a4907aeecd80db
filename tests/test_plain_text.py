"""Reports laid out for an 80-column terminal: tables whole, prose wrapped without losing a word."""

from hypothesis import given, strategies as st

from terragen.plain_text import WIDTH, columns, wrapped


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
