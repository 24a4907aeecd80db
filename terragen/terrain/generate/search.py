"""Repair by local search: rotations, piece swaps, spare swaps and destination moves.

The moves are the ones a person would make at the table: turn a piece, swap
two pieces, swap a piece for a spare, move a destination token. Moves are
drawn near the routes of the seats that miss their targets (where a change
matters), accepted by simulated annealing on the evaluator's score. Every
random choice comes from the caller's ``random.Random``, and the number of
steps (not the clock) decides the result, so a seed always gives the same
board; the clock only decides when to give up.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from terragen.terrain.generate.construct import Candidate, destination_options, set_kind
from terragen.terrain.generate.evaluate import Evaluator, Score, band_gap
from terragen.terrain.generate.spec import Spec
from terragen.terrain.pieces import distinct_rotations


def _focus_cells(cand: Candidate, ev: Evaluator, score: Score) -> list[int]:
    """Cells on or next to the routes of seats that miss a target (all cells if none)."""
    spec = ev.spec
    cells: set[int] = set()
    for seat, res in enumerate(score.seats):
        bad = res.cost is None or band_gap(res.cost, ev.targets[seat]) > 0 or res.up3 < spec.min_up3
        if score.turns is not None and score.cheap == 0:
            t = score.turns
            bad = seat in (t.index(max(t)), t.index(min(t))) or band_gap(t[seat], spec.turns_band) > 0
        if not bad:
            continue
        route = res.path or [cand.starts[seat], *cand.dests[seat]]
        for i in route:
            cells.add(i)
            cells.update(j for j in cand.board.nbr[i] if j >= 0)
    return sorted(cells) or list(range(len(cand.board)))


def _move(cand: Candidate, spec: Spec, rng: random.Random, focus: list[int]) -> Candidate | None:
    new = cand.copy()
    b = new.board
    n = len(b)
    kind = rng.random()
    movable_dest = spec.placement in ("free", "distance")
    if movable_dest and kind < 0.15:
        seat = rng.randrange(len(new.dests))
        k = rng.randrange(len(new.dests[seat]))
        used = {g for ds in new.dests for g in ds}
        options = [i for i in destination_options(spec, b, new.starts, seat) if i not in used]
        if not options:
            return None
        new.dests[seat][k] = rng.choice(options)
        return new
    i = rng.choice(focus)
    if kind < 0.55:
        if i in new.locked_rot:
            return None
        rots = [r for r in distinct_rotations(b.pattern[i]) if r != b.rotation[i]]
        b.set_rotation(i, rng.choice(rots))
        return new
    if i in new.locked_kind:
        return None
    if kind < 0.9 or not new.spares:
        j = rng.choice([x for x in b.nbr[i] if x >= 0]) if rng.random() < 0.5 else rng.randrange(n)
        if j == i or j in new.locked_kind or (b.level[i], b.pattern[i]) == (b.level[j], b.pattern[j]):
            return None
        ki, kj = (b.level[i], b.pattern[i]), (b.level[j], b.pattern[j])
        ri, rj = b.rotation[i], b.rotation[j]
        set_kind(b, i, kj, rj if i not in new.locked_rot else ri)
        set_kind(b, j, ki, ri if j not in new.locked_rot else rj)
        return new
    s = rng.randrange(len(new.spares))
    old = (b.level[i], b.pattern[i])
    set_kind(b, i, new.spares[s], b.rotation[i] if i in new.locked_rot else rng.randrange(6))
    new.spares[s] = old
    return new


def adjust_targets(ev: Evaluator, score: Score, base: list[list[int]]) -> bool:
    """Generate-and-verify: move the seats' cost targets after an exact expected-turns check.

    A seat whose expected turns are above the band gets a lower cost ceiling,
    below the band a higher floor; for fairness the slowest seat's ceiling and
    the fastest seat's floor move. A target that becomes empty is reset.
    Fairness is not steered this way (costs are already kept close by the
    evaluator); it is searched directly on exact values near the extreme seats.
    Returns True when a target changed.
    """
    spec = ev.spec
    if score.turns is None or score.cheap > 0:
        return False
    changed = False
    band = spec.turns_band
    turns = score.turns
    pushes: list[tuple[int, int]] = []  # (seat, +1 raise floor / -1 lower ceiling)
    for seat, t in enumerate(turns):
        if band and t > band[1]:
            pushes.append((seat, -1))
        elif band and t < band[0]:
            pushes.append((seat, +1))
    for seat, direction in pushes:
        cost = score.seats[seat].cost
        if cost is None:
            continue
        lo, hi = ev.targets[seat]
        if direction < 0:
            hi = min(hi, cost - 1)
        else:
            lo = max(lo, cost + 1)
        if lo > hi:
            lo, hi = base[seat]
        if [lo, hi] != ev.targets[seat]:
            ev.targets[seat] = [lo, hi]
            changed = True
    return changed


def repair(
    cand: Candidate,
    ev: Evaluator,
    rng: random.Random,
    max_steps: int,
    accept: Callable[[Candidate, Score], bool],
    should_stop: Callable[[], bool],
    base_targets: list[list[int]],
) -> tuple[Candidate, Score] | None:
    """Lower the score to zero within ``max_steps`` moves; ``accept`` is the final check."""
    score = ev.score(cand)
    temp = 2.0
    stall = 0
    for step in range(max_steps):
        if score.ok:
            if accept(cand, score):
                return cand, score
            score = ev.score(cand)  # accept() may have tightened targets
            if score.ok:
                return None  # passes our score but not the final check: start over
        if step % 64 == 0 and should_stop():
            return None
        if adjust_targets(ev, score, base_targets):
            score = ev.score(cand)
            continue
        new = _move(cand, ev.spec, rng, _focus_cells(cand, ev, score))
        if new is None:
            continue
        ns = ev.score(new)
        delta = ns.total - score.total
        if delta <= 0 or rng.random() < math.exp(-delta / temp):
            if delta < 0:
                stall = 0
            cand, score = new, ns
        stall += 1
        temp = max(0.05, temp * 0.995)
        if stall > max_steps // 3:
            return None
    return None
