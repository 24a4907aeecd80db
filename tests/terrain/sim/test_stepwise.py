"""The Terrain Game one decision at a time: the same games the simulator plays, decision for
decision, when each decision is the one its players would take; and the state API's contract."""

from __future__ import annotations

import random

import pytest

from terragen.templates import template_path
from terragen.terrain.files import load_layout
from terragen.terrain.sim.engine import RotationOptions, line_options, move_options, play_game
from terragen.terrain.sim.policies import load_policy
from terragen.terrain.sim.state import setup_from_layout
from terragen.terrain.sim.stepwise import TerrainGame
from terragen.terrain.sim.variants import Rules, rules_from_names

EXAMPLES = template_path("terrain", "examples")


def _as_action(game: TerrainGame, policy) -> tuple:
    """The action the simulator's ``policy`` takes in ``game``'s decision, named by hexes."""
    state, seat, roll = game.state, game.current_player(), game.roll
    hexes = state.board.hexes
    if state.rules.green:
        return ("move", hexes[policy.choose_move(state, seat, roll, line_options(state, seat, roll))])
    if roll.double:
        opts = RotationOptions(state, state.rules.inversion and state.rules.interactions and roll.white == 6)
        choice = policy.choose_rotation(state, seat, roll, opts)
        if choice is None:
            return ("forfeit",)
        return ("rotate", hexes[choice[1]], choice[2]) if choice[0] == "rotate" else ("invert", hexes[choice[1]])
    return ("move", hexes[policy.choose_move(state, seat, roll, move_options(state, seat, roll))])


@pytest.mark.parametrize("board, variants, names", [
    ("two-players.txt", [], ["greedy", "greedy"]),
    ("four-players.txt", [], ["greedy", "expert", "solitary", "random"]),
    ("four-players.txt", ["inversion"], ["expert"] * 4),
    ("six-players.txt", ["green"], ["greedy"] * 6),
])
def test_a_game_decision_by_decision_is_the_simulators_game(board, variants, names):
    layout = load_layout(EXAMPLES / board)
    n = len(layout.players)
    rules = rules_from_names(variants, n)
    for seed in range(4):
        first = seed % n
        reference = play_game(setup_from_layout(layout, rules), rules, [load_policy(p) for p in names],
                              random.Random(seed), first_seat=first)
        game = TerrainGame(layout, rules, seed, first_seat=first)
        players = [load_policy(p) for p in names]
        decisions = 0
        while not game.is_terminal():
            action = _as_action(game, players[game.current_player()])
            assert action in game.legal_actions()
            game.apply(action)
            decisions += 1
        state = game.state
        assert game.winners() == list(reference.winners) and state.round == reference.rounds
        assert (state.rotations, state.inversions, state.send_backs, state.forfeits) == \
            (reference.rotations, reference.inversions, reference.send_backs, reference.forfeits)
        assert sum(state.turns) == reference.total_turns and decisions > 0


def test_the_state_api():
    layout = load_layout(EXAMPLES / "two-players.txt")
    game = TerrainGame(layout, seed=3)
    assert game.players == 2 and game.current_player() == 0 and not game.is_terminal()
    assert game.returns() == [0.0, 0.0] and game.winners() == []
    actions = game.legal_actions()
    assert actions and all(a[0] in ("move", "rotate", "forfeit") for a in actions)
    if game.roll.double:
        assert actions[-1] == ("forfeit",)
    else:  # staying put is a legal end
        assert ("move", game.position(0)) in actions
    with pytest.raises(ValueError, match="not a legal action"):
        game.apply(("move", (99, 99)))
    assert game.current_player() == 0  # nothing refused was half done
    rng = random.Random(5)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    assert game.legal_actions() == [] and (game.winners() or game.state.round == game.state.rules.turn_cap)
    if game.winners():
        assert sum(game.returns()) == pytest.approx(1.0) and game.current_player() == -1
    with pytest.raises(ValueError, match="over"):
        game.apply(("forfeit",))
    with pytest.raises(ValueError, match="first_seat"):
        TerrainGame(layout, first_seat=2)
    with pytest.raises(TypeError, match="takes a Layout"):
        TerrainGame("board.txt")


def test_the_same_seed_gives_the_same_game():
    layout = load_layout(EXAMPLES / "four-players.txt")

    def play(seed: int) -> tuple:
        game, rng, trail = TerrainGame(layout, seed=seed), random.Random(seed), []
        while not game.is_terminal():
            action = rng.choice(game.legal_actions())
            trail.append(action)
            game.apply(action)
        return tuple(trail), game.winners()

    assert play(8) == play(8) and play(8) != play(9)


def test_an_action_read_from_json_is_the_same_action():
    import json

    layout = load_layout(EXAMPLES / "two-players.txt")
    game, twin = TerrainGame(layout, seed=3), TerrainGame(layout, seed=3)
    action = game.legal_actions()[-1]
    game.apply(json.loads(json.dumps(action)))  # lists where the tuples were
    twin.apply(action)
    assert (game.current_player(), game.legal_actions()) == (twin.current_player(), twin.legal_actions())
    with pytest.raises(ValueError):
        game.apply("move")


def test_look_alike_values_are_refused_or_taken_as_the_legal_ones():
    """A rotation of 1.0 equals 1, passed the legality check and broke the move tables halfway."""
    layout = load_layout(EXAMPLES / "two-players.txt")
    game, rng = TerrainGame(layout, seed=1), random.Random(0)
    while not game.roll.double:
        game.apply(rng.choice(game.legal_actions()))
    _, where, k = next(a for a in game.legal_actions() if a[0] == "rotate")
    cell = game.state.board.index[where]
    game.apply(("rotate", where, float(k)))
    assert game.state.board.rotation[cell] == k and type(game.state.board.rotation[cell]) is int
    assert game.state.rotations == 1
    with pytest.raises(ValueError, match="no player 99"):
        game.position(99)
    with pytest.raises(ValueError, match="no player -1"):
        game.position(-1)
    with pytest.raises(TypeError, match="rules is a Rules"):
        TerrainGame(layout, "green")
    with pytest.raises(ValueError, match="turn_cap"):
        TerrainGame(layout, Rules(turn_cap=2.5))
    with pytest.raises(ValueError, match="first_seat"):
        TerrainGame(layout, first_seat=True)


def test_a_clone_with_a_seed_rolls_other_futures_and_the_same_for_the_same_seed():
    """Every copy rolled the game's own future dice, so a Monte Carlo player's rollouts all saw the
    one future the real game would have, which no player at the table knows."""
    def rolls(game: TerrainGame, n: int = 40) -> list:
        out = []
        while len(out) < n and not game.is_terminal():
            out.append(game.roll)
            game.apply(game.legal_actions()[0])
        return out

    game = TerrainGame(load_layout(template_path("terrain", "examples", "two-players.txt")), seed=3)
    game.apply(game.legal_actions()[0])
    here = game.roll
    same, other, again, third = game.clone(), game.clone(seed=8), game.clone(seed=8), game.clone(seed=9)
    assert other.roll == here  # the roll already on the table stays
    seen = rolls(game)
    assert rolls(same) == seen  # a plain copy: the game's own future
    elsewhere = rolls(other)
    assert elsewhere != seen and rolls(again) == elsewhere and rolls(third) != elsewhere
    # the built-in players' own random choices follow the seed too, not the game's stream
    assert game.clone(seed=8).state.rng.random() != game.clone().state.rng.random()
    with pytest.raises(TypeError, match="seed is a whole number"):
        game.clone(seed="x")


def test_a_game_pickles_at_any_point_and_plays_on_as_the_one_it_came_from():
    """A bot keeps a game between messages, a search sends states to worker processes: the copy
    must be the same game, with the same dice to come, even after a long game of turned pieces."""
    import pickle

    game = TerrainGame(load_layout(EXAMPLES / "four-players.txt"), rules=rules_from_names(["inversion"], 4), seed=7)
    chooser, applied = random.Random(5), 0
    assert pickle.loads(pickle.dumps(game)) == game
    while not game.is_terminal() and applied < 2500:
        game.apply(chooser.choice(game.legal_actions()))
        applied += 1
        if applied % 250 == 0:
            back = pickle.loads(pickle.dumps(game))
            assert back == game and back.legal_actions() == game.legal_actions()
            here, there = game.clone(), back
            for _ in range(30):
                if here.is_terminal():
                    break
                action = random.Random(applied).choice(here.legal_actions())
                here.apply(action)
                there.apply(action)
                assert there == here and there.roll == here.roll
    assert applied >= 500  # a long game: its board's tables chained deep enough to break the pickler


def test_games_are_equal_when_they_stand_alike():
    game = TerrainGame(load_layout(EXAMPLES / "two-players.txt"), seed=3)
    assert game.clone() == game and game.clone(seed=9) == game  # the dice to come are not compared
    moved = game.clone()
    moved.apply(moved.legal_actions()[-1])
    assert moved != game
    assert TerrainGame(load_layout(EXAMPLES / "two-players.txt"), seed=4) != game  # another roll on the table
    with pytest.raises(TypeError):
        hash(game)
