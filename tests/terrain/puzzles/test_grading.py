import statistics

import pytest

from terragen.errors import SpecError
from terragen.terrain.puzzles import kind_for, make_puzzle
from terragen.terrain.puzzles.grading import DIFFICULTIES, KINDS, PRESETS, in_band, preset


def test_preset_grade_bands_are_ordered_and_disjoint():
    for kind in KINDS:
        bands = [PRESETS[kind][d]["grade"] for d in DIFFICULTIES]
        for (lo1, hi1), (lo2, hi2) in zip(bands, bands[1:]):
            assert hi1 is not None and lo2 is not None and hi1 < lo2


@pytest.mark.parametrize("kind,n", [("route", 4), ("dice", 4), ("rotation", 2)])
def test_generated_grades_fall_in_their_band_and_rise_with_difficulty(kind, n):
    means = []
    for d in ("easy", "medium") + (("hard",) if kind != "rotation" else ()):
        grades = [make_puzzle(kind, d, 21, i).metrics["grade"] for i in range(n)]
        assert all(in_band(g, preset(kind, d)["grade"]) for g in grades)
        means.append(statistics.mean(grades))
    assert means == sorted(means) and len(set(means)) == len(means)


def test_same_seed_and_index_same_puzzle_and_mix_cycles_kinds():
    a = make_puzzle("mix", "easy", 4, 4).to_data()
    b = make_puzzle("mix", "easy", 4, 4).to_data()
    assert a == b and a["kind"] == "rotation"
    assert [kind_for("mix", i) for i in range(4)] == ["route", "rotation", "dice", "route"]
    assert make_puzzle("route", "easy", 4, 5).to_data() != make_puzzle("route", "easy", 5, 5).to_data()


def test_bad_names_are_spec_errors():
    with pytest.raises(SpecError, match="unknown puzzle kind"):
        kind_for("maze", 0)
    with pytest.raises(SpecError, match="unknown difficulty"):
        preset("route", "insane")


def test_scenario_layout_is_a_valid_contract_layout():
    from terragen.terrain.formats_json import layout_from_data
    from terragen.terrain.validation import validate_layout

    for kind in KINDS:
        data = make_puzzle(kind, "easy", 2, 0).to_data()
        layout = layout_from_data(data["layout"])
        assert layout.radius == 3 and len(layout.cells) == 37
        report = validate_layout(layout)
        # a puzzle has one player; the game needs two, which is the only error we accept
        assert [f.code for f in report.errors] == ["player-count"], report.errors
