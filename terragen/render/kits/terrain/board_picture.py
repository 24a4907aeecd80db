"""A quick analytical picture of a Terrain Game layout (``validate --svg``).

Not a print sheet: a screen picture for checking a board at a glance — level
colours, pips where the exits are, cliffs as heavy red edges, start corners and
destinations in seat colours, and each player's cheapest route.
"""

from __future__ import annotations

from collections.abc import Iterable

from terragen.grids import hex as hx
from terragen.terrain.analysis import Analysis
from terragen.terrain.layout import Layout
from terragen.terrain.pieces import exits
from terragen.terrain.rules import step_allowed

#: Hypsometric tints, level 1 (lowland green) to 8 (snow).
LEVEL_COLOURS = {
    1: "#3f8f4f", 2: "#6aaa55", 3: "#a3c46a", 4: "#dcd58a",
    5: "#d9b26a", 6: "#b98553", 7: "#8f6a4d", 8: "#eeeeee",
}
SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf"]


def seat_colours(seats: Iterable[int]) -> dict[int, str]:
    """Each seat's colour by its rank among the board's seats, not by its number: a file may number
    its seats 1 and 7, which by number would share a colour."""
    return {seat: SEAT_COLOURS[rank % len(SEAT_COLOURS)] for rank, seat in enumerate(sorted(set(seats)))}


def board_svg(layout: Layout, analysis: Analysis | None = None, size: float = 28.0) -> str:
    """SVG text of the board; ``size`` is the hex circumradius in pixels."""
    import svgwrite  # lazy: only pictures need it

    from terragen.terrain.layout import require_layout

    require_layout(layout, "board_svg")  # a file's name failed deep inside as an AttributeError

    R = layout.radius
    colour_of = seat_colours(p.seat for p in layout.players)
    margin = size * 1.5
    width = size * hx.SQRT3 * (2 * R + 1) + 2 * margin
    height = size * (3 * R + 2) + 2 * margin + 20 * (len(layout.players) + 2)
    ox, oy = width / 2, margin + size * (1.5 * R + 1)

    def px(h):
        x, y = hx.to_pixel(h, size)
        return (round(ox + x, 2), round(oy + y, 2))

    dwg = svgwrite.Drawing(size=(f"{width:.0f}", f"{height:.0f}"), profile="full", debug=False)
    dwg.add(dwg.rect((0, 0), (width, height), fill="white"))
    cells = layout.cell_map()
    board_hexes = hx.board_cells(R)
    g_cells = dwg.g(id="cells", stroke="#555555", stroke_width=1)
    for h in board_hexes:
        pts = [(round(ox + x, 2), round(oy + y, 2)) for x, y in hx.polygon(h, size)]
        c = cells.get(h)
        fill = LEVEL_COLOURS.get(c.level, "#ff00ff") if c else "#ffffff"
        poly = dwg.polygon(pts, fill=fill)
        if c is None:
            poly["stroke-dasharray"] = "3,3"
        g_cells.add(poly)
    dwg.add(g_cells)

    g_marks = dwg.g(id="marks", font_family="sans-serif", text_anchor="middle")
    for h, c in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if not hx.on_board(h, R):
            continue
        cx, cy = px(h)
        if c.inverted:
            g_marks.add(dwg.line((cx - size * 0.5, cy - size * 0.5), (cx + size * 0.5, cy + size * 0.5), stroke="black", stroke_width=2))
            g_marks.add(dwg.line((cx - size * 0.5, cy + size * 0.5), (cx + size * 0.5, cy - size * 0.5), stroke="black", stroke_width=2))
        else:
            for d in exits(c.pattern, c.rotation):
                dx, dy = hx.edge_midpoint_offset(d, size)
                g_marks.add(dwg.circle((round(cx + dx * 0.72, 2), round(cy + dy * 0.72, 2)), r=size * 0.09, fill="#222222"))
        g_marks.add(dwg.text(str(c.level), insert=(cx, round(cy + size * 0.18, 2)), font_size=f"{size * 0.5:.1f}px", fill="#222222"))
    dwg.add(g_marks)

    g_cliffs = dwg.g(id="cliffs", stroke="#b00020", stroke_width=max(2.0, size * 0.12), stroke_linecap="round")
    corners = hx.corner_offsets(size)
    for h, c in cells.items():
        for d in range(6):
            n = hx.neighbor(h, d)
            o = cells.get(n)
            if o is None or n < h or not hx.on_board(n, R) or step_allowed(o.level - c.level):
                continue
            cx, cy = px(h)
            a, b = corners[(d - 1) % 6], corners[d]
            g_cliffs.add(dwg.line((round(cx + a[0], 2), round(cy + a[1], 2)), (round(cx + b[0], 2), round(cy + b[1], 2))))
    dwg.add(g_cliffs)

    if analysis is not None:
        for k, rep in enumerate(analysis.players):
            if len(rep.tour_path) < 2:
                continue
            shift = (k - (len(analysis.players) - 1) / 2) * size * 0.06
            pts = [(x + shift, y + shift) for x, y in (px(h) for h in rep.tour_path)]
            dwg.add(dwg.polyline(pts, fill="none", stroke=colour_of[rep.seat], stroke_width=max(1.5, size * 0.08),
                                 stroke_opacity=0.85, stroke_linejoin="round", stroke_linecap="round"))

    g_tokens = dwg.g(id="tokens", font_family="sans-serif", text_anchor="middle", font_weight="bold")
    for p in layout.players:
        start = layout.start(p)
        col = colour_of[p.seat]
        if start is not None:
            cx, cy = px(start)
            g_tokens.add(dwg.circle((cx, cy), r=size * 0.72, fill="none", stroke=col, stroke_width=max(2.0, size * 0.14)))
        for j, d in enumerate(p.destinations, start=1):
            cx, cy = px(d.hex)
            r = size * 0.42
            diamond = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
            g_tokens.add(dwg.polygon([(round(x, 2), round(y, 2)) for x, y in diamond], fill=col, stroke="white", stroke_width=1.5))
            g_tokens.add(dwg.text(str(j), insert=(cx, round(cy + r * 0.4, 2)), font_size=f"{size * 0.45:.1f}px", fill="white"))
    dwg.add(g_tokens)

    g_legend = dwg.g(id="legend", font_family="sans-serif", font_size="13px")
    y = height - 20 * (len(layout.players) + 2) + 4
    for line in ("circle = start, diamond = destination (number = which one),",
                 "line = cheapest route, red edge = cliff (more than 3 levels)"):
        g_legend.add(dwg.text(line, insert=(10, y), fill="#333333"))
        y += 20
    y -= 20
    by_seat = {rep.seat: rep for rep in analysis.players} if analysis else {}
    for p in layout.players:
        y += 20
        rep = by_seat.get(p.seat)
        info = ""
        if rep is not None:
            et = "unreachable" if rep.expected_turns is None else f"{rep.expected_turns:.2f} expected turns, cost {rep.tour_cost}"
            info = f": {et}"
        g_legend.add(dwg.rect((10, y - 11), (12, 12), fill=colour_of[p.seat]))
        g_legend.add(dwg.text(f"seat {p.seat}, corner {p.corner}{info}", insert=(28, y), fill="#333333"))
    dwg.add(g_legend)
    return dwg.tostring() + "\n"
