"""Helpers to lay out TerraFlip positions by hand, as the rulebook's pictures do."""

from __future__ import annotations

import pytest

from terragen.terraflip.model import FAMILIES, TileSet, default_tileset, regular_id, special_id
from terragen.terraflip.rules import Board, Options, Placed
from terragen.terraflip.state import PLACE, GameState


class Table:
    """Builds a GameState tile by tile: ``put(pos, family, up, hidden)`` takes the next unused
    regular tile of ``family`` and makes its faces what the test needs."""

    def __init__(self, players: int = 4, options: Options | None = None) -> None:
        self.players = players
        self.options = options or Options()
        self.backs = dict(default_tileset().backs)
        self.cells: dict = {}
        self.next_index = {f: 1 for f in FAMILIES}

    def put(self, pos, family, up=None, hidden=None, kind="regular"):
        up = up or family
        if kind != "regular":
            self.cells[pos] = (special_id(family, kind), family)
            return special_id(family, kind)
        tid = regular_id(family, self.next_index[family])
        self.next_index[family] += 1
        back = hidden if up == family else up
        if back is None:
            back = next(c for c in FAMILIES if c != family)
        self.backs[tid] = back
        self.cells[pos] = (tid, up)
        return tid

    def hand_tile(self, family, back=None):
        """Reserve the next regular tile of ``family`` for a hand, with the given back."""
        tid = regular_id(family, self.next_index[family])
        self.next_index[family] += 1
        if back is not None:
            self.backs[tid] = back
        return tid

    def state(self, seat: int) -> GameState:
        tileset = TileSet(tuple(sorted(self.backs.items())))
        st = GameState.new(self.players, tileset, self.options)
        st.board = Board({pos: Placed(tileset.tile(tid), up) for pos, (tid, up) in self.cells.items()})
        for hand in st.hands:
            for tid, _ in self.cells.values():
                if tid in hand:
                    hand.remove(tid)
        st.current, st.phase = seat, PLACE
        return st


@pytest.fixture
def table():
    return Table
