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
        near = [i for i in options if i in b.nbr[new.dests[seat][k]]]
        # mostly a step to a neighbouring cell: a small change of the seat's cost
        new.dests[seat][k] = rng.choice(near if near and rng.random() < 0.5 else options)
        return new
    if spec.min_up3 and kind < 0.25:
        return _up3_move(new, spec, rng)
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


def _up3_move(new: Candidate, spec: Spec, rng: random.Random) -> Candidate | None:
    """Make a step on a short-of-up-3 seat's route an up-3 step: put a piece exactly 3
    levels above the step's source on its target (swapped in from elsewhere or the spares)."""
    b = new.board
    seats = [s for s in range(len(new.starts))]
    seat = rng.choice(seats)
    from terragen.terrain.generate.evaluate import tour

    res = tour(b, new.starts[seat], new.dests[seat])
    if res.cost is None or res.up3 >= spec.min_up3 or len(res.path) < 3:
        return None
    k = rng.randrange(1, len(res.path) - 1)
    a, t = res.path[k - 1], res.path[k]
    if t in new.locked_kind:
        return None
    want = b.level[a] + 3
    donors = [j for j in range(len(b)) if b.level[j] == want and j not in new.locked_kind and j not in res.path]
    spare = [s for s, kd in enumerate(new.spares) if kd[0] == want]
    if spare and (not donors or rng.random() < 0.3):
        s = rng.choice(spare)
        old = (b.level[t], b.pattern[t])
        set_kind(b, t, new.spares[s], b.rotation[t] if t in new.locked_rot else rng.randrange(6))
        new.spares[s] = old
        return new
    if not donors:
        return None
    j = rng.choice(donors)
    kt, kj = (b.level[t], b.pattern[t]), (b.level[j], b.pattern[j])
    rt, rj = b.rotation[t], b.rotation[j]
    set_kind(b, t, kj, rj if t not in new.locked_rot else rt)
    set_kind(b, j, kt, rt if j not in new.locked_rot else rj)
    return new


def adjust_targets(ev: Evaluator, score: Score, base: list[list[int]]) -> bool:
    """Generate-and-verify: re-aim the seats' cost targets after an exact expected-turns check.

    Expected turns are not linear in the cost, but on one board each seat's
    turns-per-cost ratio is stable under small changes. A seat outside the
    turns band gets the cost window that its measured ratio maps onto the
    band. Fairness is not retargeted: costs are kept close by the evaluator's
    derived cost spread and the exact values are searched directly.
    Returns True when a target changed.
    """
    spec = ev.spec
    if score.turns is None or score.cheap > 0 or score.exact == 0:
        return False
    turns = score.turns
    band = spec.turns_band
    windows: dict[int, tuple[float, float]] = {}
    for seat, t in enumerate(turns):
        if band and not band[0] <= t <= band[1]:
            windows[seat] = (band[0], band[1])
    changed = False
    cost_lo, cost_hi = spec.cost_band or [0, 10_000]
    for seat, (lo_t, hi_t) in sorted(windows.items()):
        cost = score.seats[seat].cost
        if not cost:
            continue
        ratio = turns[seat] / cost
        lo = max(cost_lo, math.ceil(lo_t / ratio))
        hi = min(cost_hi, math.floor(hi_t / ratio))
        if lo > hi:  # the window falls between two costs: aim at the nearest one
            near = round((lo_t + hi_t) / 2 / ratio)
            lo = hi = min(max(near, cost_lo), cost_hi)
        if lo == hi == cost:  # already there: the ratio must change, so widen by one
            lo, hi = max(cost_lo, cost - 1), min(cost_hi, cost + 1)
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
        if new is None or (new.mirror is not None and not new.mirror.restore(cand, new)):
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
