"""Run the generator with its seat-by-seat tuning replaced by a probe, so that it walks through
terrains until the time is up: what the five-seat bench scripts measure each terrain with.

The probe is called as ``Balancer.tune`` would be (on the balancer, right after the model step) and
should return False, which gives the terrain up; the search then builds the next one.
"""
from terragen.errors import TimeLimitError
from terragen.terrain.generate import balance, generate_board
from terragen.terrain.generate.options import build_spec


def walk_terrains(players: int, preset: str, seed: int, seconds: float, probe) -> None:
    """Terrains of ``players`` seats and ``preset`` from ``seed``, each handed to ``probe``, until ``seconds``."""
    balance.Balancer.tune = probe
    spec, _ = build_spec({"players": players, "difficulty": preset}, None)
    try:
        generate_board(spec, seed=seed, time_limit=seconds, workers=None, best_effort=False, budget=10**12)
    except TimeLimitError:
        pass
