from __future__ import annotations

import random

import pytest

from terragen.errors import SpecError
from terragen.terrace.play import play_game, play_match
from terragen.terrace.players import greedy_policy, score_move
from terragen.terrace.model import Move, Piece
from terragen.terrace.position import Position


def test_games_end_and_replay_from_their_seed():
    start = Position.start("short")
    rep = play_match(start, ["random", "random"], games=3, seed=11, max_plies=400)
    for r in rep["results"]:
        again = play_game(start, ["random", "random"], r["seed"], 400)
        assert (again.plies, again.winner, again.reason) == (r["plies"], r["winner"], r["reason"])


def test_greedy_takes_a_winning_capture_and_avoids_losing_its_t():
    pieces = {
        (4, 1): Piece("top", "C"),
        (5, 0): Piece("bottom", "T"),  # capturable by C
        (5, 2): Piece("bottom", "D"),  # bigger prize, but not the game
        (0, 7): Piece("top", "T"),
    }
    pos = Position(pieces, to_move="top", setup="free")
    assert greedy_policy(pos, random.Random(0)) == Move((4, 1), (5, 0))
    # with the own T below a piece, greedy never takes it
    pieces = {(1, 6): Piece("top", "D"), (0, 7): Piece("top", "T"), (7, 7): Piece("bottom", "T")}
    pos = Position(pieces, to_move="top", setup="free")
    assert score_move(pos, Move((1, 6), (0, 7))) < 0
    for seed in range(5):
        assert greedy_policy(pos, random.Random(seed)) != Move((1, 6), (0, 7))


def test_greedy_beats_random_more_often_than_not():
    rep = play_match(Position.start("short"), ["greedy", "random"], games=6, seed=3, max_plies=300)
    assert rep["seats"][0]["wins"] > rep["seats"][1]["wins"]


@pytest.mark.parametrize("players, games, plies, says", [
    ([], 1, 10, "--policy names no player"),
    (["random"] * 2, 0, 10, "^games must be 1–1000000"),  # in the parameters' names, not the flags'
    (["random"] * 2, 1_000_001, 10, "^games must be 1–1000000"),
    (["random"] * 2, 1, 10**11, "^max_plies must be 1–100000"),
    (["random"] * 3, 1, 10, "--policy: 3 given for 2 seats"),  # said "3 players were given"
])
def test_a_match_out_of_bounds_is_refused_before_any_game(players, games, plies, says):
    with pytest.raises(SpecError, match=says):
        play_match(Position.start("full"), players, games, 1, plies)


@pytest.mark.parametrize("start", [None, "full", {}])
def test_a_game_without_a_position_is_a_type_error_naming_it(start):
    # None went on to an AttributeError from inside the first move
    for call in (lambda: play_game(start, ["random"] * 2, 1), lambda: play_match(start, ["random"] * 2, 1, 1)):
        with pytest.raises(TypeError, match=r"start must be a Position \(Position.start\('full'\) makes one\)"):
            call()
