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


@pytest.mark.parametrize("width", ["nan", "inf", "-210.0", "1e9"])
def test_a_custom_paper_with_an_impossible_size_is_named(tmp_path, width):
    custom = tmp_path / "mydata"
    shutil.copytree(ROOT / "terragen" / "data", custom)
    (custom / "paper" / "odd.toml").write_text(
        f'name = "Odd"\nwidth = {width}\nheight = 297.0\nmargin = 10.0\nbleed = 3.0\nsafe = 3.0\n', encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_TEMPLATES=str(custom))
    proc = _run(["kit", "terrace", "--paper", "odd", "--out", "k"], env, tmp_path)
    assert proc.returncode == 2 and "odd.toml: width must be 0 to 5000 mm" in proc.stderr, proc.stderr
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
