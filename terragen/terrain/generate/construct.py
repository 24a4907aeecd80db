"""Randomized construction: a first board from a height shape, the inventory and a seed.

Pieces are sorted by level and laid onto cells sorted by a seeded height field
(shape hint + waves + noise), which gives smooth terrain with few cliffs; the
roughness grows with the difficulty so harder specs start with more up-3 steps
and cliffs. Rotations are random. Destinations follow the spec's placement
rule. The result is a :class:`Candidate` that the repair search then fixes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from terragen.errors import InfeasibleError
from terragen.grids import hex as hx
from terragen.plain_text import counted
from terragen.terrain.board import Board
from terragen.terrain.generate.spec import Spec
from terragen.terrain.generate.symmetry import Mirror, Symmetry, sixfold_pieces, symmetric_pieces, symmetry_for, turn
from terragen.terrain.pieces import Inventory

Kind = tuple[int, str]  # (level, pattern)


@dataclass
class Candidate:
    """A full board in the making: pieces on cells, spare pieces, destinations per seat."""

    board: Board
    spares: list[Kind]
    dests: list[list[int]]  # per seat, cell indices
    starts: list[int]  # per seat, cell index of its corner
    locked_kind: set[int] = field(default_factory=set)  # pinned cells: piece fixed
    locked_rot: set[int] = field(default_factory=set)  # pinned with a rotation: rotation fixed
    mirror: Mirror | None = None  # keeps a symmetric board symmetric (symmetry.py)

    def copy(self) -> Candidate:
        return Candidate(self.board.copy(), list(self.spares), [list(d) for d in self.dests], self.starts,
                         self.locked_kind, self.locked_rot, self.mirror)


def set_kind(board: Board, i: int, kind: Kind, rotation: int) -> None:
    """Put a piece of ``kind`` turned by ``rotation`` on cell ``i`` and refresh the arcs around it."""
    board.set_piece(i, kind[0], kind[1], rotation)


def height_field(spec: Spec, rng: random.Random, roughness: float) -> dict[hx.Hex, float]:
    """A seeded height per cell following the spec's shape hint, in roughly 0..1 units."""
    R = spec.radius
    waves = [(rng.uniform(0, 2 * math.pi), rng.uniform(0.25, 0.6), rng.uniform(0, 2 * math.pi)) for _ in range(3)]
    axis = rng.randrange(3)
    out = {}
    for h in hx.board_cells(R):
        x, y = hx.to_pixel(h, 1.0)
        d = hx.length(h) / R
        wave = sum(math.sin(f * (x * math.cos(a) + y * math.sin(a)) + ph) for a, f, ph in waves) / 3
        if spec.shape == "mountain":
            base = 2.0 * (1 - d)
        elif spec.shape == "valley":
            base = 2.0 * d
        elif spec.shape == "ridge":
            c = (h[0], h[1], -h[0] - h[1])[axis]
            base = 2.0 * (1 - abs(c) / R)
        elif spec.shape == "terraces":
            base = 2.0 * round(3 * (1 - d)) / 3
        else:
            base = 0.0
        out[h] = base + 0.8 * wave + rng.uniform(-roughness, roughness)
    return out


def choose_pieces(spec: Spec, inventory: Inventory, rng: random.Random, n_cells: int) -> tuple[list[Kind], list[Kind]]:
    """Pick the pieces that go on the board (pins excluded) and the spares left in the box."""
    pool: list[Kind] = []
    for kind, n in sorted(inventory.counts.items()):
        pool.extend([kind] * n)
    for pin in spec.pins:
        pool.remove((pin.level, pin.pattern))  # bounds.check_bounds made sure it is there
    rng.shuffle(pool)
    free = n_cells - len(spec.pins)
    if len(pool) < free:
        raise InfeasibleError(f"inventory {inventory.name!r} has too few pieces for a radius-{spec.radius} board")
    return pool[:free], pool[free:]


def destination_options(spec: Spec, board: Board, starts: list[int], seat: int) -> list[int]:
    """Cells where seat ``seat``'s destinations may go under the spec's placement rule."""
    return destination_cells(spec, board.hexes, [board.hexes[s] for s in starts], seat)


def destination_cells(spec: Spec, hexes: Sequence[hx.Hex], starts: Sequence[hx.Hex], seat: int) -> list[int]:
    """:func:`destination_options` from the geometry alone (indices into ``hexes``, the seats' start
    cells): the bounds ask it before any board exists."""
    start_hexes = set(starts)
    me = starts[seat]
    out = []
    for i, h in enumerate(hexes):
        if h in start_hexes:
            continue
        if spec.placement == "distance" and hx.distance(h, me) < spec.min_distance:
            continue
        if spec.placement == "free" and hx.distance(h, me) < 2:
            continue  # a destination next to the start is no race
        out.append(i)
    return out


def assign_destinations(options: list[list[int]], need: int, taken: set[int] = frozenset()) -> list[list[int]] | None:
    """``need`` cells for every seat, each cell used once, from the seat's ``options`` (none in
    ``taken``), or None when no such choice exists: a bipartite matching of the seats' slots to
    cells (each seat is ``need`` slots), grown one augmenting path at a time.

    Why: seats chose their destinations one after another, and with a far ``min_distance`` the
    last seats found their cells taken (an internal error), though an assignment existed."""
    slots, holder = _match(options, need, taken)
    if len(holder) < len(slots):
        return None
    out: list[list[int]] = [[] for _ in options]
    for cell, slot in sorted(holder.items()):
        out[slots[slot]].append(cell)
    return out


def most_destinations(options: list[list[int]], need: int) -> int:
    """How many of the seats' ``need`` destinations each can have cells of their own at most."""
    return len(_match(options, need, frozenset())[1])


def _match(options: list[list[int]], need: int, taken: set[int]) -> tuple[list[int], dict[int, int]]:
    """The seats' slots (``need`` per seat) and a largest matching of them to cells: cell -> slot."""
    slots = [s for s in range(len(options)) for _ in range(need)]
    holder: dict[int, int] = {}

    def augment(slot: int, seen: set[int]) -> bool:
        for cell in options[slots[slot]]:
            if cell in taken or cell in seen:
                continue
            seen.add(cell)
            if cell not in holder or augment(holder[cell], seen):
                holder[cell] = slot
                return True
        return False

    for slot in range(len(slots)):
        augment(slot, set())
    return slots, holder


def opposite_cell(spec: Spec, corner: int, starts: set[hx.Hex]) -> hx.Hex:
    """The opposite corner, or (when a player starts there) the cell just inside it."""
    opp = hx.corner(spec.radius, (corner + 3) % 6)
    if opp not in starts:
        return opp
    return hx.corner(spec.radius - 1, (corner + 3) % 6)


def board_symmetry(spec: Spec, inventory: Inventory) -> Symmetry | None:
    """The symmetry a board for ``spec`` is built with (``symmetry = "auto"``): the one that
    merges most seats into classes and fits the inventory; None with pins or fixed
    destinations (the user placed those), or when no symmetry fits."""
    if spec.symmetry == "none" or spec.pins or spec.placement == "fixed":
        return None
    return symmetry_for(spec.radius, spec.seat_corners(), inventory.counts, vacant_corner=spec.placement != "opposite")


class NoSymmetricPlacement(Exception):
    """The spec's destinations found no placement this terrain's symmetry maps onto itself (50
    draws): no proof that the spec is impossible (it was reported as one, exit 3); the search tries
    another terrain, and builds free-form boards when its first ones all miss (``SYMMETRIC_TRIES``)."""


def construct(spec: Spec, inventory: Inventory, rng: random.Random, roughness: float,
              symmetry: Symmetry | None = None) -> Candidate:
    """A complete first board: every cell filled, random rotations, destinations placed;
    with ``symmetry``, a board that symmetry maps onto itself (see symmetry.py)."""
    if symmetry is not None:
        return _construct_symmetric(spec, inventory, rng, roughness, symmetry)
    cells = hx.board_cells(spec.radius)
    board = Board(spec.radius, {h: 1 for h in cells}, {h: "A" for h in cells}, {h: 0 for h in cells})
    pieces, spares = choose_pieces(spec, inventory, rng, len(cells))
    pinned = {(p.q, p.r): p for p in spec.pins}
    heights = height_field(spec, rng, roughness)
    free_cells = sorted((h for h in cells if h not in pinned), key=lambda h: (heights[h], h))
    pieces.sort(key=lambda k: (k[0], rng.random()))
    locked_kind, locked_rot = set(), set()
    for h, kind in zip(free_cells, pieces):
        board.level[board.index[h]], board.pattern[board.index[h]] = kind
    for h, pin in pinned.items():
        i = board.index[h]
        board.level[i], board.pattern[i] = pin.level, pin.pattern
        locked_kind.add(i)
        if pin.rotation is not None:
            locked_rot.add(i)
    for i, h in enumerate(cells):
        rot = pinned[h].rotation if i in locked_rot else rng.randrange(6)
        board.rotation[i] = rot
    board.rebuild()
    starts = [board.index[hx.corner(spec.radius, c)] for c in spec.seat_corners()]
    dests = place_destinations(spec, board, starts, rng)
    return Candidate(board, spares, dests, starts, locked_kind, locked_rot)


def place_destinations(spec: Spec, board: Board, starts: list[int], rng: random.Random,
                       seats: list[int] | None = None) -> list[list[int]]:
    """First destinations per seat under the spec's placement rule (only ``seats``, when
    given; the others get empty lists)."""
    corners = spec.seat_corners()
    dests: list[list[int]] = []
    start_hexes = {hx.corner(spec.radius, c) for c in corners}
    used: set[int] = set()
    drawn = spec.placement not in ("fixed", "opposite")  # each seat's cells the same whatever is taken
    allowed = [destination_options(spec, board, starts, s) for s in range(len(corners))] if drawn else []
    for seat, corner in enumerate(corners):
        if seats is not None and seat not in seats:
            dests.append([])
            continue
        if spec.placement == "fixed":
            assert spec.fixed is not None
            chosen = [board.index[(q, r)] for q, r in spec.fixed[seat]]
        elif spec.placement == "opposite":
            chosen = [board.index[opposite_cell(spec, corner, start_hexes)]]
        else:
            options = [i for i in allowed[seat] if i not in used]
            far = sorted(options, key=lambda i: (-hx.distance(board.hexes[i], board.hexes[starts[seat]]), i))
            pool = far[: max(spec.destinations * 4, len(far) // 3)]
            if spec.destinations > 1:  # a tour over several far cells is far too long: mid-range cells
                R = spec.radius
                mid = [i for i in far if R - 1 <= hx.distance(board.hexes[i], board.hexes[starts[seat]]) <= R + 2]
                pool = mid if len(mid) >= spec.destinations * 2 else pool
            chosen = rng.sample(pool, spec.destinations) if len(pool) >= spec.destinations else []
            later = [s for s in range(seat + 1, len(corners)) if seats is None or s in seats]
            if not chosen or assign_destinations([allowed[s] for s in later], spec.destinations,
                                                 used | set(chosen)) is None:
                # the draw leaves a later seat short (or this one has too few cells left): the
                # first choice that leaves every seat its cells
                fit = assign_destinations([options] + [allowed[s] for s in later], spec.destinations, used)
                if fit is None:
                    raise InfeasibleError(f"placement {spec.placement!r}: too few cells for every seat's "
                                          f"{counted(spec.destinations, 'destination')}")
                chosen = fit[0]
        used.update(chosen)
        dests.append(chosen)
    return dests


def _construct_symmetric(spec: Spec, inventory: Inventory, rng: random.Random, roughness: float,
                         sym: Symmetry) -> Candidate:
    """The same recipe on orbits: heights averaged over each orbit, whole orbits of equal
    pieces laid low to high, one random turn per orbit carried to its images, and the
    destinations of one seat per class carried to the other seats of its class."""
    mirror = Mirror(sym)
    cells = hx.board_cells(spec.radius)
    heights = height_field(spec, rng, roughness)
    by_index = {}
    for orbit in sym.orbits():
        mean = sum(heights[cells[i]] for i in orbit) / len(orbit)
        for i in orbit:
            by_index[i] = mean
    built = None
    sixfold = set(sym.perms[1:]) == {turn(2), turn(4)}  # the turn by 120 degrees: try six-fold heights
    if sixfold:
        built = sixfold_pieces(sym, inventory.counts, rng, {i: heights[h] for i, h in enumerate(cells)})
        sixfold = built is not None
    if built is None:
        built = symmetric_pieces(sym, inventory.counts, rng, by_index)
    if built is None:
        raise InfeasibleError(f"inventory {inventory.name!r} cannot fill a board with {sym.name}")
    pieces, spares = built
    board = Board(spec.radius, {h: p[0] for h, p in zip(cells, pieces)}, {h: p[1] for h, p in zip(cells, pieces)},
                  {h: p[2] for h, p in zip(cells, pieces)})
    starts = [board.index[hx.corner(spec.radius, c)] for c in spec.seat_corners()]
    reps = [c[0] for c in mirror.classes]
    for _ in range(50):
        first = place_destinations(spec, board, starts, rng, reps)
        if sixfold and len(reps) == 2:  # heights are six-fold: the second class starts as the first turned
            corners = spec.seat_corners()
            k = corners[reps[1]] - corners[reps[0]]
            first[reps[1]] = [board.index[hx.rotate(board.hexes[g], k)] for g in first[reps[0]]]
        dests: list[list[int]] | None = [[] for _ in starts]
        for s in reps:
            dests = mirror.with_class(dests, s, first[s]) if dests is not None else None
        if dests is not None and not any(g in starts for ds in dests for g in ds):
            return Candidate(board, spares, dests, starts, set(), set(), mirror)
    raise NoSymmetricPlacement(f"no symmetric destinations found for corners {spec.seat_corners()}")
