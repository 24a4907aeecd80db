"""Terralogical: square land tiles with four edge triangles on an 8x8 board.

Modules, one job each: ``tiles`` (edges, rotation, start/end tiles), ``board``
(squares and the placement checks), ``scoring`` (placement points and the
final flock scoring), ``state`` (one game, OpenSpiel style), ``players``
(policies), ``simulate`` (many games and their statistics), ``deck`` (the
CP-SAT deck designer), ``default_deck`` (the shipped deck), ``formats`` (deck and board-state files) and
``validation`` (checking a typed-in board).
"""

from terragen.lazy_exports import lazy_exports as _lazy_exports

__all__, __getattr__, __dir__ = _lazy_exports(__name__, {
    "GameState": "terragen.terralogical.state",
    "RuleOptions": "terragen.terralogical.board",
    "read_deck": "terragen.terralogical.formats",
    "design_deck": "terragen.terralogical.deck",
    "DeckParams": "terragen.terralogical.deck",
    "play_game": "terragen.terralogical.simulate",
    "parse_state": "terragen.terralogical.formats",
    "validate_text": "terragen.terralogical.validation",
})
