from itertools import combinations

import pytest

from terragen.terrain.pieces import distinct_rotations
from terragen.terrain.puzzles import make_puzzle

from .brute import cell_table, mask, reach


def _turns(cells):
    """Every (hex, rotation) that changes a piece's exits, one per distinct exit set."""
    out = []
    for h, (lv, pat, rot) in sorted(cells.items()):
        for k in distinct_rotations(pat):
            if mask(pat, k) != mask(pat, rot):
                out.append((h, k))
    return out


@pytest.mark.parametrize("difficulty,index", [("easy", 0), ("easy", 1), ("medium", 0), ("medium", 2)])
def test_single_turn_answer_is_the_only_one(difficulty, index):
    p = make_puzzle("rotation", difficulty, 5, index)
    cells = cell_table(p.layout)
    start, goal = tuple(p.puzzle["start"]), tuple(p.puzzle["goal"])
    assert goal not in reach(cells, start)
    openers = set()
    for h, k in _turns(cells):  # every piece of the board, not only the reachable ones
        saved = cells[h][2]
        cells[h][2] = k
        if goal in reach(cells, start):
            openers.add((h, mask(cells[h][1], k)))
        cells[h][2] = saved
    (turn,) = p.solution["turns"]
    h = (turn["q"], turn["r"])
    assert openers == {(h, mask(cells[h][1], turn["rotation"]))}
    assert turn["from_rotation"] == cells[h][2]


def test_hard_pair_answer_is_the_only_pair_and_no_single_turn_works():
    p = make_puzzle("rotation", "hard", 5, 0)
    cells = cell_table(p.layout)
    start, goal = tuple(p.puzzle["start"]), tuple(p.puzzle["goal"])
    turns = _turns(cells)
    original = reach(cells, start)
    assert goal not in original
    for h, k in turns:
        saved, cells[h][2] = cells[h][2], k
        assert goal not in reach(cells, start)
        cells[h][2] = saved
    pairs = set()
    for (h1, k1), (h2, k2) in combinations(turns, 2):
        if h1 == h2 or (h1 not in original and h2 not in original):
            continue  # a pair must start from a piece the token can reach (else neither new exit is usable)
        s1, s2 = cells[h1][2], cells[h2][2]
        cells[h1][2], cells[h2][2] = k1, k2
        if goal in reach(cells, start):
            pairs.add(frozenset({(h1, mask(cells[h1][1], k1)), (h2, mask(cells[h2][1], k2))}))
        cells[h1][2], cells[h2][2] = s1, s2
    want = frozenset((( t["q"], t["r"]), mask(cells[(t["q"], t["r"])][1], t["rotation"])) for t in p.solution["turns"])
    assert pairs == {want}
