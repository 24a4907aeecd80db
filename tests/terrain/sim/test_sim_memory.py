"""Games leave no reference cycles behind, and the cycle collector is paused only while they play.

``run_games`` switches Python's cycle collector off for its game loop; that is safe only because
a run's board states are unlinked when its board is dropped (``BoardCache.release``) and the
players make no cycles of their own. These tests hold both halves to it.
"""

from __future__ import annotations

import gc

import pytest

from terragen.templates import template_path
from terragen.terrain.files import load_layout
from terragen.terrain.sim import Rules
from terragen.terrain.sim.lone_chain import lone_chain
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.runner import forget_tables, run_games

FOUR = template_path("terrain", "examples") / "four-players.txt"


def _cyclic_garbage(play) -> list:
    """What the cycle collector finds after ``play()`` (gc.DEBUG_SAVEALL keeps it for a look)."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        play()
        gc.collect()
        found = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


@pytest.mark.parametrize("policy,games", [("greedy", 60), ("solitary", 60), ("expert", 8), ("random", 40)])
def test_games_leave_no_reference_cycles(policy, games):
    layout = load_layout(FOUR)

    def play():
        # two boards in a row: the first board's kept states are let go when the second comes
        run_games(layout, Rules(), [policy] * 4, 3, 0, games)
        other = load_layout(FOUR)
        other.players = other.players[:2]
        run_games(other, Rules(), [policy] * 2, 3, 0, games)
        forget_tables()

    left = _cyclic_garbage(play)
    assert not left, f"{len(left)} objects in reference cycles, e.g. {sorted({type(o).__name__ for o in left})}"


def test_a_lone_chain_leaves_no_reference_cycles():
    layout = load_layout(FOUR)
    layout.players = layout.players[:1]
    lone_chain(layout, Rules(), load_policy("greedy"))  # lazy imports made (a class is a cycle)
    chains = []
    left = _cyclic_garbage(lambda: chains.append(lone_chain(layout, Rules(), load_policy("greedy"))))
    assert chains[0] is not None and chains[0].cdf[-1] > 0.99
    assert not left


def test_the_collector_is_as_it_was_after_a_run():
    layout = load_layout(FOUR)
    assert gc.isenabled()
    run_games(layout, Rules(), ["greedy"] * 4, 1, 0, 4)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        run_games(layout, Rules(), ["greedy"] * 4, 1, 0, 4)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_objects_a_process_froze_stay_frozen():
    """A server may freeze its start-up objects before forking; a run must not thaw them. A thaw
    empties the frozen generation; frozen objects may still die by reference counting during the
    run (for example the tables kept from the board a process played before, released when it plays
    another: seen in CI, 2 of 258,774 frozen objects freed), so the count may fall a little."""
    layout = load_layout(FOUR)
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        run_games(layout, Rules(), ["greedy"] * 4, 1, 0, 4)
        assert frozen > 0 and gc.get_freeze_count() >= 0.9 * frozen
    finally:
        gc.unfreeze()


def test_the_collector_comes_back_when_a_game_fails():
    class Broken:
        """A player that raises at its first move."""

        def choose_move(self, *args, **kwargs):
            raise RuntimeError("broken player")

    layout = load_layout(FOUR)
    with pytest.raises(Exception):
        run_games(layout, Rules(), [Broken()] * 4, 1, 0, 2)
    assert gc.isenabled()
