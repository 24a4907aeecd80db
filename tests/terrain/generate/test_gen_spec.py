"""Spec parsing and the cheap infeasibility bounds: clear errors naming the key."""

import pytest

from terragen.errors import InfeasibleError, InputError, SpecError
from terragen.terrain.generate.bounds import check_bounds, mean_budget
from terragen.terrain.generate.options import build_spec
from terragen.terrain.generate.presets import preset_keys, preset_names
from terragen.terrain.generate.spec import Spec, check_spec, spec_from_dict
from terragen.terrain.pieces import inventory_from_dict, load_inventory


@pytest.mark.parametrize("data, key", [
    ({"players": 7}, "players"),
    ({"destinations": 0}, "destinations"),
    ({"radius": 7}, "radius"),
    ({"cost_band": [30, 20]}, "cost_band"),
    ({"turns_band": "fast"}, "turns_band"),
    ({"placement": "anywhere"}, "placement"),
    ({"shape": "volcano"}, "shape"),
    ({"pins": [{"q": 0, "r": 0, "piece": "9Z"}]}, "pins"),
    ({"frobnicate": 1}, "frobnicate"),
])
def test_bad_spec_values_name_the_key(data, key):
    with pytest.raises(SpecError) as exc:
        spec_from_dict(data)
    assert key in exc.value.message


def test_contradictions_are_spec_errors():
    with pytest.raises(SpecError, match="corners"):
        check_spec(spec_from_dict({"players": 3, "corners": [0, 1]}))
    with pytest.raises(SpecError, match="fixed"):
        check_spec(spec_from_dict({"placement": "fixed", "players": 2}))
    with pytest.raises(SpecError, match="opposite"):
        check_spec(spec_from_dict({"placement": "opposite", "destinations": 2}))
    with pytest.raises(SpecError, match="corner where a player starts"):
        check_spec(spec_from_dict({"players": 2, "placement": "fixed", "fixed": [[[0, -5]], [[1, 1]]]}))


def test_flags_override_file_and_file_overrides_preset(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('players = 3\ndifficulty = "hard"\nmin_up3 = 1\nseed = 5\n')
    spec, run = build_spec({"players": 2}, f)
    assert spec.players == 2 and spec.min_up3 == 1 and spec.difficulty == "hard" and run["seed"] == 5
    hard = preset_keys("hard", 5, 1)
    assert spec.turns_band == hard["turns_band"]


def test_presets_exist_and_grow_harder():
    names = preset_names()
    assert {"easy", "medium", "hard", "brutal"} <= set(names)
    bands = [preset_keys(n, 5, 1)["turns_band"] for n in ("easy", "medium", "hard", "brutal")]
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(bands, bands[1:]))
    ups = [preset_keys(n, 5, 1).get("min_up3", 0) for n in ("easy", "medium", "hard", "brutal")]
    assert ups == sorted(ups) and ups[-1] >= 3


def test_bounds_refute_impossible_bands():
    inv = load_inventory("standard")
    with pytest.raises(InfeasibleError, match="cost_band"):
        check_bounds(spec_from_dict({"players": 2, "placement": "opposite", "cost_band": [0, 8]}), inv)
    with pytest.raises(InfeasibleError, match="turns_band"):
        check_bounds(spec_from_dict({"players": 2, "placement": "opposite", "turns_band": [1, 3]}), inv)
    small = inventory_from_dict({"copies": 1}, "small")
    with pytest.raises(InfeasibleError, match="inventory"):
        check_bounds(Spec(players=2), small)
    two_levels = inventory_from_dict({"copies": 6, "levels": 2}, "flat")
    with pytest.raises(InfeasibleError, match="min_up3"):
        check_bounds(Spec(players=2, radius=3, min_up3=1), two_levels)
    # a feasible spec passes
    check_bounds(spec_from_dict({"players": 2, "placement": "opposite", "cost_band": [10, 40]}), inv)


@pytest.mark.parametrize("data, says", [
    ({"players": 2, "cost_band": [500, 600]}, "cost_band: a cheapest cost is at most 360"),
    ({"players": 2, "min_up3": 1000}, "min_up3: a cheapest route takes at most 90 steps"),
    ({"players": 2, "min_cliff_exits": 1000}, "min_cliff_exits: a radius-5 board's 91 pieces have 273 pips"),
    ({"players": 2, "min_critical": 1000}, "min_critical: a radius-5 board has 91 pieces"),
])
def test_bounds_refute_counts_no_board_holds(data, says):
    """These once searched to the time limit and ended with advice that named other keys."""
    with pytest.raises(InfeasibleError, match=says):
        check_bounds(spec_from_dict(data), load_inventory("standard"))


@pytest.mark.parametrize("data, says", [
    # 18 destinations at distance 6 on radius 3: the corners' far sides hold 12 cells (an internal error once)
    ({"players": 6, "radius": 3, "destinations": 3, "placement": "distance", "min_distance": 6},
     "need 18 different cells, each at distance >= 6 from its seat's start; a radius-3 board has room for 12"),
    # a start pinned low with every neighbour pinned high: its token never leaves (exit 4 after a search once)
    ({"players": 2, "corners": [0, 3], "pins": [{"q": 5, "r": 0, "piece": "1A"}, {"q": 4, "r": 0, "piece": "8A"},
                                              {"q": 4, "r": 1, "piece": "8B"}, {"q": 5, "r": -1, "piece": "8C"}]},
     "seat 0's start \\(5,0\\) is pinned at level 1 and every neighbour is pinned more than 3 levels"),
    ({"players": 2, "turns_band": [0.5, 1.25]}, "at least one turn that moves, 1.29 expected turns"),
])
def test_bounds_refute_placements_no_board_holds(data, says):
    with pytest.raises(InfeasibleError, match=says):
        check_bounds(spec_from_dict(data), load_inventory("standard"))


def test_destinations_too_far_for_seats_in_turn_are_assigned_together():
    """Seats drew their far destinations one after another and a later one found none left: an
    internal error (ValueError), though cells for every seat existed."""
    import random

    from terragen.terrain.generate.construct import construct

    spec = spec_from_dict({"players": 4, "radius": 3, "destinations": 3, "placement": "distance",
                           "min_distance": 6, "symmetry": "none"})
    check_bounds(spec, load_inventory("standard"))
    for attempt in range(20):
        cand = construct(spec, load_inventory("standard"), random.Random(f"terragen-generate:109010:{attempt}"), 0.3)
        cells = [g for ds in cand.dests for g in ds]
        assert len(cells) == len(set(cells)) == 12
        for seat, ds in enumerate(cand.dests):
            start = cand.board.hexes[cand.starts[seat]]
            assert all(hx_distance(cand.board.hexes[g], start) >= 6 for g in ds)


def hx_distance(a, b):
    from terragen.grids.hex import distance

    return distance(a, b)


@pytest.mark.parametrize("data, says", [
    ({"difficulty": "../../../tmp/x"}, "difficulty' must be one of"),  # once read as a path to any TOML file
    ({"difficulty": "x" * 3000}, "difficulty' must be one of"),
    ({"cost_band": [0, 10**20]}, "within 0 to 100000"),
    ({"placement": "fixed", "fixed": [[[True, False]], [[1, 0]]]}, "fixed"),
    ({"pins": [{"q": 0, "r": 0, "piece": "8A2"}]}, "names a copy"),  # once dropped without a word
    ({"pins": [{"q": 0, "r": 0, "peice": "8A"}]}, "unknown key 'peice'; did you mean 'piece'"),
])
def test_values_a_spec_cannot_take(data, says):
    with pytest.raises(SpecError, match=says):
        spec_from_dict({"players": 2, **data})


def test_spec_errors_name_the_line_and_the_flag_they_clash_with(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('players = 2\n[[pins]]\nq = 0\nr = 0\npiece = "8A"\n\n[[pins]]\nq = 1\nr = 0\npiece = "8A"\nrotation = 9\n')
    with pytest.raises(SpecError, match=r"s.toml:7: spec key 'pins' entry 2"):
        build_spec({}, f)
    f.write_text("players = 4\ncorners = [0, 1, 3, 4]\n")
    with pytest.raises(SpecError, match=r"s.toml:2: spec key 'corners' lists 4 corners but 'players' \(--players 3\)"):
        build_spec({"players": 3}, f, as_flags=True)
    with pytest.raises(SpecError, match=r"s.toml:2: spec key 'corners' lists 4 corners but 'players' \(3 given beside"):
        build_spec({"players": 3}, f)  # a library caller typed no flag
    f.write_text("players = 2\ntime_limit = true\n")
    with pytest.raises(SpecError, match="s.toml:2: time_limit must be a number"):
        build_spec({}, f)
    f.write_text('{"players": 2}')
    with pytest.raises(SpecError, match="a spec file is TOML"):
        build_spec({}, f)


@pytest.mark.parametrize("text, says", [
    ("seed = -3\n", "s.toml:1: seed must be a whole number from 0 to 9223372036854775807 (got -3)"),
    ('players = 2\nseed = "x"\n', 's.toml:2: seed must be a whole number from 0 to 9223372036854775807 (got "x")'),
    ("players = true\n", "s.toml:1: spec key 'players' must be a whole number from 2 to 6 (got true)"),  # as TOML spells it
    ("difficulty = 1979-05-27\n", "s.toml:1: spec key 'difficulty' must be one of easy, medium, hard, brutal (got 1979-05-27)"),
    ("time_limit = -1\n", "s.toml:1: time_limit must be a number of seconds above 0 and at most 86400, a day (got -1)"),
    ("players = 4\nplayers = 5\n", "s.toml:2:12: invalid TOML: Cannot overwrite a value"),
    ('players = 4\nseed = "x\n', "s.toml:2:10: invalid TOML: Illegal character '\\n'"),
])
def test_spec_file_errors_read_file_line_col_and_what_was_given(tmp_path, text, says):
    """seed and time_limit were the only keys whose error did not say what the file gave, and a
    TOML syntax error put its place at the end in tomllib's words ("(at line 2, column 12)"),
    where every other file error starts with file:line:col."""
    f = tmp_path / "s.toml"
    f.write_text(text)
    with pytest.raises(SpecError) as err:
        build_spec({}, f)
    assert err.value.message == f"{tmp_path}/{says}"


def test_a_spec_files_inventory_path_is_beside_the_spec_wherever_the_command_runs(tmp_path, monkeypatch):
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "s.toml").write_text('players = 2\ninventory = "inv.toml"\n')
    (tmp_path / "specs" / "inv.toml").write_text('name = "beside the spec"\ncopies = 3\n')
    (tmp_path / "inv.toml").write_text('name = "in the current folder"\ncopies = 3\n')
    monkeypatch.chdir(tmp_path)
    spec, _ = build_spec({}, "specs/s.toml")
    assert load_inventory(spec.inventory_name()).name == "beside the spec"


def test_mean_budget_is_what_the_dice_give():
    # 30 non-double rolls: good weather budget = white, bad = white // 2
    assert 2.0 < mean_budget() < 3.0


def test_cpsat_proves_a_walled_in_destination_infeasible():
    from terragen.terrain.generate import generate_board

    ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    pins = [{"q": 0, "r": 0, "piece": "1A"}] + [
        {"q": q, "r": r, "piece": f"8{'ABCD'[k % 4]}"} for k, (q, r) in enumerate(ring)]
    spec = spec_from_dict({"players": 2, "placement": "fixed", "fixed": [[[0, 0]], [[2, 2]]], "pins": pins})
    # the bound sees it first, and says why; the level relaxation proves it on its own too
    with pytest.raises(InfeasibleError, match="seat 0's destination \\(0,0\\) is pinned at level 1"):
        generate_board(spec, 0, 20)
    from terragen.terrain.generate.cpsat import prove_infeasible

    assert prove_infeasible(spec, load_inventory("standard"), [[(0, 0)], [(2, 2)]], 0, with_costs=False) == "infeasible"


def test_cpsat_rotation_model_meets_equal_cost_targets():
    import random

    from terragen.terrain.generate.construct import construct
    from terragen.terrain.generate.cpsat import solve_rotations
    from terragen.terrain.generate.evaluate import Evaluator

    spec = spec_from_dict({"players": 3, "placement": "opposite", "radius": 4})
    cand = construct(spec, load_inventory("standard"), random.Random(2), 0.2)
    rots = solve_rotations(cand.board, cand.starts, cand.dests, [[17, 22]] * 3, 0, set(), 1, det_time=2.0)
    assert rots is not None
    for i, r in enumerate(rots):
        cand.board.set_rotation(i, r)
    costs = [s.cost for s in Evaluator(spec, [[17, 22]] * 3).seats(cand)]
    assert len(set(costs)) == 1 and 17 <= costs[0] <= 22


def test_the_recorded_inventory_does_not_depend_on_how_the_spec_path_is_spelled(tmp_path, monkeypatch):
    """board.json recorded the spec's inventory joined to the spec path as typed, so the same spec
    and seed wrote different bytes from another folder."""
    (tmp_path / "s.toml").write_text('players = 2\ninventory = "inv.toml"\n')
    (tmp_path / "inv.toml").write_text('name = "mine"\ncopies = 3\n')
    monkeypatch.chdir(tmp_path)
    here = build_spec({}, "s.toml")[0].to_json()
    absolute = build_spec({}, tmp_path / "s.toml")[0].to_json()
    assert here == absolute and here["inventory"] == "inv.toml"


def test_the_library_builds_the_clis_spec_and_time_limit():
    """A library user's spec_from_dict({"difficulty": "hard"}) made easy boards labelled hard: the
    documented way (build_spec from the package) applies the preset, and generate_board's default
    time limit is the CLI's, so the same spec and seed give the CLI's board."""
    import inspect

    from terragen.terrain.generate import build_spec, generate_board
    from terragen.terrain.generate.presets import preset_keys

    spec, run = build_spec({"players": 4, "difficulty": "hard", "seed": 1})
    hard = preset_keys("hard", spec.radius, spec.destinations)
    assert spec.turns_band == hard["turns_band"] and spec.min_up3 == hard["min_up3"]
    assert inspect.signature(generate_board).parameters["time_limit"].default == run["time_limit"]


def test_no_symmetric_placement_of_the_destinations_goes_on_with_free_form_boards(monkeypatch):
    """It was reported as a proof that the spec is impossible (exit 3), though a free-form board
    existed (4 seats, 3 destinations at distance 6 on radius 3)."""
    import importlib

    from terragen.terrain.generate import generate_board

    construct_module = importlib.import_module("terragen.terrain.generate.construct")  # not the function

    def none_found(*args, **kwargs):
        raise construct_module.NoSymmetricPlacement("no symmetric destinations found")

    monkeypatch.setattr(construct_module, "_construct_symmetric", none_found)
    spec = spec_from_dict({"players": 4, "radius": 3, "destinations": 1, "difficulty": "easy"})
    layout = generate_board(spec, 1, 30, balance=None)
    assert layout.extra["meta"]["symmetry"] == "none" and len(layout.players) == 4


def test_one_terrain_without_a_symmetric_placement_leaves_the_search_symmetric(monkeypatch):
    """Whether the destinations fit symmetrically depends on the terrain: one miss (attempt 0 of seed 3
    for 4 seats, 3 destinations on radius 3) turned the whole run free-form."""
    import importlib

    from terragen.terrain.generate import generate_board

    construct_module = importlib.import_module("terragen.terrain.generate.construct")
    real, calls = construct_module._construct_symmetric, []

    def first_misses(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise construct_module.NoSymmetricPlacement("no symmetric destinations found")
        return real(*args, **kwargs)

    monkeypatch.setattr(construct_module, "_construct_symmetric", first_misses)
    spec = spec_from_dict({"players": 4, "radius": 3, "destinations": 1, "difficulty": "easy"})
    layout = generate_board(spec, 1, 30, balance=None)
    assert len(calls) >= 2 and layout.extra["meta"]["symmetry"].startswith("mirror")


@pytest.mark.parametrize("name", ["inv.TOML", "inv", "parts/inv.toml", "inv.txt"])
def test_any_inventory_file_a_spec_names_is_beside_the_spec(tmp_path, monkeypatch, name):
    """Only names ending in lower-case '.toml' were looked for beside the spec: 'inv.TOML' was
    looked for in the current folder (and a file there of that name was used without a word)."""
    (tmp_path / "specs" / "parts").mkdir(parents=True)
    (tmp_path / "specs" / "s.toml").write_text(f'players = 2\ninventory = "{name}"\n')
    (tmp_path / "specs" / name).write_text('name = "beside the spec"\ncopies = 3\n')
    (tmp_path / "parts").mkdir()
    (tmp_path / name).write_text('name = "in the current folder"\ncopies = 3\n')
    monkeypatch.chdir(tmp_path)
    spec, _ = build_spec({}, "specs/s.toml")
    assert load_inventory(spec.inventory_name()).name == "beside the spec"


def test_a_spec_naming_a_template_inventory_still_gets_the_template(tmp_path):
    (tmp_path / "s.toml").write_text('players = 2\ninventory = "extended"\n')
    spec, _ = build_spec({}, tmp_path / "s.toml")
    assert load_inventory(spec.inventory_name()).name == load_inventory("extended").name


def test_an_inventory_that_cannot_be_read_is_named_by_where_it_was_given(tmp_path):
    from terragen.terrain.generate.options import load_spec_inventory

    (tmp_path / "s.toml").write_text('players = 2\n\ninventory = "nosuch.toml"\n')
    spec, _ = build_spec({}, tmp_path / "s.toml")
    with pytest.raises(SpecError, match=r"s\.toml:3: inventory: .*nosuch\.toml: no such file"):
        load_spec_inventory(spec, {}, tmp_path / "s.toml")
    flags = {"inventory": str(tmp_path / "nosuch.toml")}
    spec, _ = build_spec(flags)
    with pytest.raises(SpecError, match=r"^--inventory: .*nosuch\.toml: no such file"):
        load_spec_inventory(spec, flags)


def test_an_inventory_given_as_the_spec_is_said_to_be_one(tmp_path):
    (tmp_path / "inv.toml").write_text('name = "mine"\ncopies = 3\nlevels = 8\n')
    with pytest.raises(SpecError, match="this is an inventory of pieces .* give it as --inventory"):
        build_spec({}, tmp_path / "inv.toml")


@pytest.mark.parametrize("example, kind", [
    ("terrain/four-players.txt", "a Terrain Game layout"),
    ("terrain/four-players.json", "a Terrain Game layout (JSON)"),
    ("terralogical/three-players-start.txt", "a Terralogical board"),
])
def test_a_spec_or_inventory_that_is_another_kind_of_file_is_said_to_be_one(capsys, tmp_path, example, kind):
    """A layout given as --spec or --inventory got TOML's own words ("Expected '=' after a key"), and
    as --spec without the option's name; only JSON was said to look like JSON."""
    from terragen.examples import find_example

    from tests.cli.test_conventions import run_cli

    given = tmp_path / example.rsplit("/", 1)[1]
    given.write_bytes(find_example(example).read_bytes())
    for option, what in (("--spec", "a generator spec: a spec file is TOML"),
                         ("--inventory", "a piece inventory: an inventory is TOML")):
        code, out, err = run_cli(capsys, "generate", option, given, "--out", tmp_path / "b")
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert err.startswith(f"terragen: error: {option}: {given}: this looks like {kind}, not {what}"), err


def test_a_spec_given_as_the_inventory_is_said_to_be_one(capsys, tmp_path):
    """It said "unknown key 'corners' in an inventory: did you mean counts?"."""
    from terragen.examples import find_example

    from tests.cli.test_conventions import run_cli

    spec = tmp_path / "example.toml"
    spec.write_bytes(find_example("terrain/specs/example.toml").read_bytes())
    code, _, err = run_cli(capsys, "generate", "--inventory", spec, "--out", tmp_path / "b")
    assert code == 2 and err == (f"terragen: error: --inventory: {spec}: this is a generator spec, not a piece "
                                 "inventory: give it as --spec FILE (an inventory holds name, copies, levels and a "
                                 "[counts] table)\n")
    with pytest.raises(InputError, match="unknown key 'cuonts' in an inventory: did you mean counts"):
        inventory_from_dict({"copies": 1, "cuonts": {}}, "inv.toml")  # a misspelt key is still that


def test_a_spec_files_syntax_error_names_the_option(capsys, tmp_path):
    from tests.cli.test_conventions import run_cli

    spec = tmp_path / "s.toml"
    spec.write_text("players = 4\nplayers = 5\n")
    code, _, err = run_cli(capsys, "generate", "--spec", spec, "--out", tmp_path / "b")
    assert code == 2 and err == f"terragen: error: --spec: {spec}:2:12: invalid TOML: Cannot overwrite a value\n"


def test_a_spec_or_inventory_starting_with_a_table_is_read_as_toml(tmp_path):
    """A spec whose first line was '[[pins]]', or an inventory starting with its '[counts]' table, was
    refused as "this looks like JSON" (found in review): only a file that is not TOML is named for
    what else it looks like."""
    from terragen.terrain.pieces import load_inventory

    spec = tmp_path / "spec.toml"
    spec.write_text('[[pins]]\nq = 0\nr = 0\npiece = "8A"\n')
    built, _ = build_spec({"players": 2}, spec)
    assert built.pins
    counts = "\n".join(f'"{level}{pattern}" = 3' for level in range(1, 9) for pattern in "ABCD")
    inventory = tmp_path / "inv.toml"
    inventory.write_text(f"[counts]\n{counts}\n")
    assert load_inventory(str(inventory)).total == 96
