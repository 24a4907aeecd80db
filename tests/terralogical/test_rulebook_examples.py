"""The rulebook's pictured examples, rebuilt as concrete small boards."""

import pytest

from terragen.terralogical.board import Board, RuleOptions
from terragen.terralogical.scoring import final_bonus, flocks, rank_points
from terragen.terralogical.tiles import parse_tile

from .helpers import board_with

OPTS = RuleOptions()
NEW = (3, 4)


def check(board: Board, code: str, rot: int = 0):
    return board.check(NEW, parse_tile(code), rot, OPTS)


def kinds(chk):
    return sorted("regular" if c.regular else "cloud" for c in chk.connections)


def test_placement_a_one_regular_connection_is_legal():
    b = board_with(((3, 3), "FFFF", 0, None))
    chk = check(b, "MMMF")  # west edge: field against field
    assert kinds(chk) == ["regular"]
    assert chk.legal


def test_placement_b_regular_plus_cloud_is_legal():
    b = board_with(((3, 3), "FFFF", 0, None), ((2, 4), "MMMM", 0, None))
    chk = check(b, "CMMF")  # north cloud against meadow, west field against field
    assert kinds(chk) == ["cloud", "regular"]
    assert chk.legal


def test_placement_c_cloud_only_is_illegal():
    b = board_with(((3, 3), "FFFF", 0, None))
    chk = check(b, "MMMC")
    assert kinds(chk) == ["cloud"]
    assert not chk.legal
    assert [c for c, _ in chk.problems] == ["no-regular-connection"]


def test_placement_d_two_regular_connections_are_legal():
    b = board_with(((3, 3), "FFFF", 0, None), ((2, 4), "WWWW", 0, None))
    chk = check(b, "WMMF")
    assert kinds(chk) == ["regular", "regular"]
    assert chk.legal


def test_placement_e_no_regular_connection_is_illegal():
    b = board_with(((3, 3), "FFFF", 0, None), ((2, 4), "WWWW", 0, None))
    chk = check(b, "CMMC")  # both touching edges are clouds
    assert kinds(chk) == ["cloud", "cloud"]
    assert [c for c, _ in chk.problems] == ["no-regular-connection"]


def test_mismatched_edge_and_lonely_square_are_illegal():
    b = board_with(((3, 3), "FFFF", 0, None), ((2, 4), "WWWW", 0, None))
    chk = check(b, "MMMF")  # west matches, north meadow meets wood
    assert [c for c, _ in chk.problems] == ["edge-mismatch"]
    far = b.check((6, 6), parse_tile("MMMM"), 0, OPTS)
    assert [c for c, _ in far.problems] == ["not-adjacent"]


def test_rotation_decides_legality():
    b = board_with(((3, 3), "FFFF", 0, None))
    assert not check(b, "FMMM", 0).legal
    assert check(b, "FMMM", 3).legal  # a quarter turn anticlockwise brings the field west


def test_scoring_a_two_dark_and_one_cloud_give_2():
    b = board_with(((2, 4), "ffff", 0, None), ((4, 4), "wwww", 0, None), ((3, 3), "MMMM", 0, None))
    chk = check(b, "fMwc")
    assert chk.legal
    assert sorted(kinds(chk)) == ["cloud", "regular", "regular"]
    assert chk.points == 2


def test_scoring_b_one_dark_and_one_light_give_3():
    b = board_with(((2, 4), "FFFF", 0, None), ((3, 3), "wwww", 0, None))
    chk = check(b, "FMMw")
    assert chk.points == 3


def test_mixed_subsoil_follows_the_chosen_reading():
    b = board_with(((3, 3), "ffff", 0, None))
    tile = parse_tile("MMMF")  # light field against a dark one
    assert b.check(NEW, tile, 0, RuleOptions(subsoil_rule="both")).points == 1
    assert b.check(NEW, tile, 0, RuleOptions(subsoil_rule="either")).points == 2
    assert b.check(NEW, tile, 0, RuleOptions(subsoil_rule="placed")).points == 2
    assert b.check(NEW, parse_tile("MMMf"), 0, RuleOptions(subsoil_rule="placed")).points == 1


def flock_example_board() -> Board:
    """The rulebook's flocks: red three cubes on meadows together, green two, blue one alone."""
    red, green, blue = 0, 1, 2
    return board_with(
        ((3, 1), "MMMM", 0, red),
        ((3, 2), "MMMM", 0, red),
        ((3, 3), "MMMM", 0, red),
        ((4, 1), "MMMM", 0, green),
        ((4, 2), "MMMM", 0, green),
        ((4, 3), "MMMM", 0, blue),
    )


def test_flock_example_red_3_green_2_blue_lone():
    bonus = final_bonus(flock_example_board(), players=3)
    assert bonus["M"] == [3, 2, 0]
    assert bonus["M_points"] == [4, 2, 0]
    assert bonus["F_points"] == [0, 0, 0] and bonus["W_points"] == [0, 0, 0]


def test_flock_example_in_a_four_player_game_gives_the_lone_cube_nothing():
    # With three players third place pays nothing, so the example alone cannot tell whether a
    # lone cube is a flock; with four players it can, and decision 10 says it is not.
    b = flock_example_board()
    assert final_bonus(b, players=4)["M_points"] == [4, 2, 0, 0]
    assert final_bonus(b, players=4, min_flock=1)["M_points"] == [4, 2, 1, 0]


def test_cubes_next_to_each_other_across_another_landscape_are_separate_flocks():
    # red-red neighbours but their shared edge is wood: no meadow flock of two
    b = board_with(((0, 0), "MWMM", 0, 0), ((0, 1), "MMMW", 0, 0))
    assert [len(g) for g in flocks(b, 0, "M")] == []
    assert [len(g) for g in flocks(b, 0, "W")] == [2]


def test_cloud_completes_its_neighbour_but_two_clouds_make_nothing():
    b = board_with(((0, 0), "MMMM", 0, 0), ((0, 1), "FFFC", 0, 0))
    assert [len(g) for g in flocks(b, 0, "M")] == [2]
    b2 = board_with(((0, 0), "MCMM", 0, 0), ((0, 1), "MMMC", 0, 0))
    assert all(flocks(b2, 0, k) == [] for k in "MFW")


def test_rank_points_by_player_count_and_ties():
    assert rank_points([3, 1], 2) == [4, 0]
    assert rank_points([3, 2, 1], 3) == [4, 2, 0]
    assert rank_points([5, 3, 2, 1], 4) == [4, 2, 1, 0]
    assert rank_points([3, 3, 1], 3) == [4, 4, 0]
    assert rank_points([0, 0, 0, 0], 4) == [0, 0, 0, 0]


def test_lone_cube_counts_only_when_min_flock_is_one():
    b = board_with(((0, 0), "MMMM", 0, 0), ((0, 1), "MMMM", 0, 1), ((0, 2), "MMMM", 0, 1))
    assert final_bonus(b, 2)["M"] == [0, 2]
    assert final_bonus(b, 2, min_flock=1)["M"] == [1, 2]


def test_rank_points_by_count_ranks_the_distinct_counts():
    assert rank_points([5, 5, 3], 3, "by-count") == [4, 4, 2]
    assert rank_points([3, 3, 3, 2], 4, "by-count") == [4, 4, 4, 2]
    assert rank_points([5, 3, 3, 1], 4, "by-count") == [4, 2, 2, 1]
    assert rank_points([5, 3, 3, 1], 4) == [4, 2, 2, 0]  # shared places: the 1 is fourth
    with pytest.raises(ValueError):
        rank_points([1, 2], 2, "dense")
