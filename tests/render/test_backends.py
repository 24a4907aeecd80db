"""The PDF and SVG back ends: true size in the file, real page boxes, same bytes, every page rasterises."""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.render.impose import impose
from terragen.render.model import Document, Page
from terragen.render.pdf import MM, document_pdf
from terragen.render.shapes import Shape
from terragen.render.svg import page_svg

from .test_geometry import plain_tiles

NUM = r"-?\d*\.?\d+"


def pdf_streams(data: bytes) -> list[str]:
    """The pages' content streams, in page order (embedded fonts and their maps left out)."""
    streams = [zlib.decompress(s).decode("latin-1") for s in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S)]
    return [s for s in streams if s.startswith("1 0 0 1 0 0 cm")]


def pdf_boxes(data: bytes, name: str) -> list[list[float]]:
    return [[float(v) for v in m.split()] for m in re.findall(rf"/{name} \[ ([^\]]*)\]".encode(), data)]


def test_tile_is_true_size_in_the_pdf(a4):
    imp = impose(Shape("hex", 50.0), plain_tiles(3), a4, "g", "c")
    data = document_pdf(Document("t", imp.pages))
    content = pdf_streams(data)[0]
    # the page maps 1 unit to 1 mm (y down) ...
    assert re.search(r"2\.834646 0 0 -2\.834646 0 841\.8898 cm", content)
    # ... and each tile's clip path (its cut outline) is 50 mm across flats, to 0.01 mm
    clips = re.findall(rf"n ((?:{NUM} {NUM} [ml] )+)h W\*? n", content)
    hexes = []
    for c in clips:
        nums = [float(v) for v in re.findall(NUM, c)]
        pts = list(zip(nums[0::2], nums[1::2]))
        if len(pts) == 6:
            hexes.append(pts)
    assert len(hexes) == 3
    for pts in hexes:
        xs = [p[0] for p in pts]
        assert max(xs) - min(xs) == pytest.approx(50.0, abs=0.01)
    # the calibration bar is a 100 mm line
    assert re.search(r"n 10 284 m 110 284 l", content)


def test_pdf_carries_trim_and_bleed_boxes(a4):
    imp = impose(Shape("hex", 50.0), plain_tiles(1), a4, "g", "c")
    data = document_pdf(Document("t", imp.pages))
    (trim,) = pdf_boxes(data, "TrimBox")
    (bleed,) = pdf_boxes(data, "BleedBox")
    assert (trim[2] - trim[0]) / MM == pytest.approx(50.0, abs=0.01)
    assert (trim[3] - trim[1]) / MM == pytest.approx(100 / 3 ** 0.5, abs=0.01)
    assert (trim[0] - bleed[0]) / MM == pytest.approx(3.0, abs=0.01)
    (media,) = pdf_boxes(data, "MediaBox")
    assert media[2] / MM == pytest.approx(210.0, abs=0.01) and media[3] / MM == pytest.approx(297.0, abs=0.01)


def test_every_tile_page_has_boxes(kit_a4):
    data = document_pdf(kit_a4["tiles"])
    assert len(pdf_boxes(data, "TrimBox")) == len(kit_a4["tiles"].pages)
    assert len(pdf_boxes(data, "BleedBox")) == len(kit_a4["tiles"].pages)


def test_same_input_same_bytes(kit_a4, a4):
    from terragen.render.kits.terrain.kit import tokens_part
    from terragen.render.palette import load_palette

    assert document_pdf(kit_a4["tokens"]) == document_pdf(tokens_part(a4, load_palette()).doc)
    page = kit_a4["tokens"].pages[0]
    assert page_svg(page) == page_svg(page)


def test_svg_is_true_size_and_well_formed(kit_a4):
    import xml.etree.ElementTree as ET

    text = page_svg(kit_a4["tiles"].pages[0], "tiles")
    root = ET.fromstring(text)
    assert root.get("width") == "210mm" and root.get("height") == "297mm"
    assert root.get("viewBox") == "0 0 210 297"
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f".//{ns}clipPath")) == 15  # one per tile on a full A4 sheet
    assert not re.search(r"\d[eE][-+]?\d", text)  # no exponent notation sneaks into coordinates


def test_page_counts(kit_a4, kit_letter):
    counts = {name: len(doc.pages) for name, doc in kit_a4.items()}
    assert counts == {"rules": 1, "tiles": 14, "tiles-gutterfold": 16, "alignment-test": 2, "board": 9, "tokens": 1,
                      "nets": counts["nets"]}
    assert 20 <= counts["nets"] <= 24  # nested nets (34 pages with one band per lid)
    letter = {name: len(doc.pages) for name, doc in kit_letter.items()}
    assert letter["tiles"] % 2 == 0 and letter["tiles"] >= 14
    assert "nets" not in letter
    for kit in (kit_a4, kit_letter):
        for name, doc in kit.items():
            n = len(doc.pages)
            for k, page in enumerate(doc.pages, 1):
                assert page.label.endswith(f"page {k}/{n}"), (name, page.label)
                assert "The Terrain Game" in page.label and "scale" in page.label
                assert has_calibration_bar(page), (name, k)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_every_page_of_every_kit_rasterises(kit_a4, kit_letter, tmp_path: Path):
    from PIL import Image

    for paper, kit in (("a4", kit_a4), ("letter", kit_letter)):
        for name, doc in kit.items():
            pdf = tmp_path / f"{name}-{paper}.pdf"
            pdf.write_bytes(document_pdf(doc))
            out = tmp_path / f"{name}-{paper}"
            subprocess.run(["pdftoppm", "-png", "-r", "8", str(pdf), str(out)], check=True, capture_output=True)
            pngs = sorted(tmp_path.glob(f"{name}-{paper}-*.png"))
            assert len(pngs) == len(doc.pages), (name, paper)
            for png in pngs:
                im = Image.open(png).convert("L")
                lo, hi = im.getextrema()
                assert lo < 128 < hi or lo < 200, f"{png.name} looks blank"


def has_calibration_bar(page) -> bool:
    """A straight 100 mm line on the page, drawn at 1:1 (before any --scale correction)."""
    from terragen.render.model import Polyline, flatten

    for it, m in flatten(page.items):
        if isinstance(it, Polyline) and len(it.points) == 2 and m[0] == 1.0 and m[3] == 1.0:
            (x0, y0), (x1, y1) = it.points
            if y0 == y1 and abs(abs(x1 - x0) - 100.0) < 1e-9:
                return True
    return False


def test_page_without_boxes_has_none():
    data = document_pdf(Document("t", [Page(100.0, 100.0)]))
    assert pdf_boxes(data, "TrimBox") == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_any_text_makes_a_page_every_svg_reader_opens(text):
    """A control character, U+FFFE or U+FFFF from a user's file (a name, a tile id) made SVG pages no
    viewer would open, exit 0 all the same."""
    import xml.dom.minidom

    from terragen.render.model import Page, Text
    from terragen.render.svg import page_svg

    page = Page(100.0, 100.0, [Text(10.0, 10.0, text, 3.0)], label=text)
    xml.dom.minidom.parseString(page_svg(page, title=text).encode("utf-8"))
