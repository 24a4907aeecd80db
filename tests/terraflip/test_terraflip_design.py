"""Tile-set design: balance checked from the produced backs, determinism, infeasibility."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from terragen.errors import InfeasibleError, SpecError
from terragen.terraflip.design import DesignSpec, design_tileset
from terragen.terraflip.model import FAMILIES, LAND_OF, TileSet, default_tileset, parse_tile_id


def _matrix(tileset: TileSet) -> Counter:
    return Counter((parse_tile_id(tid)[0], back) for tid, back in tileset.backs)


@pytest.mark.parametrize("seed", [0, 5])
def test_default_design_is_balanced(seed):
    ts = design_tileset(DesignSpec(time_limit=5), seed).tileset
    m = _matrix(ts)
    assert len(ts.backs) == 36
    for f in FAMILIES:
        assert m[f, f] == 0
        assert [m[f, c] for c in FAMILIES if c != f] == [3, 3, 3]
    assert [sum(m[f, c] for f in FAMILIES) for c in FAMILIES] == [9, 9, 9, 9]
    # every back is on a tile of the right land
    assert all(tid.split("-")[1] == LAND_OF[tid.split("-")[0]] for tid, _ in ts.backs)


def test_own_colour_allowed_when_asked_and_still_balanced():
    ts = design_tileset(DesignSpec(own=3, time_limit=5), 1).tileset
    m = _matrix(ts)
    for f in FAMILIES:
        assert m[f, f] == 3 and sorted(m[f, c] for c in FAMILIES if c != f) == [2, 2, 2]


def test_same_seed_same_set_other_seed_other_set():
    a = design_tileset(DesignSpec(time_limit=5), 11).to_json()
    b = design_tileset(DesignSpec(time_limit=5), 11).to_json()
    c = design_tileset(DesignSpec(time_limit=5), 12).to_json()
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert a["tiles"] != c["tiles"]


def test_impossible_spec_names_the_clashing_wishes():
    with pytest.raises(InfeasibleError) as exc:
        design_tileset(DesignSpec(per_family=10, time_limit=5), 0)
    msg = exc.value.message
    assert "10 tiles per family" in msg and "equally often" in msg
    assert exc.value.exit_code == 3
    with pytest.raises(SpecError):
        design_tileset(DesignSpec(own=12), 0)


def test_default_tileset_matches_the_balance_wishes():
    m = _matrix(default_tileset())
    assert all(m[f, c] == (0 if f == c else 3) for f in FAMILIES for c in FAMILIES)


def test_stats_show_equal_odds_for_every_player_count():
    from terragen.terraflip.design import tileset_stats

    stats = tileset_stats(design_tileset(DesignSpec(time_limit=5), 3).tileset)
    for n, odds in stats["flip_odds_by_players"].items():
        assert len(set(odds.values())) == 1 and len(odds) == int(n)
