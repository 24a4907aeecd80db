"""The greedy player's first answers on a board state, made in C where ``_kernels.c`` was built.

Why: the generator meets new board states all the time (every terrain it tries, every turn of a
piece in its games), and a greedy game on a new state spends most of its time on the player's first
answers there: where to move with so many points, and which piece of its own route to turn on
doubles. ``GreedyPolicy.choose_move`` and ``GreedyPolicy._find_own_rotation`` stay the reference:
the C functions read the same tables and break ties the same way, so they give the same answers
(tests/terrain/sim/test_greedy_kernels.py compares the two on random board states), and the games
are the same, roll for roll (``bench/sim_fingerprint.py``). They cover what the plain game's loop
asks (no team play); anything else, or a value they do not take, goes to the Python policy.
"""

from __future__ import annotations

from terragen.terrain import expected
from terragen.terrain.rules import step_cost
from terragen.terrain.sim.cache import INF
from terragen.terrain.sim.engine import Action
from terragen.terrain.sim.policies import ROUTE_CELLS, _turns, gains_by_cell
from terragen.terrain.sim.state import GameState

#: the compiled functions, or None (no extension, or TERRAGEN_PURE_PYTHON); the compiled turns of the
#: plain game (``_fast_turns.c``) call MOVE themselves
MOVE = getattr(expected.COMPILED, "greedy_move", None)
_ROTATION = getattr(expected.COMPILED, "own_rotation", None)
COMPILED = MOVE is not None and _ROTATION is not None
#: own_rotation's answer when it leaves the choice to Python
LEFT_TO_PYTHON = object()
#: a step's good-weather points for a change of level of -3..3 (the rules' own function)
_STEPS = tuple(step_cost(d) for d in range(-3, 4))

__all__ = ["COMPILED", "LEFT_TO_PYTHON", "MOVE", "gains_by_cell", "greedy_move", "greedy_own_rotation"]


def greedy_move(state: GameState, seat: int, within: dict[int, int], gains: dict[int, int]) -> int | None:
    """The cell ``GreedyPolicy.choose_move`` picks among ``within`` (cell -> points) outside team
    play, or None when the compiled function is missing or leaves it to Python."""
    if MOVE is None:
        return None
    tours, mine, have = state.cache.tours, state.setup.groups[seat], state.collected[seat]
    return MOVE(within, gains, have, tours(mine, have), tours(mine, have, True), state.setup.rank[seat], tours, mine)


def greedy_own_rotation(state: GameState, seat: int, gains: dict[int, int]) -> Action | None | object:
    """The turn ``GreedyPolicy._own_rotation`` picks on doubles (None: no turn helps), or
    ``LEFT_TO_PYTHON``."""
    here = state.pos[seat]
    if _ROTATION is None or here < 0 or state.finished[seat]:
        return LEFT_TO_PYTHON
    cache, b = state.cache, state.board
    tours, mine, have = cache.tours, state.setup.groups[seat], state.collected[seat]
    t = tours(mine, have)
    hand = state.setup.hand[seat]
    got = _ROTATION(here, have, t, tours(mine, have, True) if t[here] == INF else None, gains, cache.arcs,
                    b.elev_arcs, state.setup.rank[seat], ROUTE_CELLS, b.mask,
                    lambda c: _turns(b.pattern[c], b.rotation[c], hand), b.nbr, b.level, b.present, b.inverted,
                    _STEPS)
    if got == ():
        return None
    if got is None or not b.passable(got[0]) or got[1] == b.rotation[got[0]]:
        return LEFT_TO_PYTHON
    return ("rotate", *got)
