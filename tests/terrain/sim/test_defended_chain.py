"""The experts' defence in mean field: a lone expert's chain in which, near its end, the others
turn the piece of its route that costs it most."""

from __future__ import annotations

import copy

import pytest

from terragen.terrain.files import load_layout
from terragen.terrain.sim.defended_chain import defended_chain
from terragen.terrain.sim.lone_chain import lone_chain
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.variants import Rules
from tests.terrain.helpers import EXAMPLES


def lone(name: str, seat: int):
    layout = load_layout(EXAMPLES / name)
    one = copy.deepcopy(layout)
    one.players = [one.players[seat]]
    return one


def mean_rounds(cdf) -> float:
    return sum(1 - f for f in cdf)


@pytest.mark.parametrize("name, seat", [("four-players.txt", 0), ("four-players.txt", 2), ("six-players.txt", 1)])
def test_with_no_one_to_defend_it_is_the_lone_expert_chain(name, seat):
    layout = lone(name, seat)
    alone = lone_chain(layout, Rules(), load_policy("expert"))
    defended = defended_chain(layout, 0).cdf
    assert len(defended) == len(alone.cdf)
    assert max(abs(a - b) for a, b in zip(defended, alone.cdf)) < 1e-12


@pytest.mark.parametrize("name, seat", [("four-players.txt", 0), ("four-players.txt", 3), ("six-players.txt", 4),
                                        ("two-players.txt", 1)])
def test_more_defenders_finish_the_seat_later(name, seat):
    layout = lone(name, seat)
    rounds = []
    for opponents in (0, 1, 3, 5):
        cdf = defended_chain(layout, opponents).cdf
        assert cdf[0] == 0.0 and all(0.0 <= a <= b <= 1.0 for a, b in zip(cdf, cdf[1:]))
        assert cdf[-1] > 1 - 1e-5  # the tail is followed until it is spent
        rounds.append(mean_rounds(cdf))
    assert rounds == sorted(rounds)
    assert rounds[-1] > rounds[0]  # some defence hurt it: near its end its route had a piece worth turning
