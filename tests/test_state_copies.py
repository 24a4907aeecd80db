"""Copies of a game in progress, in every game: a search tries actions on copies, and the game it
came from must stay as it was, whichever way the copy was made (``clone()``, ``copy.copy``,
``copy.deepcopy``); played on alike, a copy and its original end alike.

Found by an audit of the library as a user meets it: ``copy.copy`` shared the state (an action on
the copy moved the original too) and the Terrain Game could not be deep-copied at all."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.templates import template_path


def _terrain():
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.stepwise import TerrainGame

    game = TerrainGame(load_layout(template_path("terrain", "examples", "two-players.txt")), seed=11)

    def seen(g):
        return (g.current_player(), g.is_terminal(), [g.position(p) for p in range(g.players)], g.legal_actions(),
                g.returns(), list(g.state.board.rotation), g.roll)
    return game, seen, lambda g, rng: g.apply(rng.choice(g.legal_actions())), lambda g: g.is_terminal()


def _terrace():
    """Played through the OpenSpiel-style names, as the other games are (Terrace's apply gave a new
    position, so this loop would have gone on for ever)."""
    from terragen.terrace.position import Position

    return (Position.start("full"),
            lambda p: (p.key(), p.current_player(), p.result(), p.legal_actions(), p.returns()),
            lambda p, rng: p.apply(rng.choice(p.legal_actions())), lambda p: p.is_terminal())


def _terralogical():
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.state import GameState

    state = GameState.new(default_deck().tiles, 3, random.Random(4))
    return (state, lambda s: (s.current, s.points, s.hands, sorted(s.board.tiles), s.legal_actions(), s.returns()),
            lambda s, rng: s.apply(rng.choice(s.legal_actions())), lambda s: s.is_terminal())


def _terraflip():
    from terragen.terraflip.state import GameState

    state = GameState.new(3)
    return (state, lambda s: (s.current, s.phase, s.hands, s.known, s.public, s.legal_actions(), s.returns()),
            lambda s, rng: s.apply(rng.choice(s.legal_actions())), lambda s: s.is_terminal())


GAMES: dict[str, Callable] = {"terrain": _terrain, "terrace": _terrace, "terralogical": _terralogical,
                              "terraflip": _terraflip}
COPIES = {"clone": lambda g: g.clone(),
          "copy.copy": copy.copy, "copy.deepcopy": copy.deepcopy}


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("game", GAMES)
def test_a_copy_plays_on_without_touching_its_original_and_ends_as_it_would(game, how):
    original, seen, play, over = GAMES[game]()
    rng = random.Random(7)
    for _ in range(4):
        if not over(original):
            play(original, rng)
    before = copy.deepcopy(seen(original))
    twin = COPIES[how](original)
    assert seen(twin) == before
    lead, follow = random.Random(8), random.Random(8)
    for _ in range(400):  # the copy plays ahead alone: the original must not move
        if over(twin):
            break
        play(twin, lead)
    assert seen(original) == before
    for _ in range(400):  # the original then takes the same actions: the same game, to the same end
        if over(original):
            break
        play(original, follow)
    assert seen(original) == seen(twin)


def test_a_terrace_copy_keeps_the_moves_it_can_take_back_only_when_asked():
    from terragen.terrace.position import Position

    pos = Position.start("full")
    move = pos.legal_moves()[0]
    pos.push(move)
    assert copy.copy(pos).pop() == move and pos.copy(stack=True).pop() == move
    with pytest.raises(ValueError, match="no move to take back"):
        pos.copy().pop()  # a look-ahead copy starts a stack of its own


@pytest.mark.parametrize("how", ["copy.copy", "copy.deepcopy", "stack"])
def test_terrace_copies_that_took_moves_back_stay_apart(how):
    """Both taking back the same move once gave them one list of the seats still in the game:
    a T taken on one then took a seat out of the other (it said the wrong side was to move)."""
    from terragen.terrace.position import Position

    pos = Position.start("full")
    first = pos.parse_move("Da8xb7")
    pos.push(first)
    twin = {"copy.copy": copy.copy, "copy.deepcopy": copy.deepcopy, "stack": lambda p: p.copy(stack=True)}[how](pos)
    pos.pop()
    twin.pop()
    before = (twin.key(), list(twin.alive), twin.to_move, twin.result())
    pos.push(pos.parse_move("Da8xb7"))
    pos.push(pos.parse_move("Db2xa1"))  # takes a T
    assert (twin.key(), list(twin.alive), twin.to_move, twin.result()) == before


def test_a_terrain_game_state_cloned_mid_game_restarts_on_the_set_ups_tables():
    """A clone's cache took the turned board for its start, and restart() then read that board's
    distances on the set-up's board."""
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.state import GameState, setup_from_layout
    from terragen.terrain.sim.engine import apply_action
    from terragen.terrain.sim.variants import Rules

    layout = load_layout(template_path("terrain", "examples", "four-players.txt"))
    rules = Rules()
    setup = setup_from_layout(layout, rules)
    game = GameState.new(setup, rules, random.Random(1))
    goals = tuple(sorted(setup.groups[0][0]))
    fresh = game.cache.dist_to(goals)
    for cell in (3, 10, 17, 25, 40, 52):
        apply_action(game, ("rotate", cell, (game.board.rotation[cell] + 1) % 6))
    turned = game.cache.dist_to(goals)
    twin = game.clone()
    assert twin.cache.dist_to(goals) == turned and twin.board.rotation == game.board.rotation
    twin.restart()
    assert twin.board.rotation == setup.board.rotation and twin.cache.dist_to(goals) == fresh


@pytest.mark.parametrize("game", GAMES)
def test_every_openspiel_style_state_names_the_player_to_act_and_the_winners_alike(game):
    """Only the Terrain Game answered current_player(), Terralogical had no winners(), and a
    Terrace position answered none of these names."""
    state, _, play, over = GAMES[game]()
    rng = random.Random(2)
    assert state.current_player() >= 0 and list(state.winners()) == []
    for _ in range(5000):
        if over(state):
            break
        play(state, rng)
    assert over(state) and state.current_player() == -1
    returns = state.returns()
    assert list(state.winners()) and all(returns[s] == max(returns) for s in state.winners())


def test_an_action_read_from_json_is_taken_as_the_same_action():
    """The Terrain Game took ["move", [q, r]]; Terralogical refused ["place", 0, [row, col], 1]."""
    import json

    for game in ("terrain", "terralogical"):
        state, seen, _, _ = GAMES[game]()
        twin = state.clone()
        action = state.legal_actions()[0]
        state.apply(action)
        twin.apply(json.loads(json.dumps(action)))
        assert seen(twin) == seen(state)


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(["standard", "inversion", "green", "lost", "teams", "no-pass-through"]),
       seed=st.integers(0, 2**31), ahead=st.integers(0, 120))
def test_a_terrain_game_cloned_under_any_variant_plays_on_as_the_original(variant, seed, ahead):
    """The clone's board is turned to the original's from the set-up's (inverted pieces too), its
    cache following: under every variant the same actions give the same game to its end."""
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.stepwise import TerrainGame
    from terragen.terrain.sim.variants import rules_from_names

    layout = load_layout(template_path("terrain", "examples", "four-players.txt"))
    game = TerrainGame(layout, rules=rules_from_names([variant], 4, turn_cap=60), seed=seed)
    rng = random.Random(seed)
    for _ in range(ahead):
        if game.is_terminal():
            break
        game.apply(rng.choice(game.legal_actions()))
    twin = game.clone()
    lead, follow = random.Random(seed + 1), random.Random(seed + 1)
    for g, r in ((twin, lead), (game, follow)):
        while not g.is_terminal():
            g.apply(r.choice(g.legal_actions()))
    assert (twin.winners(), twin.state.round, twin.state.pos, twin.state.board.rotation, twin.state.board.inverted) == (
        game.winners(), game.state.round, game.state.pos, game.state.board.rotation, game.state.board.inverted)
