"""Confidence intervals for win rates, shared by every game's simulations.

Why one place: each game's `play` reports a share of wins per seat, and a share from a few
hundred games is only as good as its interval; the Terrain Game's simulator had the interval,
the others printed bare percentages that read as findings.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: stays inside [0, 1] and behaves at 0 and n.
    ``successes`` may be fractional (a win shared by two seats counts a half to each)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def whole_or_share(wins: float) -> int | float:
    """A seat's wins as a report gives them: a whole number, or with shared wins (a half, a third
    to each winner) a fraction rounded to 4 places, so a count that is whole reads as one."""
    shown = round(float(wins), 4)  # three thirds of a win add up to 0.9999999999999999, not 1
    return int(shown) if shown.is_integer() else shown


def interval_text(interval: tuple[float, float] | list[float], width: int = 6) -> str:
    """``[ 21.9%,  39.6%]``: an interval (a report's ``ci95`` pair) as the play reports print it,
    each end padded to ``width`` for a table's column (0 in running text)."""
    lo, hi = interval
    return f"[{lo:{width}.1%}, {hi:{width}.1%}]"
