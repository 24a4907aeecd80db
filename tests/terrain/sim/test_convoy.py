"""Team play's convoy: a stalled pair plans together, a blocked seat steps aside, and every move stays
legal and replays from its seed (``terragen/terrain/sim/convoy.py``)."""

from __future__ import annotations

import heapq
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_
from sim_helpers import game_fields, make_layout

from terragen.grids import hex as hx
from terragen.terrain.files import load_layout
from terragen.terrain.sim import convoy, convoy_open, convoy_trio
from terragen.terrain.sim.dice import RandomDice, ScriptedDice
from terragen.terrain.sim.engine import RotationOptions, Roll, _end_allowed, apply_action, move_options, take_turn
from terragen.terrain.sim.policies import ExpertPolicy, GreedyPolicy, SolitaryPolicy
from terragen.terrain.sim.runner import cap_reason, forget_tables, run_games, simulate_layout
from terragen.terrain.sim.state import GameState, setup_from_layout
from terragen.terrain.sim.variants import Rules, rules_for_layout
from tests.terrain.helpers import EXAMPLES, random_layout, with_players

WALL = 8  # four levels or more above a neighbour: no step either way


def _corridor(players):
    """Radius 2: a road along row 0, levels 1, 4, 1, 4, 1 from west to east (a step costs 3 or 4
    points, so no roll passes over a token on it), every piece turned to exits E, NE, W; a pocket
    (0,-1), level 4, entered from (-1,0) and left back the same way; every other cell a wall."""
    cells = {h: (WALL, "D", 0) for h in hx.board_cells(2)}
    for q, level in zip(range(-2, 3), (1, 4, 1, 4, 1)):
        cells[(q, 0)] = (level, "B", 0)
    cells[(0, -1)] = (4, "D", 0)  # exits E, NW (walls) and SW, back to (-1,0)
    return make_layout(2, cells, players)


def _place(state, where):
    """Tokens where ``where`` says ({seat: hex}); a seat given None has finished (off the board)."""
    idx = state.board.index
    state.occupant.clear()
    for seat, h in where.items():
        if h is None:
            state.finished[seat], state.pos[seat] = True, -1
            state.collected[seat] = state.full_mask(seat)
        else:
            state.pos[seat] = idx[h]
            state.occupant[idx[h]] = seat


def _play(state, seats, rounds, policy=None):
    policy = policy or GreedyPolicy()
    dice = ScriptedDice([(4, 2)] * (rounds * len(seats)))  # four points every turn, good weather
    for _ in range(rounds):
        for seat in seats:
            if not state.finished[seat]:
                take_turn(state, seat, policy, dice)


@pytest.fixture
def old_convoy(monkeypatch):
    """The players as they were: no pair or trio ever plans, no seat ever steps aside."""
    monkeypatch.setattr(convoy, "STALL_TURNS", 10**9)
    monkeypatch.setattr(convoy, "YIELD_TURNS", 10**9)
    monkeypatch.setattr(convoy_trio, "TRIO_STALL_TURNS", 10**9)


def _partners_in_the_corridor():
    # lead (seat 0) must go east past its partner, who must go west past it; seat 2 stands aside
    layout = _corridor([(3, [(2, 0)]), (0, [(-2, 0)]), (1, [(1, -1)])])
    rules = Rules(teams=((0, 1), (2,)))
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(1))
    _place(state, {0: (-1, 0), 1: (0, 0), 2: (2, -2)})
    return state


@pytest.mark.parametrize("policy", [GreedyPolicy, ExpertPolicy, SolitaryPolicy])
def test_partners_who_block_each_others_road_plan_a_way_past(policy):
    """Each partner stands on the only cell the other can move on to: the convoy stood still for good
    (the follower keeps near its lead, the lead has nowhere to go). Planning together, the lead steps
    into the pocket, the follower walks past and finishes, and the lead goes on alone."""
    state = _partners_in_the_corridor()
    _play(state, [0, 1], 40, policy())
    assert state.finished[0] and state.finished[1]


def test_the_old_convoy_stood_still_in_the_corridor(old_convoy):
    state = _partners_in_the_corridor()
    before = list(state.pos)
    _play(state, [0, 1], 40)
    assert state.pos == before and not any(state.finished[:2])


def _rivals_in_the_corridor():
    # seat 0 (its partner finished) goes east, seat 2 (a team of its own) west: head on
    layout = _corridor([(3, [(2, 0)]), (0, [(1, -1)]), (1, [(-2, 0)])])
    rules = Rules(teams=((0, 1), (2,)))
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(1))
    _place(state, {0: (-1, 0), 1: None, 2: (0, 0)})
    return state


def test_rivals_head_on_on_a_one_lane_road_let_each_other_pass():
    """No token is sent home in team play: two that each need the other's cell waited to the turn
    cap. The one further from its goal (seat 0, 10 points against 7) steps into the pocket and waits
    there; the other goes by."""
    state = _rivals_in_the_corridor()
    idx = state.board.index
    seen = []
    dice = ScriptedDice([(4, 2)] * 80)
    for _ in range(40):
        for seat in (0, 2):
            if not state.finished[seat]:
                take_turn(state, seat, GreedyPolicy(), dice)
                seen.append(state.pos[0])
    assert state.finished[0] and state.finished[2]
    assert idx[(0, -1)] in seen  # seat 0 stepped aside, not seat 2 (whose only other way is back)


def test_rivals_head_on_waited_for_good_before(old_convoy):
    state = _rivals_in_the_corridor()
    _play(state, [0, 2], 40)
    assert not state.finished[0] and not state.finished[2]


def test_a_small_board_where_the_convoy_stalled_now_finishes():
    """A random radius-3 board (found by a search of 3,000) where greedy partners on corners 0 and 1
    left 15 of 40 games unfinished at a 60-round cap; planning together, none."""
    layout = with_players(random_layout(1841, radius=3, levels=(1, 5)),
                          [(0, [(-1, -1)]), (1, [(3, -1)]), (3, [(-3, 0)])])
    rules = Rules(teams=((0, 1), (2,)), turn_cap=60)
    new = run_games(layout, rules, ["greedy"] * 3, 1, 0, 40)
    assert sum(g.capped for g in new) == 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(convoy, "STALL_TURNS", 10**9)
        mp.setattr(convoy, "YIELD_TURNS", 10**9)
        forget_tables()
        old = run_games(layout, rules, ["greedy"] * 3, 1, 0, 40)
    forget_tables()
    assert sum(g.capped for g in old) >= 10


def _head_on_road():
    """Radius 2: a one-lane road E (1,0) level 4, M (0,0) level 1, W (-1,0) level 4 (3 and 4 points a
    step, so no roll passes over a token on it), and a ring north of it, (1,-1) and (0,-1) at level 7,
    that no piece's pips lead into (and dearer than the road, 8 points: no player's own turn of a piece
    opens it to shorten its way); every other cell is a wall. Seat 0 (its partner finished) stands on
    E and must get to W; seat 2 (a team of its own) stands on W and must get to E."""
    cells = {h: (WALL, "D", 0) for h in hx.board_cells(2)}
    cells[(1, 0)] = (4, "A", 3)  # exits W (to M) and two walls
    cells[(0, 0)] = (1, "B", 0)  # exits E and W (NE: five levels up)
    cells[(-1, 0)] = (4, "D", 0)  # exits E (to M) and two walls
    cells[(1, -1)] = (7, "B", 2)  # exits W (to (0,-1)) and SE (to E), a wall
    cells[(0, -1)] = (7, "D", 0)  # exits E (to (1,-1)) and SW (to W), a wall
    layout = make_layout(2, cells, [(0, [(-1, 0)]), (1, [(2, -2)]), (3, [(1, 0)])])
    rules = Rules(teams=((0, 1), (2,)))
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(1))
    _place(state, {0: (1, 0), 1: None, 2: (-1, 0)})
    return state


def _play_random(state, seats, rounds, seed):
    dice = RandomDice(random.Random(seed))
    for _ in range(rounds):
        for seat in seats:
            if not state.finished[seat]:
                take_turn(state, seat, GreedyPolicy(), dice)


@pytest.mark.parametrize("seed", range(8))
def test_rivals_head_on_with_nowhere_to_step_aside_turn_a_piece_to_pass(seed):
    """Each stands on the other's destination with the middle of the road between them and no cell
    off it from which it could still finish: they went back and forth to the turn cap. Now a seat that
    has waited three turns turns a piece on doubles to open the way round the ring, and both finish."""
    state = _head_on_road()
    _play_random(state, [0, 2], 150, seed)
    assert state.finished[0] and state.finished[2]
    assert state.rotations >= 1


def test_rivals_head_on_with_nowhere_to_step_aside_waited_for_good_before(monkeypatch):
    monkeypatch.setattr(convoy, "_unblocking_turn", lambda state, seat, turns: None)
    for seed in range(4):
        state = _head_on_road()
        _play_random(state, [0, 2], 150, seed)
        assert not state.finished[0] and not state.finished[2]


# ---- the joint values --------------------------------------------------------------------------

def _brute_joint(state, lead, follower):
    """The least total points for both partners to finish, by a plain Dijkstra over (lead cell,
    follower cell) from where they stand: a step is one partner's move along one arc, to a cell that
    is not the partner's and leaves them at most max(3, their gap) apart; reaching its target, a
    partner leaves and the other walks its own cheapest tour (one target each)."""
    h = state.board.hexes
    arcs = state.cache.arcs
    tour = {s: state.cache.tours(state.setup.groups[s], 0) for s in (lead, follower)}
    goal = {s: state.setup.groups[s][0][0] for s in (lead, follower)}
    start = (state.pos[lead], state.pos[follower])
    best = {start: 0}
    heap = [(0, start)]
    answer = float("inf")
    while heap:
        d, (a, b) = heapq.heappop(heap)
        if d > best.get((a, b), float("inf")) or d >= answer:
            continue
        gap = hx.distance(h[a], h[b])
        for who in (0, 1):
            here, there = (a, b) if who == 0 else (b, a)
            for j, c, _ in arcs[here]:
                if j == there or hx.distance(h[j], h[there]) > max(3, gap):
                    continue
                if j == goal[(lead, follower)[who]]:
                    answer = min(answer, d + c + tour[(follower, lead)[who]][there])
                    continue
                nxt = (j, b) if who == 0 else (a, j)
                if d + c < best.get(nxt, float("inf")):
                    best[nxt] = d + c
                    heapq.heappush(heap, (d + c, nxt))
    return answer


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 10**6))
def test_the_joint_values_are_the_least_walk_for_both(seed):
    rng = random.Random(seed)
    cells = hx.board_cells(3)
    layout = with_players(random_layout(seed, radius=3, levels=(1, 5)),
                          [(0, [rng.choice(cells)]), (1, [rng.choice(cells)]), (3, [rng.choice(cells)])])
    rules = Rules(teams=((0, 1), (2,)))
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(seed))
    a, b = rng.sample(range(len(cells)), 2)
    if {a, b} & {g[0] for s in (0, 1) for g in state.setup.groups[s]}:
        return  # a partner standing on its own target has finished
    state.pos[0], state.pos[1] = a, b
    limit = max(3, hx.distance(cells[a], cells[b]))
    values = convoy.joint_values(state, 0, 1, 0, 0, limit)
    pidx = convoy._region(tuple(state.board.hexes), limit, 3)[2]
    got = int(values[pidx[a, b]])
    want = _brute_joint(state, 0, 1)
    assert (got >= convoy.FAR and want == float("inf")) or got == want, (got, want)


# ---- legality and replay ---------------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 10**6), facing=st_.booleans(), policy=st_.sampled_from(["greedy", "expert", "solitary"]))
def test_planning_and_stepping_aside_keep_every_move_legal(seed, facing, policy):
    """With planning and stepping aside at their quickest (a pair plans after one stalled turn, a
    blocked seat steps aside after one), every move is one the engine offered (it checks) and leaves
    partners within max(3, their gap before)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(convoy, "STALL_TURNS", 1)
        mp.setattr(convoy, "YIELD_TURNS", 1)
        _play_checked(seed, facing, policy)


@settings(max_examples=20, deadline=None)
@given(seed=st_.integers(0, 10**6), alternate=st_.booleans(), policy=st_.sampled_from(["greedy", "expert", "solitary"]))
def test_teams_of_three_keep_every_move_legal_as_they_plan(seed, alternate, policy):
    """Teams of three (neighbours, or every other corner) with their plans at their quickest: every
    move is one the engine offered and leaves each teammate within max(3, its gap before)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(convoy, "STALL_TURNS", 1)
        mp.setattr(convoy, "YIELD_TURNS", 1)
        _play_checked(seed, False, policy, threes=((0, 2, 4), (1, 3, 5)) if alternate else ((0, 1, 2), (3, 4, 5)))


def _play_checked(seed, facing, policy, threes=None):
    rng = random.Random(seed)
    cells = hx.board_cells(4)
    corners = range(6) if threes else (0, 1, 3, 4)
    layout = with_players(random_layout(seed, radius=4, levels=(1, 6)),
                          [(c, [rng.choice(cells), rng.choice(cells)]) for c in corners])
    rules = Rules(teams=threes or (((0, 2), (1, 3)) if facing else ((0, 1), (2, 3))))
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(seed))
    dice = RandomDice(random.Random(seed + 1))
    players = {"greedy": GreedyPolicy, "expert": ExpertPolicy, "solitary": SolitaryPolicy}[policy]()
    h = state.board.hexes
    seats = len(layout.players)
    for _ in range(80):
        for seat in range(seats):
            if state.finished[seat]:
                continue
            before = list(state.pos)
            take_turn(state, seat, players, dice)
            live = [s for s in range(seats) if state.pos[s] >= 0]
            assert len({state.pos[s] for s in live}) == len(live)
            if state.pos[seat] >= 0:
                for m in state.teammates(seat):
                    gap = hx.distance(h[before[seat]], h[before[m]])
                    assert hx.distance(h[state.pos[seat]], h[state.pos[m]]) <= max(3, gap)


def test_team_games_replay_from_their_seed_whatever_the_process_played_before():
    """A pair's note that it plans lives in its game's state, and the joint values are a board state's
    own: games 30-59 are the same played alone, after games 0-29, or again."""
    layout = load_layout(EXAMPLES / "four-players.txt")
    rules = Rules(teams=((0, 2), (1, 3)))

    forget_tables()
    whole = game_fields(run_games(layout, rules, ["greedy"] * 4, 104901, 0, 60))
    forget_tables()
    tail = game_fields(run_games(layout, rules, ["greedy"] * 4, 104901, 30, 60))
    again = game_fields(run_games(layout, rules, ["greedy"] * 4, 104901, 0, 60))
    assert tail == whole[30:] and again == whole


# ---- the quicker ways to the same answers ----------------------------------------------------------

needs_pair_sweeps = pytest.mark.skipif(convoy._PAIR_SWEEPS is None,
                                       reason="the compiled kernels were not built (or built before pair_sweeps)")


@needs_pair_sweeps
@settings(max_examples=40, deadline=None)
@given(seed=st_.integers(0, 10**6))
def test_the_compiled_sweep_reaches_the_python_sweeps_values(seed):
    """Random graphs of pairs with some ways out (start values) and steps of cost 1-4, some of them
    barred (cost FAR): the compiled sweep, which lowers values in place, ends where the reference's
    one step a sweep ends, value for value."""
    rng = np.random.default_rng(seed)
    size, rows = int(rng.integers(1, 300)), int(rng.integers(1, 7))
    nxt = rng.integers(0, size, (rows, size)).astype(np.intp)
    cost = np.where(rng.random((rows, size)) < 0.2, convoy.FAR, rng.integers(1, 5, (rows, size))).astype(np.int32)
    start = np.where(rng.random(size) < 0.05, rng.integers(1, 60, size), convoy.FAR).astype(np.int32)
    want = convoy._sweep_python(start.copy(), nxt, cost)
    got = start.copy()
    assert convoy._PAIR_SWEEPS(got, nxt, cost) is True
    assert np.array_equal(got, want)


@needs_pair_sweeps
def test_the_compiled_sweep_leaves_arrays_it_does_not_take_alone():
    values = np.array([3, convoy.FAR], dtype=np.int32)
    nxt = np.array([[0, 0]], dtype=np.intp)
    cost = np.array([[1, 1]], dtype=np.int32)
    for args in ((values.astype(np.int64), nxt, cost), (values, nxt.astype(np.int32), cost),
                 (values, np.array([[0, 2]], dtype=np.intp), cost), (values, nxt, np.array([[1, -1]], dtype=np.int32))):
        before = [a.copy() for a in args]
        assert convoy._PAIR_SWEEPS(*args) is None
        assert all(np.array_equal(a, b) for a, b in zip(args, before))


@settings(max_examples=15, deadline=None)
@given(seed=st_.integers(0, 10**6))
def test_the_joint_values_are_the_same_with_or_without_the_compiled_sweep(seed):
    rng = random.Random(seed)
    cells = hx.board_cells(4)
    layout = with_players(random_layout(seed, radius=4, levels=(1, 6)),
                          [(c, [rng.choice(cells), rng.choice(cells)]) for c in (0, 1, 3, 4)])
    rules = Rules(teams=((0, 1), (2, 3)))
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(seed))
    limit = rng.choice([3, 4, 5])
    fast = convoy.joint_values(state, 0, 1, 0, 0, limit)
    state.cache.memo.clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(convoy, "_PAIR_SWEEPS", None)
        slow = convoy.joint_values(state, 0, 1, 0, 0, limit)
    assert np.array_equal(fast, slow)


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 10**6), facing=st_.booleans())
def test_team_move_options_are_the_ends_the_rules_allow_cell_by_cell(seed, facing):
    """The team rules' options (distance rows looked up once a move) are the cells of the budget's
    reach :func:`_end_allowed` allows one by one, in the same order, its own cell always kept."""
    rng = random.Random(seed)
    cells = hx.board_cells(4)
    layout = with_players(random_layout(seed, radius=4, levels=(1, 6)),
                          [(c, [rng.choice(cells)]) for c in (0, 1, 3, 4)])
    rules = Rules(teams=((0, 2), (1, 3)) if facing else ((0, 1), (2, 3)))
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(seed))
    spots = rng.sample(range(len(cells)), 4)
    where = {s: (None if rng.random() < 0.2 else cells[spots[s]]) for s in range(4)}
    _place(state, where)
    for seat in range(4):
        if state.finished[seat]:
            continue
        for w in range(1, 7):
            roll = Roll(w, 2)
            within = state.cache.within(state.pos[seat], roll.budget)
            want = {q: c for q, c in within.items() if q == state.pos[seat] or _allowed_by_hand(state, seat, q)}
            got = move_options(state, seat, roll)
            assert list(got.items()) == list(want.items())
            assert all(_end_allowed(state, seat, q) == _allowed_by_hand(state, seat, q) for q in within)


def _allowed_by_hand(state, seat, cell):
    """The team rules' legal end, from the coordinates: no other token there, every teammate still
    on the board at most max(3, its gap now) away."""
    if state.occupant.get(cell, seat) != seat:
        return False
    h = state.board.hexes
    for m in state.teammates(seat):
        gap = hx.distance(h[state.pos[seat]], h[state.pos[m]])
        if hx.distance(h[cell], h[state.pos[m]]) > max(3, gap):
            return False
    return True


def test_cap_reason_names_the_players_of_teams_of_three_only():
    pairs = cap_reason(0.05, Rules(teams=((0, 1), (2, 3), (4, 5))))
    threes = cap_reason(0.05, Rules(teams=((0, 1, 2), (3, 4, 5))))
    assert pairs.startswith("5.0% of games hit the 500-round cap") and "teams of three" not in pairs
    assert threes.startswith(pairs) and "teams of three or more" in threes


def test_teams_of_three_that_hit_the_cap_are_not_playable_and_the_verdict_says_why():
    # a round cap few games of a generated six-seat board finish in (30 rounds): the verdict is NOT
    # PLAYABLE, and for teams of three it says it judges the simulated players as much as the board
    board = Path(__file__).resolve().parents[3] / "bench" / "boards" / "gen-6p-medium-seed902.json"
    layout = load_layout(str(board))
    rules = rules_for_layout(layout, ["teams"], turn_cap=30, teams="0+1+2,3+4+5")
    report = simulate_layout(layout, games=120, seed=7, policy="solitary", rules=rules)
    assert not report.playable
    assert any("hit the 30-round cap" in r and "teams of three or more" in r for r in report.reasons)


def test_teams_of_three_finish_where_their_convoy_waited_for_good():
    """On the six-seat example as 0+1+2,3+4+5, game 31 of seed 104901 stood to the turn cap: team
    0+1+2's lead two hexes from its destination, a teammate three hexes behind it that would then be
    too far, and the other team's lead on the hex between. A stalled lead's followers now close in on
    its destination, and the game ends."""
    layout = load_layout(EXAMPLES / "six-players.txt")
    rules = rules_for_layout(layout, ["teams"], teams="0+1+2,3+4+5")
    assert not run_games(layout, rules, ["greedy"] * 6, 104901, 31, 32)[0].capped


def test_teams_of_three_waited_for_good_before(old_convoy):
    layout = load_layout(EXAMPLES / "six-players.txt")
    rules = rules_for_layout(layout, ["teams"], teams="0+1+2,3+4+5")
    assert run_games(layout, rules, ["greedy"] * 6, 104901, 31, 32)[0].capped


def _shut_in_pocket(teams):
    """Seat 0 alone in the corridor's pocket with the road's piece at the pocket's mouth turned so that
    no pip path leads out: the pips shut it in (its tour has no way), which a player who never turns a
    piece cannot mend."""
    layout = _corridor([(3, [(2, 0)]), (0, [(1, -1)]), (1, [(-2, 0)])])
    rules = Rules(teams=teams)
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(1))
    _place(state, {0: (0, -1), 1: None, 2: (2, -2)} if teams else {0: (0, -1), 1: (1, -1), 2: (2, -2)})
    pocket, mouth = state.board.index[(0, -1)], state.board.index[(-1, 0)]
    for k in range(6):
        apply_action(state, ("rotate", mouth, k))
        if state.cache.tours(state.setup.groups[0], state.collected[0])[pocket] == convoy.INF:
            return state, pocket
    raise AssertionError("no turn of the road shuts the pocket")


def test_a_solitary_token_the_pips_shut_in_turns_a_piece_in_team_play():
    state, pocket = _shut_in_pocket(((0, 1), (2,)))
    act = SolitaryPolicy().choose_rotation(state, 0, Roll(3, 3), RotationOptions(state, False))
    assert act is not None and act[0] == "rotate"
    apply_action(state, act)
    assert state.cache.tours(state.setup.groups[0], state.collected[0])[pocket] < convoy.INF


def test_a_solitary_token_still_forfeits_its_doubles_outside_team_play():
    state, _ = _shut_in_pocket(())
    assert SolitaryPolicy().choose_rotation(state, 0, Roll(3, 3), RotationOptions(state, False)) is None


# ---- a pair the pips hold fast ---------------------------------------------------------------------

#: a generated six-seat medium board (seed 135003) on which every default pair stood beside its corners
#: to the turn cap: both partners with a way home alone, none together on the board as it stands
PIPS_HOLD_PAIRS = Path(__file__).resolve().parents[3] / "bench" / "boards" / "gen-6p-medium-seed135003.json"


@pytest.fixture
def no_pair_turn(monkeypatch):
    """Pairs as they were: a planning pair turns a piece only for a partner the pips shut in."""
    monkeypatch.setattr(convoy_open, "pair_turn", lambda *args: None)


@pytest.mark.parametrize("policy", ["greedy", "solitary"])
def test_pairs_the_pips_hold_fast_turn_pieces_and_finish(policy):
    layout = load_layout(PIPS_HOLD_PAIRS)
    rules = rules_for_layout(layout, ["teams"])
    assert not any(g.capped for g in run_games(layout, rules, [policy] * 6, 104901, 0, 3))


@pytest.mark.parametrize("policy", ["greedy", "solitary"])
def test_pairs_the_pips_hold_fast_stood_for_good_before(no_pair_turn, policy):
    layout = load_layout(PIPS_HOLD_PAIRS)
    rules = rules_for_layout(layout, ["teams"])
    assert all(g.capped for g in run_games(layout, rules, [policy] * 6, 104901, 0, 3))


def test_a_pair_turn_opens_the_first_lacking_arc_of_its_best_way_with_turns():
    """At the first turn a held pair makes (game 0 above): the pair had no joint way; the piece turned is
    within two hexes of a partner, and with it turned the open search's way costs less."""
    layout = load_layout(PIPS_HOLD_PAIRS)
    rules = rules_for_layout(layout, ["teams"])
    seen = []
    made = convoy_open.pair_turn

    def spy(state, lead, follower, turns, hand):
        act = made(state, lead, follower, turns, hand)
        if act is not None and not seen:
            seen.append((state.clone(), lead, follower, act))
        return act

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(convoy_open, "pair_turn", spy)
        run_games(layout, rules, ["greedy"] * 6, 104901, 0, 1)
    assert seen
    state, lead, follower, act = seen[0]
    h = state.board.hexes
    near = state.rules.team_distance

    def values(st, slots=None):
        a, b = st.pos[lead], st.pos[follower]
        limit = max(near, hx.distance(h[a], h[b]))
        pidx = convoy._region(tuple(h), limit, near)[2]
        return int(convoy.joint_values(st, lead, follower, st.collected[lead], st.collected[follower], limit,
                                       slots)[pidx[a, b]])

    def open_value(st):
        return values(st, convoy_open.open_slots(st, (st.pos[lead], st.pos[follower]))[0])

    assert values(state) >= convoy.FAR
    assert min(hx.distance(h[act[1]], h[state.pos[s]]) for s in (lead, follower)) <= convoy_open.OPEN_WITHIN
    before = open_value(state)
    apply_action(state, act)
    assert open_value(state) < before
