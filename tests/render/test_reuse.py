"""The engine serves the other games too: a 16-inch square board over pages, square tiles, mixed tokens."""

from __future__ import annotations

import pytest

from terragen.render.impose import Tile, impose
from terragen.render.model import Polygon, Style, Text
from terragen.render.pdf import document_pdf
from terragen.render.model import Document
from terragen.render.shapes import Shape
from terragen.render.tiler import grid_shape, tile_board

from .test_geometry import page_printable, visible_points


def test_square_board_of_16_inches_tiles_over_pages(a4):
    side = 16 * 25.4  # Terrace's board
    cell = side / 8
    items = [Polygon(((c * cell, r * cell), ((c + 1) * cell, r * cell), ((c + 1) * cell, (r + 1) * cell), (c * cell, (r + 1) * cell)),
                     Style(fill="#dddddd" if (r + c) % 2 else "#999999")) for r in range(8) for c in range(8)]
    pages = tile_board(items, (side, side), a4, "Terrace", "board")
    rows, cols = grid_shape((side, side), a4)
    assert len(pages) == rows * cols == 6  # 3 columns x 2 rows of A4 for a 406 mm board
    for p in pages:
        for x, y in visible_points(p.items):
            box = page_printable(p)
            assert box[0] - 1e-3 <= x <= box[2] + 1e-3 and box[1] - 1e-3 <= y <= box[3] + 1e-3
    assert document_pdf(Document("t", pages)).startswith(b"%PDF")


def test_square_tiles_double_sided(letter):
    tiles = [Tile([Text(0, 0, str(i), 6.0)], "#88aa66", [Text(0, 0, "back", 4.0)], "#445533") for i in range(65)]
    imp = impose(Shape("square", 30.0), tiles, letter, "Terralogical", "65 land tiles", duplex=True)
    assert len(imp.fronts) == len(imp.backs) == 65
    assert len(imp.pages) == 2 * -(-65 // 48)


@pytest.mark.parametrize("d", [14.0, 18.0, 22.0, 26.0, 30.0])
def test_round_tokens_of_five_sizes_fit(a4, d):
    imp = impose(Shape("circle", d), [Tile([], "#cc0000")] * 8, a4, "Terrace", f"tokens {d:g} mm")
    assert len(imp.pages) == 1 and len(imp.fronts) == 8
