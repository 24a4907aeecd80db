"""Option values read one way in every command: ASCII numbers, one wording for a range, an empty
value refused, an output folder blocked by a file is exit 73 (found by an audit of all commands)."""

from __future__ import annotations

import math

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.cli._common import FiniteFloat, Whole

from tests.cli.test_conventions import run_cli
from tests.terrain.helpers import EXAMPLES

BOARD = EXAMPLES / "two-players.txt"


@pytest.mark.parametrize("args,message", [
    (["generate", "--players", "7"], "--players must be 2–6 (got 7)"),
    (["generate", "--seed", "-1"], "--seed must be 0–9223372036854775807 (got -1)"),
    (["generate", "--time-limit", "1e30"], "--time-limit must be above 0, at most 86400 (got 1e30)"),
    (["generate", "--margin", "0"], "--margin must be 0.001–0.5 (got 0)"),
    (["simulate", BOARD, "--games", "0"], "--games must be 1–1000000 (got 0)"),
    (["batch", "--count", "0"], "--count must be 1–100000 (got 0)"),
    (["serve", "--port", "70000"], "--port must be 0–65535 (got 70000)"),
    (["render", BOARD, "--scale", "1.3"], "--scale must be 0.9–1.1 (got 1.3)"),
    (["kit", "terrain", "--scale", "-3"], "--scale must be 0.9–1.1 (got -3)"),
    (["kit", "terrace", "--size", "5"], "--size must be one of 6, 8, 10, 12 (got 5)"),
    (["terrace", "moves", "--size", "7"], "--size must be one of 6, 8, 10, 12 (got 7)"),
    (["terrace", "perft", "--depth", "9"], "--depth must be 0–8 (got 9)"),
    (["terrace", "play", "--max-plies", "0"], "--max-plies must be 1–100000 (got 0)"),
    (["terraflip", "tiles", "--per-family", "0"], "--per-family must be 1–30 (got 0)"),
    (["terraflip", "tiles", "--time-limit", "1e30"], "--time-limit must be above 0, at most 86400 (got 1e30)"),
    (["terraflip", "play", "--players", "5"], "--players must be 2–4 (got 5)"),
    (["terralogical", "play", "--players", "1"], "--players must be 2–4 (got 1)"),
    # the whole range, not "above 0" for 0 and the range for 10
    (["kit", "terrain", "--tile-size", "0"], "--tile-size must be 25–80 mm across flats (got 0)"),
    (["kit", "terralogical", "--tile-size", "-5"], "--tile-size must be 25–60 mm (got -5)"),
    (["kit", "terraflip", "--tile-size", "0"], "--tile-size must be 25–70 mm across flats (got 0)"),
    # as the option given, with its dashes ("param tiles=0"), and a name missing said so
    (["terralogical", "deck", "--param", "tiles=0"], "--param tiles=0: must be 1 to 500"),
    (["terralogical", "deck", "--param", "="], "--param '=': no parameter name before '='"),
])
def test_every_range_reads_one_way(capsys, args, message):
    code, _, err = run_cli(capsys, *args)
    assert code == 2
    assert err.count("\n") == 1 and message in err, err


def test_a_margin_past_generates_range_names_no_balance_and_simulate_takes_one(capsys):
    """generate refuses --margin 0.6 (it tunes to the margin, and past 0.5 that is no balance) where
    simulate takes --margin 1, the way its docs give to read the playability verdict alone: the
    refusal now names the generator's way to that wish, --no-balance."""
    code, _, err = run_cli(capsys, "generate", "--margin", "0.6")
    assert code == 2 and err.count("\n") == 1
    assert "--margin must be 0.001–0.5 (got 0.6); a board not tuned for balance at all is --no-balance" in err
    code, out, err = run_cli(capsys, "simulate", BOARD, "--margin", "1", "--games", "20")
    assert code in (0, 1) and "BALANCED" in out and "NOT BALANCED" not in out, err


@pytest.mark.parametrize("args", [
    ["generate", "--radius", "\u0663"],
    ["generate", "--players", "\u0664"],
    ["batch", "--count", "\u0663"],
    ["simulate", BOARD, "--games", "\u0663"],
    ["kit", "terrain", "--scale", "\u0661"],
    ["terrace", "play", "--players", "\u0662"],
    ["generate", "--time-limit", "1_000"],  # float() reads it; whole-number options never did
    ["kit", "terrain", "--scale", "1_0"],
])
def test_numbers_on_the_command_line_are_ascii_digits(capsys, args):
    """int() and float() read Arabic-Indic digits: --port ٣ served on port 3 (not run here: a
    regression would serve for ever; every whole-number option is the same type)."""
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == "" and args[-1] in err and err.count("\n") == 1, err


def test_a_word_for_terrace_players_points_to_policy(capsys):
    code, _, err = run_cli(capsys, "terrace", "play", "--players", "random,greedy")
    assert code == 2
    assert "--players must be a number of players, 2, 3 or 4 (got 'random,greedy'); " \
           "to choose the players' policies use --policy random,greedy" in err
    code, _, err = run_cli(capsys, "terrace", "play", "--players", "2.5")
    assert code == 2 and "--policy" not in err.split("(see")[0]


@pytest.mark.parametrize("command", [
    ["generate", "--players", "2", "--seed", "1"],
    ["kit", "terrain"],
    ["examples", "copy", "terrain/two-players.txt"],
    ["batch", "--count", "1"],
])
def test_an_output_folder_that_is_a_file_is_exit_73(capsys, tmp_path, command):
    """click's Path(file_okay=False) said "Directory 'x' is a file." with exit 2 (bad usage)."""
    blocker = tmp_path / "plainfile"
    blocker.write_text("mine\n")
    code, _, err = run_cli(capsys, *command, "--out", blocker)
    assert code == 73, err
    assert "is a file, not a folder" in err and blocker.read_text() == "mine\n"


@pytest.mark.parametrize("args", [
    ["kit", "terrain", "--back-offset", ""],
    ["batch", "--count", "1", "--backend", "dask", "--scheduler", ""],
])
def test_an_empty_value_is_refused_not_read_as_not_given(capsys, tmp_path, args):
    code, _, err = run_cli(capsys, *args, "--out", tmp_path / "out")
    assert code == 2 and not (tmp_path / "out").exists(), err


@pytest.mark.parametrize("form,name", [("text", "b.json"), ("json", "b.txt")])
def test_convert_refuses_a_form_its_out_name_contradicts(capsys, tmp_path, form, name):
    code, _, err = run_cli(capsys, "convert", BOARD, tmp_path / name, "--to", form)
    assert code == 2 and "make them agree" in err and not (tmp_path / name).exists()


@pytest.mark.parametrize("command", [["show"], ["validate"], ["convert"], ["simulate"], ["render"]])
def test_a_folder_given_as_the_input_file_reads_one_way(capsys, tmp_path, command):
    """Commands whose file argument click checked said "Invalid value for 'FILE': File 'x' is a
    directory."; the others, the readers' words."""
    code, _, err = run_cli(capsys, *command, tmp_path)
    assert code == 2 and err == f"terragen: error: {tmp_path}: is a directory, expected a file\n"


@pytest.mark.parametrize("command", [["show"], ["validate"], ["convert"], ["simulate"], ["render"]])
def test_a_folder_generate_wrote_given_as_the_input_names_its_board(capsys, tmp_path, command):
    # 'generate --out my-board' then 'simulate my-board' is the likely slip
    (tmp_path / "board.json").write_text("{}")
    code, _, err = run_cli(capsys, *command, tmp_path)
    assert code == 2
    assert err == (f"terragen: error: {tmp_path}: is a directory, expected a file "
                   f"(the board generate wrote there is {tmp_path / 'board.json'})\n")


def test_terrace_setup_takes_dash_for_stdout_and_refuses_json_into_a_txt_name(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "terrace", "setup", "short", "--out", "-", cwd=tmp_path)
    assert code == 0 and out.startswith("game: terrace") and list(tmp_path.iterdir()) == []
    code, _, err = run_cli(capsys, "terrace", "setup", "short", "--json", "--out", tmp_path / "s.txt")
    assert code == 2 and "make them agree" in err and not (tmp_path / "s.txt").exists()
    code, out, err = run_cli(capsys, "terrace", "setup", "short", "--out", tmp_path / "s.txt")
    assert code == 0 and out == f"written: {tmp_path / 's.txt'}\n" and err == ""


def test_a_file_of_another_game_reads_one_way(capsys, tmp_path):
    """Six wordings, some naming the found game as a quoted value, one not at all ("unknown key
    'radius'" for a Terrain Game layout given to a Terrace command)."""
    from terragen.templates import template_path

    terrace = tmp_path / "pos.txt"
    assert run_cli(capsys, "terrace", "setup", "short", "--out", terrace)[0] == 0
    terralogical = template_path("terralogical", "examples", "three-players-start.txt")
    cases = [
        (["simulate", terrace], "this is a Terrace position, not a Terrain Game layout"),
        (["render", terrace], "this is a Terrace position, not a Terrain Game layout"),
        (["show", terrace], "this is a Terrace position, not a Terrain Game layout"),
        (["terrace", "moves", BOARD], "this is a Terrain Game layout, not a Terrace position"),
        (["terrace", "moves", EXAMPLES / "four-players.json"], "this is a Terrain Game layout, not a Terrace position"),
        (["terrace", "show", terralogical], "this is a Terralogical board, not a Terrace position"),
    ]
    for args, says in cases:
        code, _, err = run_cli(capsys, *args)
        assert code == 2 and says in err and err.count("\n") == 1, (args, err)


def test_the_other_games_readers_name_a_file_of_another_game(capsys, tmp_path):
    terrace = tmp_path / "pos.json"
    assert run_cli(capsys, "terrace", "setup", "short", "--out", terrace)[0] == 0
    for args, says in [
        (["terraflip", "validate", BOARD], "this is a Terrain Game layout, not a TerraFlip position"),
        (["terraflip", "validate", terrace], "this is a Terrace position, not a TerraFlip position"),
        (["terralogical", "validate", EXAMPLES / "four-players.json"], "this is a Terrain Game layout, not a Terralogical board"),
        (["terralogical", "validate", BOARD], "this is a Terrain Game layout, not a Terralogical board"),
        (["terrace", "validate", BOARD], "this is a Terrain Game layout, not a Terrace position"),
    ]:
        code, _, err = run_cli(capsys, *args)
        assert code == 2 and says in err, (args, err)


def test_folder_options_complete_folders(tmp_path):
    """FolderName left click's Path accepting files, and completion offered files for --out."""
    import os
    import subprocess
    import sys

    from tests.cli.test_conventions import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT), COMP_WORDS="terragen generate --out ou", COMP_CWORD="3",
               _TERRAGEN_COMPLETE="bash_complete")
    p = subprocess.run([sys.executable, "-m", "terragen"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.stdout.split() == ["dir,ou"], p.stdout + p.stderr


def test_the_right_game_in_another_case_is_not_called_another_game(capsys, tmp_path):
    """'"game": "Terrain"' said 'this is a Terrain Game layout, not a Terrain Game layout'."""
    f = tmp_path / "b.json"
    f.write_text((EXAMPLES / "four-players.json").read_text().replace('"game": "terrain"', '"game": "Terrain"'))
    code, _, err = run_cli(capsys, "simulate", f)
    assert code == 2 and "the game is written 'terrain' (got 'Terrain')" in err


def test_an_unreadable_terralogical_players_line_is_said_once(capsys, tmp_path):
    """Every tile line after it said the players line was missing: 33 errors for one."""
    from terragen.templates import template_path

    text = template_path("terralogical", "examples", "four-players-finished.txt").read_text()
    f = tmp_path / "b.txt"
    f.write_text("\n".join("players: p1 p1" if line.startswith("players:") else line for line in text.split("\n")))
    code, out, _ = run_cli(capsys, "validate", f)
    # one error: the line's own (the name given twice), not also "no 'players:' line could be read"
    assert code == 2 and "(1 error," in out and "must come before the tiles" not in out
    assert "player 'p1' is listed twice" in out and "no 'players:' line" not in out


def test_standard_input_is_named_as_typed_in_every_message():
    """'<stdin>: file is empty' but '-:1:1: ...' for the same stdin."""
    import os
    import subprocess
    import sys

    from tests.cli.test_conventions import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for args, text, says in [(["validate", "-"], "", "-: file is empty"),
                             (["terrace", "show", "-"], "game: terrace\nfoo\n", "-:2:1:"),
                             (["show", "-"], "garbage ][\n", "-:1:1:")]:
        p = subprocess.run([sys.executable, "-m", "terragen", *args], input=text, capture_output=True, text=True, env=env)
        assert p.returncode == 2 and says in p.stderr and "<stdin>" not in p.stderr, p.stderr


def test_the_three_play_commands_play_as_many_games_by_default():
    """Terrace played 10 where Terralogical and TerraFlip play 100 (an audit of the three)."""
    import click

    from terragen.cli import cli

    ctx = click.Context(cli)
    games = {game: next(p.default for p in cli.get_command(ctx, game).get_command(ctx, "play").params
                        if p.name == "games")
             for game in ("terrace", "terralogical", "terraflip")}
    assert set(games.values()) == {100}, games


def _options():
    """(command path, option) for every option of every command and subcommand."""
    import click

    from terragen.cli import cli

    def walk(cmd, ctx, path):
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                yield from walk(cmd.get_command(ctx, name), ctx, path + [name])
        else:
            yield from ((" ".join(path), p) for p in cmd.params)

    return list(walk(cli, click.Context(cli), []))


NUMBER_OPTIONS = [(c, p) for c, p in _options() if isinstance(p.type, (Whole, FiniteFloat))]


def test_every_number_option_reads_ascii_digits_one_way():
    """No number option is left on click's own int or float, which read Arabic-Indic digits."""
    plain = [(c, p.name) for c, p in _options()
             if isinstance(p.type, (click.types.IntParamType, click.types.FloatParamType))
             and not isinstance(p.type, (Whole, FiniteFloat))]
    assert plain == [] and len(NUMBER_OPTIONS) > 30


@settings(max_examples=300, deadline=None)
@given(option=st.sampled_from(NUMBER_OPTIONS), text=st.one_of(
    st.sampled_from(["\u0663", "\u0661\u0662", "\u00b3", " 7 ", "1_000", "0x10", "1e3", "-0", "", "nan"]),
    st.text(max_size=12), st.from_regex(r"[+-]?[0-9]{1,45}", fullmatch=True),
    st.floats(allow_nan=True, allow_infinity=True).map(repr)))
def test_any_text_for_a_number_option_is_a_value_in_range_or_one_usage_error(option, text):
    """Parser fuzzing: whatever is typed, a number option returns a value inside its range or
    refuses with click's usage error (exit 2), never another exception."""
    command, param = option
    try:
        value = param.type.convert(text, param, click.Context(click.Command(command)))
    except click.UsageError:  # BadParameter is one
        return
    assert isinstance(value, int if isinstance(param.type, Whole) else float) and math.isfinite(value)
    lo, hi = (param.type.min, param.type.max) if isinstance(param.type, Whole) else (param.type.lo, param.type.hi)
    assert (lo is None or value >= lo) and (hi is None or value <= hi), (command, param.name, text, value)
    assert text.strip().isascii()


@pytest.mark.parametrize("args, option", [
    (["generate", "--spec", "nosuch.toml"], "--spec"),
    (["generate", "--inventory", "nosuch.toml", "--no-balance"], "--inventory"),
    (["kit", "terralogical", "--deck", "nosuch.json"], "--deck"),
    (["kit", "terraflip", "--tiles", "nosuch.json"], "--tiles"),
    (["kit", "terraflip", "--tiles", "."], "--tiles"),
    (["terralogical", "play", "--deck", "nosuch.json"], "--deck"),
    (["terraflip", "play", "--tiles", "nosuch.json"], "--tiles"),
])
def test_an_options_own_file_that_cannot_be_read_names_the_option(capsys, tmp_path, args, option):
    """These said only 'nosuch.json: no such file', as if the main input were missing."""
    code, _, err = run_cli(capsys, *args, cwd=tmp_path)
    assert code == 2 and err.startswith(f"terragen: error: {option}: "), err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("content, said", [("123", "the number 123"), ("null", "null"), ('"hello"', 'the string "hello"'),
                                           ("[1, 2]", "a list")])
def test_a_file_holding_one_json_value_is_told_it_is_not_an_object(capsys, tmp_path, content, said):
    """A bare JSON value was read as a text map: 'the map has 1 row; the smallest board ...'."""
    path = tmp_path / "board.json"
    path.write_text(content + "\n")
    code, _, err = run_cli(capsys, "validate", path)
    assert code == 2 and f"$: expected an object, got {said}" in err, err


@pytest.mark.parametrize("name", ["x.png", "x.JPG", "x.txt"])
def test_render_refuses_an_out_name_of_a_format_it_does_not_write(capsys, tmp_path, name):
    """render --out x.png wrote a PDF named x.png."""
    code, _, err = run_cli(capsys, "render", BOARD, "--out", tmp_path / name)
    assert code == 2 and "render writes PDF or SVG" in err and not (tmp_path / name).exists()


@pytest.mark.parametrize("command", [["simulate", BOARD], ["generate"]])
def test_a_margin_given_in_points_is_told_the_share_it_meant(capsys, tmp_path, command):
    """Every output speaks of points; --margin 2.5 got only the range."""
    code, _, err = run_cli(capsys, *command, "--margin", "2.5", cwd=tmp_path)
    assert code == 2 and "did you mean 0.025 (2.5 points)?" in err



@pytest.mark.parametrize("value", ["\u0663", "\uff11"])  # Arabic-Indic 3, full-width 1
def test_a_margin_in_other_digits_is_not_a_number_and_nothing_more(capsys, tmp_path, value):
    """'٣' was called not a number and then read as 3 points ("did you mean 0.03?")."""
    code, _, err = run_cli(capsys, "generate", "--margin", value, cwd=tmp_path)
    assert code == 2 and f"{value!r} is not a number" in err and "did you mean" not in err and "no-balance" not in err


def test_a_negative_radius_is_said_to_be_out_of_range_not_not_whole(capsys, tmp_path):
    """'radius: -3' was called not a whole number; it is whole, and outside 1 to 12."""
    bad = tmp_path / "r.txt"
    bad.write_text(BOARD.read_text().replace("radius: 5", "radius: -3"))
    code, _, err = run_cli(capsys, "validate", bad)
    assert code == 2 and "radius -3 is outside 1 to 12" in err
