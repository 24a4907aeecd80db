"""The Terrain Game's movement rules as pure functions: step costs, the elevation
rule, the dice and what a roll lets a token do.

Everything here follows the design contract: a step costs 1 on the level,
``|Δ|`` going down, ``Δ + 1`` going up, doubled in bad weather; no step may
change level by more than 3; a white/red double means no move.
"""

from __future__ import annotations

from functools import lru_cache

MAX_CLIMB = 3  # the elevation rule: never more than 3 levels up or down in one step
BAD_WEATHER_FACTOR = 2


def step_cost(delta: int) -> int:
    """Good-weather movement points for a step that changes level by ``delta``."""
    if delta == 0:
        return 1
    if delta < 0:
        return -delta
    return delta + 1


#: the most good-weather cost one roll pays for (a white 6 in good weather): every table of what a
#: turn can reach has a part per budget 0..MAX_BUDGET (``sim/_fast_turns.c`` has its own copy)
MAX_BUDGET = 6

def step_allowed(delta: int) -> bool:
    return -MAX_CLIMB <= delta <= MAX_CLIMB


def is_bad_weather(red: int) -> bool:
    """Odd red die = bad weather."""
    return red % 2 == 1


@lru_cache(maxsize=None)
def roll_budgets() -> tuple[tuple[int, int, int | None], ...]:
    """All 36 rolls as ``(white, red, budget)``.

    ``budget`` is the most good-weather cost the token can cover this turn
    (the white die, halved and rounded down in bad weather, since every cost
    doubles), or None for a double, which allows no move.
    """
    out = []
    for white in range(1, 7):
        for red in range(1, 7):
            if white == red:
                out.append((white, red, None))
            elif is_bad_weather(red):
                out.append((white, red, white // BAD_WEATHER_FACTOR))
            else:
                out.append((white, red, white))
    return tuple(out)


@lru_cache(maxsize=None)
def budget_counts() -> tuple[int, ...]:
    """``counts[b]`` = how many of the 36 rolls give exactly budget ``b`` (b = 0..6).

    Doubles are not counted here; there are ``36 - sum(counts)`` of them.
    """
    counts = [0] * 7
    for _, _, b in roll_budgets():
        if b is not None:
            counts[b] += 1
    return tuple(counts)


def probability_budget_at_least(cost: int) -> float:
    """Chance that one turn's roll allows a step (or path) of good-weather ``cost``."""
    counts = budget_counts()
    return sum(counts[b] for b in range(len(counts)) if b >= cost) / 36.0
