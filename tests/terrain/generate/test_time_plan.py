"""Planning a best-effort board's measurements inside the time limit, on a clock and a pace the
test sets (the plan only ever reads them)."""

import pytest

from terragen.terrain.generate.balance import BalanceSettings
from terragen.terrain.generate.time_plan import TimePlan

SETTINGS = BalanceSettings()
GAMES = SETTINGS.games_for(5)[2]
ONE_STATE = GAMES * (0.001 + 0.0002)  # one state measured once by greedy and once by solitary players


class Pace:
    """A pool that has timed ``greedy`` and ``solitary`` games at the given seconds per game."""

    def __init__(self, greedy: float, solitary: float) -> None:
        self.per_game = {"greedy": greedy, "solitary": solitary}

    def seconds_per_game(self, policy: str) -> float:
        return self.per_game.get(policy, 0.0)


def _plan(now: float, greedy: float = 0.001, solitary: float = 0.0002) -> TimePlan:
    return TimePlan(Pace(greedy, solitary), deadline=60.0, settings=SETTINGS, players=5, clock=lambda: now)


def test_nothing_is_reserved_before_any_game_is_timed():
    plan = _plan(59.9, greedy=0.0, solitary=0.0)
    assert plan.reserve() == 0.0 and not plan.search_over()
    assert plan.fits(3)


def test_the_search_leaves_time_for_the_verdicts_first_size_only():
    """The choice among states is not reserved for: a larger reserve would let the clock end
    searches the work budget ends on slightly slower machines, and change their boards."""
    assert _plan(0.0).reserve() == pytest.approx(ONE_STATE)
    assert not _plan(60.0 - ONE_STATE - 0.01).search_over()
    assert _plan(60.0 - ONE_STATE + 0.01).search_over()


@pytest.mark.parametrize("states_of_time, states, fit", [(2.1, 2, True), (1.9, 2, False), (1.1, 1, True)])
def test_states_fit_at_the_runs_pace_until_some_are_measured(states_of_time, states, fit):
    plan = _plan(60.0 - states_of_time * ONE_STATE)
    assert plan.fits(states) is fit
    # measured states set the pace: half the run's pace fits twice as many
    assert plan.fits(2 * states, pace=ONE_STATE / 2) is fit


def test_a_verdict_grows_only_while_the_later_checks_still_fit():
    one_solitary = GAMES * 0.0002
    plan = _plan(50.0)
    assert plan.may_spend(10.0 - one_solitary - 0.01, ["solitary"])
    assert not plan.may_spend(10.0 - one_solitary + 0.01, ["solitary"])
    assert plan.may_spend(9.99, [])
    assert not plan.may_spend(10.01, [])


def test_experts_not_yet_timed_are_planned_at_several_times_greedys_pace():
    """With --check-experts a best-effort run may reach its choice of states before any expert
    game was played; planned at no cost, the experts' measurements would run past the limit.
    The search's reserve leaves them out: planned from the first games' pace, it ended a search
    after 1 s."""
    plan = TimePlan(Pace(0.001, 0.0002), deadline=60.0, settings=SETTINGS.with_experts(), players=5,
                    clock=lambda: 0.0)
    assert plan.seconds("expert", 1000) > 5 * plan.seconds("greedy", 1000) > 0
    # the choice of states plans them (one state, experts included, fits in 60 s; two do not here)
    assert plan.fits(1) and not plan.fits(2)
    # but the search, which asks for its reserve all the time, is not stopped by that guess
    assert plan.reserve() == pytest.approx(ONE_STATE) and not plan.search_over()

    timed = Pace(0.001, 0.0002)
    timed.per_game["expert"] = 0.002
    # once timed, their own pace counts, with slack: their pace differs most from board to board
    assert TimePlan(timed, 60.0, SETTINGS.with_experts(), 5).seconds("expert", 1000) == pytest.approx(4.0)


def test_a_best_effort_choice_compares_states_on_experts_only_once_this_run_timed_them():
    """Experts measured blind in the choice of states took 19 s of a six-seat run that then ended
    10 s past its limit; until the search has timed an experts' check they are left to the verdict."""
    experts = SETTINGS.with_experts()
    assert TimePlan(Pace(0.001, 0.0002), 60.0, experts, 5).compared_policies() == ["greedy", "solitary"]
    timed = Pace(0.001, 0.0002)
    timed.per_game["expert"] = 0.002
    assert TimePlan(timed, 60.0, experts, 5).compared_policies() == ["greedy", "solitary", "expert"]
    assert TimePlan(Pace(0.001, 0.0002), 60.0, SETTINGS, 5).compared_policies() == ["greedy", "solitary"]


@pytest.mark.parametrize("seconds_left, expected", [(60.0, GAMES), (5.0, 1000), (0.5, 600)])
def test_experts_get_the_verdicts_first_size_that_fits(seconds_left, expected):
    """Planned at ten times greedy players' pace on this board (0.5 ms a game here: 5 ms an
    expert game), experts the search never timed play what fits in the time left, in whole
    rounds of openers, and never under an eighth of the size (a board is not written without a
    verdict); timed experts the same at their own pace with slack; the other kinds always play
    their full first size."""
    plan = TimePlan(Pace(0.001, 0.0002), 60.0, SETTINGS.with_experts(), 5, clock=lambda: 60.0 - seconds_left)
    paces = {"greedy": 0.0005, "solitary": 0.0001}
    assert GAMES * 0.005 < 60.0
    assert plan.first_games("expert", GAMES, paces, []) == min(GAMES, expected)
    assert plan.first_games("greedy", GAMES, paces, ["expert"]) == GAMES
    timed = Pace(0.001, 0.0002)
    timed.per_game["expert"] = 0.002  # planned at 4 ms a game
    plan = TimePlan(timed, 60.0, SETTINGS.with_experts(), 5, clock=lambda: 60.0 - seconds_left)
    assert plan.first_games("expert", GAMES, paces, []) == min(GAMES, max(600, int(seconds_left / 0.004) // 100 * 100))


def test_the_search_reserves_only_the_least_verdict_for_experts():
    """A run's first experts' check is short and on a fresh board: its pace, with slack, once
    read 52 s for a six-seat verdict's expert games and ended a search at 15 s of 60. The search
    keeps the others' first size and the experts' least one (an eighth, at their measured pace);
    the verdict then gives experts what fits."""
    timed = Pace(0.001, 0.0002)
    timed.per_game["expert"] = 0.002
    plan = TimePlan(timed, 60.0, SETTINGS.with_experts(), 5, clock=lambda: 0.0)
    assert plan.reserve() == pytest.approx(ONE_STATE + 600 * 0.002)
    assert plan.reserve() < ONE_STATE + plan.seconds("expert", GAMES) / 4
