"""The solver members of the portfolio: CP-SAT proofs up front, CP-SAT rotations on a stall.

``prove_first`` runs the level relaxation of ``cpsat.prove_infeasible`` when
destinations are fixed cells (placement fixed or opposite) and something can
actually block them (pins, a partial inventory, a cost ceiling), isolating
the requirement: elevation reachability first, then the cost ceiling.

``cpsat_then_repair`` is called when local search stalls on a board whose
cost constraints are not met: CP-SAT re-solves all rotations at once, then
local search resumes on the result.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from terragen.errors import InfeasibleError
from terragen.terrain.generate.construct import Candidate, opposite_cell
from terragen.terrain.generate.evaluate import Evaluator, Score
from terragen.terrain.generate.spec import Spec
from terragen.terrain.pieces import Inventory, load_inventory


def _uniform(inv: Inventory) -> bool:
    for name in ("standard", "extended"):
        std = load_inventory(name)
        if inv.counts == std.counts:
            return True
    return False


def prove_first(spec: Spec, inv: Inventory, seed: int, det_time: float, max_seconds: float | None = None) -> None:
    """Raise InfeasibleError when CP-SAT proves an isolated requirement impossible (each of its
    two proofs stopping after ``max_seconds`` of the clock, if given)."""
    if spec.placement not in ("fixed", "opposite"):
        return
    if not (spec.pins or spec.cost_band or not _uniform(inv)):
        return
    from terragen.grids import hex as hx
    from terragen.terrain.generate.cpsat import prove_infeasible

    corners = spec.seat_corners()
    starts = {hx.corner(spec.radius, c) for c in corners}
    if spec.placement == "fixed":
        assert spec.fixed is not None
        dests = [[tuple(h) for h in seat] for seat in spec.fixed]
    else:
        dests = [[opposite_cell(spec, c, starts)] for c in corners]
    if prove_infeasible(spec, inv, dests, seed, det_time, with_costs=False, max_seconds=max_seconds):
        raise InfeasibleError(
            "destinations: CP-SAT proved (INFEASIBLE) that with these pins and this inventory no levels let "
            "every seat reach its destination under the elevation rule")
    if spec.cost_band and prove_infeasible(spec, inv, dests, seed, det_time, with_costs=True, max_seconds=max_seconds):
        raise InfeasibleError(
            f"cost_band: CP-SAT proved (INFEASIBLE) that with these pins and this inventory no route to the "
            f"destinations costs at most {spec.cost_band[1]}")


def cpsat_then_repair(
    cand: Candidate, ev: Evaluator, rng: random.Random, spec: Spec, seed: int, attempt: int,
    accept: Callable[[Candidate, Score], bool], should_stop: Callable[[], bool],
    base: list[list[int]], deadline: float,
) -> tuple[Candidate, Score] | None:
    """Re-solve rotations with CP-SAT for the cost targets, then resume local search."""
    from terragen.terrain.generate.search import repair

    score = ev.score(cand)
    if score.cheap == 0 or any(s.cost is None for s in score.seats):
        return None  # nothing a rotation model addresses (or a seat is cut off)
    if any(s.up3 < spec.min_up3 for s in score.seats):
        return None  # the model does not see up-3 steps; a fresh construction is cheaper
    if spec.min_cliff_exits:
        from terragen.terrain.generate.evaluate import cliff_exits

        if cliff_exits(cand.board) < spec.min_cliff_exits:
            return None
    from terragen.terrain.generate.cpsat import solve_rotations

    rots = solve_rotations(cand.board, cand.starts, cand.dests, ev.targets, ev.cost_spread,
                           cand.locked_rot, seed * 1009 + attempt, det_time=0.4)
    if rots is None:
        return None
    new = cand.copy()
    for i, r in enumerate(rots):
        if r != new.board.rotation[i]:
            new.board.set_rotation(i, r)
    return repair(new, ev, rng, 1500, accept, should_stop, base)
