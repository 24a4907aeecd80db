"""TerraFlip: double-sided hex tiles placed around a tower, flipped by framing.

Modules, one job each: ``model`` (families, tiles, tile sets), ``design``
(CP-SAT tile-set design), ``geometry`` (framing lines and the cells they cross),
``rules`` (options, placement, framing, specials), ``scoring``, ``state`` (a game
in progress with hidden information), ``players`` (policies), ``simulate``,
``formats`` (state files), ``tilefile`` (tile-set files) and ``validation``.
"""

from terragen.lazy_exports import lazy_exports as _lazy_exports

__all__, __getattr__, __dir__ = _lazy_exports(__name__, {
    "GameState": "terragen.terraflip.state",
    "Action": "terragen.terraflip.state",
    "Options": "terragen.terraflip.rules",
    "PlaySpec": "terragen.terraflip.simulate",
    "play_game": "terragen.terraflip.simulate",
    "parse_position": "terragen.terraflip.formats",
    "validate_text": "terragen.terraflip.validation",
    "read_tileset": "terragen.terraflip.tilefile",
})
