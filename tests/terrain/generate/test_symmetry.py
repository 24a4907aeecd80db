"""Symmetric boards: which symmetry a seat count gets, that construction and repair keep it,
and that a generated symmetric board comes out BALANCED on seeds it never saw."""

import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from terragen.grids import hex as hx
from terragen.terrain.generate import BalanceSettings, generate_board
from terragen.terrain.generate.construct import board_symmetry, construct, destination_options, opposite_cell
from terragen.terrain.generate.fresh_checks import TWIN_NOISE_FLOOR
from terragen.terrain.generate.options import build_spec
from terragen.terrain.generate.search import _move
from terragen.terrain.generate.spec import spec_from_dict
from terragen.terrain.generate.symmetry import Mirror, mirror, symmetric_pieces, symmetry_for, turn
from terragen.terrain.pieces import load_inventory
from terragen.terrain.sim import simulate_layout
from terragen.terrain.sim.runner import replay_check

STANDARD = load_inventory("standard")
EXTENDED = load_inventory("extended")
TURN_120 = {turn(0), turn(2), turn(4)}
MIRRORS = {mirror(a) for a in range(3)}


def maps_corners_onto_themselves(sym, corners):
    """The corners, with any the symmetry leaves empty, are mapped onto themselves."""
    every = sorted([*corners, *sym.vacant])
    return all(sorted(p[c] for c in every) == every for p in sym.perms)


def board_kinds(cand):
    b = cand.board
    return Counter(zip(b.level, b.pattern)) + Counter(cand.spares)


def assert_placement_rule(cand, spec):
    """Every seat has its number of destinations, none shared or on a start, each where the rule allows."""
    b = cand.board
    flat = [g for ds in cand.dests for g in ds]
    assert len(flat) == len(set(flat)), "two seats share a destination"
    assert not set(flat) & set(cand.starts)
    corners = spec.seat_corners()
    starts = {hx.corner(spec.radius, c) for c in corners}
    for seat, ds in enumerate(cand.dests):
        assert len(ds) == spec.destinations
        if spec.placement == "opposite":
            assert [b.hexes[g] for g in ds] == [opposite_cell(spec, corners[seat], starts)]
        else:
            allowed = set(destination_options(spec, b, cand.starts, seat))
            assert set(ds) <= allowed, (seat, [b.hexes[g] for g in ds])


def sixfold_levels(board):
    return all(board.level[board.index[hx.rotate(h, 1)]] == board.level[i] for i, h in enumerate(board.hexes))


# ---- which symmetry ------------------------------------------------------------------------

@pytest.mark.parametrize("players, group, classes", [
    (2, "mirror", [[0, 1]]),
    (3, "turn", [[0, 1, 2]]),
    (6, "turn", [[0, 2, 4], [1, 3, 5]]),
    (4, "mirror", None),
    (5, "turn", [[0, 2, 4], [1, 3]]),
])
def test_standard_inventory_symmetry_per_seat_count(players, group, classes):
    corners = spec_from_dict({"players": players}).seat_corners()
    sym = symmetry_for(5, corners, STANDARD.counts)
    assert sym is not None
    if group == "turn":
        assert set(sym.perms) == TURN_120
        assert sym.classes() == classes
    else:
        assert len(sym.perms) == 2 and sym.perms[1] in MIRRORS
        assert len(sym.classes()) < players  # the mirror merges seats
        if classes is not None:
            assert sym.classes() == classes
    assert maps_corners_onto_themselves(sym, corners)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_default_seating_keeps_the_order_of_play(players):
    """Seats a symmetry relates play in the same turn order only when the map moves every
    seat the same number of places on; four seats sit 0, 1, 4, 3 for that, and five sit on a
    board turned by 120 degrees with the sixth corner empty (counted as a seat after the last)."""
    corners = spec_from_dict({"players": players}).seat_corners()
    mirror = Mirror(symmetry_for(5, corners, STANDARD.counts))
    assert mirror.keeps_order
    for seat_map in mirror.seat_maps:
        assert seat_map == [(s + seat_map[0]) % len(seat_map) for s in range(len(seat_map))]
    assert mirror.approximate is (players == 5)


def test_five_seats_leave_the_sixth_corner_empty_on_a_turned_board():
    """No map keeps five corners and the order of play, so five seats get the six-seat turn
    with the corner no one takes left out of the classes; a mirror's reversal of the order is
    what the old choice gave them."""
    sym = symmetry_for(5, [0, 1, 2, 3, 4], STANDARD.counts)
    assert set(sym.perms) == TURN_120 and sym.vacant == (5,)
    assert sym.classes() == [[0, 2, 4], [1, 3]]
    assert "corner 5 empty" in sym.describe()
    # seated the other way round it is the same; with the empty corner inside the ring it is not
    assert symmetry_for(5, [4, 3, 2, 1, 0], STANDARD.counts).vacant == (5,)
    other = symmetry_for(5, [0, 1, 2, 3, 5], STANDARD.counts)
    assert other.vacant == () and not Mirror(other).keeps_order
    # the constructed board is turned onto itself, and the seats of a class get images of one set
    spec = spec_from_dict({"players": 5})
    cand = construct(spec, STANDARD, random.Random(3), 0.3, sym)
    mirror = Mirror(sym)
    assert mirror.is_symmetric(cand)
    turned = [mirror.maps[1][g] for g in cand.dests[0]]
    assert sorted(cand.dests[2]) == sorted(turned)
    assert all(g not in cand.starts for ds in cand.dests for g in ds)


def test_four_seats_in_corner_order_get_a_mirror_that_reverses_play():
    mirror = Mirror(symmetry_for(5, [0, 1, 3, 4], STANDARD.counts))
    assert not mirror.keeps_order
    assert spec_from_dict({"players": 4, "symmetry": "none"}).seat_corners() == [0, 1, 3, 4]


def test_two_opposite_seats_get_no_symmetry():
    assert symmetry_for(5, [0, 3], STANDARD.counts) is None
    assert spec_from_dict({"players": 2, "symmetry": "none"}).seat_corners() == [0, 3]


@pytest.mark.parametrize("corners", [list(c) for k in range(2, 7) for c in itertools.combinations(range(6), k)])
def test_any_corner_set_gets_a_symmetry_that_keeps_it_and_can_be_built(corners):
    sym = symmetry_for(5, corners, STANDARD.counts)
    if sym is None:
        return
    assert maps_corners_onto_themselves(sym, corners)
    assert len(sym.classes()) < len(corners)
    assert sorted(s for c in sym.classes() for s in c) == list(range(len(corners)))
    built = symmetric_pieces(sym, STANDARD.counts, random.Random(0), {})
    assert built is not None
    pieces, spares = built
    assert Counter((lv, pat) for lv, pat, _ in pieces) + Counter(spares) == Counter(STANDARD.counts)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_radius_6_extended_inventory_symmetry_is_constructible(players):
    spec = spec_from_dict({"players": players, "radius": 6})
    sym = symmetry_for(6, spec.seat_corners(), EXTENDED.counts)
    assert board_symmetry(spec, EXTENDED) == sym
    if sym is None:
        return
    assert maps_corners_onto_themselves(sym, spec.seat_corners())
    cand = construct(spec, EXTENDED, random.Random(players), 0.3, sym)
    assert Mirror(sym).is_symmetric(cand)
    assert board_kinds(cand) == Counter(EXTENDED.counts)
    assert_placement_rule(cand, spec)


def test_symmetry_none_pins_and_fixed_destinations_build_plain_boards():
    assert board_symmetry(spec_from_dict({"players": 3, "symmetry": "none"}), STANDARD) is None
    pinned = spec_from_dict({"players": 3, "pins": [{"q": 0, "r": 0, "piece": "4A"}]})
    assert board_symmetry(pinned, STANDARD) is None


# ---- construction --------------------------------------------------------------------------

SPECS = [
    {"players": 2}, {"players": 3}, {"players": 6}, {"players": 4}, {"players": 5},
    {"players": 3, "radius": 4, "difficulty": "hard"}, {"players": 6, "destinations": 2},
    {"players": 4, "placement": "distance", "min_distance": 5}, {"players": 5, "placement": "opposite"},
    {"players": 3, "radius": 3},
]


@pytest.mark.parametrize("flags", SPECS, ids=lambda f: "-".join(f"{k}{v}" for k, v in f.items()))
@pytest.mark.parametrize("seed", [0, 1])
def test_construct_with_symmetry_is_symmetric_complete_and_legal(flags, seed):
    spec, _ = build_spec(flags)
    inv = load_inventory(spec.inventory_name())
    sym = board_symmetry(spec, inv)
    assert sym is not None
    cand = construct(spec, inv, random.Random(seed), 0.4, sym)
    assert Mirror(sym).is_symmetric(cand)
    assert board_kinds(cand) == Counter(inv.counts)  # board pieces + spares: the box, exactly
    assert_placement_rule(cand, spec)
    if set(sym.perms) == TURN_120 and spec.inventory_name() == "standard":
        assert sixfold_levels(cand.board)  # heights the same from every corner


# ---- repair keeps the symmetry -------------------------------------------------------------

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flags=st.sampled_from(SPECS[:9]), seed=st.integers(0, 10_000), steps=st.integers(1, 40))
def test_repair_moves_are_rejected_or_keep_the_board_symmetric(flags, seed, steps):
    spec, _ = build_spec(flags)
    inv = load_inventory(spec.inventory_name())
    sym = board_symmetry(spec, inv)
    rng = random.Random(seed)
    cur = construct(spec, inv, rng, 0.4, sym)
    mirror_ = Mirror(sym)
    everywhere = list(range(len(cur.board)))
    for _ in range(steps):
        new = _move(cur, spec, rng, everywhere)
        if new is None:
            continue
        before = (list(cur.board.level), list(cur.board.pattern), list(cur.board.rotation),
                  [list(d) for d in cur.dests], list(cur.spares))
        ok = new.mirror.restore(cur, new)
        assert (list(cur.board.level), list(cur.board.pattern), list(cur.board.rotation),
                [list(d) for d in cur.dests], list(cur.spares)) == before  # the old state is untouched
        if not ok:
            continue
        assert mirror_.is_symmetric(new)
        assert board_kinds(new) == Counter(inv.counts)
        assert_placement_rule(new, spec)
        cur = new


# ---- generated boards ----------------------------------------------------------------------

def test_generated_three_seat_board_is_balanced_on_a_fresh_seed():
    spec, _ = build_spec({"players": 3, "difficulty": "easy"})
    layout = generate_board(spec, 5, time_limit=60)
    meta = layout.extra["meta"]
    assert meta["symmetry"].startswith("turn by 120 degrees")
    assert meta["seat_classes"] == [[0, 1, 2]]  # every seat an image of every other
    checks = meta["balance"]["verification"]
    assert checks and all(c["verdict"] == "BALANCED" for c in checks)
    used = {c["seed"] for c in checks} | {meta["balance"]["tuning"]["seed"]}
    fresh = 20261123
    assert fresh not in used
    report = simulate_layout(layout, seed=fresh)  # default games and margin, greedy players
    assert report.playable and report.balanced, report.balance_reasons


def test_generated_four_seat_board_is_balanced_on_a_fresh_seed_for_every_player():
    """Two classes, destinations found by the class search; mirrored seats play alike."""
    spec, _ = build_spec({"players": 4, "difficulty": "easy"})
    layout = generate_board(spec, 2, time_limit=90, workers=2)
    meta = layout.extra["meta"]
    assert meta["symmetry"].startswith("mirror")
    assert [p.corner for p in layout.players] == [0, 1, 4, 3]
    assert sorted(map(len, meta["seat_classes"])) == [2, 2]
    assert sorted(s for c in meta["seat_classes"] for s in c) == [0, 1, 2, 3]
    assert not meta["balance"].get("best_effort")
    checks = meta["balance"]["verification"]
    assert all(c["verdict"] == "BALANCED" for c in checks)
    greedy, solitary = checks
    # both checks are also the class search's confirmation: twice the games, played as twin pairs
    # and cut to as many as give that noise (half of that when the classes are clearly inside at
    # half), pooled classes as close as `terragen simulate` needs, every seat within its share of
    # the margin besides
    full = 2 * BalanceSettings().games_for(4)[2]
    for check in (greedy, solitary):
        # twin pairs cancel part of the dice's luck, never credited with more than the floor allows
        assert check["twin_dice"] and TWIN_NOISE_FLOOR <= check["twin_noise_factor"] < 1
        assert 2000 <= check["games"] <= full and check["games"] % 4 == 0
    for check, share in ((greedy, 0.6), (solitary, 0.8)):
        assert check["pooled_worst_deviation"] <= check["pooled_threshold"] < check["threshold"] == pytest.approx(0.025 * share)
    # the greedy check grew in steps on the generator's pool; replayed in one go it gives the same rates
    assert [round(r, 4) for r in replay_check(layout, greedy)] == greedy["win_rates"]
    for policy in ("greedy", "solitary"):
        report = simulate_layout(layout, seed=20261124, policy=policy)  # default games and margin
        assert report.playable and report.balanced, (policy, report.balance_reasons)


def test_four_seat_board_is_the_same_with_one_or_two_simulation_processes():
    """The class search plays its solo games in a batch spread over the processes, and its
    checks in pieces; none of that may change the board a seed gives."""
    from terragen.terrain.formats_json import write_json_layout

    spec, _ = build_spec({"players": 4, "difficulty": "easy"})
    one = generate_board(spec, 3, time_limit=120, workers=1)
    two = generate_board(spec, 3, time_limit=120, workers=2)
    assert not one.extra["meta"]["balance"].get("best_effort")
    assert write_json_layout(one) == write_json_layout(two)


def test_cli_symmetry_none_and_a_bad_value(cli, tmp_path):
    out = tmp_path / "plain"
    p = cli("generate", "--players", 3, "--difficulty", "easy", "--seed", 2, "--symmetry", "none", "--no-balance",
            "--out", out)
    assert p.returncode == 0, p.stderr
    meta = json.loads((out / "board.json").read_text())["meta"]
    assert meta["symmetry"] == "none" and meta["seat_classes"] == [[0], [1], [2]]
    spec = tmp_path / "s.toml"
    spec.write_text('players = 3\nsymmetry = "bad"\n')
    p = cli("generate", "--spec", spec, "--out", tmp_path / "x")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "symmetry" in lines[0] and "s.toml:2" in lines[0], lines
    assert not (tmp_path / "x").exists()
