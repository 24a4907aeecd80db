"""A Terrain Game board drawn as text for a terminal (``terragen show``).

One cell is ``5↗←↘s0``: the level (``x`` for an inverted piece), an arrow for
each exit (pip) in the order E, NE, NW, W, SW, SE, and a mark: ``s0`` where
seat 0 starts, ``d1`` on a destination of seat 1. Rows are staggered like the
hexes. With colour, each cell's background is its level colour (the same
tints as the pictures) and marks take their seat's colour; without, the text
says everything by itself.
"""

from __future__ import annotations

from terragen.grids import hex as hx
from terragen.terrain.layout import Layout
from terragen.terrain.pieces import PATTERNS, exits

#: Exit directions 0..5 (E, NE, NW, W, SW, SE) as arrows.
ARROWS = "→↗↖←↙↘"
#: the same for a terminal whose encoding has no arrows (``L`` and ``J`` point at their lower corners)
ASCII_ARROWS = ">/\\<LJ"
CELL = 8  # columns per cell (4 level and pips, 2 mark, 2 spaces): rows shift by half of it
RESET = "\x1b[0m"


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _paint(text: str, bg: str | None = None, fg: str | None = None, bold: bool = False) -> str:
    codes = []
    if bold:
        codes.append("1")
    if bg:
        r, g, b = _rgb(bg)
        codes.append(f"48;2;{r};{g};{b}")
        if fg is None:  # dark text on light tints, light text on dark ones
            fg = "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"
    if fg:
        r, g, b = _rgb(fg)
        codes.append(f"38;2;{r};{g};{b}")
    return f"\x1b[{';'.join(codes)}m{text}{RESET}" if codes else text


#: the mark of a cell that is more than one seat's start or destination
SEVERAL = "**"


def cell_text(level: int, pattern: str, rotation: int, inverted: bool, arrows: str = ARROWS) -> str:
    """Level and pips of one piece, 4 characters (``?`` for what the rules do not know); an inverted
    piece keeps its level (the builder needs it: ``x`` in its place hid which piece to turn over)
    and shows ``x`` where its pips were, face down."""
    lv = str(level) if 0 <= level <= 9 else "?"
    if inverted:
        return lv + "x  "
    known = pattern in PATTERNS and 0 <= rotation <= 5  # rotation 6 is no rotation, not rotation 0
    pips = "".join(arrows[d] for d in exits(pattern, rotation)) if known else "???"
    return lv + pips


def board_text(layout: Layout, colour: bool = False, arrows: str = ARROWS) -> str:
    """The board, a legend line and one line per player; ``arrows`` is ASCII_ARROWS for a terminal
    that cannot show the arrow characters."""
    from terragen.render.kits.terrain.board_picture import LEVEL_COLOURS, seat_colours

    R = layout.radius
    cells = layout.cell_map()
    colour_of = seat_colours(p.seat for p in layout.players)
    marks: dict[tuple[int, int], tuple[str, int]] = {}

    def mark(cell: tuple[int, int], text: str, seat: int) -> None:
        # a cell has room for one mark: two on one cell (a shared flag, a flag on a start, a rule
        # break validate reports) show as ** rather than one hiding the other
        marks[cell] = (SEVERAL, -1) if cell in marks and marks[cell][0] != text else (text, seat)

    for p in layout.players:
        for d in p.destinations:
            mark(d.hex, f"d{p.seat}", p.seat)
        start = layout.start(p)
        if start is not None:
            mark(start, f"s{p.seat}", p.seat)
    lines = []
    for r in range(-R, R + 1):
        parts = []
        for q in hx.row_range(R, r):
            c = cells.get((q, r))
            body = cell_text(c.level, c.pattern, c.rotation, c.inverted, arrows) if c else " .  "
            mark, seat = marks.get((q, r), ("  ", -1))
            if colour:
                bg = LEVEL_COLOURS.get(c.level) if c and not c.inverted else "#555555" if c else None
                body = _paint(body, bg=bg)
                mark = _paint(mark, fg=colour_of[seat], bold=True) if seat >= 0 else mark
            parts.append(body + mark)
        lines.append((" " * ((CELL // 2) * abs(r)) + "  ".join(parts)).rstrip())
    lines.append("")
    names = ", ".join(f"{a} {d}" for a, d in zip(arrows, ("E", "NE", "NW", "W", "SW", "SE")))
    lines.append(f"level then pips (exits: {names});")  # one line of 150 characters wrapped on a terminal
    lines.append(f"Nx = level N inverted; sN = start, dN = destination of seat N; {SEVERAL} = several (listed below)")
    for p in layout.players:
        dests = " ".join(f"({d.q},{d.r})" for d in p.destinations) or "none"
        start = layout.start(p)
        where = f"({start[0]},{start[1]})" if start else "off the board"
        label = f"seat {p.seat}"
        if colour:
            label = _paint(label, fg=colour_of[p.seat], bold=True)
        lines.append(f"{label}: corner {p.corner} {where}, destinations {dests}")
    return "\n".join(lines) + "\n"
