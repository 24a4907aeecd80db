"""Ctrl-C and SIGTERM: stop within a second, write nothing, exit 130 or 143.

SIGTERM is turned into :class:`Terminated`, a KeyboardInterrupt, so every
``except KeyboardInterrupt`` / ``finally`` path that cleans up after Ctrl-C
cleans up after ``kill`` as well. Native code that holds the main thread
(a CP-SAT solve) cannot run Python signal handlers until it returns, so
:func:`stop_on_signal` watches the interpreter's wakeup fd from a helper
thread and asks the native code to stop; the main thread then raises the
interrupt as soon as it is back in Python, before any result is used.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
from collections.abc import Callable, Iterator

from terragen.errors import EXIT_INTERRUPTED, EXIT_TERMINATED


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so the same cleanup runs."""


def exit_code_for(exc: BaseException) -> int:
    return EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED


def _raise_terminated(signum, frame) -> None:
    raise Terminated()


def install_handlers() -> None:
    """SIGINT raises KeyboardInterrupt (unless the shell made us ignore it), SIGTERM raises Terminated."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _raise_terminated)


@contextlib.contextmanager
def stop_on_signal(stop: Callable[[], None]) -> Iterator[None]:
    """Call ``stop()`` from a helper thread as soon as a handled signal arrives during the block.

    After the block the caller must not trust a result if a signal came: the
    Python handler raises on the next bytecode, and this context raises
    KeyboardInterrupt itself if the handler has not yet done so.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    r, w = os.pipe()
    os.set_blocking(w, False)
    try:
        old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    except ValueError:
        os.close(r)
        os.close(w)
        yield
        return
    done = threading.Event()
    seen: list[int] = []

    def watch() -> None:
        while not done.is_set():
            ready, _, _ = select.select([r], [], [], 0.05)
            if ready:
                data = os.read(r, 64)
                if any(b in (signal.SIGINT, signal.SIGTERM) for b in data):
                    seen.append(1)
                    stop()

    thread = threading.Thread(target=watch, name="terragen-signal-watch", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        signal.set_wakeup_fd(old)
        os.close(r)
        os.close(w)
    if seen:
        raise KeyboardInterrupt()
