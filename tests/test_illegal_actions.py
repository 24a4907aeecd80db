"""One way to refuse an action in every game's state: an IllegalActionError (a ValueError too), the
state left as it was; and an action is taken in whatever container a script hands it over.

Found by an audit of the library as a script writer meets it: TerraFlip refused with SpecError (not a
ValueError), Terralogical took ``True`` for a rotation and wrote a file it could not read back."""

from __future__ import annotations

import json
import random

import pytest

from terragen.errors import IllegalActionError


def _terrain():
    from terragen.templates import template_path
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.stepwise import TerrainGame

    return TerrainGame(load_layout(template_path("terrain", "examples", "two-players.txt")), seed=11)


def _terralogical():
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.state import GameState

    return GameState.new(default_deck().tiles, 3, 11)


def _terraflip():
    from terragen.terraflip.state import GameState

    return GameState.new(3)


STATES = {"terrain": _terrain, "terralogical": _terralogical, "terraflip": _terraflip}


def _played_out(state):
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game", STATES)
def test_a_finished_game_refuses_another_action_saying_it_is_over(game):
    state = _played_out(STATES[game]())
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(("end",))


@pytest.mark.parametrize("game", STATES)
def test_an_action_not_in_the_legal_list_is_refused_and_changes_nothing(game):
    state = STATES[game]()
    before = str(state), state.legal_actions()
    for bad in (("fly",), None, 5, ("place", 99, (99, 99), 0), ("move", (99, 99))):
        with pytest.raises(IllegalActionError) as caught:
            state.apply(bad)
        assert isinstance(caught.value, ValueError)  # what `except ValueError` in a script catches
    assert (str(state), state.legal_actions()) == before


def test_a_terraflip_action_may_come_as_a_tuple_or_from_json():
    """TerraFlip took only its own Action objects, with tuples for places; the other games' states
    take JSON's lists."""
    from terragen.terraflip.state import Action

    played, twin, as_json = _terraflip(), _terraflip(), _terraflip()
    rng = random.Random(5)
    for _ in range(40):
        action = rng.choice(played.legal_actions())
        played.apply(action)
        twin.apply((action.kind, action.pos, action.tile, action.dst))
        as_json.apply(json.loads(json.dumps([action.kind, action.pos, action.tile, action.dst])))
        assert str(twin) == str(played) == str(as_json) and twin.log == played.log == as_json.log
        if played.is_terminal():
            break
    assert Action.of(["flip", [1, 0]]) == Action("flip", (1, 0))


@pytest.mark.parametrize("number", [True, False, 1.0, "1"])
def test_a_terralogical_placement_takes_whole_numbers_only(number):
    """A rotation of True went onto the board and into the file as 'True', which the reader then
    refused; 1.0 was refused. Neither is a whole number."""
    state = _terralogical()
    _, idx, sq, rot = next(a for a in state.legal_actions() if a[0] == "place")
    with pytest.raises(IllegalActionError):
        state.apply(("place", idx, sq, number))
    with pytest.raises(IllegalActionError):
        state.apply(("place", number if number is not False else True, sq, rot))
    assert state.history == []


def test_a_terralogical_placement_from_numpy_numbers_is_the_plain_action():
    """numpy's integers (a script's arrays hand them over) were refused with 'no hand index 0'."""
    from terragen.terralogical.formats import board_state_of_game, state_to_text

    np = pytest.importorskip("numpy")
    state, twin = _terralogical(), _terralogical()
    _, idx, (row, col), rot = next(a for a in state.legal_actions() if a[0] == "place")
    state.apply(("place", idx, (row, col), rot))
    twin.apply(("place", np.int64(idx), (np.int64(row), np.int32(col)), np.int8(rot)))
    assert twin.history == state.history and all(type(v) is int for v in (twin.history[0][1][1], twin.history[0][1][3]))
    assert state_to_text(board_state_of_game(twin)) == state_to_text(board_state_of_game(state))


@pytest.mark.parametrize("call", [
    lambda: __import__("terragen.terrain.files", fromlist=["x"]).parse_layout(None),
    lambda: __import__("terragen.terralogical.formats", fromlist=["x"]).parse_state(b"game: terralogical", "x"),
    lambda: __import__("terragen.terraflip.formats", fromlist=["x"]).parse_position(None, "x"),
], ids=["parse_layout", "parse_state", "parse_position"])
def test_a_reader_given_no_text_says_it_takes_text(call):
    """parse_layout(None) failed inside with "'NoneType' object has no attribute 'lstrip'"."""
    with pytest.raises(TypeError, match="takes a file's text, a str"):
        call()


def test_a_player_count_that_is_no_whole_number_is_named():
    """GameState.new(tiles, players="3") failed on '<=' between str and int; TerraFlip's 3.0 on range()."""
    from terragen.errors import SpecError
    from terragen.terraflip.state import GameState as FlipState
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.state import GameState as LogicState

    with pytest.raises(ValueError, match="2 to 4 players, got '3'"):
        LogicState.new(default_deck().tiles, "3", 1)
    with pytest.raises(SpecError, match="2 to 4 players, got 3.0"):
        FlipState.new(3.0)
    np = pytest.importorskip("numpy")
    assert LogicState.new(default_deck().tiles, np.int64(3), 1).players == 3
