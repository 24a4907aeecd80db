"""Dice the engine rolls. Injectable, so tests can script exact rolls."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable


class RandomDice:
    """Fair six-sided dice drawn from one seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._bits = rng.getrandbits

    @property
    def bits(self) -> Callable[[int], int]:
        """The generator's ``getrandbits``, for a game loop that draws its rolls in place as
        :meth:`roll` does (``bits(6)`` again while 36 or more; white ``r // 6 + 1``, red ``r % 6 + 1``)."""
        return self._bits

    def roll(self) -> tuple[int, int]:
        """White (movement) and red (weather): one draw of 36, exactly as ``randrange(36)``
        draws it (6 random bits, again while 36 or more), without its checks on every turn."""
        bits = self._bits
        r = bits(6)
        while r >= 36:
            r = bits(6)
        return r // 6 + 1, r % 6 + 1

    def green(self) -> int:
        return self._rng.randrange(6) + 1


class ScriptedDice:
    """Rolls taken in order from lists; running out is an error (the test asked for too few)."""

    def __init__(self, rolls: Iterable[tuple[int, int]], greens: Iterable[int] = ()) -> None:
        self._rolls = list(rolls)
        self._greens = list(greens)

    def roll(self) -> tuple[int, int]:
        if not self._rolls:
            raise RuntimeError("scripted dice ran out of white/red rolls")
        return self._rolls.pop(0)

    def green(self) -> int:
        if not self._greens:
            raise RuntimeError("scripted dice ran out of green rolls")
        return self._greens.pop(0)

    @property
    def left(self) -> int:
        return len(self._rolls)
