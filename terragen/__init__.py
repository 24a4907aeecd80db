"""terragen: boards, tiles and puzzles for four terrain board games.

Where things are: one package per game (``terrain``, the Terrain Game with its
generator and simulator; ``terrace``; ``terralogical``; ``terraflip``), ``grids``
(hex geometry), ``render`` (SVG and PDF: build sheets, kits, booklets), ``cli``
(the ``terragen`` command, a thin shell over the rest) and ``web`` (the page of
``terragen serve``). Shared helpers sit at the top: ``errors`` (the exit codes),
``fileio`` and ``safejson`` (reading hostile input, writing atomically),
``formats`` (which game a file is), ``limits``. The user's guide is in
``docs/`` (README.md first; ``terragen --help`` prints where the docs are).

The game packages hold rules and data, and read and write their own file forms
(``formats``, ``files``) but never talk to the terminal: ``cli`` and ``web`` do.
"""

__version__ = "0.1.0"
