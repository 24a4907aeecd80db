"""A best-effort board: which of the fairest states a search reached to write when the time or the
work budget ends it without a verified board, and the verdict that board gets on fresh games.

Why a module of its own: this is what happens after the balance search (``balance.py``) has
stopped, on the states it kept, with measurements of its own; the search never calls it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from terragen.terrain.generate.balance import EXPERT_GLANCE_NOISE, BalanceSettings, balance_seed
from terragen.terrain.generate.fresh_checks import (games_for_class_se, grow_tally, pooled_rates, seat_by_seat_check,
                                                   simulated_rates)
from terragen.terrain.generate.report import UNVERIFIED

if TYPE_CHECKING:
    from terragen.terrain.sim.pool import GamePool


def best_effort_verdict(ok: bool, worst: float, margin: float) -> str:
    """BALANCED when the check passed; UNVERIFIED when it missed the promise's stricter limit with
    every seat still within the margin (``simulate`` may well say BALANCED of it, as the report's
    odds line tells: calling it NOT BALANCED contradicted simulate, a README walk found); NOT BALANCED
    past the margin."""
    if ok:
        return "BALANCED"
    return UNVERIFIED if worst <= margin else "NOT BALANCED"


def choose_best_effort(layouts: list, settings: BalanceSettings, seed: int, attempt: int,
                       pool: GamePool | None = None,
                       fits: Callable[[int, float], bool] | None = None,
                       policies: Sequence[str] | None = None,
                       expert_classes: Sequence[list[list[int]] | None] | None = None) -> tuple[int, list[dict]]:
    """Which of the fairest states a search reached to write as its best-effort board: the one
    most likely to be called BALANCED by one default ``terragen simulate`` run, for the worse of
    the kinds of player, as measured on a fresh seed (the verification's first size per kind of
    player: 4,100 games for five seats); ties (boards far off, odds of nil) go to the smaller
    worst seat. Returns its index and what was measured of each.

    Why: the search ranks its states by a bound from its tuning samples (300 to 2,100 games for
    five seats, a few points of noise a seat), and among dozens of states the least bound is as
    often the luckiest reading as the fairest board. A fresh sample for the few fairest ranks
    them on games the search never saw; the written verdict then comes from yet
    another fresh seed (:func:`best_effort_record`), so the choice does not flatter it. Why the
    check's size and not half of it: on fresh seeds 305-307 (5 seats, all presets) choosing on
    4,100 games raised the mean odds of the boards written from 0.25 to 0.35, on 2,050 games to
    0.32, for 6 s and 3 s more at the median.

    ``fits(states, seconds_each)`` (the generator's :meth:`~terragen.terrain.generate.time_plan.
    TimePlan.fits`) is asked before each state after the first whether it and the verdict's first
    size still fit in the time limit, at the pace of the states measured in full so far (a state
    stopped early is cheaper, and would make the next one look cheaper than it may be); the states
    not measured are not chosen. Where the work budget ended the search with time to spare it always
    says yes, and the choice is the same on every run.

    ``policies`` (default: every kind the settings check) are the kinds of player the states are
    compared on; the generator leaves out kinds its search never timed (experts, when no experts'
    check was reached): their games cost 6-17 times greedy ones, and a state's experts measured
    blind took 19 s of a six-seat run that ended 10 s past its limit (``bench/README.md``,
    "A best-effort board inside the limit with --check-experts"). The verdict still measures
    every kind (:func:`best_effort_record`).

    ``expert_classes`` (one entry per state: its seat classes, or None) gives the states of two
    classes the experts' glance the search gives its verified boards (``EXPERT_GLANCE_NOISE``:
    a few hundred games, judged by the classes' pooled rates), on the same fresh seed. The
    choice then goes to the state most likely to be called BALANCED by a default run for every
    kind, experts too (the product of the two odds), and only where no state has odds for both
    to the one the other kinds alone prefer, as without the glance. Why: best-effort boards got
    no look at experts, and on five seats, where a third of the runs end on one, most were
    unfair for them.

    A state that can no longer be chosen, whatever its other kinds of player would read, is
    measured no further (:func:`_choice_key`); its record then says which kinds were measured
    (``out_of_reach``), and its odds and worst seat are those of these kinds alone."""
    from terragen.terrain.generate.seat_check import simulate_odds

    choose_seed = balance_seed("best-effort-choice", seed, attempt, 0)
    players = len(layouts[0].players)  # states of one search: the same seats
    fair, games = 1.0 / players, settings.games_for(players)[2]
    measured = []
    best = None  # the key (see _choice_key) of the state chosen so far, among those measured in full
    full = [0, 0.0]  # states measured in full, and their seconds: the pace a next state may take
    for k, layout in enumerate(layouts):
        if k and fits is not None and not fits(2, full[1] / full[0]):
            break
        began = time.monotonic()
        odds, worst, played, out_of_reach = 1.0, 0.0, [], False
        for policy in policies or settings.verify_policies:
            rates, _ = simulated_rates(layout, games, choose_seed, policy, pool=pool)
            odds = min(odds, simulate_odds(rates, games, settings.margin, 0.0))
            worst = max(worst, max(abs(r - fair) for r in rates))
            played.append(policy)
            # the odds of every kind, experts' too, are at most the odds measured so far
            out_of_reach = best is not None and best < _choice_key(odds, odds, worst, k)
            if out_of_reach:
                break
        entry = {"games": games, "seed": choose_seed, "simulate_odds": round(odds, 4), "worst_deviation": round(worst, 4)}
        if out_of_reach:
            entry["out_of_reach"] = played
            measured.append(entry)
            continue
        classes = expert_classes[k] if expert_classes is not None else None
        both = odds
        if classes is not None:
            glance = games_for_class_se(classes, players, EXPERT_GLANCE_NOISE * settings.margin)
            rates, _ = simulated_rates(layout, glance, choose_seed, "expert", pool=pool)
            pooled = pooled_rates(rates, classes)
            expert_odds = simulate_odds(pooled, glance, settings.margin, 0.0)
            both = odds * expert_odds
            entry["expert_glance"] = {"games": glance, "pooled_worst_deviation": round(max(abs(r - fair) for r in pooled), 4),
                                      "simulate_odds": round(expert_odds, 4)}
        measured.append(entry)
        full[0] += 1
        full[1] += time.monotonic() - began
        key = _choice_key(both, odds, worst, k)
        if best is None or key < best:
            best = key
    return best[-1], measured


def _choice_key(joint: float, odds: float, worst: float, k: int) -> tuple:
    """How :func:`choose_best_effort` ranks state ``k`` (the least key is chosen): the likelier to be
    called BALANCED by a default run for every kind of player (``joint``), then for the kinds other
    than experts (``odds``), then the smaller worst seat, then the earlier state.

    Why it also serves as a bound: measuring a state further (another kind of player, the experts'
    glance) can only lower its odds and raise its worst seat, and rounding keeps that order; a key made
    of what was measured so far (``joint`` = ``odds``, as experts' odds are at most 1) is then the
    least the state can end with. A state whose least key is above the chosen one's cannot be chosen,
    so it is measured no further: the board chosen is the one measuring every state in full would
    choose (where the time limit cuts no state off), with fewer games (on fresh five-seat brutal
    specs, most states after the first stop after their greedy or solitary games)."""
    return (-round(joint, 4), -round(odds, 4), round(worst, 4), k)


def best_effort_record(layout, settings: BalanceSettings, seed: int, attempt: int,
                       pool: GamePool | None = None,
                       may_spend: Callable[[float, list[str]], bool] | None = None,
                       first_games: Callable[[str, int, dict[str, float], list[str]], int] | None = None) -> dict:
    """Measure a board the tuning could not finish on fresh seeds, with the whole seat-by-seat
    check (:func:`~terragen.terrain.generate.fresh_checks.seat_by_seat_check`, grown until its
    verdict is plain) for every kind of player; the record says ``best_effort`` and carries
    the verdicts as measured.

    Why: with three or more seats the tuning often needs longer than the time limit. The
    user then gets the fairest board the search reached, with its true simulated win rates
    and an honest verdict, instead of nothing at all. Why the whole check and not one sample
    (as until 2026-11-27): one sample of the check's first size reads a fair five-seat board
    a point or so worse than it is, so boards that ``terragen simulate`` calls BALANCED 999
    times in 1,000 were written as NOT BALANCED; grown, the check gives a best-effort board
    the same verdict a verified board gets, by the same rule.

    ``may_spend(seconds, later_policies)`` (the generator's
    :meth:`~terragen.terrain.generate.time_plan.TimePlan.may_spend`) says whether a check may
    grow past its first size within the time limit, timed by the pace of its own first games
    (boards differ: on one six-seat run the search's greedy games took 0.8 ms each, the chosen
    board's 0.25-0.4 ms); where it says no, the verdict is the one its games so far give, and
    the record says ``time_limited``. Where the work budget ended the search with time to
    spare, it never says no, and the record is the same on every run.

    ``first_games(policy, games, paces, later_policies)`` (:meth:`~terragen.terrain.generate.
    time_plan.TimePlan.first_games`) says how many games a kind's first size gets, given the
    seconds per game this board's earlier kinds took (``paces``): all of them, except for experts,
    for whom the search reserves only the least first size; they get what fits before the limit.
    """
    players = len(layout.players)
    fair = 1.0 / players
    verify = settings.games_for(players)[2]
    verify_seed = balance_seed("best-effort", seed, attempt, 0)
    results = []
    cut = [False]
    policies = list(settings.verify_policies)
    paces: dict[str, float] = {}  # seconds per game of each kind's first size on this board
    for k, (policy, share) in enumerate(zip(policies, settings.verify_shares)):
        threshold = settings.margin * share
        games = verify if first_games is None else first_games(policy, verify, paces, policies[k + 1:])
        if games < verify:
            cut[0] = True

        def play(board, tally, size, later=policies[k + 1:], policy=policy) -> None:
            if tally.played and may_spend is not None and not may_spend(paces[policy] * (size - tally.played), later):
                cut[0] = True
                return
            began, first = time.monotonic(), not tally.played
            grow_tally(board, tally, size, pool)
            if first:
                paces[policy] = (time.monotonic() - began) / max(tally.played, 1)

        rates, rec, ok = seat_by_seat_check(layout, verify_seed, games, policy, threshold, settings.margin, play)
        worst = max(abs(r - fair) for r in rates)
        rec.update({"fair_share": round(fair, 4), "worst_deviation": round(worst, 4),
                    "threshold": round(threshold, 4), "verdict": best_effort_verdict(ok, worst, settings.margin)})
        results.append(rec)
    verdicts = {r["verdict"] for r in results}
    record = {"margin": settings.margin, "best_effort": True, "verification": results, "checks": [results],
              "verdict": "NOT BALANCED" if "NOT BALANCED" in verdicts else UNVERIFIED if UNVERIFIED in verdicts
              else "BALANCED"}
    if cut[0]:
        record["time_limited"] = True
    return record
