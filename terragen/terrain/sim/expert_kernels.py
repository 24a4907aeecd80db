"""The expert player's first answer on where to move, made in C where ``_kernels.c`` was built.

Why: an expert's games meet about three times the new board states a greedy player's do (every
turn of a piece it weighs and makes on doubles), and on each it chooses its moves afresh by the
exact expected-turns tables; in Python that choice was a fifth of a cold expert game's time.
``ExpertPolicy.choose_move`` stays the reference: the C function reads the same tables in the
same order and breaks ties the same way (tests/terrain/sim/test_expert_kernels.py compares the
two on random board states), so the games are the same, roll for roll (``bench/sim_fingerprint.py``).
It covers what the plain game's loop asks (no team play, pips in use); anything else, or a value it
does not take, goes to the Python policy. The expert's turn on doubles and the routes it weighs are
compiled too, called from ``ExpertPolicy.choose_rotation`` and ``policies._route`` themselves (they
need no options the plain game holds).
"""

from __future__ import annotations

from terragen.terrain import expected
from terragen.terrain.sim.state import GameState

#: the compiled function, or None (no extension, or TERRAGEN_PURE_PYTHON)
MOVE = getattr(expected.COMPILED, "expert_move", None)
COMPILED = MOVE is not None

__all__ = ["COMPILED", "expert_move"]


def expert_move(state: GameState, seat: int, within: dict[int, int], gains: dict[int, int]) -> int | None:
    """The cell ``ExpertPolicy.choose_move`` picks among ``within`` (cell -> points) outside team
    play with pips in use, or None when the compiled function is missing or leaves it to Python."""
    if MOVE is None or not state.rules.uses_pips:
        return None
    groups = state.setup.groups[seat]
    return MOVE(within, gains, state.collected[seat], state.cache.table(groups), state.setup.rank[seat],
                state.cache.tours, groups)
