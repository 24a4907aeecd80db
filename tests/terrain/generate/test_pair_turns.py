"""Piece turns that correct a pair of the class search whose fresh check missed by a little
(``pair_turns.py``)."""

from __future__ import annotations

import pytest

from terragen.terrain.generate.fresh_checks import Tally
from tests.terrain.generate.conftest import captured_balancer


@pytest.fixture()
def balancer(monkeypatch):
    """The balancer of the first spec-valid terrain of a 4-seat medium board (two seat classes)."""
    bal = captured_balancer(monkeypatch, {"players": 4, "difficulty": "medium"}, 5)
    assert len(bal.classes) == 2
    return bal


def _race_oracle(bal, monkeypatch, lean: float):
    """Make the balancer's "games" win what the exact race model of the board played says, with
    the first class ``lean`` ahead for both kinds of player (what tokens meeting do, which no
    model sees), and its greedy players' solo model the race model (no solo games)."""
    from terragen.terrain.generate.balance import Balancer
    from terragen.terrain.race import race_for_layout

    first = set(bal.classes[0])

    def play(layout, tally, size):
        rates = race_for_layout(layout).win_probability_rotating
        rates = [r + (lean if s in first else -lean * len(first) / (bal.n - len(first))) for s, r in enumerate(rates)]
        tally.wins = [round(r * size) for r in rates]
        tally.played = size

    monkeypatch.setattr(bal, "play", play)
    monkeypatch.setattr(Balancer, "class_solo_model", Balancer.modelled)
    monkeypatch.setattr(Balancer, "prefetch_solos_of", lambda self, wanted: None)
    return play


def _screened(bal, play, seed: int = 1, games: int = 2400):
    tallies = Tally("greedy", seed, bal.n), Tally("solitary", seed, bal.n)
    for t in tallies:
        play(bal.to_layout(bal.cand), t, games)
    return tallies


def test_turned_versions_stay_symmetric_and_turn_only_pieces_by_the_routes(balancer):
    from terragen.terrain.generate.evaluate import tour
    from terragen.terrain.generate.pair_turns import PAIR_TURNS, turn_candidates

    bal = balancer
    board = bal.cand.board
    route = set()
    for c in bal.classes:
        for i in tour(board, bal.cand.starts[c[0]], bal.cand.dests[c[0]]).path:
            route |= {i, *(j for j in board.nbr[i] if j >= 0)}
    orbit_of = bal.mirror.orbit_of
    tried: set = set()
    turned = turn_candidates(bal, tried)
    assert 0 < len(turned) <= PAIR_TURNS
    assert len({tuple(t.board.rotation) for t in turned}) == len(turned)
    for t in turned:
        changed = [i for i, (a, b) in enumerate(zip(board.rotation, t.board.rotation)) if a != b]
        assert changed and t.board.level == board.level and t.board.pattern == board.pattern
        assert any(set(orbit_of[i]) & route for i in changed)  # a route piece and its images
        assert bal.mirror.is_symmetric(t)
    again = turn_candidates(bal, tried)  # the next call offers only boards not offered before
    assert not {tuple(t.board.rotation) for t in again} & {tuple(t.board.rotation) for t in turned}


def test_a_near_miss_pair_is_put_right_by_the_turn_the_race_model_predicts(balancer, monkeypatch):
    """The pair on the board misses its screening by 1.6 points for both kinds of player (a
    lean no model sees); a turn the race model says moves the first class back by about that
    much passes the screening, keeps every requirement and the board symmetric, and the
    terrain comes back when the search moves on."""
    from terragen.terrain.generate.pair_turns import near_miss

    bal = balancer
    base = bal.cand.board
    fair_lean = bal.fair - bal.modelled(bal.cand.dests)[bal.classes[0][0]]
    play = _race_oracle(bal, monkeypatch, fair_lean + 0.016)
    greedy, lone = _screened(bal, play)
    limits = {"greedy": bal._class_limit(0.15, 2400), "solitary": bal._class_limit(0.3, 2400)}
    assert bal.worst(bal.pooled(greedy.rates)) > limits["greedy"]
    assert near_miss(bal, greedy, lone, 2400)
    said = []
    monkeypatch.setattr(bal, "_say", said.append)
    assert bal._turn_pair((400, 1200, 2400), limits, greedy, lone)
    assert bal.cand.board is not base and bal.mirror.is_symmetric(bal.cand)
    again = _screened(bal, play, seed=2)
    assert all(bal.worst(bal.pooled(t.rates)) <= limits[t.policy] for t in again)
    from terragen.terrain.generate.balance import Balancer

    dests = bal.cand.dests
    judge = Balancer(bal.spec, bal.cand.copy(), bal.to_layout, bal.settings, bal.seed, bal.attempt, bal.should_stop)
    turns = [judge.turns(s, d) for s, d in enumerate(dests)]
    assert all(judge.seat_ok(s, d, t) for s, (d, t) in enumerate(zip(dests, turns))) and judge._cross_ok(dests, turns)
    assert said and "turned piece" in said[-1]
    assert bal._unturn() and bal.cand.board is base


@pytest.mark.parametrize("points", [3.5, -3.5])
def test_a_pair_far_off_is_no_near_miss(balancer, monkeypatch, points):
    from terragen.terrain.generate.pair_turns import near_miss

    bal = balancer
    fair_lean = bal.fair - bal.modelled(bal.cand.dests)[bal.classes[0][0]]
    greedy, lone = _screened(bal, _race_oracle(bal, monkeypatch, fair_lean + points / 100))
    assert not near_miss(bal, greedy, lone, 2400)


def test_no_turn_is_screened_when_none_is_predicted_to_pass(balancer, monkeypatch):
    """With greedy and solitary players leaning opposite ways by more than any single turn can
    part them under the race model, no turn is offered and the board is left as it was."""
    bal = balancer
    base = bal.cand.board
    a = bal.classes[0][0]
    fair_lean = bal.fair - bal.modelled(bal.cand.dests)[a]
    play = _race_oracle(bal, monkeypatch, fair_lean)
    greedy, lone = _screened(bal, play)
    first = set(bal.classes[0])
    for t, lean in ((greedy, 0.015), (lone, -0.015)):
        t.wins = [w + round((lean if s in first else -lean) * t.played) for s, w in enumerate(t.wins)]
    limits = {"greedy": bal._class_limit(0.15, 2400), "solitary": bal._class_limit(0.3, 2400)}
    assert not bal._turn_pair((400, 1200, 2400), limits, greedy, lone)
    assert bal.cand.board is base


def test_a_class_race_gives_every_seat_its_own_chances(balancer):
    """The turned boards' race model plays one seat per class (its images have the same race);
    on a symmetric board that must give what the race of every seat gives."""
    from terragen.terrain.generate.pair_turns import _class_race, turn_candidates

    bal = balancer
    from terragen.terrain.generate.balance import Balancer

    for cand in [bal.cand, *turn_candidates(bal, set())[:3]]:
        judge = Balancer(bal.spec, cand, bal.to_layout, bal.settings, bal.seed, bal.attempt, bal.should_stop)
        assert _class_race(judge, cand.dests) == pytest.approx(judge.modelled(cand.dests), abs=1e-9)


def _check_record(tally) -> dict:
    """A fresh check's record as the balancer keeps it (what ``_turn_after_check`` reads)."""
    return {"policy": tally.policy, "seed": tally.seed, "games": tally.played,
            "win_rates": [w / tally.played for w in tally.wins]}


def test_a_check_that_missed_by_a_little_is_followed_by_the_turned_pair(balancer, monkeypatch):
    """The check measured the first class 1.6 points ahead for solitary players and stopped
    there (greedy players were not played): the pair's screening stands in for greedy
    players, and the pair comes back with a piece turned, screened and ready for the next
    check."""
    bal = balancer
    base = bal.cand.board
    fair_lean = bal.fair - bal.modelled(bal.cand.dests)[bal.classes[0][0]]
    play = _race_oracle(bal, monkeypatch, fair_lean + 0.016)
    greedy, lone = _screened(bal, play, seed=3)
    bal._screened = {"greedy": greedy}
    monkeypatch.setattr(bal, "_say", lambda msg: None)
    assert bal._turn_after_check([_check_record(lone)], 2400)
    assert bal.cand.board is not base and bal.mirror.is_symmetric(bal.cand)
    assert bal._unturn() and bal.cand.board is base


@pytest.mark.parametrize("lean, screened", [(0.035, ("greedy",)), (0.016, ())])
def test_no_turn_after_a_check_far_off_or_with_a_kind_of_player_never_measured(balancer, monkeypatch, lean, screened):
    bal = balancer
    base = bal.cand.board
    fair_lean = bal.fair - bal.modelled(bal.cand.dests)[bal.classes[0][0]]
    greedy, lone = _screened(bal, _race_oracle(bal, monkeypatch, fair_lean + lean))
    bal._screened = {p: t for p, t in (("greedy", greedy),) if p in screened}
    assert not bal._turn_after_check([_check_record(lone)], 2400)
    assert bal.cand.board is base
