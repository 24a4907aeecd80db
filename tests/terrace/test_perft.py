"""Perft from the three set-ups, checked against the naive reference generator."""

from __future__ import annotations

import pytest

from terragen.terrace.perft import divide, perft
from terragen.terrace.position import Position

from .reference import RefGame, ref_perft

# Figures produced by terragen and confirmed by the reference generator below.
EXPECTED = {
    "full": [1, 50, 2450, 127166],
    "short": [1, 31, 961, 32970],
    "four": [1, 25, 605, 14501],
    "three": [1, 28, 680, 18341],
}


def ref_start(pos: Position) -> RefGame:
    pieces = {sq: (p.side, p.kind) for sq, p in pos.pieces().items()}
    return RefGame(pieces, pos.seats, pos.to_move, pos.size)


@pytest.mark.parametrize("setup", ["full", "short", "four", "three"])
def test_perft_to_depth_3_matches_reference(setup):
    pos = Position.start(setup)
    got = [perft(pos, d) for d in range(4)]
    assert got == EXPECTED[setup]
    ref = ref_start(pos)
    assert [ref_perft(ref, d) for d in range(4)] == got


@pytest.mark.parametrize("n", [6, 10, 12])
@pytest.mark.parametrize("setup", ["full", "short", "four"])
def test_perft_other_sizes_match_reference(setup, n):
    pos = Position.start(setup, n)
    ref = ref_start(pos)
    assert [perft(pos, d) for d in range(3)] == [ref_perft(ref, d) for d in range(3)]


def test_divide_sums_to_perft_and_leaves_position_unchanged():
    pos = Position.start("short")
    before = pos.key()
    rows = divide(pos, 2)
    assert sum(c for _, c in rows) == perft(pos, 2)
    assert len(rows) == len(pos.legal_moves())
    assert pos.key() == before
