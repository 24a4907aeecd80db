"""Dice the engine rolls. Injectable, so tests can script exact rolls."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain

#: bytes 0..251 to a draw of 36 (252 is seven times 36, so every draw is equally likely); 252..255 dropped
_TO_DRAW = bytes(v % 36 if v < 252 else 0 for v in range(256))
_DROPPED = bytes(range(252, 256))
#: random bytes per seat in a pair's first block of rolls (about 63 rolls; longer games draw more blocks)
PAIR_BLOCK = 64


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


class PairedDice:
    """Dice for one game of a twin pair: each seat rolls from a stream of its own, and the twin
    game gives seat ``s`` the stream seat ``swap[s]`` rolled in the first game.

    Why streams per seat: a game and its twin then deal the same rolls to the other class, so
    the class the dice favoured in one game tends to lose the other, and a twin sample measures
    a class's rate with less noise than as many independent games (``bench/twin_games.py``),
    while each game on its own is an ordinary fair game. Why bytes: one seeded generator per
    pair gives every seat's first block of draws in one C call (:data:`PAIR_BLOCK`), cheaper than
    seeding a generator per game; a seat that needs more rolls gets further blocks seeded by
    (pair, stream, block), so a stream is the same whichever game of the pair reads it.

    Only for games where every seat rolls once per round, in order, until the game ends (the
    main rules without teams): :meth:`roll` hands the rolls round the seats in ``order``.
    """

    def __init__(self, seed: int, pair: int, swap: Sequence[int] | None, order: Sequence[int],
                 firsts: Sequence[bytes] | None = None) -> None:
        n = len(order)
        firsts = firsts if firsts is not None else pair_blocks(seed, pair, n)
        streams = [chain(firsts[s], _more(seed, pair, s)) for s in range(n)]
        #: per seat, an iterator of its draws of 36 (white ``r // 6 + 1``, red ``r % 6 + 1``)
        self.draws: list[Iterator[int]] = streams if swap is None else [streams[swap[s]] for s in range(n)]
        self._order = list(order)
        self._rolled = 0

    def roll(self) -> tuple[int, int]:
        seat = self._order[self._rolled % len(self._order)]
        self._rolled += 1
        r = next(self.draws[seat])
        return r // 6 + 1, r % 6 + 1

    def green(self) -> int:
        raise ValueError("paired dice are for the main rules, which roll no green die")


def pair_blocks(seed: int, pair: int, seats: int) -> list[bytes]:
    """Each stream's first block of draws of 36 in pair ``pair`` (both games of the pair read
    them, so a caller playing both may make them once)."""
    raw = random.Random(f"terragen-sim/{seed}/pair/{pair}").randbytes(seats * PAIR_BLOCK)
    return [raw[s * PAIR_BLOCK:(s + 1) * PAIR_BLOCK].translate(_TO_DRAW, _DROPPED) for s in range(seats)]


def _more(seed: int, pair: int, stream: int) -> Iterator[int]:
    """Stream ``stream``'s draws past its first block, in blocks of its own, for as long as a game asks."""
    block = 1
    while True:
        more = random.Random(f"terragen-sim/{seed}/pair/{pair}/{stream}/{block}").randbytes(PAIR_BLOCK)
        yield from more.translate(_TO_DRAW, _DROPPED)
        block += 1
