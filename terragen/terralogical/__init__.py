"""Terralogical: square land tiles with four edge triangles on an 8x8 board.

Modules, one job each: ``tiles`` (edges, rotation, start/end tiles), ``board``
(squares and the placement checks), ``scoring`` (placement points and the
final flock scoring), ``state`` (one game, OpenSpiel style), ``players``
(policies), ``simulate`` (many games and their statistics), ``deck`` (the
CP-SAT deck designer), ``default_deck`` (the shipped deck), ``formats`` (deck and board-state files) and
``validation`` (checking a typed-in board).
"""
