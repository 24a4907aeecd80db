"""Piece turns that bring a pair of the class search whose fresh check missed by a little to
fair (boards of two classes of symmetric seats: 4 and 6 seats).

Why: after a pair's check misses, the class search moves on to another pair, a new guess:
what tokens meeting do to it is learned only by playing it, and the corrected models miss
such pairs by a few points. A turn of one piece on or beside a route keeps both classes'
destinations, so what meeting does stays much the same, and what the turn changes the
models see. Measured on 4- and 6-seat terrain (``bench/README.md``, "Pairs corrected by a
piece turn"; 35 turns by the routes of four pairs, 8,000 games each on common dice): the 6
turns that moved the first class by up to 3 points were predicted within 0.25 points by the
exact race model (solitary players) and within 0.5 by the solo-greedy race (greedy players);
one that moved it by 3.5 points was missed by 2 to 2.6. So the pair is corrected by the turn (with its images, keeping
the board symmetric) whose predicted change cancels the miss the check measured for both
kinds of player, screened again on a seed of its own, and checked on the next fresh seed.

Why after a check and not after a screening: the turn cancels what was measured, so the
measurement's noise stays on the turned board. A check plays 2 to 8 times a screening's
games; turns chosen on screenings (tried first) passed their own screening about as often
as a new pair, and cost more than they saved (``bench/README.md``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from terragen.terrain.generate.construct import Candidate
from terragen.terrain.generate.evaluate import tour

if TYPE_CHECKING:
    from terragen.terrain.generate.balance import Balancer
    from terragen.terrain.generate.fresh_checks import Tally

#: piece turns whose predictions are scored for one pair
PAIR_TURNS = 24
#: the largest change of the first class's predicted rate a turn may make: larger changes (a
#: piece on a start, a route's only bridge) were missed by the models by up to 7 points
TURN_CAP = 0.04
#: how far (in margins) a pair's check may have missed, for either kind of player, to be corrected
NEAR_MISS = 1.2
#: turned versions of one pair screened before the search goes on to the next pair (a second
#: one, tried on screenings, never led to a verified board)
TURNS_PER_PAIR = 1


def near_miss(bal: Balancer, greedy: Tally, lone: Tally, full: int) -> bool:
    """Whether a pair measured ``greedy`` and ``lone`` (a check's tallies, or the screening's
    for a kind of player the check did not reach) missed by little enough that a turn may
    correct it: both kinds of player within ``NEAR_MISS`` margins of fair, greedy players
    measured on at least ``full`` games (a screening's size) and solitary players on at
    least half that (a check stops at its first clear miss)."""
    if greedy.played < full or 2 * lone.played < full:
        return False
    reach = bal.settings.margin * NEAR_MISS
    return all(bal.worst(bal.pooled(t.rates)) <= reach for t in (greedy, lone))


def turn_candidates(bal: Balancer, tried: set[tuple[int, ...]]) -> list[Candidate]:
    """Symmetric turned versions of the balancer's board (one piece on or beside the route of
    either class's first seat turned, and its images with it), at most ``PAIR_TURNS``, in an
    order drawn from the seed; boards in ``tried`` (by their rotations) are left out."""
    from terragen.terrain.pieces import distinct_rotations

    cand = bal.cand
    b, dests, starts = cand.board, cand.dests, cand.starts
    cells: set[int] = set()
    for seat in (c[0] for c in bal.classes):
        for i in tour(b, starts[seat], dests[seat]).path:
            cells.add(i)
            cells.update(j for j in b.nbr[i] if j >= 0)
    cells -= cand.locked_rot | set(starts)
    moves = [(i, r) for i in sorted(cells) if b.present[i]
             for r in distinct_rotations(b.pattern[i]) if r != b.rotation[i]]
    random.Random(f"terragen-balance-pair-turn:{bal.seed}:{bal.attempt}:{len(tried)}").shuffle(moves)
    out: list[Candidate] = []
    base = Candidate(b, [], dests, starts, mirror=cand.mirror)
    for i, r in moves:
        if len(out) == PAIR_TURNS:
            break
        turned = Candidate(b.rotated(i, r), [], [list(d) for d in dests], starts, cand.locked_kind,
                           cand.locked_rot, cand.mirror)
        if cand.mirror is not None and not cand.mirror.restore(base, turned):
            continue  # a fixed cell turned off its axis: no symmetric version
        key = tuple(turned.board.rotation)
        if key in tried:
            continue
        tried.add(key)
        out.append(turned)
    return out


def fairer_turns(bal: Balancer, greedy: Tally, lone: Tally, limits: dict[str, float], tried: set[tuple[int, ...]]):
    """Turned boards (a Balancer on each, with the predicted first-class distances from fair
    for greedy and solitary players), fairest prediction first, that keep every requirement
    and are predicted to pass the screening (within ``limits``, per kind of player); only
    turns that change no prediction by more than ``TURN_CAP`` are scored.

    A prediction is the measured rate moved by what a model says the turn changes: for
    solitary players the exact race model, for greedy players the solo-greedy race (each
    class's first seat played alone on the same dice as before)."""
    from terragen.terrain.generate.balance import Balancer

    a = bal.classes[0][0]
    dests = bal.cand.dests
    measured_greedy = bal.pooled(greedy.rates)[a] - bal.fair
    measured_lone = bal.pooled(lone.rates)[a] - bal.fair
    race_now, solo_now = _class_race(bal, dests)[a], bal.class_solo_model(dests)[a]
    trials = []
    board = bal.cand.board
    routes = {c[0]: _around(board, tour(board, bal.cand.starts[c[0]], dests[c[0]]).path) for c in bal.classes}
    for turned in turn_candidates(bal, tried):
        trial = Balancer(bal.spec, turned, bal.to_layout, bal.settings, bal.seed, bal.attempt,
                         bal.should_stop, pool=bal.pool)
        changed = {i for i, (r0, r1) in enumerate(zip(board.rotation, turned.board.rotation)) if r0 != r1}
        for seat, route in routes.items():
            key = (seat, tuple(dests[seat]))
            if key in bal._solos and not changed & route and trial.race(*key).cdf == bal.race(*key).cdf:
                # the turn is off this seat's route and changes nothing of its race: its solo games
                # (the same dice) are the same games
                trial._solos[key] = bal._solos[key]
        change = _class_race(trial, dests)[a] - race_now
        if abs(change) <= TURN_CAP and abs(measured_lone + change) <= limits[lone.policy]:
            trials.append((trial, measured_lone + change))
    bal.prefetch_solos_of([(trial, c[0], dests[c[0]]) for trial, _ in trials for c in trial.classes])
    ranked = []
    for trial, lone_after in trials:
        change = trial.class_solo_model(dests)[a] - solo_now
        if abs(change) <= TURN_CAP:
            ranked.append((max(abs(measured_greedy + change), abs(lone_after)), len(ranked), trial,
                           measured_greedy + change, lone_after))
    for _, _, trial, greedy_after, lone_after in sorted(ranked, key=lambda t: t[:2]):
        if abs(greedy_after) > limits[greedy.policy] or abs(lone_after) > limits[lone.policy]:
            continue
        turns = [trial.turns(s, d) for s, d in enumerate(dests)]
        if all(trial.seat_ok(s, d, t) for s, (d, t) in enumerate(zip(dests, turns))) and trial._cross_ok(dests, turns):
            yield trial, greedy_after, lone_after


def _around(board, path: list[int]) -> set[int]:
    """The cells of a route and their neighbours."""
    return set(path) | {j for i in path for j in board.nbr[i] if j >= 0}


def _class_race(bal: Balancer, dests: list[list[int]]) -> list[float]:
    """The exact race model's win probabilities with each seat's race that of its class's first
    seat (its image: the same chances), so a turned board costs one race per class, not per seat."""
    from terragen.terrain.race import race_of

    reps = {s: c[0] for c in bal.classes for s in c}
    return list(race_of([bal.race(reps[s], dests[reps[s]]) for s in range(bal.n)]).win_probability_rotating)
