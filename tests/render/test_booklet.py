"""The puzzle booklet names cells by their coordinates, so each must read on its own at print size."""

from __future__ import annotations

import json

import pytest

from terragen.cli.batch import run_batch
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
    for number, page in enumerate(doc.pages, 1):
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
