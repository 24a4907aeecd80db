"""The Terrain Game's palettes: the shipped ones read in print, a group's own file is checked, and
``--palette`` reaches the kit and the build sheet alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.errors import InputError
from terragen.render.contrast import MIN_TEXT_CONTRAST, contrast
from terragen.render.palette import (load_palette, luminance, palette_from_dict, palette_names, read_palette)
from terragen.terrain.pieces import MAX_LEVEL, MIN_LEVEL
from tests.render.test_cli_render import EXAMPLES, one_line_usage_error, run

LEVELS = range(MIN_LEVEL, MAX_LEVEL + 1)
ALL_LEVELS = "[levels]\n" + "".join(f'{lv} = "#{lv}0{lv}0{lv}0"\n' for lv in LEVELS)


def test_the_shipped_palettes_are_colour_first_then_grey():
    assert palette_names() == ["colour", "grey"]


@pytest.mark.parametrize("name", ["colour", "grey"])
def test_every_shipped_palette_colours_every_level_with_readable_numbers(name):
    pal = load_palette(name)
    for lv in LEVELS:
        assert lv in pal.levels
        assert contrast(pal.text_on(lv), pal.level(lv)) >= MIN_TEXT_CONTRAST, (name, lv)
    assert len(pal.seats) == len(pal.seat_names) == 6


def test_grey_prints_the_levels_darker_as_they_climb_in_clear_steps():
    """What a black-and-white printer makes of each level: the colour scale's greys turn back on
    themselves (2 and 6 come out within a few per cent), the grey palette's fall with height."""
    greys = [luminance(load_palette("grey").level(lv)) for lv in LEVELS]
    steps = [a - b for a, b in zip(greys, greys[1:])]
    assert min(steps) >= 0.08, greys
    colour = [luminance(load_palette("colour").level(lv)) for lv in LEVELS]
    assert any(b > a for a, b in zip(colour, colour[1:])) and any(b < a for a, b in zip(colour, colour[1:]))


def test_grey_keeps_the_colour_palettes_seats():
    assert load_palette("grey").seats == load_palette("colour").seats
    assert load_palette("grey").seat_names == load_palette("colour").seat_names


@pytest.mark.parametrize("spelling, name", [("gray", "grey"), ("color", "colour"), ("grey", "grey")])
def test_either_spelling_names_the_same_palette(spelling, name, tmp_path, monkeypatch):
    assert read_palette(spelling) == load_palette(name)
    monkeypatch.chdir(tmp_path)
    (tmp_path / spelling).mkdir()  # `kit terrain --palette grey --out grey`, run again: a folder of that name
    assert read_palette(spelling) == load_palette(name)


def test_a_file_gives_what_it_names_and_the_rest_is_the_colour_palettes(tmp_path: Path):
    f = tmp_path / "mine.toml"
    f.write_text(ALL_LEVELS + '[ink]\n1 = "#ffffff"\n', encoding="utf-8")
    pal = read_palette(f)
    assert pal.level(3) == "#303030"
    assert pal.ink[1] == "#ffffff" and pal.ink[7] == load_palette().ink[7]
    assert pal.seats == load_palette().seats


@pytest.mark.parametrize("text, says", [
    ('[levels]\n1 = "#ff0000"\n', "[levels] has no colour for level 2"),
    (ALL_LEVELS.replace('"#101010"', '"red"'), '[levels] 1 must be a colour written "#rrggbb"'),
    (ALL_LEVELS + '9 = "#000000"\n', "[levels] key '9' is no level"),
    ('[level]\n1 = "#000000"\n', "unknown table 'level' in a palette: did you mean [levels]?"),
    (ALL_LEVELS + '[seats]\ncolours = ["#000000"]\n', "[seats] colours must be a list of 6"),
    (ALL_LEVELS + '[seats]\nnames = ["", "b", "c", "d", "e", "f"]\n', "[seats] names must be words"),
    ('levels = 3\n', "[levels] must be a table"),
])
def test_a_malformed_file_is_refused_naming_the_file_and_what(tmp_path: Path, text, says):
    f = tmp_path / "bad.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_palette(f)
    assert str(f) in exc.value.message and says in exc.value.message, exc.value.message


_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                       lambda inner: st.lists(inner, max_size=7) | st.dictionaries(st.text(max_size=8), inner, max_size=9),
                       max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["levels", "ink", "seats", "level", ""]), _VALUES, max_size=4))
def test_any_toml_shape_is_a_palette_or_one_input_error(data):
    try:
        pal = palette_from_dict(data, "fuzz.toml", base=load_palette())
    except InputError as exc:
        assert exc.message.startswith("fuzz.toml: ")
    else:
        assert all(re.fullmatch(r"#[0-9a-f]{6}", pal.level(lv)) for lv in LEVELS)


def _fills(svg_text: str) -> set[str]:
    return {c.lower() for c in re.findall(r'fill="(#[0-9a-fA-F]{6})"', svg_text)}


def test_render_palette_grey_draws_the_pieces_in_the_greys(tmp_path: Path):
    out = tmp_path / "sheet.svg"
    p = run("render", EXAMPLES / "four-players.txt", "--palette", "grey", "--out", out)
    assert p.returncode == 0, p.stderr
    fills = set().union(*(_fills(f.read_text(encoding="utf-8")) for f in tmp_path.glob("sheet*.svg")))
    grey, colour = load_palette("grey"), load_palette("colour")
    assert {grey.level(lv) for lv in LEVELS} <= fills
    assert not {colour.level(lv) for lv in LEVELS} & fills


def test_kit_terrain_palette_file_colours_the_pieces(tmp_path: Path):
    f = tmp_path / "mine.toml"
    f.write_text(ALL_LEVELS, encoding="utf-8")
    p = run("kit", "terrain", "--palette", f, "--format", "svg", "--out", tmp_path / "kit")
    assert p.returncode == 0, p.stderr
    pages = sorted((tmp_path / "kit").glob("terrain-tiles-a4-p*.svg"))
    fills = set().union(*(_fills(page.read_text(encoding="utf-8")) for page in pages))
    assert {f"#{lv}0{lv}0{lv}0" for lv in LEVELS} <= fills


@pytest.mark.parametrize("value, says", [
    ("grye", "--palette: unknown palette 'grye': did you mean 'grey'?"),
    ("missing.toml", "--palette: missing.toml: "),
])
def test_a_bad_palette_is_one_usage_line_and_writes_nothing(tmp_path: Path, value, says):
    line = one_line_usage_error(run("kit", "terrain", "--palette", value, "--out", tmp_path / "kit", cwd=tmp_path))
    assert says in line, line
    assert not (tmp_path / "kit").exists()
    line = one_line_usage_error(run("render", EXAMPLES / "four-players.txt", "--palette", value,
                                    "--out", tmp_path / "s.pdf", cwd=tmp_path))
    assert says in line, line
    assert not (tmp_path / "s.pdf").exists()


@pytest.mark.parametrize("command", [["render", "-"], ["kit", "terrain", "--inventory", "-"]])
def test_the_palette_and_another_input_cannot_both_read_standard_input(tmp_path, command):
    """render - --palette - read the layout as the palette: "--palette: -:2:7: invalid TOML"."""
    line = one_line_usage_error(run(*command, "--palette", "-", "--out", tmp_path / "o", cwd=tmp_path))
    assert "both read standard input ('-')" in line, line
