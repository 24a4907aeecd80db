"""Rules that must hold after every turn of any game, checked over random play in every variant."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from terragen.grids import hex as hx
from terragen.terrain.files import load_layout
from terragen.terrain.paths import reachable
from terragen.terrain.sim.dice import RandomDice
from terragen.terrain.sim.engine import take_turn
from terragen.terrain.sim.policies import GreedyPolicy, RandomPolicy
from terragen.terrain.sim.state import GameState, setup_from_layout
from terragen.terrain.sim.variants import Rules
from terragen.templates import template_path

LAYOUT = load_layout(template_path("terrain", "examples") / "four-players.txt")
VARIANTS = [Rules(), Rules(inversion=True), Rules(green=True), Rules(lost=True),
            Rules(teams=((0, 2), (1, 3))), Rules(pass_through=False, inversion=True)]


def _check(state: GameState, before_masks: list[int], seat: int, before_pos: list[int]) -> None:
    live = [s for s in range(state.players) if state.pos[s] >= 0]
    # one token per hex, except LOST!'s centre before the tokens leave it
    cells = [state.pos[s] for s in live if s not in state.shared_start]
    assert len(cells) == len(set(cells))
    assert state.occupant == {state.pos[s]: s for s in live if s not in state.shared_start}
    for s in state.shared_start:
        assert state.pos[s] == state.setup.starts[s]
    # collections only grow, and a finished seat holds everything
    for s in range(state.players):
        assert state.collected[s] & before_masks[s] == before_masks[s]
        assert state.finished[s] == (state.collected[s] == state.full_mask(s))
    # no token on an inverted piece; every remaining destination still reachable ignoring pips
    for s in live:
        assert not state.board.inverted[state.pos[s]]
    if state.rules.inversion:
        for s in live:
            if not state.finished[s]:
                seen = reachable(state.board, state.pos[s], pips=False)
                assert all(seen.intersection(g) for g in state.remaining_groups(s))
    if not state.rules.send_back:
        assert state.send_backs == 0
    if state.rules.teams and state.pos[seat] >= 0:
        h = state.board.hexes
        for m in state.teammates(seat):
            was = hx.distance(h[before_pos[seat]], h[before_pos[m]])
            assert hx.distance(h[state.pos[seat]], h[state.pos[m]]) <= max(3, was)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe())
@settings(max_examples=4, deadline=None)
@given(seed=st_.integers(0, 10**6))
def test_invariants_hold_every_turn(rules, seed):
    setup = setup_from_layout(LAYOUT, rules)
    state = GameState.new(setup, rules, random.Random(seed))
    dice = RandomDice(random.Random(seed + 1))
    policies = [RandomPolicy(), GreedyPolicy(), RandomPolicy(), GreedyPolicy()]
    for _ in range(60):
        for seat in range(state.players):
            if state.finished[seat]:
                continue
            masks, where = list(state.collected), list(state.pos)
            take_turn(state, seat, policies[seat], dice)
            _check(state, masks, seat, where)
