"""Shared fixtures: the kit is built once per test session (it takes about a second)."""

from __future__ import annotations

import pytest

from terragen.render.impose import PrintOptions
from terragen.render.paper import load_paper


@pytest.fixture(scope="session")
def a4() -> PrintOptions:
    return PrintOptions(load_paper("a4"))


@pytest.fixture(scope="session")
def letter() -> PrintOptions:
    return PrintOptions(load_paper("letter"))


@pytest.fixture(scope="session")
def kit_a4(a4):
    from terragen.render.kits.terrain.kit import terrain_kit

    return {p.name: p.doc for p in terrain_kit(a4, nets=True)}


@pytest.fixture(scope="session")
def kit_letter(letter):
    from terragen.render.kits.terrain.kit import terrain_kit

    return {p.name: p.doc for p in terrain_kit(letter)}
