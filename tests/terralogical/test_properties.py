"""Properties of the placement rule that must hold for any tiles, checked with hypothesis."""

from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.grids.square import ORTHOGONAL
from terragen.terralogical.board import Board, Placed, RuleOptions
from terragen.terralogical.tiles import parse_tile

CODE = st.text(alphabet="MFWCmfwc", min_size=4, max_size=4)
CENTRE = (3, 3)


def board_around(neighbours: dict[int, tuple[str, int]]) -> Board:
    b = Board()
    for side, (code, rot) in neighbours.items():
        sq = (CENTRE[0] + ORTHOGONAL[side][0], CENTRE[1] + ORTHOGONAL[side][1])
        b.tiles[sq] = Placed(parse_tile(code), rot, f"N{side}")
    return b


CONFIG = st.tuples(
    CODE,
    st.integers(0, 3),
    st.dictionaries(st.integers(0, 3), st.tuples(CODE, st.integers(0, 3)), min_size=1, max_size=4),
    st.sampled_from(["both", "either", "placed"]),
)


@settings(max_examples=300, deadline=None)
@given(CONFIG)
def test_turning_the_whole_picture_changes_nothing(config):
    code, rot, neighbours, rule = config
    opts = RuleOptions(subsoil_rule=rule)
    before = board_around(neighbours).check(CENTRE, parse_tile(code), rot, opts)
    turned = {(side + 1) % 4: (c, (r + 1) % 4) for side, (c, r) in neighbours.items()}
    after = board_around(turned).check(CENTRE, parse_tile(code), (rot + 1) % 4, opts)
    assert before.legal == after.legal
    assert before.points == after.points
    assert sorted(c for c, _ in before.problems) == sorted(c for c, _ in after.problems)


@settings(max_examples=300, deadline=None)
@given(CONFIG)
def test_legal_means_matching_with_a_regular_connection_and_points_are_bounded(config):
    code, rot, neighbours, rule = config
    chk = board_around(neighbours).check(CENTRE, parse_tile(code), rot, RuleOptions(subsoil_rule=rule))
    regular = [c for c in chk.connections if c.regular]
    if chk.legal:
        assert regular and all(c.matches for c in chk.connections)
        assert len(regular) <= chk.points <= 2 * len(regular)
    else:
        assert chk.points == 0
        assert not regular or any(not c.matches for c in chk.connections)
