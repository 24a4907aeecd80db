"""Players decide by the board alone: a turned game is the same game, and on a board that a
turn by 120 degrees (or, for two seats, a mirror) maps onto itself the seats it relates win
the same games with the same dice."""

import random

import pytest

from terragen.grids import hex as hx
from terragen.terrain.generate import generate_board
from terragen.terrain.generate.options import build_spec
from terragen.terrain.generate.symmetry import map_hex, map_piece, mirror
from terragen.terrain.layout import Cell, Destination, Layout, Player
from terragen.terrain.race import race_for_layout
from terragen.terrain.sim.dice import RandomDice
from terragen.terrain.sim.engine import play_game
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.runner import run_games
from terragen.terrain.sim.state import setup_from_layout
from terragen.terrain.sim.variants import Rules

from sim_helpers import make_layout

GAMES = {"greedy": 60, "expert": 20, "solitary": 60}


def turned(layout: Layout, k: int) -> Layout:
    """The whole game turned by ``k`` sixths: cells, piece rotations, corners and destinations;
    seat numbers kept, so seat s plays from its own corner turned."""
    out = Layout(layout.radius)
    for c in layout.cells:
        out.cells.append(Cell(*hx.rotate(c.hex, k), c.level, c.pattern, (c.rotation + k) % 6, c.inverted))
    for p in layout.players:
        out.players.append(Player(p.seat, (p.corner + k) % 6, [Destination(*hx.rotate(d.hex, k)) for d in p.destinations]))
    return out


def mirrored(layout: Layout, axis: int) -> Layout:
    """The whole game mirrored through corners ``axis`` and ``axis + 3`` (pattern B becomes C)."""
    perm = mirror(axis)
    out = Layout(layout.radius)
    for c in layout.cells:
        pattern, rotation = map_piece(c.pattern, c.rotation, perm)
        out.cells.append(Cell(*map_hex(c.hex, perm), c.level, pattern, rotation, c.inverted))
    for p in layout.players:
        out.players.append(Player(p.seat, perm[p.corner], [Destination(*map_hex(d.hex, perm)) for d in p.destinations]))
    return out


def generated(players: int, expect: str = "turn by 120 degrees", **flags) -> Layout:
    spec, _ = build_spec({"players": players, "difficulty": "easy", **flags})
    layout = generate_board(spec, 1, time_limit=60, balance=None)
    assert layout.extra["meta"]["symmetry"].startswith(expect)
    return layout


def uniform(radius: int = 4, corners=(0, 2, 4)) -> Layout:
    """Every piece the same (level 1, pattern D, which a third of a turn and the mirror through
    corners 1 and 4 keep): ties everywhere. Seats on ``corners``, destinations the images of one."""
    dest = (-2, 0)
    if len(corners) == 2:
        return make_layout(radius, players=[(0, [dest]), (2, [map_hex(dest, mirror(1))])])
    return make_layout(radius, players=[(c, [hx.rotate(dest, c)]) for c in corners])


@pytest.fixture(scope="module")
def boards():
    return {"three": generated(3), "six": generated(6), "uniform": uniform(),
            "two": generated(2, "mirror through corners 1 and 4"), "uniform-two": uniform(corners=(0, 2))}


def seat_shift(layout: Layout) -> int:
    """How far along the play order the board's symmetry moves a seat: the turn by 120 degrees
    for corners 0, 2, 4 or 0..5, the mirror swapping two seats on corners 0 and 2."""
    return 2 if len(layout.players) == 6 else 1


@pytest.mark.parametrize("policy", ["greedy", "expert"])
@pytest.mark.parametrize("name", ["three", "six", "uniform"])
def test_a_turned_board_plays_the_same_games(boards, name, policy):
    layout = boards[name]
    n = len(layout.players)
    a = run_games(layout, Rules(), [policy] * n, 3, 0, GAMES[policy])
    b = run_games(turned(layout, 2), Rules(), [policy] * n, 3, 0, GAMES[policy])
    assert a == b  # every game: same winner, rounds, turns, rotations, send-backs


@pytest.mark.parametrize("k", [1, 3, 5])
def test_any_turn_of_an_unsymmetric_board_plays_the_same_games(k):
    layout = generated(2, "none", symmetry="none")
    a = run_games(layout, Rules(), ["greedy"] * 2, 4, 0, 40)
    assert a == run_games(turned(layout, k), Rules(), ["greedy"] * 2, 4, 0, 40)


@pytest.mark.parametrize("policy", ["greedy", "expert"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_a_mirrored_game_of_two_seats_two_sixths_apart_is_the_same_game(axis, policy):
    layout = generated(2, "none", symmetry="none", corners=[0, 2])
    a = run_games(layout, Rules(), [policy] * 2, 4, 0, GAMES[policy] // 2)
    assert a == run_games(mirrored(layout, axis), Rules(), [policy] * 2, 4, 0, GAMES[policy] // 2)


def relabel_mismatches(layout: Layout, policy: str, games: int) -> list[int]:
    """Games whose result is not carried over by the turn: seat s opening with dice D must end
    exactly as seat s + shift opening with the same dice, with winners moved on by the shift."""
    setup = setup_from_layout(layout, Rules())
    n = setup.players
    shift = seat_shift(layout)
    policies = [load_policy(policy) for _ in range(n)]
    bad = []
    for g in range(games):
        first = g % n
        a, b = [play_game(setup, Rules(), policies, random.Random(g), RandomDice(random.Random(10_000 + g)),
                          first_seat=f) for f in (first, (first + shift) % n)]
        moved = tuple((w + shift) % n for w in a.winners)
        if (moved, a.rounds, a.turns, a.rotations, a.send_backs, a.forfeits) != \
                (b.winners, b.rounds, b.turns, b.rotations, b.send_backs, b.forfeits):
            bad.append(g)
    return bad


@pytest.mark.parametrize("policy", ["greedy", "expert"])
@pytest.mark.parametrize("name", ["three", "six", "uniform", "two", "uniform-two"])
def test_seats_the_symmetry_maps_onto_each_other_play_alike(boards, name, policy):
    assert relabel_mismatches(boards[name], policy, GAMES[policy] // 2) == []


def test_solitary_seats_the_symmetry_maps_onto_each_other_play_alike(boards):
    layout = boards["uniform"]
    assert relabel_mismatches(layout, "solitary", GAMES["solitary"]) == []
    a = run_games(layout, Rules(), ["solitary"] * 3, 3, 0, GAMES["solitary"])
    assert a == run_games(turned(layout, 2), Rules(), ["solitary"] * 3, 3, 0, GAMES["solitary"])


@pytest.mark.parametrize("name", ["three", "six", "uniform", "two", "uniform-two"])
def test_race_model_gives_seats_of_one_class_the_same_chance(boards, name):
    layout = boards[name]
    probs = race_for_layout(layout).win_probability_rotating
    shift = seat_shift(layout)
    for s, p in enumerate(probs):
        assert p == pytest.approx(probs[(s + shift) % len(probs)], abs=1e-9)
    if len(probs) in (2, 3):
        assert all(p == pytest.approx(1 / len(probs), abs=1e-9) for p in probs)
