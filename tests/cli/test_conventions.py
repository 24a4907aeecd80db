"""Issue 15: a command line that behaves the same everywhere and never surprises.

One test (or more) per item of the issue; each runs the CLI as a user would.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from terragen.cli import COMMANDS, cli, main
from tests.terrain.helpers import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
INVALID = EXAMPLES / "invalid"
DATA = ROOT / "terragen" / "data"


def run_cli(capsys, *args, cwd=None):
    """Run ``terragen ARGS`` in this process: (exit status, stdout, stderr)."""
    old = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with pytest.raises(SystemExit) as exc:
            main([str(a) for a in args])
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def run_proc(*args, cwd=None, env=None):
    e = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}  # env may name PYTHONPATH too
    e.pop("TERRAGEN_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=e, timeout=120)


def leaf_commands():
    """(path, command) for every command a user can run, groups expanded."""
    out = []

    def walk(path, cmd):
        if isinstance(cmd, click.Group):
            ctx = click.Context(cmd)
            for name in cmd.list_commands(ctx):
                walk(f"{path} {name}", cmd.get_command(ctx, name))
        else:
            out.append((path, cmd))

    ctx = click.Context(cli)
    for name in COMMANDS:
        walk(name, cli.get_command(ctx, name))
    return out


LEAVES = leaf_commands()


# --- 1. names that say what is in them; nothing replaced without --force ------------------------

def test_generate_names_its_folder_and_never_overwrites(tmp_path, capsys):
    two = ("generate", "--players", "2", "--difficulty", "easy", "--no-gate", "-q")
    code, out, err = run_cli(capsys, *two, cwd=tmp_path)
    assert code == 0, err
    assert out == ""  # -q: nothing but errors
    code, _, err = run_cli(capsys, "generate", "--players", "3", "--difficulty", "easy", "--no-gate", "-q", cwd=tmp_path)
    assert code == 0, err
    folders = sorted(p.name for p in (tmp_path / "output").iterdir())
    assert folders == ["terrain-2p-easy-seed0", "terrain-3p-easy-seed0"]
    board = tmp_path / "output" / "terrain-2p-easy-seed0" / "board.json"
    board.write_text("mine")
    code, _, err = run_cli(capsys, *two, cwd=tmp_path)
    assert code == 2 and "--force" in err and len(err.strip().splitlines()) == 1
    assert board.read_text() == "mine"
    code, _, err = run_cli(capsys, *two, "--force", cwd=tmp_path)
    assert code == 0 and board.read_text() != "mine"


@pytest.mark.parametrize("make", [
    lambda d: ("convert", EXAMPLES / "two-players.txt", d / "out.json"),
    lambda d: ("validate", EXAMPLES / "two-players.txt", "--svg", d / "out.svg"),
    lambda d: ("render", EXAMPLES / "two-players.txt", "--out", d / "out.pdf"),
    lambda d: ("terrace", "setup", "short", "--out", d / "out.txt"),
], ids=["convert", "validate-svg", "render", "terrace-setup"])
def test_every_writer_refuses_an_existing_file_without_force(tmp_path, capsys, make):
    args = make(tmp_path)
    target = next(a for a in args if isinstance(a, Path) and a.parent == tmp_path)
    target.write_text("keep me")
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and "exists already" in err and "--force" in err
    assert target.read_text() == "keep me"
    code, _, err = run_cli(capsys, *args, "--force")
    assert code == 0, err
    assert target.read_bytes() != b"keep me"


def test_every_command_that_writes_files_has_force():
    writers = [p for p, c in LEAVES if any(o.name in ("out", "out_dir", "svg_out", "record") for o in c.params)]
    assert writers
    for path, cmd in LEAVES:
        names = {p.name for p in cmd.params}
        if path in writers or path == "convert":
            assert "force" in names, f"{path} writes files but has no --force"


# --- 2. the text parser recovers and reports every problem -----------------------------------

BROKEN = """radius: 2
map:
    5B3 4A0 3C1
  6D0 5A2 4B4
7A1 6B1 9C5 3D1 1A0
  8A0 6C2 4D0 2B3
    7B2 5E1 3A4
player:
seat 0 corner 0 dest -1,1
seat 1 corner 3 dest 0,2
"""


def test_validate_reports_every_problem_of_a_broken_text_file(tmp_path, capsys):
    f = tmp_path / "broken.txt"
    f.write_text(BROKEN)
    code, out, err = run_cli(capsys, "validate", f)
    assert code == 2  # malformed input, but the whole file was still checked
    assert "4:" in out and "row r=-1 has 3 positions" in out  # the short row, skipped
    assert "[level-out-of-range]" in out and "[pattern-unknown]" in out
    assert "did you mean 'players:'" in out
    assert "map has" not in out  # the player lines were not taken for map rows
    assert len(err.strip().splitlines()) == 1 and "broken.txt:4:" in err and "Traceback" not in err


def test_validate_json_always_prints_a_document(tmp_path, capsys):
    f = tmp_path / "broken.txt"
    f.write_text(BROKEN)
    code, out, _ = run_cli(capsys, "validate", f, "--json")
    data = json.loads(out)
    assert code == 2 and data["valid"] is False and data["readable"] is False
    assert {"syntax", "level-out-of-range", "pattern-unknown"} <= {e["code"] for e in data["errors"]}
    for bad in (tmp_path / "missing.txt", tmp_path):
        code, out, err = run_cli(capsys, "validate", bad, "--json")
        data = json.loads(out)
        assert code == 2 and data["errors"][0]["code"] == "unreadable" and err.strip()
        assert not data["errors"][0]["message"].startswith(str(bad))  # the file is named once, as "file"
    (tmp_path / "e.json").write_text('{"format": "terrain",\n "radius": ')
    code, out, _ = run_cli(capsys, "validate", tmp_path / "e.json", "--json")
    error = json.loads(out)["errors"][0]
    assert code == 2 and "invalid JSON" in error["message"]
    assert (error["code"], error["line"], error["col"]) == ("syntax", 2, 12)  # where, as the text form's errors
    assert error["message"].startswith("invalid JSON")  # the place is in its fields, not repeated in the message
    (tmp_path / "n.json").write_text('{"format": "terrain",\n "radius": NaN}')
    code, out, _ = run_cli(capsys, "validate", tmp_path / "n.json", "--json")
    error = json.loads(out)["errors"][0]
    assert code == 2 and (error["code"], error["line"], error["col"]) == ("syntax", 2, 12)


@pytest.mark.parametrize("command", [("terraflip", "validate"), ("terralogical", "validate"), ("terrace", "validate"),
                                     ("validate",)])
def test_every_validate_prints_json_for_an_unreadable_file(tmp_path, capsys, command):
    for bad in (tmp_path / "missing.txt", tmp_path):
        code, out, err = run_cli(capsys, *command, bad, "--json")
        data = json.loads(out)
        assert code == 2 and not data["readable"] and data["errors"][0]["code"] == "unreadable"
        assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("wrong, right, fix", [
    ("player:", "player:", "players:"),
    ("map:", "mpa:", "map:"),
    ("radius: 2", "raduis: 2", "radius:"),
])
def test_misspelt_sections_get_a_suggestion(tmp_path, capsys, wrong, right, fix):
    f = tmp_path / "t.txt"
    f.write_text(BROKEN.replace(wrong, right))
    _, out, _ = run_cli(capsys, "validate", f)
    assert f"did you mean '{fix}'" in out


# --- 3. the text form people edit carries no generator metadata -------------------------------

def test_generated_text_form_can_be_edited_without_errors(tmp_path, capsys):
    code, _, err = run_cli(capsys, "generate", "--players", "2", "--difficulty", "easy", "--no-gate", "-q",
                           "--out", tmp_path / "g")
    assert code == 0, err
    text = (tmp_path / "g" / "board.txt").read_text()
    assert "extra:" not in text and "board.json" in text  # points people to the metadata
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if line.strip() and line.strip()[0].isdigit())
    first = lines[row].split()[0]
    level = int(first[0])
    lines[row] = lines[row].replace(first, f"{level % 8 + 1}{first[1:]}", 1)  # a hand edit: another level
    (tmp_path / "edited.txt").write_text("\n".join(lines) + "\n")
    _, out, _ = run_cli(capsys, "validate", tmp_path / "edited.txt", "--json")
    assert "piece-id-mismatch" not in out


def test_converted_text_keeps_every_key_and_a_stale_id_is_only_a_warning(tmp_path, capsys):
    run_cli(capsys, "generate", "--players", "2", "--difficulty", "easy", "--no-gate", "-q", "--out", tmp_path / "g")
    src = tmp_path / "g" / "board.json"
    assert '"piece"' in src.read_text()
    run_cli(capsys, "convert", src, tmp_path / "b.txt")
    run_cli(capsys, "convert", tmp_path / "b.txt", tmp_path / "b.json")
    assert json.loads((tmp_path / "b.json").read_text()) == json.loads(src.read_text())  # lossless
    text = (tmp_path / "b.txt").read_text()
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("map:")) + 3
    token = lines[row].split()[2]
    other = "A" if token[1] != "A" else "B"
    lines[row] = lines[row].replace(token, token[0] + other + token[2:], 1)
    (tmp_path / "edited.txt").write_text("\n".join(lines) + "\n")
    _, out, _ = run_cli(capsys, "validate", tmp_path / "edited.txt", "--json")
    data = json.loads(out)
    assert "piece-id-mismatch" in {w["code"] for w in data["warnings"]}
    assert "piece-id-mismatch" not in {e["code"] for e in data["errors"]}
    code, _, err = run_cli(capsys, "render", tmp_path / "edited.txt", "--format", "svg", "--out", tmp_path / "e.svg")
    assert code == 0 and "no longer match" in err  # the sheet would print the stale id: say so


# --- 4. render says when a layout breaks the rules -------------------------------------------

def test_render_warns_about_an_invalid_layout_and_strict_refuses(tmp_path, capsys):
    bad = INVALID / "level-out-of-range.txt"
    code, _, err = run_cli(capsys, "render", bad, "--format", "svg", "--out", tmp_path / "a.svg")
    assert code == 0 and "warning" in err and "level-out-of-range" in err and list(tmp_path.glob("a*.svg"))
    code, _, err = run_cli(capsys, "render", bad, "--format", "svg", "--out", tmp_path / "b.svg", "--strict")
    assert code == 1 and "level-out-of-range" in err and not list(tmp_path.glob("b*.svg"))
    code, out, _ = run_cli(capsys, "render", bad, "--out", tmp_path / "b.pdf", "--strict", "--json")
    doc = json.loads(out)  # a script that asked for JSON learns why nothing was drawn
    assert code == 1 and doc["valid"] is False and doc["files"] == [] and doc["errors"]
    code, _, err = run_cli(capsys, "render", EXAMPLES / "two-players.txt", "--format", "svg", "--out", tmp_path / "c.svg")
    assert code == 0 and err == ""


def test_render_strict_refuses_in_one_line_naming_the_first_problem_and_how_many_more(tmp_path, capsys):
    """The refusal was one ``terragen render: error:`` line per problem; an error is one line."""
    bad = INVALID / "destination-count.txt"  # two problems: seats 0 and 1 have no destination
    code, out, err = run_cli(capsys, "render", bad, "--out", tmp_path / "b.pdf", "--strict")
    lines = err.splitlines()
    assert code == 1 and len(lines) == 1 and not (tmp_path / "b.pdf").exists(), err
    assert lines[0].startswith("terragen: error: ") and "seat 0 has 0 destination" in lines[0]
    assert "seat 1" not in lines[0] and lines[0].endswith("(and 1 more; see 'terragen validate')")
    code, out, err = run_cli(capsys, "render", bad, "--out", tmp_path / "b.pdf", "--strict", "--json")
    assert code == 1 and len(json.loads(out)["errors"]) == 2 and len(err.splitlines()) == 1


def test_warnings_say_terragen_warning_as_errors_say_terragen_error(tmp_path, capsys):
    """Each command put its own name in its warnings, and ``kit terralogical`` put one no command
    has (``terragen terralogical kit: warning:``); every warning now reads ``terragen: warning:``."""
    code, _, err = run_cli(capsys, "render", INVALID / "destination-count.txt", "--out", tmp_path / "b.pdf")
    assert code == 0 and all(line.startswith("terragen: warning: ") for line in err.splitlines())
    assert len(err.splitlines()) == 2  # drawn all the same: one warning per problem, as its help says
    code, _, _ = run_cli(capsys, "terralogical", "deck", "--param", "tiles=5", "--out", tmp_path / "d5.json")
    code, _, err = run_cli(capsys, "kit", "terralogical", "--deck", tmp_path / "d5.json", "--out", tmp_path / "kit",
                           "--format", "svg")
    assert code == 0 and err.startswith("terragen: warning: a deck of 5 land tiles"), err
    assert "terralogical kit" not in err


def test_the_two_forms_of_an_error_line_are_the_ones_docs_cli_md_gives(tmp_path, capsys):
    """docs/cli.md promised every error as ``terragen: error: ...``; an option click refuses reads
    ``terragen COMMAND: error: ...`` (with its help's name). The page now gives both, and a warning's."""
    doc = " ".join((ROOT / "docs" / "cli.md").read_text().split())
    code, _, err = run_cli(capsys, "generate", "--players", "abc")
    assert code == 2 and err.startswith("terragen generate: error: ") and "`terragen COMMAND: error:`" in doc
    code, _, err = run_cli(capsys, "validate", tmp_path / "missing.txt")
    assert code == 2 and err.startswith("terragen: error: ") and "It starts `terragen: error:`" in doc
    assert "`terragen: warning: ...`" in doc


# --- 5. convert, and scenario files everywhere -------------------------------------------------

@pytest.mark.parametrize("make_text", [
    lambda cap: (EXAMPLES / "two-players.txt").read_text(),
    lambda cap: run_cli(cap, "terrace", "setup", "four")[1],
    lambda cap: (DATA / "terralogical" / "examples" / "three-players-start.txt").read_text(),
    lambda cap: (DATA / "terraflip" / "examples" / "three-players-midgame.txt").read_text(),
], ids=["terrain", "terrace", "terralogical", "terraflip"])
def test_convert_round_trips_text_and_json(tmp_path, capsys, make_text):
    (tmp_path / "a.txt").write_text(make_text(capsys))
    assert run_cli(capsys, "convert", tmp_path / "a.txt", tmp_path / "a.json")[0] == 0
    assert run_cli(capsys, "convert", tmp_path / "a.json", tmp_path / "b.txt")[0] == 0
    assert run_cli(capsys, "convert", tmp_path / "b.txt", tmp_path / "b.json")[0] == 0
    assert json.loads((tmp_path / "a.json").read_text()) == json.loads((tmp_path / "b.json").read_text())
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()


def test_convert_to_stdout_with_json_prints_a_document_holding_the_result(capsys):
    code, out, _ = run_cli(capsys, "convert", EXAMPLES / "two-players.txt", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["game"] == "terrain" and doc["form"] == "json" and doc["out"] is None
    assert json.loads(doc["content"])["game"] == "terrain"


def test_convert_out_dash_prints_and_writes_no_file_named_dash(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli(capsys, "convert", EXAMPLES / "two-players.txt", "-")
    assert code == 0 and json.loads(out)["game"] == "terrain"
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    from terragen.terrain.puzzles.batch import run_batch

    out = tmp_path_factory.mktemp("batch")
    run_batch(1, "route", "easy", 3, out, workers=1, booklet=False)
    return next((out / "scenarios").glob("*.json"))


def test_scenario_files_work_as_layouts(tmp_path, capsys, scenario):
    code, out, _ = run_cli(capsys, "validate", scenario, "--json")
    assert code in (0, 1) and json.loads(out)["game"] == "terrain"
    code, _, err = run_cli(capsys, "convert", scenario, tmp_path / "layout.json")
    assert code == 0, err
    layout = json.loads((tmp_path / "layout.json").read_text())
    assert layout["game"] == "terrain" and layout == json.loads(scenario.read_text())["layout"] | {"version": 1}
    code, _, err = run_cli(capsys, "render", scenario, "--format", "svg", "--out", tmp_path / "s.svg")
    assert code == 0 and list(tmp_path.glob("s*.svg")), err
    assert err == ""  # a puzzle's one player is drawn as it is: every puzzle drawn warned of it
    code, _, err = run_cli(capsys, "render", scenario, "--strict", "--out", tmp_path / "s.pdf")
    assert code == 0 and err == ""  # a puzzle breaks no rule of its own, as validate now says too
    code, out, err = run_cli(capsys, "simulate", scenario, "--games", "20", "--json")
    assert code in (0, 1) and json.loads(out)["file"] == str(scenario), err
    code, out, _ = run_cli(capsys, "show", scenario)
    assert code == 0 and "s0" in out


# --- 6. one progress style --------------------------------------------------------------------

class FakeTerminal:
    def __init__(self):
        self.text = ""

    def isatty(self):
        return True

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_progress_bar_shows_count_eta_and_erases_itself():
    from terragen.cli.progress import Progress

    term = FakeTerminal()
    bar = Progress("terragen simulate", 100, "games", stream=term)
    assert bar.enabled
    bar.began -= 10  # ten seconds of work for a quarter of the games
    bar.update(25)
    assert "25/100 games" in term.text and "0:30 left" in term.text
    bar.close()
    assert term.text.endswith("\r\x1b[K")
    timed = Progress("terragen generate", 60, unit="s", stream=FakeTerminal())
    assert "12/60 s limit" in timed.line(12, "attempt 3") and "attempt 3" in timed.line(12, "attempt 3")
    off = FakeTerminal()
    quiet_bar = Progress("x", 5, stream=off, enabled=False)
    quiet_bar.update(3)
    quiet_bar.close()
    assert off.text == ""


@pytest.mark.parametrize("args", [
    ("simulate", EXAMPLES / "two-players.txt", "--games", "30"),
    ("terrace", "play", "--games", "3", "--max-plies", "40"),
    ("terralogical", "play", "--games", "2"),
    ("terraflip", "play", "--games", "2", "--players", "2"),
], ids=["simulate", "terrace", "terralogical", "terraflip"])
def test_long_commands_print_no_progress_when_piped(args):
    p = run_proc(*args)
    assert p.returncode in (0, 1), p.stderr
    assert p.stderr == ""


# --- 7. one convention per option ---------------------------------------------------------------

def test_option_conventions_hold_in_every_command():
    for path, cmd in LEAVES:
        for opt in (p for p in cmd.params if isinstance(p, click.Option)):
            short = [o for o in opt.opts + opt.secondary_opts if not o.startswith("--")]
            assert set(short) <= {"-q", "-o"}, f"{path}: short option {short} (only -q, -o, -h)"
            if opt.name == "players":
                assert opt.type.name in ("integer", "N"), f"{path}: --players must be a count"
            if opt.name == "seed":  # an int default, or one the command applies and its help states
                ok = opt.default == 0 if isinstance(opt.default, int) else "default: 0" in (opt.help or "")
                assert ok, f"{path}: --seed must default to 0"
            if opt.name == "workers":  # generate's default is its own (one per core, up to two), and said so
                expected = None if path == "generate" else 1
                assert opt.default == expected, f"{path}: --workers defaults to {opt.default}"
            if opt.name in ("kind", "difficulty", "paper"):
                assert isinstance(opt.type, click.Choice), f"{path}: --{opt.name} should list its choices"
            if isinstance(opt.type, click.Choice):  # --difficulty HARD means hard, as --paper A4 means a4
                assert not opt.type.case_sensitive, f"{path}: --{opt.name} is case-sensitive"


def test_terrace_play_takes_policies_under_policy(capsys):
    code, _, err = run_cli(capsys, "terrace", "play", "--players", "random,greedy")
    assert code == 2 and "--policy" in err
    code, out, _ = run_cli(capsys, "terrace", "play", "--policy", "random,greedy", "--games", "2", "--json")
    assert code == 0 and [s["player"] for s in json.loads(out)["seats"]] == ["random", "greedy"]


@pytest.mark.parametrize("game", ["", "terrace", "terraflip", "terralogical"])
def test_built_in_player_names_match_in_any_case(capsys, tmp_path, game):
    if game:
        args = [game, "play", "--policy", "RANDOM,Greedy" if game != "terraflip" else "RANDOM,Greedy,random,greedy",
                "--games", "2", "--json"]
    else:
        args = ["simulate", EXAMPLES / "two-players.txt", "--policy", "RANDOM,Greedy", "--games", "2", "--json"]
    code, out, err = run_cli(capsys, *args)
    assert code in ((0, 1) if not game else (0,)), err  # simulate: 1 is two games' NOT BALANCED, not a refusal
    assert "random" in out and "greedy" in out and "RANDOM" not in out and "Greedy" not in out
    code, _, err = run_cli(capsys, *args[:args.index("--policy") + 1], "GREEDYY", *args[args.index("--policy") + 2:])
    assert code == 2 and "GREEDYY" in err


def test_batch_offers_brutal(capsys):
    from terragen.terrain.puzzles import make_puzzle
    from terragen.terrain.puzzles.grading import in_band, preset

    p = make_puzzle("route", "brutal", 5, 0)
    assert in_band(p.metrics["grade"], preset("route", "brutal")["grade"])
    code, out, _ = run_cli(capsys, "batch", "--help")
    assert "brutal" in out


def test_terraflip_tiles_has_json(tmp_path, capsys):
    code, out, err = run_cli(capsys, "terraflip", "tiles", "--out", tmp_path / "t.json", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["out"] == str(tmp_path / "t.json") and data["stats"]["regular_tiles"] > 0


# --- 8. machine-readable everywhere, -q everywhere, help that says everything ------------------

def test_every_command_has_quiet_examples_and_exit_status():
    for path, cmd in LEAVES:
        names = {o for p in cmd.params for o in getattr(p, "opts", [])}
        assert "-q" in names, f"{path} has no -q"
        ctx = click.Context(cmd, info_name=path)
        text = cmd.get_help(ctx)
        assert "Example" in text, f"{path} --help shows no example"
        assert "Exit status" in text, f"{path} --help does not give its exit status"


def _exit_status_of(path, cmd) -> str:
    text = " ".join(cmd.get_help(click.Context(cmd, info_name=path)).split())
    return text[text.index("Exit status"):text.index("Options:")]


#: the options by which a command writes a file (show, simulate and the listings write none)
WRITING_OPTIONS = {"--out", "--record", "--svg", "--to"}


def test_every_commands_exit_status_lists_the_codes_it_can_give(tmp_path, capsys):
    """``kit terrain --out FILE`` exits 73, which its --help did not list (0 and 2 only); nor did any
    help list 70 or the interrupts. Every command that writes files now lists 73, and every one
    the codes all commands share."""
    (tmp_path / "a-file.txt").write_text("x")
    code, _, err = run_cli(capsys, "kit", "terrain", "--out", tmp_path / "a-file.txt")
    assert code == 73 and "is a file, not a folder" in err
    groups = [(name, cli.get_command(click.Context(cli), name)) for name in ("kit", "examples", "terralogical",
                                                                                "terraflip", "terrace")]
    for path, cmd in LEAVES + groups:
        said = _exit_status_of(path, cmd)
        names = {o for p in cmd.params for o in getattr(p, "opts", [])}
        writes = bool(names & WRITING_OPTIONS) or path == "convert" or isinstance(cmd, click.Group)
        assert ("73 " in said) == writes, f"{path}: {said}"
        assert "70" in said and "130" in said and "143" in said and "129" in said, f"{path}: {said}"


def test_root_help_lists_every_exit_code(capsys):
    code, out, _ = run_cli(capsys, "--help")
    for status in ("0 ", "1 ", "2 ", "3 ", "4 ", "70 ", "130 "):
        assert f"\n      {status}" in out or f"  {status}" in out
    assert "completion" in out.lower()


def test_json_on_generate_batch_kit_render(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "generate", "--players", "2", "--difficulty", "easy", "--no-gate", "--json",
                           "--out", tmp_path / "g")
    data = json.loads(out)
    assert code == 0 and all(Path(f).exists() for f in data["files"]) and "metrics" in data
    code, out, _ = run_cli(capsys, "batch", "--count", "1", "--kind", "dice", "--difficulty", "easy", "--json",
                           "--out", tmp_path / "b")
    data = json.loads(out)
    assert code == 0 and data["count"] == 1 and all(Path(f).exists() for f in data["files"])
    code, out, _ = run_cli(capsys, "kit", "terrace", "--json", "--out", tmp_path / "k")
    data = json.loads(out)
    assert code == 0 and len(data["files"]) == 4 and all(Path(f["path"]).exists() for f in data["files"])
    code, out, _ = run_cli(capsys, "render", EXAMPLES / "two-players.txt", "--json", "--out", tmp_path / "r.pdf")
    data = json.loads(out)
    assert code == 0 and data["files"] == [str(tmp_path / "r.pdf")] and data["pages"] >= 1


def test_quiet_keeps_the_exit_status(capsys):
    code, out, _ = run_cli(capsys, "validate", "-q", INVALID / "level-out-of-range.txt")
    assert code == 1 and out == ""
    code, out, _ = run_cli(capsys, "-q", "validate", EXAMPLES / "two-players.txt")
    assert code == 0 and out == ""
    code, out, _ = run_cli(capsys, "validate", "-q", "--json", EXAMPLES / "two-players.txt")
    assert code == 0 and json.loads(out)["valid"]  # data asked for is still printed


# --- 9. errors that help --------------------------------------------------------------------------

def test_spec_errors_name_file_line_and_nearest_key(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text("# my spec\nplayers = 4\nmin_dist = 3\n")
    code, _, err = run_cli(capsys, "generate", "--spec", spec)
    assert code == 2 and f"{spec}:3:" in err and "did you mean min_distance?" in err
    spec.write_text("players = 9\n")
    code, _, err = run_cli(capsys, "generate", "--spec", spec)
    assert code == 2 and f"{spec}:1:" in err and "players" in err
    code, _, err = run_cli(capsys, "generate", "--players", "7")
    assert code == 2 and "--players must be 2–6" in err and "spec key" not in err


def test_kit_terrace_help_cites_only_real_options(capsys):
    _, out, _ = run_cli(capsys, "kit", "terrace", "--help")
    assert "terragen terrace --t-rank" not in out
    _, moves_help, _ = run_cli(capsys, "terrace", "moves", "--help")
    assert "--t-rank" in moves_help


# --- 10. presets, show, completion --------------------------------------------------------------

def test_presets_lists_names_descriptions_and_bands(capsys):
    code, out, _ = run_cli(capsys, "presets")
    assert code == 0
    for name in ("easy", "medium", "hard", "brutal"):
        assert f"  {name}" in out
    assert "expected turns" in out and "route" in out
    code, out, _ = run_cli(capsys, "presets", "--json", "--radius", "4")
    data = json.loads(out)
    hard = next(p for p in data["generate"] if p["name"] == "hard")
    assert hard["turns_band"][0] < 16.0 and hard["description"]  # scaled to the smaller board


def test_show_draws_plain_when_piped_and_colour_on_request(tmp_path):
    p = run_proc("show", EXAMPLES / "four-players.txt")
    assert p.returncode == 0 and "\x1b[" not in p.stdout
    rows = p.stdout.split("\n\n")[0].splitlines()
    assert len(rows) == 11 and "s0" in p.stdout and "d3" in p.stdout
    assert run_proc("show", EXAMPLES / "four-players.txt", "--color").stdout.count("\x1b[48;2;") == 91
    assert run_proc("show", EXAMPLES / "four-players.txt", "--color", env={"NO_COLOR": "1"}).stdout.count("\x1b[") > 0
    bad = run_proc("show", tmp_path / "nope.txt")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_shell_completion_script_is_available():
    p = run_proc(env={"_TERRAGEN_COMPLETE": "bash_source"})
    assert p.returncode == 0 and "complete" in p.stdout and "_TERRAGEN_COMPLETE" in p.stdout


# --- 11. a closed pipe never changes the exit status -----------------------------------------------

@pytest.mark.parametrize("path, status", [(EXAMPLES / "four-players.txt", 0), (INVALID / "level-out-of-range.txt", 1)])
def test_closed_pipe_keeps_the_exit_status(path, status):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # the reader is gone before terragen writes a byte: every write meets a broken pipe
    r, w = os.pipe()
    os.close(r)
    proc = subprocess.run([sys.executable, "-m", "terragen", "validate", str(path)], stdout=w, stderr=subprocess.PIPE,
                          env=env, timeout=60)
    os.close(w)
    assert proc.returncode == status
    assert proc.stderr == b""


def test_head_gets_the_first_line_and_the_status_is_the_commands():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    script = (f"set -o pipefail; {sys.executable} -m terragen validate {INVALID / 'level-out-of-range.txt'} "
              "| head -1")
    for _ in range(5):
        p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=60)
        assert p.returncode == 1 and p.stdout.startswith(str(INVALID / "level-out-of-range.txt"))
        assert p.stderr == ""


def test_batch_force_starts_again_and_leaves_no_stale_scenario(tmp_path, capsys):
    out = tmp_path / "b"
    args = ("batch", "--kind", "dice", "--difficulty", "easy", "--no-progress", "-q", "--out", out)
    assert run_cli(capsys, *args, "--count", "3")[0] == 0
    code, _, err = run_cli(capsys, *args, "--count", "2")
    assert code == 2 and "--force" in err and "--resume" in err
    assert run_cli(capsys, *args, "--count", "2", "--force")[0] == 0
    assert sorted(p.name for p in (out / "scenarios").iterdir()) == ["00000-dice.json", "00000-dice.svg",
                                                                      "00001-dice.json", "00001-dice.svg"]
    assert json.loads((out / "manifest.json").read_text())["done"] == 2


@pytest.mark.parametrize("stop_after", [0, 1, 2])
def test_batch_force_stopped_part_way_leaves_one_batch_never_a_mix(tmp_path, capsys, monkeypatch, stop_after):
    """A --force run stopped early once left the old batch's booklet and scenarios beside a
    manifest of the new one; now the folder holds the old batch whole or a part of the new one,
    every scenario file listed by the manifest, and --resume completes the new batch."""
    import terragen.terrain.puzzles.batch as batch_mod

    out = tmp_path / "b"
    common = ("batch", "--difficulty", "easy", "--no-progress", "-q", "--out", out)
    assert run_cli(capsys, *common, "--kind", "dice", "--count", "3", "--seed", "5")[0] == 0
    old = {str(q.relative_to(out)): q.read_bytes() for q in out.rglob("*") if q.is_file()}
    real = batch_mod.run_local

    def stopped(tasks, workers):
        for k, result in enumerate(real(tasks, workers)):
            if k == stop_after:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(batch_mod, "run_local", stopped)
    new = ("--kind", "route", "--count", "3", "--seed", "6")
    code, _, err = run_cli(capsys, *common, *new, "--force")
    assert code == 130 and ("--force to start" if stop_after == 0 else f"{stop_after} of 3") in err
    now = {str(q.relative_to(out)): q.read_bytes() for q in out.rglob("*") if q.is_file()}
    if stop_after == 0:
        assert now == old
    else:
        manifest = json.loads(now["manifest.json"])
        listed = {row[k] for row in manifest["scenarios"] for k in ("json", "svg")}
        assert manifest["batch"]["seed"] == 6 and len(manifest["scenarios"]) == stop_after
        assert set(now) == {"manifest.json", "manifest.csv"} | listed
    monkeypatch.setattr(batch_mod, "run_local", real)
    resume = "--force" if stop_after == 0 else "--resume"
    assert run_cli(capsys, *common, *new, resume)[0] == 0
    assert run_cli(capsys, *common, *new, "--out", tmp_path / "fresh")[0] == 0
    fresh = {str(q.relative_to(tmp_path / "fresh")): q.read_bytes() for q in (tmp_path / "fresh").rglob("*")
             if q.is_file()}
    assert {str(q.relative_to(out)): q.read_bytes() for q in out.rglob("*") if q.is_file()} == fresh


@pytest.mark.parametrize("in_the_way", ["folder", "link to nothing", "stream"])
def test_batch_with_something_a_file_cannot_replace_stops_before_computing(tmp_path, capsys, monkeypatch, in_the_way):
    """A folder, a link to nothing or a link to a stream where a manifest or the booklet goes once
    failed only after every scenario was computed."""
    import terragen.terrain.puzzles.batch as batch_mod

    out = tmp_path / "b"
    out.mkdir()
    if in_the_way == "folder":
        (out / "manifest.json").mkdir()
    elif in_the_way == "link to nothing":
        (out / "booklet.pdf").symlink_to(tmp_path / "nowhere" / "booklet.pdf")
    else:
        (out / "manifest.csv").symlink_to("/dev/stdout")
    monkeypatch.setattr(batch_mod, "run_local", lambda *a: pytest.fail("computed before refusing"))
    code, _, err = run_cli(capsys, "batch", "--count", "2", "--no-progress", "--out", out, "--force")
    # a folder is refused as generate and kit refuse one (2); what only the write finds out, as it would (73)
    assert (code, {"folder": "is a folder, expected a file name", "link to nothing": "link to nothing",
                   "stream": "it is a stream"}[in_the_way] in err) == (2 if in_the_way == "folder" else 73, True)


@pytest.mark.parametrize("command", ["batch", "generate", "kit"])
def test_a_folder_where_an_output_file_goes_is_refused_alike_by_every_writing_command(tmp_path, capsys, command):
    """batch once said 73 where generate and kit said 2 for the same folder in the way."""
    out = tmp_path / "o"
    args = {"batch": ("batch", "--count", "2", "--kind", "route", "--no-progress", "--out", out),
            "generate": ("generate", "--players", "2", "--difficulty", "easy", "--seed", "3", "--out", out),
            "kit": ("kit", "terraflip", "--out", out)}[command]
    in_the_way = {"batch": out / "scenarios" / "00001-route.json", "generate": out / "board.svg",
                  "kit": out / "terraflip-tiles-a4.pdf"}[command]
    in_the_way.mkdir(parents=True)
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and f"{in_the_way}: is a folder, expected a file name" in err


def test_batch_force_stopped_before_its_first_scenario_says_the_folder_is_as_it_was(tmp_path, capsys, monkeypatch):
    """With the same settings as the batch it replaces, the stopped run once said '3 of 2 scenarios
    are complete (run again with --resume)', which --resume then refused."""
    import terragen.terrain.puzzles.batch as batch_mod

    out = tmp_path / "b"
    common = ("batch", "--kind", "dice", "--difficulty", "easy", "--seed", "5", "--no-progress", "-q", "--out", out)
    assert run_cli(capsys, *common, "--count", "3")[0] == 0

    def stopped(tasks, workers):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(batch_mod, "run_local", stopped)
    code, _, err = run_cli(capsys, *common, "--count", "2", "--force")
    assert code == 130 and "is as it was (run again with --force" in err
    assert json.loads((out / "manifest.json").read_text())["done"] == 3


@pytest.mark.parametrize("args", [
    ["generate", "--players", "2"], ["batch", "--count", "1"], ["simulate", EXAMPLES / "two-players.txt"],
    ["terrace", "play", "--games", "1"], ["terraflip", "tiles"], ["terraflip", "play", "--games", "1"],
    ["terralogical", "deck"], ["terralogical", "play", "--games", "1"], ["kit", "terraflip"],
])
@pytest.mark.parametrize("seed", ["-1", "9" * 31])
def test_every_seed_is_a_whole_number_the_files_can_hold(capsys, tmp_path, args, seed):
    """A seed is recorded in what a command writes; one of more digits than terragen's readers take
    made files it then refused, so every --seed stops at 2**63 - 1 (and none is negative)."""
    code, out, err = run_cli(capsys, *args, "--seed", seed, cwd=tmp_path)
    assert code == 2 and "--seed" in err and len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args,env", [
    (["simulate", EXAMPLES / "two-players.txt", "--workers", "{many}"], {}),
    (["simulate", EXAMPLES / "two-players.txt", "--workers", "-1"], {}),
    (["batch", "--count", "1", "--workers", "{many}"], {}),
    (["generate", "--players", "2"], {"TERRAGEN_WORKERS": "{many}"}),
    (["generate", "--players", "2"], {"TERRAGEN_WORKERS": "9" * 25}),
])
def test_worker_counts_are_bounded_by_the_machine(capsys, tmp_path, monkeypatch, args, env):
    """A slip in a worker count must not start processes until memory runs out: at most four a core."""
    many = str(4 * (os.cpu_count() or 1) + 1)
    for key, value in env.items():
        monkeypatch.setenv(key, value.format(many=many))
    code, out, err = run_cli(capsys, *[str(a).format(many=many) for a in args], cwd=tmp_path)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "four per core" in err, err
    assert not list(tmp_path.iterdir())


def test_balance_games_stop_where_the_simulator_can_still_play_them(capsys, tmp_path):
    """--balance-games 10,000,000 was accepted and then failed naming --games, a flag not given."""
    code, out, err = run_cli(capsys, "generate", "--players", "4", "--balance-games", "10000000", cwd=tmp_path)
    assert code == 2 and "--balance-games" in err and "500000" in err and "--games" not in err.replace("--gate-games", "")
    assert not list(tmp_path.iterdir())


def test_validate_json_with_an_svg_in_the_way_does_not_call_the_input_unreadable(capsys, tmp_path):
    (tmp_path / "pic.svg").write_text("<svg/>")
    code, out, err = run_cli(capsys, "validate", EXAMPLES / "two-players.txt", "--json", "--svg", tmp_path / "pic.svg")
    assert code == 2 and out == "" and "exists already" in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "pic.svg").read_text() == "<svg/>"


@pytest.mark.parametrize("command, board, option", [
    (("validate",), "terrain/examples/four-players.txt", "--inventory"),
    (("validate",), "terralogical/examples/four-players-finished.txt", "--deck"),
    (("terralogical", "validate"), "terralogical/examples/four-players-finished.txt", "--deck"),
    (("validate",), "terraflip/examples/three-players-midgame.txt", "--tiles"),
    (("terraflip", "validate"), "terraflip/examples/three-players-midgame.txt", "--tiles"),
])
def test_validate_json_with_an_option_file_missing_names_the_option_not_the_board(capsys, tmp_path, command, board,
                                                                                   option):
    """A missing --deck file was reported in --json as the board being unreadable ("readable": false)."""
    code, out, err = run_cli(capsys, *command, DATA / board, option, tmp_path / "nope.json", "--json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{option}: " in err and "nope.json" in err


def test_validate_option_of_another_game_is_bad_usage_not_an_unreadable_board(capsys):
    code, out, err = run_cli(capsys, "validate", EXAMPLES / "two-players.txt", "--deck", "d.json", "--json")
    assert code == 2 and out == "" and "--deck applies to Terralogical boards only" in err


def test_the_generators_cap_on_check_games_is_the_one_its_help_gives():
    """--help must not import the generator, so the cap is written twice: they must agree, and a
    margin so small that its check would want millions of games is held to the cap."""
    from terragen.cli.generate import MAX_BALANCE_GAMES
    from terragen.terrain.generate.balance import MAX_VERIFY_GAMES, BalanceSettings

    assert MAX_BALANCE_GAMES == MAX_VERIFY_GAMES
    for players in (2, 4, 6):
        assert BalanceSettings(margin=0.001).games_for(players)[2] <= MAX_VERIFY_GAMES


@pytest.mark.parametrize("group", [[], ["terrace"], ["examples"], ["kit"]])
def test_a_group_without_a_command_prints_its_help(capsys, group):
    """Bare ``terragen`` printed its whole help squashed into one error line."""
    code, out, err = run_cli(capsys, *group)
    assert code == 0 and not err
    assert out.startswith("Usage: terragen") and "Commands:" in out and len(out.splitlines()) > 10


@pytest.mark.parametrize("request_, says", [
    ("bash_complete", "needs COMP_WORDS and COMP_CWORD"),
    ("bogus", "is not one of bash_complete"),
    ("bash_complete COMP_WORDS=terragen COMP_CWORD=x", "COMP_CWORD must be a word number"),
])
def test_a_completion_request_the_shell_did_not_send_is_named(request_, says):
    """Set by hand, the completion variable gave exit 70 (KeyError) or a silent exit 1."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMP_")}
    value, *assignments = request_.split()
    p = run_proc(env={**env, "_TERRAGEN_COMPLETE": value, **dict(a.split("=") for a in assignments)})
    assert p.returncode == 2 and says in p.stderr and len(p.stderr.splitlines()) == 1
    p = run_proc(env={"_TERRAGEN_COMPLETE": "bash_complete", "COMP_WORDS": "terragen gen", "COMP_CWORD": "1"})
    assert p.returncode == 0 and "generate" in p.stdout
    p = run_proc("presets", env={"_TERRAGEN_COMPLETE": ""})  # empty: not asked for, as click reads it
    assert p.returncode == 0 and "medium" in p.stdout


@pytest.mark.parametrize("args", [["generate", "--players", "2", "--difficulty", "easy"], ["kit", "terrace"],
                                  ["batch", "--count", "1"]])
def test_dash_is_no_folder(tmp_path, capsys, args):
    """'-' means standard output everywhere; as an output folder it made a folder called '-'."""
    code, _, err = run_cli(capsys, *args, "--out", "-", cwd=tmp_path)
    assert code == 2 and "standard output" in err and not (tmp_path / "-").exists()


def test_examples_copy_writes_where_out_says(tmp_path, capsys):
    """-o/--out names where to write in every command; examples copy took --to only."""
    for flag, folder in (("--out", "a"), ("-o", "b"), ("--to", "c")):
        code, _, err = run_cli(capsys, "examples", "copy", "terrain/two-players.txt", flag, tmp_path / folder)
        assert code == 0, err
        assert (tmp_path / folder / "two-players.txt").is_file()


def test_examples_copy_skips_a_companion_already_there_as_shipped(tmp_path, capsys):
    """Two specs share one inventory: copying the second refused over the identical inventory the
    first had brought, naming a file the user never asked for."""
    for name in ("terrain/specs/partial-inventory.toml", "terrain/specs/partial-set-radius4.toml"):
        code, _, err = run_cli(capsys, "examples", "copy", name, "--out", tmp_path)
        assert code == 0, err
    (tmp_path / "partial-set-radius4.toml").unlink()
    inventory = tmp_path / "partial-inventory.toml"
    inventory.write_text(inventory.read_text() + "# my change\n")
    code, _, err = run_cli(capsys, "examples", "copy", "terrain/specs/partial-set-radius4.toml", "--out", tmp_path)
    assert code == 2 and "differs from terrain/specs/partial-inventory.toml, which terrain/specs/partial-set-radius4.toml needs" in err
    assert inventory.read_text().endswith("# my change\n") and not (tmp_path / "partial-set-radius4.toml").exists()


@pytest.mark.parametrize("typed, meant", [("web", "serve"), ("simulte", "simulate"), ("check", "validate")])
def test_an_unknown_command_names_the_one_meant(capsys, typed, meant):
    """docs/web.md is about the page, so users typed 'terragen web' and heard only 'No such command'."""
    code, out, err = run_cli(capsys, typed)
    assert code == 2 and out == "" and f"Did you mean '{meant}'?" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [("batch", "--count", "1", "--kind", "route", "--seed", "11"),
                                     ("generate", "--players", "2", "--difficulty", "easy"),
                                     ("kit", "terrace")])
def test_the_folder_the_stdout_refusal_offers_is_written(capsys, tmp_path, command):
    """'-' is refused with "./- for a folder called '-'", and ./- was then refused the same way."""
    code, _, err = run_cli(capsys, *command, "--out", "-", "-q", cwd=tmp_path)
    assert code == 2 and "./- for a folder called '-'" in err and not (tmp_path / "-").exists()
    code, _, err = run_cli(capsys, *command, "--out", "./-", "-q", cwd=tmp_path)
    assert code == 0, err
    assert any((tmp_path / "-").iterdir())


def test_shell_completion_of_an_unknown_command_lists_quietly():
    """The did-you-mean for unknown commands broke completion: typing 'terragen web <TAB>' printed an
    error mid-line and exited 2 (click's own lookup keeps quiet while completing)."""
    p = run_proc(env={"_TERRAGEN_COMPLETE": "bash_complete", "COMP_WORDS": "terragen web ", "COMP_CWORD": "2"})
    assert p.returncode == 0 and "No such command" not in p.stdout + p.stderr


def test_presets_names_the_batch_page_where_this_install_has_it(capsys, monkeypatch, tmp_path):
    import terragen.docs as docs

    (tmp_path / "batch.md").write_text("grades")
    monkeypatch.setattr(docs, "docs_folder", lambda: tmp_path)
    code, out, _ = run_cli(capsys, "presets")
    assert code == 0 and str(tmp_path / "batch.md") in out
    monkeypatch.setattr(docs, "docs_folder", lambda: None)  # an install without the pages
    _, out, _ = run_cli(capsys, "presets")
    assert "docs/batch.md in terragen's source distribution" in out


def test_quiet_help_names_json_only_where_the_command_has_it():
    """`show`, `serve` and `examples copy` said "(--json, ...)" of an option they do not have."""
    from terragen.cli import cli as root

    import click

    ctx = click.Context(root)

    def walk(cmd, path):
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                yield from walk(cmd.get_command(ctx, name), [*path, name])
        else:
            yield path, cmd

    seen = 0
    for path, cmd in walk(root, []):
        quiet = next(p for p in cmd.params if p.name == "quiet")
        has_json = any("--json" in p.opts for p in cmd.params)
        assert ("--json" in quiet.help) == has_json, path
        seen += 1
    assert seen > 10


def test_ctrl_c_while_the_cli_loads_is_one_line_and_exit_130():
    """Under a busy machine the console script spends a moment importing the CLI before it handles
    Ctrl-C; an interrupt then printed a Python traceback. The script now starts from
    terragen.__main__:run, which says one line."""
    import subprocess as sp
    import sys
    from importlib.metadata import entry_points

    assert [e.value for e in entry_points(group="console_scripts", name="terragen")] == ["terragen.__main__:run"]
    code = ("import sys\n"
            "class Interrupt:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'terragen.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Interrupt())\n"
            "from terragen.__main__ import run\n"
            "sys.exit(run())\n")
    p = sp.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stderr, p.stdout) == (130, "terragen: interrupted\n", "")


@pytest.mark.parametrize("args", [("show", "{f}"), ("simulate", "{f}"), ("convert", "{f}", "{out}"),
                                  ("render", "{f}", "-o", "{svg}"), ("generate", "--spec", "{f}"),
                                  ("terraflip", "play", "--tiles", "{f}"), ("kit", "terraflip", "--tiles", "{f}"),
                                  ("validate", "{f}")])
def test_a_file_that_cannot_be_read_is_said_alike_by_every_command(tmp_path, capsys, monkeypatch, args):
    """show, simulate, convert, render, generate --spec and the --tiles options said click's
    "Invalid value for 'FILE': File '...' is not readable."; validate and the rest "cannot read
    (Permission denied)". (As root no file is unreadable: the refusal is the file system's, faked.)"""
    import os

    target = tmp_path / "locked.txt"
    target.write_text("radius: 5\n")
    real_open, real_access = os.open, os.access

    def refusing_open(path, flags, *a, **k):
        if os.fspath(path) == str(target):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", refusing_open)
    monkeypatch.setattr(os, "access", lambda p, m, *a, **k: False if os.fspath(p) == str(target) else real_access(p, m, *a, **k))
    argv = [a.format(f=target, out=tmp_path / "out.json", svg=tmp_path / "out.svg") for a in args]
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and "cannot read (Permission denied)" in err and "not readable" not in err, err
    assert len(err.strip().splitlines()) == 1


def test_convert_names_its_deck_option_when_the_deck_cannot_be_read(capsys, tmp_path):
    """convert said '<file>: not a text file ...' without the option; validate, kit and play say '--deck: ...'."""
    (tmp_path / "rand.bin").write_bytes(bytes(range(256)) * 2)
    code, _, err = run_cli(capsys, "convert", DATA / "terralogical/examples/three-players-start.txt",
                           "--deck", tmp_path / "rand.bin")
    assert code == 2 and "error: --deck: " in err and len(err.strip().splitlines()) == 1


def test_a_report_naming_a_character_the_terminal_cannot_show_is_printed_escaped(tmp_path):
    """With PYTHONIOENCODING=latin-1, validate of a bad file named with an arrow exited 73 ('cannot
    write the output'), its verdict (2, malformed) lost; error lines were already escaped."""
    import subprocess as sp
    import sys

    bad = tmp_path / "fw\u2192.txt"
    bad.write_text("garbage\n")
    env = dict(os.environ, PYTHONIOENCODING="latin-1", PYTHONPATH=str(ROOT))
    p = sp.run([sys.executable, "-m", "terragen", "validate", str(bad)], capture_output=True, env=env, timeout=60)
    out = p.stdout.decode("latin-1")
    assert p.returncode == 2 and "fw\\u2192.txt: INVALID terrain layout" in out


def test_every_help_fits_an_80_column_terminal(capsys, monkeypatch):
    """Examples and file tables ran to 84-97 columns in an 80-column terminal, where they wrapped."""
    monkeypatch.setenv("COLUMNS", "80")
    groups = sorted({path.rsplit(" ", 1)[0] for path, _ in LEAVES if " " in path})
    too_wide = {}
    for path in ["", *groups, *(path for path, _ in LEAVES)]:
        code, out, err = run_cli(capsys, *path.split(), "--help")
        assert code == 0, (path, err)
        wide = [line for line in out.splitlines() if len(line) > 80]
        if wide:
            too_wide[path or "terragen"] = wide
    assert not too_wide, too_wide


def test_batch_force_stopped_while_it_removes_the_old_batch_says_it_is_gone(tmp_path, capsys, monkeypatch):
    """A Ctrl-C held back while --force removed the old batch was raised as the removal ended, before
    the run noted the removal: the old batch was gone, and the last line said the folder was as it was
    (an audit hit it in about one interrupted run in thirty)."""
    import signal
    from pathlib import Path

    out = tmp_path / "b"
    common = ("batch", "--kind", "dice", "--difficulty", "easy", "--seed", "5", "--no-progress", "-q", "--out", out)
    assert run_cli(capsys, *common, "--count", "2")[0] == 0
    real_unlink, sent = Path.unlink, []

    def unlink_with_ctrl_c(self, missing_ok=False):
        if not sent:  # the first file removed: Ctrl-C arrives mid-removal
            sent.append(self)
            os.kill(os.getpid(), signal.SIGINT)
        return real_unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink_with_ctrl_c)
    code, _, err = run_cli(capsys, *common, "--count", "2", "--seed", "6", "--force")
    assert sent and code == 130
    assert "as it was" not in err and "was removed" in err, err
    assert not (out / "manifest.json").exists() and not list((out / "scenarios").glob("*.json"))


@pytest.mark.parametrize("redirect, args, message", [
    ("<&-", ["validate", "-"], "standard input is closed"),
    ("<&-", ["simulate", "-", "--games", "10"], "standard input is closed"),
    (">&-", ["convert", str(EXAMPLES / "two-players.txt"), "-"], "cannot write standard output: it is closed"),
    (">&-", ["terrace", "setup", "full"], "cannot write standard output: it is closed"),
    (">/dev/full", ["examples", "show", "terrain/two-players.txt"], "cannot write standard output: No space"),
])
def test_a_closed_or_full_standard_stream_is_one_line_and_the_right_exit_code(redirect, args, message):
    """Jobs run by schedulers often start with standard input or output closed: reading a closed
    input was an internal error (exit 70), printing to a closed output was silently nothing (exit 0)."""
    import shlex

    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "terragen", *args])
    proc = subprocess.run(["sh", "-c", f"{command} {redirect}"], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == (2 if "input" in message else 73), proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_inventory_reads_standard_input_as_spec_and_deck_do_but_not_beside_a_layout_there():
    """--inventory - said "unknown inventory '-'", where --spec - and --deck - read standard input."""
    from terragen.templates import template_path

    standard = template_path("terrain", "inventories", "standard.toml").read_text()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ok = subprocess.run([sys.executable, "-m", "terragen", "validate", str(EXAMPLES / "two-players.txt"),
                         "--inventory", "-"], input=standard, capture_output=True, text=True, env=env, timeout=120)
    assert ok.returncode == 0 and "valid terrain layout" in ok.stdout, ok.stderr
    both = subprocess.run([sys.executable, "-m", "terragen", "validate", "-", "--inventory", "-"],
                          input=(EXAMPLES / "two-players.txt").read_text(), capture_output=True, text=True, env=env,
                          timeout=120)
    assert both.returncode == 2 and "both read standard input" in both.stderr, both.stderr


@pytest.mark.parametrize("args", [["generate", "--spec", "-", "--inventory", "-"],
                                  ["terralogical", "validate", "-", "--deck", "-"],
                                  ["terraflip", "validate", "-", "--tiles", "-"],
                                  ["convert", "-", "x.json", "--deck", "-"]])
def test_two_inputs_on_standard_input_are_refused_by_every_command(capsys, args):
    """Only validate refused them; the others said the second one's file was empty."""
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and "both read standard input ('-')" in err, err


@pytest.mark.parametrize("command", [["validate"], ["terrace", "validate"], ["terraflip", "validate"],
                                     ["terralogical", "validate"]])
def test_a_picture_given_for_a_board_is_named_as_one(tmp_path, capsys, command):
    """validate board.svg (generate writes one beside board.json) said "got '<svg'" on line 1."""
    picture = tmp_path / "board.svg"
    picture.write_text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')
    code, _, err = run_cli(capsys, *command, picture)
    assert code == 2 and "this is an SVG picture, not a" in err and len(err.strip().splitlines()) == 1, err
    note = tmp_path / "note.xml"  # XML that is no picture is called markup, not an SVG
    note.write_text('<?xml version="1.0"?>\n<note/>\n')
    code, _, err = run_cli(capsys, *command, note)
    assert code == 2 and "this is markup (HTML or XML), not a" in err, err


@pytest.mark.parametrize("args, name, option", [
    (["generate", "--players", "2", "--out"], "board.json", "--out"),  # made a folder called board.json
    (["kit", "terrain", "--out"], "kit.PDF", "--out"),
    (["examples", "copy", "terrain/specs/example.toml", "--to"], "mine.toml", "--out / --to"),
    (["batch", "--count", "1", "--out"], "puzzles.txt", "--out"),
])
def test_a_folder_option_given_a_file_name_is_refused_before_any_work(tmp_path, capsys, args, name, option):
    code, _, err = run_cli(capsys, *args, tmp_path / name)
    assert code == 2, err
    assert f"looks like a file name, but {option} names a folder" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # nothing made


def test_a_folder_that_exists_keeps_its_file_like_name(tmp_path, capsys):
    (tmp_path / "boards.json").mkdir()
    code, _, err = run_cli(capsys, "examples", "copy", "terrain/specs/example.toml", "--to", tmp_path / "boards.json")
    assert code == 0, err
    assert (tmp_path / "boards.json" / "example.toml").is_file()
