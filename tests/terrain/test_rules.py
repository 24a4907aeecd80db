"""The rulebook's worked figures, derived from the rules rather than typed in."""

from terragen.terrain.rules import (
    BAD_WEATHER_FACTOR, budget_counts, probability_budget_at_least, roll_budgets, step_allowed, step_cost,
)


def test_worked_costs_from_the_rulebook():
    # one hex on the level: 1 MP good weather, 2 MP bad
    assert step_cost(0) == 1 and step_cost(0) * BAD_WEATHER_FACTOR == 2
    # down two levels: 2 / 4
    assert step_cost(-2) == 2 and step_cost(-2) * BAD_WEATHER_FACTOR == 4
    # up two levels: 3 / 6
    assert step_cost(2) == 3 and step_cost(2) * BAD_WEATHER_FACTOR == 6


def test_elevation_rule_blocks_more_than_three_levels():
    assert all(step_allowed(d) for d in range(-3, 4))
    assert not step_allowed(4) and not step_allowed(-4)


def test_dice_table():
    rolls = roll_budgets()
    assert len(rolls) == 36
    assert sum(1 for *_, b in rolls if b is None) == 6  # six doubles, no move
    assert sum(budget_counts()) == 30


def test_up_three_step_fails_81_percent_of_turns():
    # an up-3 step costs 4 MP in good weather (8 in bad); the chance a turn's roll covers it
    cost = step_cost(3)
    assert cost == 4
    p_not = 1.0 - probability_budget_at_least(cost)
    assert round(100 * p_not) == 81
    # cross-check by brute force over both dice
    ok = 0
    for white in range(1, 7):
        for red in range(1, 7):
            if white == red:
                continue
            factor = BAD_WEATHER_FACTOR if red % 2 else 1
            ok += cost * factor <= white
    assert abs(p_not - (1 - ok / 36)) < 1e-12
