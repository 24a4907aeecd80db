import pytest

from terragen.grids import hex as hx
from terragen.errors import InputError
from terragen.terrain.pieces import (
    PATTERNS, distinct_rotations, exit_mask, exits, inventory_from_dict, load_inventory, parse_piece_id,
    piece_id, standard_inventory,
)


def test_standard_inventory_96_pieces_91_on_board_5_spare():
    inv = standard_inventory()
    assert inv.total == 96
    assert len(set(inv.piece_ids())) == 96
    assert hx.board_size(5) == 91
    assert inv.total - hx.board_size(5) == 5
    assert all(inv.count(lv, p) == 3 for lv in range(1, 9) for p in "ABCD")


def test_patterns_are_the_four_ways_to_pick_three_sides():
    seen = set()
    for p in PATTERNS:
        canon = min(exit_mask(p, k) for k in range(6))
        seen.add(canon)
    assert len(seen) == 4
    # every 3-of-6 choice is some pattern turned somehow
    all_masks = {exit_mask(p, k) for p in PATTERNS for k in range(6)}
    assert all_masks == {m for m in range(64) if bin(m).count("1") == 3}


def test_rotation_turns_exits():
    assert exits("A", 0) == (0, 1, 2)
    assert exits("B", 1) == (1, 2, 4)
    assert exits("C", 5) == (0, 3, 5)
    assert exits("D", 1) == (1, 3, 5)
    assert distinct_rotations("D") == [0, 1]
    assert len(distinct_rotations("A")) == 6


def test_piece_ids():
    assert piece_id(5, "B", 2) == "5B2"
    assert parse_piece_id("5B2") == (5, "B", 2)
    with pytest.raises(ValueError):
        parse_piece_id("B52")


def test_extended_and_partial_inventories(tmp_path):
    assert load_inventory("extended").total == 128
    f = tmp_path / "mine.toml"
    f.write_text('name = "mine"\ncopies = 3\n[counts]\n"8D" = 1\n"1A" = 0\n')
    inv = load_inventory(f)
    assert inv.total == 96 - 2 - 3 and inv.count(8, "D") == 1 and inv.count(1, "A") == 0
    with pytest.raises(InputError):
        inventory_from_dict({"copies": 3, "counts": {"9Z": 1}})
    with pytest.raises(InputError):
        load_inventory("no-such-inventory")


def test_an_inventory_with_an_unknown_key_is_refused_with_a_suggestion():
    """A misspelt [count] table was read as no overrides: the full set, without a word."""
    from terragen.terrain.pieces import inventory_from_dict

    with pytest.raises(InputError, match="unknown key 'count' in an inventory: did you mean counts"):
        inventory_from_dict({"copies": 3, "count": {"8A": 1}}, "inv.toml")


def test_an_inventory_of_a_name_alone_says_what_it_lacks():
    """It read as a set of no pieces; generate then said only 'has 0 pieces'."""
    from terragen.errors import InputError
    from terragen.terrain.pieces import inventory_from_dict

    with pytest.raises(InputError, match="inv.toml: an inventory needs 'copies'"):
        inventory_from_dict({"name": "x"}, "inv.toml")
    assert inventory_from_dict({"counts": {"8A": 2}}).total == 2  # counts alone are a set
    assert inventory_from_dict({"copies": 0, "counts": {}}).total == 0  # said outright: none
