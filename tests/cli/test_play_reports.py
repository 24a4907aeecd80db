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
    for s in seats:
        assert s["win_rate"] == pytest.approx(s["wins"] / games, abs=1e-4)
        lo, hi = s["win_rate_ci95"]
        assert 0 <= lo <= s["win_rate"] <= hi <= 1
    # wins are never counted twice: shared wins are split, draws go to nobody
    assert sum(s["wins"] for s in seats) <= games + 1e-6


def test_shared_wins_are_fractions_and_whole_counts_stay_whole():
    from terragen.intervals import whole_or_share

    assert whole_or_share(3.0) == 3 and isinstance(whole_or_share(3.0), int)
    assert whole_or_share(2.5) == 2.5
    assert whole_or_share(1 / 3 + 1) == pytest.approx(1.3333)
