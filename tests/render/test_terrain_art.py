"""What the Terrain sheets say: pips where the model's exits are, ids, routes, build order, nets."""

from __future__ import annotations

import math

import pytest

from terragen.render.kits.terrain.build_sheet import build_sheet, routes
from terragen.render.model import Circle, Polyline, Text, flatten
from terragen.render.nets import prism_net
from terragen.render.palette import load_palette
from terragen.render.kits.terrain.art import piece_face
from terragen.terrain.files import load_layout
from terragen.terrain.pieces import exits

from .test_cli_render import EXAMPLES


def pip_directions(items, R):
    """Directions of the pips drawn on a face, read back from where the dark dots sit."""
    dirs = set()
    for it, _ in flatten(items):
        if isinstance(it, Circle) and it.style.fill == "#1a1a1a":
            ang = math.degrees(math.atan2(-it.cy, it.cx)) % 360  # screen y is down
            dirs.add(round(ang / 60) % 6)
    return dirs


@pytest.mark.parametrize("pattern", ["A", "B", "C", "D"])
@pytest.mark.parametrize("rotation", range(6))
def test_pips_sit_on_the_exit_edges(pattern, rotation):
    R = 20.0
    face = piece_face(R, 3, exits(pattern, rotation), "3X1", load_palette())
    assert pip_directions(face, R) == set(exits(pattern, rotation))


def test_tile_sheets_hold_every_piece_once_with_big_level_and_small_id(kit_a4):
    fronts = [p for k, p in enumerate(kit_a4["tiles"].pages) if k % 2 == 0]
    texts = [it.text for page in fronts for it, _ in flatten(page.items) if isinstance(it, Text)]
    ids = [t for t in texts if len(t) == 3 and t[0].isdigit() and t[1] in "ABCD"]
    assert len(ids) == 96 and len(set(ids)) == 96
    big = [it for page in fronts for it, _ in flatten(page.items) if isinstance(it, Text) and it.bold and it.text.isdigit()]
    assert len(big) == 96 and min(t.size for t in big) > 10  # readable across the table


def test_build_sheet_shows_each_position_routes_and_build_order(a4):
    layout = load_layout(EXAMPLES / "four-players.json")
    layout.cells[0].extra["piece"] = "1C2"
    order = [{"seat": k % 2, "q": c.q, "r": c.r, "piece": f"{c.level}{c.pattern}1"} for k, c in enumerate(layout.cells)]
    layout.extra.setdefault("meta", {})["build_order"] = order
    doc = build_sheet(layout, a4, "four-players.json")
    texts = [it.text for page in doc.pages for it, _ in flatten(page.items) if isinstance(it, Text)]
    assert "1C2" in texts  # the named piece id wins over level + pattern
    assert sum(1 for t in texts if t in {f"r{k}" for k in range(6)}) == 91
    assert any(t.startswith("91. P") for t in texts)  # the placing player by the kit's token name
    info = routes(layout)
    assert len(info) == 4 and all(ok for _, _, _, ok in info)
    assert all(p.width > p.height for p in doc.pages)  # landscape: the board is wider than tall


def test_piece_name_falls_back_to_level_and_pattern():
    layout = load_layout(EXAMPLES / "two-players.txt")
    c = layout.cells[0]
    c.extra["piece"] = "5B2"
    assert c.piece_name == "5B2"
    for no_id in ("", None):
        c.extra["piece"] = no_id
        assert c.piece_name == f"{c.level}{c.pattern}"
    c.extra.pop("piece")
    assert c.piece_name == f"{c.level}{c.pattern}"


@pytest.mark.parametrize("level", [1, 4, 8])
def test_net_walls_are_six_mm_per_level(level):
    R = 50.0 / math.sqrt(3)
    net = prism_net(R, level * 6.0, [], "#888888", 6.0, "x")
    # a strip of six walls (each one side long) plus the closing tab; the lid (50 mm across flats) above
    assert net.bounds.width == pytest.approx(6 * R + 4.0, abs=0.01)
    assert net.bounds.height == pytest.approx(50.0 + 6.0 * level, abs=0.01)
    black = [it for it in net.items if isinstance(it, Polyline) and it.style.stroke == "#000000" and not it.style.dash]
    assert len(black) == 1 and black[0].points[0] == black[0].points[-1]  # the one cut line, closed
    # the level lines: one per level on each wall, never black, stopping short of the folds (an edge-to-edge
    # black line read as a cut line)
    layers = [it for it in net.items if isinstance(it, Polyline) and it not in black and not it.style.dash
              and it.points[0][1] == it.points[-1][1] and 0 < it.points[0][1] < 6.0 * level]
    assert len(layers) == 6 * (level - 1)
    side = R
    for it in layers:
        (x0, _), (x1, _) = it.points[0], it.points[-1]
        assert x0 % side > 0.5 and side - (x1 % side) > 0.5


def test_board_sheets_overlap_and_show_the_whole_board(kit_a4):
    pages = kit_a4["board"].pages
    assert "overview" in pages[0].label and "reduced" in pages[0].label
    names = [p.label.split("sheet ")[1].split(" ")[0] for p in pages[1:]]
    assert names == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
    for p in pages[1:]:
        assert "true size" in p.label


def test_pips_and_text_stay_inside_the_safe_zone(a4):
    """Pips and labels sit at least the paper's safe distance inside the cut, so a rough cut keeps them."""
    from shapely.geometry import Point as SPoint
    from shapely.geometry import Polygon as SPolygon

    from terragen.render.text import text_width

    size = 50.0
    R = size / math.sqrt(3)
    safe = SPolygon([(x, y) for x, y in __import__("terragen.grids.hex", fromlist=["x"]).corner_offsets(R)]).buffer(-a4.paper.safe)
    for pattern in "ABCD":
        for it, _ in flatten(piece_face(R, 8, exits(pattern, 0), "8D3", load_palette())):
            if isinstance(it, Circle):
                assert safe.contains(SPoint(it.cx, it.cy).buffer(it.r + (it.style.width / 2 if it.style.stroke else 0))), pattern
            elif isinstance(it, Text):
                w = text_width(it.text, it.size, it.bold)
                for x in (it.x - w / 2, it.x + w / 2):
                    assert safe.contains(SPoint(x, it.y)) and safe.contains(SPoint(x, it.y - it.size * 0.7))


def test_gauge_zero_is_its_bottom_cut_edge():
    """A gauge stood on the table must read 1 for a one-level piece, not 2: the first band
    starts at the bottom cut edge and each band is one level high."""
    from terragen.render.model import Polygon
    from terragen.render.kits.terrain.art import LEVEL_MM, elevation_gauge

    pal = load_palette()
    items, w, h = elevation_gauge(pal)
    outline = items[0]
    assert isinstance(outline, Polygon) and outline.style.stroke
    bottom = max(y for _, y in outline.points)
    bands = {}
    for it, _ in flatten(items):
        if isinstance(it, Polygon) and it.style.fill in pal.levels.values() and it is not outline:
            lv = next(k for k, v in pal.levels.items() if v == it.style.fill)
            bands[lv] = (min(y for _, y in it.points), max(y for _, y in it.points))
    assert sorted(bands) == list(range(1, 9))
    for lv, (top, low) in bands.items():
        assert low == pytest.approx(bottom - (lv - 1) * LEVEL_MM)
        assert top == pytest.approx(bottom - lv * LEVEL_MM)
    # nothing printed between the first band and the table edge
    texts_below = [it for it, _ in flatten(items) if isinstance(it, Text) and it.y > bands[1][0] + LEVEL_MM * 0.75 and it.text != "1"]
    assert not texts_below


def test_nets_print_colour_past_every_cut_of_walls_and_lid(kit_a4, a4):
    """A fold-up net cut a little wide must show the wall or lid colour, not white paper."""
    from shapely.geometry import Polygon as SPolygon
    from shapely.geometry import box
    from shapely.ops import unary_union

    from terragen.render.model import Group, Polygon

    b, R, h = 1.5, 50.0 / math.sqrt(3), 18.0
    net = prism_net(R, h, [], "#888888", 6.0, "3A1", bleed=b, lid_colour="#b5cf76")
    cover = unary_union([SPolygon(it.points) for it in net.bleed if isinstance(it, Polygon) and it.style.fill])
    walls = box(0, 0, 6 * R, h)
    assert cover.contains(walls.buffer(b * 0.99, join_style="mitre"))
    lid = [it for it in net.items if isinstance(it, Group) and it.clip][0]
    lid_poly = SPolygon([(x + lid.matrix[4], y + lid.matrix[5]) for x, y in lid.clip])
    assert cover.contains(lid_poly.buffer(b * 0.99, join_style="mitre"))
    assert {it.style.fill for it in net.bleed} == {"#888888", "#b5cf76"}
    # the kit's nets pages draw every net's bleed first, under all the nets
    page = kit_a4["nets"].pages[0]
    body = page.items[0].items
    assert page.bleed is not None
    n_nets = sum(1 for it in body if isinstance(it, Group) and any(isinstance(c, Polyline) and c.style.width == 0.2 for c in it.items))
    assert n_nets > 0
    assert all(isinstance(it, Group) and all(isinstance(c, Polygon) for c in it.items) for it in body[:n_nets])


def test_every_lid_marks_its_right_hand_side_where_a_flat_piece_has_it(kit_a4):
    """A lid is printed turned (flat side down, every other net half round) with its number kept
    upright, so the number cannot tell which way the built prism faces: a notch on the rim must
    stand where a flat piece's right-hand side is, i.e. its pips sit at the exits of rotation 0
    counted from the notch, as the build sheet's notch counts them."""
    import re
    from collections import defaultdict

    from terragen.render.model import Polygon, apply

    lids = 0
    for page in kit_a4["nets"].pages:
        by_frame = defaultdict(list)  # a lid's art shares one placement on the page
        for it, m in flatten(page.items):
            by_frame[m].append(it)
        for m, items in by_frame.items():
            ids = [it.text for it in items if isinstance(it, Text) and re.fullmatch(r"\d[A-D]\d+", it.text)]
            pips = [it for it in items if isinstance(it, Circle) and it.style.fill == "#1a1a1a"]
            if not (ids and pips):
                continue
            lids += 1
            notches = [it for it in items if isinstance(it, Polygon) and len(it.points) == 3
                       and it.style.fill == "#1a1a1a"]
            assert len(notches) == 1, ids[0]
            cx, cy = apply(m, (0.0, 0.0))

            def angle(x, y):
                px, py = apply(m, (x, y))
                return math.degrees(math.atan2(-(py - cy), px - cx))

            nx = sum(x for x, _ in notches[0].points) / 3
            ny = sum(y for _, y in notches[0].points) / 3
            seen = {round((angle(p.cx, p.cy) - angle(nx, ny)) / 60) % 6 for p in pips}
            assert seen == set(exits(ids[0][1], 0)), ids[0]
    assert lids == 96


def test_nets_turned_half_round_keep_their_numbers_upright(kit_a4):
    """Packing turns every other net half round; its id and the lid's numbers must still read left
    to right on the sheet (a level-6 lid upside down reads as 9), each in the same spot as before."""
    from terragen.render.model import Group, apply
    from terragen.render.nets import place
    from terragen.render.text import text_width

    turned = 0
    for page in kit_a4["nets"].pages:
        for it, m in flatten(page.items):
            if isinstance(it, Text):
                a = math.radians(it.angle)
                assert m[0] * math.cos(a) - m[2] * math.sin(a) > 0.5, it.text  # baseline points right
        for g in page.items[0].items:
            if isinstance(g, Group) and g.matrix[0] < 0:  # a net turned half round
                turned += 1
    assert turned > 0
    # the middle of each turned-back text stays where the turned net had put it
    net = prism_net(50.0 / math.sqrt(3), 18.0, [Text(0, 0, "6", 5.0)], "#888888", 6.0, "3A1")
    half_turn = (-1.0, 0.0, 0.0, -1.0, 100.0, 100.0)
    naive = [(t, m) for t, m in flatten([Group(net.items, half_turn)]) if isinstance(t, Text)]
    fixed = [(t, m) for t, m in flatten([place(net, half_turn)]) if isinstance(t, Text)]

    def middle(t, m):
        a = math.radians(t.angle)
        e1, e2 = (math.cos(a), -math.sin(a)), (math.sin(a), math.cos(a))
        dx = {"start": 0.5, "end": -0.5}.get(t.anchor, 0.0) * text_width(t.text, t.size, t.bold)
        return apply(m, (t.x + dx * e1[0] - t.size / 2 * e2[0], t.y + dx * e1[1] - t.size / 2 * e2[1]))

    assert len(naive) == len(fixed) == 2
    for (t0, m0), (t1, m1) in zip(naive, fixed):
        assert t1.text == t0.text
        assert math.dist(middle(t0, m0), middle(t1, m1)) < 1e-6


def test_the_kits_fold_up_pieces_are_six_mm_a_level_as_the_rulebook_says():
    """The rulebook gives a level as a quarter inch (6 mm): the kit's net for a level-k piece
    stands 6k mm (its cut outline is the 50 mm lid plus the walls), read off the drawn pages."""
    from terragen.render.impose import PrintOptions
    from terragen.render.kits.terrain.kit import nets_part
    from terragen.render.model import apply
    from terragen.render.paper import load_paper
    from terragen.terrain.pieces import Inventory

    one_per_level = Inventory("one per level", {(lv, "A"): 1 for lv in range(1, 9)})
    doc = nets_part(PrintOptions(load_paper("a4")), 50.0, load_palette(), one_per_level).doc
    heights = []
    for page in doc.pages:
        for it, m in flatten(page.items):
            if isinstance(it, Polyline) and it.style.width == 0.2 and it.points[0] == it.points[-1]:
                ys = [apply(m, p)[1] for p in it.points]
                heights.append(round(max(ys) - min(ys), 2))
    assert sorted(heights) == [50.0 + 6.0 * lv for lv in range(1, 9)]


def test_seats_numbered_six_apart_get_their_own_colours_in_every_picture():
    """Colours go by a seat's rank on the board: seats 1 and 7 shared one colour by number."""
    from terragen.render.kits.terrain.board_picture import SEAT_COLOURS, board_svg
    from terragen.render.kits.terrain.terminal import board_text
    from terragen.templates import template_path
    from terragen.terrain.formats_text import read_text_layout

    text = template_path("terrain", "examples", "two-players.txt").read_text()
    layout = read_text_layout(text.replace("seat 0 corner 0", "seat 1 corner 0").replace("seat 1 corner 3", "seat 7 corner 3"),
                         "seats.txt")
    assert sorted(p.seat for p in layout.players) == [1, 7]
    svg = board_svg(layout)
    assert SEAT_COLOURS[0] in svg and SEAT_COLOURS[1] in svg
    ansi = board_text(layout, colour=True)
    first, second = (f"38;2;{int(c[1:3], 16)};{int(c[3:5], 16)};{int(c[5:7], 16)}" for c in SEAT_COLOURS[:2])
    assert first in ansi and second in ansi
