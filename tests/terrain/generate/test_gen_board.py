"""Generated boards: always valid, always within every band, buildable, reproducible."""

import math

import pytest

from terragen.errors import InfeasibleError, TimeLimitError
from terragen.terrain.analysis import analyse
from terragen.terrain.board import Board
from terragen.terrain.formats_json import read_json_layout, write_json_layout
from terragen.terrain.generate import generate_board
from terragen.terrain.generate.build_order import build_order, check_build_order
from terragen.terrain.generate.evaluate import cliff_exits
from terragen.terrain.generate.options import build_spec
from terragen.terrain.generate.spec import spec_from_dict
from terragen.terrain.generate.verify import spec_problems
from terragen.terrain.pieces import load_inventory
from terragen.terrain.validation import validate_layout


def assert_meets(layout, spec):
    report = validate_layout(layout, load_inventory(spec.inventory_name()))
    assert report.valid and not report.warnings, [f.message for f in report.findings]
    a = analyse(layout)
    for p, rep in zip(layout.players, a.players):
        assert all(d.reachable_elevation and d.reachable_pips for d in rep.destinations)
        if spec.turns_band:
            assert spec.turns_band[0] - 1e-9 <= rep.expected_turns <= spec.turns_band[1] + 1e-9
        if spec.cost_band:
            assert spec.cost_band[0] <= rep.tour_cost <= spec.cost_band[1]
        assert rep.up3_steps >= spec.min_up3
        assert rep.fragility >= spec.min_critical
    if spec.fairness is not None:
        assert a.fairness_spread <= spec.fairness + 1e-9
    if spec.cost_spread is not None:
        costs = [p.tour_cost for p in a.players]
        assert max(costs) - min(costs) <= spec.cost_spread
    assert cliff_exits(Board.from_layout(layout)) >= spec.min_cliff_exits
    assert spec_problems(layout, spec, load_inventory(spec.inventory_name())) == []
    assert check_build_order(layout, layout.extra["meta"]["build_order"]) == []


@pytest.mark.parametrize("flags, seed", [
    ({"players": 2, "difficulty": "easy"}, 1),
    ({"players": 4, "difficulty": "medium"}, 2),
    ({"players": 3, "difficulty": "hard", "radius": 4}, 3),
])
def test_preset_boards_meet_their_bands(flags, seed):
    spec, _ = build_spec(flags)
    layout = generate_board(spec, seed, time_limit=40, balance=None)
    assert_meets(layout, spec)


def test_six_seats_opposite_corners_equal_costs():
    spec = spec_from_dict({"players": 6, "placement": "opposite", "cost_spread": 1})
    layout = generate_board(spec, 4, time_limit=40, balance=None)
    assert_meets(layout, spec)
    costs = [p.tour_cost for p in analyse(layout).players]
    assert max(costs) - min(costs) <= 1


def test_pins_multi_destinations_and_partial_inventory(tmp_path):
    inv = tmp_path / "inv.toml"
    inv.write_text('name = "partial"\ncopies = 3\nlevels = 7\n')
    spec = spec_from_dict({
        "players": 3, "destinations": 2, "radius": 4, "inventory": str(inv), "placement": "distance",
        "min_distance": 4, "pins": [{"q": 0, "r": 0, "piece": "7A", "rotation": 2}], "shape": "mountain",
    })
    layout = generate_board(spec, 0, time_limit=40, balance=None)
    assert_meets(layout, spec)
    centre = layout.cell_map()[(0, 0)]
    assert (centre.level, centre.pattern, centre.rotation) == (7, "A", 2)
    assert max(c.level for c in layout.cells) <= 7


def test_same_seed_same_board_and_different_seed_differs():
    spec = spec_from_dict({"players": 3, "turns_band": [8, 16], "radius": 4})
    a = write_json_layout(generate_board(spec, 11, 40, balance=None))
    b = write_json_layout(generate_board(spec, 11, 40, balance=None))
    c = write_json_layout(generate_board(spec, 12, 40, balance=None))
    assert a == b and a != c


def test_meta_round_trips_and_build_order_is_legal():
    spec = spec_from_dict({"players": 2, "turns_band": [6, 20], "radius": 3})
    layout = generate_board(spec, 0, 40, balance=None)
    back = read_json_layout(write_json_layout(layout))
    meta = back.extra["meta"]
    assert meta["seed"] == 0 and meta["spec"]["players"] == 2
    order = meta["build_order"]
    assert len(order) == len(layout.cells)
    assert order[0]["seat"] == 0 and (order[0]["q"], order[0]["r"]) == (3, 0)
    assert check_build_order(back, order) == []
    # a broken order is caught
    swapped = [order[1], order[0], *order[2:]]
    assert check_build_order(back, swapped)
    assert check_build_order(back, build_order(back)) == []


def test_infeasible_and_timeout_outcomes():
    with pytest.raises(InfeasibleError, match="cost_band"):
        generate_board(spec_from_dict({"players": 2, "placement": "opposite", "cost_band": [0, 8]}), 0, 10)
    spec, _ = build_spec({"players": 6, "difficulty": "brutal"})
    try:
        layout = generate_board(spec, 0, time_limit=0.05, balance=None)
    except TimeLimitError as exc:
        assert "try" in exc.message
    else:  # found in time: then it must be a correct board
        assert_meets(layout, spec)


def test_gate_rejects_boards():
    calls = []

    def gate(layout):
        calls.append(layout)
        return len(calls) >= 2  # reject the first verified board

    spec = spec_from_dict({"players": 2, "turns_band": [6, 20], "radius": 3})
    layout = generate_board(spec, 0, 40, gate=gate, balance=None)
    assert len(calls) == 2 and layout is not None
    assert not math.isnan(analyse(layout).players[0].expected_turns)
