"""The last word on a generated board: the validator and the analysis, against the spec.

The generator's own scoring is a fast proxy; this check uses the same
``validate_layout`` and ``analyse`` everyone else uses, so a board is written
only if ``terragen validate`` would call it clean and every band of the spec
holds by the official numbers.
"""

from __future__ import annotations

from terragen.grids import hex as hx
from terragen.terrain.board import Board
from terragen.terrain.generate.evaluate import cliff_exits
from terragen.terrain.generate.spec import Spec
from terragen.terrain.layout import Layout
from terragen.terrain.pieces import Inventory
from terragen.terrain.validation import validate_layout

EPS = 1e-6  # the validator reports expected turns rounded to 6 decimals


def spec_problems(layout: Layout, spec: Spec, inventory: Inventory) -> list[str]:
    """Every way ``layout`` misses ``spec`` (empty list = the board may be written)."""
    return check_against_spec(layout, spec, inventory)[0]


def check_against_spec(layout: Layout, spec: Spec, inventory: Inventory) -> tuple[list[str], dict]:
    """The problems and the validator's analysis data (per player and board metrics).

    One ``validate_layout`` call does the rule check and the analysis; the
    bands are checked on the numbers it reports (expected turns rounded to 6
    decimals, hence the 1e-6 tolerance), so what ``terragen validate`` prints
    for the board is exactly what was checked.
    """
    report = validate_layout(layout, inventory)
    out = [f"validation {f.severity}: {f.code}: {f.message}" for f in report.findings]
    data = report.data
    cmap = layout.cell_map()
    for pin in spec.pins:
        c = cmap.get((pin.q, pin.r))
        if c is None or (c.level, c.pattern) != (pin.level, pin.pattern) or (pin.rotation is not None and c.rotation != pin.rotation):
            out.append(f"pin at ({pin.q},{pin.r}) not respected")
    if len(layout.players) != spec.players or [p.corner for p in layout.players] != spec.seat_corners():
        out.append("players or corners differ from the spec")
    costs, turns = [], []
    for p, rep in zip(layout.players, data["players"]):
        if len(p.destinations) != spec.destinations:
            out.append(f"seat {p.seat}: {len(p.destinations)} destinations, spec asks {spec.destinations}")
        for d, dr in zip(p.destinations, rep["destinations"]):
            if not (dr["reachable_elevation"] and dr["reachable_pips"]):
                out.append(f"seat {p.seat}: destination ({d.q},{d.r}) not reachable")
            start = layout.start(p)
            if spec.placement == "distance" and start and hx.distance(start, d.hex) < spec.min_distance:
                out.append(f"seat {p.seat}: destination ({d.q},{d.r}) closer than {spec.min_distance}")
        if spec.placement == "fixed" and spec.fixed is not None:
            if sorted(d.hex for d in p.destinations) != sorted(tuple(h) for h in spec.fixed[p.seat]):
                out.append(f"seat {p.seat}: destinations differ from the fixed ones")
        cost, et = rep["cost_good"], rep["expected_turns"]
        if cost is None or et is None:
            out.append(f"seat {p.seat}: cannot collect its destinations")
            continue
        costs.append(cost)
        turns.append(et)
        if spec.cost_band and not spec.cost_band[0] <= cost <= spec.cost_band[1]:
            out.append(f"seat {p.seat}: cheapest cost {cost} outside {spec.cost_band}")
        if spec.turns_band and not spec.turns_band[0] - EPS <= et <= spec.turns_band[1] + EPS:
            out.append(f"seat {p.seat}: expected turns {et:.2f} outside {spec.turns_band}")
        if (rep["up3_steps"] or 0) < spec.min_up3:
            out.append(f"seat {p.seat}: {rep['up3_steps']} up-3 steps on the cheapest route, spec asks >= {spec.min_up3}")
        if rep["fragility"] < spec.min_critical:
            out.append(f"seat {p.seat}: {rep['fragility']} rotation-critical pieces, spec asks >= {spec.min_critical}")
    if spec.cost_spread is not None and costs and max(costs) - min(costs) > spec.cost_spread:
        out.append(f"cheapest costs spread {max(costs) - min(costs)} > {spec.cost_spread}")
    if spec.fairness is not None and (len(turns) < len(layout.players) or max(turns) - min(turns) > spec.fairness + EPS):
        out.append(f"expected-turns spread above fairness {spec.fairness}")
    if spec.min_cliff_exits and cliff_exits(Board.from_layout(layout)) < spec.min_cliff_exits:
        out.append(f"fewer than {spec.min_cliff_exits} pips next to cliffs")
    return out, data
