"""Audit findings on Terralogical: boards of a custom deck through convert and validate, deck
printed like 'terraflip tiles', every bad line listed, a deck's fixed tiles, one report line."""

from __future__ import annotations

import json

import pytest

from terragen.cli import main
from terragen.convert import convert_text
from terragen.errors import InputError
from terragen.terralogical.formats import deck_from_json, parse_state
from terragen.terralogical.validation import validate_text

SMALL = ["--param", "tiles=3", "--param", "min_partners=1", "--param", "min_connectors=0"]
BOARD = "game: terralogical\nplayers: red green\n7,0 sun 0\n0,7 flower 0\n7,1 T2 0 red\n"


def run(argv, capsys, cwd=None, monkeypatch=None):
    if cwd is not None:
        monkeypatch.chdir(cwd)
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.fixture()
def small(tmp_path, capsys):
    """A 3-tile deck (ids T1..T3) and a board using its T2."""
    deck = tmp_path / "small.json"
    code, _, err = run(["terralogical", "deck", *SMALL, "--out", str(deck)], capsys)
    assert code == 0, err
    board = tmp_path / "b.txt"
    board.write_text(BOARD)
    return deck, board


def test_convert_carries_ids_of_a_custom_deck_over(small, tmp_path, capsys):
    """convert called default_deck() and refused T2 of a 3-tile deck: 'unknown deck tile id'."""
    deck, board = small
    out = tmp_path / "b.json"
    code, _, err = run(["convert", str(board), str(out)], capsys)
    assert code == 0, err
    assert json.loads(out.read_text())["tiles"][2]["tile"] == "T2"
    code, text, _ = run(["convert", str(out)], capsys)
    assert code == 0 and text.splitlines()[-1] == "7,1 T2 0 red"
    code, _, err = run(["convert", str(board), str(tmp_path / "c.json"), "--deck", str(deck)], capsys)
    assert code == 0, err


def test_convert_with_deck_checks_the_ids(small, tmp_path, capsys):
    deck, _ = small
    bad = tmp_path / "bad.txt"
    bad.write_text(BOARD.replace("T2", "T9"))
    code, _, err = run(["convert", str(bad), "--deck", str(deck)], capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"{bad}:5:5: unknown deck tile id 'T9' ({deck} holds T1 to T3)" in err


def test_convert_still_refuses_a_bad_tile_code():
    with pytest.raises(InputError, match=r"^b.txt:5:5: tile code 'FFXF'"):
        convert_text(BOARD.replace("T2", "FFXF"), "b.txt", "json")


def test_validate_takes_deck(small, capsys):
    deck, board = small
    code, out, err = run(["validate", str(board)], capsys)
    assert code == 2 and "give --deck FILE for a deck of your own" in err
    code, out, _ = run(["validate", str(board), "--deck", str(deck)], capsys)
    assert code == 1 and "unknown deck tile id" not in out  # T2 read; its placement breaks rules
    assert out.splitlines()[0] == f"{board}: INVALID terralogical position (2 errors, 0 warnings)"


def test_deck_is_refused_for_other_games(small, tmp_path, capsys):
    deck, _ = small
    pos = tmp_path / "p.txt"
    pos.write_text("game: terraflip\nplayers: blue green\n")
    for argv in (["validate", str(pos), "--deck", str(deck)], ["convert", str(pos), "--deck", str(deck)]):
        code, _, err = run(argv, capsys)
        assert code == 2 and err.count("\n") == 1 and "--deck applies to Terralogical boards only" in err


def test_deck_without_out_prints_the_deck_and_writes_nothing(tmp_path, capsys, monkeypatch):
    """'deck --seed 1 --json' quietly wrote output/terralogical-deck-seed1.json (and exited 2 the
    second time); it now prints the deck as 'terraflip tiles' prints its set."""
    for extra in ([], ["--json"], []):
        code, out, err = run(["terralogical", "deck", *SMALL, *extra], capsys, tmp_path, monkeypatch)
        assert code == 0, err
        data = json.loads(out)
        assert data["kind"] == "deck" and [t["id"] for t in data["tiles"]] == ["T1", "T2", "T3"]
    assert not list(tmp_path.iterdir())
    code, _, _ = run(["terralogical", "deck", *SMALL, "--out", "d.json"], capsys, tmp_path, monkeypatch)
    assert (tmp_path / "d.json").read_text() == out  # the same bytes as printed


def test_dash_outputs_say_something_true(capsys):
    code, _, err = run(["terralogical", "play", "--games", "1", "--record", "-"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--record needs a file name" in err
    assert "leave the option out" not in err


@pytest.mark.parametrize("key,value", [("start", {"id": "sun", "edges": "FFFF"}),
                                       ("end", {"id": "flower", "edges": "MMMM"}),
                                       ("start", {"id": "sunny", "edges": "MFWM"})])
def test_deck_with_other_fixed_tiles_is_refused(small, key, value):
    """A deck's start/end differing from MFWM/CCCC was silently ignored."""
    deck, _ = small
    data = json.loads(deck.read_text())
    data[key] = value
    with pytest.raises(InputError, match=f'^d.json: "{key}" is .*the (sun|flower) tile is fixed by the rules'):
        deck_from_json(json.dumps(data), "d.json")
    del data[key]
    assert deck_from_json(json.dumps(data), "d.json").tiles  # left out: the fixed tile


def test_every_bad_line_is_listed():
    """Two bad lines: only the first was reported, though validate --help says every problem is."""
    text = "game: terralogical\nplayers: a b\n7,0 sun 0\n0,7 flower 0\n7,1 FFFF 4 a\n6,0 FFXF 0 a\n"
    report = validate_text(text, "t.txt")
    syntax = [f.format("t.txt") for f in report.findings if f.code == "syntax"]
    assert [s.split(" error")[0] for s in syntax] == ["t.txt:5:10:", "t.txt:6:5:"]
    assert report.exit_code == 2 and report.summary  # the rest was still checked
    with pytest.raises(InputError, match=r"^t.txt:5:10: "):
        parse_state(text, "t.txt")  # convert's reader stops at the first


def test_a_bad_players_line_stops_the_check_after_listing_it():
    report = validate_text("game: terralogical\nplayers: a a\n7,0 sun 0\n", "t.txt")
    # the tile line is not also said to come before a players line (that line was there, unreadable)
    # nor said to be missing: its own problem, the repeated name, is the one finding
    assert [f.code for f in report.findings] == ["syntax"]
    assert report.findings[0].line == 2 and "player 'a' is listed twice" in report.findings[0].message
    assert report.exit_code == 2


def test_validate_prints_the_verdict_first_as_terragen_validate(small, capsys):
    _, board = small
    code, mine, _ = run(["terralogical", "validate", str(board)], capsys)
    code2, top, _ = run(["validate", str(board)], capsys)
    assert code == code2 == 2 and mine == top
    assert mine.splitlines()[0] == f"{board}: INVALID terralogical position (1 error, 0 warnings)"
