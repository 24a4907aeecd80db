"""The rulebook's examples, rebuilt as concretely as its text allows.

Seats: 0 blue, 1 green, 2 gray, 3 yellow (four players unless stated).
"""

from __future__ import annotations

from terragen.terraflip import rules
from terragen.terraflip.rules import Options
from terragen.terraflip.state import CHAIN, PLACE, POWER, Action

BLUE, GREEN, GRAY, YELLOW = 0, 1, 2, 3


# --- framing ----------------------------------------------------------------------------------


def test_framing_example_1_two_tiles_between_two_yellows(table):
    # yellow, blue, green, yellow in a row: both middle tiles are framed by the yellows
    for lines in ("centres", "axes"):
        t = table(options=Options(lines=lines))
        t.put((1, 0), "yellow")
        t.put((2, 0), "blue")
        t.put((3, 0), "green")
        t.put((4, 0), "yellow")
        st = t.state(YELLOW)
        assert set(rules.all_frame_targets(st.board, "yellow", st.options)) == {(2, 0), (3, 0)}
        assert rules.frame_line(st.board, (1, 0), (4, 0), "yellow", st.options) == [(2, 0), (3, 0)]


def test_framing_example_2_line_missing_the_centre_frames_nothing(table):
    # blue tiles at (1,0) and (3,-1): the segment runs along the edge between (2,0) and (2,-1)
    # and through neither centre, so the gray tile there is not framed
    t = table(options=Options(lines="centres"))
    t.put((1, 0), "blue")
    t.put((3, -1), "blue")
    t.put((2, 0), "gray")
    t.put((2, -1), "gray")
    st = t.state(BLUE)
    assert rules.frame_line(st.board, (1, 0), (3, -1), "blue", st.options) is None
    assert rules.all_frame_targets(st.board, "blue", st.options) == {}


def test_oblique_line_through_a_centre_frames_only_in_centres_reading(table):
    # blue at (1,0) and (5,-2); gray at (3,-1) has its centre on the line. The line runs along
    # the edges of (2,0)/(2,-1) and (4,-1)/(4,-2), so those must hold tiles.
    def build(lines, fill):
        t = table(options=Options(lines=lines))
        t.put((1, 0), "blue")
        t.put((5, -2), "blue", kind="knight")
        t.put((3, -1), "gray")
        for pos in fill:
            t.put(pos, "green")
        return t.state(BLUE)

    full = [(2, 0), (2, -1), (4, -1), (4, -2)]
    st = build("centres", full)
    assert rules.frame_targets(st.board, (1, 0), "blue", st.options) == {(3, -1): [(5, -2)]}
    st = build("axes", full)
    assert (3, -1) not in rules.frame_targets(st.board, (1, 0), "blue", st.options)
    st = build("centres", full[:-1])  # (4,-2) empty: the line runs along an empty space
    assert rules.frame_targets(st.board, (1, 0), "blue", st.options) == {}


def test_line_stops_at_first_tile_of_framing_colour_and_never_crosses_a_gap(table):
    t = table()
    t.put((1, 0), "yellow")
    t.put((2, 0), "blue")
    t.put((3, 0), "yellow")
    t.put((4, 0), "green")
    t.put((0, 1), "yellow")  # touches the tower, so (0,1)..(0,3) is a column with a gap
    t.put((0, 3), "yellow")
    st = t.state(YELLOW)
    opts = st.options
    assert rules.frame_line(st.board, (1, 0), (3, 0), "yellow", opts) == [(2, 0)]
    assert rules.frame_targets(st.board, (1, 0), "yellow", opts) == {(2, 0): [(3, 0)]}
    assert rules.frame_line(st.board, (0, 1), (0, 3), "yellow", opts) is None


# --- placement --------------------------------------------------------------------------------


def test_placement_example_1_connected_spots_only(table):
    t = table()
    t.put((1, 0), "yellow")
    t.put((0, 1), "blue")
    st = t.state(GREEN)
    spots = set(rules.legal_positions(st.board, "regular", 4))
    expected = set()
    for h in [(0, 0), (1, 0), (0, 1)]:
        from terragen.grids.hex import neighbors
        expected |= {n for n in neighbors(h) if n not in ((0, 0), (1, 0), (0, 1))}
    assert spots == expected
    assert (2, 0) in spots and (3, 0) not in spots  # (3,0) touches nothing
    assert all(a.kind != "place" or a.pos in expected for a in st.legal_actions())


def test_placement_example_2_distance_limit(table):
    t = table()
    for q in range(1, 5):
        t.put((q, 0), "blue")
    st = t.state(GREEN)
    spots = rules.legal_positions(st.board, "regular", 4)
    assert (5, 0) not in spots and (4, -1) in spots
    # hex distance from the tower at (0, 0), worked out here in axial coordinates
    assert all((abs(q) + abs(r) + abs(q + r)) // 2 <= 4 for q, r in spots)
    assert (4, 1) not in spots  # five steps away, though neither coordinate passes 4
    three = rules.legal_positions(st.board, "regular", 3)
    assert (4, -1) not in three and (3, -1) in three


# --- flipping and chains ----------------------------------------------------------------------


def test_flip_chain_example_1(table):
    t = table()
    t.put((1, 0), "yellow")
    t.put((2, 0), "blue", hidden="yellow")
    t.put((2, 1), "green", hidden="yellow")
    t.put((2, 2), "yellow")
    t.put((1, 1), "gray")  # an unrelated neighbour: not framed by anything
    st = t.state(YELLOW)
    tid = st.hands[YELLOW][0]
    # 1-1: placing at (3,0) frames the blue tile between two yellow tiles
    st.apply(Action("place", (3, 0), tid))
    assert st.phase == CHAIN
    assert Action("flip", (2, 0)) in st.legal_actions()
    assert st.apply(Action("flip", (2, 0))) == "yellow"
    # 1-2: the newly yellow tile and the yellow at (2,2) frame the green tile
    assert st.phase == CHAIN and st.anchor == (2, 0)
    assert {a.pos for a in st.legal_actions(spies=False) if a.kind == "flip"} == {(2, 1)}
    assert st.apply(Action("flip", (2, 1))) == "yellow"
    # 1-3: the second flipped tile frames nothing, so the turn ends
    assert st.phase == PLACE and st.current == BLUE
    assert st.board.colour((2, 0)) == st.board.colour((2, 1)) == "yellow"


def test_chain_may_flip_between_flipped_tile_and_placed_tile(table):
    t = table()
    t.put((1, 0), "yellow")
    t.put((2, 0), "blue", hidden="yellow")
    t.put((3, 0), "green", hidden="blue")
    st = t.state(YELLOW)
    st.apply(Action("place", (4, 0), st.hands[YELLOW][0]))
    assert {a.pos for a in st.legal_actions(spies=False) if a.kind == "flip"} == {(2, 0), (3, 0)}
    assert st.apply(Action("flip", (2, 0))) == "yellow"
    # the green tile now lies between the flipped tile and the tile just placed
    assert st.phase == CHAIN
    assert {a.pos for a in st.legal_actions(spies=False) if a.kind == "flip"} == {(3, 0)}
    assert st.apply(Action("flip", (3, 0))) == "blue"
    assert st.phase == PLACE


def test_failed_flip_ends_the_turn(table):
    t = table()
    t.put((1, 0), "yellow")
    t.put((2, 0), "blue", hidden="green")
    st = t.state(YELLOW)
    st.apply(Action("place", (3, 0), st.hands[YELLOW][0]))
    assert st.apply(Action("flip", (2, 0))) == "green"
    assert st.phase == PLACE and st.current == BLUE


def test_special_tiles_are_never_flip_targets(table):
    t = table()
    t.put((1, 0), "yellow")
    t.put((2, 0), "blue", kind="knight")
    t.put((3, 0), "green", kind="campsite")
    st = t.state(YELLOW)
    st.apply(Action("place", (4, 0), st.hands[YELLOW][0]))
    assert st.phase == PLACE  # both tiles between are special: nothing to flip, turn over
    assert st.board.colour((2, 0)) == "blue"


def test_tower_has_no_colour_but_lines_pass_over_it(table):
    t = table()
    t.put((-1, 0), "yellow")
    t.put((1, 0), "blue", hidden="yellow")
    st = t.state(YELLOW)
    assert rules.frame_line(st.board, (-1, 0), (2, 0), "yellow", st.options) is None  # (2,0) empty
    st.apply(Action("place", (2, 0), st.hands[YELLOW][0]))
    assert Action("flip", (1, 0)) in st.legal_actions()
    t.options = Options(tower_passable=False)
    st2 = t.state(YELLOW)
    st2.apply(Action("place", (2, 0), st2.hands[YELLOW][0]))
    assert st2.phase == PLACE


# --- knight -------------------------------------------------------------------------------------


def test_knight_example(table):
    t = table()
    t.put((1, 0), "green")
    t.put((2, 0), "green")
    t.put((3, 0), "blue")
    t.put((4, 0), "gray", hidden="blue")
    t.put((4, -1), "green")
    t.put((4, -2), "yellow")
    t.put((4, -3), "blue")
    t.put((3, -1), "gray")
    t.put((3, -2), "gray")
    st = t.state(BLUE)
    knight = "blue-knight"
    regular = [a for a in st.legal_actions() if a.kind == "place" and a.tile != knight and a.pos == (5, 0)]
    assert regular == []  # 1.1: distance 5 is beyond the kingdom for ordinary tiles
    st.apply(Action("place", (5, 0), knight))
    assert st.apply(Action("flip", (4, 0))) == "blue"  # 1.2: the gray tile was blue underneath
    targets = {a.pos for a in st.legal_actions(spies=False) if a.kind == "flip"}
    assert {(4, -1), (4, -2)} <= targets


def test_knight_limit_with_three_players(table):
    t = table(players=3)
    for q in range(1, 4):
        t.put((q, 0), "blue")
    st = t.state(GREEN)
    assert (4, 0) in rules.legal_positions(st.board, "knight", 3)
    assert (4, 0) not in rules.legal_positions(st.board, "regular", 3)
    t2 = table(players=3)
    for q in range(1, 5):
        t2.put((q, 0), "blue", kind="knight" if q == 4 else "regular")
    st2 = t2.state(GREEN)
    assert (5, 0) not in rules.legal_positions(st2.board, "knight", 3)


# --- campsite -----------------------------------------------------------------------------------


def test_campsite_example(table):
    t = table()
    t.put((1, 0), "yellow", hidden="green")   # the yellow tile green wants
    t.put((2, 0), "blue", hidden="gray")      # framed by the flipped tile and (3,0)
    t.put((3, 0), "green")
    t.put((0, -1), "blue")
    st = t.state(GREEN)
    # 1.1: no frame reaches the yellow tile, so green puts the campsite beside it
    st.apply(Action("place", (1, 1), "green-campsite"))
    assert st.phase == POWER
    assert Action("flip", (1, 0)) not in st.legal_actions()
    assert Action("campsite", (1, 0)) in st.legal_actions()
    assert st.apply(Action("campsite", (1, 0))) == "green"
    # 1.2: framing now starts from the flipped tile
    assert st.anchor == (1, 0)
    assert st.apply(Action("spy", (2, 0))) == "gray"   # green knows it hides gray
    assert st.knows(GREEN, st.board.cells[(2, 0)].tile.id)
    assert st.apply(Action("flip", (2, 0))) == "gray"  # ... and flips it anyway
    assert st.phase == PLACE and st.current == GRAY
    assert st.spies[GREEN] == 2


def test_campsite_chain_does_not_frame_from_the_campsite(table):
    t = table()
    t.put((1, 0), "yellow", hidden="green")
    t.put((1, 2), "blue", hidden="green")     # between the campsite (1,1) and (1,3)
    t.put((1, 3), "green")
    t.put((0, 2), "gray")
    t.put((0, 1), "gray")
    st = t.state(GREEN)
    st.apply(Action("place", (1, 1), "green-campsite"))
    assert Action("flip", (1, 2)) in st.legal_actions()  # before the power: normal framing from the campsite
    st.apply(Action("campsite", (1, 0)))
    # after the campsite flip the chain runs from (1,0); (1,2) lies between the campsite and (1,3)
    # only, and (1,0)-(1,3) crosses the green campsite's centre first, so (1,2) is out
    assert Action("flip", (1, 2)) not in st.legal_actions()


# --- catapult -----------------------------------------------------------------------------------


def test_catapult_example(table):
    t = table()
    t.put((1, 0), "green", hidden="yellow")  # the only link from (2,0) to the tower
    t.put((2, 0), "yellow")
    t.put((0, -1), "blue", hidden="gray")
    st = t.state(GRAY)
    st.apply(Action("place", (1, -1), "gray-catapult"))
    moves = [a for a in st.legal_actions() if a.kind == "catapult"]
    # 1.1: of the two touching tiles only the blue one may fly; moving green cuts (2,0) off
    assert {a.pos for a in moves} == {(0, -1)}
    assert Action("catapult", (0, -1), None, (1, 1)) in moves
    assert all(a.dst != (0, -1) for a in moves)
    # 1.2: it lands at (1,1), is turned over and shows gray
    assert st.apply(Action("catapult", (0, -1), None, (1, 1))) == "gray"
    assert (0, -1) not in st.board.cells and st.board.colour((1, 1)) == "gray"
    # and the green tile between it and the catapult can now be flipped
    assert Action("flip", (1, 0)) in st.legal_actions()
    assert st.apply(Action("flip", (1, 0))) == "yellow"


def test_catapult_never_targets_own_colour_or_special_tiles(table):
    t = table()
    t.put((1, 0), "gray")
    t.put((0, -1), "blue", kind="knight")
    t.put((1, -2), "green")
    st = t.state(GRAY)
    st.apply(Action("place", (1, -1), "gray-catapult"))  # touches all three and the tower
    sources = {a.pos for a in st.legal_actions() if a.kind == "catapult"}
    assert sources == {(1, -2)}
