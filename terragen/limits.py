"""Bounds shared by every game's commands, kept in one place so they agree (and cheap to import)."""

from __future__ import annotations

#: the most games one run of any game's play or simulate command plays
MAX_PLAY_GAMES = 1_000_000
#: the longest Terrace game a match allows, in plies (moves of one seat)
MAX_TERRACE_PLIES = 100_000
#: the most rounds a simulated Terrain Game may last before it stops undecided: a cap of 10^12 let a
#: run whose tokens could never finish go on for ever
MAX_TURN_CAP = 100_000
