"""Standard output that survives a reader closing the pipe (``terragen validate x | head -1``).

Without it, the first write after ``head`` exits raises BrokenPipeError; click
then exits with status 1 and no message, and whether that happens depends on
timing (the pipe buffer hides it most of the time). Here a closed pipe only
means nobody reads any more: later output is dropped, the command finishes its
work and exits with the status its result calls for.
"""

from __future__ import annotations

import os
from typing import Any, TextIO


class PipeSafeStream:
    """A text stream proxy that turns a broken pipe into a quiet sink."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.broken = False

    def _sink(self) -> None:
        self.broken = True
        try:  # later writes, and the interpreter's final flush, go nowhere instead of failing
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass

    def write(self, data: str) -> int:
        if self.broken:
            return len(data)
        try:
            return self._stream.write(data)
        except BrokenPipeError:
            self._sink()
            return len(data)

    def flush(self) -> None:
        if self.broken:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._sink()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _wrap(name: str, wrapper: type) -> None:
    """Put ``wrapper`` around ``sys.<name>`` once; a no-op for a missing stream or one without a
    file (an in-memory stream, tests' CliRunner: nothing to protect)."""
    import sys

    stream = getattr(sys, name)
    if type(stream) is wrapper or stream is None:
        return
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    try:  # a terminal set to latin-1 or ASCII shows '?' for a character it lacks instead of failing
        if stream.isatty():  # (never a pipe or file: data there must not change unseen)
            stream.reconfigure(errors="replace")
    except (AttributeError, ValueError, OSError):
        pass
    setattr(sys, name, wrapper(stream))


def protect_stdout() -> None:
    """Install :class:`PipeSafeStream` on sys.stdout once."""
    _wrap("stdout", PipeSafeStream)


class QuietFailStream(PipeSafeStream):
    """Standard error that cannot fail the command: a message that does not get out (stderr
    closed, /dev/full) is lost, and the exit status stays the one the result calls for (a warning
    written to a full stderr turned a success into 73)."""

    def write(self, data: str) -> int:
        try:
            return self._stream.write(data)
        except (OSError, ValueError):
            return len(data)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass


def protect_stderr() -> None:
    """Install :class:`QuietFailStream` on sys.stderr once."""
    _wrap("stderr", QuietFailStream)
