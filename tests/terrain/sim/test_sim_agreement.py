"""The simulator against the exact analysis: same rules, same numbers."""

from __future__ import annotations

import math
import random

from sim_helpers import SoloExpert, make_layout

from terragen.terrain.board import Board
from terragen.terrain.expected import expected_turns
from terragen.terrain.sim.dice import RandomDice
from terragen.terrain.sim.engine import play_game
from terragen.terrain.sim.state import setup_from_layout
from terragen.terrain.sim.stats import mean_and_stderr
from terragen.terrain.sim.variants import Rules


def _solo_turns(layout, games, seed):
    rules = Rules(turn_cap=10_000)
    setup = setup_from_layout(layout, rules)
    pol = [SoloExpert()]
    out = []
    for i in range(games):
        res = play_game(setup, rules, pol, random.Random(seed * 7919 + i), RandomDice(random.Random(f"{seed}/{i}")))
        assert res.winners == (0,)
        assert res.rotations == 0
        out.append(res.turns)
    return out


def _varied_layout(seed: int, radius: int = 3, dests=((-1, 2), (-3, 1))):
    rng = random.Random(seed)
    from terragen.grids import hex as hx

    cells = {h: (rng.randint(1, 5), rng.choice("ABCD"), rng.randrange(6)) for h in hx.board_cells(radius)}
    return make_layout(radius, cells, [(0, list(dests))])


def test_mean_turns_converge_to_exact_expectation():
    # a varied radius-3 board, two destinations in any order: the simulated mean must sit
    # within 4 standard errors of the exact expected turns of the analysis
    for seed in range(40):
        layout = _varied_layout(seed)
        board = Board.from_layout(layout)
        start = board.index[layout.start(layout.players[0])]
        exact = expected_turns(board, start, [board.index[d.hex] for d in layout.players[0].destinations])
        if 6 < exact < 25:
            break
    else:  # pragma: no cover - the search above always finds a board
        raise AssertionError("no suitable board")
    turns = _solo_turns(layout, 1500, seed=5)
    mean, se = mean_and_stderr(turns)
    assert abs(mean - exact) <= 4 * se, (mean, exact, se)
    assert se < 0.05 * exact  # the bound is tight enough to mean something


def test_eighty_one_percent_fail_an_up_three_step():
    # radius 1: start (1,0) at level 1, the destination is the centre at level 4. Every way in
    # is an up-3 step (4 points good weather, 8 bad), so a turn succeeds only on white >= 4, red
    # even, not a double: 7 of 36 rolls. The rulebook quotes 81% for failing.
    layout = make_layout(1, {(0, 0): (4, "D", 0), (1, 0): (1, "A", 2)}, [(0, [(0, 0)])])
    turns = _solo_turns(layout, 3000, seed=11)
    n = len(turns)
    fail_first = sum(1 for t in turns if t > 1) / n
    p = 29 / 36
    assert abs(fail_first - p) <= 4 * math.sqrt(p * (1 - p) / n)
    assert round(fail_first, 2) in (0.79, 0.80, 0.81, 0.82, 0.83)
    # and the number of turns is geometric with mean 36/7
    mean, se = mean_and_stderr(turns)
    assert abs(mean - 36 / 7) <= 4 * se
