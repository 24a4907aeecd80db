import json
from dataclasses import replace
from pathlib import Path

import pytest

from terragen.errors import InfeasibleError, SpecError
from terragen.terralogical.deck import DeckParams, can_touch, deck_stats, design_deck, is_connector
from terragen.terralogical.default_deck import DEFAULT_CODES, DEFAULT_SEED
from terragen.terralogical.formats import deck_to_json_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def deck():
    return design_deck(DEFAULT_SEED)


def test_default_deck_meets_every_balance_constraint(deck):
    p = DeckParams()
    tiles = [t for _, t in deck.tiles]
    assert len(tiles) == p.tiles == 63
    st = deck_stats(deck.tiles)
    assert st["meadow"] == st["field"] == st["wood"]
    assert abs(st["cloud"] - round(p.cloud_share * 252)) <= p.cloud_tolerance
    assert abs(st["light"] - round(p.light_share * 252)) <= p.light_tolerance
    assert len({t.canonical() for t in tiles}) == 63
    assert all(t.cloud_count <= p.max_clouds_per_tile for t in tiles)
    assert sum(map(is_connector, tiles)) >= p.min_connectors
    for i, a in enumerate(tiles):
        assert sum(1 for j, b in enumerate(tiles) if i != j and can_touch(a, b)) >= p.min_partners


def test_shipped_default_deck_is_the_designers_output(deck):
    assert tuple(t.code for _, t in deck.tiles) == DEFAULT_CODES
    assert [tid for tid, _ in deck.tiles][:2] == ["T01", "T02"]


def test_same_seed_gives_byte_identical_json_and_seeds_differ(deck):
    again = design_deck(DEFAULT_SEED)
    assert deck_to_json_text(again) == deck_to_json_text(deck)
    other = design_deck(DEFAULT_SEED + 1)
    assert [t.code for _, t in other.tiles] != [t.code for _, t in deck.tiles]
    data = json.loads(deck_to_json_text(deck))
    assert data["game"] == "terralogical" and len(data["tiles"]) == 63
    assert data["start"]["id"] == "sun" and data["end"]["id"] == "flower"


def test_parameters_change_the_deck():
    d = design_deck(2, replace(DeckParams(), cloud_share=0.2, max_clouds_per_tile=2, min_connectors=20))
    st = deck_stats(d.tiles)
    assert abs(st["cloud"] - 50) <= 2 and st["tiles_by_clouds"]["2"] > 0


@pytest.mark.parametrize(
    "override,name",
    [
        ({"min_connectors": 64}, "min_connectors"),
        ({"min_partners": 63}, "min_partners"),
        ({"cloud_share": 0.5}, "cloud_share"),
        ({"tiles": 400, "max_clouds_per_tile": 0, "cloud_share": 0.0}, "tiles"),  # more than the cloudless kinds
        ({"cloud_share": 0.08, "cloud_tolerance": 0, "landscape_tolerance": 0}, "landscape_tolerance"),
    ],
)
def test_counting_bounds_name_the_parameter(override, name):
    with pytest.raises(InfeasibleError, match=f"param {name}="):
        design_deck(1, replace(DeckParams(), **override))


def test_a_cloud_count_out_of_reach_names_the_parameter_the_user_changed_first():
    """max_clouds_per_tile=0 was answered "--param cloud_share=0.08: ...", a parameter never given."""
    with pytest.raises(InfeasibleError, match=r"^param max_clouds_per_tile=0: allows at most 0 cloud triangles"):
        design_deck(1, replace(DeckParams(), max_clouds_per_tile=0))
    with pytest.raises(InfeasibleError, match=r"^param cloud_share=0.9: needs at least"):
        design_deck(1, replace(DeckParams(), cloud_share=0.9))


def test_solver_infeasibility_names_the_parameter():
    # only about 50 all-dark tiles exist with at most one cloud: 63 cannot be all dark
    with pytest.raises(InfeasibleError, match="param light_share=0.0"):
        design_deck(1, replace(DeckParams(), light_share=0.0, light_tolerance=0))


@pytest.mark.parametrize("pairs", [["cloud_share=2"], ["nope=1"], ["tiles"], ["tiles=x"], ["max_clouds_per_tile=4"]])
def test_bad_params_are_spec_errors(pairs):
    with pytest.raises(SpecError):
        DeckParams.from_pairs(pairs)


def test_params_from_pairs():
    p = DeckParams.from_pairs(["cloud-share=0.1", "min_connectors=12"])
    assert p.cloud_share == 0.1 and p.min_connectors == 12


def test_running_out_of_solver_budget_is_a_time_limit_error():
    from terragen.errors import TimeLimitError

    with pytest.raises(TimeLimitError, match="max_deterministic_time"):
        design_deck(1, replace(DeckParams(), cloud_share=0.3, max_clouds_per_tile=2, max_deterministic_time=0.05))


def test_shipped_template_file_is_the_default_deck(deck):
    with open(ROOT / "terragen" / "data" / "terralogical" / "default-deck.json", encoding="utf-8") as fh:
        assert fh.read() == deck_to_json_text(deck)


def test_light_subsoil_is_spread_over_the_landscapes(deck):
    # not a constraint, but a balanced deck should not leave one landscape mostly dark
    by_land = deck_stats(deck.tiles)["light_by_landscape"]
    assert sum(by_land.values()) == deck_stats(deck.tiles)["light"]
    assert all(30 <= by_land[k] <= 47 for k in ("meadow", "field", "wood"))


@pytest.mark.parametrize("pair, says", [("tiles=63.5", "not a whole number"), ("cloud_share=nan", "not a finite number"),
                                        ("cloud_share=x", "not a number"),
                                        ("tiles=\uff16\uff13", "not a whole number"),  # full-width digits: int() reads them
                                        ("tiles=6_3", "not a whole number"),
                                        ("max_deterministic_time=1e308", "at most 86400"),  # --time-limit's range
                                        ("max_deterministic_time=0", "must be above 0")])
def test_a_parameter_of_the_wrong_kind_says_which_kind(pair, says):
    with pytest.raises(SpecError, match=says):
        DeckParams.from_pairs([pair])


@pytest.mark.parametrize("tiles", [3, 9, 20])
def test_a_deck_of_another_size_keeps_the_shares_of_partners_and_connectors(tiles):
    """--param tiles=9 alone was refused: 45 partners wanted among 8 other tiles."""
    params = DeckParams.from_pairs([f"tiles={tiles}"])
    half_up = lambda x: int(x + 0.5)  # noqa: E731  (the docs' "rounded")
    assert params.min_partners == half_up(45 * (tiles - 1) / 62) and params.min_connectors == half_up(30 * tiles / 63)
    deck = design_deck(1, params)
    assert [tid for tid, _ in deck.tiles] == [f"T{i:0{len(str(tiles))}d}" for i in range(1, tiles + 1)]


def test_counts_given_with_another_size_are_kept():
    params = DeckParams.from_pairs(["tiles=9", "min_partners=0"])
    assert params.min_partners == 0 and params.min_connectors == round(30 * 9 / 63)
    assert DeckParams.from_pairs([]) == DeckParams()  # the game's deck: 45 and 30 as always


def test_a_deck_too_small_to_reach_the_flower_is_said_to_be(tmp_path, capsys):
    """A 9-tile deck was designed, kitted and played without a word, and every game stalled."""
    from terragen.cli import main
    from terragen.terralogical.deck import fewest_to_flower, small_deck_warning

    assert fewest_to_flower() == 12  # the sun (7,0) to the field (1,6)
    assert "never reach a flower field" in small_deck_warning(11)
    assert small_deck_warning(12) is None
    with pytest.raises(SystemExit) as done:
        main(["terralogical", "deck", "--param", "tiles=9", "--out", str(tmp_path / "d9.json")])
    assert done.value.code in (0, None)
    assert "warning: a deck of 9 land tiles can never reach a flower field" in capsys.readouterr().err


def test_a_deck_past_the_cloudless_tiles_names_cloud_share():
    """tiles=500 ended with "no deck meets these parameters together": the search that drops one
    parameter at a time ran out of time. 336 cloudless tiles exist; 8% clouds leave 338 tiles bare."""
    with pytest.raises(InfeasibleError, match="param cloud_share=0.08: .* only 336 such tiles"):
        design_deck(1, DeckParams.from_pairs(["tiles=500"]))
