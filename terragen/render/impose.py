"""The sheet imposer: many pieces of one shape packed onto pages, optionally double-sided.

A :class:`Tile` is art in piece-local millimetres centred on (0, 0), plus the
colour its bleed should have. The imposer places tiles in reading order, paints
every tile's bleed first and every tile's art (clipped to its outline) on top,
so in a honeycomb the bleed shows only around the outside of the block and a
shared cut line has art on both sides. Backs go on their own page, mirrored for
the chosen flip edge and shifted by the measured printer misregistration, or
below a fold line in the gutter-fold layout for printers without duplex.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from terragen.errors import SpecError
from terragen.limits import MAX_SCALE, MIN_SCALE
from terragen.render.marks import MARK, TICK_GAP, TICK_LEN, crop_ticks, footer, page_label, registration_target
from terragen.render.model import (
    MIN_TEXT_MM, Box, Circle, Document, Group, Item, Page, Point, Polygon, Polyline, Style, Text, apply, compose, scale, translate,
)
from terragen.render.paper import FOOTER, Paper
from terragen.render.shapes import Shape

CUT = Style(stroke="#000000", width=0.15)


def _cut_on(colour: str | None) -> Style:
    """A token's cut circle in black, or in white on a colour black hardly shows on: a thin black
    circle on dark red was about 2:1 and vanished on a black-and-white printer, so a red Terrace A
    was cut at its colour's edge, 6 mm too wide, bigger than a blue B."""
    from terragen.render.contrast import ink_on

    if not colour or not colour.startswith("#"):
        return CUT
    return CUT if ink_on(colour, "#000000", "#ffffff") == "#000000" else Style(stroke="#ffffff", width=CUT.width)
#: the print-scale corrections accepted: a printer that is off by more than 10% is printing "fit to page"


@dataclass
class Tile:
    """One piece: front art, optional back art, and the colours their bleeds take.

    ``bleed_art`` (piece-local, like ``front``), when given, is painted in the front's bleed
    instead of the plain colour: the picture carries on past the cut, so a cut a little
    off still shows the piece's own colours at its edge.
    """

    front: list[Item]
    bleed: str | None = None
    back: list[Item] | None = None
    back_bleed: str | None = None
    name: str = ""
    bleed_art: list[Item] | None = None


@dataclass(frozen=True)
class PrintOptions:
    """How the user wants sheets printed; every kit and the imposer share these."""

    paper: Paper
    scale: float = 1.0
    outlines: bool | None = None  # cut lines round every piece; None: the shape's default (cut_lines)
    flip: str = "long"  # long | short: which edge the printer turns the sheet over
    back_offset: tuple[float, float] = (0.0, 0.0)
    low_ink: bool = False  # pale tints instead of solid areas (ink.py)

    def __post_init__(self) -> None:
        if self.flip not in ("long", "short"):
            raise SpecError(f"--flip must be 'long' or 'short', not {self.flip!r}")
        # a correction for a printer's own error (a few per cent): every page of every kit is checked to
        # fit its margin at both ends, which at 1.2 and above it did not (text ran off the page)
        if not MIN_SCALE <= self.scale <= MAX_SCALE:
            raise SpecError(f"--scale must be {MIN_SCALE:g}–{MAX_SCALE:g} (got {self.scale:g}): e.g. 1.02 for a "
                            "printer that prints 2% small; for bigger pieces use --tile-size")
        if any(abs(v) > MAX_BACK_OFFSET for v in self.back_offset):
            raise SpecError(f"--back-offset is limited to {MAX_BACK_OFFSET:g} mm each way; larger errors mean the "
                            "test sheet was misread")
        # lay pages out in a smaller area when the page will be grown, so nothing is pushed into the margin
        object.__setattr__(self, "paper", self.paper.for_scale(self.scale))

    def cut_lines(self, shape: Shape) -> bool:
        """Whether sheets of ``shape`` get a thin cut line round every piece.

        Hexes do by default: a honeycomb has no straight run from one edge of the block to the
        other, so crop ticks at its rim cannot guide the knife along the inner edges. Round tokens
        do too: they are cut with scissors along a curve, and their bleed is the face's own colour,
        so without a line nothing shows where the cut runs. Squares (straight runs from tick to
        tick) do not, unless asked.
        """
        return self.outlines if self.outlines is not None else shape.kind in ("hex", "circle")


#: the largest duplex misregistration --back-offset corrects, each way (mm)
MAX_BACK_OFFSET = 10.0


def parse_offset(text: str | None) -> tuple[float, float]:
    """``"0.5,-0.3"`` → ``(0.5, -0.3)``; None (not given) → no offset; anything else, the empty text
    of a shell variable that was not set among it, is a one-line SpecError."""
    if text is None:
        return (0.0, 0.0)
    parts = text.replace(" ", "").split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise SpecError(f"--back-offset must be two numbers in mm like 0.5,-0.3, not {text!r}") from None
    if x != x or y != y or abs(x) == float("inf") or abs(y) == float("inf"):
        raise SpecError(f"--back-offset must be finite numbers, not {text!r}")
    return (x, y)


@dataclass
class Placement:
    """Where a tile landed: its page (0-based, fronts only) and centre in page mm."""

    tile: int
    page: int
    x: float
    y: float


@dataclass
class Imposed:
    pages: list[Page]
    fronts: list[Placement] = field(default_factory=list)
    backs: list[Placement] = field(default_factory=list)
    cuts: list[list[tuple[Point, Point]]] = field(default_factory=list)  # merged cut segments per sheet
    fold: tuple[Point, Point] | None = None  # gutter fold: the fold line, the same on every sheet


def mirror_point(p: Point, paper: Paper, flip: str, offset: tuple[float, float]) -> Point:
    """Where the back of something printed at ``p`` on the front must be drawn on the back page.

    ``offset`` is the printer's misregistration as read on the alignment test, seen from the
    front (x right, y down, mm); the back is drawn that much the other way so it cancels out.
    """
    x, y = p[0] - offset[0], p[1] - offset[1]
    if flip == "long":
        x = paper.width - x
    else:
        y = paper.height - y
    return (x, y)


def page_scale(opts: PrintOptions, paper: Paper, items: list[Item]) -> Item:
    """Wrap page content in the print-scale correction about the page centre."""
    if opts.scale == 1.0:
        return Group(items)
    cx, cy = paper.width / 2, paper.height / 2
    return Group(items, compose(translate(cx, cy), scale(opts.scale), translate(-cx, -cy)))


def finish_document(doc: Document, opts: PrintOptions) -> Document:
    """What every kit document gets last: boxes grown with the print scale, low ink if asked."""
    doc = scale_boxes(doc, opts)
    if opts.low_ink:
        from terragen.render.ink import low_ink

        doc = low_ink(doc)
    return doc


def scale_boxes(doc: Document, opts: PrintOptions) -> Document:
    """Grow every page's trim and bleed boxes with the print-scale correction, as
    :func:`page_scale` grows the drawing, so the boxes stay on what they frame. The centre is
    each page's own, so landscape pages (the build sheet) grow about theirs too."""
    if opts.scale == 1.0:
        return doc

    def grown(page: Page, b: Box | None) -> Box | None:
        if b is None:
            return None
        m = compose(translate(page.width / 2, page.height / 2), scale(opts.scale),
                    translate(-page.width / 2, -page.height / 2))
        (x0, y0), (x1, y1) = apply(m, (b.x0, b.y0)), apply(m, (b.x1, b.y1))
        return Box(x0, y0, x1, y1)

    for page in doc.pages:
        page.trim, page.bleed = grown(page, page.trim), grown(page, page.bleed)
    return doc


def shared_cuts(shape: Shape, centres: Sequence[Point]) -> list[tuple[Point, Point]]:
    """Every cut segment once: an edge two neighbouring pieces share appears a single time."""
    seen: dict[tuple[int, ...], tuple[Point, Point]] = {}
    for cx, cy in centres:
        for a, b in shape.edges(cx, cy):
            ka = (round(a[0] * 100), round(a[1] * 100))
            kb = (round(b[0] * 100), round(b[1] * 100))
            key = ka + kb if ka <= kb else kb + ka
            seen.setdefault(key, (a, b))
    return [seen[k] for k in sorted(seen)]


def mark_area(paper: Paper, footer_at_top: bool = False):
    """Where crop ticks may go (a shapely box): the printable part of the sheet outside the
    footer, so no tick runs into a home printer's dead margin or across the sheet label."""
    from shapely.geometry import box

    pr = paper.printable
    if footer_at_top:
        return box(pr.x0, pr.y0 + FOOTER, pr.x1, pr.y1)
    return box(pr.x0, pr.y0, pr.x1, paper.content.y1)


@dataclass
class Side:
    """One side of a sheet: what to draw, its trim and bleed boxes (None when empty), its cut segments."""

    items: list[Item]
    trim: Box | None
    bleed: Box | None
    cuts: list[tuple[Point, Point]]


def _side(shape: Shape, paper: Paper, tiles: list[Tile], placed: list[tuple[int, Point]], back: bool,
          opts: PrintOptions, footer_at_top: bool = False) -> Side:
    """Bleeds, art, cut marks of one side of a sheet."""
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    b = paper.bleed
    items: list[Item] = []
    outlines = [shape.outline(x, y) for _, (x, y) in placed]
    # 1) bleed: each piece grown by the bleed, in its own colour; art painted later covers the inside.
    grown_all = []
    bleed_pts: list[Point] = []
    for (i, (cx, cy)), pts in zip(placed, outlines):
        grown = SPolygon(pts).buffer(b, join_style="mitre", mitre_limit=3.0)
        grown_all.append(grown)
        colour = tiles[i].back_bleed if back else tiles[i].bleed
        art_b = None if back else tiles[i].bleed_art
        if colour or art_b:
            pts_b = tuple((round(x, 4), round(y, 4)) for x, y in grown.exterior.coords[:-1])
            bleed_pts.extend(pts_b)
            if art_b:
                items.append(Group(list(art_b), translate(cx, cy), clip=tuple((x - cx, y - cy) for x, y in pts_b)))
            else:
                items.append(Polygon(pts_b, Style(fill=colour)))
    # 2) art, clipped to the outline so it can never spill onto a neighbour.
    for (i, (x, y)) in placed:
        art = tiles[i].back if back else tiles[i].front
        items.append(Group(list(art or []), translate(x, y), clip=shape.outline()))
    # 3) cuts: ticks outside the block; full cut lines only on request.
    segs = shared_cuts(shape, [p for _, p in placed])
    keep_out = unary_union(grown_all).buffer(0.3)
    within = mark_area(paper, footer_at_top)
    if shape.kind == "circle":
        # a tick on each side of the token's square: the tangent at its top, bottom, left and right
        # point, carried past the bleed (a tick along a radius marked the centre line, not the cut)
        r = shape.size / 2
        ticks = []
        for _, (x, y) in placed:
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                px, py = x + dx * r, y + dy * r
                ticks.append(((px - dy * 0.01, py - dx * 0.01), (px + dy * 0.01, py + dx * 0.01)))
        clear = ((r + b + 0.3) ** 2 - r * r) ** 0.5  # where the tangent leaves the token's bleed
        items.extend(crop_ticks(ticks, keep_out, reach=clear + 2.5, within=within))
    else:
        items.extend(crop_ticks(segs, keep_out, within=within))
    if opts.cut_lines(shape):
        if shape.kind == "circle":  # a token's circle is its own: drawn in the ink that shows on its colour
            items.extend(Circle(x, y, shape.size / 2, _cut_on(tiles[i].back_bleed if back else tiles[i].bleed))
                         for i, (x, y) in placed)
        else:
            items.extend(Polyline((a, b2), CUT) for a, b2 in segs)
    xs = [p[0] for pts in outlines for p in pts]
    ys = [p[1] for pts in outlines for p in pts]
    trim = Box(min(xs), min(ys), max(xs), max(ys)) if xs else None
    # a hex's bleed juts past its corners further than the bleed width: box the grown outlines
    bleed = trim.grow(paper.bleed) if trim else None
    if bleed and bleed_pts:
        bx, by = [p[0] for p in bleed_pts], [p[1] for p in bleed_pts]
        bleed = bleed.union(Box(min(bx), min(by), max(bx), max(by)))
    return Side(items, trim, bleed, segs)


def _footprint(shape: Shape, centre: Point, bleed: float) -> Box:
    """The box a piece at ``centre`` takes on the sheet with its bleed and its cut ticks (a round
    token's reach 2.5 mm past its bleed, a straight cut's run on past the corner it ends at)."""
    w, h = shape.extent()
    x, y = centre
    ticks = bleed + 2.5 if shape.kind == "circle" else TICK_GAP + TICK_LEN + 3.5
    return Box(x - w / 2, y - h / 2, x + w / 2, y + h / 2).grow(ticks)


def duplex_area(area: Box, paper: Paper, opts: PrintOptions) -> Box:
    """The part of ``area`` whose mirror image (shifted by the back offset) is also inside ``area``.

    Fronts are packed only there, so no back can land on the footer or past the margin.
    """
    ox, oy = opts.back_offset
    if opts.flip == "long":
        x0, x1 = max(area.x0, paper.width - area.x1), min(area.x1, paper.width - area.x0)
        y0, y1 = area.y0, area.y1
    else:
        # the back page carries its label at the top (where the front's footer lands), so the
        # backs may use the mirror image of the fronts' area, not just its overlap with itself
        pr = paper.printable
        x0, x1 = area.x0, area.x1
        y0, y1 = max(area.y0, pr.y0), min(area.y1, paper.height - pr.y0 - FOOTER)
    return Box(x0 + abs(ox), y0 + abs(oy), x1 - abs(ox), y1 - abs(oy))


def impose(shape: Shape, tiles: list[Tile], opts: PrintOptions, game: str, contents: str,
           duplex: bool = False, area: Box | None = None, keep_out: Box | None = None) -> Imposed:
    """Pages of ``tiles`` (fronts, and with ``duplex`` a mirrored back page after each front page).

    ``keep_out``: a part of ``area`` something else is printed on (the Terrain Game's elevation
    gauge): the places whose piece, bleed and cut ticks would reach it stay empty, so the pieces
    may fill the rest of the page round it (beside it only, a column of tokens was lost)."""
    paper = opts.paper
    area = area or paper.content
    if duplex:
        area = duplex_area(area, paper, opts)
    centres = shape.pack(area, paper.bleed)
    if keep_out is not None:
        centres = [p for p in centres if _footprint(shape, p, paper.bleed).intersection(keep_out) is None]
    if not centres:
        raise SpecError(f"a {shape.kind} of {shape.size:g} mm does not fit on {paper.name} paper")
    per = len(centres)
    sheets = [list(range(k, min(k + per, len(tiles)))) for k in range(0, len(tiles), per)]
    n_pages = len(sheets) * (2 if duplex else 1)
    out = Imposed([])
    for s, idx in enumerate(sheets):
        placed = [(i, centres[j]) for j, i in enumerate(idx)]
        front = _side(shape, paper, tiles, placed, False, opts)
        out.cuts.append(front.cuts)
        out.fronts.extend(Placement(i, s, x, y) for i, (x, y) in placed)
        k = len(out.pages) + 1
        side = " (fronts)" if duplex else ""
        page = Page(paper.width, paper.height, label=page_label(game, contents + side, opts.scale, k, n_pages))
        page.items = [page_scale(opts, paper, front.items + [footer(paper, page.label, opts.scale)])]
        page.trim, page.bleed = front.trim, front.bleed
        out.pages.append(page)
        if duplex:
            bplaced = [(i, mirror_point(p, paper, opts.flip, opts.back_offset)) for i, p in placed]
            back = _side(shape, paper, tiles, bplaced, True, opts, footer_at_top=opts.flip == "short")
            out.backs.extend(Placement(i, s, x, y) for i, (x, y) in bplaced)
            label = page_label(game, contents + f" (backs, flip on {opts.flip} edge)", opts.scale, k + 1, n_pages)
            bpage = Page(paper.width, paper.height, label=label)
            # turned over the short edge, the front's foot lands at the back's head: the back's label
            # goes there too, so the backs may use the whole height the fronts use
            bfoot = footer(paper, label, opts.scale, at_top=opts.flip == "short")
            bpage.items = [page_scale(opts, paper, back.items + [bfoot])]
            bpage.trim, bpage.bleed = back.trim, back.bleed
            out.pages.append(bpage)
    return out


def gutter_fold(shape: Shape, tiles: list[Tile], opts: PrintOptions, game: str, contents: str) -> Imposed:
    """Fronts on one half, backs mirrored across the fold line: print one side, fold, glue, cut.

    The fold runs across the middle of the content area (the footer takes the foot of the
    sheet, so that is not the middle of the sheet), or down it when that holds more pieces
    (square tiles on Letter: 12 a sheet instead of 8).
    """
    paper = opts.paper
    c = paper.content
    gap = paper.bleed + 2.0
    mid_y, mid_x = (c.y0 + c.y1) / 2, (c.x0 + c.x1) / 2
    across = shape.pack(Box(c.x0, c.y0, c.x1, mid_y - gap), paper.bleed)
    down = shape.pack(Box(c.x0, c.y0, mid_x - gap, c.y1), paper.bleed)
    vertical = len(down) > len(across)
    centres = down if vertical else across
    if not centres:
        raise SpecError(f"a {shape.kind} of {shape.size:g} mm does not fit half a {paper.name} page")

    def mirrored(p: Point) -> Point:
        return (2 * mid_x - p[0], p[1]) if vertical else (p[0], 2 * mid_y - p[1])

    grey = Style(stroke="#666666", width=0.2, dash=(3.0, 2.0))
    note = "fold here, glue the halves back to back, then cut"
    pr = paper.printable
    if vertical:
        fold: list[Item] = [Polyline(((mid_x, pr.y0), (mid_x, c.y1)), grey),
                            Text(mid_x - 1.0, c.y1 - 2.0, note, 2.4, "#666666", anchor="start", angle=90.0)]
    else:
        fold = [Polyline(((pr.x0, mid_y), (pr.x1, mid_y)), grey),
                Text(pr.x0, mid_y - 1.0, note, 2.4, "#666666", anchor="start")]
    per = len(centres)
    sheets = [list(range(k, min(k + per, len(tiles)))) for k in range(0, len(tiles), per)]
    out = Imposed([], fold=fold[0].points)
    for s, idx in enumerate(sheets):
        placed = [(i, centres[j]) for j, i in enumerate(idx)]
        front = _side(shape, paper, tiles, placed, False, opts)
        bplaced = [(i, mirrored(p)) for i, p in placed]
        back = _side(shape, paper, tiles, bplaced, True, opts)
        out.fronts.extend(Placement(i, s, x, y) for i, (x, y) in placed)
        out.backs.extend(Placement(i, s, x, y) for i, (x, y) in bplaced)
        out.cuts.append(front.cuts)
        label = page_label(game, contents + " (gutter fold)", opts.scale, s + 1, len(sheets))
        page = Page(paper.width, paper.height, label=label)
        page.items = [page_scale(opts, paper, front.items + back.items + fold + [footer(paper, label, opts.scale)])]
        page.trim = front.trim.union(back.trim)
        page.bleed = front.bleed.union(back.bleed)
        out.pages.append(page)
    return out


#: how far the scales' ticks lie from their target's centre (from, to: the longest tick's end)
SCALE_FROM, SCALE_TO = 7.0, 9.0
#: the largest offset the scales show, mm either way
SCALE_REACH = 5
#: half the red cross printed on the back: its arms run across the scales' ticks however far off (up to
#: the scales' reach) the back lands, so an offset is read where an arm crosses a scale (arms of 6 mm
#: stopped short of it and the reading was a guess along an imagined line)
BACK_ARM = SCALE_TO + SCALE_REACH + 0.3


def offset_scales(x: float, y: float) -> list[Item]:
    """Two numbered 1 mm scales beside a target at (x, y): one below it (x offset, right +), one
    to its right (y offset, down +), numbered every 2 mm so the offset is read, not counted.

    The numbers are as large as any text a user reads (:data:`MIN_TEXT_MM`; they were 3.7 pt): on
    the vertical scale one under the other, on the horizontal one on two staggered rows, since
    two numbers that large do not fit side by side in 2 mm."""
    items: list[Item] = []
    for k in range(-SCALE_REACH, SCALE_REACH + 1):
        h = 2.0 if k == 0 else 1.5 if k % 2 == 0 else 1.0
        items.append(Polyline(((x + k, y + SCALE_FROM), (x + k, y + SCALE_FROM + h)), MARK))
        items.append(Polyline(((x + SCALE_FROM, y + k), (x + SCALE_FROM + h, y + k)), MARK))
        if k % 2 == 0:
            num = f"{k:+d}" if k else "0"
            row = 0.0 if k % 4 == 0 else 2.6  # 0 and the fours above, the twos below them
            if row:
                items.append(Polyline(((x + k, y + SCALE_FROM + h), (x + k, y + SCALE_FROM + 3.4)), MARK))
            items.append(Text(x + k, y + SCALE_FROM + 4.6 + row, num, MIN_TEXT_MM, "#000000"))
            items.append(Text(x + SCALE_FROM + 2.4, y + k + 0.75, num, MIN_TEXT_MM, "#000000", anchor="start"))
    return items


def alignment_test(opts: PrintOptions, game: str) -> list[Page]:
    """Two pages (front, back) with targets and mm scales: print duplex, hold to light, read the offset."""
    paper = opts.paper
    c = paper.content
    spots = [(c.x0 + 25, c.y0 + 25), (c.x1 - 25, c.y0 + 25), ((c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2),
             (c.x0 + 25, c.y1 - 25), (c.x1 - 25, c.y1 - 25)]
    pages = []
    for side in ("front", "back"):
        items: list[Item] = []
        for (x, y) in spots:
            if side == "front":
                items.append(registration_target(x, y, 4.0))
                items.extend(offset_scales(x, y))
            else:
                bx, by = mirror_point((x, y), paper, opts.flip, opts.back_offset)
                items.append(Polyline(((bx - BACK_ARM, by), (bx + BACK_ARM, by)), Style(stroke="#d62728", width=0.2)))
                items.append(Polyline(((bx, by - BACK_ARM), (bx, by + BACK_ARM)), Style(stroke="#d62728", width=0.2)))
        if side == "front":
            text = [
                "Duplex alignment test. Print this page double-sided (flip on the " + opts.flip + " edge), at 100% scale.",
                "Hold the sheet up to a light. The thin crosses on the back (red; grey in black and white) should sit on the black targets.",
                "Read where a cross's arms cross the mm scales, looking at this side: X across (right is +), Y up-down (down is +).",
                "Make the kit again with --back-offset X,Y (e.g. terragen kit ... --back-offset 0.5,-0.8, the same other options);",
                "the backs are then shifted to cancel it. Print this test again to check it.",
            ]
            for j, line in enumerate(text):
                items.append(Text(c.x0 + 5, c.y0 + 60 + 6 * j, line, 3.0, "#000000", anchor="start"))
        label = page_label(game, f"duplex alignment test ({side})", opts.scale, len(pages) + 1, 2)
        page = Page(paper.width, paper.height, label=label, trim=paper.printable)
        page.items = [page_scale(opts, paper, items + [footer(paper, label, opts.scale)])]
        pages.append(page)
    return pages
