"""The TerraFlip print-and-play kit: which sheets exist and what goes on them.

Every piece comes from ``terragen.terraflip``: the families, their lands, the
special kinds and, per regular tile, the colour on each face (``TileSet.tiles``).
The kit only decides looks and placement. Tiles are printed double-sided
because the hidden colour must really be under the tile: the imposer mirrors
each back page for the chosen flip edge, so a tile's back lands behind its front.

Default tile size: 40 mm across flats. The knight may reach ring 5, so the
widest possible table is 11 tiles across (44 cm at 40 mm), a normal table; 28
tiles fit one A4 sheet (24 on Letter), so the 48 two-sided hexes need two duplex
sheets; the one-sided tower goes with the spy tokens.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from terragen.errors import SpecError
from terragen.render.kits.parts import KitPart, alignment_part, check_tile_size
from terragen.render.impose import Imposed, PrintOptions, Tile, finish_document, gutter_fold, impose, mark_area, page_scale
from terragen.render.marks import footer, page_label
from terragen.render.model import Box, Document, Group, Item, Page, Polygon, Style, Text, translate
from terragen.render.shapes import Shape

if TYPE_CHECKING:
    from terragen.terraflip.model import TileSet

GAME = "TerraFlip"
DEFAULT_TILE = 40.0  # mm across flats
MIN_TILE, MAX_TILE = 25.0, 70.0
SPY_D = 22.0  # spy token diameter, mm


def kit_tiles(R: float, tileset: TileSet) -> list[Tile]:
    """Every two-sided hex in box order: per family its regular tiles, then its specials.

    A regular tile's front is its ``front`` colour and its back its ``back`` colour, both with
    the family's land (the land is what deals the tiles, so it must read on either face).
    """
    from terragen.render.kits.terraflip.art import colour_of, regular_face, special_face

    tiles: list[Tile] = []
    for t in tileset.tiles():
        if t.special:
            tiles.append(Tile(special_face(R, t.family, t.kind), colour_of(t.front),
                              special_face(R, t.family, t.kind), colour_of(t.back), t.id))
        else:
            tiles.append(Tile(regular_face(R, t.front, t.land), colour_of(t.front),
                              regular_face(R, t.back, t.land), colour_of(t.back), t.id))
    return tiles


def check_size(tile_size: float) -> None:
    """The CLI checks the size before it reads a tile set, so a bad size is said first."""
    check_tile_size(tile_size, MIN_TILE, MAX_TILE)


def tile_sheets(opts: PrintOptions, tileset: TileSet, size: float = DEFAULT_TILE) -> tuple[list[Tile], Imposed]:
    """The tiles and their duplex imposition (exposed so tests can follow each tile to its back)."""
    shape = Shape("hex", size)
    tiles = kit_tiles(shape.circumradius, tileset)
    imp = impose(shape, tiles, opts, GAME, f"{len(tiles)} tiles, {size:g} mm across flats", duplex=True)
    return tiles, imp


def tiles_part(opts: PrintOptions, tileset: TileSet, size: float) -> KitPart:
    _, imp = tile_sheets(opts, tileset, size)
    return KitPart("tiles", Document(f"{GAME}: tiles (print double-sided)", imp.pages, duplex=opts.flip))


def gutter_part(opts: PrintOptions, tileset: TileSet, size: float) -> KitPart:
    shape = Shape("hex", size)
    tiles = kit_tiles(shape.circumradius, tileset)
    imp = gutter_fold(shape, tiles, opts, GAME, f"{len(tiles)} tiles, {size:g} mm")
    return KitPart("tiles-gutterfold", Document(f"{GAME}: tiles, gutter-fold layout (no duplex needed)", imp.pages, duplex="simplex"))


def tokens_part(opts: PrintOptions, size: float) -> KitPart:
    """Spy tokens (the package's number per player, in every family colour) and the tower, one-sided.

    The tower never turns over, so it needs no back; keeping it off the duplex sheets lets
    the 48 two-sided tiles fill exactly two Letter sheets.
    """
    from shapely.geometry import Polygon as SPolygon

    from terragen.render.marks import crop_ticks
    from terragen.render.palette import shade
    from terragen.render.kits.terraflip.art import TOWER_FILL, colour_of, spy_token, tower_face
    from terragen.terraflip.model import FAMILIES, SPIES_PER_PLAYER

    paper = opts.paper
    c = paper.content
    tiles = [Tile(spy_token(SPY_D, f), colour_of(f), name=f"{f} spy {j}")
             for f in FAMILIES for j in range(1, SPIES_PER_PLAYER + 1)]
    area = Box(c.x0, c.y0, c.x1, c.y0 + 110.0)
    n = len(tiles)
    imp = impose(Shape("circle", SPY_D), tiles, opts, GAME,
                 f"{n} spy tokens ({SPIES_PER_PLAYER} per colour) and the tower, one side", area=area)
    if len(imp.pages) != 1:
        raise SpecError(f"the spy tokens do not fit one {paper.name} page")
    page = imp.pages[0]
    shape = Shape("hex", size)
    x, y = (c.x0 + c.x1) / 2, area.y1 + 12.0 + shape.circumradius
    outline = shape.outline(x, y)
    grown = SPolygon(outline).buffer(paper.bleed, join_style="mitre", mitre_limit=3.0)
    bleed_pts = tuple((round(a, 4), round(b, 4)) for a, b in grown.exterior.coords[:-1])
    extra: list[Item] = [
        Polygon(bleed_pts, Style(fill=shade(TOWER_FILL, 0.95))),
        Group(tower_face(shape.circumradius), translate(x, y), clip=shape.outline()),
        *crop_ticks(shape.edges(x, y), grown.buffer(0.3), within=mark_area(paper)),
        Text(x, y + shape.circumradius + paper.bleed + 8.0, "the tower: one side only, it never turns over", 3.0, "#444444"),
    ]
    if opts.cut_lines(shape):
        extra.append(Polygon(outline, Style(stroke="#000000", width=0.15)))
    page.items.append(page_scale(opts, paper, extra))
    # the tower is cut out like the tokens: the page's boxes hold it and its bleed
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    page.trim = Box(min(xs), min(ys), max(xs), max(ys)).union(page.trim)
    page.bleed = Box(min(p[0] for p in bleed_pts), min(p[1] for p in bleed_pts),
                     max(p[0] for p in bleed_pts), max(p[1] for p in bleed_pts)).union(page.bleed)
    return KitPart("tokens", Document(f"{GAME}: spy tokens and tower", imp.pages))


def _page(opts: PrintOptions, items: list[Item], contents: str, k: int = 1, n: int = 1) -> Page:
    paper = opts.paper
    label = page_label(GAME, contents, opts.scale, k, n)
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = [page_scale(opts, paper, items + [footer(paper, label, opts.scale)])]
    return page


def _text_page(opts: PrintOptions, title: str, sub: str, sections: list[tuple[str, str]],
               size: float = 3.7) -> tuple[list[Item], float]:
    from terragen.render.text import titled_sections

    return titled_sections(opts.paper.content, title, sub, sections, size)


def rules_sections(per_family: int | None = None) -> list[tuple[str, str]]:
    """The summary's paragraphs; every number in them comes from the game package."""
    from terragen.terraflip.model import REGULAR, SPIES_PER_PLAYER, TILES_PER_FAMILY
    from terragen.terraflip.rules import Options, placement_limit

    per_family = TILES_PER_FAMILY if per_family is None else per_family  # the kit's own tile set's count
    far4, far3 = placement_limit(4, REGULAR), placement_limit(3, REGULAR)
    extra = placement_limit(4, "knight") - far4
    b = Options().bonuses(4)
    return [
        ("Goal", "Four families want the empty throne. Each player is one family (one colour) and tries to have "
         "as much of the land as possible showing their colour when the last tile is down."),
        ("Setup", f"The tower goes in the middle. Every player takes the {per_family} land tiles of their family "
         f"(the land picture tells them apart), their knight, catapult and campsite, and {SPIES_PER_PLAYER} spy "
         "tokens. The picture only "
         "sorts the tiles; during play only the colour on top counts. Unused families stay in the box. Whoever "
         "does the best impression of a hexagon starts; turns then go clockwise."),
        ("A turn", f"Put one of your tiles down, your colour up, touching a tile already on the table (the first "
         f"one touches the tower). No tile may lie more than {far4} steps from the tower, or {far3} with two or three "
         "players. Then you may try to turn tiles over."),
        ("Framing and flipping", "A tile of another colour is framed when a straight line from the centre of one "
         "of your tiles to the centre of another of your tiles passes through its centre, with no gap and none "
         "of your colour in between. The first line of a turn starts at the tile you just put down. You may turn a "
         "framed tile over without looking first. If the new side is your colour, you may go on with a line that "
         "starts at that tile; any other colour ends your turn. Flipping is never compulsory."),
        ("Spies", "At any time in your turn, hand in a spy token to peek under one tile and put it back unchanged."),
        ("Special tiles", f"They never turn over. Knight: may be laid {extra} step{'s' if extra != 1 else ''} further out "
         "than the limit. "
         "Campsite: you may turn over one touching tile without framing it. Catapult: pick a touching tile of "
         "another colour (no special), move it to any legal empty spot without cutting any tile off from the "
         "tower, then turn it over. If the revealed side is yours, keep flipping as usual."),
        ("Scoring", "When every tile is down, each tile in your colour scores 1, or 2 if it touches another tile "
         f"of your colour. Seat bonus with four players: the first player adds {b[0]}, the second {b[1]}, the third "
         f"{b[2]}, the last {b[3]}. On a "
         "tie the player with more tiles of their colour wins."),
        ("In terragen", "How open points are read (which lines frame, the tower, chains) is listed in "
         "terragen's rules-decisions page (in its docs: 'terragen --help' says where); 'terragen terraflip validate' "
         "checks a position typed in from the table."),
    ]


def rules_part(opts: PrintOptions, per_family: int | None = None) -> KitPart:
    """The rules page; ``per_family``: the land tiles each family has in the kit's tile set (it said
    the rulebook's nine whatever --tiles gave)."""
    items, _ = _text_page(opts, "TerraFlip: rules at a glance",
                          "A summary for the table, in this project's words; the rulebook settles any doubt.",
                          rules_sections(per_family))
    return KitPart("rules", Document(f"{GAME}: rules summary", [_page(opts, items, "rules summary")]))


def instructions_part(opts: PrintOptions, tileset: TileSet, size: float, source: str, n_sheets: int) -> KitPart:
    """How to print and cut, plus the tile set's public base rates (what hides under whose tiles)."""
    from terragen.render.kits.terraflip.art import coloured_hex
    from terragen.terraflip.model import FAMILIES, LAND_OF

    paper = opts.paper
    flip = opts.flip
    sections = [
        ("Files", f"terraflip-tiles-{paper.key}.pdf: all hexes, {n_sheets} sheet{'s' if n_sheets != 1 else ''}, fronts on odd pages and backs "
         f"on even pages. terraflip-tiles-gutterfold-{paper.key}.pdf: the same tiles for printers without "
         f"duplex. terraflip-alignment-test-{paper.key}.pdf: one test sheet. terraflip-tokens-{paper.key}.pdf: "
         f"spy tokens and the tower, one-sided. terraflip-rules-{paper.key}.pdf: the rules on one page."),
        ("1. Check the scale", "Print any page at 100 % (\"actual size\", never \"fit to page\") and measure "
         "the 100 mm bar at its foot. If it is off, pass --scale (1.02 when it measures 98 mm)."),
        ("2. Test the duplex alignment", f"Print the alignment test double-sided, turning the sheet over the "
         f"{flip} edge (this kit was made for --flip {flip}). Hold it up to a light: the thin crosses (red, or grey in "
         "black and white) should sit on the black targets. If they do not, read the offset on the mm scales and make the kit again with "
         "--back-offset X,Y."),
        ("3. Print the tiles", f"Print the tiles file double-sided, flip on the {flip} edge, on card "
         "(160 to 200 g/m2). Each sheet carries its fronts and, on the next page, their backs, mirrored so each "
         "back lands right behind its front. No duplex? Print the gutter-fold file single-sided, fold each sheet "
         "along the dashed line, glue the halves together and cut."),
        ("4. Cut", f"Tiles are {size:g} mm across flats and sit in a honeycomb, each edge shared with a neighbour. "
         "A honeycomb has no straight cut across the sheet, so cut each tile out along its thin black lines, "
         "one edge at a time (scissors, or a knife against a ruler). Colour runs past every outer edge, so a "
         "slightly-off cut shows no white.") if opts.cut_lines(Shape("hex", size)) else
        ("4. Cut", f"Tiles are {size:g} mm across flats and sit in a honeycomb, each edge shared with a neighbour; "
         "this kit was made with --no-outlines, so only the crop ticks round the block show the edges: draw "
         "the inner edges in, or make the kit again without that option."),
        ("Faces", "A regular tile shows its family's colour on the front and the colour hidden under it on the "
         "back; both faces carry the family's land picture, so tiles can be dealt out after a game. Special "
         "tiles look the same on both sides. Each colour has its own hatch and its name on the "
         "face, so a black-and-white print still works. No tile carries a number: with the tile-set file at "
         "hand a number would give away the hidden colour."),
        ("Tile set", f"{source}. Under each family's tiles hide (public knowledge, the same for everyone):"),
    ]
    items, y = _text_page(opts, "TerraFlip: printing and cutting the kit",
                          f"Paper {paper.name}, tiles {size:g} mm across flats, duplex flip on the {flip} edge.",
                          sections, size=3.4)
    c = paper.content
    # base-rate table: one row per family, a swatch per hidden colour
    sw = 8.0
    x_cols = [c.x0 + 52.0 + 26.0 * k for k in range(len(FAMILIES))]
    y += 1.0
    items.append(Text(x_cols[0] - 11.0, y, "colour underneath:", 3.0, "#444444", anchor="start"))
    y += 7.0
    items.append(Text(c.x0, y + 1.2, "tiles of:", 3.0, "#444444", anchor="start"))
    for k, f in enumerate(FAMILIES):
        items.append(Group(coloured_hex(sw / 2, f), translate(x_cols[k] - 7.0, y)))
        items.append(Text(x_cols[k] - 1.0, y + 1.2, f, 3.2, "#000000", anchor="start"))
    for f in FAMILIES:
        y += 10.0
        items.append(Group(coloured_hex(sw / 2, f), translate(c.x0 + 5.0, y)))
        items.append(Text(c.x0 + 11.0, y + 1.2, f"{f} ({LAND_OF[f]})", 3.4, "#000000", anchor="start", bold=True))
        counts = tileset.back_counts(f)
        for k, g in enumerate(FAMILIES):
            items.append(Text(x_cols[k] + 4.0, y + 1.2, str(counts[g]), 3.6, "#000000", anchor="middle"))
    items.append(Polygon(((c.x0, y + 6.0), (c.x1, y + 6.0), (c.x1, y + 6.2), (c.x0, y + 6.2)), Style(fill="#999999")))
    doc = Document(f"{GAME}: printing instructions", [_page(opts, items, "printing instructions")])
    return KitPart("instructions", doc)


def load_tileset(tiles_text: str | None, tiles_name: str | None, seed: int | None) -> tuple[TileSet, str]:
    """The tile set to print and a line saying where it came from: a file, or designed with a seed."""
    if tiles_text is not None:
        from terragen.terraflip.tilefile import parse_tileset

        # the file's name only, as render prints a layout's: a path typed relative to the folder the
        # command ran in means nothing on paper, and made the same kit's bytes differ by folder
        shown = Path(tiles_name).name if tiles_name and tiles_name != "-" else "standard input"
        return parse_tileset(tiles_text, tiles_name or "tile set"), f"Tile set read from {shown}"
    from terragen.terraflip.design import DesignSpec, design_tileset

    s = 0 if seed is None else seed
    try:
        design = design_tileset(DesignSpec(), s)
    except ImportError:
        raise SpecError("designing a tile set needs OR-Tools; install it or pass --tiles FILE "
                        "(written by 'terragen terraflip tiles')") from None
    return design.tileset, f"Tile set designed by 'terragen terraflip tiles --seed {s}'"


def terraflip_kit(opts: PrintOptions, tileset: TileSet, tile_size: float = DEFAULT_TILE,
                  source: str = "Tile set given") -> list[KitPart]:
    """Every part of the kit, in the order a player would print them."""
    check_size(tile_size)
    tiles = tiles_part(opts, tileset, tile_size)
    parts = [
        instructions_part(opts, tileset, tile_size, source, len(tiles.doc.pages) // 2),
        rules_part(opts, tileset.per_family),
        alignment_part(opts, GAME),
        tiles,
        gutter_part(opts, tileset, tile_size),
        tokens_part(opts, tile_size),
    ]
    return [KitPart(p.name, finish_document(p.doc, opts)) for p in parts]
