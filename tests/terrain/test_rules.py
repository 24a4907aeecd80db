"""The rulebook's worked figures, derived from the rules rather than typed in."""

from terragen.terrain.rules import (
    BAD_WEATHER_FACTOR, budget_counts, probability_budget_at_least, roll_budgets, step_allowed, step_cost,
)


def test_worked_costs_from_the_rulebook():
    # one hex on the level: 1 MP good weather, 2 MP bad
    assert step_cost(0) == 1 and step_cost(0) * BAD_WEATHER_FACTOR == 2
    # down two levels: 2 / 4
    assert step_cost(-2) == 2 and step_cost(-2) * BAD_WEATHER_FACTOR == 4
    # up two levels: 3 / 6
    assert step_cost(2) == 3 and step_cost(2) * BAD_WEATHER_FACTOR == 6


def test_elevation_rule_blocks_more_than_three_levels():
    assert all(step_allowed(d) for d in range(-3, 4))
    assert not step_allowed(4) and not step_allowed(-4)


def test_dice_table():
    rolls = roll_budgets()
    assert len(rolls) == 36
    assert sum(1 for *_, b in rolls if b is None) == 6  # six doubles, no move
    assert sum(budget_counts()) == 30


def test_up_three_step_fails_81_percent_of_turns():
    # an up-3 step costs 4 MP in good weather (8 in bad); the chance a turn's roll covers it
    cost = step_cost(3)
    assert cost == 4
    p_not = 1.0 - probability_budget_at_least(cost)
    assert round(100 * p_not) == 81
    # cross-check by brute force over both dice
    ok = 0
    for white in range(1, 7):
        for red in range(1, 7):
            if white == red:
                continue
            factor = BAD_WEATHER_FACTOR if red % 2 else 1
            ok += cost * factor <= white
    assert abs(p_not - (1 - ok / 36)) < 1e-12


def _board(cells: dict, radius: int = 2, level: int = 4):
    """A board at ``level`` (pattern A, rotation 0) except ``cells[(q, r)] = (level, pattern, rotation)``."""
    from terragen.grids import hex as hx
    from terragen.terrain.board import Board

    spec = {h: cells.get(h, (level, "A", 0)) for h in hx.board_cells(radius)}
    return Board(radius, {h: v[0] for h, v in spec.items()}, {h: v[1] for h, v in spec.items()},
                 {h: v[2] for h, v in spec.items()})


def test_elevation_example_a_pip_towards_a_piece_four_levels_up_is_no_way():
    """The rulebook's elevation figure: from a level-4 piece the pips lead to a piece 2 levels up
    and one 3 levels down (both allowed), and one pip points at a piece 4 levels up, which stays
    closed; a neighbour on the same level without a pip towards it is closed too."""
    import random

    from terragen.terrain.layout import Cell, Destination, Layout, Player
    from terragen.terrain.sim.engine import Roll, move_options
    from terragen.terrain.sim.state import GameState, setup_from_layout
    from terragen.terrain.sim.variants import Rules

    # the centre piece's pips (pattern A, rotation 0) point east (1, 0), north-east (1, -1), north-west (0, -1)
    board = _board({(0, 0): (4, "A", 0), (1, 0): (8, "A", 0), (1, -1): (6, "A", 0), (0, -1): (1, "A", 0)})
    here = board.index[(0, 0)]
    one_step = {board.hexes[j]: cost for j, cost, _ in board.pip_arcs[here]}
    assert one_step == {(1, -1): step_cost(2), (0, -1): step_cost(-3)} == {(1, -1): 3, (0, -1): 3}

    # the same through the game engine: a token there with 3 points may stay or take either allowed step
    layout = Layout(2, [Cell(q, r, board.level[k], board.pattern[k], board.rotation[k])
                        for k, (q, r) in enumerate(board.hexes)])
    layout.players = [Player(0, 0, [Destination(-1, 1)]), Player(1, 3, [Destination(1, -1)])]
    rules = Rules()
    state = GameState.new(setup_from_layout(layout, rules), rules, random.Random(1))
    state.pos[0] = here
    options = move_options(state, 0, Roll(3, 2))  # white 3, red even: good weather, 3 points
    assert {state.board.hexes[c]: cost for c, cost in options.items()} == {(0, 0): 0, (1, -1): 3, (0, -1): 3}


def test_which_way_to_go_routes_follow_the_pips_one_way():
    """The rulebook's "which way to go" figure: from A the pips lead only round B, C, D, while from
    D a pip leads straight back to B and on to A: a route need not be walkable backwards."""
    from terragen.terrain.paths import cheapest_path

    a, b, c, d = (-1, 0), (0, 0), (1, -1), (1, 0)
    # A, B, C, D flat on level 1, every other piece 7 levels up (no way in or out); exits by direction:
    # A: 0 (to B); B: 1 (to C), 3 (to A), 5; C: 5 (to D), 1, 3; D: 3 (to B), 1, 5
    board = _board({a: (1, "D", 0), b: (1, "D", 1), c: (1, "D", 1), d: (1, "D", 1)}, level=8)
    i = board.index
    there = cheapest_path(board, i[a], i[d])
    back = cheapest_path(board, i[d], i[a])
    assert [board.hexes[k] for k in there.cells] == [a, b, c, d] and there.cost == 3
    assert [board.hexes[k] for k in back.cells] == [d, b, a] and back.cost == 2
    assert i[d] not in {j for j, _, _ in board.pip_arcs[i[b]]}  # B's pips never lead to D
