"""Builders for small simulator scenarios: hand-made layouts and scripted players."""

from __future__ import annotations

import random

from terragen.grids import hex as hx
from terragen.terrain.layout import Cell, Destination, Layout, Player
from terragen.terrain.sim import Rules
from terragen.terrain.sim.engine import apply_action
from terragen.terrain.sim.policies import BasePolicy, ExpertPolicy
from terragen.terrain.sim.runner import _setup_and_tables
from terragen.terrain.sim.state import GameState
from tests.terrain.helpers import random_layout, with_players

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


def random_game_state(seed: int) -> GameState:
    """A game part-way through on a random board: pieces turned (a few upside down), tokens and
    collections at random."""
    rng = random.Random(seed)
    layout = random_layout(seed, radius=rng.choice((3, 4)), levels=rng.choice(((1, 4), (1, 6), (1, 8))))
    cells = [(c.q, c.r) for c in layout.cells]
    corners = rng.sample(range(6), rng.randint(2, 4))
    starts = {hx.corner(layout.radius, k) for k in corners}
    free = [h for h in cells if h not in starts]
    with_players(layout, [(k, rng.sample(free, rng.randint(1, 3))) for k in corners])
    setup, template = _setup_and_tables(layout, Rules())
    state = GameState.new(setup, Rules(), random.Random(seed), template)
    n = len(state.board)
    for _ in range(rng.randint(0, 8)):
        cell = rng.randrange(n)
        if state.board.passable(cell):
            apply_action(state, ("rotate", cell, (state.board.rotation[cell] + rng.randint(1, 5)) % 6))
        if rng.random() < 0.15:  # now and then a piece turned upside down (out of play), as a double 6 may
            cell = rng.randrange(n)
            if state.board.passable(cell):
                apply_action(state, ("invert", cell))
    state.occupant.clear()
    standing = [c for c in range(n) if state.board.passable(c)]  # (no token stands on a piece upside down)
    for seat in range(setup.players):
        state.pos[seat] = rng.choice(standing)
        state.collected[seat] = rng.randrange(1 << len(setup.groups[seat]) - 1) if len(setup.groups[seat]) > 1 else 0
        state.occupant[state.pos[seat]] = seat
    return state


def option_sets(state: GameState, seat: int, rng: random.Random):
    """What the engine may offer a seat to move to: every cell within each roll's points, and some
    of them (a start within reach is no legal end)."""
    for points in range(7):
        within = state.cache.within(state.pos[seat], points)
        yield dict(within)
        yield {q: c for q, c in within.items() if rng.random() < 0.7} or dict(within)


def game_fields(games) -> list[tuple]:
    """What two runs of the same games must agree on, game by game (who won, when, and what was done)."""
    return [(g.winners, g.rounds, g.turns, g.rotations, g.forfeits, g.total_turns) for g in games]
