"""A layout as a build sheet: what goes where, turned which way, and how to play it.

The board is drawn large (landscape pages, split into bands of rows when one
page would make the hexes too small), because this is the page a builder
reads at arm's length while laying pieces. Each hex keeps fixed zones that
nothing else enters: the level in the middle with the position's ``q,r`` under
it, the rotation (``r`` and a digit) in the top corner, the piece id in the
bottom corner, seat tags in the side corners; pips sit on the edge rays between them and a dark notch on the rim
shows where the piece's right-hand side goes. Routes are drawn on a separate
map page so they never cross a label, followed by the players' legend and the
build order carried in ``meta.build_order``.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from terragen.grids import hex as hx
from terragen.fileio import elide
from terragen.plain_text import counted
from terragen.render.contrast import DARK_INK, contrast, ink_on
from terragen.render.impose import PrintOptions, finish_document, page_scale
from terragen.render.marks import footer, page_label
from terragen.render.model import (MIN_TEXT_MM, Circle, Document, Group, Hatch, Item, Page, Polygon, Polyline, Style, Text,
                                   translate)
from terragen.render.palette import Palette, load_palette, shade
from terragen.render.kits.terrain.art import ROUTE_DASH, path_items, right_side_notch
from terragen.render.paper import Paper
from terragen.render.shapes import hex_points
from terragen.render.text import text_width, wrap
from terragen.terrain.layout import Cell, Layout

GAME = "The Terrain Game"
#: Hex circumradius (mm) the board pages aim for: labels at 0.22 R are then 8 pt or more.
TARGET_R = 13.0
MAX_R = 18.0
LABEL_SHARE = 0.22
#: The smallest size (mm) a piece id or rotation is printed at: 8 pt.
MIN_LABEL_MM = 8 * 25.4 / 72
#: Baselines, as shares of R below the centre: the level (raised from 0.14 R to make room) and the
#: position's coordinate under it, which sits midway between the level and the piece id.
LEVEL_AT = 0.08
COORDINATE_AT = 0.38
#: the widest a coordinate may print, as a share of R: "-5,-5" at 0.22 R, which keeps it clear of the
#: lower seat tags ("P6·3" reaches 0.27 R from the centre line) and of the lower pips
COORDINATE_WIDTH = 0.46
#: Where the seat tags go (degrees, counter-clockwise from east): the four side corners of a hex,
#: which no pip ray crosses. Starts take the upper ones, destinations the lower ones.
TAG_ANGLES = {"start": (150.0, 30.0), "dest": (210.0, 330.0)}
HEADER = 18.0
#: Each seat's route line pattern (by its rank among the board's seats), so routes stay apart on a mono print too.
#: how far the routes map's terrain moves toward white (0 full colour, 1 white)
MAP_TINT = 0.6


#: a piece colour this close to white (contrast ratio against white) gets a grey edge inside its seam
LIGHT_CELL = 1.25
EDGE_ON_LIGHT = "#8c8c8c"


def landscape(paper: Paper) -> Paper:
    """The same sheet turned sideways: the board is wider than it is tall."""
    if paper.width >= paper.height:
        return paper
    return dataclasses.replace(paper, width=paper.height, height=paper.width, inset_x=paper.inset_y, inset_y=paper.inset_x)


def _windows(radius: int, area_w: float, area_h: float) -> tuple[float, list[list[Any]]]:
    """Hex size and the board's cells split into page windows: the fewest pages whose hexes
    reach :data:`TARGET_R` (bands of whole rows first, then left and right halves too)."""
    cells = hx.board_cells(radius)
    rows = sorted({h[1] for h in cells})
    xs = {h: hx.to_pixel(h, 1.0)[0] for h in cells}
    x_lo, x_hi = min(xs.values()), max(xs.values())
    best: tuple[float, list[list[Any]]] | None = None
    for ny, nx in ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3)):
        bands = [rows[k * len(rows) // ny:(k + 1) * len(rows) // ny] for k in range(ny)]
        wins = []
        for band in bands:
            for j in range(nx):
                lo = x_lo + (x_hi - x_lo + 1e-9) * j / nx
                hi = x_lo + (x_hi - x_lo + 1e-9) * (j + 1) / nx
                win = [h for h in cells if h[1] in band and (lo <= xs[h] < hi or (j == nx - 1 and xs[h] >= hi))]
                if win:
                    wins.append(win)
        R = min(_fit(win, area_w, area_h) for win in wins)
        if best is None or R > best[0] + 1e-9:
            best = (R, wins)
        if R >= TARGET_R:
            break
    assert best is not None
    return min(best[0], MAX_R), best[1]


def _extent(win: list[Any], R: float = 1.0) -> tuple[float, float, float, float]:
    pts = [hx.to_pixel(h, R) for h in win]
    hw = R * math.sqrt(3) / 2
    return (min(x for x, _ in pts) - hw, min(y for _, y in pts) - R, max(x for x, _ in pts) + hw, max(y for _, y in pts) + R)


def _fit(win: list[Any], area_w: float, area_h: float) -> float:
    x0, y0, x1, y1 = _extent(win)
    return min(area_w / (x1 - x0), area_h / (y1 - y0))


def _tokens_key(layout: Layout, pal: Palette) -> str:
    """Which kit token plays which seat of the file, said where the board is built: board.txt and
    generate's summary number seats from 0 and the kit's tokens from P1, and only the routes page
    paired them, so a builder reading board.txt beside the sheet put seat 1 on P1's corner."""
    seats = sorted({p.seat for p in layout.players})
    if not seats:
        return "P2 = the P2 token's start, P2·1 = the P2 player's flag 1 (the kit's tokens)."
    pairs = ", ".join(f"{token_name(pal, seat)} seat {seat}" for seat in seats)
    last = token_name(pal, seats[-1])  # the example names the list's last token: "P4 = its start"
    return f"Tokens: {pairs} (the file's seat numbers); {last} = its start, {last}·1 its flag 1."


def token_name(pal: Palette, seat: int) -> str:
    """The kit's token of a seat's colour (P1.. by colour rank): what the builder holds in hand.

    Why not the seat number: seats count from 0 and need not be consecutive (a board of seats 0
    and 3 plays with the kit's P1 and P2), so tags saying "S0" and "0.1" beside tokens saying "P1"
    sent flags to the wrong corner."""
    return f"P{pal.rank(seat) % len(pal.seats) + 1}"


def _markers(layout: Layout, pal: Palette) -> dict[Any, list[tuple[str, int, str]]]:
    """Per hex: (kind, seat, tag text) for every start and destination on it, in seat order; the tags
    name the kit's tokens (``P2`` the start, ``P2·1`` the first flag)."""
    out: dict[Any, list[tuple[str, int, str]]] = {}
    for p in layout.players:
        st = layout.start(p)
        token = token_name(pal, p.seat)
        if st is not None:
            out.setdefault(st, []).append(("start", p.seat, token))
        for j, d in enumerate(p.destinations, 1):
            out.setdefault(d.hex, []).append(("dest", p.seat, f"{token}·{j}"))
    return out


def _tags(R: float, marks: list[tuple[str, int, str]], pal: Palette) -> list[Item]:
    """Seat tags in the side corners and a seat-coloured frame inside the rim for the first marker."""
    items: list[Item] = []
    if marks:
        items.append(Polygon(hex_points(R * 0.93), Style(stroke=pal.seat(marks[0][1]), width=R * 0.06)))
    used = {"start": 0, "dest": 0}
    size = R * 0.19
    for kind, seat, text in marks:
        angles = TAG_ANGLES[kind]
        if used[kind] >= len(angles):
            continue  # more markers than corners: the legend still lists them all
        a = math.radians(angles[used[kind]])
        used[kind] += 1
        cx, cy = R * 0.6 * math.cos(a), -R * 0.6 * math.sin(a)
        fill = pal.seat(seat)
        w = max(text_width(text, size, bold=True) / 2 + R * 0.04, R * 0.14)
        h = R * 0.12
        items.append(Polygon(((cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)),
                             Style(fill=fill, stroke="#ffffff", width=R * 0.015)))
        items.append(Text(cx, cy + size * 0.36, text, size, ink_on(fill), bold=True))
    return items


def _fitted(text: str, size: float, width: float, bold: bool = True) -> float:
    """``size`` shrunk until ``text`` fits ``width``, but never under the 8 pt floor."""
    w = text_width(text, size, bold)
    return size if w <= width else max(MIN_LABEL_MM, size * width / w)


def coordinate_label(cell: Cell, R: float, ink: str) -> Text:
    """The position's ``q,r`` (as the build order and the kit's board print it) between the level and
    the piece id: without it a builder could not match a sheet hex to a layout's line. It fits
    between the lower seat tags and above the lower pips, in regular weight so it does not read
    as the piece id; a long one (a board of radius 10 or more) shrinks, never under 6 pt."""
    text = f"{cell.q},{cell.r}"
    size = R * LABEL_SHARE
    w = text_width(text, size)
    if w > COORDINATE_WIDTH * R:
        size = max(MIN_TEXT_MM, size * COORDINATE_WIDTH * R / w)
    return Text(0, COORDINATE_AT * R, text, size, ink)


def cell_items(cell, R: float, pal: Palette, marks: list[tuple[str, int, str]]) -> list[Item]:
    """One position of the build sheet in local mm around (0, 0)."""
    from terragen.terrain.pieces import exits

    base = pal.level(cell.level)
    ink = ink_on(base)
    label = R * LABEL_SHARE
    items: list[Item] = []
    if cell.inverted:
        dark = shade(base, 0.8)
        items.append(Polygon(hex_points(R), Style(fill=dark, hatch=Hatch(spacing=R * 0.16, angle=45, colour=shade(dark, 0.85), width=R * 0.02))))
        ink = ink_on(dark)
        items.append(Text(0, -R * 0.46, "INV", _fitted("INV", label, R * 0.4), ink, bold=True))
    else:
        items.append(Polygon(hex_points(R), Style(fill=base)))
        pip_r = R * 0.08
        for d in exits(cell.pattern, cell.rotation):
            mx, my = hx.edge_midpoint_offset(d, R)
            items.append(Circle(mx * 0.72, my * 0.72, pip_r, Style(fill=DARK_INK, stroke="#ffffff", width=pip_r * 0.3)))
        # the notch: where the piece's right-hand side (as printed, number upright) goes
        items.append(right_side_notch(R, cell.rotation))
        rot = f"r{cell.rotation}"
        items.append(Text(0, -R * 0.46, rot, _fitted(rot, label, R * 0.4), ink, bold=True))
    items.append(Text(0, LEVEL_AT * R, str(cell.level), R * 0.4, ink, bold=True))
    items.append(coordinate_label(cell, R, ink))
    name = cell.piece_name
    items.append(Text(0, R * 0.64, name, _fitted(name, label, R * 0.4), ink, bold=True))
    items.extend(_tags(R, marks, pal))
    return items


def _page(paper: Paper, opts: PrintOptions, items: list[Item], label: str) -> Page:
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = [page_scale(opts, paper, items + [footer(paper, label, opts.scale)])]
    return page


def _rows_text(win: list[Any]) -> str:
    rows = sorted({h[1] for h in win})
    qs = sorted({h[0] for h in win})
    return f"rows r = {rows[0]} to {rows[-1]}, columns q = {qs[0]} to {qs[-1]}"


def _made_as(layout: Layout) -> str:
    """What the generator was asked for, from the board's meta (`` — 4 players, hard, seed 1``): every
    board generate writes is called board.json, and sheets of several boards told nothing apart."""
    meta = layout.extra.get("meta")
    if not isinstance(meta, dict) or meta.get("generator") != "terragen generate":
        return ""
    said = [counted(len(layout.players), "player")]
    if isinstance(meta.get("difficulty"), str):
        said.append(elide(meta["difficulty"], 20))  # a file's own word: a long one ran off the page
    if isinstance(meta.get("seed"), int) and not isinstance(meta.get("seed"), bool):
        said.append(f"seed {meta['seed']}")
    if layout.radius != 5:
        said.append(f"radius {layout.radius} (its board: kit terrain --radius {layout.radius})")
    return " — " + ", ".join(said)


def _board_page(layout: Layout, win: list[Any], R: float, paper: Paper, pal: Palette, source: str,
                k: int, n_win: int) -> list[Item]:
    c = paper.content
    x0, y0, x1, y1 = _extent(win, R)
    ox = c.x0 + (c.width - (x1 - x0)) / 2 - x0
    oy = c.y0 + HEADER + (c.height - HEADER - (y1 - y0)) / 2 - y0
    part = f" (part {k} of {n_win}: {_rows_text(win)})" if n_win > 1 else ""
    title = f"Build sheet: {source}{_made_as(layout)}{part}"
    items: list[Item] = [Text(c.x0, c.y0 + 5.0, title, _fitted(title, 5.0, c.width), "#000000", anchor="start", bold=True)]
    key = ("Big number: level. Under it, q,r: position. Bottom: piece. Top: r = sixth-turns counter-clockwise from the printed piece; "
           "the black notch marks where its right-hand edge (right of its upright number) goes. "
           f"Match the pips. {_tokens_key(layout, pal)}")
    if any(cell.inverted for cell in layout.cells):
        key += " INV = lay that piece upside down."
    for j, line in enumerate(wrap(key, 2.9, c.width)):  # two lines on A4 and Letter (tested): never cut
        items.append(Text(c.x0, c.y0 + 10.5 + j * 3.8, line, 2.9, "#333333", anchor="start"))
    cmap = layout.cell_map()
    marks = _markers(layout, pal)
    for h in win:
        x, y = hx.to_pixel(h, R)
        x, y = x + ox, y + oy
        cell = cmap.get(h)
        if cell is None:
            items.append(Polygon(hex_points(R, x, y), Style(stroke="#999999", width=0.2, dash=(1.0, 1.0))))
            continue
        items.append(Group(cell_items(cell, R, pal, marks.get(h, [])), translate(x, y)))
        items.append(Polygon(hex_points(R, x, y), Style(stroke="#ffffff", width=0.35)))
        if contrast(pal.level(cell.level), "#ffffff") < LIGHT_CELL:  # a white seam is lost on a near-white piece
            items.append(Polygon(hex_points(R * 0.985, x, y), Style(stroke=EDGE_ON_LIGHT, width=0.2)))
    if n_win > 1:
        board = [hex_points(R, *(a + b for a, b in zip(hx.to_pixel(h, R), (ox, oy)))) for h in win]
        items.extend(_locator(layout.radius, win, board, c))
    return items


def _locator(radius: int, win: list[Any], board: list[tuple[tuple[float, float], ...]], c) -> list[Item]:
    """A thumbnail of the whole board with this page's part dark, in a corner the part leaves free,
    so a builder sees at once where the sheet's rows join the other sheets."""
    from shapely.geometry import Polygon as SPolygon
    from shapely.geometry import box
    from shapely.ops import unary_union

    cells = hx.board_cells(radius)
    r = 1.2
    x0, y0, x1, y1 = _extent(cells, r)
    w, h = x1 - x0, y1 - y0
    taken = unary_union([SPolygon(p) for p in board]).buffer(2.0)
    top = c.y0 + HEADER
    for cx, cy in ((c.x1 - w, top), (c.x0, top), (c.x1 - w, c.y1 - h), (c.x0, c.y1 - h)):
        if not box(cx - 1, cy - 1, cx + w + 1, cy + h + 1).intersects(taken):
            here = set(win)
            items: list[Item] = []
            for cell in cells:
                px, py = hx.to_pixel(cell, r)
                fill = "#333333" if cell in here else "#dddddd"
                items.append(Polygon(hex_points(r, cx - x0 + px, cy - y0 + py), Style(fill=fill, stroke="#ffffff", width=0.1)))
            return items
    return []  # no free corner: the title's rows and columns still say where the part goes


def _route_page(layout: Layout, paper: Paper, pal: Palette, source: str, puzzle: bool) -> tuple[list[Item], float]:
    """The players' cheapest routes on a smaller map, and the legend beside it. A batch puzzle's
    (its one player) is left out: its route and cost are the puzzle's answer, and a sheet printed to
    set the puzzle up at the table gave it away."""
    c = paper.content
    info = [(p.seat, [], None, False) for p in layout.players] if puzzle else routes(layout)
    map_w = c.width * 0.55
    cells = hx.board_cells(layout.radius)
    x0, y0, x1, y1 = _extent(cells)
    R = min(map_w / (x1 - x0), (c.height - HEADER) / (y1 - y0))
    ox = c.x0 - x0 * R
    oy = c.y0 + HEADER - y0 * R

    def at(h) -> tuple[float, float]:
        x, y = hx.to_pixel(h, R)
        return (ox + x, oy + y)

    items: list[Item] = [
        Text(c.x0, c.y0 + 5.0, f"Routes and players: {source}", 5.0, "#000000", anchor="start", bold=True),
        Text(c.x0, c.y0 + 10.5, f"radius {layout.radius}, {counted(len(layout.cells), 'piece')}, "
             f"{counted(len(layout.players), 'player')}. " + (
                 "Each line is a player's cheapest route under the printed rotations." if not puzzle else
                 "A puzzle's route is its answer: left out here (the booklet's answer key has it)."),
             2.9, "#333333", anchor="start"),
    ]
    cmap = layout.cell_map()
    marks = _markers(layout, pal)
    for h in cells:
        cell = cmap.get(h)
        # the terrain as a pale tint: the levels still show, and the routes, the page's subject,
        # stand out on a mono print (on full colours a light seat's route went grey on grey)
        fill = shade(pal.level(cell.level), 1.0 + MAP_TINT) if cell is not None else "#ffffff"
        items.append(Polygon(hex_points(R, *at(h)), Style(fill=fill, stroke="#ffffff", width=0.25)))
    # routes end at the rim of the marker discs, so no line runs under a tag's text, and a route
    # that passes a disc visibly goes in on one side and out on the other (a gap before the rim
    # read as the route ending there)
    from shapely.geometry import LineString, Point
    from shapely.ops import unary_union

    disc = R * 0.5
    width = max(0.45, R * 0.065)

    def marker(h) -> tuple[Any, float, str, float]:
        """The first marker's shape on ``h``: a disc, stretched to a pill by ``reach`` each side where
        its tag is wider (as "P3·1" at the 8 pt floor is); its tag and the tag's size."""
        text = marks[h][0][2]
        size = _fitted(text, R * 0.34, disc * 1.5)
        reach = max(0.0, (text_width(text, size, True) + disc * 0.5) / 2 - disc)
        x, y = at(h)
        shape = LineString([(x - reach, y), (x + reach, y)]).buffer(disc) if reach else Point(x, y).buffer(disc)
        return shape, reach, text, size

    shapes = {h: marker(h) for h in marks}
    holes = unary_union([shape for shape, _, _, _ in shapes.values()])
    parts = []
    for k, (seat, hexes, cost, ok) in enumerate(info):
        if len(hexes) > 1:
            off = (k - (len(info) - 1) / 2) * R * 0.07  # routes sharing a step stay side by side
            line = LineString([(at(h)[0], at(h)[1] + off) for h in hexes]).difference(holes)
            parts.extend((seat, [(round(x, 4), round(y, 4)) for x, y in part.coords])
                         for part in getattr(line, "geoms", [line]) if not part.is_empty and part.length > 0)
    # a white casing under every route first, so each line keeps its own edge where it
    # crosses a dark piece or another route
    items.extend(Polyline(tuple(points), Style(stroke="#ffffff", width=width * 2.2)) for _, points in parts)
    for seat, points in parts:
        items.extend(path_items(points, pal.seat(seat), width, ROUTE_DASH[pal.rank(seat) % len(ROUTE_DASH)]))
    for h, ms in sorted(marks.items()):
        x, y = at(h)
        seat = ms[0][1]
        shape, reach, text, size = shapes[h]
        if reach:
            items.append(Polygon(tuple((round(px, 4), round(py, 4)) for px, py in shape.exterior.coords[:-1]),
                                 Style(fill=pal.seat(seat))))
        else:
            items.append(Circle(x, y, disc, Style(fill=pal.seat(seat))))
        items.append(Text(x, y + size * 0.36, text, size, ink_on(pal.seat(seat)), bold=True))
    # legend
    lx = c.x0 + map_w + 8.0
    lw = c.x1 - lx
    y = c.y0 + HEADER + 4.0
    items.append(Text(lx, y, "Players", 3.6, "#000000", anchor="start", bold=True))
    for (seat, hexes, cost, ok), p in zip(info, layout.players):
        y += 6.0
        col = pal.seat(seat)
        items.append(Polygon(((lx, y - 3.2), (lx + 7.0, y - 3.2), (lx + 7.0, y + 1.0), (lx, y + 1.0)), Style(fill=col)))
        items.append(Text(lx + 3.5, y, token_name(pal, seat), 2.9, ink_on(col), bold=True))
        items.append(Polyline(((lx + 8.5, y - 1.1), (lx + 19.0, y - 1.1)), Style(stroke=col, width=0.6, dash=ROUTE_DASH[pal.rank(seat) % len(ROUTE_DASH)])))
        dests = " ".join(f"({d.q},{d.r})" for d in p.destinations) or "none"
        cost_txt = ("no destination yet, so no route" if not p.destinations
                    else "the route is the puzzle's answer" if puzzle
                    else f"cheapest route {cost} good weather / {cost * 2} bad weather" if ok and cost is not None
                    else "no route under the printed rotations")
        # the kit's token of this colour first, as the tags on the board name it (P2, P2·1); the file's
        # seat number after it, which a board numbering its seats 0 and 3 needs said
        token = token_name(pal, seat)
        lines = wrap(f"{token} tokens ({pal.seat_name(seat)}, seat {seat}), corner {p.corner}; flags {dests}; {cost_txt}",
                     2.9, lw - 22.0)
        for j, line in enumerate(lines):
            items.append(Text(lx + 21.0, y + j * 3.9, line, 2.9, "#000000", anchor="start"))
        y += 3.9 * (len(lines) - 1)
    if len(layout.players) > 1:  # the order of play need not go round the board (four seats: corners 0, 1, 4, 3)
        order = ", ".join(token_name(pal, p.seat) for p in sorted(layout.players, key=lambda p: p.seat))
        y += 7.0
        lines = wrap(f"Turns go {order}, then round again in that order, whichever corners the "
                     "seats sit on; the first player moves on one seat each game.", 2.9, lw)
        teams = _team_words(layout, pal) if not puzzle else None
        if teams:  # the table needs to know who partners whom, and whether the board was checked for it
            lines += [""] + wrap(teams, 2.9, lw)
        for j, line in enumerate(lines):
            items.append(Text(lx, y + j * 3.9, line, 2.9, "#000000", anchor="start"))
    return items, R


def _team_words(layout: Layout, pal: Palette) -> str | None:
    """Who partners whom in team play (the default partners, on neighbouring corners), and what the
    generator's team check found, for a board of 4 or 6 seats; None for another count."""
    from terragen.terrain.sim.variants import default_teams

    seats = sorted(layout.players, key=lambda p: p.seat)
    if len(seats) not in (4, 6):
        return None
    from terragen.terrain.sim.variants import neighbour_teams

    corners = [p.corner for p in seats]
    teams = default_teams(len(seats), corners)
    partners = ", ".join(" + ".join(token_name(pal, seats[k].seat) for k in team) for team in teams)
    if neighbour_teams(corners) is None:  # the rules page says neighbours: say why these are not
        partners += " (by seat order: these corners do not pair every player with a neighbour)"
    record = ((layout.extra.get("meta") or {}).get("balance") or {}).get("teams") or {}
    verdict = record.get("verdict")
    said = {"BALANCED": f"checked fair in teams on {record.get('games', 0):,} games",
            "NOT BALANCED": "NOT fair in teams by the generator's check",
            }.get(verdict, "not checked in teams (terragen simulate --variant teams measures it)")
    return f"Team play (a variant, on the kit's rules page): partners {partners}; this board was {said}."


def _order_pages(order: list[str], paper: Paper, source: str) -> list[list[Item]]:
    """The build order in columns of 8 pt lines, as many pages as it takes."""
    c = paper.content
    size, lead = MIN_LABEL_MM + 0.2, 4.4
    col_w = max(text_width(s, size) for s in order) + 6.0
    ncols = max(1, int(c.width // col_w))
    per_col = max(1, int((c.height - HEADER) // lead))
    per_page = ncols * per_col
    pages = []
    for start in range(0, len(order), per_page):
        chunk = order[start:start + per_page]
        items: list[Item] = [Text(c.x0, c.y0 + 5.0, f"Build order: {source} ({len(order)} placements)", 5.0, "#000000", anchor="start", bold=True)]
        for k, line in enumerate(chunk):
            items.append(Text(c.x0 + (k // per_col) * col_w, c.y0 + HEADER + (k % per_col) * lead, line, size, "#000000", anchor="start"))
        pages.append(items)
    return pages


def routes(layout: Layout) -> list[tuple[int, list[Any], int | None, bool]]:
    """Per player: (seat, hexes of the chained cheapest route, good-weather cost or None, complete?)."""
    from terragen.terrain.board import Board
    from terragen.terrain.paths import cheapest_path

    board = Board.from_layout(layout)
    out = []
    for p in layout.players:
        start = layout.start(p)
        if start is None or start not in board.index:
            out.append((p.seat, [], None, False))
            continue
        cur = board.index[start]
        hexes = [start]
        total = 0
        ok = True
        for d in p.destinations:
            goal = board.index.get(d.hex)
            res = cheapest_path(board, cur, goal) if goal is not None else None
            if res is None or not res.reachable:
                ok = False
                break
            hexes.extend(board.hexes[i] for i in res.cells[1:])
            total += res.cost
            cur = goal
        out.append((p.seat, hexes, total if ok else None, ok))
    return out


def _build_order(layout: Layout, pal: Palette) -> list[str]:
    """The build order's lines, each placing player named by the kit's token, as the board pages name them."""
    meta = layout.extra.get("meta") if isinstance(layout.extra, dict) else None
    order = meta.get("build_order") if isinstance(meta, dict) else None
    if not isinstance(order, list):
        return []
    lines = []
    cells = {(c.q, c.r): c for c in layout.cells}
    for k, step in enumerate(order, 1):
        if not isinstance(step, dict):
            continue
        seat = step.get("seat")
        who = token_name(pal, seat) if isinstance(seat, int) and not isinstance(seat, bool) else "?"
        piece = step.get("piece", "?")
        q, r = step.get("q"), step.get("r")
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in (q, r))  # a hand-edited [0] crashed
        cell = cells.get((q, r)) if whole else None
        # its turn as the board pages print it: the builder no longer looks each of 91 hexes up to turn it
        turn = f" r{cell.rotation}" if cell is not None else ""
        lines.append(f"{k}. {who}: {piece} at ({step.get('q', '?')},{step.get('r', '?')}){turn}")
    return lines


def build_sheet(layout: Layout, opts: PrintOptions, source: str = "layout", puzzle: bool = False,
                palette: Palette | None = None) -> Document:
    """The build sheet of ``layout`` on ``opts.paper`` turned landscape: board pages, routes, build order;
    ``puzzle``: the layout is a batch puzzle's, whose routes page leaves out its answer; coloured by
    ``palette`` (the kit's, so the sheet's pieces look like the printed ones; the default unless given)."""
    pal = (palette or load_palette()).for_seats(p.seat for p in layout.players)
    paper = landscape(opts.paper)
    c = paper.content
    R, wins = _windows(max(1, layout.radius), c.width, c.height - HEADER)
    bodies: list[tuple[str, list[Item], float | None]] = []
    for k, win in enumerate(wins, 1):
        what = f"build sheet of {source}" + (f", board part {k}/{len(wins)}" if len(wins) > 1 else "")
        bodies.append((what, _board_page(layout, win, R, paper, pal, source, k, len(wins)), R / (50.0 / math.sqrt(3))))
    route_items, route_R = _route_page(layout, paper, pal, source, puzzle)
    bodies.append((f"routes and players of {source}", route_items, route_R / (50.0 / math.sqrt(3))))
    order = _build_order(layout, pal)
    if order:
        for items in _order_pages(order, paper, source):
            bodies.append((f"build order of {source}", items, None))
    pages = []
    for k, (what, items, reduced) in enumerate(bodies, 1):
        label = page_label(GAME, what, opts.scale, k, len(bodies), reduced=reduced)
        pages.append(_page(paper, opts, items, label))
    return finish_document(Document(f"{GAME}: build sheet of {source}", pages), opts)
