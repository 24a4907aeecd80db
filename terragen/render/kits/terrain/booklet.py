"""Puzzle booklets: the questions first (one to a page), then the answer key.

Everything here works from a scenario's JSON data (the file the batch writes),
so a booklet can be rebuilt from a folder after a resumed run. A board is
drawn with every piece's level, pips and its (q,r) coordinate, the start (S)
and goal (G) ringed; the answer key draws the solution: the unique cheapest
route, the turned pieces (in their new rotation, outlined) with the route they
open, or each turn's leg with the turn-end cells numbered. The renderer
decides no rule: it draws what the solver recorded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from terragen.grids import hex as hx
from terragen.render.marks import footer
from terragen.render.model import Box, Circle, Document, Group, Item, Page, Polygon, Polyline, Style, Text, translate
from terragen.render.palette import load_palette
from terragen.render.paper import Paper, load_paper
from terragen.render.kits.terrain.art import ROUTE_DASH, path_items, piece_face
from terragen.render.shapes import hex_points
from terragen.render.text import paragraph, text_width

GAME = "The Terrain Game"
ROUTE_COLOUR = "#d62828"
TURN_COLOUR = "#1d4ed8"
#: the dice turns' legs and badges, turn by turn
TURN_COLOURS = ("#d62828", "#1d4ed8", "#2a9d8f", "#9b5de5", "#f77f00", "#444444")
#: One puzzle a page: two to a page left a radius-4 board 7.7 mm hexes, its cells' coordinates 5.5 pt,
#: too small to read off a home print; alone on the page its hexes are 12 mm and the coordinates 8.6 pt
PER_PAGE = 1
#: a cell's coordinate size as a share of the hex's circumradius: the most that keeps it clear of the
#: level number below it and the two upper pips beside it (a test holds 0.25 mm of air)
COORDINATE_SHARE = 0.25
#: the S and G badges: their centre's distance from the cell's centre and their radius, as shares of
#: the hex's circumradius (pips sit at 0.66 of it, radius 0.085, on the edges' midlines)
BADGE_AT, BADGE_R = 0.84, 0.26
#: the plate of the piece's own colour round a level number or coordinate a route runs under, as a
#: share of the circumradius: a white level over a dice leg's white casing all but vanished, and
#: the red route ran through the coordinates; thin enough to stay off the pips beside a coordinate
HALO = 0.025
#: a turn badge's radius, as a share of the circumradius
TURN_R = 0.27
#: where a turn badge may go: on a corner of its cell (angle on the page, y down, and distance as a
#: share of the circumradius), tried in this order. A route runs centre to centre through the edges'
#: middles, never through a corner, and every pip lies 0.54 R from one: beside the level number the
#: badge hid a pip. The upper right corner is the S and G badges'; on a ringed start or goal the
#: badge moves out past the ring, which it crossed.
TURN_SPOTS = tuple((angle, at) for at in (1.0, 1.12) for angle in (150, 210, 90, 30, 270))
#: the least room (mm) a turn badge keeps from pips, words, rings and other badges where one can
TURN_AIR = 0.3


def _cells(data: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {(c["q"], c["r"]): c for c in data["layout"]["cells"]}


def board_items(data: dict[str, Any], box: Box, solution: bool) -> list[Item]:
    """The scenario's board fitted into ``box``; with ``solution`` the answer drawn on top."""
    from terragen.terrain.pieces import exits

    pal = load_palette()
    radius = int(data["layout"]["radius"])
    cols_w = math.sqrt(3) * (2 * radius + 1)
    rows_h = 1.5 * (2 * radius) + 2
    R = min(box.width / cols_w, box.height / rows_h)
    cx0 = (box.x0 + box.x1) / 2
    cy0 = (box.y0 + box.y1) / 2

    def at(h) -> tuple[float, float]:
        x, y = hx.to_pixel(tuple(h), R)
        return (cx0 + x, cy0 + y)

    cells = _cells(data)
    turned = {}
    if solution and data["kind"] == "rotation":
        turned = {(t["q"], t["r"]): t for t in data["solution"]["turns"]}
    items: list[Item] = []
    numbers: list[tuple[Text, str, tuple[int, int]]] = []  # with the piece's colour and cell: drawn over the route
    pips: list[Circle] = []
    for h in hx.board_cells(radius):
        c = cells[h]
        rot = turned[h]["rotation"] if h in turned else c["rotation"]
        art = piece_face(R, c["level"], exits(c["pattern"], rot), "", pal, number=False)
        ink = pal.text_on(c["level"])
        x, y = at(h)
        items.append(Group(art, translate(x, y), clip=hex_points(R)))
        pips.extend(Circle(x + it.cx, y + it.cy, it.r, it.style) for it in art if isinstance(it, Circle))
        items.append(Polygon(hex_points(R, x, y), Style(stroke="#ffffff", width=0.25)))
        # the coordinate sits between the level number and the two upper pips, clear of both
        # (between the pips, at the height of their centres, a five-character "-1,-3" touched
        # them); like the level it is drawn over the answer's route, which the answer names by them
        ground = pal.level(c["level"])
        numbers.append((Text(x, y - R * 0.25, f"{h[0]},{h[1]}", R * COORDINATE_SHARE, ink), ground, h))
        numbers.append((Text(x, y + R * 0.3, str(c["level"]), R * 0.55, ink, bold=True), ground, h))
    for h in turned:
        x, y = at(h)
        items.append(Polygon(hex_points(R * 0.93, x, y), Style(stroke=TURN_COLOUR, width=max(0.6, R * 0.12))))
    routed: set[tuple[int, int]] = set()
    if solution:
        items.extend(_solution_paths(data, at, R))
        routed = set(_route_cells(data))
    for text, ground, h in numbers:
        if h in routed:
            items.append(_halo(text, ground, R * HALO))
        items.append(text)
    marks: list[Item] = []
    ps = data["puzzle"]
    for h, name in ((ps["start"], "S"), (ps["goal"], "G")):
        x, y = at(h)
        marks.append(Circle(x, y, R * 0.78, Style(stroke="#000000", width=max(0.5, R * 0.09))))
        # on the upper right corner, between two pips' places and clear of the neighbours' (on the
        # north-east edge it hid that edge's pip: a route leaving the start that way was invisible)
        bx, by = x + R * BADGE_AT * math.cos(-math.pi / 6), y + R * BADGE_AT * math.sin(-math.pi / 6)
        marks.append(Circle(bx, by, R * BADGE_R, Style(fill="#000000", stroke="#ffffff", width=0.2)))
        marks.append(Text(bx, by + R * 0.09, name, R * 0.27, "#ffffff", bold=True))
    items.extend(marks)
    if solution and data["kind"] == "dice":
        taken = _shapes(pips + [t for t, _, _ in numbers] + marks)
        items.extend(_turn_badges(data, at, R, taken, box))
    return items


def _route_cells(data: dict[str, Any]) -> list[tuple[int, int]]:
    """Every cell the answer's route (or a dice turn's leg) passes through: where a number needs its halo."""
    sol = data["solution"]
    paths = [sol["path"]] if data["kind"] in ("route", "rotation") else [leg["path"] for leg in sol["legs"]]
    return [tuple(h) for path in paths for h in path]


def _halo(text: Text, ground: str, pad: float) -> Polygon:
    """A plate of the piece's colour just round ``text``'s letters, so a route under it cannot
    take them (a white level on a white casing, dark coordinates on the red line)."""
    from terragen.render.tiler import label_box

    b = label_box(text, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)).grow(pad)
    return Polygon(((b.x0, b.y0), (b.x1, b.y0), (b.x1, b.y1), (b.x0, b.y1)), Style(fill=ground))


def _shapes(items: list[Item]):
    """What a turn badge keeps clear of, as one shapely shape: discs, rings' strokes, words' boxes."""
    from shapely.geometry import Point, box
    from shapely.ops import unary_union

    from terragen.render.tiler import label_box

    parts = []
    for it in items:
        if isinstance(it, Text):
            b = label_box(it, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
            parts.append(box(b.x0, b.y0, b.x1, b.y1))
        elif isinstance(it, Circle) and it.style.fill:
            parts.append(Point(it.cx, it.cy).buffer(it.r + (it.style.width / 2 if it.style.stroke else 0.0)))
        elif isinstance(it, Circle):
            parts.append(Point(it.cx, it.cy).buffer(it.r).exterior.buffer(it.style.width / 2))
    return unary_union(parts)


def _solution_paths(data: dict[str, Any], at, R: float) -> list[Item]:
    """The answer's route, or each dice turn's leg in a colour and dash of its own."""
    sol = data["solution"]
    w = max(0.6, R * 0.11)
    if data["kind"] in ("route", "rotation"):
        return path_items([at(h) for h in sol["path"]], ROUTE_COLOUR, w)
    items: list[Item] = []
    for k, leg in enumerate(sol["legs"]):
        if len(leg["path"]) > 1:
            # a white casing and a dash of its own: in grey the teal leg over dark pieces vanished
            points = [at(h) for h in leg["path"]]
            items.append(Polyline(tuple(points), Style(stroke="#ffffff", width=w * 2.2)))
            items.extend(path_items(points, TURN_COLOURS[k % len(TURN_COLOURS)], w, ROUTE_DASH[k % len(ROUTE_DASH)]))
    return items


def _turn_badges(data: dict[str, Any], at, R: float, taken, box: Box) -> list[Item]:
    """Each turn's number on the cell it ends on: one badge, or one label naming every turn that
    ends there (one badge each hid the others), on the first corner of :data:`TURN_SPOTS` clear of
    ``taken`` (pips, words, rings, the S and G badges) and of the badges before it; where none is,
    the one with the most room."""
    from shapely.geometry import Point
    from shapely.geometry import box as sbox

    ends: dict[tuple[int, int], list[int]] = {}  # the turns that end on each cell, in order
    for k, leg in enumerate(data["solution"]["legs"]):
        ends.setdefault(tuple(leg["end"]), []).append(k)
    inside = sbox(box.x0, box.y0, box.x1, box.y1)
    items: list[Item] = []
    for end, turns in ends.items():
        x, y = at(end)
        label = ",".join(str(k + 1) for k in turns)
        half = R * TURN_R if len(turns) == 1 else text_width(label, R * 0.3, True) / 2 + R * 0.1

        def shape(spot: tuple[float, float]):
            bx, by = spot
            return Point(bx, by).buffer(half) if len(turns) == 1 else sbox(bx - half, by - R * 0.18, bx + half, by + R * 0.18)

        spots = [(x + R * at_ * math.cos(math.radians(a)), y + R * at_ * math.sin(math.radians(a))) for a, at_ in TURN_SPOTS]
        room = [shape(p).distance(taken) if inside.contains(shape(p)) else -1.0 for p in spots]
        clear = [p for p, d in zip(spots, room) if d >= TURN_AIR]
        bx, by = clear[0] if clear else spots[room.index(max(room))]
        taken = taken.union(shape((bx, by)))
        if len(turns) == 1:
            k = turns[0]
            items.append(Circle(bx, by, half, Style(fill=TURN_COLOURS[k % len(TURN_COLOURS)], stroke="#ffffff", width=0.2)))
            items.append(Text(bx, by + R * 0.1, label, R * 0.3, "#ffffff", bold=True))
        else:  # turns that stay (or come back)
            items.append(Polygon(((bx - half, by - R * 0.18), (bx + half, by - R * 0.18), (bx + half, by + R * 0.18),
                                  (bx - half, by + R * 0.18)), Style(fill="#333333", stroke="#ffffff", width=0.2)))
            items.append(Text(bx, by + R * 0.11, label, R * 0.3, "#ffffff", bold=True))
    return items


def answer_text(data: dict[str, Any]) -> str:
    """The answer in words, as the answer key prints it."""
    sol = data["solution"]
    kind = data["kind"]
    if kind == "route":
        cells = " ".join(f"({q},{r})" for q, r in sol["path"])
        return f"Cost {sol['cost']} (good weather), {len(sol['path']) - 1} steps: {cells}."
    if kind == "rotation":
        parts = [f"turn {t['piece']} at ({t['q']},{t['r']}) from rotation {t['from_rotation']} to "
                 f"{t['rotation']} (exits {' '.join(hx.DIRECTION_NAMES[d] for d in t['exits'])})"
                 for t in sol["turns"]]
        text = "; ".join(parts)
        return text[:1].upper() + text[1:] + f". Then the cheapest route costs {sol['cost_after']}."
    turns = []
    for k, (leg, roll) in enumerate(zip(sol["legs"], data["puzzle"]["rolls"]), 1):
        q, r = leg["end"]
        spent = leg["cost"] * (2 if roll["weather"] == "bad" else 1)
        turns.append(f"turn {k} ({roll['white']} {roll['weather']}): end on ({q},{r}), {spent} point{'s' if spent != 1 else ''}")
    text = "; ".join(turns)
    return text[:1].upper() + text[1:] + "."


def _title(data: dict[str, Any], number: int) -> str:
    m = data["metrics"]
    return f"Puzzle {number} · {data['kind']} · {data['difficulty']} · grade {m['grade']}  [{data['id']}]"


def _slot(data: dict[str, Any], number: int, box: Box, solution: bool, text_share: float = 1.0) -> list[Item]:
    items: list[Item] = [Text(box.x0, box.y0 + 5.0, _title(data, number) + (" · answer" if solution else ""),
                              4.2, "#000000", anchor="start", bold=True)]
    text = answer_text(data) if solution else data["question"]
    para, y = paragraph(box.x0, box.y0 + 11.0, text, 3.1, box.width * text_share, "#222222")
    items.extend(para)
    items.extend(board_items(data, Box(box.x0, y, box.x1, box.y1), solution))
    return items


def booklet(scenarios: list[dict[str, Any]], paper_key: str = "a4", title: str = "puzzle booklet") -> Document:
    """A page on how to solve them, all scenarios as puzzles (one per page), then the answer key in
    the same order."""
    pages = booklet_pages(len(scenarios), scenarios.__getitem__, paper_key, title)
    return Document(f"{GAME}: {title}", list(pages))


def booklet_pages(count: int, load: Callable[[int], dict[str, Any]], paper_key: str = "a4",
                  title: str = "puzzle booklet") -> Iterator[Page]:
    """The booklet's pages one at a time, loading scenario ``i`` with ``load(i)`` only for the
    page that shows it: memory stays flat however many scenarios there are."""
    paper = load_paper(paper_key)
    starts = range(0, count, PER_PAGE)
    plan = [(k, False) for k in starts] + [(k, True) for k in starts]
    n = len(plan) + 1
    yield _intro_page(paper, title, len(starts), _label(f"{title}, how to solve", 1, n, boards=False))
    for page_no, (first, solution) in enumerate(plan, 2):
        what = "answer key" if solution else "puzzles"
        slots = [(load(i), i + 1) for i in range(first, min(first + PER_PAGE, count))]
        yield _page(paper, slots, solution, _label(f"{title}, {what}", page_no, n))


def _intro_page(paper: Paper, title: str, puzzle_pages: int, label: str) -> Page:
    """How to read a page and solve its puzzle: a solver without the rulebook had no costs, no word
    on what the dots mean and no bad weather (an independent solver's look at a booklet)."""
    from terragen.render.kits.terrain.kit import rules_sections
    from terragen.render.text import titled_sections

    rules = dict(rules_sections())
    sections = [
        ("What a page shows", "Each hex is a piece: its big number is its height in levels, the dots on its sides are "
         "its exits, and q,r is its position. S marks the start and G the goal."),
        ("Moving", rules["Moving"]),
        ("Costs", rules["Costs"]),
        ("Route puzzles", "Find the cheapest way from S to G in good weather. There is exactly one."),
        ("Rotation puzzles", "G cannot be reached as the pieces lie. Find the one piece to turn that opens a way "
         "(two pieces in the harder ones: turning a piece changes only its own exits); exactly one choice works."),
        ("Dice puzzles", "The rolls are given in order, white die and red die: the white die is the points you may "
         "spend, and an odd red die is bad weather (costs double, so half the points, rounded down). End a turn on "
         "G with the last roll; a turn may end where it began. There is exactly one way."),
        ("Answers", f"The answer key follows the puzzles: puzzle n is on page n + 1, its answer on page "
         f"n + {puzzle_pages + 1}, with the way drawn on the board."),
    ]
    c = paper.content
    items, _ = titled_sections(c, f"{GAME}: {title}", "How to solve these puzzles (a summary of the rules they use).",
                               sections, 3.9)
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = items + [footer(paper, label)]
    return page


def booklet_pdf(scenario_files: list[Path], paper_key: str = "a4", title: str = "puzzle booklet") -> bytes:
    """The booklet PDF of the scenario files (in this order), read and drawn page by page."""
    from terragen.fileio import read_text_input
    from terragen.render.pdf import pages_pdf
    from terragen.safejson import load_json

    def load(i: int) -> dict[str, Any]:
        return load_json(read_text_input(scenario_files[i]), str(scenario_files[i]))

    return pages_pdf(f"{GAME}: {title}", booklet_pages(len(scenario_files), load, paper_key, title))


def _label(contents: str, k: int, n: int, boards: bool = True) -> str:
    # boards are pictures, not true size: say so instead of the kit's "print at 100%" (a page of
    # words has none to say it of)
    return " · ".join([f"terragen · {GAME}", contents, *(["boards reduced to fit"] if boards else []), f"page {k}/{n}"])


def _page(paper: Paper, slots: list[tuple[dict[str, Any], int]], solution: bool, label: str) -> Page:
    c = paper.content
    half = c.height / PER_PAGE
    items: list[Item] = []
    for k, (data, number) in enumerate(slots):
        box = Box(c.x0, c.y0 + k * half, c.x1, c.y0 + (k + 1) * half - 4.0)
        items.extend(_slot(data, number, box, solution))
    page = Page(paper.width, paper.height, label=label, trim=paper.printable)
    page.items = items + [footer(paper, label)]
    return page


def scenario_svg(data: dict[str, Any], paper_key: str = "a4") -> str:
    """One scenario's puzzle (question and board, no answer) as a standalone SVG."""
    from terragen.render.svg import page_svg

    paper = load_paper(paper_key)
    c = paper.content
    w = c.width
    h = w * 1.1
    page = Page(w + 20.0, h + 20.0)
    # SVG viewers may substitute a wider font than Helvetica: wrap the words shorter
    page.items = _slot(data, data["index"] + 1, Box(10.0, 10.0, 10.0 + w, 10.0 + h), False, text_share=0.85)
    return page_svg(page, f"{GAME}: {data['id']}")
