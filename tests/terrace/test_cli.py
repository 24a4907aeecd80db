"""The ``terragen terrace`` commands, run in-process through the real entry point."""

from __future__ import annotations

import json

import pytest

from terragen.cli import main
from terragen.terrace.formats import to_text
from terragen.terrace.position import Position
from tests.terrace.test_validation import EXAMPLES


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_setup_writes_a_file_that_moves_reads(capsys, tmp_path):
    path = tmp_path / "pos.txt"
    code, _, _ = run(capsys, "terrace", "setup", "short", "-o", str(path))
    assert code == 0 and path.read_text() == to_text(Position.start("short"))
    code, out, err = run(capsys, "terrace", "moves", str(path))
    assert code == 0 and len(out.splitlines()) == 31 and "31 legal moves for top (T)" in err
    assert out.splitlines()[0].split() == ["Tb8-b7", "slide"]


def test_moves_json_and_setup_json(capsys, tmp_path):
    code, out, _ = run(capsys, "terrace", "setup", "full", "--json")
    path = tmp_path / "pos.json"
    path.write_text(out)
    code, out, _ = run(capsys, "terrace", "moves", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and len(data["moves"]) == 50 and data["to_move"] == "top"
    assert {"move", "from", "to", "kind", "piece"} == set(data["moves"][0])


def test_perft_and_divide(capsys):
    code, out, _ = run(capsys, "terrace", "perft", "--setup", "short", "--depth", "2")
    assert code == 0 and out.strip() == "perft 2: 961"
    code, out, _ = run(capsys, "terrace", "perft", "--setup", "four", "--depth", "2", "--divide", "--json")
    data = json.loads(out)
    assert data["nodes"] == 605 and sum(data["divide"].values()) == 605


def test_size_option_on_every_command(capsys, tmp_path):
    code, out, _ = run(capsys, "terrace", "setup", "full", "--size", "10")
    assert code == 0 and len(out.splitlines()) == 12
    for cmd in (["moves"], ["perft", "--depth", "1"], ["play", "--games", "1"], ["show"]):
        code, out, err = run(capsys, "terrace", *cmd, "--setup", "short", "--size", "6")
        assert code == 0, err
    path = tmp_path / "p.txt"
    path.write_text(to_text(Position.start("full", 6)))
    code, _, err = run(capsys, "terrace", "moves", str(path), "--size", "8")
    assert code == 2 and "does not match" in err


def test_play_is_reproducible(capsys):
    args = ["terrace", "play", "--policy", "random,greedy", "--games", "4", "--seed", "5", "--json"]
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    assert first == second
    data = json.loads(first)
    assert [s["player"] for s in data["seats"]] == ["random", "greedy"]
    total = sum(s["wins"] for s in data["seats"]) + data["draws_no_move"] + data["unfinished_ply_limit"]
    assert total == 4
    code, out, _ = run(capsys, "terrace", "play", "--setup", "four", "--policy", "greedy", "--games", "1", "--size", "6")
    assert code == 0 and out.count("greedy") == 4


@pytest.mark.parametrize(
    "args,needle",
    [
        (["moves", "missing.txt"], "no such file"),
        (["moves", "--size", "7"], "--size must be one of 6, 8, 10, 12 (got 7)"),
        (["perft", "--depth", "-1"], "--depth"),
        (["play", "--policy", "random,clever"], "unknown policy 'clever' (choose from random, greedy)"),
        (["play", "--policy", "random,random,random"], "2 seats"),
        (["play", "--games", "0"], "--games"),
    ],
)
def test_errors_are_one_line(capsys, args, needle):
    code, out, err = run(capsys, "terrace", *args)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_invalid_position_file_is_refused_with_location(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(to_text(Position.start("full")).replace("A T\n", "A t\n"))
    code, _, err = run(capsys, "terrace", "moves", str(path))
    assert code == 2 and "too-many-t" in err and str(path) in err


def test_setup_to_a_json_name_writes_json(capsys, tmp_path):
    """A .json --out once got the text diagram (convert and play's records choose by the name)."""
    import json

    code, _, _ = run(capsys, "terrace", "setup", "four", "--out", str(tmp_path / "four.json"))
    assert code == 0 and json.loads((tmp_path / "four.json").read_text())["game"] == "terrace"


@pytest.mark.parametrize("text, says", [
    ('{"game": "terrace", "version": 1, "size": 8, "to_move": "top", "peices": []}',
     "no 'pieces' list; did you mean 'pieces' for 'peices'"),  # once read as an empty board
    ("game: terrace\nto-move: T\n" + "- - - - - - -\n" * 7, "7 rows of 7 squares and no 'size:'"),
])
def test_position_files_that_say_one_thing_wrong_get_one_line(tmp_path, capsys, text, says):
    f = tmp_path / "p.txt"
    f.write_text(text)
    code, _, err = run(capsys, "validate", str(f))
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1


def test_a_second_t_is_reported_once(tmp_path, capsys):
    rows = to_text(Position.start("full")).splitlines()
    rows[-3] = "T" + rows[-3][1:]  # a T added on an empty square of the bottom's sixth rank
    f = tmp_path / "p.txt"
    f.write_text("\n".join(rows) + "\n")
    code, out, _ = run(capsys, "validate", str(f))
    assert code == 1 and "[too-many-t]" in out and "[too-many-pieces]" not in out


def test_an_empty_two_player_board_is_no_players_once(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text("game: terrace\nto-move: T  setup: full  size: 8\n" + "- - - - - - - -\n" * 8)
    code, out, _ = run(capsys, "validate", str(f))
    assert code == 1 and "[no-players]" in out and "[t-missing]" not in out


def test_play_reports_name_the_rule_readings_played(capsys):
    import json

    code, out, _ = run(capsys, "terrace", "play", "--games", "1", "--t-rank", "lowest", "--json")
    assert code == 0 and json.loads(out)["rules"] == {"t_rank": "lowest", "own_t_capture": True}


def test_validate_lists_every_unreadable_square(tmp_path, capsys):
    rows = to_text(Position.start("full")).splitlines()
    rows[4] = "X" + rows[4][1:]
    rows[5] = "Y" + rows[5][1:]
    f = tmp_path / "p.txt"
    f.write_text("\n".join(rows) + "\n")
    code, out, _ = run(capsys, "validate", str(f), "--json")
    import json

    found = [e for e in json.loads(out)["errors"] if e["code"] == "syntax"]
    assert code == 2 and [e["line"] for e in found] == [5, 6]


def _full_with(tmp_path, header: str, **rows: str):
    """The full set-up as a file, its second line replaced by ``header`` and rows by index (0 = top)."""
    lines = to_text(Position.start("full")).splitlines()
    lines[1] = header
    for k, row in rows.items():
        lines[2 + int(k[1:])] = row
    f = tmp_path / "p.txt"
    f.write_text("\n".join(lines) + "\n")
    return f


def test_validate_lists_header_problems_with_the_squares(tmp_path, capsys):
    """A bad header value stopped validate at once: one line, no report, nothing about the squares."""
    f = _full_with(tmp_path, "to-move: X  setup: full  size: 8", r3="- - Q - - - - -")
    code, out, err = run(capsys, "validate", str(f))
    assert code == 2
    assert f"{f}:2:10: error [syntax] to-move must be a seat" in out
    assert f"{f}:6:5: error [syntax] cannot read square 'Q'" in out
    assert len(err.strip().splitlines()) == 1 and "(and 1 more finding, listed on stdout)" in err
    code, out, _ = run(capsys, "validate", str(f), "--json")
    found = [(e["code"], e["line"], e["col"]) for e in json.loads(out)["errors"]]
    assert code == 2 and found == [("syntax", 2, 10), ("syntax", 6, 5)]


@pytest.mark.parametrize("header, says, where", [
    ("to-mov: T  setup: full", "unknown header 'to-mov': did you mean 'to-move'?", (2, 1)),
    ("to-move: T  setup: ful", "unknown setup 'ful' (did you mean 'full'?", (2, 20)),
    ("to-move: T  size: 7", "size must be one of 6, 8, 10, 12, got '7'", (2, 19)),
    ("to-move: T  to-move: t", "to-move given twice", (2, 13)),
    ("to-move: T  junk", "cannot read 'junk'; expected key: value", (2, 13)),
])
def test_each_header_problem_is_a_located_syntax_finding(tmp_path, capsys, header, says, where):
    """Every header mistake is a syntax finding at its line and column, and the board is still
    read: the second T added below is reported in the same run."""
    f = _full_with(tmp_path, header, r4="- - - - - T - -")
    code, out, _ = run(capsys, "validate", str(f), "--json")
    data = json.loads(out)
    syntax = [e for e in data["errors"] if e["code"] == "syntax"]
    assert code == 2 and len(syntax) == 1 and says in syntax[0]["message"]
    assert (syntax[0]["line"], syntax[0]["col"]) == where
    assert "too-many-t" in [e["code"] for e in data["errors"]]


def test_a_misspelt_to_move_is_one_problem_not_two(tmp_path, capsys):
    """The misspelt key is read on as the key it most likely is (as the Terrain Game's reader reads a
    misspelt section), so the file is not also told it names nobody to move."""
    f = _full_with(tmp_path, "to-mov: t  setup: full  size: 8")
    code, out, _ = run(capsys, "validate", str(f), "--json")
    data = json.loads(out)
    assert code == 2 and [e["code"] for e in data["errors"]] == ["syntax"] and data["to_move"] == "bottom"


def test_commands_that_play_refuse_a_bad_header_with_one_line(tmp_path, capsys):
    f = _full_with(tmp_path, "to-move: X  setup: full  size: 8", r3="- - Q - - - - -")
    code, out, err = run(capsys, "terrace", "moves", str(f))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"terragen: error: {f}:2:10: to-move must be a seat") and "1 more problem:" in err


def test_a_row_of_the_wrong_length_is_unreadable_in_every_game(tmp_path, capsys):
    """A Terrain Game map row of the wrong length was a syntax error (exit 2) but a Terrace one a
    broken rule (exit 1): both are files that cannot be read as a board."""
    from terragen.examples import find_example

    f = _full_with(tmp_path, "to-move: T  setup: full  size: 8", r5="- - - - - - - - -")
    code, out, err = run(capsys, "validate", str(f), "--json")
    found = [(e["code"], e["line"], e["col"]) for e in json.loads(out)["errors"]]
    assert code == 2 and found == [("syntax", 8, 17)]
    terrain = tmp_path / "t.txt"
    lines = find_example("terrain/two-players.txt").read_bytes().decode().splitlines()
    row = next(k for k, line in enumerate(lines) if line.strip()[:1].isdigit())
    lines[row] += " 1A0"
    terrain.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "validate", str(terrain), "--json")
    assert code == 2 and "syntax" in [e["code"] for e in json.loads(out)["errors"]]


@pytest.mark.parametrize("command", [["terrace", "show"], ["terrace", "moves"]])
def test_a_broken_rule_reads_as_one_error_at_the_second_t(tmp_path, capsys, command):
    """'terragen: error: p.txt: error [too-many-t] ...' said error twice and did not say where the
    extra T stands."""
    f = _full_with(tmp_path, "to-move: T  setup: full  size: 8", r4="- - - - - T - -")
    code, _, err = run(capsys, *command, str(f))
    assert code == 2 and err.count("error") == 1 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"terragen: error: {f}:7:11: breaks a rule: [too-many-t] seat top (T) has 2 T pieces")


@pytest.mark.parametrize("header, rows, status", [
    ("to-move: T  setup: full  size: 8", {}, 0),  # valid: the report and the analysis
    ("to-move: T  setup: full  size: 8", {"r4": "- - - - - T - -"}, 1),  # a broken rule
    ("to-move: X  setup: full  size: 8", {"r3": "- - Q - - - - -"}, 2),  # unreadable entries, listed
])
@pytest.mark.parametrize("as_json", [False, True])
def test_terrace_validate_is_the_report_validate_gives(tmp_path, capsys, header, rows, status, as_json):
    """'terrace --help' listed no validate though the other games' groups have one."""
    f = _full_with(tmp_path, header, **rows)
    extra = ["--json"] if as_json else []
    mine = run(capsys, "terrace", "validate", str(f), *extra)
    assert mine == run(capsys, "validate", str(f), *extra)
    assert mine[0] == status and mine[1].strip()
    if not as_json:
        assert mine[1].startswith(f"{f}: {'valid' if status == 0 else 'INVALID'} terrace position")


def test_terrace_validate_counts_moves_by_the_rule_readings_given(tmp_path, capsys):
    """The readings change which captures are legal, so the count of legal moves, as in 'terrace moves'."""
    f = tmp_path / "p.txt"
    f.write_text("game: terrace\nto-move: T  setup: free\n" + "- - - - - - - -\n" * 2 + "- - D - - - - -\n"
                 + "- - - T t - - -\n" + "- - - - - - - -\n" * 4)  # the D can take its own T, or not
    counts = []
    for readings in ([], ["--no-own-t-capture"]):
        code, out, _ = run(capsys, "terrace", "validate", str(f), "--json", *readings)
        _, moves, _ = run(capsys, "terrace", "moves", str(f), "--json", *readings)
        assert code == 0 and json.loads(out)["legal_moves"] == len(json.loads(moves)["moves"])
        counts.append(json.loads(out)["legal_moves"])
    assert counts[0] != counts[1]


def test_convert_writes_a_position_that_breaks_a_rule_as_it_is(tmp_path, capsys):
    """Converting is how a player fixes a file in the form they edit best: convert refused a Terrace
    position with two Ts (exit 2), and converted every other game's broken file."""
    from terragen.terrace.formats import parse_any

    f = _full_with(tmp_path, "to-move: T  setup: full  size: 8", r4="- - - - - T - -")
    drafted = parse_any(f.read_text(), "f")
    for there in ("p.json", "p2.txt", "back.txt"):  # to JSON, to text, and the JSON back to text
        source = tmp_path / "p.json" if there == "back.txt" else f
        code, _, err = run(capsys, "convert", str(source), str(tmp_path / there))
        assert code == 0, err
        got = parse_any((tmp_path / there).read_text(), there)
        # the same pieces on the same squares, whose move and the set-up: the file as it was
        assert sorted((p.square, p.piece) for p in got.placed) == sorted((p.square, p.piece) for p in drafted.placed)
        assert (got.to_move, got.setup, got.size) == (drafted.to_move, drafted.setup, drafted.size)
    assert _codes(capsys, tmp_path / "p.json") == _codes(capsys, f) == ["too-many-t"]


def _codes(capsys, path) -> list[str]:
    code, out, _ = run(capsys, "validate", str(path), "--json")
    return [e["code"] for e in json.loads(out)["errors"]]


@pytest.mark.parametrize("name, says", [("off-board.json", "cannot hold a piece off the board (i8)"),
                                        ("square-occupied-twice.json", "cannot hold two pieces on d5")])
def test_convert_to_text_refuses_what_a_diagram_cannot_hold_naming_the_input(tmp_path, capsys, name, says):
    src = EXAMPLES / "invalid" / name
    code, _, err = run(capsys, "convert", str(src), str(tmp_path / "p.txt"))
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "p.txt").exists()
    code, _, err = run(capsys, "convert", str(src), str(tmp_path / "p.json"))  # JSON holds it
    assert code == 0, err
    assert _codes(capsys, tmp_path / "p.json") == _codes(capsys, src)


def test_convert_of_a_legal_position_is_what_it_always_was():
    """The writer of drafts gives a legal position the canonical bytes of the position's writer."""
    from terragen.terrace.formats import draft_to_json, draft_to_text, parse_any, to_json
    from terragen.terrace.validation import load_position

    for name in ("four-players-setup.json", "full-setup.txt", "short-game-three-moves.txt",
                 "three-players-opening.txt"):
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        pos = load_position(text, name)
        assert draft_to_text(parse_any(text, name), name) == to_text(pos)
        assert draft_to_json(parse_any(text, name)) == to_json(pos)


@pytest.mark.parametrize("text", ["root:*:20228:0:99999:7:::\nName:\tterragen\n", "Name: terragen\nState: R\n"])
def test_a_file_of_no_game_is_not_named_after_its_own_words(tmp_path, capsys, text):
    """'Name: terragen' (a line of /proc/self/status) was read as a misspelt 'game:' line, and the file
    called "a 'terragen' file, not a Terrace position"."""
    f = tmp_path / "status.txt"
    f.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "terrace", "moves", str(f))
    assert code == 2 and "missing 'game: terrace' line" in err and "'terragen' file" not in err, err
