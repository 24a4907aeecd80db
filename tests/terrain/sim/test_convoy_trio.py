"""Teams of three that stall plan as one (``terragen/terrain/sim/convoy_trio.py``): the joint values are
the least walk for all three, the compiled search gives the reference's values, and games that stood to
the turn cap on a generated six-seat board finish."""

from __future__ import annotations

import heapq
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_
from sim_helpers import game_fields

from terragen.grids import hex as hx
from terragen.terrain.files import load_layout
from terragen.terrain.sim import convoy, convoy_open, convoy_trio
from terragen.terrain.sim.engine import apply_action
from terragen.terrain.sim.policies import _turns
from terragen.terrain.sim.runner import forget_tables, run_games
from terragen.terrain.sim.state import GameState, setup_from_layout
from terragen.terrain.sim.variants import Rules, rules_for_layout
from tests.terrain.helpers import random_layout, with_players
from tests.terrain.sim.test_convoy import _play_checked

#: a generated six-seat hard board (seed 134502) on which teams of three stood to the turn cap in most
#: games before they planned as one (bench/README.md, "Team play: a joint plan for teams of three")
STUCK_BOARD = Path(__file__).resolve().parents[3] / "bench" / "boards" / "gen-6p-hard-seed134502.json"


@pytest.fixture
def old_trio(monkeypatch):
    """Teams of three as they were: a trio never plans as one, so it never turns a piece for itself."""
    monkeypatch.setattr(convoy_trio, "TRIO_STALL_TURNS", 10**9)


# ---- the joint values --------------------------------------------------------------------------

def _small_trio(seed):
    """Radius 3, random levels and pieces; a team of three on corners 0-2 (one target each) and a lone
    seat on corner 3; the three placed on random distinct cells none of their targets."""
    rng = random.Random(seed)
    cells = hx.board_cells(3)
    layout = with_players(random_layout(seed, radius=3, levels=(1, 5)),
                          [(c, [rng.choice(cells)]) for c in (0, 1, 2, 3)])
    rules = Rules(teams=((0, 1, 2), (3,)))
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(seed))
    goals = {g[0] for s in (0, 1, 2) for g in state.setup.groups[s]}
    free = [i for i in range(len(cells)) if i not in goals]
    if len(free) < 3:
        return None
    for s, c in zip((0, 1, 2), rng.sample(free, 3)):
        state.pos[s] = c
    return state


def _brute_trio(state):
    """The least total points for all three to finish, by a plain Dijkstra over (cell, cell, cell) from
    where they stand: a step is one teammate's move along one arc, to a cell no teammate holds, leaving
    it at most max(3, the gap before) from each teammate; reaching its target, a teammate stops the
    search there (the others walk their own cheapest tours)."""
    h = state.board.hexes
    arcs = state.cache.arcs
    trio = (0, 1, 2)
    tour = {s: state.cache.tours(state.setup.groups[s], 0) for s in trio}
    goal = {s: state.setup.groups[s][0][0] for s in trio}
    start = tuple(state.pos[s] for s in trio)
    best = {start: 0}
    heap = [(0, start)]
    answer = float("inf")
    while heap:
        d, at = heapq.heappop(heap)
        if d > best.get(at, float("inf")) or d >= answer:
            continue
        for me in range(3):
            others = [k for k in range(3) if k != me]
            for j, c, _ in arcs[at[me]]:
                if any(j == at[k] or hx.distance(h[j], h[at[k]]) > max(3, hx.distance(h[at[me]], h[at[k]]))
                       for k in others):
                    continue
                if j == goal[trio[me]]:
                    answer = min(answer, d + c + sum(tour[trio[k]][at[k]] for k in others))
                    continue
                nxt = at[:me] + (j,) + at[me + 1:]
                if d + c < best.get(nxt, float("inf")):
                    best[nxt] = d + c
                    heapq.heappush(heap, (d + c, nxt))
    return answer


def _number(state, cells):
    n1 = len(state.board) + 1
    return (cells[0] * n1 + cells[1]) * n1 + cells[2]


@settings(max_examples=15, deadline=None)
@given(seed=st_.integers(0, 10**6))
def test_the_trio_values_are_the_least_walk_for_all_three(seed):
    state = _small_trio(seed)
    if state is None:
        return
    here = _number(state, state.pos[:3])
    got = convoy_trio.joint_values(state, (0, 1, 2), [here]).at([here])[0]
    want = _brute_trio(state)
    assert (got >= convoy.FAR and want == float("inf")) or got == want, (got, want)


# ---- the compiled search ------------------------------------------------------------------------

needs_trio_values = pytest.mark.skipif(convoy_trio._TRIO_VALUES is None,
                                       reason="the compiled kernels were not built (or built before trio_values)")


def _random_seeds(state, rng, count):
    cells = [i for i in range(len(state.board)) if state.board.passable(i)]
    return [_number(state, rng.sample(cells, 3)) for _ in range(count)]


@needs_trio_values
@settings(max_examples=20, deadline=None)
@given(seed=st_.integers(0, 10**6), opened=st_.booleans(), count=st_.integers(1, 3))
def test_the_compiled_search_gives_the_reference_values(seed, opened, count):
    """Random small boards and trios, the board's own move graph or every piece opened, valued from one
    to three random triples: the same triples valued, the same numbers."""
    state = _small_trio(seed)
    if state is None:
        return
    rng = random.Random(seed)
    seeds = np.array(_random_seeds(state, rng, count), dtype=np.intp)
    slots = convoy_open.open_slots(state)[0] if opened else None
    args = convoy_trio._inputs(state, (0, 1, 2), slots) + (seeds,)
    keys, values = (np.frombuffer(b, dtype=np.int32) for b in convoy_trio._TRIO_VALUES(*args, 3, convoy.FAR))
    want_keys, want_values = convoy_trio._trio_values_python(*args, 3)
    assert np.array_equal(keys, np.sort(want_keys))  # in order, each triple once
    assert np.array_equal(values, want_values[np.argsort(want_keys)])


@needs_trio_values
def test_the_compiled_search_gives_the_same_values_whatever_it_searched_before():
    """It keeps its lookup from one call to the next: a search after others, on other boards and other
    trios, values exactly as one made first in a fresh process would (the reference's values)."""
    runs = []
    for seed in range(40):
        state = _small_trio(seed)
        if state is not None:
            seeds = np.array(_random_seeds(state, random.Random(seed), 2), dtype=np.intp)
            runs.append(convoy_trio._inputs(state, (0, 1, 2), None) + (seeds,))
    assert len(runs) >= 10
    for args in runs + runs[::-1]:
        keys, values = (np.frombuffer(b, dtype=np.int32) for b in convoy_trio._TRIO_VALUES(*args, 3, convoy.FAR))
        want_keys, want_values = convoy_trio._trio_values_python(*args, 3)
        assert np.array_equal(keys, np.sort(want_keys))
        assert np.array_equal(values, want_values[np.argsort(want_keys)])


@needs_trio_values
def test_the_compiled_search_leaves_arrays_it_does_not_take_alone():
    state = _small_trio(11)
    args = convoy_trio._inputs(state, (0, 1, 2), None)
    way, cost, nbr, dist, fin, lone = args
    cube = (len(state.board) + 1) ** 3
    here = _number(state, state.pos[:3])
    good = np.array([here], dtype=np.intp)
    first = convoy_trio._TRIO_VALUES(*args, good, 3, convoy.FAR)
    assert len(first[0]) >= 4
    lopsided = dist.copy()
    lopsided[0, 1] += 1
    for bad_args in ((*args, np.array([_number(state, (1, 1, 2))], dtype=np.intp)),  # a cell twice
                     (*args, np.array([cube], dtype=np.intp)),  # no triple's number
                     (way, cost.astype(np.int64), nbr, dist, fin, lone, good),  # another type
                     (way[:, :10], cost, nbr, dist, fin, lone, good),  # another shape
                     (way, cost, nbr, lopsided, fin, lone, good)):  # distances it reads by rows
        assert convoy_trio._TRIO_VALUES(*bad_args, 3, convoy.FAR) is None
    # and a refused call leaves nothing behind for the next one
    assert convoy_trio._TRIO_VALUES(*args, good, 3, convoy.FAR) == first


# ---- games ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy, game", [("greedy", 3), ("solitary", 0)])
def test_teams_of_three_finish_where_they_stood_for_good(policy, game):
    """On a generated hard board as 0+1+2,3+4+5, seed 104901: a lead whose destination a teammate held,
    that teammate held back by the third, the pips letting no one close up."""
    layout = load_layout(STUCK_BOARD)
    rules = rules_for_layout(layout, ["teams"], teams="0+1+2,3+4+5")
    assert not run_games(layout, rules, [policy] * 6, 104901, game, game + 1)[0].capped


@pytest.mark.parametrize("policy, game", [("greedy", 3), ("solitary", 0)])
def test_teams_of_three_stood_for_good_before(old_trio, policy, game):
    layout = load_layout(STUCK_BOARD)
    rules = rules_for_layout(layout, ["teams"], teams="0+1+2,3+4+5")
    assert run_games(layout, rules, [policy] * 6, 104901, game, game + 1)[0].capped


def test_a_trio_the_pips_hold_fast_turns_a_piece_near_it_that_opens_its_way(monkeypatch):
    """The first turn a trio makes for itself in game 2 of that seed: before it the trio had no joint way on
    the board; the piece is within two hexes of a teammate, and with it turned the way the search finds
    with every nearby piece open needs fewer turns (so costs less)."""
    seen = []
    made = convoy_trio.trio_turn

    def spy(state, seat, turns):
        act = made(state, seat, turns)
        if act is not None and not seen:
            seen.append((state.clone(), seat, act))
        return act

    monkeypatch.setattr(convoy_trio, "trio_turn", spy)
    layout = load_layout(STUCK_BOARD)
    rules = rules_for_layout(layout, ["teams"], teams="0+1+2,3+4+5")
    run_games(layout, rules, ["greedy"] * 6, 104901, 2, 3)
    assert seen
    state, seat, (_, cell, _) = seen[0]
    trio = tuple(sorted(state.teammates(seat) + [seat]))
    assert convoy_trio._values_here(state, trio) >= convoy.FAR
    h = state.board.hexes
    assert min(hx.distance(h[cell], h[state.pos[s]]) for s in trio) <= convoy_open.OPEN_WITHIN

    def open_value(st):
        cells = tuple(st.pos[s] for s in trio)
        slots = convoy_open.open_slots(st, cells)[0]
        here = (cells[0] * (len(h) + 1) + cells[1]) * (len(h) + 1) + cells[2]
        return convoy_trio.joint_values(st, trio, [here], slots).at([here])[0]

    before = open_value(state)
    apply_action(state, seen[0][2])
    assert open_value(state) < before


@settings(max_examples=15, deadline=None)
@given(seed=st_.integers(0, 10**6), alternate=st_.booleans())
def test_trios_at_their_quickest_keep_every_move_legal(seed, alternate):
    """A trio plans after one stalled turn and looks for a turn of a piece at once: every move is one
    the engine offered and leaves each teammate within max(3, its gap before)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(convoy_trio, "TRIO_STALL_TURNS", 1)
        mp.setattr(convoy, "STALL_TURNS", 1)
        _play_checked(seed, False, "greedy", threes=((0, 2, 4), (1, 3, 5)) if alternate else ((0, 1, 2), (3, 4, 5)))


def test_trio_games_replay_from_their_seed_whatever_the_process_played_before():
    """The searches a run keeps give the same values whichever game made them: games 2-5 are the same
    played alone or after games 0-1."""
    layout = load_layout(STUCK_BOARD)
    rules = rules_for_layout(layout, ["teams"], teams="0+1+2,3+4+5")

    forget_tables()
    whole = game_fields(run_games(layout, rules, ["greedy"] * 6, 104901, 0, 6))
    forget_tables()
    tail = game_fields(run_games(layout, rules, ["greedy"] * 6, 104901, 2, 6))
    assert tail == whole[2:]
