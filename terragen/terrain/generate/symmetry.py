"""Symmetric boards: seats that are images of each other win equally often by construction.

Why. Tuning destinations against simulated win rates has to beat the noise of the
simulation seat by seat, and with 3-6 seats that noise is as large as the margin. On a
board that a rotation or a mirror maps onto itself, with every seat's corner and
destinations mapped onto another seat's, two seats related by that map play the same
game: same terrain, same distances, same dice odds, with the opener rotating. Their win
rates are equal for any players who decide by the board alone, whatever the spread,
the send-backs or the rotations on doubles. Only seats in different *classes* (orbits
of the map) are left to tune, and their rates can be pooled over the class.

What the inventory allows. The boxed set holds three copies of each (level, pattern),
and a symmetric board needs whole orbits of equal pieces, so not every symmetry fits:

* turning by 120 degrees: 30 orbits of three cells (three copies of one kind each) and the
  centre (a ``D`` piece, the only pattern a third of a turn maps onto itself). Fits; it
  serves 3 seats (corners 0, 2, 4: one class), 6 seats (two classes) and 5 seats with
  corner 5 left empty (two classes whose seats differ in their neighbours, see
  ``symmetry_for``).
* a mirror through two opposite corners: 40 pairs of cells and the 11 cells on the axis.
  A mirror turns pattern ``B`` into ``C`` (and ``A``, ``D`` into themselves), so the pairs
  take every ``B``/``C`` pair and one ``A``/``A`` and one ``D``/``D`` pair per level, and the
  axis takes the odd ``A`` and ``D`` copies. Fits exactly; it serves 4 seats (corners
  0, 1, 3, 4: classes {0, 4} and {1, 3}) and 5 seats with destinations on the opposite
  corners (classes {0, 4}, {1, 3}, {2}; a mirror reverses their order of play).
* a half turn or a mirror between corners would need 45 or 43 equal pairs (there are 32
  and 40), and the six-fold turn six copies of a kind: none fits. So two seats on
  opposite corners have no symmetry; by default two seats start on corners 0 and 2,
  which the mirror through corners 1 and 4 swaps (one class: fair by construction; with
  two seats a mirror cannot reverse the order of play).

The map acts on axial coordinates through the directions: a symmetry is a permutation
``sigma`` of the six directions that keeps the hex lattice (a turn ``d -> d + m`` or a
mirror ``d -> 2a - d``), and ``(q, r) = q*E0 + r*E5`` maps to ``q*E[sigma 0] + r*E[sigma 5]``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from terragen.grids import hex as hx
from terragen.terrain.pieces import PATTERNS, exit_mask
from terragen.terrain.work_meter import COSTS, charge

Kind = tuple[int, str]
Perm = tuple[int, ...]

def turn(m: int) -> Perm:
    """The turn by ``m`` sixths of a circle, as a direction permutation."""
    return tuple((d + m) % 6 for d in range(6))


def mirror(axis: int) -> Perm:
    """The mirror through corners ``axis`` and ``axis + 3``."""
    return tuple((2 * axis - d) % 6 for d in range(6))


def map_hex(h: hx.Hex, perm: Perm) -> hx.Hex:
    e = hx.DIRECTIONS
    q, r = h
    a, b = e[perm[0]], e[perm[5]]
    return (q * a[0] + r * b[0], q * a[1] + r * b[1])


def map_mask(mask: int, perm: Perm) -> int:
    out = 0
    for d in range(6):
        if mask >> d & 1:
            out |= 1 << perm[d]
    return out


_BY_MASK: dict[int, tuple[str, int]] = {}
for _p in PATTERNS:
    for _k in range(6):
        _BY_MASK.setdefault(exit_mask(_p, _k), (_p, _k))


def map_piece(pattern: str, rotation: int, perm: Perm) -> tuple[str, int]:
    """The (pattern, rotation) whose exits are the image of this piece's exits."""
    return _BY_MASK[map_mask(exit_mask(pattern, rotation), perm)]


def map_kind(kind: Kind, perm: Perm) -> Kind:
    return (kind[0], map_piece(kind[1], 0, perm)[0])


@dataclass(frozen=True)
class Symmetry:
    """A group of board maps (``perms``, identity first) and what it does to cells and seats."""

    name: str
    perms: tuple[Perm, ...]
    radius: int
    corners: tuple[int, ...]
    #: corners the group moves seats to but no player takes (five seats on a board a turn by 120
    #: degrees maps onto itself: corner 5); their seats are left out of the classes, and the seats of
    #: a class are then images of each other in terrain and destinations only, not in who sits beside
    #: them (see ``symmetry_for``)
    vacant: tuple[int, ...] = ()

    @property
    def hexes(self) -> list[hx.Hex]:
        return hx.board_cells(self.radius)

    def cell_maps(self) -> tuple[tuple[int, ...], ...]:
        """Per group element, cell index -> image cell index (board reading order)."""
        return _cell_maps(self.perms, self.radius)

    def seat_maps(self) -> list[list[int]]:
        """Per group element, seat -> the seat whose corner is the image of this seat's corner
        (the vacant corners count as seats after the real ones)."""
        every = self.corners + self.vacant
        where = {c: s for s, c in enumerate(every)}
        return [[where[p[c]] for c in every] for p in self.perms]

    def classes(self) -> list[list[int]]:
        """The seats that are images of each other (orbits, the vacant corners' seats left out),
        each sorted, ordered by lowest seat."""
        n = len(self.corners)
        return [c for c in ([s for s in orbit if s < n] for orbit in _orbits(self.seat_maps())) if c]

    def orbits(self) -> list[list[int]]:
        """Cells that are images of each other, each sorted, in order of lowest cell."""
        return _orbits(self.cell_maps())

    def describe(self) -> str:
        classes = self.classes()
        corners = self.corners
        # in words, not Python's set braces ("seat classes by corner {0, 4} {1, 3}")
        parts = [_corners_words([corners[s] for s in c]) for c in classes]
        empty = "".join(f"; corner {c} empty" for c in self.vacant)
        return f"{self.name}; seat classes: {'; '.join(parts)}{empty}"


def _corners_words(corners: list[int]) -> str:
    """``corners 0, 2 and 4``, ``corners 1 and 3``, ``corner 2 alone``."""
    if len(corners) == 1:
        return f"corner {corners[0]} alone"
    return "corners " + ", ".join(map(str, corners[:-1])) + f" and {corners[-1]}"


@lru_cache(maxsize=32)
def _cell_maps(perms: tuple[Perm, ...], radius: int) -> tuple[tuple[int, ...], ...]:
    hexes = hx.board_cells(radius)
    index = {h: i for i, h in enumerate(hexes)}
    return tuple(tuple(index[map_hex(h, p)] for h in hexes) for p in perms)


def _orbits(maps: Sequence[Sequence[int]]) -> list[list[int]]:
    """The orbits of the points 0..n-1 under ``maps`` (one image list per group element)."""
    seen: set[int] = set()
    out = []
    for i in range(len(maps[0])):
        if i not in seen:
            orbit = sorted({m[i] for m in maps})
            seen.update(orbit)
            out.append(orbit)
    return out


def _group(perm: Perm) -> tuple[Perm, ...]:
    """The cyclic group ``perm`` generates, identity first."""
    ident = tuple(range(6))
    out = [ident]
    p = perm
    while p != ident:
        out.append(p)
        p = tuple(perm[d] for d in p)
    return tuple(out)


CANDIDATES: tuple[tuple[str, Perm], ...] = (
    ("turn by 120 degrees", turn(2)),
    ("mirror through corners 2 and 5", mirror(2)),
    ("mirror through corners 0 and 3", mirror(0)),
    ("mirror through corners 1 and 4", mirror(1)),
)


def keeps_order(sym: Symmetry) -> bool:
    """Whether every map moves each seat the same number of places on in the order of play
    (the vacant corners' seats counted after the real ones). Then the seats it relates also
    play in the same turn order: a turn of seats in corner order does, and so does a mirror of
    four seats seated 0, 1, 4, 3 or of two seats."""
    maps = sym.seat_maps()
    n = len(maps[0])
    return all(m == [(s + m[0]) % n for s in range(n)] for m in maps)


def symmetry_for(radius: int, corners: list[int], counts: dict[Kind, int],
                 vacant_corner: bool = True) -> Symmetry | None:
    """The symmetry that leaves fewest seat classes for these corners and fits the
    inventory ``counts``; None when none merges any seats (then tuning alone balances).

    Five seats: no map of the board keeps five corners and the order of play (a mirror fixes
    one corner and reverses the order around it, which sets mirrored seats up to 6 points
    apart). So, where the corners in the order of play run round the board one after the
    other and the corner left over comes after the last of them (as five seats on corners
    0-4 do), the board is built as six seats' would be, turned by 120 degrees onto itself,
    with the sixth corner left empty (``Symmetry.vacant``): two classes of seats, every seat's
    terrain and destinations an image of its class's, the order of play kept. What differs
    within a class is who sits beside a seat: the seats next to the empty corner meet fewer
    tokens, so the class search's fresh checks judge those classes seat by seat. Why: on four
    six-seat boards with one seat taken away, untuned for five, two were BALANCED for greedy
    and solitary players as they stood, where the mirror's seat-by-seat tuning reached 16 of
    40 (``bench/README.md``, "Five seats on a turned board with one corner empty").
    ``vacant_corner=False`` leaves this out (destinations on the opposite corners: the seat
    facing the empty corner takes the corner itself, the others the cell inside theirs)."""
    best = _exact_symmetry(radius, corners, counts)
    if best is not None and keeps_order(best) or not vacant_corner:
        return best
    return _symmetry_with_vacant_corner(radius, corners, counts) or best


def _symmetry_with_vacant_corner(radius: int, corners: list[int], counts: dict[Kind, int]) -> Symmetry | None:
    """The turn by 120 degrees with the one corner no seat takes left empty, when the seats'
    corners in the order of play and that corner go round the board in one direction."""
    vacant = [c for c in range(6) if c not in corners]
    if len(vacant) != 1:
        return None
    ring = list(corners) + vacant
    if not (all((b - a) % 6 == 1 for a, b in zip(ring, ring[1:] + ring[:1]))
            or all((a - b) % 6 == 1 for a, b in zip(ring, ring[1:] + ring[:1]))):
        return None
    name, perm = CANDIDATES[0]
    sym = Symmetry(name, _group(perm), radius, tuple(corners), tuple(vacant))
    if not keeps_order(sym) or allocate(sym, counts, random.Random(0), {}) is None:
        return None
    return sym


def _exact_symmetry(radius: int, corners: list[int], counts: dict[Kind, int]) -> Symmetry | None:
    """The map that keeps the corners and leaves fewest seat classes, among those that fit."""
    best: Symmetry | None = None
    for name, perm in CANDIDATES:
        group = _group(perm)
        if any(sorted(p[c] for c in corners) != sorted(corners) for p in group):
            continue
        sym = Symmetry(name, group, radius, tuple(corners))
        if len(sym.classes()) == len(corners):
            continue
        if allocate(sym, counts, random.Random(0), {}) is None:
            continue
        if best is None or len(sym.classes()) < len(best.classes()):
            best = sym
    return best


# ---- building a symmetric board -------------------------------------------------------------

def _orbit_layout(sym: Symmetry) -> list[tuple[int, list[tuple[int, Perm]]]]:
    """Per orbit: its representative cell and, per orbit cell, a group element mapping the
    representative there."""
    maps = sym.cell_maps()
    out = []
    for orbit in sym.orbits():
        rep = orbit[0]
        images: dict[int, Perm] = {}
        for m, p in zip(maps, sym.perms):
            images.setdefault(m[rep], p)
        out.append((rep, sorted(images.items())))
    return out


def _stabiliser(sym: Symmetry, cell: int) -> list[Perm]:
    maps = sym.cell_maps()
    return [p for m, p in zip(maps, sym.perms) if m[cell] == cell and p != tuple(range(6))]


def invariant_rotations(pattern: str, stab: list[Perm]) -> list[int]:
    """Rotations of ``pattern`` whose exits every map in ``stab`` leaves in place."""
    out = []
    seen = set()
    for k in range(6):
        m = exit_mask(pattern, k)
        if m in seen:
            continue
        seen.add(m)
        if all(map_mask(m, p) == m for p in stab):
            out.append(k)
    return out


def _needs(kind: Kind, images: list[tuple[int, Perm]]) -> Counter:
    return Counter(map_kind(kind, p) for _, p in images)


def allocate(sym: Symmetry, counts: dict[Kind, int], rng: random.Random,
             heights: dict[int, float]) -> dict[int, Kind] | None:
    """A kind for every orbit representative, lower orbits (by ``heights`` of their
    representatives) getting lower levels; None when the inventory cannot fill the orbits."""
    layout = _orbit_layout(sym)
    free = [(rep, imgs) for rep, imgs in layout if not _stabiliser(sym, rep)]
    fixed = [(rep, imgs) for rep, imgs in layout if _stabiliser(sym, rep)]
    left = Counter({k: n for k, n in counts.items() if n > 0})
    # whole units for the free orbits (every free orbit of a group has the same shape)
    units: list[Kind] = []
    if free:
        shape = free[0][1]
        for kind in sorted(left):
            while True:
                need = _needs(kind, shape)
                if any(left[k] < n for k, n in need.items()):
                    break
                left -= need
                units.append(kind)
    # singles for the fixed orbits: kinds with an invariant rotation, breaking units if needed
    def fixed_ok(kind: Kind, rep: int) -> bool:
        return bool(invariant_rotations(kind[1], _stabiliser(sym, rep)))

    spare_units = len(units) - len(free)
    if spare_units < 0:
        return None
    fixed_kinds: list[Kind] = []
    for rep, imgs in fixed:
        pool = sorted(k for k in left if fixed_ok(k, rep) and all(left[x] >= n for x, n in _needs(k, imgs).items()))
        if not pool and spare_units > 0:
            breakable = [k for k in units if fixed_ok(k, rep)]
            if breakable:
                mid = sorted(breakable)[len(breakable) // 2]
                units.remove(mid)
                spare_units -= 1
                left += _needs(mid, free[0][1])
                pool = sorted(k for k in left if fixed_ok(k, rep)
                              and all(left[x] >= n for x, n in _needs(k, imgs).items()))
        if not pool:
            return None
        fixed_kinds.append(pool[0])
        left -= _needs(pool[0], imgs)
    # levels follow heights: spread the fixed picks over the levels left, then re-pick
    for (rep, imgs), kind in zip(fixed, fixed_kinds):
        left += _needs(kind, imgs)
    order_fixed = sorted(range(len(fixed)), key=lambda k: (heights.get(fixed[k][0], 0.0), fixed[k][0]))
    chosen: dict[int, Kind] = {}
    for rank, k in enumerate(order_fixed):
        rep, imgs = fixed[k]
        pool = sorted(x for x in left if fixed_ok(x, rep) and all(left[y] >= n for y, n in _needs(x, imgs).items()))
        if not pool:
            return None
        want = min(len(pool) - 1, int((rank + 0.5) / len(fixed) * len(pool)))
        kind = pool[want]
        chosen[rep] = kind
        left -= _needs(kind, imgs)
    # free units: drop the surplus evenly over the levels, then lay by height
    units.sort(key=lambda k: (k[0], rng.random()))
    while len(units) > len(free):
        units.pop(int(rng.random() * len(units)))
    order_free = sorted(free, key=lambda f: (heights.get(f[0], 0.0), f[0]))
    for (rep, _), kind in zip(order_free, units):
        chosen[rep] = kind
    return chosen


def symmetric_pieces(sym: Symmetry, counts: dict[Kind, int], rng: random.Random,
                     heights: dict[int, float]) -> tuple[list[tuple[int, str, int]], list[Kind]] | None:
    """(level, pattern, rotation) per cell in board order and the spares, or None."""
    chosen = allocate(sym, counts, rng, heights)
    if chosen is None:
        return None
    n = len(sym.hexes)
    out: list[tuple[int, str, int] | None] = [None] * n
    used: Counter = Counter()
    for rep, imgs in _orbit_layout(sym):
        kind = chosen[rep]
        stab = _stabiliser(sym, rep)
        rots = invariant_rotations(kind[1], stab) if stab else list(range(6))
        rot = rng.choice(rots)
        for cell, p in imgs:
            pat, k = map_piece(kind[1], rot, p)
            out[cell] = (kind[0], pat, k)
            used[(kind[0], pat)] += 1
    spares: list[Kind] = []
    for kind in sorted(counts):
        spares.extend([kind] * (counts[kind] - used[kind]))
    return [o for o in out if o is not None], spares


def sixfold_pieces(sym: Symmetry, counts: dict[Kind, int], rng: random.Random,
                   heights: dict[int, float]) -> tuple[list[tuple[int, str, int]], list[Kind]] | None:
    """For the turn by 120 degrees: pieces whose *levels* a turn by 60 degrees also keeps.

    Why: the 120-degree turn makes seats 0, 2, 4 alike and seats 1, 3, 5 alike, but the
    two classes still play different terrain, and which class is ahead then depends on
    how the players use rotations (greedy and solitary players can disagree by 5 points).
    The inventory cannot make the whole board six-fold (six equal pieces per orbit), but
    it can make the heights six-fold: each 60-degree orbit of six cells takes two kinds
    of one level, three copies each, the second turned to share as many exits as it can
    with the first one's image. Costs and elevation routes are then the same from every
    corner, and the classes differ only in a pip here and there. None when the
    inventory does not split that way.
    """
    hexes = sym.hexes
    index = {h: i for i, h in enumerate(hexes)}
    six = turn(1)
    centre = index[(0, 0)]
    seen: set[int] = {centre}
    orbits6: list[list[int]] = []
    for i, h in enumerate(hexes):
        if i in seen:
            continue
        orb = [index[hx.rotate(h, k)] for k in range(6)]
        seen.update(orb)
        orbits6.append(orb)
    by_level: dict[int, list[str]] = {}
    for (level, pattern), n in sorted(counts.items()):
        if n >= 3:
            by_level.setdefault(level, []).append(pattern)
    levels = sorted(by_level)
    if not levels or not any("D" in by_level[lv] for lv in levels):
        return None
    mid = sorted((lv for lv in levels if "D" in by_level[lv]), key=lambda lv: (abs(lv - levels[len(levels) // 2]), lv))[0]
    units: list[tuple[int, str, str]] = []
    for lv in levels:
        pats = [p for p in by_level[lv] if not (lv == mid and p == "D" and counts[(lv, "D")] < 4)]
        rng.shuffle(pats)
        for a in range(0, len(pats) - 1, 2):
            units.append((lv, pats[a], pats[a + 1]))
    if len(units) < len(orbits6):
        return None
    units.sort(key=lambda u: (u[0], rng.random()))
    while len(units) > len(orbits6):
        units.pop(int(rng.random() * len(units)))
    out: list[tuple[int, str, int] | None] = [None] * len(hexes)
    out[centre] = (mid, "D", rng.randrange(2))
    order = sorted(orbits6, key=lambda o: (sum(heights.get(i, 0.0) for i in o), o[0]))
    for orb, (lv, p1, p2) in zip(order, units):
        r1 = rng.randrange(6)
        want = map_mask(exit_mask(p1, r1), six)
        best = max(range(6), key=lambda r: (bin(exit_mask(p2, r) & want).count("1"), rng.random()))
        for k, cell in enumerate(orb):  # orb[k] is the representative turned by k sixths
            pat, rot = (p1, r1) if k % 2 == 0 else (p2, best)
            out[cell] = (lv, pat, (rot + (k // 2) * 2) % 6)
    used: Counter = Counter((p[0], p[1]) for p in out if p is not None)
    if any(used[k] > counts.get(k, 0) for k in used):
        return None
    spares: list[Kind] = []
    for kind in sorted(counts):
        spares.extend([kind] * (counts[kind] - used[kind]))
    return [p for p in out if p is not None], spares


class Mirror:
    """Keeps a candidate symmetric: after a move, carries every changed cell and seat over to
    its images and says whether the result is still a legal symmetric board."""

    def __init__(self, sym: Symmetry) -> None:
        self.sym = sym
        self.maps = sym.cell_maps()
        self.seat_maps = sym.seat_maps()
        self.classes = sym.classes()
        self.stab = {i: _stabiliser(sym, i) for i in range(len(self.maps[0]))}
        #: whether every map moves each seat the same number of places on in the order of play
        #: (then the seats it relates also play in the same turn order: a turn of seats in corner
        #: order does, and so does a mirror of four seats seated 0, 1, 4, 3 or of two seats)
        self.keeps_order = keeps_order(sym)
        #: whether the seats of a class are images of each other only in terrain and destinations
        #: (a vacant corner beside some of them): their rates are then checked seat by seat
        self.approximate = bool(sym.vacant)
        self.orbit_of = {}
        for orbit in sym.orbits():
            for i in orbit:
                self.orbit_of[i] = orbit

    def seat_images(self, seat: int, dests: list[int]) -> dict[int, list[int]]:
        """Destinations of every seat in ``seat``'s class, as images of ``dests``."""
        out = {seat: list(dests)}
        n = len(self.sym.corners)
        for m, cells in zip(self.seat_maps, self.maps):
            t = m[seat]
            if t not in out and t < n:
                out[t] = [cells[g] for g in dests]
        return out

    def with_class(self, dests: list[list[int]], seat: int, new: list[int]) -> list[list[int]] | None:
        """``dests`` with ``seat``'s class moved to images of ``new``; None when two seats would
        share a cell or an image lands on a start."""
        out = [list(d) for d in dests]
        for t, ds in self.seat_images(seat, new).items():
            out[t] = ds
        flat = [g for ds in out for g in ds]
        if len(flat) != len(set(flat)):
            return None
        return out

    def restore(self, before, after) -> bool:
        """Make ``after`` (a candidate one move from symmetric ``before``) symmetric again by
        copying each changed cell and seat to its images; False when that is impossible
        (a move across orbits of different sizes, a fixed cell turned off its axis)."""
        charge(COSTS["symmetry_restore"])
        b0, b1 = before.board, after.board
        changed = [i for i in range(len(b1)) if (b0.level[i], b0.pattern[i], b0.rotation[i])
                   != (b1.level[i], b1.pattern[i], b1.rotation[i])]
        touched: set[int] = set()
        for i in changed:
            if i in touched:
                continue
            for orbit_cell in self.orbit_of[i]:
                touched.add(orbit_cell)
            for cells, p in zip(self.maps, self.sym.perms):
                j = cells[i]
                if j == i:
                    continue
                pat, k = map_piece(b1.pattern[i], b1.rotation[i], p)
                if (b1.level[j], b1.pattern[j], b1.rotation[j]) != (b1.level[i], pat, k):
                    b1.set_piece(j, b1.level[i], pat, k)
        for i in touched:
            for p in self.stab[i]:
                if map_mask(b1.mask[i], p) != b1.mask[i]:
                    return False
        if Counter(zip(b1.level, b1.pattern)) + Counter(after.spares) != \
                Counter(zip(b0.level, b0.pattern)) + Counter(before.spares):
            return False
        for seat, (d0, d1) in enumerate(zip(before.dests, after.dests)):
            if d0 != d1:
                moved = self.with_class(after.dests, seat, d1)
                if moved is None or any(g in after.starts for ds in moved for g in ds):
                    return False
                after.dests = moved
                break
        return True

    def is_symmetric(self, cand) -> bool:
        b = cand.board
        for i in range(len(b)):
            for cells, p in zip(self.maps, self.sym.perms):
                j = cells[i]
                if b.level[j] != b.level[i] or b.mask[j] != map_mask(b.mask[i], p):
                    return False
        for seat, ds in enumerate(cand.dests):
            for t, img in self.seat_images(seat, ds).items():
                if sorted(cand.dests[t]) != sorted(img):
                    return False
        return True
