"""The command line as a user meets it: exit codes, one-line errors, JSON, pictures."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.terrain.helpers import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]


def run(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TERRAGEN_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def one_clear_line(proc):
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_help_and_version():
    p = run("--help")
    assert p.returncode == 0 and "validate" in p.stdout and "Exit status" in p.stdout and "130" in p.stdout and "70" in p.stdout
    p = run("--version")
    assert p.returncode == 0 and p.stdout.startswith("terragen, version ")
    # a build without its compiled kernels says so (the same results, slower: nothing else tells)
    pure = subprocess.run([sys.executable, "-m", "terragen", "-V"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "TERRAGEN_PURE_PYTHON": "1"})
    assert pure.returncode == 0 and pure.stdout.strip().endswith("(pure Python, as TERRAGEN_PURE_PYTHON asks)")
    p = run("validate", "--help")
    assert p.returncode == 0 and "Examples:" in p.stdout and "terragen validate my-board.txt" in p.stdout


def test_unknown_option_and_command_are_one_line_exit_2():
    p = run("validate", "--frobnicate", EXAMPLES / "two-players.txt")
    assert p.returncode == 2 and "--frobnicate" in one_clear_line(p)
    p = run("frobnicate")
    assert p.returncode == 2 and "frobnicate" in one_clear_line(p)
    p = run("validate")
    assert p.returncode == 2 and "FILE" in one_clear_line(p)


def test_validate_valid_example_exit_0_with_table():
    p = run("validate", EXAMPLES / "four-players.txt")
    assert p.returncode == 0, p.stderr
    assert "valid" in p.stdout and "exp. turns" in p.stdout and "fairness spread" in p.stdout


@pytest.mark.parametrize("name", ["six-players.txt", "four-players.txt"])
def test_validates_report_fits_an_80_column_terminal(name):
    """Its one table was 132 columns on six seats, and the race model's line 143: a terminal
    broke them mid-row and mid-word."""
    p = run("validate", EXAMPLES / name)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()[1:]  # the first names the file, whatever its path
    assert lines and max(len(line) for line in lines) <= 80, max(lines, key=len)
    said = " ".join(p.stdout.split())
    for words in ("race model (lone tokens, no send-backs or rotations)", "finish p10/50/90", "race, rotating"):
        assert words in said


def test_validate_invalid_example_exit_1_names_code_and_place():
    path = EXAMPLES / "invalid" / "level-out-of-range.txt"
    p = run("validate", path)
    assert p.returncode == 1
    assert "[level-out-of-range]" in p.stdout and f"{path}:" in p.stdout


def test_validate_json_schema():
    p = run("validate", EXAMPLES / "invalid" / "destination-pip-unreachable.txt", "--json")
    assert p.returncode == 0  # a warning does not make a layout invalid
    data = json.loads(p.stdout)
    assert data["valid"] is True and data["errors"] == []
    (w,) = data["warnings"]
    assert set(w) >= {"code", "message", "cells"} and w["code"] == "destination-pip-unreachable"
    for player in data["players"]:
        assert {"seat", "corner", "expected_turns", "destinations"} <= set(player)
        for d in player["destinations"]:
            assert {"q", "r", "reachable_elevation", "reachable_pips", "cost_good", "cost_bad"} <= set(d)
    blocked = [d for p in data["players"] for d in p["destinations"] if not d["reachable_pips"]]
    assert blocked and all(d["cost_good"] is None and d["cost_bad"] is None for d in blocked)
    assert "metrics" in data and "fairness_spread" in data["metrics"]


def test_validate_svg_picture(tmp_path):
    out = tmp_path / "pic" / "board.svg"
    p = run("validate", EXAMPLES / "two-players.txt", "--svg", out)
    assert p.returncode == 0 and out.exists()
    svg = out.read_text()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert svg.count("<polygon") >= 91 and "polyline" in svg
    # same input, same bytes
    out2 = tmp_path / "again.svg"
    run("validate", EXAMPLES / "two-players.txt", "--svg", out2)
    assert out2.read_bytes() == out.read_bytes()


@pytest.mark.parametrize("content, words", [
    (b"", "file is empty"),
    (b"\x00\x01\x02binary", "binary"),
    (b"\xff\xfe\xfa bad", "not UTF-8"),
    (b'{"radius": 5, "cells": [', "invalid JSON"),
    (b"map:\n  5B3 4A0\n3C1 2Q 1A5\n  6B2 3A1\n", "bad piece"),
    (b"map:\n  5B3 4A0\n3C1 2D0\n  6B2 3A1\n", "row r=0 has 2 positions"),
])
def test_bad_files_one_line_exit_2(tmp_path, content, words):
    f = tmp_path / "bad.txt"
    f.write_bytes(content)
    p = run("validate", f)
    assert p.returncode == 2
    line = one_clear_line(p)
    assert words in line and "bad.txt" in line


def test_missing_file_and_directory_and_enormous_file(tmp_path):
    p = run("validate", tmp_path / "nope.txt")
    assert p.returncode == 2 and "no such file" in one_clear_line(p)
    p = run("validate", tmp_path)
    assert p.returncode == 2 and "directory" in one_clear_line(p)
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(6 * 1024 * 1024)
    p = run("validate", big)
    assert p.returncode == 2 and "limit" in one_clear_line(p)


def test_failed_run_does_not_clobber_existing_svg(tmp_path):
    out = tmp_path / "keep.svg"
    out.write_text("precious")
    bad = tmp_path / "bad.txt"
    bad.write_text("map:\n  5B3\n")
    p = run("validate", bad, "--svg", out)
    assert p.returncode == 2 and out.read_text() == "precious"
    assert [x.name for x in tmp_path.iterdir() if x.name.startswith(".")] == []


def test_validate_svg_of_a_layout_it_cannot_draw_is_one_line(tmp_path):
    # one player only: validate lists the error, and --svg says why it draws nothing
    board = json.loads((ROOT / "bench" / "boards" / "gen-4p-medium-seed1001.json").read_text())
    board["players"] = board["players"][:1]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(board))
    out = tmp_path / "x.svg"
    p = run("validate", one, "--svg", out)
    assert p.returncode == 1 and "--svg" in one_clear_line(p) and not out.exists()
    assert "1 player; the game takes 2 to 6" in one_clear_line(p) and "[player-count]" in p.stdout
    p = run("validate", one, "--svg", out, "--json")
    assert p.returncode == 1 and "Traceback" not in p.stderr and json.loads(p.stdout)["valid"] is False
    assert json.loads(p.stdout)["readable"] is True  # the file was read: the picture is what failed


def test_validate_svg_names_which_count_stops_the_picture_and_still_prints_the_report(tmp_path):
    """It said only "has 4 players or a player with too many destinations to draw" and printed no
    report, where a file with unreadable lines had its report and picture refused alike."""
    board = json.loads((EXAMPLES / "four-players.json").read_text())
    board["players"][0]["destinations"] *= 4
    many = tmp_path / "X.json"
    many.write_text(json.dumps(board))
    out = tmp_path / "fd.svg"
    p = run("validate", many, "--svg", out)
    assert p.returncode == 1 and not out.exists()
    assert one_clear_line(p) == (f"terragen: error: --svg: no picture drawn: {many}: seat 0 has 8 destinations; "
                                 "each player has 1 to 3 (fix the errors the report lists first)")
    assert p.stdout.startswith(f"{many}: INVALID terrain layout") and "[destination-count]" in p.stdout
    bad = tmp_path / "S.txt"
    lines = (EXAMPLES / "four-players.txt").read_text().splitlines()
    bad.write_text("\n".join(lines[:5] + ["zzz bad line"] + lines[5:]) + "\n")
    p = run("validate", bad, "--svg", out)
    assert p.returncode == 2 and not out.exists()
    assert p.stdout.startswith(f"{bad}: INVALID terrain layout") and "[syntax]" in p.stdout
    assert one_clear_line(p).endswith(f"; --svg: no picture drawn: {bad} has lines that could not be read "
                                      "(listed in the report)")


def test_validate_dispatches_terrace_positions(tmp_path):
    pos = tmp_path / "pos.txt"
    assert run("terrace", "setup", "short", "-o", pos).returncode == 0
    p = run("validate", pos, "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["game"] == "terrace" and data["valid"] is True
    text = pos.read_text().replace("- T B B", "- t B B")  # two bottom Ts now, no top T
    pos.write_text(text)
    p = run("validate", pos)
    assert p.returncode == 1 and "Traceback" not in p.stderr and "error" in p.stdout


def test_validate_dispatches_terraflip_and_terralogical(tmp_path):
    pos = tmp_path / "flip.txt"
    pos.write_text("game: terraflip\nplayers: blue green gray\n  1  0  blue-river-4  blue/green\n"
                   "  0  1  green-knight  green\n  6  0  blue-river-5  blue/gray\n")
    p = run("validate", pos, "--json")
    assert p.returncode == 1, p.stderr
    data = json.loads(p.stdout)
    assert data["game"] == "terraflip" and "tile-too-far" in {e["code"] for e in data["errors"]}
    board = ROOT / "terragen" / "data" / "terralogical" / "examples" / "invalid" / "missing-end.txt"
    p = run("validate", board)
    assert p.returncode == 1 and "[missing-end]" in p.stdout
    p = run("validate", board, "--svg", tmp_path / "x.svg")
    assert p.returncode == 2 and "Terrain Game layouts only" in one_clear_line(p)


@pytest.mark.parametrize("game, example", [("terraflip", "three-players-midgame.txt"),
                                           ("terralogical", "invalid/edge-mismatch.txt")])
def test_a_games_validate_json_is_the_same_document_as_terragen_validates(game, example, tmp_path, capsys):
    """The help calls them the same check; the game's document lacked 'file' and 'readable'."""
    import json

    from terragen.cli import main
    from terragen.templates import template_path

    path = str(template_path(game, "examples", example))
    docs = []
    for argv in (["validate", path, "--json"], [game, "validate", path, "--json"]):
        with pytest.raises(SystemExit):
            main(argv)
        docs.append(json.loads(capsys.readouterr().out))
    assert docs[0] == docs[1] and docs[0]["file"] == path


def test_show_marks_a_cell_of_two_seats_and_an_unknown_rotation(tmp_path, capsys):
    """A shared flag showed only one seat's mark; a rotation of 6 was drawn as rotation 0."""
    from terragen.cli import main
    from terragen.render.kits.terrain.terminal import SEVERAL, cell_text
    from terragen.templates import template_path

    with pytest.raises(SystemExit) as exc:
        main(["show", str(template_path("terrain", "examples", "invalid", "destination-shared.txt"))])
    board = capsys.readouterr().out.split("\n\n")[0]
    assert exc.value.code == 0 and SEVERAL in board and "d1" not in board
    assert cell_text(1, "A", 6, False).endswith("???") and not cell_text(1, "A", 5, False).endswith("???")
    # an inverted piece keeps its level on show (an x in its place hid which piece it was)
    assert cell_text(5, "B", 2, True) == "5x  " and len(cell_text(5, "B", 2, False)) == 4


@pytest.mark.parametrize("args", [["presets"], ["terraflip", "play", "--games", "3", "--seed", "1"],
                                  ["terralogical", "play", "--games", "3", "--seed", "1"]])
def test_prose_reports_fit_80_columns(args):
    """presets' hard and brutal lines were 120 columns, terraflip play's first line 127 and terralogical
    play's win line 108, and terraflip's table 89: a terminal broke them mid-word."""
    p = run(*args)
    assert p.returncode == 0, p.stderr
    lines = [line for line in p.stdout.splitlines() if "docs" not in line]  # a docs path is as long as it is
    assert lines and max(len(line) for line in lines) <= 80, max(lines, key=len)


def test_variant_teams_on_two_players_is_refused_and_with_teams_given_it_plays_them():
    """Two one-seat teams are the plain game; ``--variant teams --teams ...`` was refused for a count
    without facing pairs though --teams "implies --variant teams" (the default was made first)."""
    p = run("simulate", EXAMPLES / "two-players.txt", "--variant", "teams", "--games", "10")
    line = one_clear_line(p)
    assert p.returncode == 2 and "team play needs 3 players or more" in line and "(this layout has 2)" in line, line
    p = run("simulate", EXAMPLES / "four-players.txt", "--variant", "teams", "--teams", "0+1,2+3", "--games", "10")
    assert p.returncode in (0, 1) and "variant teams 0+1,2+3" in p.stdout, p.stderr


@pytest.mark.parametrize("flag, drawn", [("--progress", True), ("--no-progress", False), (None, False)])
def test_generate_progress_flag_forces_the_bar_into_a_log(tmp_path: Path, flag, drawn):
    """``--progress`` said it forced the bar on, but off a terminal (stderr to a file) it drew nothing."""
    args = ["generate", "--players", "2", "--difficulty", "easy", "--seed", "119003", "--out", tmp_path / "b"]
    p = run(*args, *([flag] if flag else []))
    assert p.returncode == 0, p.stderr
    assert ("terragen generate [" in p.stderr) == drawn, p.stderr


def test_show_draws_a_broken_board_and_says_so_once():
    """show drew a board with a level-9 piece without a word, as if it were fine (render warns)."""
    p = run("show", EXAMPLES / "invalid" / "level-out-of-range.txt", "--no-color")
    assert p.returncode == 0 and p.stdout.strip(), p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "breaks a rule: [level-out-of-range]" in lines[0], p.stderr
    p = run("show", EXAMPLES / "four-players.txt", "--no-color")
    assert p.returncode == 0 and p.stderr == "", p.stderr


@pytest.mark.parametrize("args, path", [
    (["validate", "x.txt", "--json=1"], "terragen validate"),
    (["generate", "--force=yes"], "terragen generate"),
    (["kit", "terrain", "--nets=1"], "terragen kit terrain"),
    (["-q", "terrace", "play", "--json=2"], "terragen terrace play"),
])
def test_a_value_given_to_an_on_off_flag_points_to_its_commands_help(args, path):
    """click leaves no command on this error, and the line pointed to 'terragen --help'."""
    p = run(*args)
    assert p.returncode == 2
    assert one_clear_line(p) == (f"{path}: error: Option '--{args[-1][2:].split('=')[0]}' does not take a value. "
                                 f"(see '{path} --help')")


def test_convert_names_its_output_when_it_is_a_folder(tmp_path):
    (tmp_path / "adir").mkdir()
    p = run("convert", EXAMPLES / "four-players.txt", tmp_path / "adir")
    assert p.returncode == 2 and one_clear_line(p).endswith(f"OUT {tmp_path / 'adir'}: is a directory, expected a file")


@pytest.mark.parametrize("quiet", [False, True])
def test_a_run_without_the_compiled_modules_says_so_once(monkeypatch, capsys, quiet):
    """A wheel built where no C compiler was found ran 2-3 times slower without a word."""
    from terragen.cli import main
    from terragen.terrain import compiled

    monkeypatch.delenv("TERRAGEN_PURE_PYTHON", raising=False)
    monkeypatch.setattr(compiled, "kernels_in_use", lambda: {"_kernels.c": False, "sim/_fast_turns.c": True})
    with pytest.raises(SystemExit) as exc:
        main([*(["-q"] if quiet else []), "simulate", str(EXAMPLES / "four-players.txt"), "--games", "10"])
    err = capsys.readouterr().err
    assert exc.value.code in (0, 1)
    said = [line for line in err.splitlines() if "not compiled in this install" in line]
    assert len(said) == (0 if quiet else 1), err
    assert quiet or "_kernels.c" in said[0]
