"""Cheap proofs that a spec cannot be met, checked before any search.

Each bound names the requirement it refutes, so the user learns what to
change: too few pieces, a pinned piece the inventory lacks, a cost band below
the hex distance (every step costs at least 1, an up-3 step 4), an
expected-turns band below what the dice allow for that distance (Wald: the
expected turns are at least the cost over the mean movement budget per turn),
an up-3 demand with no two levels 3 apart, too few cells for destinations.
"""

from __future__ import annotations

import itertools
import math

from terragen.errors import InfeasibleError
from terragen.grids import hex as hx
from terragen.plain_text import counted
from terragen.terrain.generate.spec import Spec
from terragen.terrain.pieces import Inventory
from terragen.terrain.rules import MAX_CLIMB, budget_counts


#: the fewest expected turns any destination takes: one turn that moves, and 8 rolls in 36 move no
#: token (the six doubles, and a white 1 in bad weather, halved to 0 points), so 36 / 28
MIN_TURNS = 36 / 28


def mean_budget() -> float:
    """Mean good-weather movement points one turn allows (doubles give 0)."""
    return sum(b * n for b, n in enumerate(budget_counts())) / 36.0


def opposite_hex(spec: Spec, corner: int) -> hx.Hex:
    starts = {hx.corner(spec.radius, c) for c in spec.seat_corners()}
    opp = hx.corner(spec.radius, (corner + 3) % 6)
    return opp if opp not in starts else hx.corner(spec.radius - 1, (corner + 3) % 6)


def min_tour_distance(spec: Spec, seat: int) -> int:
    """A lower bound on the hexes a seat's tour must cross."""
    start = hx.corner(spec.radius, spec.seat_corners()[seat])
    if spec.placement == "fixed" and spec.fixed is not None:
        goals = [tuple(h) for h in spec.fixed[seat]]
        return min(
            sum(hx.distance(a, b) for a, b in zip((start, *order), order))
            for order in itertools.permutations(goals)
        )
    if spec.placement == "opposite":
        return hx.distance(start, opposite_hex(spec, spec.seat_corners()[seat]))
    first = spec.min_distance if spec.placement == "distance" else 2
    return max(1, first) + (spec.destinations - 1)


def _check_boxed_in(spec: Spec) -> None:
    """A start or fixed destination whose pinned piece has every neighbour pinned more than three
    levels above or below it: no step in or out is ever allowed (the elevation rule), whatever the
    turns. Why its own bound: the search tried terrains until the time ran out (exit 4)."""
    pinned = {(p.q, p.r): p.level for p in spec.pins}
    places = [(f"seat {s}'s start", hx.corner(spec.radius, c)) for s, c in enumerate(spec.seat_corners())]
    if spec.placement == "fixed" and spec.fixed is not None:
        places += [(f"seat {s}'s destination", tuple(h)) for s, cells in enumerate(spec.fixed) for h in cells]
    for what, h in places:
        if h not in pinned:
            continue
        around = [n for n in hx.neighbors(h) if hx.length(n) <= spec.radius]
        if around and all(n in pinned and abs(pinned[n] - pinned[h]) > MAX_CLIMB for n in around):
            raise InfeasibleError(f"pins: {what} ({h[0]},{h[1]}) is pinned at level {pinned[h]} and every neighbour "
                                  f"is pinned more than {MAX_CLIMB} levels from it, so no token ever moves "
                                  f"{'off' if 'start' in what else 'onto'} it")


def check_bounds(spec: Spec, inventory: Inventory) -> None:
    """Raise InfeasibleError naming the first requirement a simple bound refutes."""
    n_cells = hx.board_size(spec.radius)
    if inventory.total < n_cells:
        raise InfeasibleError(
            f"inventory: {inventory.name!r} has {inventory.total} pieces, a radius-{spec.radius} board needs {n_cells}")
    need: dict[tuple[int, str], int] = {}
    for pin in spec.pins:
        need[(pin.level, pin.pattern)] = need.get((pin.level, pin.pattern), 0) + 1
    for (lv, pat), n in sorted(need.items()):
        if inventory.count(lv, pat) < n:
            raise InfeasibleError(f"pins: {counted(n, 'piece')} {lv}{pat} pinned, inventory {inventory.name!r} has {inventory.count(lv, pat)}")
    _check_boxed_in(spec)
    levels = inventory.levels()
    if spec.min_up3 and not any(lv + 3 in levels for lv in levels):
        raise InfeasibleError(f"min_up3: inventory {inventory.name!r} has no two levels 3 apart, so no up-3 step exists")
    if spec.placement in ("free", "distance"):
        from terragen.terrain.generate.construct import destination_cells, most_destinations

        lo = spec.min_distance if spec.placement == "distance" else 2
        cells = hx.board_cells(spec.radius)
        starts = [hx.corner(spec.radius, c) for c in spec.seat_corners()]
        per_seat = []
        for seat in range(len(starts)):
            options = destination_cells(spec, cells, starts, seat)
            if len(options) < spec.destinations:
                raise InfeasibleError(f"min_distance: seat {seat} has only {counted(len(options), 'cell')} at distance >= {lo}")
            per_seat.append(options)

        most = most_destinations(per_seat, spec.destinations)  # no two destinations share a cell
        if most < spec.players * spec.destinations:
            raise InfeasibleError(
                f"min_distance: {counted(spec.players, 'seat')} x {counted(spec.destinations, 'destination')} "
                f"{'needs' if spec.players * spec.destinations == 1 else 'need'} "
                f"{counted(spec.players * spec.destinations, 'different cell')}, each at distance >= {lo} from its seat's "
                f"start; a radius-{spec.radius} board has room for {most}")
    # upper bounds: a cheapest route never enters a cell twice, so a leg has at most n_cells - 1
    # steps of at most 4 points (an up-3 step); a piece has three pips
    steps = spec.destinations * (n_cells - 1)
    if spec.cost_band and spec.cost_band[0] > 4 * steps:
        raise InfeasibleError(f"cost_band: a cheapest cost is at most {4 * steps} on a radius-{spec.radius} board "
                              f"with {counted(spec.destinations, 'destination')} ({steps} steps of at most 4 points), below "
                              f"the band's {spec.cost_band[0]}")
    if spec.min_up3 > steps:
        raise InfeasibleError(f"min_up3: a cheapest route takes at most {steps} steps on a radius-{spec.radius} board "
                              f"with {counted(spec.destinations, 'destination')}, fewer than {spec.min_up3} up-3 steps")
    if spec.min_cliff_exits > 3 * n_cells:
        raise InfeasibleError(f"min_cliff_exits: a radius-{spec.radius} board's {n_cells} pieces have {3 * n_cells} "
                              f"pips, fewer than {spec.min_cliff_exits}")
    if spec.min_critical > n_cells:
        raise InfeasibleError(f"min_critical: a radius-{spec.radius} board has {n_cells} pieces, fewer than "
                              f"{spec.min_critical}")
    eb = mean_budget()
    for seat in range(spec.players):
        dist = min_tour_distance(spec, seat)
        cost_lb = dist + 3 * spec.min_up3  # an up-3 step costs 4 and crosses one hex
        if spec.cost_band and cost_lb > spec.cost_band[1]:
            why = f"the tour crosses at least {dist} hexes" + (f" and {spec.min_up3} up-3 steps cost 3 more each" if spec.min_up3 else "")
            raise InfeasibleError(f"cost_band: seat {seat} needs a cheapest cost of at least {cost_lb} ({why}), above the band's {spec.cost_band[1]}")
        lb = max(cost_lb, spec.cost_band[0] if spec.cost_band else 0)
        et_lb = lb / eb
        if spec.turns_band and et_lb > spec.turns_band[1]:
            cause = (f"min_up3 {spec.min_up3} and " if spec.min_up3 and cost_lb == lb else
                     "cost_band's low end and " if lb > cost_lb else "")
            raise InfeasibleError(
                f"turns_band: seat {seat} needs at least {et_lb:.2f} expected turns ({cause}cost >= {lb}, "
                f"at most {eb:.2f} movement points per turn on average), above the band's {spec.turns_band[1]}")
    if spec.cost_band and spec.cost_spread is not None and spec.cost_band[1] - spec.cost_band[0] < 0:
        raise InfeasibleError("cost_band is empty")
    if math.isfinite(eb) and spec.turns_band and spec.turns_band[1] < MIN_TURNS:
        raise InfeasibleError(f"turns_band: a seat needs at least one turn that moves, {MIN_TURNS:.2f} expected "
                              f"turns or more (8 rolls in 36 move no token: doubles, and a white 1 in bad weather), "
                              f"above the band's {spec.turns_band[1]:g}")
