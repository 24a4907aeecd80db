"""The Terrain Game simulator: an engine for whole games, pluggable policies, statistics.

The generator's playability gate is :func:`simulate_layout`, which returns a
:class:`SimulationReport` with ``playable`` and ``reasons``.
"""

from __future__ import annotations

from terragen.terrain.sim.runner import simulate_layout
from terragen.terrain.sim.stats import SimulationReport
from terragen.terrain.sim.variants import Rules

__all__ = ["Rules", "SimulationReport", "simulate_layout"]
