"""The team-play check ``generate --team-play`` adds: a board balanced for seats racing alone is
also played in teams, partners on neighbouring corners (``sim.variants.default_teams``), and kept
only when every team wins close to its share.

Why a check and not a tuning: team play is another race (partners may not move apart, and a team
wins when all its members are home), which the search's models do not describe; on the boards
the search writes, teams of neighbours come out fair on most (22 of 22 in ``bench/team_pairings.py``
since the simulated partners plan together when their convoy stalls; 12 of 16 four-seat boards and
6 of 6 six-seat ones before, partners whose pips pulled them apart getting stuck on the others), so
refusing the others and searching on costs a fraction of a board again, and no model had to be built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from terragen.terrain.generate.fresh_checks import OutOfTime, _chunked

if TYPE_CHECKING:
    from terragen.terrain.generate.balance import BalanceSettings
    from terragen.terrain.layout import Layout
    from terragen.terrain.sim.pool import GamePool

#: share of the margin a team may use: as solitary players' checks (the greedy check's 0.6 refused
#: more of the boards `simulate` calls BALANCED, the team verdict's noise being larger)
TEAM_SHARE = 0.8
#: the most games no team may finish (the round limit: partners stuck): half what `simulate` allows
#: a PLAYABLE board (1%), so that a board with a few stuck games is not called fair in teams here
#: and NOT PLAYABLE there (a six-seat board kept at 4.6% unfinished, 1.7 points off)
UNFINISHED_SHARE = 0.005
#: seat counts the default partners are defined for (``default_teams``)
TEAM_SEATS = (4, 6)
#: the first look plays one game in this many; a board further off than the threshold plus
#: PLAINLY_OFF_SE of the look's standard errors is refused there (no fewer than MIN_LOOK games)
EARLY_LOOK = 8
PLAINLY_OFF_SE = 3.0
MIN_LOOK = 400


def team_rules(layout: Layout):
    """Team play with the default partners of ``layout``'s seats, as ``simulate --variant teams`` plays it."""
    from terragen.terrain.sim.variants import rules_for_layout

    return rules_for_layout(layout, ["teams"])


def team_games(settings: BalanceSettings, teams: int, seats: int) -> int:
    """Games for a standard error of a quarter of the margin on a team's rate (6,400 for two teams),
    or the user's ``--balance-games``; a multiple of ``seats``, so that every seat opens equally often."""
    fair = 1.0 / teams
    return settings.verify_games or _chunked(fair * (1 - fair) / (settings.margin / 4) ** 2, seats)


def team_check(layout: Layout, settings: BalanceSettings, seed: int, pool: GamePool | None,
               should_stop: Callable[[], bool] = lambda: False) -> dict[str, Any]:
    """Play ``layout`` in teams on a fresh ``seed``; the check's record (``verdict`` BALANCED when
    every team is within :data:`TEAM_SHARE` of the margin of its share). OutOfTime when the search's
    time is up."""
    from terragen.terrain.sim import simulate_layout
    from terragen.terrain.sim.pool import Stopped

    rules = team_rules(layout)
    seats_n = len(layout.players)
    games = team_games(settings, len(rules.teams), seats_n)
    fair = 1.0 / len(rules.teams)
    threshold = settings.margin * TEAM_SHARE
    # a first look at an eighth of the games ends a board plainly unfair in teams: one whose partners
    # get stuck plays each such game to the round limit, and a brutal board's checks spent the search's
    # whole work budget so (game i of a seed is the same game in either run, so the record replays)
    look = _chunked(games / EARLY_LOOK, seats_n)
    for size in ((look, games) if MIN_LOOK <= look < games else (games,)):
        try:
            report = simulate_layout(layout, games=size, seed=seed, rules=rules, margin=1.0, pool=pool,
                                     should_stop=should_stop)
        except Stopped:
            raise OutOfTime from None
        by_seat = {s.seat: s.rate for s in report.seats}
        seats = sorted(by_seat)
        rates = [by_seat[seats[team[0]]] for team in rules.teams]  # a team's members share its wins
        worst = max(abs(r - fair) for r in rates)
        if (worst > threshold + PLAINLY_OFF_SE * (fair * (1 - fair) / size) ** 0.5
                or report.capped_share > PLAINLY_OFF_SE * UNFINISHED_SHARE):
            break  # plainly off at the first look: the rest of the games would not change the verdict
    stuck = report.capped_share > UNFINISHED_SHARE
    fine = worst <= threshold and not stuck
    return {"teams": [list(team) for team in rules.teams], "games": size, "seed": seed, "policy": "greedy",
            "win_rates": [round(r, 4) for r in rates], "unfinished": round(report.capped_share, 4),
            "unfinished_limit": UNFINISHED_SHARE, "too_many_unfinished": stuck, "fair_share": round(fair, 4), "worst_deviation": round(worst, 4),
            "threshold": round(threshold, 4), "verdict": "BALANCED" if fine else "NOT BALANCED"}
