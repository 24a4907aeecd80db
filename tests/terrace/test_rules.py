"""End of the game, multi-player elimination, rule options, and random positions vs the reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.terrace.model import Move, Piece, Rules
from terragen.terrace.position import Position

from .reference import RefGame


def P(side, kind):
    return Piece(side, kind)


def test_capturing_the_enemy_t_wins():
    # top's C on (4,1) (height 4) can take bottom's t on (5,0) (height 3) diagonally down
    pos = Position({(4, 1): P("top", "C"), (5, 0): P("bottom", "T"), (0, 7): P("top", "T")}, to_move="top", setup="free")
    mv = Move((4, 1), (5, 0))
    assert mv in pos.legal_moves()
    after = pos.applied(mv)
    res = after.result()
    assert res is not None and res.winner == "top" and res.reason == "t-captured"
    assert after.legal_moves() == []
    assert pos.result() is None  # applied left the original alone


def test_t_reaching_its_objective_wins():
    # top's T on (6,0) (height 2) steps straight down to (7,0), the low corner opposite its home
    pos = Position({(6, 0): P("top", "T"), (7, 7): P("bottom", "T")}, to_move="top", setup="free")
    assert pos.result() is None
    after = pos.applied(Move((6, 0), (7, 0)))
    assert after.result().winner == "top" and after.result().reason == "objective"


def test_t_on_the_wrong_corner_does_not_win():
    pos = Position({(1, 7): P("top", "T"), (7, 7): P("bottom", "T")}, to_move="top", setup="free")
    after = pos.applied(Move((1, 7), (0, 7)))
    assert after.result() is None


def test_no_legal_move_is_a_draw():
    # bottom's only piece, its T on the height-8 corner (7,7), is boxed in by top's pieces that it
    # may not capture (captures go diagonally down onto the same size or smaller; T ranks with A)
    pos = Position(
        {(7, 7): P("bottom", "T"), (6, 6): P("top", "B"), (6, 7): P("top", "B"), (7, 6): P("top", "B"), (0, 0): P("top", "T")},
        to_move="bottom",
        setup="free",
    )
    assert pos.legal_moves() == []
    res = pos.result()
    assert res is not None and res.is_draw and res.reason == "no-move"


def test_capturing_your_own_t_loses_unless_forbidden():
    pieces = {(0, 6): P("top", "D"), (0, 7): P("top", "T"), (7, 0): P("bottom", "T")}
    pos = Position(pieces, to_move="top", setup="free")
    own = Move((0, 6), (0, 7))
    assert own not in pos.legal_moves()  # (0,6)->(0,7) is straight down: not a capture
    pieces = {(1, 6): P("top", "D"), (0, 7): P("top", "T"), (7, 0): P("bottom", "T")}
    pos = Position(pieces, to_move="top", setup="free")
    own = Move((1, 6), (0, 7))
    assert own in pos.legal_moves()
    assert pos.applied(own).result().winner == "bottom"
    strict = Position(pieces, to_move="top", setup="free", rules=Rules(own_t_capture=False))
    assert own not in strict.legal_moves()


def test_t_rank_option():
    # a T above an A: with t_rank="a" it may take it, with "lowest" it may not
    pieces = {(4, 1): P("top", "T"), (5, 0): P("bottom", "A"), (7, 7): P("bottom", "T")}
    cap = Move((4, 1), (5, 0))
    assert cap in Position(pieces, to_move="top", setup="free").legal_moves()
    assert cap not in Position(pieces, to_move="top", setup="free", rules=Rules(t_rank="lowest")).legal_moves()
    # anything takes a T either way
    pieces = {(4, 1): P("top", "A"), (5, 0): P("bottom", "T"), (0, 0): P("top", "T")}
    assert cap in Position(pieces, to_move="top", setup="free", rules=Rules(t_rank="lowest")).legal_moves()


@pytest.mark.parametrize("t_rank, t_takes_a, a_takes_t, b_takes_t", [
    ("a", True, True, True), ("lowest", False, True, True), ("above-a", True, False, True)])
def test_each_reading_of_the_t_size_decides_captures_with_the_a_and_the_b(t_rank, t_takes_a, a_takes_t, b_takes_t):
    """The book says the five kinds differ in size and the A is the smallest: only 'above-a' keeps both,
    and is the one reading under which an A cannot take a T."""
    rules = Rules(t_rank=t_rank)
    cap = Move((4, 1), (5, 0))

    def legal(mover: str, target: str) -> bool:
        pieces = {(4, 1): P("top", mover), (5, 0): P("bottom", target)}
        if mover != "T":
            pieces[(0, 0)] = P("top", "T")
        if target != "T":
            pieces[(7, 7)] = P("bottom", "T")
        return cap in Position(pieces, to_move="top", setup="free", rules=rules).legal_moves()

    assert (legal("T", "A"), legal("A", "T"), legal("B", "T"), legal("T", "T"), legal("T", "B")) == (
        t_takes_a, a_takes_t, b_takes_t, True, False)


def test_four_players_loser_leaves_with_all_pieces_and_turn_skips_them():
    pos = Position.start("four")
    seats = pos.seats
    assert seats == ("top", "right", "bottom", "left")
    pieces = {
        (4, 1): P("top", "C"),
        (5, 0): P("left", "T"),  # height 3, diagonally below (4,1)
        (1, 0): P("left", "D"),
        (0, 6): P("top", "T"),
        (1, 7): P("right", "T"),
        (7, 1): P("bottom", "T"),
    }
    p = Position(pieces, to_move="top", setup="four")
    after = p.applied(Move((4, 1), (5, 0)))
    assert after.result() is None
    assert all(pc.side != "left" for pc in after.pieces().values())
    assert after.to_move == "right"
    # the eliminated seat is skipped: right, bottom, then top again
    sides = []
    q = after
    for _ in range(3):
        sides.append(q.to_move)
        q = q.applied(q.legal_moves()[0])
    assert sides == ["right", "bottom", "top"]
    # push/pop restores the removed pieces
    p.push(Move((4, 1), (5, 0)))
    p.pop()
    assert p.pieces() == pieces and p.to_move == "top"


def test_last_player_standing_wins():
    pieces = {(4, 1): P("top", "C"), (5, 0): P("left", "T"), (0, 6): P("top", "T")}
    p = Position(pieces, to_move="top", setup="free4")
    res = p.applied(Move((4, 1), (5, 0))).result()
    assert res.winner == "top" and res.reason == "last-standing"


def test_no_move_ever_crosses_the_centre_diagonally():
    """Each centre square's diagonal partner is level with it, so only the centre rule keeps a
    lone piece there from sliding across (every side, every size, the other squares empty)."""
    partner = {(3, 3): (4, 4), (4, 4): (3, 3), (3, 4): (4, 3), (4, 3): (3, 4)}
    for sq, across in partner.items():
        for side in ("top", "bottom"):
            for token in ("A", "B", "C", "D"):
                pos = Position({sq: Piece(side, token)}, to_move=side, setup="free", size=8)
                assert pos.board.height_at(sq) == pos.board.height_at(across)
                moves = {m.to for m in pos.piece_moves(sq)}
                assert across not in moves and moves, (sq, side, token)


# ----- random positions: library vs reference ---------------------------------------------

@st.composite
def random_positions(draw):
    n = draw(st.sampled_from([6, 8, 8, 10]))
    players = draw(st.sampled_from([2, 3, 4]))
    seats = {2: ("top", "bottom"), 3: ("top", "right", "bottom"), 4: ("top", "right", "bottom", "left")}[players]
    squares = [(i, j) for i in range(n) for j in range(n)]
    k = draw(st.integers(min_value=len(seats), max_value=min(3 * n, len(squares))))
    chosen = draw(st.permutations(squares))[:k]
    pieces = {}
    for idx, sq in enumerate(chosen):
        side = seats[idx % len(seats)]
        kind = "T" if idx < len(seats) else draw(st.sampled_from("ABCDT"[:4]))
        pieces[sq] = Piece(side, kind)
    to_move = draw(st.sampled_from(seats))
    return Position(pieces, to_move=to_move, setup={2: "free", 3: "free3", 4: "free4"}[players], size=n)


@settings(max_examples=60, deadline=None)
@given(random_positions())
def test_random_positions_match_reference(pos):
    ref = RefGame({sq: (p.side, p.kind) for sq, p in pos.pieces().items()}, pos.seats, pos.to_move, pos.size)
    assert sorted((m.frm, m.to) for m in pos.legal_moves()) == sorted(ref.moves())


@settings(max_examples=30, deadline=None)
@given(random_positions(), st.integers(0, 2**31))
def test_push_pop_restore_and_apply_agrees(pos, seed):
    rng = random.Random(seed)
    start = pos.key()
    played = []
    for _ in range(12):
        moves = pos.legal_moves()
        if not moves:
            break
        mv = rng.choice(moves)
        assert pos.applied(mv).key() == _pushed_key(pos, mv)
        pos.push(mv)
        played.append(mv)
    for mv in reversed(played):
        assert pos.pop() == mv
    assert pos.key() == start


def _pushed_key(pos, mv):
    pos.push(mv)
    key = pos.key()
    pos.pop()
    return key


def test_move_notation_reads_back():
    import pytest

    from terragen.errors import InputError

    pos = Position.start("full")
    for mv in pos.legal_moves():
        text = pos.san(mv)
        assert pos.parse_move(text) == mv
        assert pos.parse_move(text[1:].replace("-", "").replace("x", "")) == mv
    assert pos.san(pos.parse_move("Da8xb7")) == "Da8xb7"
    for bad in ("Cc8-c5", "Bc8-c6", "z9-a1", "hello", "c3-c4"):
        with pytest.raises(InputError):
            pos.parse_move(bad)
