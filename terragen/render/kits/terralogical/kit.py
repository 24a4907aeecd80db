"""The Terralogical print-and-play kit: which sheets exist and what goes on them.

Game facts come from ``terragen.terralogical``: the deck (the shipped default
or a deck file), the sun and flower tiles, the board size and where the start
field and the flower fields are. This module only lays them out on paper.

Sizes: tiles are 38 mm squares by default and the board squares are 2 mm
larger (40 mm), so a tile drops into its square with a millimetre of play on
each side and a row of eight tiles never outgrows the board even when cut a
little generously. 38 mm is the largest tile of which 24 fit a sheet of both
A4 and Letter with bleed and room for the crop ticks (three duplex sheets for
the 65 tiles). The scoring track runs round the board in 100 fields a third
of a square wide (13.3 mm: room for a cube); the whole board is then 347 mm
square, four A4 or Letter sheets.
"""

from __future__ import annotations


from terragen.errors import SpecError
from terragen.render.kits.parts import KitPart, alignment_part, check_tile_size
from terragen.render.impose import PrintOptions, Tile, finish_document, gutter_fold, impose, page_scale
from terragen.render.marks import TICK_GAP, TICK_LEN, footer, page_label
from terragen.render.model import Box, Document, Item, Page, Text
from terragen.render.shapes import Shape
from terragen.render.kits.terralogical.art import (
    BACK, LEGEND_NOTES, TILE_BLEED, board_drawing, legend, tile_back, tile_bleed, tile_face,
)
from terragen.render.text import paragraph, titled_sections
from terragen.render.tiler import SHEET_NAME_SIZE, assembly_note_items, grid_shape, overview, tile_board
from terragen.terralogical.deck import Deck

GAME = "Terralogical"
DEFAULT_TILE = 38.0  # mm, side of a tile
SQUARE_PLAY = 2.0    # mm a board square is larger than a tile
MIN_TILE, MAX_TILE = 25.0, 60.0
TICK_REACH = TICK_GAP + TICK_LEN + 3.5 + 0.3  # how far past a cut a crop tick may reach (marks.crop_ticks)


def board_square(tile_size: float) -> float:
    """Side of a board square for tiles of ``tile_size``: a little play so tiles sit without jamming."""
    return tile_size + SQUARE_PLAY


def deck_tiles(deck: Deck, size: float, bleed: float = 3.0) -> list[Tile]:
    """Every tile of the game: the sun, the flower, then the land tiles in deck order, each with the
    plain back; the fronts' art carries on into the bleed."""
    from terragen.terralogical.tiles import END_ID, END_TILE, START_ID, START_TILE

    back = tile_back(size)
    out = [Tile(tile_face(START_TILE, size, centre="sun"), TILE_BLEED, back, BACK, START_ID,
                bleed_art=tile_bleed(START_TILE, size, bleed)),
           Tile(tile_face(END_TILE, size, centre="flower"), TILE_BLEED, back, BACK, END_ID,
                bleed_art=tile_bleed(END_TILE, size, bleed))]
    for tid, tile in deck.tiles:
        out.append(Tile(tile_face(tile, size, tid), TILE_BLEED, back, BACK, tid, bleed_art=tile_bleed(tile, size, bleed)))
    return out


def tick_area(opts: PrintOptions) -> Box:
    """The content area less room for the crop ticks, which reach past the bleed: square tiles
    pack edge to edge, so without this a full sheet would put ticks in the printer's margin."""
    c = opts.paper.content
    room = max(0.0, TICK_REACH - opts.paper.bleed)
    return Box(c.x0 + room, c.y0 + room, c.x1 - room, c.y1 - room)


def tiles_part(opts: PrintOptions, size: float, deck: Deck) -> KitPart:
    tiles = deck_tiles(deck, size, opts.paper.bleed)
    imp = impose(Shape("square", size), tiles, opts, GAME, f"{len(tiles)} tiles (sun, flower, land), {size:g} mm", duplex=True,
                 area=tick_area(opts))
    return KitPart("tiles", Document(f"{GAME}: tiles (print double-sided)", imp.pages, duplex=opts.flip))


def gutter_part(opts: PrintOptions, size: float, deck: Deck) -> KitPart:
    tiles = deck_tiles(deck, size, opts.paper.bleed)
    imp = gutter_fold(Shape("square", size), tiles, opts, GAME, f"{len(tiles)} tiles, {size:g} mm")
    return KitPart("tiles-gutterfold", Document(f"{GAME}: tiles, gutter-fold layout (no duplex needed)", imp.pages, duplex="simplex"))


def board_items(tile_size: float) -> tuple[list[Item], float, dict]:
    """The board drawing for ``tile_size`` tiles, with the start and flower fields the game package names."""
    from terragen.terralogical.board import FLOWER_CORNER, FLOWER_FIELDS, SIZE, SUN_SQUARE

    return board_drawing(board_square(tile_size), SIZE, SUN_SQUARE, FLOWER_CORNER, FLOWER_FIELDS)


def board_part(opts: PrintOptions, tile_size: float) -> KitPart:
    """A one-page overview with the legend, then the board at true size over sheets."""
    items, side, _ = board_items(tile_size)
    sq = board_square(tile_size)
    rows, cols = grid_shape((side, side), opts, items=items)
    total = 1 + rows * cols
    paper = opts.paper
    area = paper.content
    leg_h = 52.0 + 14.0  # the legend and the assembly note go below the picture
    view = overview(items, (side, side), opts, top=14.0, room_below=16.0 + leg_h, name_size=SHEET_NAME_SIZE)
    k, (ox, oy) = view.k, view.origin
    ov: list[Item] = [view.picture]
    for outline, (lx, ly), name in view.windows:
        ov.append(outline)
        ov.append(Text(lx, ly, name, SHEET_NAME_SIZE, "#175a8c", bold=True))
    ov.append(Text(area.x0, area.y0 + 5.0, "Terralogical board: 8 x 8 squares and the 0-100 scoring track", 5.0, "#000000",
                   anchor="start", bold=True))
    ov.append(Text(area.x0, area.y0 + 10.5,
                   f"Shown at {k * 100:.0f}%. True size: {side / 10:.1f} cm square, {sq:g} mm squares for {tile_size:g} mm tiles, "
                   f"on {rows * cols} sheets; blue frames show which sheet is which.", 2.8, "#333333", anchor="start"))
    ly = oy + side * k + 6.0
    note, ly = assembly_note_items(area.x0, ly, area.width, (side, side), opts, items)
    ov.extend(note)
    leg, ly = legend(area.x0, ly + 2.0)
    ov.extend(leg)
    for note in LEGEND_NOTES:
        para, ly = paragraph(area.x0, ly, note, 2.9, area.width, colour="#222222")
        ov.extend(para)
        ly += 0.8
    label = page_label(GAME, "board overview and legend", opts.scale, 1, total, reduced=k)
    first = Page(paper.width, paper.height, label=label, trim=paper.printable)
    first.items = [page_scale(opts, paper, ov + [footer(paper, label, opts.scale)])]
    pages = [first] + tile_board(items, (side, side), opts, GAME, f"board at true size ({sq:g} mm squares)",
                                 first_page=2, total_pages=total)
    return KitPart("board", Document(f"{GAME}: board and scoring track", pages, duplex="simplex"))


RULES = [
    ("What you need", "The board with its scoring track, the 65 tiles (the sun start tile, the flower end tile and 63 "
     "land tiles) and 30 cubes in one colour for each of the 2 to 4 players (not printed: any small tokens "
     "that fit a field, 13 mm, in four colours will do)."),
    ("Setting up", "Lay the sun tile on the START square and the flower tile on the END TILE square, each turned any "
     "way you like. Everyone puts one cube on the 0 field of the track. Shuffle the land tiles face down into a few "
     "stacks; each player draws three."),
    ("Your turn", "Going clockwise, either lay one tile from your hand face up, or draw one tile into your hand. "
     "After laying your last tile in hand, draw one."),
    ("Laying a tile", "The tile goes on an empty square next to (not diagonal to) a tile already down; the flower "
     "tile does not count as that neighbour. Along every edge it touches, both sides must show the same landscape, "
     "or at least one side a cloud. At least one touching edge must be a real match (same landscape, no cloud). "
     "Put one of your cubes on the tile."),
    ("Points for laying", "Each real match you make scores at once: 2 when both halves sit on light subsoil "
     "(no brown band), 1 otherwise. Edges with a cloud score nothing. Move your track cube; after 99 go on from "
     "0/100 and remember the lap."),
    ("The end", "The game stops after the turn in which someone lays a tile on a flower field, or as soon as a "
     "whole round passes without anybody laying a tile."),
    ("Final scoring", "A landscape area is a run of touching edges with the same landscape across the seam (a cloud "
     "joins whatever is opposite it). For meadow, field and wood separately, find each player's largest group of "
     "their own cubes linked through such areas, two cubes at least. The biggest group earns 4; with 3 or 4 "
     "players the second earns 2; with 4 players the third earns 1. Ties share the place. Every tile still in your "
     "hand costs 1 point. Most points wins."),
    ("Printing notes", "Print the tile file double-sided (flip on the long edge) so every tile gets the same plain "
     "back, or print its front pages only, or use the gutter-fold file. Check the 100 mm bar before cutting. "
     "Tile ids (T01 ...) let you type a board in for 'terragen terralogical validate'."),
]


def _rules_items(c: Box, size: float, flip: str = "long", deck: Deck | None = None) -> tuple[list[Item], float]:
    """The rules, the legend and its notes in ``c`` at text ``size``; also where they end. The printing
    note names the edge the kit's tile file was laid out to flip on (``--flip``), and the tiles are
    the kit's ``deck``'s (a kit of a custom deck said 63 land tiles whatever it held)."""
    rules = [(h, b.replace("flip on the long edge", f"flip on the {flip} edge")) for h, b in RULES]
    if deck is not None:
        n, first = len(deck.tiles), deck.tiles[0][0] if deck.tiles else "T1"
        rules = [(h, b.replace("the 65 tiles", f"the {n + 2} tiles").replace("63 land tiles", f"{n} land tile"
                                                                          + ("s" if n != 1 else ""))
                  .replace("Tile ids (T01 ...)", f"Tile ids ({first} ...)")) for h, b in rules]
    items, y = titled_sections(c, "Terralogical: rules at a glance",
                               "A summary for the table in this project's words; the rulebook decides any question, "
                               "terragen's rules-decisions.md the open ones.", rules, size)
    y += 2.0
    leg, y = legend(c.x0, y)
    items.extend(leg)
    for note in LEGEND_NOTES:
        para, y = paragraph(c.x0, y, note, 2.9, c.width, colour="#222222")
        items.extend(para)
        y += 0.8
    return items, y


def rules_part(opts: PrintOptions, deck: Deck | None = None) -> KitPart:
    paper = opts.paper
    c = paper.content
    for size in (3.5, 3.4, 3.3, 3.2, 3.1, 3.0):  # a --scale above 1 leaves less room: set smaller type
        items, y = _rules_items(c, size, opts.flip, deck)
        if y <= c.y1:
            break
    else:
        raise SpecError(f"the rules summary does not fit one {paper.name} page")  # guarded by a test
    label = page_label(GAME, "rules summary and legend", opts.scale, 1, 1)
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = [page_scale(opts, paper, items + [footer(paper, label, opts.scale)])]
    return KitPart("rules", Document(f"{GAME}: rules summary", [page]))


def terralogical_kit(opts: PrintOptions, tile_size: float = DEFAULT_TILE, deck: Deck | None = None) -> list[KitPart]:
    """Every part of the kit, in the order a player would print them."""
    check_tile_size(tile_size, MIN_TILE, MAX_TILE, measured="")
    if deck is None:
        from terragen.terralogical.default_deck import default_deck

        deck = default_deck()
    parts = [
        rules_part(opts, deck),
        tiles_part(opts, tile_size, deck),
        gutter_part(opts, tile_size, deck),
        alignment_part(opts, GAME),
        board_part(opts, tile_size),
    ]
    return [KitPart(p.name, finish_document(p.doc, opts)) for p in parts]
