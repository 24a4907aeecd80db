"""The command line: outputs, byte-identical reruns, one-line errors with exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from terragen.terraflip.formats import position_from_state
from terragen.terraflip.simulate import play_game


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "terragen", "terraflip", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_tiles_same_seed_byte_identical(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run("tiles", "--seed", "4", "--out", str(a)).returncode == 0
    assert run("tiles", "--seed", "4", "--out", str(b)).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    data = json.loads(a.read_text())
    assert data["game"] == "terraflip" and data["kind"] == "tileset"
    assert list(data) == sorted(data)
    assert data["stats"]["hidden_under"] == {"blue": 9, "gray": 9, "green": 9, "yellow": 9}
    play = run("play", "--players", "2", "--games", "2", "--seed", "1", "--tiles", str(a), "--policy", "random",
               "--json")
    assert play.returncode == 0, play.stderr
    assert json.loads(play.stdout)["players"] == 2


def test_infeasible_tiles_exit_3_one_line():
    res = run("tiles", "--per-family", "8")
    assert res.returncode == 3
    assert res.stderr.count("\n") == 1 and "8 tiles per family" in res.stderr


@pytest.mark.parametrize("args,code", [
    (("play", "--players", "5"), 2),
    (("play", "--tiles", "/no/such/file.json"), 2),
    (("play", "--bonus", "3,x"), 2),
    (("play", "--policy", "clever"), 2),
    (("validate", "/no/such/position.txt"), 2),
])
def test_bad_input_is_one_line(args, code):
    res = run(*args)
    assert res.returncode == code
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr


def test_validate_command(tmp_path):
    state = play_game(2, ("random", "random"), 1, None, None)
    good = tmp_path / "good.txt"
    good.write_text(position_from_state(state).to_text())
    res = run("validate", str(good))
    assert res.returncode == 0 and "valid" in res.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("game: terraflip\nplayers: blue green\n6 0 blue-river blue/green\n")
    res = run("validate", str(bad), "--json")
    assert res.returncode == 1
    data = json.loads(res.stdout)
    assert {e["code"] for e in data["errors"]} == {"tile-too-far", "disconnected-tile"}
    assert data["errors"][0]["line"] == 3


def test_play_output_same_across_processes_and_hash_seeds(tmp_path):
    import os

    outs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        res = subprocess.run([sys.executable, "-m", "terragen", "terraflip", "play", "--players", "3", "--games",
                              "2", "--seed", "5", "--policy", "memory", "--out", str(tmp_path / f"{hash_seed}.json")],
                             capture_output=True, text=True, env=env)
        assert res.returncode == 0, res.stderr
        outs.append((tmp_path / f"{hash_seed}.json").read_bytes())
    assert outs[0] == outs[1]


def test_bad_tile_file_is_one_line(tmp_path):
    bad = tmp_path / "t.json"
    bad.write_text('{"game": "terraflip", "kind": "tileset", "tiles": {"per_family": 9, "backs": {}}}')
    res = run("play", "--tiles", str(bad), "--games", "1")
    assert res.returncode == 2 and "no back colour" in res.stderr and res.stderr.count("\n") == 1


def test_a_suggested_bonus_is_written_as_bonus_takes_it(tmp_path):
    """The report printed '[5, 4, 2, 0]', which --bonus refuses; it names the file it wrote, too."""
    import os
    import re

    from tests.cli.test_batch import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "terragen", "terraflip", "play", "--games", "6", "--out",
                        str(tmp_path / "r.json")], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "[" not in p.stdout.split("95% interval")[0] and f"written: {tmp_path / 'r.json'}" in p.stdout
    suggested = re.search(r"even the mean scores: --bonus (\S+)", p.stdout).group(1)
    again = subprocess.run([sys.executable, "-m", "terragen", "terraflip", "play", "--games", "2", "--bonus", suggested],
                           capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0, again.stderr


def test_an_own_colour_count_that_cannot_work_names_those_that_can():
    """--own 2 was refused naming the clash but not a value that works; --own 9 (every tile) was
    taken without a word, a game in which no flip changes hands."""
    import os

    from tests.cli.test_batch import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "terragen", "terraflip", "tiles", "--own", "2"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert p.returncode == 3 and "--own 0, 3, 6 or 9" in p.stderr, p.stderr
    p = subprocess.run([sys.executable, "-m", "terragen", "terraflip", "tiles", "--own", "9", "--seed", "1"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0 and "warning: --own 9 is every tile" in p.stderr, p.stderr
