"""Small builders for test layouts."""

from __future__ import annotations

import random

from terragen.grids import hex as hx
from terragen.terrain.layout import Cell, Destination, Layout, Player
from terragen.templates import template_path

EXAMPLES = template_path("terrain", "examples")


def random_layout(seed: int, radius: int = 5, levels=(1, 8)) -> Layout:
    rng = random.Random(seed)
    layout = Layout(radius)
    for q, r in hx.board_cells(radius):
        layout.cells.append(Cell(q, r, rng.randint(*levels), rng.choice("ABCD"), rng.randrange(6)))
    return layout


def flat_layout(radius: int, level: int = 1, pattern: str = "D", rotation: int = 0) -> Layout:
    return Layout(radius, [Cell(q, r, level, pattern, rotation) for q, r in hx.board_cells(radius)])


def with_players(layout: Layout, spec: list[tuple[int, list[tuple[int, int]]]]) -> Layout:
    layout.players = [Player(i, corner, [Destination(q, r) for q, r in dests]) for i, (corner, dests) in enumerate(spec)]
    return layout
