"""A layout as a one-page build sheet: what goes where, turned which way, and how to play it.

Every position shows its piece (id from the cell's ``extra["piece"]`` when the
layout names one, else level and pattern), its rotation (pips drawn where the
exits point), and its level colour. Starts and destinations are marked in seat
colours, each player's cheapest route (start, then the destinations in the
order listed) is drawn from :func:`terragen.terrain.paths.cheapest_path`, and a
build order carried in ``meta.build_order`` is printed as a numbered list.
"""

from __future__ import annotations

import math
from typing import Any

from terragen.grids import hex as hx
from terragen.render.impose import PrintOptions, page_scale
from terragen.render.marks import footer, page_label
from terragen.render.model import Box, Circle, Document, Group, Item, Page, Polygon, Style, Text, translate
from terragen.render.palette import load_palette
from terragen.render.kits.terrain.art import path_items, piece_back, piece_face
from terragen.render.shapes import hex_points
from terragen.render.text import text_width
from terragen.terrain.layout import Layout

GAME = "The Terrain Game"


def cell_label(cell) -> str:
    """The piece's id if the layout names it, else level + pattern; plus the rotation."""
    piece = cell.extra.get("piece") if isinstance(cell.extra, dict) else None
    name = str(piece) if piece else f"{cell.level}{cell.pattern}"
    return f"{name} r{cell.rotation}"


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


def _build_order(layout: Layout) -> list[str]:
    meta = layout.extra.get("meta") if isinstance(layout.extra, dict) else None
    order = meta.get("build_order") if isinstance(meta, dict) else None
    if not isinstance(order, list):
        return []
    lines = []
    for k, step in enumerate(order, 1):
        if not isinstance(step, dict):
            continue
        seat = step.get("seat", "?")
        piece = step.get("piece", "?")
        lines.append(f"{k}. seat {seat}: {piece} at ({step.get('q', '?')},{step.get('r', '?')})")
    return lines


def build_sheet(layout: Layout, opts: PrintOptions, source: str = "layout") -> Document:
    """The build sheet of ``layout`` on ``opts.paper`` (one page)."""
    from terragen.terrain.pieces import exits

    pal = load_palette("terrain")
    paper = opts.paper
    c = paper.content
    order = _build_order(layout)
    radius = max(1, layout.radius)
    # board region: the top of the page, leaving room for legend and build order
    list_h = 0.0
    if order:
        list_h = min(c.height * 0.34, 10.0 + math.ceil(len(order) / 5) * 3.4)
    legend_h = 8.0 + 4.6 * max(1, len(layout.players))
    top = c.y0 + 12.0
    board_box = Box(c.x0, top, c.x1, c.y1 - list_h - legend_h)
    # hex size so the whole board fits
    cols_w = math.sqrt(3) * (2 * radius + 1)
    rows_h = 1.5 * (2 * radius) + 2
    R = min(board_box.width / cols_w, board_box.height / rows_h)
    cx0 = (board_box.x0 + board_box.x1) / 2
    cy0 = board_box.y0 + board_box.height / 2

    def at(h) -> tuple[float, float]:
        x, y = hx.to_pixel(h, R)
        return (cx0 + x, cy0 + y)

    items: list[Item] = [
        Text(c.x0, c.y0 + 5.0, f"Build sheet: {source}", 5.0, "#000000", anchor="start", bold=True),
        Text(c.x0, c.y0 + 10.0, f"radius {layout.radius}, {len(layout.cells)} pieces, {len(layout.players)} players. "
             "Each hex: piece, rotation (r), pips as they sit.", 2.8, "#333333", anchor="start"),
    ]
    cmap = layout.cell_map()
    for h in hx.board_cells(layout.radius):
        x, y = at(h)
        cell = cmap.get(h)
        if cell is None:
            items.append(Polygon(hex_points(R, x, y), Style(stroke="#999999", width=0.2, dash=(1.0, 1.0))))
            continue
        label = cell_label(cell)
        if cell.inverted:
            art = piece_back(R, cell.level, label, pal)
        else:
            art = piece_face(R, cell.level, exits(cell.pattern, cell.rotation), "", pal, number=False)
            art.append(Text(0, R * 0.15, str(cell.level), R * 0.48, pal.text_on(cell.level), bold=True))
            art.append(Text(0, R * 0.55, label, R * 0.19, pal.text_on(cell.level)))
        items.append(Group(art, translate(x, y), clip=hex_points(R)))
        items.append(Polygon(hex_points(R, x, y), Style(stroke="#ffffff", width=0.25)))
    # routes, then starts and destinations on top
    info = routes(layout)
    for k, (seat, hexes, cost, ok) in enumerate(info):
        if len(hexes) > 1:
            off = (k - (len(info) - 1) / 2) * R * 0.08  # small offsets so routes sharing a hex stay visible
            pts = [(at(h)[0] + off, at(h)[1] + off) for h in hexes]
            items.extend(path_items(pts, pal.seat(seat), max(0.5, R * 0.07)))
    for p in layout.players:
        col = pal.seat(p.seat)
        st = layout.start(p)
        if st is not None:
            x, y = at(st)
            items.append(Circle(x, y, R * 0.8, Style(stroke=col, width=max(0.8, R * 0.12))))
            items.append(Circle(x, y - R * 0.78, R * 0.3, Style(fill=col, stroke="#ffffff", width=max(0.2, R * 0.03))))
            items.append(Text(x, y - R * 0.69, f"S{p.seat}", R * 0.26, "#ffffff", bold=True))
        for j, d in enumerate(p.destinations, 1):
            x, y = at(d.hex)
            items.append(Circle(x, y - R * 0.05, R * 0.34, Style(fill="#ffffff", stroke=col, width=max(0.6, R * 0.09))))
            items.append(Text(x, y + R * 0.07, f"{p.seat}.{j}", R * 0.26, col, bold=True))
    # legend: one line per player
    y = board_box.y1 + 6.0
    items.append(Text(c.x0, y, "Players (route: start, then destinations in the order listed; cost in movement points)", 3.0, "#000000", anchor="start", bold=True))
    for (seat, hexes, cost, ok), p in zip(info, layout.players):
        y += 4.6
        col = pal.seat(seat)
        items.append(Circle(c.x0 + 2.0, y - 1.0, 1.8, Style(fill=col)))
        dests = " ".join(f"({d.q},{d.r})" for d in p.destinations) or "none"
        cost_txt = f"cheapest route {cost} good weather / {cost * 2} bad weather" if ok and cost is not None else "no route under the current rotations"
        items.append(Text(c.x0 + 6.0, y, f"seat {seat} ({pal.seat_name(seat)}), corner {p.corner}; destinations {dests}; {cost_txt}", 2.8, "#000000", anchor="start"))
    if order:
        y += 7.0
        items.append(Text(c.x0, y, f"Build order ({len(order)} placements)", 3.0, "#000000", anchor="start", bold=True))
        y0 = y + 4.0
        avail = c.y1 - y0
        per_col = max(1, int(avail // 3.4))
        ncols = math.ceil(len(order) / per_col)
        col_w = c.width / max(ncols, 1)
        size = 2.5
        while size > 1.2 and max(text_width(s, size) for s in order) > col_w - 1.0:
            size -= 0.1
        for k, line in enumerate(order):
            items.append(Text(c.x0 + (k // per_col) * col_w, y0 + (k % per_col) * 3.4, line, size, "#000000", anchor="start"))
    label = page_label(GAME, f"build sheet of {source}", opts.scale, 1, 1, reduced=R / (50.0 / math.sqrt(3)))
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = [page_scale(opts, paper, items + [footer(paper, label, opts.scale)])]
    return Document(f"{GAME}: build sheet of {source}", [page])

