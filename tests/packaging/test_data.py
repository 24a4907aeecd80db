"""Run-time data comes from the package (importlib.resources), or from TERRAGEN_TEMPLATES."""

from __future__ import annotations

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
    assert {ex.kind for ex in found} == {"layout", "invalid", "spec", "inventory"}
    for ex in found:
        assert ex.read_bytes().strip(), ex.name


def test_example_lookup_by_short_name_and_with_a_hint():
    assert find_example("two-players").name == "terrain/two-players.txt"
    assert find_example("terrain/specs/example.toml").kind == "spec"
    with pytest.raises(InputError, match="ambiguous"):
        find_example("four-players")
    with pytest.raises(InputError, match="did you mean 'terrain/two-players.txt'"):
        find_example("terrain/two-player.txt")


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
    assert "'hard' is not one of 'easy', 'medium', 'brutal'" in proc.stderr  # the custom set's presets
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
