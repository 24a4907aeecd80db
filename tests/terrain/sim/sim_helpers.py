"""Builders for small simulator scenarios: hand-made layouts and scripted players."""

from __future__ import annotations

from terragen.grids import hex as hx
from terragen.terrain.layout import Cell, Destination, Layout, Player
from terragen.terrain.sim.policies import BasePolicy, ExpertPolicy

ALL_EXITS = ("D", 0)  # pattern D rotation 0 = exits E, NW, SW; tests set exact rotations where it matters


def make_layout(radius: int, cells: dict | None = None, players: list | None = None,
                level: int = 1, pattern: str = "D", rotation: int = 0) -> Layout:
    """Every cell at ``level``/``pattern``/``rotation`` unless ``cells[(q, r)] = (level, pattern, rotation)``."""
    cells = cells or {}
    layout = Layout(radius)
    for h in hx.board_cells(radius):
        lv, pat, rot = cells.get(h, (level, pattern, rotation))
        layout.cells.append(Cell(h[0], h[1], lv, pat, rot))
    layout.players = [Player(i, corner, [Destination(q, r) for q, r in dests])
                      for i, (corner, dests) in enumerate(players or [])]
    return layout


class Scripted(BasePolicy):
    """Plays the moves (cells as hexes) and rotation actions it is given, in order."""

    def __init__(self, board_index, moves=(), actions=()):
        self.index = board_index
        self.moves = list(moves)
        self.actions = list(actions)
        self.seen_options = []

    def choose_move(self, state, seat, roll, options):
        self.seen_options.append(dict(options))
        target = self.moves.pop(0)
        return state.pos[seat] if target is None else self.index[target]

    def choose_rotation(self, state, seat, roll, options):
        self.seen_options.append(options)
        return self.actions.pop(0) if self.actions else None


class SoloExpert(ExpertPolicy):
    """Moves by the exact table and never rotates: the analysis's own assumptions."""

    def choose_rotation(self, state, seat, roll, options):
        return None
