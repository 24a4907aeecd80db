"""A board the experts' glance refuses late in a search is set aside, not written at once: the
search goes on for a board the glance passes (on four and six seats for up to half again its work budget),
and when none comes in time the one set aside that the glance read fairest is written
(``generate_board``, ``LATE_SHARE``, ``REFUSED_EXTRA_SHARE``). Early in a six-seat search a board
the glance passes near the margin is held back the same way (``EARLY_SHARE``)."""

from __future__ import annotations

import itertools

import pytest

from terragen.terrain.generate import balance as balance_module
from terragen.terrain.generate import generate_board
from terragen.terrain.generate.spec import spec_from_dict

SPEC = {"players": 4, "difficulty": "easy"}


def _fake_balancer(monkeypatch, readings):
    """Balancer.run returning, terrain after terrain, a record whose experts' glance read the
    classes ``readings[k]`` off (None: a board the glance passes; a reading over 0.025 is refused,
    one within it is a board the glance passed near the margin early in the search, held back);
    returns the readings given out."""
    given = []
    stream = itertools.chain(readings, itertools.repeat(0.09))

    def run(self):
        reading = next(stream)
        given.append(reading)
        verdict = "NOT PLAINLY OFF" if reading is None or reading <= 0.025 else "PLAINLY OFF"
        glance = {"games": 600, "seed": len(given), "policy": "expert", "pooled_worst_deviation": reading or 0.0,
                  "pooled_limit": 0.025, "verdict": verdict}
        if reading is not None and reading <= 0.025:
            glance["held_above"] = 0.02
        return {"verification": [], "expert_glance": glance}

    monkeypatch.setattr(balance_module.Balancer, "run", run)
    return given


def test_boards_refused_late_are_set_aside_and_the_fairest_is_written_when_the_work_runs_out(monkeypatch):
    given = _fake_balancer(monkeypatch, [0.05, 0.03, 0.07, 0.04])
    layout = generate_board(spec_from_dict(SPEC), 7, time_limit=60, budget=400_000)
    glance = layout.extra["meta"]["balance"]["expert_glance"]
    assert len(given) >= 4, "the search stopped at the first board the glance refused"
    assert glance["verdict"] == "PLAINLY OFF" and glance["pooled_worst_deviation"] == min(given)
    assert glance["chosen_from"] == len(given)


def test_five_seats_write_the_first_board_refused_late_at_once(monkeypatch):
    """Five seats have the least time to spare, and going on found nothing better there."""
    given = _fake_balancer(monkeypatch, [0.05, 0.03])
    layout = generate_board(spec_from_dict({"players": 5, "difficulty": "easy"}), 7, time_limit=60, budget=10**9)
    glance = layout.extra["meta"]["balance"]["expert_glance"]
    assert given == [0.05] and glance["pooled_worst_deviation"] == 0.05 and "chosen_from" not in glance


def test_a_board_the_glance_passes_after_some_were_set_aside_is_written_at_once(monkeypatch):
    given = _fake_balancer(monkeypatch, [0.05, 0.03, None, 0.01])
    layout = generate_board(spec_from_dict(SPEC), 7, time_limit=60, budget=10**9)
    glance = layout.extra["meta"]["balance"]["expert_glance"]
    assert given == [0.05, 0.03, None]
    assert glance["verdict"] == "NOT PLAINLY OFF" and "chosen_from" not in glance


def _asked_at(monkeypatch, players: int, share: float, ask) -> bool:
    """What ``ask(balancer)`` says at a search's first terrain once ``share`` of its 60 s clock has
    passed (its work budget left large)."""
    import time

    seen = []

    def run(self):
        real = time.monotonic
        with monkeypatch.context() as clock:
            clock.setattr(time, "monotonic", lambda: real() + share * 60)
            seen.append(ask(self))
        return {"verification": [], "expert_glance": {"games": 600, "seed": 1, "policy": "expert",
                                                      "pooled_worst_deviation": 0.0, "pooled_limit": 0.025,
                                                      "verdict": "NOT PLAINLY OFF"}}

    monkeypatch.setattr(balance_module.Balancer, "run", run)
    generate_board(spec_from_dict({"players": players, "difficulty": "easy"}), 7, time_limit=60, budget=10**9)
    assert len(seen) == 1
    return seen[0]


@pytest.mark.parametrize("players, late_at_half", [(4, True), (5, False), (6, False)])
def test_five_and_six_seats_are_not_late_for_the_glance_at_half_their_time(monkeypatch, players, late_at_half):
    """Four seats count a search as late (a board the glance refuses is kept, not dropped) from 40%
    of the clock or of the work budget; five and six seats only from 70%, as the boards five seats
    wrote after a refusal at 40-70% were all several points off for experts."""
    assert _asked_at(monkeypatch, players, 0.5, lambda balancer: balancer.late()) == late_at_half


@pytest.mark.parametrize("players, share, early", [(6, 0.2, True), (6, 0.35, False), (4, 0.2, True),
                                                     (4, 0.35, False), (5, 0.0, False)])
def test_four_and_six_seat_searches_are_early_for_the_glance_for_their_first_30_percent(monkeypatch, players,
                                                                                         share, early):
    """Four- and six-seat searches hold back boards the glance reads near the margin for the first
    30% of their clock or work budget (``EARLY_SHARE``); five-seat ones never do."""
    assert _asked_at(monkeypatch, players, share, lambda balancer: balancer.early()) == early


def _terrains_searched(monkeypatch, readings, players=4, extra_share=None):
    """How many terrains a search of ``players`` seats and a fixed work budget reached with the glance
    reading ``readings`` (then refusing every board), and the board it wrote; ``extra_share`` replaces
    the work a search that set a board aside may spend past its budget."""
    from terragen.terrain import generate as generate_module

    with monkeypatch.context() as patched:
        given = _fake_balancer(patched, readings)
        if extra_share is not None:
            patched.setattr(generate_module, "REFUSED_EXTRA_SHARE", {players: extra_share})
        spec = spec_from_dict({"players": players, "difficulty": "easy"})
        layout = generate_board(spec, 7, time_limit=60, budget=400_000)
    return len(given), layout.extra["meta"]["balance"]["expert_glance"]


@pytest.mark.parametrize("players", [4, 6])
def test_a_search_that_set_a_board_aside_goes_on_past_its_budget(monkeypatch, players):
    """A board the glance refused is all such a run would write, and it is off for experts: the
    search spends up to half again its work for one the glance passes, and writes that one."""
    at_budget, _ = _terrains_searched(monkeypatch, [], players, extra_share=0.0)
    past_budget, written = _terrains_searched(monkeypatch, [], players)
    assert past_budget > at_budget and written["verdict"] == "PLAINLY OFF"
    # a board the glance passes, found only in the extra work, is the one written
    _, written = _terrains_searched(monkeypatch, [0.05] * at_budget + [None], players)
    assert written["verdict"] == "NOT PLAINLY OFF"
    _, without = _terrains_searched(monkeypatch, [0.05] * at_budget + [None], players, extra_share=0.0)
    assert without["verdict"] == "PLAINLY OFF"


def test_a_board_held_back_as_near_the_margin_is_written_only_if_no_closer_one_comes(monkeypatch):
    """A board the glance passed near the margin early in the search is held back: a board it passes
    plainly later is written instead; when none comes before the work runs out, the held board read
    fairest is written, before any board the glance refused."""
    six = spec_from_dict({"players": 6, "difficulty": "easy"})
    given = _fake_balancer(monkeypatch, [0.024, 0.05, None])
    layout = generate_board(six, 7, time_limit=60, budget=10**9)
    assert given == [0.024, 0.05, None] and "held_above" not in layout.extra["meta"]["balance"]["expert_glance"]
    with monkeypatch.context() as patched:
        given = _fake_balancer(patched, [0.05, 0.024, 0.022])
        written = generate_board(six, 7, time_limit=60, budget=400_000).extra["meta"]["balance"]["expert_glance"]
    assert len(given) > 3, "the search stopped at a board it held back"
    assert written["pooled_worst_deviation"] == 0.022 and written["held_from"] == 2
    assert written["verdict"] == "NOT PLAINLY OFF"
