"""Time a game-playing run now and with the old code put back, in one process, on the same games.

Shared by the player-speed benchmarks: each gives a function that plays its games and returns a
comparable report, and a context manager that puts the old code back; the reports must be equal,
so the ratio compares the same work.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any


def arguments(doc: str) -> argparse.Namespace:
    """--games, --repeats and --seed, as every player-speed benchmark takes them."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    return ap.parse_args()


def _timed(play: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    report = play()
    return time.perf_counter() - start, report


def side_by_side(play: Callable[[], Any], old_code: Callable[[], AbstractContextManager], repeats: int,
                 games: int, what: Callable[[Any], str]) -> None:
    """Play ``repeats`` times each way, assert the reports agree, print the times and the ratio;
    ``what(report)`` names the games played."""
    rows = []
    play()  # once untimed: caches both ways share (a line's cells, imports) start warm for both
    for _ in range(repeats):
        t_new, rep_new = _timed(play)
        with old_code():
            t_old, rep_old = _timed(play)
        assert rep_new == rep_old, "the baseline played other games"
        rows.append((t_old, t_new))
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}; {what(rep_new)}, "
          "the same games both ways")
    for t_old, t_new in rows:
        print(f"  before {t_old:6.2f} s ({games / t_old:5.2f} games/s)   now {t_new:6.2f} s "
              f"({games / t_new:5.2f} games/s)   {t_old / t_new:.2f}x")
    print(f"best of {repeats}: {min(r[0] for r in rows) / min(r[1] for r in rows):.2f}x")
