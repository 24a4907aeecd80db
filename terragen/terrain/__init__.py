"""The Terrain Game: pieces, layouts, the move rules, analysis, generation and simulation."""

from terragen.lazy_exports import lazy_exports as _lazy_exports

__all__, __getattr__, __dir__ = _lazy_exports(__name__, {
    "Layout": "terragen.terrain.layout",
    "parse_layout": "terragen.terrain.files",
    "load_layout": "terragen.terrain.files",
    "save_layout": "terragen.terrain.files",
    "validate_layout": "terragen.terrain.validation",
    "validate_text": "terragen.terrain.validation",
    "analyse": "terragen.terrain.analysis",
    "Rules": "terragen.terrain.sim",
    "simulate_layout": "terragen.terrain.sim",
    "win_rates": "terragen.terrain.sim",
    "default_games": "terragen.terrain.sim",
    "TerrainGame": "terragen.terrain.sim.stepwise",
    "build_spec": "terragen.terrain.generate",
    "generate_board": "terragen.terrain.generate",
    "BalanceSettings": "terragen.terrain.generate",
})
