import json

import pytest

from terragen.cli import main


def run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["terralogical", *argv])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_deck_is_byte_identical_for_the_same_seed(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    code, out, _ = run(["deck", "--seed", "4", "--out", str(a)], capsys)
    assert code == 0 and "meadow" in out and "63 land tiles" in out
    code, _, _ = run(["deck", "--seed", "4", "--out", str(b)], capsys)
    assert a.read_bytes() == b.read_bytes()
    data = json.loads(a.read_text())
    assert data["game"] == "terralogical" and data["seed"] == 4
    assert list(data) == sorted(data)  # keys written sorted


def test_infeasible_deck_exits_3_naming_the_parameter(tmp_path, capsys):
    code, _, err = run(["deck", "--param", "min_partners=100", "--out", str(tmp_path / "x.json")], capsys)
    assert code == 3
    assert err.count("\n") == 1 and "min_partners" in err
    assert not (tmp_path / "x.json").exists()


def test_bad_param_exits_2(capsys):
    code, _, err = run(["deck", "--param", "colour=3"], capsys)
    assert code == 2 and "colour" in err and err.count("\n") == 1


def test_play_with_a_designed_deck(tmp_path, capsys):
    deck = tmp_path / "d.json"
    run(["deck", "--seed", "2", "--out", str(deck)], capsys)
    code, out, _ = run(["play", "--players", "3", "--games", "4", "--seed", "1", "--deck", str(deck), "--json"], capsys)
    assert code == 0
    stats = json.loads(out)
    assert stats["games"] == 4 and stats["players"] == 3
    code2, out2, _ = run(["play", "--players", "3", "--games", "4", "--seed", "1", "--deck", str(deck), "--json"], capsys)
    assert out2 == out


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "5"],
        ["play", "--policy", "clever"],
        ["play", "--players", "3", "--policy", "random,greedy"],
        ["play", "--deck", "/nonexistent/deck.json"],
    ],
)
def test_play_rejects_bad_input_in_one_line(argv, capsys):
    code, _, err = run(argv, capsys)
    assert code == 2 and err.count("\n") == 1


def test_validate_command(tmp_path, capsys):
    good = tmp_path / "b.txt"
    good.write_text("game: terralogical\nplayers: a b\n7,0 sun 0\n0,7 flower 0\n7,1 FFFF 0 a\n")
    code, out, _ = run(["validate", str(good)], capsys)
    assert code == 0 and "valid" in out
    good.write_text("game: terralogical\nplayers: a b\n7,0 sun 0\n0,7 flower 0\n7,1 MMMM 0 a\n")
    code, out, _ = run(["validate", str(good), "--json"], capsys)
    assert code == 1
    assert json.loads(out)["errors"][0]["code"] == "edge-mismatch"


def test_play_records_a_board_the_validator_accepts(tmp_path, capsys):
    board = tmp_path / "last.txt"
    code, _, _ = run(["play", "--games", "2", "--seed", "3", "--record", str(board)], capsys)
    assert code == 0 and board.read_text().startswith("game: terralogical\n")
    code, out, _ = run(["validate", str(board)], capsys)
    assert code == 0, out


def test_a_game_played_with_ones_own_deck_is_recorded_so_validate_reads_it(tmp_path, capsys):
    """With deck ids the shipped deck does not have, `terragen validate` found 61 false errors."""
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.formats import deck_to_json_text

    deck = json.loads(deck_to_json_text(default_deck()))
    for k, tile in enumerate(deck["tiles"]):
        tile["id"] = f"mine{k}"
    (tmp_path / "deck.json").write_text(json.dumps(deck))
    record = tmp_path / "game.txt"
    code, _, _ = run(["play", "--games", "1", "--deck", str(tmp_path / "deck.json"), "--record", str(record)], capsys)
    assert code == 0 and "mine" not in record.read_text()
    with pytest.raises(SystemExit) as exc:
        main(["validate", str(record)])  # the top-level command, which has no --deck
    assert exc.value.code == 0 and "valid terralogical position" in capsys.readouterr().out


def test_tied_flocks_rank_by_place_or_by_count(capsys):
    """Two field flocks of 3 tie for first and the third player has 2: shared places leave the 2
    without a prize; ranking the counts (--flock-ties by-count) pays it the second prize."""
    from pathlib import Path

    board = str(Path(__file__).resolve().parent.parent / "data" / "terralogical-tied-flocks.txt")
    code, out, _ = run(["validate", board, "--json"], capsys)
    share = json.loads(out)
    assert code == 0 and share["largest_flocks"]["field"] == [3, 3, 2]
    code, out, _ = run(["validate", board, "--json", "--flock-ties", "by-count"], capsys)
    by_count = json.loads(out)
    assert code == 0
    assert [b - a for a, b in zip(share["flock_points"], by_count["flock_points"])] == [0, 0, 2]
    assert by_count["final_scores"][2] == share["final_scores"][2] + 2


def test_play_reports_the_flock_ties_it_played(capsys):
    code, out, _ = run(["play", "--games", "3", "--players", "3", "--flock-ties", "by-count", "--json"], capsys)
    assert code == 0 and json.loads(out)["rules"]["flock_ties"] == "by-count"


def test_a_deck_interrupted_while_its_figures_are_worked_out_is_not_written(tmp_path, capsys, monkeypatch):
    """Exit 130 promises that nothing was written. The deck's figures were worked out again after
    the file was written (a quarter of a second for 400 tiles), so a Ctrl-C then said 'interrupted'
    over a whole deck, and the rerun was refused for an existing file. Here a Ctrl-C arrives on
    any second working-out of the deck's figures."""
    from terragen.terralogical.deck import Deck

    real = Deck.to_json
    calls = []

    def to_json(self):
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(Deck, "to_json", to_json)
    out = tmp_path / "deck.json"
    code, _, _ = run(["deck", "--seed", "2", "--out", str(out)], capsys)
    assert (code, out.exists()) in [(130, False), (0, True)]


@pytest.mark.parametrize("advantage,fair,words", [
    (-0.5, 0.5, "the first seat wins 50.0 percentage points less than a fair 50.0%"),
    (0.031, 1 / 3, "the first seat wins 3.1 percentage points more than a fair 33.3%"),
    (0.0001, 0.25, "the first seat wins its fair 25.0%"),
])
def test_the_first_seats_edge_is_said_in_words(advantage, fair, words):
    """It said "the first seat wins -50.0 points against a fair 50.0%"."""
    from terragen.cli.terralogical import _first_seat_words

    assert _first_seat_words(advantage, fair) == words


def test_the_play_report_says_the_first_seats_edge_without_a_sign(capsys):
    code, out, _ = run(["play", "--players", "2", "--games", "6", "--seed", "3"], capsys)
    said = " ".join(out.split())  # long lines are wrapped for the terminal
    assert code in (0, None) and "the first seat wins" in said and "wins -" not in said and "wins +" not in said


def test_counts_of_one_read_in_the_singular(capsys):
    """'1 games' and '1 land tiles' read as bugs in a report."""
    code, out, _ = run(["play", "--players", "2", "--games", "1", "--seed", "1"], capsys)
    assert code == 0 and out.startswith("1 game, 2 players")
    code, out, _ = run(["play", "--players", "2", "--games", "2", "--seed", "1"], capsys)
    assert out.startswith("2 games, 2 players")


def test_deck_takes_a_time_limit_as_terraflip_tiles_does(capsys):
    """The two solver commands set their limit the same way: --time-limit in deterministic seconds."""
    code, out, err = run(["deck", "--seed", "1", "--time-limit", "0.001"], capsys)
    assert code == 4 and "no deck within 0.001 deterministic seconds" in err and "--time-limit" in err
    code, _, err = run(["deck", "--seed", "1", "--time-limit", "1", "--param", "max_deterministic_time=2"], capsys)
    assert code == 2 and "not both" in err
    code, _, err = run(["deck", "--seed", "1", "--time-limit", "1", "--param", "max-deterministic-time=2"], capsys)
    assert code == 2 and "not both" in err  # the parameter's other spelling is the same parameter
    code, with_limit, _ = run(["deck", "--seed", "1", "--time-limit", "5"], capsys)
    _, default, _ = run(["deck", "--seed", "1"], capsys)
    assert code == 0 and with_limit == default  # 5 deterministic seconds is the default budget


@pytest.mark.parametrize("param, says", [
    ("cloud_share=2", "--param cloud_share=2: must be between 0 and 1"),  # it echoed 2.0, never typed
    ("min_connectors=70", "--param min_connectors=70: more than the 63 tiles"),  # it said 'param', no option
])
def test_a_deck_parameter_error_names_the_option_and_the_value_as_typed(capsys, param, says):
    code, _, err = run(["deck", "--param", param], capsys)
    assert code in (2, 3) and says in err, err
