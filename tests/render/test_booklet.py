"""The puzzle booklet names cells by their coordinates, so each must read on its own at print size."""

from __future__ import annotations

import json

import pytest

from terragen.terrain.puzzles.batch import run_batch
from terragen.render.kits.terrain.booklet import booklet
from terragen.render.model import Circle, Text, apply, flatten

from .test_build_sheet import text_box

#: Clear space (mm) kept between a cell's coordinate and a pip or the level number: at the
#: booklet's print size a coordinate closer than this reads as touching the pip beside it
CLEARANCE = 0.25


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    out = tmp_path_factory.mktemp("batch")
    run_batch(3, "mix", "medium", 4, out, workers=1, booklet=False)
    return [json.loads(p.read_text()) for p in sorted((out / "scenarios").glob("*.json"))]


def _coordinate(text: str) -> bool:
    q, comma, r = text.partition(",")
    return bool(comma) and q.lstrip("-").isdigit() and r.lstrip("-").isdigit()


def test_every_coordinate_keeps_clear_of_pips_and_the_level_number(scenarios):
    from shapely.geometry import Point

    doc = booklet(scenarios)
    for number, page in enumerate(doc.pages[1:], 2):  # (page 1 says how to solve them: no board)
        pips, labels, levels = [], [], []
        for it, m in flatten(page.items):
            if isinstance(it, Circle) and it.style.fill == "#1a1a1a":
                (cx, cy), (ex, _) = apply(m, (it.cx, it.cy)), apply(m, (it.cx + it.r, it.cy))
                pips.append(Point(cx, cy).buffer(abs(ex - cx) + it.style.width / 2))
            elif isinstance(it, Text) and _coordinate(it.text):
                labels.append((it.text, text_box(it, m)))
            elif isinstance(it, Text) and it.text.isdigit() and it.bold:
                levels.append((it.size, text_box(it, m)))
        biggest = max(size for size, _ in levels)
        levels = [b for size, b in levels if size > 0.9 * biggest]  # not a dice answer's leg badge
        assert len(labels) == len(levels) > 0
        for text, box in labels:
            near = box.buffer(CLEARANCE)
            assert not any(near.intersects(p) for p in pips), f"page {number}: {text} touches a pip"
            assert not any(near.intersects(b) for b in levels), f"page {number}: {text} touches a level"


def test_turns_ending_on_one_cell_are_all_named_in_the_answer_key():
    """Turns 1, 2 and 3 all ending on (2,0) showed only "3": each badge hid the one before."""
    from terragen.render.kits.terrain.booklet import board_items
    from terragen.render.model import Box
    from terragen.terrain.puzzles import make_puzzle

    data = make_puzzle("dice", "hard", 5, 1).to_data()
    ends = [tuple(leg["end"]) for leg in data["solution"]["legs"]]
    assert len(set(ends)) < len(ends)  # the case: some turns end where another did
    texts = [it for it, _ in flatten(board_items(data, Box(0, 0, 180, 200), True)) if isinstance(it, Text) and it.bold]
    level = max(it.size for it in texts)  # the turn labels are the small bold white words (S and G aside)
    labels = [(it.text, (round(it.x, 3), round(it.y, 3))) for it in texts
              if it.size < 0.7 * level and it.colour == "#ffffff" and it.text not in ("S", "G")]
    named = sorted(int(k) for text, _ in labels for k in text.split(","))
    assert named == list(range(1, len(ends) + 1))  # every turn named once
    assert len({at for _, at in labels}) == len(labels) == len(set(ends))  # one label per end cell


def test_the_start_and_goal_badges_hide_no_pip(scenarios):
    """The S and G badges sat on the hex's north-east edge, over its pip: a route leaving the start
    that way was invisible, and two puzzles of six could not be solved as printed."""
    from shapely.geometry import Point

    from terragen.render.kits.terrain.booklet import board_items
    from terragen.render.model import Box

    for data, rotation in ((d, k) for d in scenarios for k in range(6)):
        turned = json.loads(json.dumps(data))  # three pips side by side, turned to every edge in turn
        ends = {tuple(turned["puzzle"]["start"]), tuple(turned["puzzle"]["goal"])}
        for c in turned["layout"]["cells"]:
            if (c["q"], c["r"]) in ends:
                c["pattern"], c["rotation"] = "A", rotation
        pips, badges = [], []
        for it, m in flatten(board_items(turned, Box(0, 0, 180, 120), solution=True)):
            if isinstance(it, Circle) and it.style.fill in ("#1a1a1a", "#000000"):
                (cx, cy), (ex, _) = apply(m, (it.cx, it.cy)), apply(m, (it.cx + it.r, it.cy))
                disc = Point(cx, cy).buffer(abs(ex - cx) + it.style.width / 2)
                (pips if it.style.fill == "#1a1a1a" else badges).append(disc)
        assert len(badges) == 2
        for badge in badges:
            assert not any(badge.buffer(CLEARANCE).intersects(p) for p in pips)


def test_each_dice_leg_has_a_dash_of_its_own_and_a_casing(scenarios):
    """Legs told apart by colour alone: in grey a teal leg over dark pieces vanished."""
    from terragen.render.kits.terrain.booklet import board_items
    from terragen.render.model import Box, Polyline

    legs_seen = 0
    for data in (d for d in scenarios if d["kind"] == "dice"):
        lines = [it for it, _ in flatten(board_items(data, Box(0, 0, 180, 120), solution=True))
                 if isinstance(it, Polyline)]
        legs = [ln for ln in lines if ln.style.stroke != "#ffffff"]
        casings = [ln for ln in lines if ln.style.stroke == "#ffffff"]
        assert len(casings) == len(legs) and all(c.style.width > l.style.width for c, l in zip(casings, legs))
        assert len({l.style.dash for l in legs}) == len(legs)
        legs_seen += len(legs)
    assert legs_seen >= 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_coordinate_prints_at_7_pt_or_more(paper):
    """Two puzzles a page drew a radius-4 board's hexes with a 7.7 mm circumradius and the cells'
    coordinates in 5.5 pt (5.1 pt on Letter), unreadable off a home print; the answer key names
    cells by them."""
    import math

    from terragen.terrain.puzzles import make_puzzle

    MIN_COORDINATE_MM = 7 * 25.4 / 72  # the smallest a coordinate may print: 7 pt

    data = [make_puzzle(kind, difficulty, 3, 0).to_data()
            for kind in ("route", "rotation", "dice") for difficulty in ("easy", "hard")]
    assert {d["layout"]["radius"] for d in data} == {3, 4}
    sizes = []
    for page in booklet(data, paper).pages:
        for it, m in flatten(page.items):
            if isinstance(it, Text) and _coordinate(it.text):
                sizes.append(it.size * math.sqrt(abs(m[0] * m[3] - m[1] * m[2])))
    assert len(sizes) == 2 * sum(len(d["layout"]["cells"]) for d in data)  # puzzles and answers
    assert min(sizes) >= MIN_COORDINATE_MM - 1e-9, f"{min(sizes) / 25.4 * 72:.1f} pt"


def _answer_boards(scenarios):
    """Each scenario's answer-key board, its items in drawing order (dice puzzles with turns that
    share an end cell included)."""
    from terragen.render.kits.terrain.booklet import board_items
    from terragen.render.model import Box
    from terragen.terrain.puzzles import make_puzzle

    extra = [make_puzzle("dice", "hard", 5, 1).to_data()]
    return [(d, flatten(board_items(d, Box(0, 0, 180, 200), solution=True))) for d in list(scenarios) + extra]


def test_a_number_a_route_runs_under_stands_on_its_pieces_colour(scenarios):
    """A white level number where a dice leg's white casing ran all but vanished, and the red route
    ran through the cells' coordinates: each word a route passes under has a plate that reads with
    it (its piece's colour) between the route and its letters."""
    from shapely.geometry import LineString, box

    from terragen.render.contrast import MIN_TEXT_CONTRAST, contrast
    from terragen.render.model import Polygon, Polyline

    crossed = 0
    for data, placed in _answer_boards(scenarios):
        routes = [(k, LineString(it.points).buffer(it.style.width / 2)) for k, (it, _) in enumerate(placed)
                  if isinstance(it, Polyline) and it.style.stroke]
        assert routes
        last = max(k for k, _ in routes)
        for k, (it, m) in enumerate(placed):
            if not _number(it, placed):
                continue
            letters = text_box(it, m)
            if k < last or not any(line.intersects(letters) for _, line in routes):
                continue
            crossed += 1
            plates = [p for p, _ in placed[last + 1:k] if isinstance(p, Polygon) and p.style.fill
                      and box(*_bounds(p.points)).contains(letters)]
            assert plates, f"{data['id']}: {it.text} has the route running through it"
            assert contrast(it.colour, plates[-1].style.fill) >= MIN_TEXT_CONTRAST
    assert crossed > 10


def _number(it, placed) -> bool:
    """Whether ``it`` is a cell's coordinate or level number (the biggest words on the board)."""
    if not isinstance(it, Text):
        return False
    level = max(t.size for t, _ in placed if isinstance(t, Text))
    return _coordinate(it.text) or (it.text.isdigit() and it.size > 0.9 * level)


def _bounds(points):
    xs, ys = zip(*points)
    return min(xs), min(ys), max(xs), max(ys)


def test_turn_badges_keep_off_pips_words_and_rings(scenarios):
    """Beside the level number a turn's badge hid a pip, and on the goal it covered the ring: a badge
    (or the label of turns sharing a cell) keeps clear of every pip, coordinate, level number, start
    or goal ring and badge, turned to every rotation as the S and G test turns them."""
    from shapely.geometry import LineString, Point, box

    from terragen.render.kits.terrain.booklet import board_items
    from terragen.render.model import Box, Polygon
    from terragen.terrain.puzzles import make_puzzle

    dice = [d for d in scenarios if d["kind"] == "dice"] + [make_puzzle("dice", "hard", 5, 1).to_data()]
    badges_seen = 0
    for data, rotation in ((d, k) for d in dice for k in range(6)):
        turned = json.loads(json.dumps(data))
        ends = {tuple(leg["end"]) for leg in turned["solution"]["legs"]}
        for c in turned["layout"]["cells"]:
            if (c["q"], c["r"]) in ends:
                c["pattern"], c["rotation"] = "A", rotation
        placed = flatten(board_items(turned, Box(0, 0, 180, 200), solution=True))
        badges, things = [], []
        for it, m in placed:
            if isinstance(it, Circle) and it.style.stroke == "#ffffff" and it.style.fill not in ("#1a1a1a", "#000000"):
                badges.append(Point(it.cx, it.cy).buffer(it.r))
            elif isinstance(it, Polygon) and it.style.fill == "#333333":
                badges.append(box(*_bounds(it.points)))
            elif isinstance(it, Circle) and it.style.fill in ("#1a1a1a", "#000000"):
                things.append(Point(it.cx, it.cy).buffer(it.r + it.style.width / 2))
            elif isinstance(it, Circle) and it.style.stroke == "#000000" and not it.style.fill:
                things.append(LineString(Point(it.cx, it.cy).buffer(it.r).exterior.coords).buffer(it.style.width / 2))
            elif _number(it, placed):
                things.append(text_box(it, m))
        assert len(badges) == len(ends)
        badges_seen += len(badges)
        for k, badge in enumerate(badges):
            assert not any(badge.buffer(CLEARANCE).intersects(t) for t in things), (data["id"], rotation)
            assert not any(badge.intersects(other) for other in badges[k + 1:])
    assert badges_seen > 12


def test_the_booklet_opens_with_how_to_solve_and_says_where_each_answer_is(scenarios):
    """A solver without the rulebook had no costs, no word on what the dots mean, no bad weather."""
    doc = booklet(scenarios)
    words = " ".join(it.text for it, _ in flatten(doc.pages[0].items) if isinstance(it, Text))
    for needed in ("Costs", "Same height: 1 point", "bad weather", "exits", "Dice puzzles"):
        assert needed in words
    n = len(scenarios)
    assert f"puzzle n is on page n + 1, its answer on page n + {n + 1}" in words
    for k in range(1, n + 1):  # and so it is: the page titles say which puzzle, and which is the answer
        titles = [it.text for it, _ in flatten(doc.pages[k].items) if isinstance(it, Text) and it.bold]
        answers = [it.text for it, _ in flatten(doc.pages[k + n].items) if isinstance(it, Text) and it.bold]
        assert any(t.startswith(f"Puzzle {k} ") for t in titles)
        assert any(t.startswith(f"Puzzle {k} ") and t.endswith("answer") for t in answers)
