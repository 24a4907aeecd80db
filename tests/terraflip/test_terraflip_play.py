"""Whole games: invariants after every action, hidden information, determinism."""

from __future__ import annotations

import random

import pytest

from terragen.errors import IllegalActionError, SpecError
from terragen.terraflip.formats import position_from_state
from terragen.terraflip.players import belief, make_policy
from terragen.terraflip.rules import Options, reachable_from_tower
from terragen.terraflip.simulate import PlaySpec, play_game, simulate
from terragen.terraflip.state import Action, GameState
from terragen.terraflip.validation import validate_position


@pytest.mark.parametrize("players,lines", [(2, "centres"), (3, "axes"), (4, "centres")])
def test_random_games_keep_every_rule_after_every_action(players, lines):
    state = GameState.new(players, options=Options(lines=lines))
    rng = random.Random(players)
    agents = [make_policy("random", rng.randrange(1000)) for _ in range(players)]
    steps = 0
    while not state.is_terminal():
        action = agents[state.current].act(state)
        assert action in state.legal_actions()
        state.apply(action)
        steps += 1
        report = validate_position(position_from_state(state))
        assert report.valid, [f.format() for f in report.errors]
        assert reachable_from_tower(state.board) == set(state.board.cells)
        for p in state.board.cells.values():
            if p.tile.special:
                assert p.up == p.tile.family
    assert all(not hand for hand in state.hands)
    assert len(state.board.cells) == 12 * players
    assert steps >= 12 * players


def test_illegal_action_is_refused():
    state = GameState.new(2)
    with pytest.raises(IllegalActionError):
        state.apply(Action("place", (3, 0), state.hands[0][0]))  # not touching anything
    with pytest.raises(IllegalActionError):
        state.apply(Action("flip", (1, 0)))
    with pytest.raises(SpecError):
        GameState.new(5)


def test_memoryless_belief_ignores_what_was_seen_memory_uses_it(table):
    t = table()
    t.put((1, 0), "blue", hidden="green")
    t.put((2, 0), "blue", up="gray")  # flipped earlier: shows gray, blue underneath
    st = t.state(3)
    base = belief(st, 3, (1, 0), memory=False)
    assert base == pytest.approx({"green": 3 / 9, "gray": 3 / 9, "yellow": 3 / 9}, abs=0.12)
    assert belief(st, 3, (2, 0), memory=False) == {"blue": 1.0}
    assert st.apply(Action("spy", (1, 0))) == "green"
    assert belief(st, 3, (1, 0), memory=True) == {"green": 1.0}
    assert belief(st, 3, (1, 0), memory=False) == base
    assert not st.knows(0, st.board.cells[(1, 0)].tile.id) or st.options.owner_knows_backs


def test_flips_become_public_knowledge(table):
    t = table()
    t.put((1, 0), "yellow")
    t.put((2, 0), "blue", hidden="green")
    st = t.state(3)
    st.apply(Action("place", (3, 0), st.hands[3][0]))
    st.apply(Action("flip", (2, 0)))
    tid = st.board.cells[(2, 0)].tile.id
    assert all(st.knows(seat, tid) for seat in range(4))


def test_simulation_is_deterministic_and_reports_every_seat():
    spec = PlaySpec(players=3, games=3, seed=9, policies=("greedy",))
    a, b = simulate(spec), simulate(spec)
    assert a == b
    assert [s["seat"] for s in a["seats"]] == [0, 1, 2]
    assert sum(s["win_rate_with_bonus"] for s in a["seats"]) == pytest.approx(1.0)
    assert sum(s["win_rate_without_bonus"] for s in a["seats"]) == pytest.approx(1.0)
    assert min(a["proposed_bonus"]) == 0
    for s in a["seats"]:
        assert s["mean_total"] == pytest.approx(s["mean_points"] + a["bonus"][s["seat"]])


def test_policies_differ_and_memory_spends_spies():
    state = play_game(4, ("memory",) * 4, 3, None, None)
    assert sum(state.spies) < 12
    assert any("spies" in line for line in state.log)
    with pytest.raises(SpecError):
        simulate(PlaySpec(players=4, games=1, policies=("random", "greedy")))


def test_fairest_bonus_closes_a_known_gap():
    from terragen.terraflip.simulate import fairest_bonus, win_rates

    # seat 1 always scores 2 more on equal tiles: a bonus of 2 makes every game a shared win
    games = [[(20, 10), (22, 10)]] * 5
    bonus, rates = fairest_bonus(games, 2)
    assert bonus == [2, 0] and rates == [0.5, 0.5]
    assert win_rates(games, (0, 0)) == [0.0, 1.0]
    assert win_rates(games, (3, 0)) == [1.0, 0.0]
