"""Write failures are the user's environment: exit 73 with the file and the reason, and a
failed run leaves every earlier file as it was (issue 17). Plus the small promises: render
never overwrites its input or writes PDF bytes into an .svg, simulate and render refuse
what validate calls no game at all."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from terragen.templates import template_path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = Path(str(template_path("terrain", "examples", "two-players.txt")))


def run(*args, cwd: Path = ROOT, file_size: int | None = None, stdin: Path | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:  # a nearly full disk: writes past file_size bytes fail with EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TERRAGEN_DEBUG", None)
    with open(stdin if stdin else os.devnull, "rb") as given:
        return subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                              cwd=cwd, env=env, timeout=180, preexec_fn=limit if file_size else None, stdin=given)


def one_line(p: subprocess.CompletedProcess) -> str:
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    return lines[0]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_generate_on_a_full_disk_keeps_the_old_board(tmp_path):
    out = tmp_path / "board"
    out.mkdir()
    for name in ("board.json", "board.txt", "board.svg"):
        (out / name).write_text(f"old {name}\n")
    before = snapshot(out)
    # board.json (~18 KB) and board.txt (~7 KB) fit under the cap, board.svg (~40 KB) does not
    p = run("generate", "--players", "2", "--difficulty", "easy", "--seed", "5", "--no-gate", "--out", out,
            "--force", file_size=30_000)
    assert p.returncode == 73, p.stderr
    line = one_line(p)
    assert "cannot write" in line and "board.svg" in line
    assert snapshot(out) == before  # nothing replaced, no temporary left


def test_kit_on_a_full_disk_keeps_the_old_kit(tmp_path):
    out = tmp_path / "kit"
    out.mkdir()
    (out / "terrain-rules-a4.pdf").write_bytes(b"old rules")
    p = run("kit", "terrain", "--out", out, "--force", file_size=40_000)
    assert p.returncode == 73, p.stderr
    assert "cannot write" in one_line(p)
    assert snapshot(out) == {"terrain-rules-a4.pdf": b"old rules"}
    p = run("kit", "terrain", "--out", tmp_path / "new" / "kit", file_size=40_000)  # folders it made go too
    assert p.returncode == 73 and not (tmp_path / "new").exists(), p.stderr


@pytest.mark.parametrize("command", [
    ["generate", "--players", "2", "--difficulty", "easy", "--no-gate", "--out", "{out}"],
    ["kit", "terrain", "--out", "{out}"],
    ["batch", "--count", "1", "--kind", "route", "--out", "{out}", "--no-progress"],
    ["render", str(EXAMPLE), "--out", "{out}/sheet.pdf"],
], ids=["generate", "kit", "batch", "render"])
def test_out_below_a_file_is_exit_73(command, tmp_path):
    (tmp_path / "afile").write_text("x")
    args = [a.replace("{out}", str(tmp_path / "afile" / "sub")) for a in command]
    p = run(*args)
    assert p.returncode == 73, p.stderr
    assert "afile" in one_line(p) and "not a folder" in p.stderr


@pytest.mark.parametrize("command", [
    ["generate", "--players", "2", "--difficulty", "easy", "--no-gate", "--out", "{out}"],
    ["kit", "terrain", "--out", "{out}"],
    ["batch", "--count", "1", "--kind", "route", "--out", "{out}", "--no-progress"],
], ids=["generate", "kit", "batch"])
def test_an_out_folder_that_is_a_link_to_nothing_is_named_as_one(command, tmp_path):
    """An output folder that is a dangling link said only "cannot write dlk: File exists" (mkdir's
    word); it now says what a file output that is one says, and nothing is made at its target."""
    link = tmp_path / "dlk"
    link.symlink_to(tmp_path / "nowhere")
    p = run(*[a.replace("{out}", str(link)) for a in command])
    assert p.returncode == 73, p.stderr
    line = one_line(p)
    assert "dlk: it is a link to nothing" in line and "remove the link or give another name" in line, line
    assert not (tmp_path / "nowhere").exists()


def test_render_refuses_a_format_its_out_suffix_contradicts(tmp_path):
    p = run("render", EXAMPLE, "--format", "pdf", "--out", tmp_path / "x.svg")
    assert p.returncode == 2 and ".svg" in one_line(p)
    assert not (tmp_path / "x.svg").exists()
    p = run("render", EXAMPLE, "--out", tmp_path / "x.svg")  # the suffix decides when --format is not given
    pages = sorted(tmp_path.glob("x*.svg"))  # one file, or x-p01.svg ... for a multi-page sheet
    assert p.returncode == 0 and pages and all(page.read_bytes().startswith(b"<svg") for page in pages)


@pytest.mark.parametrize("command", ["validate", "terraflip", "terralogical", "render-link", "convert", "convert-stdin",
                                     "generate", "generate-inventory"])
def test_no_output_replaces_the_commands_own_input_even_with_force(tmp_path, command):
    """--force asks to replace an earlier result, not the layout, tile set or deck being read."""
    deck = Path(str(template_path("terralogical", "default-deck.json")))
    if command == "validate":
        source = tmp_path / "board.txt"
        source.write_text(EXAMPLE.read_text())
        args = ["validate", source, "--svg", source, "--force"]
    elif command == "terraflip":
        source = tmp_path / "tiles.json"
        assert run("terraflip", "tiles", "--out", source).returncode == 0
        args = ["terraflip", "play", "--games", "2", "--tiles", source, "--out", source, "--force"]
    elif command == "terralogical":
        source = tmp_path / "deck.json"
        source.write_text(deck.read_text())
        args = ["terralogical", "play", "--games", "1", "--deck", source, "--record", source, "--force"]
    elif command == "convert":  # the same file by another spelling
        source = tmp_path / "board.txt"
        source.write_text(EXAMPLE.read_text())
        args = ["convert", source, f"{tmp_path}/./board.txt", "--force"]
    elif command == "convert-stdin":  # `convert - board.txt < board.txt`
        source = tmp_path / "board.txt"
        source.write_text(EXAMPLE.read_text())
        args = ["convert", "-", source, "--force"]
    elif command == "generate-inventory":  # an inventory file kept in the board's folder under a board's name
        source = tmp_path / "board.txt"
        source.write_text('name = "mine"\ncopies = 3\n')
        args = ["generate", "--players", "2", "--inventory", source, "--out", tmp_path, "--force", "--no-balance"]
    elif command == "generate":  # a spec kept in the board's folder under one of the board's names
        source = tmp_path / "board.txt"
        source.write_text('players = 2\ndifficulty = "easy"\n')
        args = ["generate", "--spec", source, "--out", tmp_path, "--force", "--no-balance"]
    else:  # the same file under another name
        source = tmp_path / "board.txt"
        source.write_text(EXAMPLE.read_text())
        (tmp_path / "link.pdf").symlink_to(source)
        args = ["render", source, "--out", tmp_path / "link.pdf", "--force"]
    before = source.read_bytes()
    p = run(*args, stdin=source if command == "convert-stdin" else None)
    assert p.returncode == 2 and ("would replace it" in one_line(p) or "would be overwritten" in one_line(p))
    assert source.read_bytes() == before


def test_an_output_named_as_a_folder_is_refused(tmp_path):
    """``convert a.txt new/`` once wrote a file called ``new``."""
    for args in (["convert", EXAMPLE, f"{tmp_path}/new/"], ["render", EXAMPLE, "--out", f"{tmp_path}/new/"],
                 ["render", EXAMPLE, "--format", "svg", "--out", f"{tmp_path}/new/"]):
        p = run(*args, cwd=tmp_path)
        assert p.returncode == 2 and "names a folder (it ends in '/'), expected a file name" in one_line(p), args
        assert list(tmp_path.iterdir()) == [], args


def test_render_never_overwrites_its_own_input(tmp_path):
    layout = tmp_path / "board.txt"
    layout.write_text(EXAMPLE.read_text())
    p = run("render", layout, "--format", "svg", "--out", layout)
    assert p.returncode == 2 and "would be overwritten" in one_line(p)
    assert layout.read_text() == EXAMPLE.read_text()


@pytest.mark.parametrize("players", [0, 1, 7])
def test_simulate_and_render_refuse_what_validate_calls_no_game(players, tmp_path):
    data = json.loads(Path(str(template_path("terrain", "examples", "four-players.json"))).read_text())
    data["players"] = [{"seat": i, "corner": i % 6, "destinations": [{"q": 0, "r": 0}]} for i in range(players)]
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps(data))
    assert run("validate", layout).returncode == 1
    p = run("simulate", layout, "--games", "20")
    assert p.returncode == 1 and "player" in one_line(p) and "PLAYABLE" not in p.stdout
    p = run("simulate", layout, "--games", "20", "--json")
    assert p.returncode == 1 and json.loads(p.stdout)["playable"] is False
    p = run("render", layout, "--out", tmp_path / "sheet.pdf")
    if players == 1:  # a batch puzzle has one player: drawn, with a warning
        assert p.returncode == 0 and (tmp_path / "sheet.pdf").exists()
        return
    assert p.returncode == 1 and "player" in one_line(p)
    assert not (tmp_path / "sheet.pdf").exists()


@pytest.mark.parametrize("flag,value", [("--time-limit", "nan"), ("--time-limit", "inf"), ("--gate-margin", "nan")])
def test_non_finite_numbers_are_bad_usage(flag, value):
    p = run("generate", "--players", "2", flag, value)
    assert p.returncode == 2 and "finite" in one_line(p)


@pytest.mark.parametrize("stderr", ["closed", "full"])
def test_an_unwritable_stderr_keeps_the_exit_status(tmp_path, stderr):
    """The error line may not get out (stderr closed, or /dev/full), but the status must still say
    what it stands for: a malformed input is 2, not 1."""
    bad = tmp_path / "trunc.json"
    bad.write_text('{"radius": 5, "cel')
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TERRAGEN_DEBUG", None)
    cmd = [sys.executable, "-m", "terragen", "validate", str(bad)]
    if stderr == "closed":
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(2), env=env, timeout=60)
    else:
        with open("/dev/full", "w") as full:
            p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=full, env=env, timeout=60)
    assert p.returncode == 2


def test_a_warning_that_stderr_cannot_take_leaves_a_success_a_success(tmp_path):
    """render warns about a stale piece id and draws: with stderr on /dev/full that was exit 73."""
    layout = json.loads(Path(str(template_path("terrain", "examples", "four-players.json"))).read_text())
    layout["cells"][0]["piece"] = "9Z9"
    src = tmp_path / "board.json"
    src.write_text(json.dumps(layout))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TERRAGEN_DEBUG", None)
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "terragen", "render", str(src), "--out", str(tmp_path / "b.pdf")],
                           stdout=subprocess.DEVNULL, stderr=full, env=env, timeout=120)
    assert p.returncode == 0 and (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF")


def test_data_a_pipes_encoding_cannot_hold_is_refused_not_changed(tmp_path):
    """With PYTHONIOENCODING=latin-1, a player called 東京 once came out as '??' with exit 0."""
    data = json.loads(Path(str(template_path("terralogical", "examples", "two-players-finished.json"))).read_text())
    name = data["players"][0]
    data["players"][0] = "東京"
    for tile in data["tiles"]:
        if tile.get("cube") == name:
            tile["cube"] = "東京"
    (tmp_path / "b.json").write_text(json.dumps(data), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="latin-1")
    p = subprocess.run([sys.executable, "-m", "terragen", "convert", "b.json", "--to", "text"], capture_output=True,
                       cwd=tmp_path, env=env, timeout=120)
    assert p.returncode == 73 and p.stdout == b""
    assert b"encoding latin-1" in p.stderr and b"PYTHONIOENCODING=utf-8" in p.stderr


@pytest.mark.parametrize("args", [["terraflip", "play", "--games", "1", "--tiles", ""],
                                  ["generate", "--spec", "", "--no-balance"],
                                  ["kit", "terrain", "--out", ""],
                                  ["validate", EXAMPLE, "--svg", ""],
                                  ["validate", EXAMPLE, "--inventory", ""],
                                  ["terralogical", "play", "--games", "1", "--deck", ""],
                                  ["terrace", "show", ""],
                                  ["convert", EXAMPLE, ""]])
def test_an_empty_file_name_is_refused_not_read_as_not_given(tmp_path, args):
    """``--tiles "$TILES"`` with TILES unset once played the default tile set, and ``--out ''``
    wrote into the current folder."""
    p = run(*args, cwd=tmp_path)
    assert p.returncode == 2 and "an empty name" in one_line(p)
    assert list(tmp_path.iterdir()) == []


def test_two_outputs_that_are_one_file_through_a_link_are_refused_before_the_work(tmp_path):
    """generate once wrote board.json and then board.txt through a link onto it, so the JSON
    board held the text form."""
    out = tmp_path / "g"
    out.mkdir()
    (out / "board.json").write_text("old")
    (out / "board.txt").symlink_to("board.json")
    p = run("generate", "--players", "2", "--difficulty", "easy", "--no-gate", "--out", out, "--force")
    assert p.returncode == 2 and "are the same file" in one_line(p)
    assert (out / "board.json").read_text() == "old"


@pytest.mark.parametrize("args", [["terraflip", "play", "--players", "2", "--games", "1", "--out", "-"],
                                  ["terralogical", "play", "--games", "1", "--record", "-"],
                                  ["render", "LAYOUT", "--out", "-"]])
def test_dash_is_no_output_file_name(tmp_path, args):
    """'-' made a file called '-' (it is standard input or output everywhere else). Where the output
    is a file besides a report, '-' is refused; terrace setup, whose output is stdout without
    --out, prints (tests/cli/test_option_values.py)."""
    from terragen.templates import template_path

    args = [str(template_path("terrain", "examples", "two-players.txt")) if a == "LAYOUT" else a for a in args]
    p = run(*args, cwd=tmp_path)
    assert p.returncode == 2 and "'-' (standard output) cannot take this output" in one_line(p)
    assert "leave the option out" not in p.stderr  # render writes a file without --out: it never prints
    assert list(tmp_path.iterdir()) == []


def test_a_file_where_an_outputs_folder_goes_stops_the_command_before_it_plays(tmp_path):
    (tmp_path / "afile").write_text("x")
    p = run("terraflip", "play", "--players", "2", "--games", "100000", "--out", tmp_path / "afile" / "r.json")
    assert p.returncode == 73 and "afile is a file, not a folder" in one_line(p)


@pytest.mark.parametrize("args", [["terraflip", "play", "--players", "2", "--games", "1", "--policy", "random,"],
                                  ["terrace", "play", "--games", "1", "--policy", ",random"],
                                  ["terralogical", "play", "--games", "1", "--policy", "random,,greedy"],
                                  ["simulate", EXAMPLE, "--games", "10", "--policy", "greedy,"],
                                  ["terraflip", "play", "--players", "2", "--games", "1", "--bonus", "-1,0"]])
def test_lists_of_names_and_bonuses_are_checked_whole(args):
    """An empty policy name was dropped, so another seat's player played; a negative bonus ran."""
    p = run(*args)
    assert p.returncode == 2 and ("an empty name" in one_line(p) or "--bonus values" in one_line(p))


@pytest.mark.parametrize("command", [["convert", EXAMPLE, "{long}.json"], ["convert", EXAMPLE, "{long}/x.json"],
                                     ["render", EXAMPLE, "--out", "{long}.pdf"],
                                     ["generate", "--players", "2", "--no-balance", "--out", "{long}"]])
def test_a_name_too_long_for_the_system_is_exit_73(tmp_path, command):
    """A name part past the system's 255 bytes under an existing folder was an internal error (exit 70)."""
    args = [a.replace("{long}", str(tmp_path / ("a" * 300))) if isinstance(a, str) else a for a in command]
    p = run(*args)
    assert p.returncode == 73 and "cannot write" in one_line(p)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["terralogical", "deck", "--seed", "2"], ["terraflip", "tiles", "--seed", "2"]])
def test_dash_prints_a_set_as_no_out_does(tmp_path, args):
    """The deck and tile set print themselves without --out, yet '--out -' was refused, where convert
    and terrace setup take it as standard output."""
    plain = run(*args, cwd=tmp_path)
    dash = run(*args, "--out", "-", cwd=tmp_path)
    assert dash.returncode == plain.returncode == 0 and dash.stdout == plain.stdout and dash.stdout.startswith("{")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_takes_no_files_is_refused_before_the_work(tmp_path, monkeypatch, capsys):
    """A read-only or immutable --out folder was found after the whole search (19.8 s of a five-seat
    brutal run). Root ignores permission bits, so the folder's refusal is made up here."""
    from terragen.cli import main

    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if Path(path) == locked
                        else real_access(path, mode, **kw))
    for args in (["generate", "--players", "5", "--difficulty", "brutal", "--out", locked / "b"],
                 ["render", EXAMPLE, "--out", locked / "x.pdf"],
                 ["batch", "--count", "2", "--kind", "route", "--difficulty", "easy", "--out", locked / "p"]):
        with pytest.raises(SystemExit) as exc:
            main([str(a) for a in args])
        err = capsys.readouterr().err
        assert exc.value.code == 73 and "locked" in err and "does not let files be made in it" in err, err
    assert list(locked.iterdir()) == []
    # a link in the locked folder to a file elsewhere is written through: its target's folder decides
    (tmp_path / "open").mkdir()
    (tmp_path / "open" / "x.pdf").write_bytes(b"old")
    monkeypatch.undo()
    (locked / "x.pdf").symlink_to(tmp_path / "open" / "x.pdf")
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if Path(path) == locked
                        else real_access(path, mode, **kw))
    with pytest.raises(SystemExit) as exc:
        main(["render", str(EXAMPLE), "--out", str(locked / "x.pdf"), "--force", "-q"])
    assert exc.value.code == 0 and (tmp_path / "open" / "x.pdf").read_bytes().startswith(b"%PDF")
