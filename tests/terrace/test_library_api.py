"""Position as a library user meets it: moves are checked where they are played, refusals say
what was wrong, and the OpenSpiel-style names of the other games' states work here too.

Found by an audit: ``apply`` played any pair of squares (a piece from an empty square, on a
finished game), ``pop`` gave back a move without its kind and piece, ``san`` wrote an impossible
move, and a tuple for a Move failed deep inside with AttributeError."""

from __future__ import annotations

import random

import pytest

from terragen.errors import IllegalActionError, TerragenError
from terragen.terrace.model import Move, Piece
from terragen.terrace.position import Position


def won_for_top() -> Position:
    """Top's C on (4, 1) has just taken bottom's T on (5, 0)."""
    pos = Position({(4, 1): Piece("top", "C"), (5, 0): Piece("bottom", "T"), (0, 7): Piece("top", "T")},
                   to_move="top", setup="free")
    pos.apply(Move((4, 1), (5, 0)))
    return pos


def drawn() -> Position:
    """Bottom's lone T is boxed in by pieces it may not take: no move, a draw."""
    return Position({(7, 7): Piece("bottom", "T"), (6, 6): Piece("top", "B"), (6, 7): Piece("top", "B"),
                     (7, 6): Piece("top", "B"), (0, 0): Piece("top", "T")}, to_move="bottom", setup="free")


@pytest.mark.parametrize("move, why", [
    (Move((4, 4), (0, 0)), "move e4-a8: no piece on e4 to move"),
    (Move((7, 0), (6, 0)), "move a1-a2: the T on a1 is bottom's, and top is to move"),
    (Move((1, 0), (7, 7)), "move a7-h1 is not a legal move: the A on a7 cannot go there"),
    (Move((0, 0), (9, 9)), "off the 8x8 board"),
])
def test_apply_refuses_an_illegal_move_saying_why_and_changes_nothing(move, why):
    pos = Position.start("full")
    before = pos.key()
    with pytest.raises(IllegalActionError, match=why) as caught:
        pos.apply(move)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TerragenError)
    with pytest.raises(IllegalActionError, match=why):
        pos.applied(move)
    assert pos.key() == before and not pos.is_legal(move)


def test_apply_refuses_any_move_once_the_game_is_over():
    for pos, move in ((won_for_top(), Move((0, 7), (1, 7))), (drawn(), Move((7, 7), (6, 6)))):
        before = pos.key()
        with pytest.raises(IllegalActionError, match="the game is over"):
            pos.apply(move)
        assert pos.key() == before


def test_apply_plays_in_place_as_the_other_games_do_and_applied_gives_a_new_position():
    pos = Position.start("full")
    move = pos.parse_move("Cc8-c6")
    after = pos.applied(move)
    assert pos.to_move == "top" and after.to_move == "bottom" and after.piece_at((2, 2)) == Piece("top", "C")
    assert pos.apply(move) is None and pos == after
    assert pos.pop() == move and pos == Position.start("full")
    with pytest.raises(ValueError, match="no move to take back"):
        after.pop()  # a new position of its own, as copy() gives


def test_push_cheaply_refuses_an_empty_square_another_sides_piece_and_a_decided_game():
    pos = Position.start("full")
    start = pos.key()
    with pytest.raises(IllegalActionError, match="no piece on e4"):
        pos.push(Move((4, 4), (0, 0)))
    with pytest.raises(IllegalActionError, match="is bottom's, and top is to move"):
        pos.push(Move((6, 0), (5, 0)))
    assert pos.key() == start
    won = won_for_top()
    with pytest.raises(IllegalActionError, match=r"the game is over, top \(T\) wins"):
        won.push(Move((0, 7), (1, 7)))
    pos.push(Move((1, 0), (7, 7)))  # where the piece goes is still not checked, as documented
    assert pos.piece_at((7, 7)) == Piece("top", "A")


@pytest.mark.parametrize("call", ["push", "apply", "applied", "san", "is_legal"])
def test_a_move_that_is_not_a_move_says_what_a_move_is(call):
    pos = Position.start("full")
    for bad in [((0, 0), (1, 1)), "Da8xb7", Move("a8", "b7")]:
        with pytest.raises(TypeError, match=r"Move\(\(6, 0\), \(5, 0\)\)"):
            getattr(pos, call)(bad)
    assert pos.key() == Position.start("full").key()


def test_parse_move_of_something_not_text_is_a_type_error():
    with pytest.raises(TypeError, match="a move written as text, e.g. 'Cb7-b6'"):
        Position.start("full").parse_move(5)


def test_san_refuses_an_illegal_move():
    pos = Position.start("full")
    with pytest.raises(IllegalActionError, match="move a8-h1 is not a legal move"):
        pos.san(Move((0, 0), (7, 7)))  # it wrote 'Da8xh1'
    assert pos.san(Move((0, 0), (1, 1))) == "Da8xb7" and pos.san(Move((0, 2), (2, 2))) == "Cc8-c6"


def test_pop_gives_back_the_move_as_it_was_pushed_kind_and_piece_included():
    rng = random.Random(3)
    kinds = set()
    for setup in ("full", "four"):
        pos = Position.start(setup)
        played = []
        while len(played) < 60 and not pos.is_game_over():
            move = rng.choice(pos.legal_moves())
            pos.push(move)
            played.append(move)
        for move in reversed(played):
            back = pos.pop()
            assert (back, back.kind, back.piece) == (move, move.kind, move.piece)
            kinds.add(back.kind)
    assert kinds == {"slide", "up", "down", "capture"}
    pos = Position.start("full")
    pos.push(Move((0, 2), (2, 2)))  # a Move written by hand, kind and piece blank
    back = pos.pop()
    assert (back.kind, back.piece) == ("slide", "C")


def test_t_square_of_a_side_not_playing_is_the_same_error_as_objective_of():
    pos = Position.start("full")
    for side in ("east", "left"):
        with pytest.raises(ValueError, match=f"no side '{side}' here; the sides are top, bottom"):
            pos.t_square(side)
        with pytest.raises(ValueError, match=f"no side '{side}' here"):
            pos.objective_of(side)
    assert pos.t_square("bottom") == (7, 0) and won_for_top().t_square("bottom") is None


def test_openspiel_names_before_the_end():
    pos = Position.start("four")
    assert (pos.current_player(), pos.is_terminal(), pos.winners(), pos.returns()) == (0, False, [], [0.0] * 4)
    assert pos.legal_actions() == pos.legal_moves() and pos.legal_actions()
    pos.apply(pos.legal_actions()[0])
    assert pos.current_player() == 1 and pos.seats[1] == pos.to_move == "right"


def test_openspiel_names_once_won_and_on_a_draw():
    won = won_for_top()
    assert (won.current_player(), won.is_terminal(), won.legal_actions()) == (-1, True, [])
    assert won.winners() == [0] and won.returns() == [1.0, 0.0]
    draw = drawn()
    assert (draw.current_player(), draw.is_terminal(), draw.legal_actions()) == (-1, True, [])
    assert draw.winners() == [] and draw.returns() == [0.0, 0.0]  # nobody won: no one shares the point


def test_a_position_whose_seat_to_move_has_no_t_lists_no_actions():
    """A read-in position may put a seat without its T to move: the game is over (result() says a
    draw), and the OpenSpiel names agree, whatever legal_moves() lists for its pieces."""
    pos = Position({(1, 1): Piece("top", "C"), (7, 7): Piece("bottom", "T"), (0, 7): Piece("right", "T")},
                   to_move="top", setup="free3")
    assert pos.is_terminal() and pos.current_player() == -1 and pos.legal_actions() == []


def test_clone_is_a_copy_with_its_moves_to_take_back():
    pos = Position.start("full")
    pos.apply(pos.parse_move("Cc8-c6"))
    twin = pos.clone()
    twin.apply(twin.legal_actions()[0])
    assert pos.to_move == "bottom" and twin.to_move == "top"
    twin.pop()
    assert twin.pop() == pos.pop() and twin == pos == Position.start("full")


def test_the_public_names_of_a_position_say_what_they_do():
    public = [name for name in vars(Position) if not name.startswith("_")]
    assert {"piece_at", "pieces", "is_legal", "is_game_over", "to_move"} <= set(public)
    assert [name for name in public if not (getattr(Position, name).__doc__ or "").strip()] == []
