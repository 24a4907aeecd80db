"""terragen: boards, tiles and puzzles for four terrain board games.

The package keeps game logic free of I/O: ``grids`` and the game packages are
pure data and rules; ``render`` draws; ``cli`` is the only place that talks to
the terminal.
"""

__version__ = "0.1.0"
