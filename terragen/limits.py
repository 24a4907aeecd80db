"""Bounds shared by every game's commands, kept in one place so they agree (and cheap to import)."""

from __future__ import annotations

#: the most games one run of any game's play or simulate command plays
MAX_PLAY_GAMES = 1_000_000
#: the longest Terrace game a match allows, in plies (moves of one seat)
MAX_TERRACE_PLIES = 100_000
#: the print-scale correction a kit or build sheet takes (--scale): a printer's own error is a few per
#: cent, and every page of every kit is checked to fit its margin at both ends
MIN_SCALE, MAX_SCALE = 0.9, 1.1
#: the Terrace board sizes (squares per side) the rules and the kit support
TERRACE_SIZES = (6, 8, 10, 12)
#: the most rounds a simulated Terrain Game may last before it stops undecided: a cap of 10^12 let a
#: run whose tokens could never finish go on for ever
MAX_TURN_CAP = 100_000
#: the longest search or solve any command may ask for (--time-limit); one that long is not a use anyone has
MAX_TIME_LIMIT = 86_400.0
#: the most scenarios one puzzle batch holds (--count): far more than a booklet anyone prints; the task
#: list of an absurd count would fill memory
MAX_BATCH_COUNT = 100_000
