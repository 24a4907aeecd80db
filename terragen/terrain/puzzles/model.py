"""The puzzle record every kind returns, and the random boards puzzles are set on.

A puzzle is a Terrain Game layout with one player (start = a corner, one
destination = the goal) plus the kind's question data, its proven solution
and its metrics. The layout part is exactly the JSON contract's layout, so any
tool that reads layouts (validate, render) reads a puzzle's board too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from terragen.terrain.board import Board
from terragen.terrain.layout import Destination, Layout, Player

from terragen.terrain.formats_json import SCENARIO_VERSION

#: the version a scenario file is written with (read back by formats_json, which owns the number)
SCHEMA_VERSION = SCENARIO_VERSION


def scenario_ident(index: int, kind: str) -> str:
    """A scenario's id and file stem, ``00007-route``: what a batch names its files by."""
    return f"{index:05d}-{kind}"


@dataclass
class Puzzle:
    """One finished scenario: board, question, unique solution, metrics (with the grade)."""

    kind: str
    difficulty: str
    seed: int
    index: int
    layout: Layout
    question: str
    puzzle: dict[str, Any]
    solution: dict[str, Any]
    metrics: dict[str, Any] = field(default_factory=dict)

    @property
    def ident(self) -> str:
        return scenario_ident(self.index, self.kind)

    def to_data(self) -> dict[str, Any]:
        """The scenario file's content (layout in the contract's JSON form)."""
        from terragen.terrain.formats_json import layout_to_data

        return {
            "game": "terrain-puzzle",
            "version": SCHEMA_VERSION,
            "id": self.ident,
            "kind": self.kind,
            "difficulty": self.difficulty,
            "seed": self.seed,
            "index": self.index,
            "question": self.question,
            "layout": layout_to_data(self.layout),
            "puzzle": self.puzzle,
            "solution": self.solution,
            "metrics": self.metrics,
        }


def puzzle_rng(seed: int, index: int, kind: str) -> random.Random:
    """The only randomness of scenario ``index``: derived from (seed, index), never from a worker."""
    return random.Random(f"terragen-batch:{seed}:{index}:{kind}")


def random_board(rng: random.Random, radius: int, roughness: float, shape: str = "none") -> Board:
    """A full board from the generator's randomized construction (standard inventory, random rotations)."""
    from terragen.terrain.generate.construct import construct
    from terragen.terrain.generate.spec import Spec

    spec = Spec(players=2, radius=radius, shape=shape)
    return construct(spec, _standard_inventory(), rng, roughness).board


@lru_cache(maxsize=1)
def _standard_inventory():
    """The standard 96-piece set, read once per process (every board of a batch uses it)."""
    from terragen.terrain.pieces import standard_inventory

    return standard_inventory()


def board_layout(board: Board, corner: int, goal: int) -> Layout:
    """The board as a layout: piece ids numbered in reading order, one player at ``corner`` heading for ``goal``."""
    layout = Layout(board.radius, board.numbered_cells())
    layout.players.append(Player(0, corner, [Destination(*board.hexes[goal])]))
    return layout


def hexes(board: Board, cells: list[int] | tuple[int, ...]) -> list[list[int]]:
    return [list(board.hexes[i]) for i in cells]
