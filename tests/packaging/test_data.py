"""Run-time data comes from the package (importlib.resources), or from TERRAGEN_TEMPLATES."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from terragen.errors import InputError
from terragen.examples import find_example, list_examples
from terragen.templates import template_names, templates_root

ROOT = Path(__file__).resolve().parents[2]


def test_data_is_inside_the_package():
    root = Path(str(templates_root()))
    assert root.is_relative_to(ROOT / "terragen")
    assert template_names("paper") == ["a4", "letter"]
    assert template_names("terrain", "presets") == ["brutal", "easy", "hard", "medium"]
    assert {"standard", "extended"} <= set(template_names("terrain", "inventories"))


def test_every_game_ships_examples_and_each_one_reads():
    found = list_examples()
    assert {ex.game for ex in found} == {"terrain", "terrace", "terralogical", "terraflip"}
    assert {ex.kind for ex in found} == {"layout", "position", "invalid", "warns", "spec", "inventory"}
    # a layout is a Terrain Game board; the other games' files are positions, as their docs say
    assert {ex.game for ex in found if ex.kind == "layout"} == {"terrain"}
    assert {ex.name for ex in found if ex.kind == "position"} >= {
        "terrace/full-setup.txt", "terraflip/three-players-midgame.txt", "terralogical/two-players-finished.json"}
    for ex in found:
        assert ex.read_bytes().strip(), ex.name


def test_example_lookup_by_short_name_and_with_a_hint():
    assert find_example("two-players").name == "terrain/two-players.txt"
    assert find_example("terrain/specs/example.toml").kind == "spec"
    with pytest.raises(InputError, match="ambiguous"):
        find_example("four-players")
    with pytest.raises(InputError, match="did you mean 'terrain/two-players.txt'"):
        find_example("terrain/two-player.txt")
    # the same name with another suffix is named first, not another game's file of that name
    with pytest.raises(InputError, match="did you mean 'terrace/invalid/off-board.json'\\?"):
        find_example("terrace/invalid/off-board.txt")


def _run(args, env, cwd):
    return subprocess.run([sys.executable, "-m", "terragen", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_terragen_templates_points_at_a_customised_set(tmp_path):
    custom = tmp_path / "mydata"
    shutil.copytree(ROOT / "terragen" / "data", custom)
    (custom / "paper" / "a5.toml").write_text(
        'name = "A5"\nwidth = 148.0\nheight = 210.0\nmargin = 10.0\nbleed = 3.0\nsafe = 3.0\n', encoding="utf-8")
    (custom / "terrain" / "presets" / "hard.toml").unlink()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_TEMPLATES=str(custom))
    proc = _run(["generate", "--players", "2", "--difficulty", "hard", "--out", "b"], env, tmp_path)
    assert proc.returncode == 2
    assert "--difficulty: unknown difficulty 'hard' (choose from easy, medium, brutal)" in proc.stderr  # the custom set's presets
    proc = _run(["kit", "terrace", "--paper", "a5", "--out", "k"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_examples_copy_never_replaces_without_force(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    assert _run(["examples", "copy", "terrain/two-players.txt"], env, tmp_path).returncode == 0
    target = tmp_path / "two-players.txt"
    target.write_text("mine", encoding="utf-8")
    proc = _run(["examples", "copy", "terrain/two-players.txt"], env, tmp_path)
    assert proc.returncode == 2 and "exists already" in proc.stderr
    assert target.read_text(encoding="utf-8") == "mine"
    assert _run(["examples", "copy", "--force", "terrain/two-players.txt"], env, tmp_path).returncode == 0
    assert target.read_bytes() == find_example("terrain/two-players.txt").read_bytes()


def test_copying_a_spec_brings_the_inventory_it_names_so_it_runs(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = _run(["examples", "copy", "terrain/specs/partial-set-radius4.toml"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "partial-inventory.toml").is_file()
    assert find_example("terrain/specs/partial-inventory.toml").kind == "inventory"
    proc = _run(["generate", "--spec", "partial-set-radius4.toml", "--no-balance", "--out", "b"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(("width", "said"), [("nan", "odd.toml:2:9: invalid TOML: number out of range: nan"),
                                             ("inf", "odd.toml:2:9: invalid TOML: number out of range: inf"),
                                             ("-210.0", "odd.toml: width must be 0 to 5000 mm"),
                                             ("1e9", "odd.toml: width must be 0 to 5000 mm")])
def test_a_custom_paper_with_an_impossible_size_is_named(tmp_path, width, said):
    custom = tmp_path / "mydata"
    shutil.copytree(ROOT / "terragen" / "data", custom)
    (custom / "paper" / "odd.toml").write_text(
        f'name = "Odd"\nwidth = {width}\nheight = 297.0\nmargin = 10.0\nbleed = 3.0\nsafe = 3.0\n', encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_TEMPLATES=str(custom))
    proc = _run(["kit", "terrace", "--paper", "odd", "--out", "k"], env, tmp_path)
    assert proc.returncode == 2 and said in proc.stderr, proc.stderr
    assert not (tmp_path / "k").exists() or not any((tmp_path / "k").iterdir())


def test_a_terminal_without_arrows_gets_a_board_it_can_show(tmp_path):
    """A terminal set to latin-1 got exit 70 from the arrows of ``show``."""
    (tmp_path / "b.txt").write_bytes(find_example("terrain/two-players.txt").read_bytes())
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="latin-1")
    proc = subprocess.run([sys.executable, "-m", "terragen", "show", "b.txt"], capture_output=True,
                          cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "L SW, J SE" in proc.stdout.decode("latin-1")


def test_examples_copy_refuses_a_dangling_link_and_copies_a_name_given_twice_once(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    (tmp_path / "two-players.txt").symlink_to(tmp_path / "nowhere")
    proc = _run(["examples", "copy", "terrain/two-players.txt"], env, tmp_path)
    assert proc.returncode == 73 and "link to nothing" in proc.stderr  # refused even with --force
    assert (tmp_path / "two-players.txt").is_symlink()
    (tmp_path / "two-players.txt").unlink()
    proc = _run(["examples", "copy", "terrain/two-players.txt", "two-players"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_examples_copy_names_two_examples_that_share_a_file_name(tmp_path):
    """It said only 'two of the examples have the same file name', though the user typed neither."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = _run(["examples", "copy", "terrain/invalid/player-count.txt", "terralogical/invalid/player-count.txt"],
                env, tmp_path)
    assert proc.returncode == 2 and list(tmp_path.iterdir()) == []
    assert "terrain/invalid/player-count.txt and terralogical/invalid/player-count.txt" in proc.stderr


@pytest.mark.parametrize("example", [ex for ex in list_examples() if ex.kind in ("invalid", "warns")],
                         ids=lambda ex: ex.name)
def test_an_invalid_example_fails_validate_and_a_warning_one_passes_with_its_warning(example, tmp_path, capsys):
    """Three 'invalid' Terrain Game examples drew only a warning, so validate passed them (exit 0)."""
    from terragen.cli import main

    path = tmp_path / example.filename
    path.write_bytes(example.read_bytes())
    command = ["validate"] if example.game == "terrain" else [example.game, "validate"]
    with pytest.raises(SystemExit) as exc:
        main([*command, str(path), "--json"])
    report = json.loads(capsys.readouterr().out)
    code = example.filename.rsplit(".", 1)[0]
    if example.kind == "invalid":
        assert exc.value.code == 1 and code in {f["code"] for f in report["errors"]}
    else:
        assert exc.value.code == 0 and code in {f["code"] for f in report["warnings"]}


def _custom_set(tmp_path: Path) -> Path:
    custom = tmp_path / "mydata"
    shutil.copytree(ROOT / "terragen" / "data", custom)
    (tmp_path / "four-players.txt").write_bytes(find_example("terrain/four-players.txt").read_bytes())
    return custom


def _one_error_line(proc: subprocess.CompletedProcess) -> str:
    """The single line a refused command prints: exit 2, no traceback, no internal error."""
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in lines[0], proc.stderr
    return lines[0]


@pytest.mark.parametrize(("file", "content", "args", "said"), [
    (("terrain", "presets", "medium.toml"), b"turns_band = [11.0\n", ["generate", "--players", "2", "--out", "b"],
     "presets/medium.toml:1:19: invalid TOML: Unclosed array"),
    (("terrain", "presets", "hard.toml"), b'turns_band = "x"\n',
     ["generate", "--players", "2", "--difficulty", "hard", "--out", "b"],
     "presets/hard.toml: preset key 'turns_band' must be a pair"),
    (("terrain", "inventories", "standard.toml"), b"\xff\xfe", ["validate", "four-players.txt"],
     "inventories/standard.toml: UTF-16 text"),
    (("terrain", "inventories", "standard.toml"), b"copies = \xff\n", ["validate", "four-players.txt"],
     "inventories/standard.toml:1:10: not UTF-8 text"),
    (("paper", "a4.toml"), b'width = "abc"\n', ["render", "four-players.txt", "-o", "t.pdf"],
     "paper/a4.toml: a paper template needs 'name'"),
    (("paper", "a4.toml"), b'name = "A4"\nwidth = "abc"\n', ["render", "four-players.txt", "-o", "t.pdf"],
     "paper/a4.toml: 'width' must be a number of millimetres, got \"abc\""),
    (("palettes", "colour.toml"), b"[levels\n", ["render", "four-players.txt", "-o", "t.pdf"],
     "palettes/colour.toml:1:8: invalid TOML"),
])
def test_a_bad_file_in_terragen_templates_is_named_in_one_line(tmp_path, file, content, args, said):
    """TERRAGEN_TEMPLATES is the user's own folder: a typo in it is bad input (exit 2, its file and
    place named), where it was an internal error (a TOMLDecodeError, a UnicodeDecodeError, a KeyError)."""
    custom = _custom_set(tmp_path)
    custom.joinpath(*file).write_bytes(content)
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_TEMPLATES=str(custom))
    line = _one_error_line(_run(args, env, tmp_path))
    assert said in line and str(custom) in line and "TERRAGEN_TEMPLATES" in line, line
    assert not line.startswith("terragen: error: --"), line  # the data folder's file, no option's
    if file[1] == "presets":  # one bad preset stops only its own difficulty (it stopped every generate)
        other = _run(["generate", "--players", "2", "--difficulty", "easy", "--no-balance", "--out", "e"], env, tmp_path)
        assert other.returncode == 0 or "medium.toml" in other.stderr, other.stderr


@pytest.mark.parametrize("how", ["missing", "empty", "a file", "no presets"])
def test_a_missing_or_empty_terragen_templates_folder_is_blamed_on_the_variable(tmp_path, how):
    """It said "spec key 'difficulty' must be one of  (got "medium")": an empty list, the variable unnamed."""
    folder = tmp_path / "mydata"
    if how == "empty":
        folder.mkdir()
    elif how == "a file":
        folder.write_text("x", encoding="utf-8")
    elif how == "no presets":
        folder = _custom_set(tmp_path)
        for preset in (folder / "terrain" / "presets").iterdir():
            preset.unlink()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_TEMPLATES=str(folder))
    line = _one_error_line(_run(["generate", "--players", "2", "--out", "b"], env, tmp_path))
    assert "TERRAGEN_TEMPLATES" in line and str(folder) in line, line
    assert "one of  " not in line
