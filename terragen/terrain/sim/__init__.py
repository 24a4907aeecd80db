"""The Terrain Game simulator: an engine for whole games, pluggable policies, statistics.

:func:`simulate_layout` returns a :class:`SimulationReport` with two verdicts,
``playable`` (games finish) and ``balanced`` (seats win their fair share);
:func:`win_rates` gives just the per-seat rates, for the generator's balance search.
"""

from __future__ import annotations

from terragen.terrain.sim.runner import default_games, simulate_layout, win_rates
from terragen.terrain.sim.stats import SimulationReport
from terragen.terrain.sim.variants import Rules

__all__ = ["Rules", "SimulationReport", "default_games", "simulate_layout", "win_rates"]
