"""The Terrain Game print-and-play kit: which sheets exist and what goes on them.

The kit takes its pieces from the model's inventory (level, pattern, copies)
and its exits from ``pieces.exits``; it only decides how things look and where
they go on paper. Default tile size: 50 mm across flats (see
``docs/printing.md``): with levels 6 mm high (a quarter inch) a piece is about
two fingers wide, a level-8 stack stands 48 mm tall, and the 91-hex board
measures about 57 × 51 cm, a normal table-top footprint.
"""

from __future__ import annotations

import math
import textwrap

from terragen.errors import SpecError
from terragen.grids import hex as hx
from terragen.render import nets as netmod
from terragen.render.kits.parts import KitPart, alignment_part, check_tile_size
from terragen.render.impose import Imposed, PrintOptions, Tile, finish_document, gutter_fold, impose, page_scale
from terragen.render.marks import footer, page_label
from terragen.render.model import Box, Document, Group, Item, Page, Text, translate
from terragen.render.contrast import ink_on, readable
from terragen.render.palette import Palette, load_palette, shade
from terragen.render.shapes import Shape
from terragen.render.kits.terrain.art import LEVEL_MM, board_drawing, elevation_gauge, piece_back, piece_face, round_token, start_mark
from terragen.render.text import titled_sections
from terragen.terrain.pieces import Inventory
from terragen.render.tiler import SHEET_NAME_SIZE, assembly_note_items, grid_shape, overview, tile_board

GAME = "The Terrain Game"
DEFAULT_TILE = 50.0  # mm across flats
MIN_TILE, MAX_TILE = 25.0, 80.0
TOKEN_D = 20.0
NET_GAP = 3.0  # mm between fold-up nets on a sheet


def _pieces(inventory: Inventory) -> list[tuple[str, int, str]]:
    from terragen.terrain.pieces import parse_piece_id

    out = []
    for pid in inventory.piece_ids():
        lv, pat, _ = parse_piece_id(pid)
        out.append((pid, lv, pat))
    return out


def piece_tiles(R: float, pal: Palette, inventory: Inventory) -> list[Tile]:
    from terragen.terrain.pieces import exits

    tiles = []
    for pid, lv, pat in _pieces(inventory):
        tiles.append(Tile(piece_face(R, lv, exits(pat, 0), pid, pal), pal.level(lv),
                          piece_back(R, lv, pid, pal), shade(pal.level(lv), 0.75), pid))
    return tiles


def tiles_part(opts: PrintOptions, size: float, pal: Palette, inventory: Inventory) -> KitPart:
    shape = Shape("hex", size)
    imp = impose(shape, piece_tiles(shape.circumradius, pal, inventory), opts, GAME,
                 f"{inventory.total} pieces, {size:g} mm across flats", duplex=True)
    return KitPart("tiles", Document(f"{GAME}: pieces (print double-sided)", imp.pages, duplex=opts.flip))


def gutter_part(opts: PrintOptions, size: float, pal: Palette, inventory: Inventory) -> KitPart:
    shape = Shape("hex", size)
    imp = gutter_fold(shape, piece_tiles(shape.circumradius, pal, inventory), opts, GAME,
                      f"{inventory.total} pieces, {size:g} mm")
    return KitPart("tiles-gutterfold", Document(f"{GAME}: pieces, gutter-fold layout (no duplex needed)", imp.pages, duplex="simplex"))


def board_part(opts: PrintOptions, size: float, pal: Palette, radius: int = 5) -> KitPart:
    """A one-page overview (how the sheets fit together) then the board at true size over sheets."""
    R = size / math.sqrt(3)
    items, (bw, bh) = board_drawing(radius, R, pal)
    rows, cols = grid_shape((bw, bh), opts, items=items)
    total = 1 + rows * cols
    paper = opts.paper
    area = paper.content
    view = overview(items, (bw, bh), opts, top=14.0, room_below=36.0, name_size=SHEET_NAME_SIZE)  # the assembly note below
    k, (ox, oy) = view.k, view.origin
    ov: list[Item] = [view.picture]
    for outline, (lx, ly), name in view.windows:
        ov.append(outline)
        ov.append(Text(lx, ly, name, SHEET_NAME_SIZE, "#175a8c", bold=True))
    ov.append(Text(area.x0, area.y0 + 5.0, f"Board overview: {hx.board_size(radius)} positions, radius {radius}", 5.0, "#000000", anchor="start", bold=True))
    ov.append(Text(area.x0, area.y0 + 10.5,
                   f"Shown at {k * 100:.0f}%. The true-size board ({bw / 10:.1f} × {bh / 10:.1f} cm) follows on {rows * cols} sheets; "
                   "blue frames show which sheet is which.", 2.8, "#333333", anchor="start"))
    ov.extend(assembly_note_items(area.x0, oy + bh * k + 6.0, area.width, (bw, bh), opts, items)[0])
    label = page_label(GAME, "board overview", opts.scale, 1, total, reduced=k)
    first = Page(paper.width, paper.height, label=label, trim=paper.printable)
    first.items = [page_scale(opts, paper, ov + [footer(paper, label, opts.scale)])]
    pages = [first] + tile_board(items, (bw, bh), opts, GAME, f"board at true size ({size:g} mm hexes)", first_page=2, total_pages=total)
    return KitPart("board", Document(f"{GAME}: board", pages, duplex="simplex"))


#: the most pieces a kit prints: ten times the extended set, 200-odd pages of tiles and as many backs
MAX_KIT_PIECES = 1280

#: the tokens sheet's words on cutting them out, and their size (mm)
TOKENS_HOW = ("Glue the sheet to card, then cut each token out along its thin outer circle. A START mark "
              "lies beside its player's corner, its arrow towards the middle of the board.")
HOW_MM = 2.4


def tokens_part(opts: PrintOptions, pal: Palette, seats: int = 6) -> KitPart:
    """Start marks, one token per player and three destination flags per colour, and the elevation gauge."""
    tiles: list[Tile] = []
    for s in range(seats):
        tiles.append(Tile(start_mark(TOKEN_D, pal.seat(s), pal.seat_name(s), ink=ink_on(pal.seat(s)),
                                     player=f"P{s + 1}"), pal.seat(s), name=f"start {s}"))
    for s in range(seats):
        tiles.append(Tile(round_token(TOKEN_D, pal.seat(s), f"P{s + 1}", pal.seat_name(s), ink=ink_on(pal.seat(s))), pal.seat(s), name=f"player {s}"))
    for s in range(seats):
        for j in range(1, 4):
            ground = shade(pal.seat(s), 1.55)
            # the flag names its player's token too, so flags sort without colour (mono prints)
            tiles.append(Tile(round_token(TOKEN_D, ground, str(j), f"P{s + 1}",
                                          ink=readable(shade(pal.seat(s), 0.55), ground), symbol="flag"),
                              shade(pal.seat(s), 1.55), name=f"destination {s}.{j}"))
    paper = opts.paper
    gitems, gw, gh = elevation_gauge(pal)
    c = paper.content
    gx, gy = c.x1 - gw - 2.0, c.y0 + 8.0
    # under the gauge, what to cut: the sheet said nothing of which of a token's circles to cut, nor
    # what a START mark's arrow is for
    how = textwrap.wrap(TOKENS_HOW, width=int((gw + 4.0) / (0.48 * HOW_MM)))
    below = gy + gh + 4.0 + HOW_MM * 1.3 * len(how)
    imp = _tokens_round_gauge(tiles, opts, Box(gx, c.y0, c.x1, below))
    page = imp.pages[0]  # the gauge goes at the top right of the first page
    extra: list[Item] = [Group(gitems, translate(gx, gy)),
                         Text(gx + gw / 2, gy - 3.0, "elevation gauge", 2.4, "#000000")]
    extra += [Text(gx - 2.0, gy + gh + 4.0 + HOW_MM * 1.3 * (k + 1), line, HOW_MM, "#000000", anchor="start")
              for k, line in enumerate(how)]
    page.items.append(page_scale(opts, paper, extra))
    gauge = Box(gx, gy, gx + gw, gy + gh)  # it is cut out too: the trim box holds it
    page.trim, page.bleed = gauge.union(page.trim), gauge.union(page.bleed)
    return KitPart("tokens", Document(f"{GAME}: tokens and gauge", imp.pages))


def _tokens_round_gauge(tiles: list[Tile], opts: PrintOptions, gauge: Box) -> Imposed:
    """The tokens on as few pages as they fit: in the columns beside the ``gauge`` (its box, with
    its caption, at the top right of the content), or, where that takes another page, over the
    whole width with the places that would reach the gauge left empty (at --scale 1.1 the
    columns beside it dropped from 5 to 4 and two flags went on a page of their own)."""
    c = opts.paper.content
    contents = "start marks, player tokens, destination flags, elevation gauge"
    shape = Shape("circle", TOKEN_D)
    beside = impose(shape, tiles, opts, GAME, contents, area=Box(c.x0, c.y0, gauge.x0 - 8.0, c.y1))
    if len(beside.pages) == 1:
        return beside
    around = impose(shape, tiles, opts, GAME, contents, keep_out=gauge.grow(1.0))
    return around if len(around.pages) < len(beside.pages) else beside


def rules_sections(positions: int = 91, pieces: int = 96) -> list[tuple[str, str]]:
    """The rules summary for a kit of ``pieces`` and a board of ``positions`` (the boxed set's 96 and
    91 unless the kit is for another radius or set: its page said 91 and 96 over a 127-position board)."""
    spare = pieces - positions
    spares = f"{spare} are spares" if spare != 1 else "1 is a spare"
    need = (f"The {positions}-position board, the {pieces} pieces ({positions} go on the board, {spares})"
            if spare else f"The {positions}-position board, the {pieces} pieces (all go on the board)")
    return [
    ("What you need", f"{need}, one token per "
     "player, one to three destination flags per player, a white die and a red die."),
    ("Building the board", "Each player picks a START corner and lays the first piece there. Then players take turns "
     f"adding one piece next to the pieces already down, until all {positions} positions are covered. A piece's big number "
     "is its height in levels; its dots (pips) mark the three sides a token may leave by."),
    ("Destinations", "Each player then places flags for a neighbour (the same number, one to three, for everyone), "
     "never two on one position, and only where a token could get to without ever climbing or dropping more than "
     "three levels in a single step. A flag may sit on a corner nobody starts from. Tokens start on their corners."),
    ("Your turn", "The highest roll starts, then players take turns in the order a build sheet gives (a generated "
     "board was made fair for that order, with the first turn moving on one player each game). Roll both dice. The white die is how many movement points you have. An odd red die means bad "
     "weather: every step costs twice as much."),
    ("Moving", "Step to a neighbouring position only across a pip side of the piece your token stands on; the piece "
     "you enter may have its pips anywhere. A step may go up or down at most three levels. Turned-over pieces "
     "cannot be entered or left."),
    ("Meeting other tokens", "Never two tokens on one position. You may move over another token, but if your move "
     "ends on it, that token is sent back to its start corner. A token standing on its own start corner cannot be "
     "landed on."),
    ("Costs", "Same height: 1 point. Going down: 1 point per level dropped. Going up: 1 point per level climbed, "
     "plus 1. Double all costs in bad weather. Spend as many of your points as you like, or none; unused points "
     "are lost."),
    ("Doubles", "When both dice show the same number you do not move; instead you turn one piece anywhere on the "
     "board (with or without a token on it) to a new direction, or pass. Variant: on a double six you may "
     "instead turn an empty piece upside down for the rest of the game."),
    ("Winning", "A flag counts when your token ends a move on it; with several flags, visit them in any order. "
     "The first player to have all of their flags wins."),
    ("Team play (variant)", "With four or six players, play in pairs, as a build sheet names them: mostly "
     "the players on neighbouring start corners. Partners may never move further apart than three positions, or than they "
     "already stand; nobody is sent back to start. A player with all of their flags leaves the board; the first "
     "pair with both players home wins."),
    ("Printing notes", "Print the piece sheets double-sided (or use the gutter-fold file); the back of each piece "
     "is its turned-over face. Check the 100 mm bar on any page with a ruler before cutting. The elevation gauge "
     "measures stacks, 6 mm per level: stand its bottom edge on the table beside them."),
    ]


def rules_part(opts: PrintOptions, positions: int = 91, pieces: int = 96) -> KitPart:
    paper = opts.paper
    c = paper.content
    items, y = titled_sections(c, "The Terrain Game: rules at a glance",
                               "A summary for the table; the full rulebook decides any question.",
                               rules_sections(positions, pieces), 3.9)
    label = page_label(GAME, "rules summary", opts.scale, 1, 1)
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = [page_scale(opts, paper, items + [footer(paper, label, opts.scale)])]
    return KitPart("rules", Document(f"{GAME}: rules summary", [page]))


def nets_part(opts: PrintOptions, size: float, pal: Palette, inventory: Inventory) -> KitPart:
    from terragen.terrain.pieces import exits

    R = size / math.sqrt(3)
    paper = opts.paper
    # nets sit NET_GAP apart; a bleed of half that keeps each net's bleed its own colour all round
    bleed = min(paper.bleed, NET_GAP / 2)
    nets = []
    for pid, lv, pat in _pieces(inventory):
        face = piece_face(R, lv, exits(pat, 0), pid, pal, turn=30.0, notch=True)
        nets.append(netmod.prism_net(R, lv * LEVEL_MM, face, shade(pal.level(lv), 0.85), LEVEL_MM, pid,
                                     bleed=bleed, lid_colour=pal.level(lv)))
    c = paper.content
    # each net's bleed stays inside the printable area; at the foot it may reach into the footer's
    # empty top (the label sits lower), which keeps the 96 nets on as few sheets as without bleed
    area = Box(c.x0 + bleed, c.y0 + bleed, c.x1 - bleed, c.y1)
    for n in nets:
        if n.bounds.width > area.width or n.bounds.height > area.height:
            grown = f" at --scale {opts.scale:g}" if opts.scale > 1 else ""  # the page is laid out smaller, then grown
            raise SpecError(f"a {size:g} mm piece's fold-up net does not fit {paper.name} paper{grown}; "
                            f"use a smaller --tile-size{' or --scale' if grown else ''}")
    packed = netmod.pack_nets(nets, area, gap=NET_GAP)
    pages = []
    for k, placed in enumerate(packed, 1):
        names = ", ".join(nets[i].items[-1].text for i, _ in placed[:1]) + (f" to {nets[placed[-1][0]].items[-1].text}" if len(placed) > 1 else "")
        label = page_label(GAME, f"fold-up pieces {names} (cut solid, fold dashed)", opts.scale, k, len(packed))
        page = Page(paper.width, paper.height, label=label, trim=paper.content, bleed=Box(c.x0, c.y0, c.x1, c.y1 + bleed))
        bleeds = [Group(nets[i].bleed, at) for i, at in placed]  # under every net: no bleed covers art
        page.items = [page_scale(opts, paper, bleeds + [netmod.place(nets[i], at) for i, at in placed] + [footer(paper, label, opts.scale)])]
        pages.append(page)
    return KitPart("nets", Document(f"{GAME}: fold-up 3D pieces", pages, duplex="simplex"))


def terrain_kit(opts: PrintOptions, tile_size: float = DEFAULT_TILE, nets: bool = False,
                inventory: Inventory | None = None, radius: int = 5, palette: Palette | None = None) -> list[KitPart]:
    """Every part of the kit, in the order a player would print them: the pieces of ``inventory``
    (the boxed set unless given) and a board of ``radius``, so that a board generated for another
    radius or set can be built from its own kit (its corners' start marks stand where its build
    sheet puts them); coloured by ``palette`` (the default colours unless given)."""
    check_tile_size(tile_size, MIN_TILE, MAX_TILE)
    from terragen.terrain.pieces import standard_inventory

    inv = inventory or standard_inventory()
    if inv.total > MAX_KIT_PIECES:  # 1,000 copies of each kind ran for minutes, silently, towards 1.6 GB
        raise SpecError(f"the {inv.name!r} set has {inv.total} pieces; a kit prints at most {MAX_KIT_PIECES} "
                        f"(the boxed set has 96, the extended one 128)")
    positions = hx.board_size(radius)
    if inv.total < positions:  # generate refuses such a board too: no kit can build it
        hint = " (radius 6 takes the extended set)" if radius == 6 else ""
        raise SpecError(f"the {inv.total} pieces of the {inv.name!r} set cannot cover a radius-{radius} board's "
                        f"{positions} positions{hint}")
    pal = palette or load_palette()
    parts = [
        rules_part(opts, positions, inv.total),
        tiles_part(opts, tile_size, pal, inv),
        gutter_part(opts, tile_size, pal, inv),
        alignment_part(opts, GAME),
        board_part(opts, tile_size, pal, radius),
        tokens_part(opts, pal),
    ]
    if nets:
        parts.append(nets_part(opts, tile_size, pal, inv))
    return [KitPart(p.name, finish_document(p.doc, opts)) for p in parts]
