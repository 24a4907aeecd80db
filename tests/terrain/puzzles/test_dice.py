import random

import pytest

from terragen.grids import hex as hx
from terragen.terrain.puzzles import make_puzzle
from terragen.terrain.puzzles.dice import budget, count_ways
from terragen.terrain.puzzles.model import board_layout, random_board

from .brute import cell_table, ends_within


def brute_ways(cells, start, goal, budgets):
    """Every sequence of turn-end cells that ends a turn on goal (the goal ends the sequence)."""
    out = []

    def go(h, t, seq):
        if t == len(budgets):
            return
        for n in sorted(ends_within(cells, h, budgets[t])):
            if n == goal:
                out.append(tuple(seq + [n]))
            else:
                go(n, t + 1, seq + [n])

    go(start, 0, [])
    return out


@pytest.mark.parametrize("difficulty,index", [("easy", 0), ("easy", 1), ("medium", 0), ("hard", 0), ("hard", 1)])
def test_dice_answer_is_the_only_sequence(difficulty, index):
    p = make_puzzle("dice", difficulty, 11, index)
    cells = cell_table(p.layout)
    budgets = [r["budget"] for r in p.puzzle["rolls"]]
    for r in p.puzzle["rolls"]:
        assert r["white"] != r["red"]
        assert r["budget"] == (r["white"] // 2 if r["red"] % 2 else r["white"])
    ways = brute_ways(cells, tuple(p.puzzle["start"]), tuple(p.puzzle["goal"]), budgets)
    assert ways == [tuple(tuple(h) for h in p.solution["ends"])]
    assert p.metrics["bad_weather"] == {"easy": 0, "medium": 1, "hard": 2}[difficulty]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_no_roll_of_a_dice_puzzle_leaves_the_token_without_a_move(difficulty):
    """About one dice puzzle in five had a roll the token could do nothing with, its "stay" forced:
    a hard puzzle whose two bad rolls were both dead was two good rolls (an independent solver)."""
    for index in range(12):
        p = make_puzzle("dice", difficulty, 911, index)
        cells = cell_table(p.layout)
        at = tuple(p.puzzle["start"])
        for roll, end in zip(p.puzzle["rolls"], p.solution["ends"]):
            assert ends_within(cells, at, roll["budget"]) - {at}, (index, at, roll)
            at = tuple(end)


@pytest.mark.parametrize("seed", range(4))
def test_way_count_matches_brute_force_on_random_boards(seed):
    rng = random.Random(100 + seed)
    board = random_board(rng, 3, 0.3)
    start = board.index[hx.corner(3, seed)]
    rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(2)]
    rolls = [(w, r) for w, r in rolls if w != r] or [(3, 2)]
    cells = cell_table(board_layout(board, seed, start))
    for goal in range(0, len(board), 3):
        if goal == start:
            continue
        count, way, _, _ = count_ways(board, start, goal, rolls)
        brute = brute_ways(cells, board.hexes[start], board.hexes[goal], [budget(r) for r in rolls])
        assert count == len(brute)
        if count == 1:
            assert [board.hexes[i] for i in way] == list(brute[0])
