"""Terrace: the 8x8 stepped board game (and its n x n generalisation).

The API follows python-chess: ``Position.start("full")``, ``legal_moves()``,
``push``/``pop``, ``result()``; a Position also answers the OpenSpiel-style
names of the other games' states (``legal_actions()``, ``apply()`` in place,
``is_terminal()``, ``returns()``...). Everything here is pure (no I/O).
"""

from terragen.terrace.board import Board, board, height
from terragen.terrace.model import KINDS, Move, Piece, Rules
from terragen.terrace.perft import divide, perft
from terragen.terrace.position import Outcome, Position

__all__ = ["Board", "board", "height", "KINDS", "Move", "Piece", "Rules", "Position", "Outcome", "perft", "divide"]
