"""Planning a best-effort board's measurements inside the time limit, on a clock and a pace the
test sets (the plan only ever reads them)."""

import pytest

from terragen.terrain.generate.balance import BalanceSettings
from terragen.terrain.generate.time_plan import TimePlan

SETTINGS = BalanceSettings()
GAMES = SETTINGS.games_for(5)[2]


class Pace:
    """A pool that has timed ``greedy`` and ``solitary`` games at the given seconds per game."""

    def __init__(self, greedy: float, solitary: float) -> None:
        self.per_game = {"greedy": greedy, "solitary": solitary}

    def seconds_per_game(self, policy: str) -> float:
        return self.per_game.get(policy, 0.0)


def _plan(now: float, greedy: float = 0.001, solitary: float = 0.0002, max_reserve: float = 9.0) -> TimePlan:
    return TimePlan(Pace(greedy, solitary), deadline=60.0, max_reserve=max_reserve, settings=SETTINGS,
                    players=5, candidates=3, clock=lambda: now)


def test_nothing_is_reserved_before_any_game_is_timed():
    plan = _plan(59.9, greedy=0.0, solitary=0.0)
    assert plan.reserve() == 0.0 and not plan.search_over()
    assert plan.fits(3)


def test_the_search_leaves_time_for_the_choice_and_the_first_verdict():
    one_state = GAMES * (0.001 + 0.0002)
    plan = _plan(0.0, max_reserve=100.0)
    assert plan.reserve() == pytest.approx(4 * one_state)  # three states compared, then the verdict
    assert not _plan(60.0 - 4 * one_state - 0.01, max_reserve=100.0).search_over()
    assert _plan(60.0 - 4 * one_state + 0.01, max_reserve=100.0).search_over()


def test_the_reserve_passes_its_cap_only_for_the_verdict_that_is_always_played():
    one_state = GAMES * (0.001 + 0.0002)
    assert _plan(0.0, max_reserve=2 * one_state).reserve() == pytest.approx(2 * one_state)
    assert _plan(60.0 - 2 * one_state + 0.01, max_reserve=2 * one_state).search_over()
    assert not _plan(60.0 - 2 * one_state - 0.01, max_reserve=2 * one_state).search_over()
    # a cap below one state: the search still leaves the verdict's first size, nothing more
    assert _plan(0.0, max_reserve=one_state / 2).reserve() == pytest.approx(one_state)


@pytest.mark.parametrize("states_of_time, states, fit", [(2.1, 2, True), (1.9, 2, False), (1.1, 1, True)])
def test_states_fit_at_the_runs_pace_until_some_are_measured(states_of_time, states, fit):
    one_state = GAMES * (0.001 + 0.0002)
    plan = _plan(60.0 - states_of_time * one_state)
    assert plan.fits(states) is fit
    # measured states set the pace: half the run's pace fits twice as many
    assert plan.fits(2 * states, pace=one_state / 2) is fit


def test_a_verdict_grows_only_while_the_later_checks_still_fit():
    one_solitary = GAMES * 0.0002
    plan = _plan(50.0)
    assert plan.may_spend(10.0 - one_solitary - 0.01, ["solitary"])
    assert not plan.may_spend(10.0 - one_solitary + 0.01, ["solitary"])
    assert plan.may_spend(9.99, [])
    assert not plan.may_spend(10.01, [])
