"""Points: a tile of your colour is worth 2 when it touches another of your colour, else 1.

The tower has no colour and scores for nobody; special tiles score like any
tile of their owner's colour. Colours of families nobody plays (2–3 players)
score for nobody.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from terragen.grids.hex import DIRECTIONS, neighbors
from terragen.terraflip.rules import Board


def colour_points(board: Board, colour: str) -> tuple[int, int]:
    """(points, tiles) for one colour."""
    points = tiles = 0
    cells = board.cells
    for h, p in cells.items():
        if p.up != colour:
            continue
        tiles += 1
        joined = any((n in cells and cells[n].up == colour) for n in neighbors(h))
        points += 2 if joined else 1
    return points, tiles


def all_points(board: Board) -> dict[str, int]:
    """Points of every colour on the table in one pass (the policies' hot path)."""
    out: dict[str, int] = {}
    cells = board.cells
    for (q, r), p in cells.items():
        up = p.up
        joined = False
        for dq, dr in DIRECTIONS:
            n = cells.get((q + dq, r + dr))
            if n is not None and n.up == up:
                joined = True
                break
        out[up] = out.get(up, 0) + (2 if joined else 1)
    return out


def points_near(cells: dict, hexes: Iterable[tuple[int, int]]) -> dict[str, int]:
    """What the tiles on ``hexes`` score, each as :func:`all_points` counts it.

    Why: a tile's points depend only on itself and its six neighbours, so a change at one cell
    changes the points of that cell and its neighbours alone; the players weigh thousands of
    changes a turn, and scoring the whole table for each took most of a game's time."""
    out: dict[str, int] = {}
    get = cells.get
    rings = _RINGS
    for h in hexes:
        p = get(h)
        if p is None:
            continue
        up = p.up
        joined = False
        for n in rings.get(h) or _ring(h):
            t = get(n)
            if t is not None and t.up == up:
                joined = True
                break
        out[up] = out.get(up, 0) + (2 if joined else 1)
    return out


_RINGS: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
_AROUND: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}


def _ring(h: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """``h``'s six neighbours, made once per cell: the scoring above asks for them millions of times
    a run, and adding the directions anew each time was most of its work."""
    ring = _RINGS.get(h)
    if ring is None:
        q, r = h
        ring = _RINGS[h] = tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)
    return ring


def around(h: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """``h`` and its six neighbours: the cells whose points a change at ``h`` can move."""
    near = _AROUND.get(h)
    if near is None:
        near = _AROUND[h] = (h, *_ring(h))
    return near


def shifted(points: dict[str, int], before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """``points`` with some tiles' points ``before`` a change replaced by theirs ``after`` it."""
    out = dict(points)
    for c, v in before.items():
        out[c] -= v
    for c, v in after.items():
        out[c] = out.get(c, 0) + v
    return out


@dataclass(frozen=True)
class Standing:
    seat: int
    colour: str
    points: int
    tiles: int
    bonus: int

    @property
    def total(self) -> int:
        return self.points + self.bonus


def standings(board: Board, colours: tuple[str, ...], bonuses: tuple[int, ...]) -> list[Standing]:
    out = []
    for seat, c in enumerate(colours):
        pts, tiles = colour_points(board, c)
        out.append(Standing(seat, c, pts, tiles, bonuses[seat]))
    return out


def winners(rows: list[Standing], with_bonus: bool = True) -> list[int]:
    """Seats that win: most points, ties broken by most tiles; a tie on both is shared."""
    key = [((r.total if with_bonus else r.points), r.tiles) for r in rows]
    best = max(key)
    return [r.seat for r, k in zip(rows, key) if k == best]
