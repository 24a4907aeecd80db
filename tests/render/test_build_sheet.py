"""The build sheet is read at arm's length while building: every label must be big and clear.

Geometry is checked on the drawing model: each text's box (from the font's real
widths) against every pip, route, ring and outline on the same page.
"""

from __future__ import annotations

import re

import pytest

from terragen.render.kits.terrain.build_sheet import build_sheet
from terragen.render.model import Circle, Polygon, Polyline, Text, apply, flatten
from terragen.render.text import text_width
from terragen.terrain.files import load_layout

from .test_cli_render import EXAMPLES

EIGHT_PT = 8 * 25.4 / 72
PIECE = re.compile(r"^\d[A-D]\d?$")
ROTATION = re.compile(r"^r[0-5]$")


def text_box(t: Text, m):
    from shapely.geometry import box

    w = text_width(t.text, t.size, t.bold)
    x0 = t.x - (w / 2 if t.anchor == "middle" else w if t.anchor == "end" else 0)
    corners = [apply(m, p) for p in ((x0, t.y - 0.75 * t.size), (x0 + w, t.y + 0.22 * t.size))]
    (ax, ay), (bx, by) = corners
    return box(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def obstacles(page):
    """Shapely shapes a label must keep clear of (lines, rings, outlines), and filled grounds
    (hexes, pips, tags) it must sit wholly on or wholly off."""
    from shapely.geometry import LineString, Point
    from shapely.geometry import Polygon as SPolygon

    lines, grounds = [], []
    for it, m in flatten(page.items):
        if isinstance(it, Circle):
            (cx, cy), (ex, _) = apply(m, (it.cx, it.cy)), apply(m, (it.cx + it.r, it.cy))
            disc = Point(cx, cy).buffer(abs(ex - cx))
            if it.style.stroke:
                lines.append(disc.exterior.buffer(it.style.width / 2))
            if it.style.fill:
                grounds.append(disc)
        elif isinstance(it, Polyline) and it.style.stroke:
            lines.append(LineString([apply(m, p) for p in it.points]).buffer(it.style.width / 2))
        elif isinstance(it, Polygon):
            pts = [apply(m, p) for p in it.points]
            if it.style.stroke:
                lines.append(SPolygon(pts).exterior.buffer(it.style.width / 2))
            if it.style.fill:
                grounds.append(SPolygon(pts))
    return lines, grounds


def clashes(doc):
    out = []
    for k, page in enumerate(doc.pages, 1):
        lines, grounds = obstacles(page)
        for it, m in flatten(page.items):
            if not isinstance(it, Text):
                continue
            b = text_box(it, m)
            for g in lines:
                if b.intersects(g):
                    out.append((k, it.text))
                    break
            else:
                for g in grounds:
                    if b.intersects(g) and not g.contains(b) and b.intersection(g).area > 1e-6:
                        out.append((k, it.text, "half on a filled shape"))
                        break
    return out


@pytest.fixture(scope="module")
def six_players(a4):
    return build_sheet(load_layout(EXAMPLES / "six-players.txt"), a4, "six-players.txt")


def test_no_label_touches_a_pip_route_ring_or_outline(six_players):
    assert clashes(six_players) == []


@pytest.mark.parametrize("name,paper", [("four-players.json", "letter"), ("two-players.txt", "a4")])
def test_no_clash_on_other_layouts_and_paper(name, paper, a4, letter):
    opts = {"a4": a4, "letter": letter}[paper]
    assert clashes(build_sheet(load_layout(EXAMPLES / name), opts, name)) == []


def test_every_position_has_its_piece_and_rotation_at_8pt_or_more(six_players):
    layout = load_layout(EXAMPLES / "six-players.txt")
    texts = [it for page in six_players.pages for it, _ in flatten(page.items) if isinstance(it, Text)]
    pieces = [t for t in texts if PIECE.match(t.text)]
    rots = [t for t in texts if ROTATION.match(t.text)]
    assert len(pieces) == len(layout.cells) == len(rots)
    assert min(t.size for t in pieces + rots) >= EIGHT_PT
    assert sorted(t.text for t in rots) == sorted(f"r{c.rotation}" for c in layout.cells)


def test_rotation_also_shown_by_a_notch_on_the_right_edge(a4):
    """Besides the digit, a dark triangle sits on the edge the piece's right-hand side faces."""
    import math

    from terragen.render.kits.terrain.build_sheet import cell_items
    from terragen.render.palette import load_palette

    layout = load_layout(EXAMPLES / "six-players.txt")
    for cell in layout.cells[:12]:
        items = cell_items(cell, 14.0, load_palette(), [])
        notches = [it for it in items if isinstance(it, Polygon) and len(it.points) == 3]
        assert len(notches) == 1
        cx = sum(x for x, _ in notches[0].points) / 3
        cy = sum(y for _, y in notches[0].points) / 3
        assert round(math.degrees(math.atan2(-cy, cx)) / 60) % 6 == cell.rotation


def test_each_board_part_shows_where_it_sits_on_the_whole_board(six_players):
    """A thumbnail of all 91 positions on every board part, this part's dark, the rest pale."""
    from terragen.render.model import Polygon

    parts = [p for p in six_players.pages if "board part" in p.label]
    assert len(parts) == 2
    darks = []
    for page in parts:
        thumbs = [it for it, _ in flatten(page.items) if isinstance(it, Polygon) and it.style.fill in ("#333333", "#dddddd")]
        assert len(thumbs) == 91
        darks.append(sum(1 for it in thumbs if it.style.fill == "#333333"))
    assert sum(darks) == 91 and min(darks) > 0


def test_sheet_reads_in_mono_text_contrast_and_one_line_pattern_per_route(six_players):
    from terragen.render.model import Polyline

    from .test_contrast import low_contrast

    assert all(not low_contrast(page) for page in six_players.pages)
    route_page = next(p for p in six_players.pages if "routes and players" in p.label)
    dashes = {it.style.dash for it, _ in flatten(route_page.items)
              if isinstance(it, Polyline) and it.style.opacity < 1.0}  # the route lines
    assert len(dashes) == 6  # six players, six patterns


def test_routes_map_pales_the_terrain_and_runs_every_route_to_the_rim_of_its_discs(six_players):
    """The routes map is read for its lines, also from a mono print: the pieces are pale tints
    under them, and a route passing a start or flag disc goes in and out of it at the rim (a gap
    before the rim read as the route ending there)."""
    import math

    from terragen.render.model import Polyline, apply
    from terragen.render.palette import luminance

    from shapely.geometry import Point
    from shapely.geometry import Polygon as Shape

    page = next(p for p in six_players.pages if "routes and players" in p.label)
    markers, ends, hexes = [], [], []
    for it, m in flatten(page.items):
        if isinstance(it, Circle) and it.r > 1.0:
            (cx, cy), (ex, _) = apply(m, (it.cx, it.cy)), apply(m, (it.cx + it.r, it.cy))
            markers.append(Point(cx, cy).buffer(abs(ex - cx), 64))
        elif isinstance(it, Polyline) and it.style.opacity < 1.0:  # a route line
            ends += [apply(m, it.points[0]), apply(m, it.points[-1])]
        elif isinstance(it, Polygon) and len(it.points) == 6 and it.style.fill:
            hexes.append(it.style.fill)
        elif isinstance(it, Polygon) and len(it.points) > 6 and it.style.fill:  # a pill: a tag wider than a disc
            markers.append(Shape([apply(m, p) for p in it.points]))
    assert len(hexes) == 91 and min(luminance(f) for f in hexes) >= 0.6
    assert ends and markers
    for x, y in ends:
        assert min(shape.exterior.distance(Point(x, y)) for shape in markers) < 0.05, (x, y)


@pytest.mark.parametrize("paper,scale", [("letter", 1.0), ("a4", 1.1), ("letter", 1.1)])
def test_everything_stays_inside_the_printer_margin(paper, scale):
    """Landscape pages, grown by --scale, words included: nothing reaches the 10 mm margin."""
    from terragen.render.impose import PrintOptions
    from terragen.render.paper import load_paper

    from .test_geometry import page_printable, visible_points

    doc = build_sheet(load_layout(EXAMPLES / "six-players.txt"), PrintOptions(load_paper(paper), scale=scale), "six-players.txt")
    for page in doc.pages:
        x0, y0, x1, y1 = page_printable(page)
        for x, y in visible_points(page.items):
            assert x0 - 1e-3 <= x <= x1 + 1e-3 and y0 - 1e-3 <= y <= y1 + 1e-3
        for it, m in flatten(page.items):
            if isinstance(it, Text):
                bx0, by0, bx1, by1 = text_box(it, m).bounds
                assert x0 - 0.5 <= bx0 and bx1 <= x1 + 0.5, (it.text, bx0, bx1)


@pytest.mark.parametrize("paper,scale", [("a4", 1.1), ("letter", 0.95)])
def test_trim_box_grows_with_the_scale_about_the_landscape_page(paper, scale):
    """The PDF boxes follow the drawing when --scale grows it: every visible mark stays in the
    TrimBox, and the box is still centred on the (landscape) page, as the drawing is."""
    from terragen.render.impose import PrintOptions
    from terragen.render.paper import load_paper

    from .test_geometry import visible_points

    doc = build_sheet(load_layout(EXAMPLES / "six-players.txt"), PrintOptions(load_paper(paper), scale=scale), "six-players.txt")
    for page in doc.pages:
        assert page.width > page.height
        t = page.trim
        assert abs((t.x0 + t.x1) / 2 - page.width / 2) < 1e-6 and abs((t.y0 + t.y1) / 2 - page.height / 2) < 1e-6
        for x, y in visible_points(page.items):
            assert t.x0 - 1e-3 <= x <= t.x1 + 1e-3 and t.y0 - 1e-3 <= y <= t.y1 + 1e-3, (page.label, x, y)


def test_seats_numbered_six_apart_get_their_own_colours_on_the_build_sheet(a4, tmp_path):
    """Seat colours go by rank on the board (as in every picture): seats 1 and 7 shared one by number."""
    from terragen.render.palette import load_palette
    from terragen.terrain.formats_text import read_text_layout

    text = (EXAMPLES / "two-players.txt").read_text()
    layout = read_text_layout(text.replace("seat 0 corner 0", "seat 1 corner 0").replace("seat 1 corner 3", "seat 7 corner 3"))
    seats = load_palette().seats
    doc = build_sheet(layout, a4, "seats.txt")
    fills = {it.style.fill for page in doc.pages for it, _ in flatten(page.items) if isinstance(it, Circle)}
    assert seats[0] in fills and seats[1] in fills


def test_the_legend_names_the_kits_tokens_of_each_seats_colour(a4):
    """Colours go by rank, the kit's tokens P1.. by colour: seat 3 of a board of seats 0 and 3 is
    blue, the kit's P2 (its P4 is orange), so the legend says which tokens to take."""
    from terragen.terrain.formats_text import read_text_layout

    layout = read_text_layout((EXAMPLES / "two-players.txt").read_text().replace("seat 1 corner 3", "seat 3 corner 3"))
    text = " ".join(it.text for page in build_sheet(layout, a4, "b.txt").pages
                    for it, _ in flatten(page.items) if isinstance(it, Text))
    assert "P1 tokens (red, seat 0)" in text and "P2 tokens (blue, seat 3)" in text


def _texts(doc) -> list[str]:
    """Every text of the sheet, a board part's "(part 1 of 2: ...)" left out of its title."""
    return [it.text.split(" (part ")[0] for page in doc.pages for it, _ in flatten(page.items) if isinstance(it, Text)]


def test_a_generated_boards_sheet_says_what_was_asked_for(a4):
    """Every board generate writes is board.json, and its sheets were all titled 'Build sheet:
    board.json'; a radius-3 board's sheet did not say its board is not the kit's radius-5 one."""
    from terragen.terrain.formats_text import read_text_layout

    layout = read_text_layout((EXAMPLES / "two-players.txt").read_text())
    assert _texts(build_sheet(layout, a4, "b.txt"))[0] == "Build sheet: b.txt"  # a board typed in: no meta
    layout.extra["meta"] = {"generator": "terragen generate", "difficulty": "hard", "seed": 12}
    assert _texts(build_sheet(layout, a4, "friday/board.json"))[0] == \
        "Build sheet: friday/board.json — 2 players, hard, seed 12"
    layout.radius = 3  # (the title is read, not the board)
    assert _texts(build_sheet(layout, a4, "b.json"))[0].endswith("seed 12, radius 3 (its board: kit terrain --radius 3)")


def test_a_puzzles_sheet_leaves_its_answer_out(a4, tmp_path):
    """A batch puzzle drawn to set it up at the table printed its cheapest route and cost: the
    puzzle's answer. (And '1 players'.)"""
    from terragen.cli import main
    from terragen.terrain.files import load_layout

    with pytest.raises(SystemExit) as done:
        main(["batch", "--count", "1", "--kind", "route", "--seed", "3", "--out", str(tmp_path / "b")])
    assert done.value.code == 0
    (scenario,) = (tmp_path / "b" / "scenarios").glob("*.json")

    def routes_page(puzzle: bool):
        doc = build_sheet(load_layout(scenario), a4, "p.json", puzzle=puzzle)
        page = doc.pages[-2] if len(doc.pages) > 2 and "build order" in doc.pages[-1].label else doc.pages[-1]
        said = " ".join(it.text for it, _ in flatten(page.items) if isinstance(it, Text))
        return said, [it for it, _ in flatten(page.items) if isinstance(it, Polyline) and len(it.points) > 2]

    said, lines = routes_page(True)
    assert "1 player." in said and "the route is the puzzle's answer" in said and "good weather" not in said
    assert not lines
    # the same one-player board, not read from a scenario (a board being built): its route is drawn
    said, lines = routes_page(False)
    assert "good weather" in said and "puzzle" not in said and lines
    # render tells a scenario by its file
    with pytest.raises(SystemExit) as done:
        main(["render", str(scenario), "--format", "svg", "--out", str(tmp_path / "s.svg")])
    assert done.value.code == 0
    assert "the route is the puzzle" in max(tmp_path.glob("s-p*.svg")).read_text()


def test_the_legend_says_the_order_of_play(a4):
    """Four generated seats sit on corners 0, 1, 4, 3 and play in seat order, not round the board;
    the sheet gave the corners but not who plays after whom."""
    from terragen.terrain.formats_text import read_text_layout

    layout = read_text_layout((EXAMPLES / "two-players.txt").read_text().replace("seat 1 corner 3", "seat 3 corner 3"))
    text = " ".join(it.text for page in build_sheet(layout, a4, "b.txt").pages
                    for it, _ in flatten(page.items) if isinstance(it, Text))
    assert "Turns go P1, P2, then round again" in text


def test_the_legend_says_who_partners_whom_in_team_play_and_what_was_checked(a4):
    """A table playing the team variant had to know the partners from the docs; the sheet now says
    them (four and six seats) and whether generate --team-play checked the board in teams."""
    def said(layout) -> str:
        return " ".join(" ".join(_texts(build_sheet(layout, a4, "b.txt"))).split())

    four = load_layout(EXAMPLES / "four-players.txt")  # corners 0, 1, 3, 4: P1 + P2 and P3 + P4 neighbours
    assert "partners P1 + P2, P3 + P4; this board was not checked in teams" in said(four)
    four.extra["meta"] = {"balance": {"teams": {"verdict": "BALANCED", "games": 6400}}}
    assert "partners P1 + P2, P3 + P4; this board was checked fair in teams on 6,400 games" in said(four)
    assert "partners P1 + P2, P3 + P4, P5 + P6" in said(load_layout(EXAMPLES / "six-players.txt"))
    assert "Team play" not in said(load_layout(EXAMPLES / "two-players.txt"))


@pytest.mark.parametrize("example", ["two-players", "six-players"])  # six seats: the longest list of tokens
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_pages_key_is_whole_and_above_the_board(paper, example, request):
    """The key was cut to two lines whatever its length: a longer key lost its end without a word."""
    from terragen.render.kits.terrain.build_sheet import HEADER, landscape
    from terragen.terrain.formats_text import read_text_layout

    opts = request.getfixturevalue(paper)
    layout = read_text_layout((EXAMPLES / f"{example}.txt").read_text())
    layout.cells[0].inverted = True  # the longest key: with its INV sentence
    page = build_sheet(layout, opts, "b.txt").pages[0]
    top = landscape(opts.paper).content.y0
    key = [it for it, _ in flatten(page.items) if isinstance(it, Text) and it.size == 2.9 and it.colour == "#333333"]
    said = " ".join(it.text for it in key)
    assert said.startswith("Big number: level.") and said.endswith("INV = lay that piece upside down.")
    assert all(it.y + 0.22 * it.size < top + HEADER for it in key)


def test_the_board_pages_name_the_kits_tokens(a4):
    """Tags said S0 and 0.1 where the kit's tokens say P1 and "P1 flag 1": off by one, and more on a
    board of seats 0 and 3 (its seat 3 plays the kit's P2)."""
    from terragen.terrain.formats_text import read_text_layout

    layout = read_text_layout((EXAMPLES / "two-players.txt").read_text().replace("seat 1 corner 3", "seat 3 corner 3"))
    texts = [it.text for page in build_sheet(layout, a4, "b.txt").pages for it, _ in flatten(page.items)
             if isinstance(it, Text)]
    assert {"P1", "P2", "P1·1", "P2·1"} <= set(texts)
    assert not {"S0", "S3", "0.1", "3.1"} & set(texts)
    # and the key pairs them with the file's seat numbers, where the board is built (board.txt says
    # "seat 3"; only the routes page said which token that was)
    assert "Tokens: P1 seat 0, P2 seat 3 (the file's seat numbers)" in " ".join(" ".join(texts).split())
    # the build order names the placing player the same way
    layout.extra.setdefault("meta", {})["build_order"] = [{"seat": 3, "piece": "1A1", "q": 0, "r": 0}]
    texts = [it.text for page in build_sheet(layout, a4, "b.txt").pages for it, _ in flatten(page.items)
             if isinstance(it, Text)]
    rotation = next(c.rotation for c in layout.cells if (c.q, c.r) == (0, 0))
    # with the piece's turn as the board pages print it (the builder looked each hex up to turn it)
    assert f"1. P2: 1A1 at (0,0) r{rotation}" in texts
    # a position edited by hand into a list is printed as it is, without a turn (it crashed, exit 70)
    layout.extra["meta"]["build_order"] = [{"seat": 3, "piece": "1A1", "q": [0], "r": 0}]
    texts = [it.text for page in build_sheet(layout, a4, "b.txt").pages for it, _ in flatten(page.items)
             if isinstance(it, Text)]
    assert "1. P2: 1A1 at ([0],0)" in texts


COORDINATE = re.compile(r"^-?\d+,-?\d+$")


@pytest.mark.parametrize("name,paper", [("six-players.txt", "a4"), ("six-players.txt", "letter"),
                                        ("four-players.json", "letter")])
def test_every_hex_names_its_position_clear_of_every_other_mark(name, paper, a4, letter):
    """The board pages gave no hex its (q,r), so a builder could not match a sheet hex to a layout's
    line ("P2: 5B at (1,-3)"): each hex carries its q,r at 8 pt or more, in the hex's own ink (a mono
    print reads it: the contrast test covers it), 0.25 mm clear of every other word, pip and tag."""
    import math

    from shapely.geometry import Point, box

    layout = load_layout(EXAMPLES / name)
    doc = build_sheet(layout, {"a4": a4, "letter": letter}[paper], name)
    seen = []
    for page in (p for p in doc.pages if "build sheet" in p.label):
        words, marks, coords = [], [], []
        for it, m in flatten(page.items):
            if isinstance(it, Text) and COORDINATE.match(it.text):
                coords.append((it, text_box(it, m), it.size * math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))))
            elif isinstance(it, Text):
                words.append(text_box(it, m))
            elif isinstance(it, Circle) and it.style.fill:  # pips
                (cx, cy), (ex, _) = apply(m, (it.cx, it.cy)), apply(m, (it.cx + it.r, it.cy))
                marks.append(Point(cx, cy).buffer(abs(ex - cx) + it.style.width / 2))
            elif isinstance(it, Polygon) and len(it.points) == 4 and it.style.fill:  # seat tags
                xs, ys = zip(*(apply(m, p) for p in it.points))
                marks.append(box(min(xs), min(ys), max(xs), max(ys)))
        for it, b, size in coords:
            seen.append(it.text)
            assert size >= EIGHT_PT - 1e-9, (it.text, size)
            near = b.buffer(0.25)
            assert not any(near.intersects(w) for w in words), f"{it.text} touches a word"
            assert not any(near.intersects(p) for p in marks), f"{it.text} touches a pip or tag"
    assert sorted(seen) == sorted(f"{c.q},{c.r}" for c in layout.cells)
