"""The Terrace print-and-play kit: the stepped board at true size, piece tokens, set-ups, rules.

Board heights, set-ups, piece counts and the size ranking of the pieces all come
from ``terragen.terrace``; the kit only lays them out on paper. Squares are
50.8 mm (2 in) whatever the board size, so an 8 x 8 board is the real game's
16-inch square and bigger boards simply use more sheets.
"""

from __future__ import annotations

import math
from itertools import groupby

from terragen.errors import SpecError
from terragen.render.kits.parts import KitPart
from terragen.render.impose import PrintOptions, Tile, finish_document, impose, page_scale
from terragen.render.marks import footer, page_label
from terragen.render.model import Box, Document, Group, Item, Page, Polygon, Style, Text, translate
from terragen.render.shapes import Shape
from terragen.render.kits.terrace.art import (
    FRAME_MM, SEAT_COLOUR_NAMES, SEAT_COLOURS, SQUARE_MM, TOKEN_MM, board_drawing, piece_token, setup_diagram,
)
from terragen.render.text import paragraph, titled_sections, text_width
from terragen.render.tiler import assembly_note_items, grid_shape, overview, tile_board
from terragen.terrace.model import SIDES  # the seats in the order their colours are printed, two-player seats first

GAME = "Terrace"
#: The set-ups the printed pieces must cover, and the ones drawn on the set-up page.
SETUPS_SHOWN = ("full", "short", "four")


def check_board_size(size: int) -> int:
    """The board sizes the Terrace package supports; anything else is one clear line."""
    from terragen.terrace.board import SIZES

    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise SpecError(f"--size must be one of {', '.join(map(str, SIZES))} (squares per side), got {size!r}")
    return size


#: what the pieces sheet and the rules page say of the T's size, for each reading (``Rules.t_rank``)
T_WORDS = {
    "a": ("the T is an A's size, marked", "which counts as an A when sizes are compared"),
    "lowest": ("the T is the smallest", "which is smaller than an A when sizes are compared (it can take only a T)"),
    "above-a": ("the T is between the A and the B",
                "which is bigger than an A and smaller than a B when sizes are compared (an A cannot take it)"),
}


def token_diameter(kind: str, t_rank: str = "a") -> float:
    """Token size from the package's capture ranking, so a bigger token always means a bigger piece.

    ``t_rank`` is the package's switch (``Rules.t_rank``): by default the T is an A-sized token;
    with ``"lowest"`` it is the smallest token of all, with ``"above-a"`` between the A and the B.
    """
    from terragen.terrace.model import Rules

    return TOKEN_MM[Rules(t_rank=t_rank).rank(kind)]


def piece_counts(size: int) -> dict[str, int]:
    """Per colour, the most of each kind any printed set-up needs (the full game's set covers them all)."""
    from terragen.terrace.setups import setup_counts

    out: dict[str, int] = {}
    for setup in SETUPS_SHOWN + ("three",):
        for kind, k in setup_counts(setup, size).items():
            out[kind] = max(out.get(kind, 0), k)
    return out


# ----- board -------------------------------------------------------------------------------------


def board_part(opts: PrintOptions, size: int) -> KitPart:
    """A one-page overview showing which sheet is which, then the board at true size over sheets."""
    items, side = board_drawing(size)
    rows, cols = grid_shape((side, side), opts, items=items)
    total = 1 + rows * cols
    paper = opts.paper
    area = paper.content
    view = overview(items, (side, side), opts, top=16.0, room_below=36.0, width=0.35)  # the assembly note below
    k, (ox, oy) = view.k, view.origin
    ov: list[Item] = [view.picture]
    for outline, (lx, ly), name in view.windows:
        ov.append(outline)
        # the name on the line between two squares, level with their centres: on a square's centre it
        # hid the square's height (b6, e6, g6 ... on the 8x8 board), and a square's corners carry its
        # name and corner heights; half a square either side of a line is only the squares' sides
        cell = SQUARE_MM * k
        line = min(max(round((lx - ox - FRAME_MM * k) / cell), 1), size - 1)
        row = min(max(math.floor((ly - oy - FRAME_MM * k) / cell), 0), size - 1)
        lx, ly = ox + (FRAME_MM + line * SQUARE_MM) * k, oy + (FRAME_MM + (row + 0.5) * SQUARE_MM) * k
        # and no wider than half a square, so it stays clear of the heights on either side (at 31%,
        # a 12x12 board, a fixed 14 mm box covered them)
        font = min(9.0, 0.3 * cell)
        hw, hh = text_width(name, font, True) / 2 + 0.06 * cell, font * 0.36 + 0.08 * cell
        ov.append(Polygon(((lx - hw, ly - hh), (lx + hw, ly - hh), (lx + hw, ly + hh), (lx - hw, ly + hh)),
                          Style(fill="#ffffff", stroke="#1f77b4", width=0.3, opacity=1.0)))
        ov.append(Text(lx, ly + font * 0.36, name, font, "#175a8c", bold=True))
    ov.append(Text(area.x0, area.y0 + 5.0, f"Terrace board overview: {size} x {size} squares", 5.0, "#000000", anchor="start", bold=True))
    note = (f"Shown at {k * 100:.0f}%. At true size the board is {side / 10:.1f} cm square ({SQUARE_MM:g} mm squares) "
            f"and follows on {rows * cols} sheets; the blue frames show which sheet is which.")
    para, _ = paragraph(area.x0, area.y0 + 10.0, note, 2.8, area.width, "#333333")
    ov.extend(para)
    ov.extend(assembly_note_items(area.x0, oy + side * k + 6.0, area.width, (side, side), opts, items)[0])
    label = page_label(GAME, f"board overview {size}x{size}", opts.scale, 1, total, reduced=k)
    first = Page(paper.width, paper.height, label=label, trim=paper.printable)
    first.items = [page_scale(opts, paper, ov + [footer(paper, label, opts.scale)])]
    pages = [first] + tile_board(items, (side, side), opts, GAME, f"{size}x{size} board at true size ({SQUARE_MM:g} mm squares)",
                                 first_page=2, total_pages=total)
    return KitPart("board", Document(f"{GAME}: board {size}x{size}", pages, duplex="simplex"))


# ----- pieces ------------------------------------------------------------------------------------


def piece_groups(size: int, t_rank: str = "a") -> list[tuple[float, list[Tile]]]:
    """Tokens grouped by diameter (smallest first): every colour's set of each kind."""
    counts = piece_counts(size)
    groups: dict[float, list[Tile]] = {}
    from terragen.terrace.model import KINDS

    kinds = sorted(KINDS, key=lambda kd: (token_diameter(kd, t_rank), kd != "T", kd))
    for kind in kinds:
        d = token_diameter(kind, t_rank)
        for seat in SIDES:
            col, name = SEAT_COLOURS[seat], SEAT_COLOUR_NAMES[seat]
            for j in range(counts.get(kind, 0)):
                groups.setdefault(d, []).append(Tile(piece_token(d, kind, col, name, seat), col, name=f"{name} {kind}{j + 1}"))
    return sorted(groups.items())


def _pitch(d: float, bleed: float) -> float:
    """Room one round token takes in a row: both bleeds and the gap the cut ticks sit in."""
    return d + 2 * bleed + 5.0


def token_rows(tiles: list[tuple[float, Tile]], width: float, bleed: float) -> list[list[tuple[float, Tile]]]:
    """Tokens (smallest first) in rows across ``width``, each row filled before the next starts.

    A row may end one size and start the next, so only the very last row is short: packing
    size by size left a lone token on a row of its own, sometimes at the head of a sheet.
    """
    rows: list[list[tuple[float, Tile]]] = [[]]
    used = 0.0
    for d, tile in tiles:
        p = _pitch(d, bleed)
        if rows[-1] and used + p > width + 1e-6:
            rows.append([])
            used = 0.0
        rows[-1].append((d, tile))
        used += p
    return [r for r in rows if r]


def pieces_part(opts: PrintOptions, size: int, t_rank: str = "a") -> KitPart:
    """Every token, packed in full rows (smallest first) on as few sheets as possible.

    The engine's imposer lays out each run of same-size tokens in a row (bleed, crop ticks,
    optional outlines); the kit only lines the runs up and gives each sheet one footer.
    """
    paper = opts.paper
    area = paper.content
    head = 10.0
    sheets: list[tuple[list[Item], list[Box]]] = []
    items: list[Item] = []
    trims: list[Box] = []
    y = area.y0 + head
    tokens = [(d, t) for d, tiles in piece_groups(size, t_rank) for t in tiles]
    for d, _ in tokens[-1:]:
        if _pitch(d, paper.bleed) > min(area.width, area.y1 - area.y0 - head) + 1e-6:
            raise SpecError(f"a {d:g} mm token does not fit on {paper.name} paper")
    for row in token_rows(tokens, area.width, paper.bleed):
        hgt = max(_pitch(d, paper.bleed) for d, _ in row) + 0.01  # a hair over, so rounding keeps the row
        if y + hgt > area.y1 + 1e-6:
            sheets.append((items, trims))
            items, trims, y = [], [], area.y0 + head
        x = area.x0 + (area.width - sum(_pitch(d, paper.bleed) for d, _ in row)) / 2
        for d, run in groupby(row, key=lambda dt: dt[0]):
            run_tiles = [t for _, t in run]
            w = len(run_tiles) * _pitch(d, paper.bleed) + 0.01
            imp = impose(Shape("circle", d), run_tiles, opts, GAME, "pieces", area=Box(x, y, x + w, y + hgt))
            page = imp.pages[0]
            items.extend(page.items[0].items[:-1])  # the run's art and cut marks, without its footer
            if page.trim:
                trims.append(page.trim)
            x += w - 0.01
        y += hgt
    if items:
        sheets.append((items, trims))
    n = len(sheets)
    pages = []
    counts = piece_counts(size)
    per_colour = sum(counts.values())
    kinds = ", ".join(f"{counts[kd]} {kd}" for kd in ("T", "A", "B", "C", "D") if counts.get(kd))
    sizes = ", ".join(f"{kd} {token_diameter(kd, t_rank):g}" for kd in ("T", "A", "B", "C", "D"))
    t_note = T_WORDS[t_rank][0]
    how = ("along the thin circles (white on the dark pieces)" if opts.cut_lines(Shape("circle", 20.0))
           else "the circle inside each square the crop ticks mark")
    for k, (its, trims) in enumerate(sheets, 1):
        label = page_label(GAME, f"pieces, 4 colours x {per_colour}", opts.scale, k, n)
        title = [Text(area.x0, area.y0 + 4.0, f"Terrace pieces, sheet {k} of {n}: cut out {how}",
                      3.4, "#000000", anchor="start", bold=True),
                 Text(area.x0, area.y0 + 8.5, f"Each colour: {kinds}. Diameters: {sizes} mm ({t_note}).",
                      2.6, "#333333", anchor="start")]
        page = Page(paper.width, paper.height, label=label)
        page.items = [page_scale(opts, paper, list(its) + title + [footer(paper, label, opts.scale)])]
        if trims:
            page.trim = Box(min(b.x0 for b in trims), min(b.y0 for b in trims), max(b.x1 for b in trims), max(b.y1 for b in trims))
            page.bleed = page.trim.grow(paper.bleed)
        pages.append(page)
    # one-sided: a printer set to duplex put sheet 2's pieces on the back of sheet 1's
    return KitPart("pieces", Document(f"{GAME}: pieces (4 colours)", pages, duplex="simplex"))


# ----- set-ups -----------------------------------------------------------------------------------

SETUP_TITLES = {
    "full": "Full game (2 players)",
    "short": "Short game (2 players)",
    "four": "Four-player game",
}


def setups_part(opts: PrintOptions, size: int) -> KitPart:
    """The starting positions of the full, short and four-player games as diagrams on one page."""
    from terragen.terrace.model import SEAT_NAME
    from terragen.terrace.setups import SETUP_PLAYERS, SEAT_ORDER as TURNS, setup_counts, start_pieces

    paper = opts.paper
    c = paper.content
    items: list[Item] = [Text(c.x0, c.y0 + 6.0, f"Terrace set-ups ({size} x {size} board)", 6.0, "#000000", anchor="start", bold=True)]
    legend_y = c.y0 + 13.0
    x = c.x0
    for seat in SIDES:
        col = SEAT_COLOURS[seat]
        t = f"{SEAT_COLOUR_NAMES[seat]}: seat {SEAT_NAME[seat]} ({seat} edge)"
        if x > c.x0 and x + 5.5 + text_width(t, 3.0) > c.x1:  # a narrower page (--scale above 1): next line
            x, legend_y = c.x0, legend_y + 6.0
        items.append(Polygon(((x, legend_y - 3.0), (x + 4.0, legend_y - 3.0), (x + 4.0, legend_y + 1.0), (x, legend_y + 1.0)), Style(fill=col)))
        items.append(Text(x + 5.5, legend_y, t, 3.0, "#000000", anchor="start"))
        x += 7.0 + text_width(t, 3.0) + 6.0
    gap = 8.0
    w = (c.width - gap) / 2
    top = legend_y + 8.0
    caption_h = 14.0
    avail = c.y1 - top
    # two diagrams side by side, the third below on the left, notes beside it
    w = min(w, (avail - 2 * caption_h - 4.0) / 2)
    spots = [(c.x0, top), (c.x0 + w + gap, top), (c.x0, top + w + caption_h + 4.0)]
    for (sx, sy), name in zip(spots, SETUPS_SHOWN):
        art, side = setup_diagram(size, start_pieces(name, size), w)
        items.append(Group(art, translate(sx, sy + caption_h)))
        players = SETUP_PLAYERS[name]
        counts = setup_counts(name, size)
        cnt = ", ".join(f"{counts[kd]} {kd}" for kd in ("T", "A", "B", "C", "D") if counts[kd])
        items.append(Text(sx, sy + 5.0, SETUP_TITLES[name], 4.2, "#000000", anchor="start", bold=True))
        order = ", ".join(SEAT_NAME[s] for s in TURNS[players])
        items.append(Text(sx, sy + 10.5, f"{sum(counts.values())} pieces each: {cnt}. Turn order {order}.", 2.7, "#333333", anchor="start"))
    nx = c.x0 + w + gap
    ny = spots[2][1] + caption_h + 4.0
    notes = [
        "Upper case letters belong to the top seat, lower case to the bottom seat; "
        "in the four-player game the doubled letters are the left (upper) and right (lower) seats.",
        "Every seat heads for the lowest square of the opposite edge, marked 'goal' on the true-size board.",
        "The red ring with a cross marks the centre point: no piece steps diagonally across it.",
        "Three players: use the four-player set-up and leave the left edge empty.",
    ]
    items.append(Text(nx, ny - 4.0, "Reading the diagrams", 4.0, "#000000", anchor="start", bold=True))
    for note in notes:
        para, ny = paragraph(nx, ny + 2.0, note, 3.0, c.x1 - nx, "#222222", leading=1.4)
        items.extend(para)
        ny += 2.0
    label = page_label(GAME, f"set-ups ({size}x{size})", opts.scale, 1, 1, reduced=w / (size * SQUARE_MM + 20.0))
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = [page_scale(opts, paper, items + [footer(paper, label, opts.scale)])]
    return KitPart("setups", Document(f"{GAME}: set-ups", [page]))


# ----- rules -------------------------------------------------------------------------------------

RULES = [
    ("Goal", "Win by taking the other side's T piece, or by walking your own T onto the lowest square of the edge "
     "facing your home edge (each board square marked 'goal' says whose)."),
    ("The board", "Every square has a height, printed on it. Squares of one height that touch side to side make a "
     "terrace, shaped like an L; the heavy lines are where the height changes. Two high corners face two low ones."),
    ("Pieces", "Each side has pieces of four sizes, A (smallest) to D (largest), plus the T, which counts as an A "
     "when sizes are compared. Set up as shown on the set-up page; the top (upper case) side moves first."),
    ("Along a terrace", "Move a piece as far as you like along its own terrace to an empty square. It may pass your "
     "own pieces but no one else's."),
    ("Climbing and descending", "Climb one square to an empty square on the next terrace up, straight or on the "
     "diagonal. Descend one square to an empty square on the next terrace down, straight only; never on the "
     "diagonal."),
    ("Taking pieces", "The only diagonal step down is a capture: onto a piece one level lower that is no bigger than "
     "the mover. The taken piece leaves the board, and it may be your own, which can save a bigger piece."),
    ("The centre", "No piece ever steps diagonally across the centre point of the board (the red ring)."),
    ("More players", "With three or four players everyone plays alone and turns go clockwise. A player whose T is "
     "lost leaves the game with all their pieces; the rest play on."),
    ("Draws", "If the player to move has no legal move at all, the game ends in a draw."),
    ("Table manners", "Warn your opponent by saying \"Terrace\" when your next move could take their T, and "
     "\"Terrace-mate\" when the T has no escape left."),
    ("Printing notes", "Print at 100% (check the 100 mm bar). The board sheets overlap like a poster: cut a sheet "
     "along its dashed edges, glue it onto the shaded strip of the sheet beneath with its cut edge through the "
     "circle-and-cross marks; each sheet's heading says which edges to cut. Glue the tokens to card before "
     "cutting them out along their circles."),
]


def rules_part(opts: PrintOptions, t_rank: str = "a") -> KitPart:
    """One page of rules in short; the T's size sentence follows the ``t_rank`` switch."""
    paper = opts.paper
    rules = list(RULES)
    rules = [(h, b.replace(T_WORDS["a"][1], T_WORDS[t_rank][1])) for h, b in rules]
    c = paper.content
    items, y = titled_sections(c, "Terrace: rules at a glance",
                               "Our summary for the table; where the rulebook is silent, terragen's choices apply "
                               "(rules-decisions.md in its docs).", rules, 3.9)
    label = page_label(GAME, "rules summary", opts.scale, 1, 1)
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = [page_scale(opts, paper, items + [footer(paper, label, opts.scale)])]
    return KitPart("rules", Document(f"{GAME}: rules summary", [page]))


def terrace_kit(opts: PrintOptions, size: int = 8, t_rank: str = "a") -> list[KitPart]:
    """Every part of the kit, in the order a player would print them.

    ``t_rank`` follows the rule switch of the same name, so the T token's size
    matches the capture rule the group plays with.
    """
    from terragen.terrace.model import Rules

    check_board_size(size)
    Rules(t_rank=t_rank)  # a bad value is one clear SpecError
    parts = [
        rules_part(opts, t_rank),
        setups_part(opts, size),
        board_part(opts, size),
        pieces_part(opts, size, t_rank),
    ]
    return [KitPart(p.name, finish_document(p.doc, opts)) for p in parts]
