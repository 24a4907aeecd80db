"""Errors that reach the user, each carrying the exit code the CLI documents.

Library code raises these instead of printing, so the CLI can turn every
expected failure into one line on stderr and a stable exit code.
"""

from __future__ import annotations

# Exit codes, documented in README.md. Keep them stable: scripts depend on them.
EXIT_OK = 0
EXIT_INVALID = 1  # a checked thing failed its check (invalid layout, not playable)
EXIT_USAGE = 2  # bad flags, unreadable or malformed input
EXIT_INFEASIBLE = 3  # a spec was proved impossible
EXIT_TIMEOUT = 4  # the time limit passed before a result was found
EXIT_INTERNAL = 70  # a bug in terragen; the message asks for a report
EXIT_CANTCREAT = 73  # an output file could not be written (BSD sysexits EX_CANTCREAT)
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT), 128 + 2
EXIT_TERMINATED = 143  # SIGTERM, 128 + 15
EXIT_HUNG_UP = 129  # SIGHUP, 128 + 1: the terminal or ssh session closed


class TerragenError(Exception):
    """An expected failure with a message fit for the user and an exit code."""

    exit_code = EXIT_USAGE
    #: where in the input the problem is (1-based line and column), when the reader knows it: what
    #: ``validate --json`` gives a program, which should not have to take the message apart
    position: tuple[int, int] | None = None

    def __init__(self, message: str, exit_code: int | None = None, position: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code
        if position is not None:
            self.position = position

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class InputError(TerragenError):
    """A file could not be read or parsed; the message says where."""

    exit_code = EXIT_USAGE


class IllegalActionError(TerragenError, ValueError):
    """An action that is not legal in the state it was applied to (or a finished game stepped on).

    Why one class for all four games: a script that plays any of them catches one exception, and
    as a ValueError it is still what a bad argument raises in Python (the games raised ValueError,
    SpecError or nothing at all)."""

    exit_code = EXIT_USAGE


class SpecError(TerragenError):
    """Options or a spec contradict each other or are out of range."""

    exit_code = EXIT_USAGE


class SpecFileError(SpecError, InputError):
    """A spec file that cannot be read as one (not TOML, or another kind of file). A SpecError, as
    every problem of a spec is, and an InputError, as every file that cannot be read is, so that the
    command line names the option that gave it (``--spec: ...``), as it does a missing file."""

    exit_code = EXIT_USAGE


class InfeasibleError(TerragenError):
    """A spec was proved impossible to satisfy."""

    exit_code = EXIT_INFEASIBLE


class TimeLimitError(TerragenError):
    """The time limit ran out before a result was found."""

    exit_code = EXIT_TIMEOUT


class OutputError(TerragenError):
    """An output file could not be written (read-only, full disk, a file where a folder
    should be, a folder locked by another run): the user's environment, not a bug."""

    exit_code = EXIT_CANTCREAT
