"""TerraFlip: double-sided hex tiles placed around a tower, flipped by framing.

Modules, one job each: ``model`` (families, tiles, tile sets), ``design``
(CP-SAT tile-set design), ``geometry`` (framing lines and the cells they cross),
``rules`` (options, placement, framing, specials), ``scoring``, ``state`` (a game
in progress with hidden information), ``players`` (policies), ``simulate``,
``formats`` (state files), ``tilefile`` (tile-set files) and ``validation``.
"""
