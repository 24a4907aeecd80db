"""Art for Terrace: the stepped board, its set-up diagrams and the round piece tokens.

Every height, set-up and piece count comes from ``terragen.terrace``; this
module only decides colours, line weights and where text goes. Drawings are in
millimetres: the board with its origin at the top-left of its frame, a token
centred on (0, 0).
"""

from __future__ import annotations

from terragen.render.contrast import ink_on, readable
from terragen.render.model import MIN_TEXT_MM, Circle, Item, Polygon, Polyline, Style, Text

#: One board square: the real game's 16-inch board over 8 squares (2 in).
SQUARE_MM = 16 * 25.4 / 8
#: Frame round the squares, wide enough for the file letters and rank numbers.
FRAME_MM = 10.0
#: Token diameter per capture rank (Rules.rank): rank 1 (A, and the T by default) is the smallest.
TOKEN_MM = {0: 16.0, 1: 20.0, 1.5: 22.5, 2: 25.0, 3: 30.0, 4: 36.0}  # 1.5: a T between the A and the B

#: The lowest and highest terrace colours; levels in between are blended so any board size (6..12) works.
LOW, HIGH = "#2f5d50", "#f3ecd0"
LINE = "#1a1a1a"
CENTRE_MARK = "#c0392b"

#: the centre's ring, as a share of a square's side (its radius)
CENTRE_RING = 0.14

#: Colour of each seat's pieces (the four corners of a four-player game), and its name. The four
#: print as clearly different greys (about 50, 90, 170 and 220 of 255; the two-player seats are the
#: darkest and the lightest), and every token also carries its seat's letter form (D, d, DD, dd).
SEAT_COLOURS = {"top": "#7f1414", "bottom": "#bfe0ff", "left": "#2e7d32", "right": "#f0a030"}
SEAT_COLOUR_NAMES = {"top": "red", "bottom": "blue", "left": "green", "right": "orange"}


def _mix(a: str, b: str, t: float) -> str:
    ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def level_colour(h: int, size: int) -> str:
    """Shade of a square of height ``h``: dark low ground to pale high ground, evenly stepped.

    A shade in the middle band where neither dark nor white text reaches 4.5:1 is
    lightened a touch (less than half a step, so the order of the levels holds).
    """
    from terragen.render.contrast import MIN_TEXT_CONTRAST, contrast

    t = (h - 1) / (size - 1) if size > 1 else 0.0
    colour = _mix(LOW, HIGH, t)
    while contrast(ink_on(colour), colour) < MIN_TEXT_CONTRAST and t < 1.0:
        t = min(1.0, t + 0.01)
        colour = _mix(LOW, HIGH, t)
    return colour


def level_ink(h: int, size: int) -> str:
    """Text colour that stays readable on :func:`level_colour`."""
    return ink_on(level_colour(h, size))


def _rect(x0: float, y0: float, w: float, h: float, style: Style) -> Polygon:
    return Polygon(((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)), style)


def board_drawing(size: int, cell: float = SQUARE_MM, frame: float = FRAME_MM, detail: bool = True) -> tuple[list[Item], float]:
    """The stepped board of ``size`` x ``size`` squares of side ``cell``; returns items and the total side.

    Each square is shaded by height and carries its height number; lines between
    squares of different height are heavy (the terrace edges), lines inside a
    terrace thin; the centre point, which no piece may cross diagonally, gets a
    red cross. ``detail`` adds square names and the corner height numbers that
    stay visible under a piece (the true-size board); small diagrams leave them out.
    """
    from terragen.terrace.board import board, square_name
    from terragen.terrace.setups import objective

    b = board(size)
    n = size
    side = n * cell + 2 * frame
    items: list[Item] = [_rect(0, 0, side, side, Style(fill="#ffffff"))]
    x0 = y0 = frame
    for r in range(n):
        for c in range(n):
            h = b.heights[r * n + c]
            items.append(_rect(x0 + c * cell, y0 + r * cell, cell, cell, Style(fill=level_colour(h, n))))
    for r in range(n):
        for c in range(n):
            h = b.heights[r * n + c]
            ink = level_ink(h, n)
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            big = cell * (0.36 if detail else 0.5)
            items.append(Text(cx, cy + 0.36 * big, str(h), big, ink, bold=True))
            if detail:
                small = cell * 0.085
                # the board's centre (sizes are even) is a corner of four squares, and its ring stood over
                # the words in those corners (e4's name, d4's height on the 8x8 board): a word in a corner
                # at the centre moves along its edge to just clear the ring
                ring, half = CENTRE_RING * cell * 1.2, n // 2
                items.append(Text(x0 + (c + 1) * cell - 2.0 - (ring if (r, c + 1) == (half, half) else 0.0),
                                  y0 + r * cell + 2.0 + small * 0.75, str(h), small, ink, anchor="end", bold=True))
                items.append(Text(x0 + c * cell + 2.0 + (ring if (r + 1, c) == (half, half) else 0.0),
                                  y0 + (r + 1) * cell - 2.0, str(h), small, ink, anchor="start", bold=True))
                items.append(Text(x0 + c * cell + 2.0 + (ring if (r, c) == (half, half) else 0.0),
                                  y0 + r * cell + 2.0 + small * 0.75, square_name((r, c), n), small * 0.8, ink, anchor="start"))
    # goals: the lowest square of the opposite edge, as the package defines it
    goals: dict[tuple[int, int], list[str]] = {}
    from terragen.terrace.model import SEAT_NAME

    for side_name in ("top", "bottom", "left", "right"):
        goals.setdefault(objective(side_name, n), []).append(SEAT_NAME[side_name])
    if detail:
        for (r, c), names in sorted(goals.items()):
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            items.append(Text(cx, cy + cell * 0.36, "goal of " + ", ".join(names), cell * 0.075, level_ink(b.heights[r * n + c], n)))
    thin = Style(stroke=LINE, width=0.25 if detail else 0.12)
    heavy = Style(stroke=LINE, width=1.6 if detail else 0.6)
    for r in range(n):
        for c in range(n):
            h = b.heights[r * n + c]
            if c + 1 < n:  # the edge to the right
                st = thin if b.heights[r * n + c + 1] == h else heavy
                x = x0 + (c + 1) * cell
                items.append(Polyline(((x, y0 + r * cell), (x, y0 + (r + 1) * cell)), st))
            if r + 1 < n:  # the edge below
                st = thin if b.heights[(r + 1) * n + c] == h else heavy
                y = y0 + (r + 1) * cell
                items.append(Polyline(((x0 + c * cell, y), (x0 + (c + 1) * cell, y)), st))
    items.append(_rect(x0, y0, n * cell, n * cell, heavy))
    # the centre: a red ring with a cross, "no diagonal step across here"
    cx = cy = frame + n * cell / 2
    rr = cell * CENTRE_RING
    mark = Style(stroke=CENTRE_MARK, width=rr * 0.22)
    items.append(Circle(cx, cy, rr, Style(fill="#ffffff", stroke=CENTRE_MARK, width=rr * 0.22)))
    items.append(Polyline(((cx - rr * 0.6, cy - rr * 0.6), (cx + rr * 0.6, cy + rr * 0.6)), mark))
    items.append(Polyline(((cx - rr * 0.6, cy + rr * 0.6), (cx + rr * 0.6, cy - rr * 0.6)), mark))
    # file letters and rank numbers in the frame
    from terragen.terrace.board import FILES

    fs = frame * 0.45
    for k in range(n):
        x = x0 + (k + 0.5) * cell
        items.append(Text(x, frame / 2 + 0.36 * fs, FILES[k], fs, "#444444"))
        items.append(Text(x, side - frame / 2 + 0.36 * fs, FILES[k], fs, "#444444"))
        y = y0 + (k + 0.5) * cell + 0.36 * fs
        items.append(Text(frame / 2, y, str(n - k), fs, "#444444"))
        items.append(Text(side - frame / 2, y, str(n - k), fs, "#444444"))
    return items, side


def piece_token(d: float, kind: str, colour: str, colour_name: str, side: str = "top") -> list[Item]:
    """A round piece: seat colour, a ring inside the cut, the piece written as the seat writes it
    (``D`` top, ``d`` bottom, ``DD`` left, ``dd`` right, as on the set-up page), colour name.

    The letter form tells the sides apart on a mono print, where the colours are
    only greys. The T gets a white centre with its letter in a dark shade of the
    seat colour, so it stands out from the A it shares its size with.
    """
    from terragen.terrace.model import piece_token as written

    r = d / 2
    ink = ink_on(colour)
    text = written(side, kind)
    size = r * (0.95 if len(text) == 1 else 0.7)
    items: list[Item] = [
        Circle(0, 0, r * 1.15, Style(fill=colour)),
        Circle(0, 0, r * 0.84, Style(stroke=ink, width=max(0.4, r * 0.06))),
    ]
    if kind == "T":
        items.append(Circle(0, 0, r * 0.66, Style(fill="#ffffff")))
        items.append(Text(0, size * 0.36, text, size, readable(colour, "#ffffff") if ink == "#ffffff" else ink, bold=True))
    else:
        items.append(Text(0, size * 0.36, text, size, ink, bold=True))
        items.append(Text(0, r * 0.72, colour_name, max(MIN_TEXT_MM, r * 0.16), ink))
    return items


def setup_diagram(size: int, pieces: dict, width: float) -> tuple[list[Item], float]:
    """A small board (heights shaded) with the starting pieces as coloured discs; ``width`` mm wide."""
    frame = width * 0.05
    cell = (width - 2 * frame) / size
    items, side = board_drawing(size, cell, frame, detail=False)
    # fade the height numbers so the pieces read first: draw a light veil over the squares
    items.append(_rect(frame, frame, size * cell, size * cell, Style(fill="#ffffff", opacity=0.35)))
    for (r, c), piece in sorted(pieces.items()):
        cx, cy = frame + (c + 0.5) * cell, frame + (r + 0.5) * cell
        col = SEAT_COLOURS[piece.side]
        items.append(Circle(cx, cy, cell * 0.42, Style(fill=col, stroke=LINE, width=cell * 0.03)))
        fs = cell * 0.42
        items.append(Text(cx, cy + 0.36 * fs, piece.token, fs * (0.8 if len(piece.token) == 2 else 1.0), ink_on(col), bold=True))
    return items, side
