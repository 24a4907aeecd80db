import pytest

from terragen.terralogical.tiles import END_TILE, START_TILE, all_canonical_tiles, parse_tile


def test_code_round_trip_and_subsoil_case():
    t = parse_tile("MfWc")
    assert t.code == "MfWc"
    assert [(x.kind, x.light) for x in t.edges] == [("M", True), ("F", False), ("W", True), ("C", False)]


def test_rotation_turns_clockwise():
    t = parse_tile("MFWC")
    # one quarter turn clockwise: north triangle moves east
    assert "".join(x.kind for x in t.rotated(1)) == "CMFW"
    assert "".join(x.kind for x in t.rotated(4)) == "MFWC"
    assert t.canonical() == parse_tile("WCMF").canonical()
    assert t.canonical() != parse_tile("MWFC").canonical()  # a mirror image is a different tile


def test_tiles_up_to_rotation_are_counted_by_burnside():
    # (8^4 + 8 + 8^2 + 8) / 4 = 1044 distinct tiles for 8 triangle types
    assert len(all_canonical_tiles()) == 1044
    assert all(t.cloud_count <= 1 for t in all_canonical_tiles(1))


@pytest.mark.parametrize("bad", ["", "MFW", "MFWXX", "MFWX", "12ab"])
def test_bad_codes_are_rejected(bad):
    with pytest.raises(ValueError):
        parse_tile(bad)


def test_start_and_end_tiles():
    assert START_TILE.cloud_count == 0  # any orientation offers regular edges to the board
    assert END_TILE.cloud_count == 4
