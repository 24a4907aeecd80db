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
        except OSError as exc:  # a full disk under a redirection: said as standard output's, not a bare errno
            raise _stdout_error(exc) from None

    def flush(self) -> None:
        if self.broken:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._sink()
        except OSError as exc:
            raise _stdout_error(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _stdout_error(exc: OSError) -> Exception:
    from terragen.errors import OutputError

    return OutputError(f"cannot write standard output: {exc.strerror or exc}")


class ClosedStdout:
    """Standard output for a process started with it closed (``>&-``; some schedulers run jobs so):
    Python leaves ``sys.stdout`` None, and click then dropped every line, so a command whose output
    is its result (``convert FILE -``, ``validate``) printed nothing and exited 0. The first write
    is an output error instead (exit 73); a command told to be quiet never writes."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, data: str) -> int:
        from terragen.errors import OutputError

        raise OutputError("cannot write standard output: it is closed (redirect it to a file, or give -q where "
                          "the command has it)")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


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
    """Install :class:`PipeSafeStream` on sys.stdout once (:class:`ClosedStdout` when it is closed)."""
    import sys

    if sys.stdout is None:
        sys.stdout = ClosedStdout()
        return
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
