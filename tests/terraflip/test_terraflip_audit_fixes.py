"""Audit findings on TerraFlip validate and play: a tile set of the user's, every bad line listed,
the shared report line, a summary that fits the problem, and play's rule switches said out loud."""

from __future__ import annotations

import json

import pytest

from terragen.cli import main
from terragen.terraflip.formats import parse_position
from terragen.terraflip.model import FAMILIES, regular_id
from terragen.terraflip.validation import validate_text


def run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def tileset_file(tmp_path, per_family: int):
    """A complete tile set with ``per_family`` numbered tiles a family, as 'terraflip tiles' writes one."""
    backs = {}
    for f in FAMILIES:
        others = [c for c in FAMILIES if c != f]
        for i in range(1, per_family + 1):
            backs[regular_id(f, i)] = others[(i - 1) % 3]
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps({"game": "terraflip", "kind": "tileset", "version": 1,
                                "tiles": {"per_family": per_family, "backs": backs}}))
    return path


TILE_10 = """game: terraflip
players: blue green
1 0 blue-river-10 blue/green
0 1 green-forest-1 green/blue
"""


def test_validate_takes_the_tile_set_the_game_was_played_with(tmp_path, capsys):
    """A position using tile 10 of a --per-family 10 set failed unknown-tile: validate had no --tiles."""
    pos = tmp_path / "v10.txt"
    pos.write_text(TILE_10)
    code, out, _ = run(["terraflip", "validate", str(pos)], capsys)
    assert code == 1 and "unknown-tile" in out
    tiles = tileset_file(tmp_path, 10)
    code, out, _ = run(["terraflip", "validate", str(pos), "--tiles", str(tiles)], capsys)
    assert code == 0, out
    assert out.splitlines()[0] == f"{pos}: valid terraflip position (0 errors, 0 warnings)"
    code, out, _ = run(["validate", str(pos), "--tiles", str(tiles)], capsys)  # the top-level command too
    assert code == 0, out


def test_unknown_tile_says_its_line_and_column():
    """It used to be the one error without a place: 'v11.txt: error [unknown-tile] blue has only 9 ...'."""
    report = validate_text(TILE_10, "v.txt")
    [f] = [f for f in report.findings if f.code == "unknown-tile"]
    assert (f.line, f.col) == (3, 5) and f.format("v.txt").startswith("v.txt:3:5: error [unknown-tile]")
    assert "blue-river-10" in f.message and "--tiles" in f.message


def test_tiles_is_refused_for_another_game(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("game: terralogical\nplayers: a b\n7,0 sun 0\n0,7 flower 0\n")
    code, _, err = run(["validate", str(board), "--tiles", str(tileset_file(tmp_path, 9))], capsys)
    assert code == 2 and err.count("\n") == 1 and "--tiles applies to TerraFlip positions only" in err


def test_every_bad_text_line_is_listed_with_its_place(tmp_path, capsys):
    """Parsing stopped at the first bad line, though validate --help says every problem is listed."""
    text = TILE_10 + "1 -1 blue-river-x blue/green\n-1 1 green-forest-2 green/bl\n"
    report = validate_text(text, "p.txt")
    syntax = [f.format("p.txt") for f in report.findings if f.code == "syntax"]
    assert syntax == ["p.txt:5:6: error [syntax] expected a tile like blue-river or gray-knight, got 'blue-river-x'",
                      "p.txt:6:21: error [syntax] unknown colour 'bl' in 'green/bl': did you mean 'blue'? (the colours are blue, green, gray, yellow)"]
    assert report.exit_code == 2
    assert any(f.code == "unknown-tile" for f in report.findings)  # the rest is still checked
    with pytest.raises(Exception, match=r"^p.txt:5:6: "):  # convert's reader still stops at the first
        parse_position(text, "p.txt")


def test_a_bad_players_line_is_listed_and_the_check_stops():
    report = validate_text("game: terraflip\nplayers: blue pink\n1 0 blue-river blue/green\n", "p.txt")
    # one finding: its own line's problem; "no 'players:' line could be read" as well was false (it was there)
    assert [f.code for f in report.findings] == ["syntax"]
    assert report.findings[0].format("p.txt").startswith("p.txt:2:15:") and "'pink'" in report.findings[0].message
    assert report.exit_code == 2


def test_tower_blocks_changes_the_framed_list_as_in_play():
    """validate's 'framed' list must be able to match a game played with --tower-blocks."""
    text = "game: terraflip\nplayers: blue green\n-1 0 blue-river blue/green\n1 0 green-forest green/blue\n" \
           "2 0 blue-river-2 blue/green\n"
    # blue at (-1,0) and (2,0) frame green's (1,0) across the tower at (0,0)
    open_line = validate_text(text, "p").data["players"][0]["framed"]
    blocked = validate_text(text, "p", tower_passable=False).data["players"][0]["framed"]
    assert open_line == [[1, 0]] and blocked == []


def test_a_doubled_player_is_told_to_fix_that():
    """It was told to 'fix the player count and the tiles out of reach first'."""
    report = validate_text("game: terraflip\nplayers: blue blue\n1 0 blue-river blue/green\n", "p")
    assert report.summary == ["analysis skipped: fix the players listed twice first"]


def test_validate_prints_the_verdict_first_as_terragen_validate(tmp_path, capsys):
    pos = tmp_path / "p.txt"
    pos.write_text("game: terraflip\nplayers: blue blue\n1 0 blue-river blue/green\n")
    code, mine, _ = run(["terraflip", "validate", str(pos)], capsys)
    code2, top, _ = run(["validate", str(pos)], capsys)
    assert code == code2 == 1 and mine == top
    assert mine.splitlines()[0] == f"{pos}: INVALID terraflip position (1 error, 0 warnings)"


def test_play_refuses_bonus_with_bonus_scheme(capsys):
    """--bonus-scheme was silently ignored when --bonus was given."""
    code, _, err = run(["terraflip", "play", "--players", "2", "--games", "1", "--bonus", "1,0",
                        "--bonus-scheme", "from-last"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--bonus" in err and "--bonus-scheme" in err


def test_play_report_names_first_frame_and_tower(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["terraflip", "play", "--players", "2", "--games", "1", "--first-frame", "any", "--tower-blocks"])
    out = capsys.readouterr().out
    assert exc.value.code in (0, None)
    head = " ".join(out.split("seat  policy")[0].split())  # the report's first line, wrapped for the terminal
    assert "first frame any" in head and "tower blocks" in head
