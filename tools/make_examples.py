"""Regenerate the shipped example layouts in terragen/data/terrain/examples/.

Valid boards: the standard inventory laid on a smooth seeded height field (so
there are few cliffs), random rotations, and destinations chosen among cells
each player can reach under the pips. Invalid boards: the 2-player example
with one deliberate mistake each, named after the validation code it must
trigger (tests check each triggers exactly that code).

Run: python tools/make_examples.py
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from terragen.grids import hex as hx  # noqa: E402
from terragen.terrain.board import Board  # noqa: E402
from terragen.terrain.formats_text import write_text_layout  # noqa: E402
from terragen.terrain.layout import Cell, Destination, Layout, Player  # noqa: E402
from terragen.terrain.paths import reachable  # noqa: E402
from terragen.terrain.pieces import standard_inventory  # noqa: E402
from terragen.terrain.validation import validate_layout  # noqa: E402

OUT = ROOT / "terragen" / "data" / "terrain" / "examples"


def smooth_board(seed: int, radius: int = 5) -> Layout:
    rng = random.Random(seed)
    cells = hx.board_cells(radius)
    pieces = []
    inv = standard_inventory()
    for (lv, pat), n in sorted(inv.counts.items()):
        pieces += [(lv, pat, c) for c in range(1, n + 1)]
    rng.shuffle(pieces)
    pieces = sorted(pieces[: len(cells)], key=lambda p: p[0])
    waves = [(rng.uniform(0, 2 * math.pi), rng.uniform(0.25, 0.6), rng.uniform(0, 2 * math.pi)) for _ in range(3)]

    def height(h):
        x, y = hx.to_pixel(h, 1.0)
        return sum(math.sin(f * (x * math.cos(a) + y * math.sin(a)) + ph) for a, f, ph in waves) + rng.uniform(-0.4, 0.4)

    order = sorted(cells, key=height)
    layout = Layout(radius)
    for h, (lv, pat, copy) in zip(order, pieces):
        layout.cells.append(Cell(h[0], h[1], lv, pat, rng.randrange(6)))
    layout.cells = layout.sorted_cells()
    return layout


def add_players(layout: Layout, corners: list[int], n_dest: int, seed: int) -> bool:
    rng = random.Random(seed)
    board = Board.from_layout(layout)
    used: set = {hx.corner(layout.radius, c) for c in corners}
    for seat, corner in enumerate(corners):
        start = hx.corner(layout.radius, corner)
        reach = reachable(board, board.index[start])
        options = [board.hexes[i] for i in sorted(reach)
                   if hx.distance(board.hexes[i], start) >= layout.radius + 1 and board.hexes[i] not in used
                   and board.hexes[i] not in hx.corners(layout.radius)]
        if len(options) < n_dest:
            return False
        chosen = rng.sample(options, n_dest)
        used.update(chosen)
        layout.players.append(Player(seat, corner, [Destination(q, r) for q, r in chosen]))
    return True


def valid_example(players: int, n_dest: int, seed: int) -> Layout:
    corners = {2: [0, 3], 4: [0, 1, 3, 4], 6: [0, 1, 2, 3, 4, 5]}[players]
    for attempt in range(1000):
        layout = smooth_board(seed * 1000 + attempt)
        if not add_players(layout, corners, n_dest, seed * 1000 + attempt):
            continue
        report = validate_layout(layout)
        if report.valid and not report.warnings:
            return layout
    raise SystemExit(f"no clean {players}-player example found")


def write(layout: Layout, name: str, header: str) -> None:
    (OUT / name).write_text(write_text_layout(layout, header=header))


def main() -> None:
    two = valid_example(2, 1, 2)
    write(two, "two-players.txt", "A 2-player board: seats on opposite corners, one destination each.")
    four = valid_example(4, 2, 4)
    write(four, "four-players.txt", "A 4-player board with two destinations per player.")
    six = valid_example(6, 1, 6)
    write(six, "six-players.txt", "A 6-player board, one destination each.")
    from terragen.terrain.formats_json import write_json_layout
    (OUT / "four-players.json").write_text(write_json_layout(four))

    inv_dir = OUT / "invalid"
    for code, mutate in MUTATIONS.items():
        bad = two.copy()
        note = mutate(bad)
        (inv_dir / f"{code}.txt").write_text(write_text_layout(bad, header=f"Invalid on purpose: {note}") if code not in JSON_ONLY
                                             else "")
        if code in JSON_ONLY:
            from terragen.terrain.formats_json import write_json_layout
            (inv_dir / f"{code}.txt").unlink()
            (inv_dir / f"{code}.json").write_text(write_json_layout(bad))


def _cell(layout: Layout, h):
    return next(c for c in layout.cells if c.hex == h)


def _quiet_cell(layout: Layout):
    """A cell that is no start, no destination and on no cheapest route: safe to spoil."""
    from terragen.terrain.analysis import analyse
    a = analyse(layout)
    busy = {h for p in a.players for h in p.tour_path} | {d.hex for p in layout.players for d in p.destinations}
    busy |= set(hx.corners(layout.radius))
    return next(c for c in reversed(layout.cells) if c.hex not in busy)


def m_missing(L):
    c = _quiet_cell(L); L.cells.remove(c); return f"no piece at ({c.q},{c.r})"


def m_duplicate(L):
    c = _quiet_cell(L); L.cells.append(Cell(c.q, c.r, c.level, c.pattern, c.rotation)); return f"({c.q},{c.r}) listed twice"


def m_off_board(L):
    L.cells.append(Cell(9, 0, 1, "A", 0)); return "a piece at (9,0)"


def m_level(L):
    c = _quiet_cell(L); c.level = 9; c.extra.pop("piece", None); return f"level 9 at ({c.q},{c.r})"


def m_pattern(L):
    c = _quiet_cell(L); c.pattern = "E"; c.extra.pop("piece", None); return f"pattern E at ({c.q},{c.r})"


def m_rotation(L):
    c = _quiet_cell(L); c.rotation = 7; return f"rotation 7 at ({c.q},{c.r})"


def m_inventory(L):
    # the board uses 91 of 96 pieces; make a fourth copy of one kind that already has three
    from collections import Counter
    kinds = Counter((c.level, c.pattern) for c in L.cells)
    lv, pat = next(k for k, n in sorted(kinds.items()) if n == 3)
    spare = next(c for c in reversed(L.cells) if (c.level, c.pattern) != (lv, pat) and c is _quiet_cell(L))
    spare.level, spare.pattern = lv, pat
    spare.extra.pop("piece", None)
    return f"a fourth {lv}{pat} at ({spare.q},{spare.r})"


def m_piece_mismatch(L):
    c = _quiet_cell(L); c.extra["piece"] = f"{c.level}{'A' if c.pattern != 'A' else 'B'}1"; return f"piece id {c.extra['piece']} on a {c.level}{c.pattern}"


def m_piece_dup(L):
    a = _quiet_cell(L)
    b = next(c for c in L.cells if c is not a and (c.level, c.pattern) == (a.level, a.pattern))
    a.extra["piece"] = b.extra["piece"] = f"{a.level}{a.pattern}1"; return f"id {a.extra['piece']} used twice"


def m_player_count(L):
    L.players = L.players[:1]; return "only one player"


def m_seat_dup(L):
    L.players[1].seat = 0; return "two players in seat 0"


def m_off_corner(L):
    L.players[1].corner = 7; return "corner 7"


def m_corner_shared(L):
    L.players[1].corner = L.players[0].corner
    L.players[1].destinations = [Destination(d.q, d.r) for d in L.players[0].destinations]
    # keep destination tokens apart: move seat 1's token to another cell reachable by seat 0
    from terragen.terrain.analysis import analyse
    a = analyse(L)
    taken = {d.hex for d in L.players[0].destinations}
    alt = next(h for h in reversed(a.players[0].tour_path[1:-1]) if h not in taken)
    L.players[1].destinations = [Destination(*alt)]
    return "both players on one corner"


def m_dest_count(L):
    L.players[0].destinations = []; L.players[1].destinations = []; return "players without destinations"


def m_dest_off(L):
    L.players[0].destinations[0] = Destination(0, 8); return "destination at (0,8)"


def m_dest_shared(L):
    L.players[1].destinations = [Destination(*L.players[0].destinations[0].hex)]
    return "both destinations on one piece"


def m_dest_start(L):
    start = hx.corner(L.radius, L.players[1].corner)
    L.players[0].destinations = [Destination(*start)]; return "a destination on seat 1's start"


def m_dest_unreachable(L):
    """Wall the destination in with cliffs by swapping whole pieces (the inventory stays right)."""
    d = L.players[0].destinations[0]
    target = _cell(L, d.hex)
    ring = set(hx.neighbors(d.hex))
    protected = ring | {d.hex} | set(hx.corners(L.radius)) | {x.hex for p in L.players for x in p.destinations}

    def swap_in(cell, want):
        donor = next(c for c in reversed(L.cells) if c.hex not in protected and want(c.level)
                     and all(n not in ring for n in hx.neighbors(c.hex)))
        for attr in ("level", "pattern", "rotation"):
            a, b = getattr(cell, attr), getattr(donor, attr)
            setattr(cell, attr, b)
            setattr(donor, attr, a)
        protected.add(donor.hex)

    if target.level < 8:
        swap_in(target, lambda lv: lv == 8)
    for c in L.cells:
        if c.hex in ring and c.level >= 5:
            swap_in(c, lambda lv: lv <= 4)
    return "destination walled in by cliffs"


def m_pip_unreachable(L):
    from terragen.terrain.pieces import distinct_rotations
    d = L.players[0].destinations[0]
    board = Board.from_layout(L)
    g = board.index[d.hex]
    start = board.index[L.start(L.players[0])]
    # turn pieces next to the destination so no pip points into it
    for j in board.nbr[g]:
        if j < 0:
            continue
        c = _cell(L, board.hexes[j])
        for rot in distinct_rotations(c.pattern):
            b2 = board.rotated(j, rot)
            if all(t != g for t, _, _ in b2.pip_arcs[j]):
                c.rotation = rot
                board = b2
                break
    assert g not in reachable(board, start)
    return "no pip leads into seat 0's destination"


def m_unequal(L):
    from terragen.terrain.analysis import analyse
    a = analyse(L)
    taken = {d.hex for p in L.players for d in p.destinations}
    extra = next(h for h in reversed(a.players[0].tour_path[2:-1]) if h not in taken)
    L.players[0].destinations.append(Destination(*extra)); return "seat 0 has two destinations, seat 1 one"


MUTATIONS = {
    "cell-missing": m_missing,
    "cell-duplicate": m_duplicate,
    "cell-off-board": m_off_board,
    "level-out-of-range": m_level,
    "pattern-unknown": m_pattern,
    "rotation-out-of-range": m_rotation,
    "inventory-exceeded": m_inventory,
    "piece-id-mismatch": m_piece_mismatch,
    "piece-id-duplicate": m_piece_dup,
    "player-count": m_player_count,
    "seat-duplicate": m_seat_dup,
    "player-off-corner": m_off_corner,
    "corner-shared": m_corner_shared,
    "destination-count": m_dest_count,
    "destination-off-board": m_dest_off,
    "destination-shared": m_dest_shared,
    "destination-on-start": m_dest_start,
    "destination-unreachable": m_dest_unreachable,
    "destination-pip-unreachable": m_pip_unreachable,
    "destination-count-unequal": m_unequal,
}
#: mistakes the text form cannot express (it is positional), shipped as JSON
JSON_ONLY = {"cell-duplicate", "cell-off-board"}

if __name__ == "__main__":
    main()
