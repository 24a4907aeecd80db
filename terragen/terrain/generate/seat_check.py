"""The fresh-seed check of a board whose seats no symmetry relates (five seats, ``--symmetry
none``, corners of your own), judged seat by seat by what ``terragen simulate`` will say.

Why not a fixed share of the margin per seat: that is what this check was until 2026-11-27
(every seat within 1.5 points for greedy players and 2.0 for solitary ones on 4,100 games).
It passed 36 to 46 in 100 of the five-seat boards that one ``terragen simulate`` run calls
NOT BALANCED once in 17 (seats 1.3 to 1.5 points off), and solitary players' 2.0 points let
through a board that ``simulate`` passed in 1 run of 3. What a user checks is
``simulate``'s verdict, so that is what this check bounds: the chance that one default
``simulate`` run calls the board BALANCED, worked out from the measured rates with every
seat taken ``SEAT_PUSH`` standard errors further from fair than it measured (the board is
kept on a measurement, not on its true rates).

Why ``SEAT_PUSH`` is 1.1 and not the 0.75 one look would need: the check looks at its verdict three
times (``SEAT_LOOKS``) and passes at the first look that passes, so each look is a chance for the
noise to flatter a board. Drawn checks of five-seat boards (``bench/seat_check_draws.py``, 1,000 per
shape, 2026-12-02, against ``simulate``'s 12,545 games): with 0.75, boards that ``simulate`` calls
BALANCED in only 91-93 runs of 100 (one seat 2 points off) passed 11-12 times in 100; with 1.1, 5-6
(one look at the largest size with 0.75: 3). A fair board passes 99.6 times in 100 either way, one
spread 0.5 points either side 98.3 (98.9), at a fifth more games on average (found in review).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

SIMULATE_MISS = 0.01  # how often `terragen simulate` (its defaults) may call a verified board NOT BALANCED
SEAT_PUSH = 1.1  # how many of the check's standard errors each seat is taken further from fair (three looks: see above)
SEAT_LOOKS = (1, 2, 4)  # the check looks at the verdict after these multiples of its base size
SEAT_CLEARLY_OUT = 1.0  # stop early when even this many standard errors closer to fair would fail


def seat_se(seats: int, games: float) -> float:
    """The standard error of one seat's win rate on ``games`` games of a fair board (independent
    games, or as many as a sample's noise is worth)."""
    fair = 1.0 / seats
    return math.sqrt(fair * (1 - fair) / games)


def passes(rates: Sequence[float], games: int, threshold: float, margin: float) -> tuple[bool, float]:
    """Whether measured ``rates`` pass: every seat within ``threshold`` and :func:`simulate_odds`
    (seats pushed out by ``SEAT_PUSH``) at least ``1 - SIMULATE_MISS``; and those odds."""
    fair = 1.0 / len(rates)
    odds = simulate_odds(rates, games, margin, SEAT_PUSH)
    return max(abs(r - fair) for r in rates) <= threshold and odds >= 1 - SIMULATE_MISS, odds


def simulate_odds(rates: Sequence[float], games: int, margin: float, push: float) -> float:
    """The chance that one ``terragen simulate`` run with its defaults calls BALANCED a board
    whose seats win ``rates`` measured on ``games`` games, each seat first moved ``push`` of
    those games' standard errors further from fair (negative: closer, never past fair)."""
    from terragen.terrain.sim.runner import default_games
    from terragen.terrain.sim.stats import balanced_odds

    n = len(rates)
    fair = 1.0 / n
    se = seat_se(n, games)
    moved = [fair + math.copysign(max(abs(r - fair) + push * se, 0.0), r - fair) for r in rates]
    return balanced_odds(moved, default_games(n, margin, n), margin)


def clearly_short(rates: Sequence[float], games: int, margin: float) -> bool:
    """Whether measured ``rates`` fall short of what one default ``simulate`` run needs even
    with every seat ``SEAT_CLEARLY_OUT`` standard errors closer to fair: the point at which a
    check stops early, and a tuned board is not worth a check at all."""
    return simulate_odds(rates, games, margin, -SEAT_CLEARLY_OUT) < 1 - SIMULATE_MISS


def seat_check(play: Callable[[int], None], tally, sizes: Sequence[int], threshold: float,
               margin: float) -> tuple[dict, bool]:
    """Grow ``tally`` (wins per seat on one fresh seed; its seats' noise that of
    ``tally.seat_games()`` independent games) through ``sizes`` until the verdict is plain:
    passed when every seat is within ``threshold`` and :func:`simulate_odds` (seats
    pushed out by ``SEAT_PUSH``) is at least ``1 - SIMULATE_MISS``; dropped when even pulled
    in by ``SEAT_CLEARLY_OUT`` it is not. ``play(size)`` grows the tally to ``size`` games.
    Returns the record's check fields and whether it passed."""
    need = 1 - SIMULATE_MISS
    for size in sizes:
        play(size)
        rates = tally.rates
        games = tally.seat_games()  # the independent games its seats' noise is worth (cycles of dice: more)
        passed, bound = passes(rates, games, threshold, margin)
        if passed:
            break
        worst = max(abs(r - 1.0 / len(rates)) for r in rates)
        if (worst - SEAT_CLEARLY_OUT * seat_se(len(rates), games) > threshold
                or clearly_short(rates, games, margin)):
            break
    return {"simulate_odds_bound": round(bound, 4), "simulate_odds_needed": need}, passed
