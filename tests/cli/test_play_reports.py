"""Every game's play report, read by one script.

A designer comparing seats across the four games should not need four parsers: each `--json`
play report names its game, its games and seed, and lists the seats in turn order, each with its
policy, wins, win rate and the rate's 95% interval under the same keys.
"""

import json

import pytest

from tests.cli.test_conventions import run_cli
from tests.terrain.helpers import EXAMPLES

REPORTS = {
    "terrain": ["simulate", EXAMPLES / "four-players.json", "--games", "120", "--seed", "117011"],
    "terrace": ["terrace", "play", "--games", "12", "--seed", "117012", "--policy", "random,greedy"],
    "terralogical": ["terralogical", "play", "--players", "3", "--games", "30", "--seed", "117013",
                     "--policy", "greedy,random,rusher"],
    "terraflip": ["terraflip", "play", "--players", "3", "--games", "30", "--seed", "117014",
                  "--policy", "memory,greedy,random"],
}


@pytest.mark.parametrize("game", sorted(REPORTS))
def test_every_play_report_shares_the_seat_keys(capsys, game):
    code, out, err = run_cli(capsys, *REPORTS[game], "--json")
    assert code in (0, 1), err  # 1: the Terrain Game's board may be NOT BALANCED on so few games
    report = json.loads(out)
    assert report["game"] == game
    games = report["games"]
    assert report["seed"] == int(REPORTS[game][REPORTS[game].index("--seed") + 1])
    policies = REPORTS[game][REPORTS[game].index("--policy") + 1].split(",") if "--policy" in REPORTS[game] else None
    seats = report["seats"]
    assert len(seats) >= 2
    if policies:
        assert [s["policy"] for s in seats] == policies
    played = report.get("played", games)  # the Terrain Game's: the games a stopped run did play
    for s in seats:
        assert s["win_rate"] == pytest.approx(s["wins"] / played, abs=1e-4)
        lo, hi = s["win_rate_ci95"]
        assert 0 <= lo <= s["win_rate"] <= hi <= 1
    # wins are never counted twice: shared wins are split, draws go to nobody
    assert sum(s["wins"] for s in seats) <= played + 1e-6


def test_shared_wins_are_fractions_and_whole_counts_stay_whole():
    from terragen.intervals import whole_or_share

    assert whole_or_share(3.0) == 3 and isinstance(whole_or_share(3.0), int)
    assert whole_or_share(2.5) == 2.5
    assert whole_or_share(1 / 3 + 1) == pytest.approx(1.3333)
    # shares that add up to a whole number in floating point's way are that whole number
    assert whole_or_share(sum([1 / 3] * 6)) == 2 and isinstance(whole_or_share(sum([1 / 3] * 6)), int)
    assert whole_or_share(4 + 1 / 3 + 1 / 3 + 1 / 3) == 5 and isinstance(whole_or_share(4.999999999999999), int)


@pytest.mark.parametrize("args, says", [
    # one wording for a policy list of the wrong length, whatever the game (TerraFlip's named no option)
    (["terraflip", "play", "--policy", "random,greedy"], "--policy: 2 given for 4 seats; give one, or one per seat"),
    (["terralogical", "play", "--policy", "random,greedy,rusher"], "--policy: 3 given for 2 seats"),
    (["terrace", "play", "--policy", "random,greedy,greedy"], "--policy: 3 given for 2 seats"),
    (["terraflip", "play", "--policy", ""], "--policy is empty: give a name"),  # it counted 0 policies
    (["terraflip", "play", "--bonus", "3,2"], "--bonus: 2 given for 4 seats"),
    (["terraflip", "play", "--bonus", ""], "--bonus is empty: give a value"),  # a bonus is a number, not a name
    # --players is a count in every game: a list of policies there is pointed to --policy
    (["terralogical", "play", "--players", "random,greedy"], "use --policy random,greedy"),
    (["terraflip", "play", "--players", "memory,random"], "use --policy memory,random"),
    (["terrace", "play", "--players", "random,greedy"], "use --policy random,greedy"),
])
def test_the_same_slip_reads_the_same_in_every_game(capsys, args, says):
    code, _, err = run_cli(capsys, *args, "--games", "1")
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err


def test_play_reports_name_the_rules_they_played(capsys):
    code, out, _ = run_cli(capsys, "terrace", "play", "--games", "1", "--t-rank", "lowest", "--no-own-t-capture")
    assert code == 0 and "T rank lowest, own T capture forbidden" in out.splitlines()[0]
    code, out, _ = run_cli(capsys, "terralogical", "play", "--games", "1", "--stall-rule", "empty-pile")
    assert code == 0 and "stall rule empty-pile" in " ".join(out.split())


def test_playing_from_a_finished_terrace_position_warns(capsys, tmp_path):
    from terragen.terrace.formats import to_text
    from terragen.terrace.position import Position

    over = tmp_path / "over.txt"  # bottom's T taken: top has won
    over.write_text(to_text(Position.start("full")).replace("t a b b c c d d", "- a b b c c d d"))
    code, _, err = run_cli(capsys, "terrace", "play", over, "--games", "2")
    assert code == 0 and "the position is already over (top (T) wins (t-captured: took the other T))" in err


@pytest.mark.parametrize("game", ["terrace", "terralogical", "terraflip"])
def test_an_unreadable_file_gives_its_place_in_fields_and_names_the_game(capsys, tmp_path, game):
    """The place was only in the message ('junk.txt:1:1: ...'), and the document named no game."""
    junk = tmp_path / "junk.txt"
    junk.write_text("junk\n")
    for command in ([game, "validate"], ["validate", "--game", game]):  # the game's command, or --game
        code, out, _ = run_cli(capsys, *command, junk, "--json")
        report = json.loads(out)
        assert code == 2 and report["game"] == game and not report["readable"]
        (error,) = report["errors"]
        assert (error["line"], error["col"]) == (1, 1) and not error["message"].startswith(str(junk))
