"""Terrace's and TerraFlip's shipped examples: each invalid one breaks its own rule only, each legal
one reads clean. (The Terrain Game's and Terralogical's have their own tests, older and shaped by
a few examples whose rule is a warning or brings a second finding with it.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.example_checks import breaks_only_its_rule, reads_clean

DATA = Path(__file__).resolve().parents[1] / "terragen" / "data"
GAMES = ("terrace", "terraflip")


def _validator(game: str):
    from importlib import import_module

    return import_module(f"terragen.{game}.validation").validate_text


def _examples(invalid: bool) -> list:
    out = []
    for game in GAMES:
        folder = DATA / game / "examples" / ("invalid" if invalid else "")
        out += [pytest.param(game, path, id=f"{game}/{path.name}") for path in sorted(folder.iterdir()) if path.is_file()]
    return out


@pytest.mark.parametrize("game, path", _examples(invalid=True))
def test_each_invalid_example_breaks_its_rule_only(game, path):
    breaks_only_its_rule(_validator(game), path)


@pytest.mark.parametrize("game, path", _examples(invalid=False))
def test_each_shipped_position_is_valid_without_warnings(game, path):
    reads_clean(_validator(game), path)
