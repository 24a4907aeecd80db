"""The race model against the simulator with interactions turned off, and the switch itself."""

from __future__ import annotations

import math
import random

import pytest

from terragen.terrain.files import load_layout
from terragen.terrain.race import race_for_layout
from terragen.terrain.sim import Rules, simulate_layout
from terragen.terrain.sim.dice import ScriptedDice
from terragen.terrain.sim.engine import Roll, apply_move, move_options, take_turn
from terragen.terrain.sim.policies import GreedyPolicy
from terragen.terrain.sim.runner import run_games
from terragen.terrain.sim.state import GameState, setup_from_layout
from tests.terrain.helpers import EXAMPLES
from tests.terrain.sim.sim_helpers import make_layout

Z = 3.9  # about 1 in 10,000 per comparison: a failure means the models disagree, not bad luck


def within(observed: float, expected: float, n: int) -> bool:
    sd = math.sqrt(max(expected * (1 - expected), 1e-4) / n)
    return abs(observed - expected) <= Z * sd


def test_win_rates_follow_the_race_model_without_interactions():
    layout = load_layout(EXAMPLES / "six-players.txt")
    race = race_for_layout(layout)
    games = 1500
    report = simulate_layout(layout, games=games, seed=11, policy="solitary",
                             rules=Rules(interactions=False, rotate_start=False))
    assert report.send_backs_per_game == 0 and report.rotations_per_game == 0
    for seat, p in zip(report.seats, race.win_probability):
        assert within(seat.rate, p, games), (seat.seat, seat.rate, p)


def test_rotating_opener_follows_the_rotating_race():
    layout = load_layout(EXAMPLES / "four-players.txt")
    race = race_for_layout(layout)
    games = 1200
    report = simulate_layout(layout, games=games, seed=3, policy="solitary", rules=Rules(interactions=False))
    for seat, p in zip(report.seats, race.win_probability_rotating):
        assert within(seat.rate, p, games), (seat.seat, seat.rate, p)


def test_finishing_rounds_of_a_lone_token_follow_its_distribution():
    layout = load_layout(EXAMPLES / "two-players.txt")
    layout.players = layout.players[1:]
    seat = race_for_layout(layout).seats[0]
    games = 1500
    rounds = [g.rounds for g in run_games(layout, Rules(interactions=False), ["solitary"], 4, 0, games)]
    for t in (seat.quantile(0.25), seat.quantile(0.5), seat.quantile(0.9)):
        share = sum(1 for r in rounds if r <= t) / games
        assert within(share, seat.cdf[t], games), (t, share, seat.cdf[t])
    mean = sum(rounds) / games
    sd = math.sqrt(sum((r - mean) ** 2 for r in rounds) / (games - 1))
    assert abs(mean - seat.expected_rounds) <= Z * sd / math.sqrt(games)


def test_without_interactions_tokens_share_cells_and_doubles_are_lost():
    layout = make_layout(2, players=[(0, [(-2, 0)]), (3, [(2, 0)])], pattern="D", rotation=0)
    for interactions in (True, False):
        rules = Rules(interactions=interactions, rotate_start=False)
        setup = setup_from_layout(layout, rules)
        state = GameState.new(setup, rules, random.Random(0))
        home0 = setup.starts[0]
        # seat 1 may end on seat 0's token at home only when tokens do not meet
        options = move_options(state, 1, Roll(6, 2))
        assert (home0 in options) == (not interactions)
        apply_move(state, 0, setup.board.index[(1, 0)])
        apply_move(state, 1, setup.board.index[(1, 0)])
        assert state.pos[0] == (setup.board.index[(1, 0)] if not interactions else home0)
        assert state.send_backs == (1 if interactions else 0)
        # doubles: a greedy player that wants to turn a piece must forfeit without interactions
        before = list(state.board.rotation)
        take_turn(state, 0, GreedyPolicy(), ScriptedDice([(3, 3)]))
        if interactions:
            assert state.rotations + state.forfeits == 1
        else:
            assert state.board.rotation == before and state.forfeits == 1 and state.rotations == 0


def test_variant_name_and_description():
    from terragen.terrain.sim.variants import rules_from_names

    rules = rules_from_names(["no-interactions"], 4)
    assert not rules.interactions and not rules.send_back and not rules.rotations_matter
    assert "no-interactions" in rules.describe()


def test_default_games_keep_the_verdicts_noise_small():
    from terragen.terrain.sim import default_games

    assert [default_games(k) for k in (2, 4, 6)] == [19600, 14700, 10890]
    for sides in range(2, 7):
        n = default_games(sides)
        p = 1 / sides
        assert math.sqrt(p * (1 - p) / n) <= 0.025 / 7 + 1e-12 and n % sides == 0
    assert default_games(2, margin=0.05) == 4900
    assert default_games(2, seats=4) % 4 == 0  # teams: every seat opens equally often


def test_simulate_help_names_the_default_games():
    """The numbers ``terragen simulate --help`` promises are the ones it plays."""
    import re
    import subprocess
    import sys

    from terragen.terrain.sim import default_games

    out = subprocess.run([sys.executable, "-m", "terragen", "simulate", "--help"], capture_output=True, text=True,
                         check=True).stdout
    text = " ".join(out.split())
    said = {int(k): int(v) for v, k in re.findall(r"(\d+) for (\d)\b", text)}
    assert said == {k: default_games(k) for k in range(2, 7)}


def test_two_verdicts_are_separate():
    # the four-player example finishes every game but favours seat 2 heavily
    layout = load_layout(EXAMPLES / "four-players.txt")
    rep = simulate_layout(layout, games=200, seed=1, policy="greedy")
    assert rep.playable and not rep.balanced
    assert any("seat 2 wins" in r and "above a fair 25.0%" in r for r in rep.balance_reasons)
    data = rep.to_json()
    assert data["verdict"] == "PLAYABLE, NOT BALANCED" and data["balanced"] is False
    assert all(set(s) >= {"ci95", "deviation", "fair", "win_rate"} for s in data["seats"])
    # a wide margin makes the same games BALANCED; a turn cap of 1 round makes them NOT PLAYABLE
    assert simulate_layout(layout, games=200, seed=1, margin=1.0).balanced
    capped = simulate_layout(layout, games=20, seed=1, rules=Rules(turn_cap=1), margin=1.0)
    assert not capped.playable and capped.balanced


def test_win_rates_are_the_simulated_rates():
    from terragen.terrain.sim import win_rates

    layout = load_layout(EXAMPLES / "two-players.txt")
    rates = win_rates(layout, 60, 5, "greedy")
    rep = simulate_layout(layout, games=60, seed=5, policy="greedy")
    assert rates == tuple(s.rate for s in rep.seats) and len(rates) == 2


@pytest.mark.parametrize("rates,games", [([0.26, 0.24, 0.26, 0.24], 2700), ([0.26, 0.24, 0.26, 0.24], 4800),
                                         ([0.53, 0.47], 6400), ([0.18, 0.16, 0.17, 0.17, 0.16, 0.16], 3558),
                                         ([0.3, 0.2, 0.25, 0.25], 4800)])
def test_balanced_odds_match_repeated_runs(rates, games):
    """The chance that one run calls a board BALANCED, against that many runs drawn outright."""
    import numpy as np

    from terragen.terrain.sim.stats import balanced_odds

    rng = np.random.default_rng(11)
    drawn = rng.multinomial(games, np.array(rates) / sum(rates), size=20000) / games
    share = float(np.mean(np.all(np.abs(drawn - 1 / len(rates)) <= 0.025, axis=1)))
    assert abs(balanced_odds(rates, games, 0.025) - share) < 0.02, (balanced_odds(rates, games, 0.025), share)
