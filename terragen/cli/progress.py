"""The one progress display of every long command: a bar with an ETA on a terminal, nothing otherwise.

It draws on stderr only when stderr is a terminal and ``-q`` was not given, so
logs, pipes and scripts never see it. Work with a known amount (games,
scenarios) shows ``done/total``; work bounded by time (generate) shows the
elapsed seconds against the limit.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 24


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    m, s = divmod(seconds, 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """``label [#####.......] 120/400 games  0:12 left`` on one rewritten stderr line."""

    def __init__(self, label: str, total: float, unit: str = "", enabled: bool | None = None,
                 stream: TextIO | None = None) -> None:
        from terragen.cli._common import is_quiet

        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)()) and not is_quiet()
        self.enabled = enabled
        self.label, self.total, self.unit = label, total, unit
        self.began = time.monotonic()
        self.done: float = 0
        self.drawn = False
        self._last = -1.0

    def line(self, done: float, note: str = "") -> str:
        """The text of the bar (without the carriage return); public so tests can read it."""
        total = max(self.total, 1e-9)
        frac = min(1.0, max(0.0, done / total))
        fill = int(WIDTH * frac)
        elapsed = time.monotonic() - self.began
        if self.unit == "s":
            count = f"{done:.0f}/{self.total:.0f} s limit"
            eta = ""
        else:
            unit = f" {self.unit}" if self.unit else ""
            count = f"{done:g}/{self.total:g}{unit}"
            eta = f"  {_clock(elapsed * (1 - frac) / frac)} left" if 0 < frac < 1 and elapsed > 0.5 else ""
        extra = f"  {note}" if note else ""
        return f"{self.label} [{'#' * fill}{'.' * (WIDTH - fill)}] {count}{eta}{extra}"

    def update(self, done: float, total: float | None = None, note: str = "") -> None:
        if total is not None:
            self.total = total
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return  # redraw at most ten times a second
        self._last = now
        self.stream.write("\r" + self.line(done, note) + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Erase the bar so the command's own output starts on a clean line."""
        if self.enabled and self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
        self.drawn = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
