"""The turn-to-turn cache against fresh computation, and whole runs: seeds, workers, CLI."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st_
from sim_helpers import make_layout

from terragen.grids import hex as hx
from terragen.terrain.board import Board
from terragen.intervals import wilson
from terragen.terrain.expected import expected_turns_table
from terragen.terrain.paths import costs_to
from terragen.terrain.sim import Rules, simulate_layout
from terragen.terrain.sim.cache import BoardCache, bounded_reach
from terragen.terrain.sim.stats import percentile
from terragen.templates import template_path

EXAMPLES = template_path("terrain", "examples")


def _random_board(seed: int, radius: int = 3) -> Board:
    rng = random.Random(seed)
    cells = {h: (rng.randint(1, 6), rng.choice("ABCD"), rng.randrange(6)) for h in hx.board_cells(radius)}
    return Board.from_layout(make_layout(radius, cells))


@given(st_.integers(0, 10_000), st_.lists(st_.tuples(st_.integers(0, 36), st_.integers(0, 5)), min_size=1, max_size=8))
def test_cache_after_rotations_matches_a_fresh_board(seed, turns):
    board = _random_board(seed)
    cache = BoardCache(board)
    goals = [(3,), (20, 30), (36,)]
    for _ in range(2):  # fill the cache, then rotate and compare with a fresh computation
        for g in goals:
            cache.dist_to(g)
        for p in range(0, 37, 3):
            cache.reach(p)
    for k, (cell, rot) in enumerate(turns):
        old_out = board.pip_arcs[cell]
        board.set_rotation(cell, rot)
        cache.rotated(cell, old_out if k % 2 else None)  # both the patched and the rebuilt graph
        for g in goals:
            fresh = [min((costs_to(board, x).get(i, float("inf")) for x in g)) for i in range(len(board))]
            assert cache.dist_to(g) == fresh
            assert cache.tours((g,), 0) == fresh
        for p in range(0, 37, 3):
            assert cache.reach(p) == bounded_reach(board.pip_arcs, p, 6)


@given(st_.integers(0, 10_000),
       st_.lists(st_.lists(st_.tuples(st_.sampled_from([4, 17, 18, 30]), st_.integers(0, 5)), min_size=1, max_size=5),
                 min_size=2, max_size=4))
def test_games_sharing_board_states_see_the_board_they_turned(seed, games):
    # games of a run share the tables of every board state (and of every turn between states);
    # each game turns a few pieces its own way from the same start, and whatever the others
    # did before it, its board's arcs and its cache's reach must be those of its own board
    start = _random_board(seed)
    template = BoardCache(start)
    for turns in games:
        board = start.copy()
        cache = BoardCache(board, template=template)
        for cell, rot in turns:
            old_out = board.pip_arcs[cell]
            board.set_rotation(cell, rot)
            cache.rotated(cell, old_out)
            rebuilt = Board.from_layout(make_layout(3, {h: (board.level[i], board.pattern[i], board.rotation[i])
                                                        for i, h in enumerate(board.hexes)}))
            assert board.pip_arcs == rebuilt.pip_arcs
            for p in (0, 4, 17, 18, 30, 36):
                assert cache.reach(p) == bounded_reach(rebuilt.pip_arcs, p, 6)


def test_cached_table_equals_the_analysis_table():
    board = _random_board(4)
    cache = BoardCache(board)
    table = cache.table(((5,), (30,)))
    exact = expected_turns_table(board, [5, 30])
    for mask in range(4):
        assert all(abs(a - b) < 1e-9 or a == b for a, b in zip(table[mask], exact[mask]))
    board.set_rotation(12, (board.rotation[12] + 1) % 6)
    cache.rotated(12)
    exact = expected_turns_table(board, [5, 30])
    assert all(abs(a - b) < 1e-9 or a == b for a, b in zip(cache.table(((5,), (30,)))[0], exact[0]))


PLAYERS = (((3,),), ((20,), (30,)), ((36,), (5,)))  # one destination, and two (every layer of the table)


TURNS = st_.lists(st_.tuples(st_.integers(0, 36), st_.integers(0, 5)), min_size=1, max_size=6)  # (piece, rotation)


def _after_each_turn_like_a_cold_cache(seed: int, turns, fill, read) -> None:
    """Turn pieces of a random board one by one, ``fill`` the cache before each turn as a game
    would, and after it check that ``read`` gives what a cold cache of the new board gives."""
    board = _random_board(seed)
    cache = BoardCache(board)
    for cell, rot in turns:
        fill(cache)
        old_out = board.pip_arcs[cell]
        board.set_rotation(cell, rot)
        cache.rotated(cell, old_out)
        assert read(cache) == read(BoardCache(board.copy()))


def _every_mask(groups):
    return range(1 << len(groups))


@pytest.mark.parametrize("solver", ["python", "compiled"])
@given(seed=st_.integers(0, 10_000), turns=TURNS)
def test_tables_after_turns_of_pieces_are_those_of_a_cold_cache(solver, seed, turns):
    # a new board state's expected-turns layers are repaired from those of the state it was
    # turned from where they change little (``repair_layer``, with the Python solver; the
    # compiled one solves afresh): they must be the very floats a cold cache of the same board
    # solves, or games would change
    with _solver(solver):
        _after_each_turn_like_a_cold_cache(
        seed, turns,
            fill=lambda cache: [cache.table(groups)[0] for groups in PLAYERS],  # the layers a game fills
            read=lambda cache: [[cache.table(groups)[m] for m in _every_mask(groups)] for groups in PLAYERS])


@contextlib.contextmanager
def _solver(which: str):
    """The expected-turns layers solved by the Python solver (whose layers are repaired after a
    turn of a piece) or the compiled one (skipped when the extension was not built)."""
    from terragen.terrain import expected

    if which == "compiled" and expected.COMPILED is None:
        pytest.skip("the compiled table kernels were not built")
    keep = expected.COMPILED
    expected.COMPILED = keep if which == "compiled" else None
    try:
        yield
    finally:
        expected.COMPILED = keep


TOUR_GROUPS = (((3,), (20, 21, 22, 30)), ((36, 5, 17), (30,)), ((36,), (5,)))  # groups of several cells beside one-cell ones


@given(st_.integers(0, 10_000), TURNS)
@example(11, [(28, 4)])  # a turn that changes the distances to part of a group only (rare at random)
@example(64, [(30, 0)])
def test_tour_tables_after_turns_of_pieces_are_those_of_a_cold_cache(seed, turns):
    # a tour reaches a group of several cells by the part of it from which the rest is cheapest, so
    # its distance tables are keyed by parts of groups: a turn that changes one of them must drop
    # every tour table built on it
    def every_tour(cache):
        return [[cache.tours(groups, m) for m in _every_mask(groups)] for groups in TOUR_GROUPS]

    _after_each_turn_like_a_cold_cache(seed, turns, fill=every_tour, read=every_tour)


@given(st_.integers(0, 10_000), st_.lists(st_.integers(0, 36), min_size=1, max_size=3, unique=True))
def test_tour_tables_are_the_cheapest_order_of_the_groups_left(seed, cells):
    """A tour table against every order of the one-cell groups left, summed from distance tables."""
    from itertools import permutations

    cache = BoardCache(_random_board(seed))
    groups = tuple((c,) for c in cells)
    for mask in _every_mask(groups):
        left = [groups[b][0] for b in range(len(groups)) if not mask >> b & 1]
        table = cache.tours(groups, mask)
        for here in range(len(table)):
            best = 0.0 if not left else min(
                sum(cache.dist_to((g,))[p] for p, g in zip((here, *order), order)) for order in permutations(left))
            assert table[here] == best


def test_turns_of_pieces_repair_layers_to_the_floats_of_a_solve(monkeypatch):
    from terragen.terrain import expected
    from terragen.terrain.expected import solve_layer
    from terragen.terrain.sim import cache as cache_module

    monkeypatch.setattr(expected, "COMPILED", None)  # repairs stand in for the Python solver only

    checked = []
    repair = cache_module.repair_layer

    def checking(near, reach, landing, old, moved, limit):
        layer = repair(near, reach, landing, old, moved, limit)
        if layer is not None:
            checked.append(layer == solve_layer(len(old), near, landing))
        return layer

    monkeypatch.setattr(cache_module, "repair_layer", checking)
    rng = random.Random(5)
    for seed in range(4):
        board = _random_board(seed, radius=4)
        cache = BoardCache(board)
        for _ in range(30):
            for groups in PLAYERS:
                cache.table(groups)[0]
            cell = rng.randrange(len(board))
            old_out = board.pip_arcs[cell]
            board.set_rotation(cell, rng.choice([k for k in range(6) if k != board.rotation[cell]]))
            cache.rotated(cell, old_out)
    assert len(checked) > 50 and all(checked)


def test_a_turned_boards_tables_are_those_of_a_fresh_solve_of_that_board():
    """Each board state keeps its cells' sources packed for the compiled solver, and a turn of a
    piece that moves no cell's reach hands the packing on: every layer a cache gives after a run of
    turns must be what the Python solver gives for the board as it now stands."""
    from terragen.terrain.expected import near_sources, solve_layer_in_order_python

    rng = random.Random(11)
    compared = 0
    for seed in range(3):
        board = _random_board(seed, radius=4)
        cache = BoardCache(board)
        for _ in range(25):
            near = near_sources(board)
            for groups in PLAYERS:
                table = cache.table(groups)
                full = (1 << len(groups)) - 1
                for mask in range(full - 1, -1, -1):  # the layers above are the landing values
                    landing = {}
                    for b, grp in enumerate(groups):
                        if not mask >> b & 1:
                            for g in grp:
                                if board.passable(g):
                                    landing[g] = min(landing.get(g, float("inf")), table[mask | 1 << b][g])
                    assert table[mask] == solve_layer_in_order_python(len(board), near, landing)[0]
                    compared += 1
            cell = rng.randrange(len(board))
            old_out = board.pip_arcs[cell]
            board.set_rotation(cell, rng.choice([k for k in range(6) if k != board.rotation[cell]]))
            cache.rotated(cell, old_out)
    assert compared > 300


def test_wilson_interval_and_percentiles():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.25 < hi < 0.35
    lo, hi = wilson(50, 100)
    assert abs((lo + hi) / 2 - 0.5) < 1e-9 and 0.39 < lo < 0.41
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == 9
    assert percentile([4], 50) == 4


def _four():
    from terragen.terrain.files import load_layout

    return load_layout(EXAMPLES / "four-players.txt")


def test_same_numbers_whatever_the_workers():
    layout = _four()
    a = simulate_layout(layout, games=60, seed=9, policy="greedy", workers=1)
    b = simulate_layout(layout, games=60, seed=9, policy="greedy", workers=2)
    assert a.to_json() == b.to_json()
    c = simulate_layout(layout, games=60, seed=10, policy="greedy", workers=1)
    assert c.to_json() != a.to_json()


def test_verdict_reasons():
    # one seat's destination lies behind cliffs: not playable before any game is played
    cliffs = {h: (8, "D", 0) for h in hx.ring((0, 0), 1)}
    layout = make_layout(2, cliffs, [(0, [(0, 0)]), (3, [(2, -2)])], level=1)
    rep = simulate_layout(layout, games=10, seed=1)
    assert not rep.playable and "seat 0 cannot reach destination (0,0)" in rep.reasons[0]
    # a turn cap of 1 round: nearly every game is cut short
    rep = simulate_layout(_four(), games=20, seed=1, rules=Rules(turn_cap=1))
    assert not rep.playable and any("cap" in r for r in rep.reasons)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "terragen", "simulate", *args], capture_output=True, text=True)


def test_cli_json_exit_codes_and_errors(tmp_path):
    # a symmetric 2-player race on a flat board: fair and always finished -> exit 0
    layout = make_layout(2, {}, [(0, [(-1, 0)]), (3, [(1, 0)])], pattern="D", rotation=0)
    from terragen.terrain.files import save_layout

    path = tmp_path / "flat.json"
    save_layout(layout, path)
    r = _cli(str(path), "--games", "200", "--seed", "2", "--json", "--margin", "0.15", "--policy", "random")
    data = json.loads(r.stdout)
    assert r.stderr == ""  # no progress bar when stderr is not a terminal
    assert data["games"] == 200 and len(data["seats"]) == 2
    assert r.returncode == (0 if data["playable"] and data["balanced"] else 1)
    assert data["verdict"] == ", ".join(("PLAYABLE" if data["playable"] else "NOT PLAYABLE",
                                         "BALANCED" if data["balanced"] else "NOT BALANCED"))
    assert abs(data["seats"][0]["win_rate"] + data["seats"][1]["win_rate"] - 1) < 1e-9
    r = _cli(str(path), "--seed", "2", "--json")  # default games: noise a seventh of the margin for 2 seats
    data = json.loads(r.stdout)
    assert data["games"] == 19600 and data["margin"] == 0.025
    assert r.returncode == (0 if data["balanced"] else 1) and data["playable"]
    r = _cli(str(EXAMPLES / "four-players.txt"), "--games", "40", "--policy", "greedy,expert,random,greedy")
    assert r.returncode in (0, 1) and "verdict:" in r.stdout and "expert" in r.stdout
    for bad in (["--policy", "nosuch"], ["--policy", "greedy,greedy"], ["--variant", "nosuch"],
                ["--games", "0"], ["--policy", "os:nothing_here"], ["--teams", "0+1"], ["--margin", "0"]):
        r = _cli(str(EXAMPLES / "four-players.txt"), *bad)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (bad, r.stderr)
    r = _cli(str(tmp_path / "missing.txt"))
    assert r.returncode == 2
    # a destination off the board: one line naming the file
    off = json.loads(path.read_text())
    off["players"][1]["destinations"] = [{"q": 9, "r": 9}]
    (tmp_path / "off.json").write_text(json.dumps(off))
    r = _cli(str(tmp_path / "off.json"), "--games", "10")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "off.json" in r.stderr and "off the board" in r.stderr
    # pieces the rules have no moves for: refused as breaking the rules, not played and called PLAYABLE
    broken = json.loads(path.read_text())
    broken["cells"][0].update(level=99, pattern="Z", rotation=77)
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    r = _cli(str(tmp_path / "broken.json"), "--games", "10")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "breaks the rules" in r.stderr
    assert "level-out-of-range" in r.stderr and "2 more" in r.stderr
    # two players on one seat: not a game (validate's seat-duplicate), refused like a 1-player layout
    twice = json.loads(path.read_text())
    twice["players"][1]["seat"] = twice["players"][0]["seat"]
    (tmp_path / "twice.json").write_text(json.dumps(twice))
    r = _cli(str(tmp_path / "twice.json"), "--games", "10")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "two players" in r.stderr
    # two starts on one corner: a rule break like the others (exit 1), once exit 2 from deep in the engine
    shared = json.loads(path.read_text())
    shared["players"][1]["corner"] = shared["players"][0]["corner"]
    (tmp_path / "shared.json").write_text(json.dumps(shared))
    r = _cli(str(tmp_path / "shared.json"), "--games", "10")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "corner-shared" in r.stderr


def test_plug_in_policy(tmp_path, monkeypatch):
    (tmp_path / "my_policy.py").write_text(
        "from terragen.terrain.sim.policies import GreedyPolicy\n"
        "class Lazy(GreedyPolicy):\n"
        "    def choose_rotation(self, state, seat, roll, options):\n"
        "        return None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    rep = simulate_layout(_four(), games=20, seed=3, policy="my_policy:Lazy,greedy,greedy,greedy")
    assert rep.policies[0] == "my_policy:Lazy"
    assert rep.games == 20 and sum(s.wins for s in rep.seats) == rep.finished


def test_variants_run_to_the_end():
    layout = _four()
    for rules in (Rules(inversion=True), Rules(green=True), Rules(lost=True), Rules(teams=((0, 2), (1, 3))),
                  Rules(pass_through=False), Rules(rotate_start=False)):
        rep = simulate_layout(layout, games=12, seed=4, policy="greedy", rules=rules)
        assert rep.finished + round(rep.capped_share * rep.games) == rep.games
        if not rules.send_back:
            assert rep.send_backs_per_game == 0
        if not rules.uses_pips:
            assert rep.rotations_per_game == 0
    rep = simulate_layout(layout, games=4, seed=4, policy="expert", rules=Rules(inversion=True, turn_cap=60))
    assert rep.finished + round(rep.capped_share * rep.games) == rep.games


def test_games_sharing_start_tables_play_as_if_alone():
    # the run shares start-up tables between games; each game must play exactly as it
    # would with a cache of its own
    import random as _r

    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.cache import BoardCache
    from terragen.terrain.sim.dice import RandomDice
    from terragen.terrain.sim.engine import play_game
    from terragen.terrain.sim.policies import ExpertPolicy
    from terragen.terrain.sim.state import setup_from_layout

    from terragen.terrain.sim.policies import GreedyPolicy

    # games of a run also share the tables of every board state they turn the pieces into
    for pol, rules, games in ((ExpertPolicy(), Rules(), 6), (GreedyPolicy(), Rules(inversion=True), 30)):
        setup = setup_from_layout(load_layout(EXAMPLES / "four-players.txt"), rules)
        template = BoardCache(setup.board)
        pols = [pol] * 4
        for i in range(games):
            shared = play_game(setup, rules, pols, _r.Random(i), RandomDice(_r.Random(100 + i)), template=template)
            alone = play_game(setup, rules, pols, _r.Random(i), RandomDice(_r.Random(100 + i)))
            assert shared == alone


def test_one_cell_re_evaluation_agrees_with_the_table():
    # the expert scores rotations by re-solving one cell with its neighbours' values fixed;
    # on an unchanged piece that must give back the table's own value at every cell
    from terragen.terrain.sim.cache import MAX_BUDGET, stay_or_move_value

    board = _random_board(8)
    cache = BoardCache(board)
    values = cache.table(((17,),))[0]
    checked = 0
    for p in range(len(board)):
        if p == 17 or values[p] == float("inf"):
            continue
        best = [float("inf")] * (MAX_BUDGET + 1)
        for q, c in cache.reach(p).items():
            v = 0.0 if q == 17 else values[q]
            if q != p and v < best[c]:
                best[c] = v
        for b in range(1, MAX_BUDGET + 1):
            best[b] = min(best[b], best[b - 1])
        assert abs(stay_or_move_value(best) - values[p]) < 1e-9
        checked += 1
    assert checked > 10


def test_policy_objects_can_be_passed_directly():
    from terragen.terrain.sim.policies import ExpertPolicy, GreedyPolicy

    rep = simulate_layout(_four(), games=8, seed=2, policy=[ExpertPolicy(), GreedyPolicy(), "greedy", "random"])
    assert rep.policies == ["expert", "greedy", "greedy", "random"]
    named = simulate_layout(_four(), games=8, seed=2, policy="expert,greedy,greedy,random")
    assert named.to_json() == rep.to_json()


def test_progress_bar_draws_only_on_a_terminal(monkeypatch, capsys):
    from terragen.cli.progress import Progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    bar = Progress("terragen simulate", 10, "games")
    bar.update(5, 10)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    bar = Progress("terragen simulate", 10, "games")
    bar.update(5, 10)
    assert "5/10 games" in capsys.readouterr().err


def test_tables_kept_from_other_destinations_on_the_board_change_no_game():
    # the generator simulates one terrain with many destination sets in turn in one process,
    # and a policy's remembered answers are keyed by the board state; a run must play exactly
    # as it does from cold, whatever was played on that board before (other destinations,
    # another seat on a corner, the same destinations held by another seat)
    from terragen.terrain.files import load_layout
    from terragen.terrain.layout import Destination
    from terragen.terrain.sim.runner import forget_tables, run_games

    base = load_layout(EXAMPLES / "four-players.txt")
    cells = [d for p in base.players for d in p.destinations]

    def variant(shift: int):
        lay = load_layout(EXAMPLES / "four-players.txt")
        for k, p in enumerate(lay.players):
            d = cells[(k + shift) % len(cells)]
            p.destinations = [Destination(d.q, d.r)]
        return lay

    layouts = [variant(0), variant(1), variant(2), variant(1)]
    for policy in ("greedy", "solitary", "expert"):
        games = 6 if policy == "expert" else 60
        cold = []
        for lay in layouts:
            forget_tables()
            cold.append(run_games(lay, Rules(), [policy] * 4, 5, 0, games))
        forget_tables()
        warm = [run_games(lay, Rules(), [policy] * 4, 5, 0, games) for lay in layouts]
        assert warm == cold, policy


def test_players_who_draw_no_numbers_play_a_run_as_with_their_own_generators():
    # a run gives greedy and solitary players one shared, unread policy generator instead of
    # seeding one per game: every game must be the one game i's own generators give
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.dice import RandomDice
    from terragen.terrain.sim.engine import play_game
    from terragen.terrain.sim.policies import POLICIES
    from terragen.terrain.sim.runner import game_rngs, run_games
    from terragen.terrain.sim.state import setup_from_layout

    layout = load_layout(EXAMPLES / "four-players.txt")
    rules = Rules()
    setup = setup_from_layout(layout, rules)
    for kinds in (["greedy"] * 4, ["solitary", "greedy", "solitary", "greedy"]):
        ran = run_games(layout, rules, kinds, 7, 0, 24)
        for i, result in enumerate(ran):
            prng, drng = game_rngs(7, i)
            alone = play_game(setup, rules, [POLICIES[k]() for k in kinds], prng, RandomDice(drng), first_seat=i % 4)
            assert result == alone


@pytest.mark.parametrize("rules", [
    Rules(), Rules(inversion=True), Rules(green=True), Rules(lost=True), Rules(pass_through=False),
    Rules(interactions=False), Rules(teams=((0, 2), (1, 3))),
], ids=["main", "inversion", "green die", "LOST!", "no pass-through", "no interactions", "teams"])
def test_a_run_plays_each_game_as_a_new_game_state_would(rules):
    # a run plays its games on one state, made fresh again after each game (the board put back
    # after turns and inversions of pieces): every game must be the one a brand-new state gives
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.dice import RandomDice
    from terragen.terrain.sim.engine import play_game
    from terragen.terrain.sim.policies import POLICIES
    from terragen.terrain.sim.runner import game_rngs, run_games
    from terragen.terrain.sim.state import setup_from_layout

    layout = load_layout(EXAMPLES / "four-players.txt")
    setup = setup_from_layout(layout, rules)
    changed = 0
    for kinds, games in ((["greedy"] * 4, 40), (["expert", "greedy", "solitary", "expert"], 12)):
        ran = run_games(layout, rules, kinds, 11, 0, games)
        for i, result in enumerate(ran):
            prng, drng = game_rngs(11, i)
            alone = play_game(setup, rules, [POLICIES[k]() for k in kinds], prng, RandomDice(drng),
                              first_seat=i % 4 if rules.rotate_start else 0)
            assert result == alone, (kinds, i)
            changed += result.rotations + result.inversions > 0
    if rules.rotations_matter:  # games that turned pieces came before others: the board was put back
        assert changed >= 10


@pytest.mark.parametrize("args, says", [(["--variant="], "--variant is empty: give a name"),
                                        (["--teams="], "bad --teams ''"),
                                        (["--turn-cap", "1000000000000"], "--turn-cap")])
def test_simulate_refuses_empty_lists_and_a_turn_cap_past_its_range(args, says):
    """Empty values ran the standard rules without a word; a cap of 10^12 let a run go on for ever."""
    r = _cli(str(EXAMPLES / "four-players.txt"), "--games", "4", *args)
    assert r.returncode == 2 and says in r.stderr and r.stderr.count("\n") == 1


def test_a_seat_exactly_at_the_margin_is_within_it():
    """11 wins of 40 is 2.5 points off 25%, but 0.275 - 0.25 is a hair above 0.025 in floating point."""
    from terragen.terrain.sim.stats import off_margin

    assert not off_margin(11 / 40 - 0.25, 0.025) and off_margin(12 / 40 - 0.25, 0.025)


def test_a_hostile_message_is_bounded():
    from terragen.findings import MAX_MESSAGE, error

    assert len(error("x", "C" * 1_000_000).message) <= MAX_MESSAGE + 40


def test_a_seat_just_past_the_margin_does_not_read_as_on_it():
    """2.51 points off was shown as "+2.5 *" and "2.5 points above", beside a verdict that needs
    every seat within 2.5 points: the report read as contradicting itself."""
    from terragen.terrain.sim.variants import Rules
    from terragen.terrain.sim.engine import GameResult
    from terragen.terrain.sim.runner import build_report

    def games(wins_first: int, total: int) -> list[GameResult]:
        return [GameResult((0,) if i < wins_first else (1,), 10, 10, 0, 0, 0, 0) for i in range(total)]

    past = build_report(games(5251, 10_000), 10_000, 1, Rules(), ["greedy", "greedy"], 0.025, [])
    text = "\n".join(past.lines())
    assert "+2.51  *" in text and "-2.51  *" in text
    assert any("2.51 points above a fair 50.0%" in r for r in past.balance_reasons)
    within = build_report(games(5249, 10_000), 10_000, 1, Rules(), ["greedy", "greedy"], 0.025, [])
    assert " +2.5\n" in "\n".join(within.lines()) + "\n"
    assert within.balanced and not within.balance_reasons
