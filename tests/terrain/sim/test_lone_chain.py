"""The exact lone-token chain against the race model (a player who never turns a piece) and
against sampled games (a greedy player who does)."""

from __future__ import annotations

import copy
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from terragen.terrain.files import load_layout
from terragen.terrain.race import race_for_layout
from terragen.terrain.sim import lone_chain as lone_chain_module
from terragen.terrain.sim.lone_chain import can_chain, lone_chain
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.runner import run_games
from terragen.terrain.sim.variants import Rules
from tests.terrain.helpers import EXAMPLES, random_layout, with_players


def lone(layout, seat: int):
    """``layout`` with only seat ``seat`` at the table."""
    one = copy.deepcopy(layout)
    one.players = [one.players[seat]]
    return one


def sampled_cdf(layout, policy: str, games: int, seed: int) -> tuple[list[float], float, int]:
    played = run_games(layout, Rules(), [policy], seed, 0, games)
    top = max(g.rounds for g in played)
    cdf = [sum(1 for g in played if not g.capped and g.rounds <= t) / games for t in range(top + 1)]
    return cdf, sum(g.rounds for g in played) / games, sum(g.rotations for g in played)


@pytest.mark.parametrize("name, seat", [("four-players.txt", 0), ("four-players.txt", 3), ("six-players.txt", 2),
                                        ("two-players.txt", 1)])
def test_a_player_who_never_turns_a_piece_gives_the_race_model_exactly(name, seat):
    layout = lone(load_layout(EXAMPLES / name), seat)
    found = lone_chain(layout, Rules(), load_policy("solitary"), tail=1e-9)
    assert found is not None
    chain = found.cdf
    model = race_for_layout(layout, tail=1e-9).seats[0].cdf
    assert max(abs(a - b) for a, b in zip(chain, model)) < 1e-9
    assert abs(chain[-1] - model[-1]) < 1e-8


@pytest.mark.parametrize("name, seat, policy", [("four-players.txt", 1, "greedy"), ("six-players.txt", 4, "greedy"),
                                                ("two-players.txt", 0, "greedy"), ("four-players.txt", 2, "expert"),
                                                ("six-players.txt", 0, "expert")])
def test_lone_games_that_turn_pieces_follow_the_chain(name, seat, policy):
    layout = lone(load_layout(EXAMPLES / name), seat)
    found = lone_chain(layout, Rules(), load_policy(policy))
    chain = found.cdf
    assert found.states > 1 and found.work_turns > 0
    games = 4000
    sampled, mean, rotations = sampled_cdf(layout, policy, games, seed=5)
    assert rotations > 0  # the greedy player turned pieces on doubles: the chain's board states matter
    # Dvoretzky-Kiefer-Wolfowitz: the sampled cdf strays this far with odds of about 1 in 1,000
    eps = math.sqrt(math.log(2 / 0.001) / (2 * games))
    for t in range(max(len(chain), len(sampled))):
        exact = chain[min(t, len(chain) - 1)]
        seen = sampled[min(t, len(sampled) - 1)]
        assert abs(exact - seen) <= eps, (t, exact, seen)
    expected = sum(1 - f for f in chain)
    sd = math.sqrt(sum((2 * t + 1) * (1 - f) for t, f in enumerate(chain)) - expected ** 2)
    assert abs(mean - expected) <= 4 * sd / math.sqrt(games)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), corner=st.integers(0, 5), dest=st.sampled_from([(0, 0), (1, -1), (-1, 2), (2, 0)]))
def test_the_chain_is_a_distribution_and_matches_the_race_for_solitary_players(seed, corner, dest):
    layout = with_players(random_layout(seed, radius=3, levels=(1, 3)), [(corner, [dest])])
    found = lone_chain(layout, Rules(), load_policy("greedy"))
    assert found is not None
    greedy = found.cdf
    assert greedy[0] == 0.0
    assert all(0.0 <= a <= b <= 1.0 for a, b in zip(greedy, greedy[1:]))
    solitary = lone_chain(layout, Rules(), load_policy("solitary"), tail=1e-9).cdf
    model = race_for_layout(layout, tail=1e-9).seats[0].cdf
    assert max(abs(a - b) for a, b in zip(solitary, model)) < 1e-9


def test_players_and_rules_the_chain_does_not_describe():
    greedy = load_policy("greedy")
    assert can_chain(greedy, Rules()) and can_chain(load_policy("solitary"), Rules())
    assert can_chain(load_policy("expert"), Rules())  # it looks at the others, but alone there are none
    assert not can_chain(load_policy("random"), Rules())
    assert not can_chain(greedy, Rules(inversion=True))  # a double 6 may invert: not every double alike
    assert not can_chain(greedy, Rules(interactions=False))
    with pytest.raises(ValueError):
        lone_chain(load_layout(EXAMPLES / "two-players.txt"), Rules(), greedy)


def test_a_chain_too_large_asks_for_sampling(monkeypatch):
    monkeypatch.setattr(lone_chain_module, "MAX_STATES", 3)
    layout = lone(load_layout(EXAMPLES / "four-players.txt"), 0)
    assert lone_chain(layout, Rules(), load_policy("greedy")) is None
    monkeypatch.setattr(lone_chain_module, "MAX_STATES", 20_000)
    assert lone_chain(layout, Rules(), load_policy("greedy")) is not None


def test_the_turns_made_by_the_finish_add_up_to_the_finished_share():
    layout = lone(load_layout(EXAMPLES / "four-players.txt"), 1)
    greedy = lone_chain(layout, Rules(), load_policy("greedy"))
    assert abs(sum(p for p, _ in greedy.turns_at_finish) - greedy.cdf[-1]) < 1e-9
    assert any(turns for _, turns in greedy.turns_at_finish)  # it turned pieces in some games
    probs = [p for p, _ in greedy.turns_at_finish]
    assert probs == sorted(probs, reverse=True)
    solitary = lone_chain(layout, Rules(), load_policy("solitary"))
    assert [turns for _, turns in solitary.turns_at_finish] == [()]  # it never turns a piece


@settings(max_examples=15, deadline=None)
@example(seed=192, corner=0, dests=[(0, 0), (1, -1)])  # a board state reached with a symmetric piece turned two ways
@given(seed=st.integers(0, 10_000), corner=st.integers(0, 5),
       dests=st.lists(st.sampled_from([(0, 0), (1, -1), (-1, 2), (2, 0), (-2, -1), (3, -3)]), min_size=1,
                      max_size=3, unique=True))
def test_the_compiled_greedy_answers_build_the_same_chain(seed, corner, dests):
    from terragen.terrain.sim import greedy_kernels

    if not greedy_kernels.COMPILED:
        pytest.skip("the compiled table kernels were not built")
    layout = with_players(random_layout(seed, radius=4, levels=(1, 5)), [(corner, dests)])
    fast = lone_chain(layout, Rules(), load_policy("greedy"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(greedy_kernels, "COMPILED", False)
        slow = lone_chain(layout, Rules(), load_policy("greedy"))
    assert fast == slow
