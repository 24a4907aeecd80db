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

from terragen.errors import EXIT_HUNG_UP, EXIT_INTERRUPTED, EXIT_TERMINATED


class Terminated(KeyboardInterrupt):
    """SIGTERM (or SIGHUP), raised like Ctrl-C so the same cleanup runs."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__()
        self.signum = signum


#: the signals that stop a command cleanly: Ctrl-C, ``kill``, and a terminal or ssh session that
#: closes (SIGHUP: left to its default, it ended the process mid-write, with temporaries left)
STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_HELD = STOPPING
_hold_depth = 0
_held_back: list[int] = []


def _interrupt_for(signum: int) -> KeyboardInterrupt:
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT/SIGTERM/SIGHUP back during the block (raised right after it): for work an
    interrupt must not split, such as creating a temporary and noting it, or renaming an
    output set into place.

    Blocking the signals in the main thread alone is not enough: while a process pool's
    helper threads run, the kernel hands the signal to one of them and the main thread
    still runs the Python handler at its next bytecode. So the handler the CLI installs
    (:func:`install_handlers`) only notes a signal while a hold is on, and the end of the
    outermost hold raises it. The mask still covers code that runs without that handler.
    """
    global _hold_depth
    if threading.current_thread() is not threading.main_thread():  # handlers only run in the main thread
        yield
        return
    if _hold_depth == 0:
        _held_back.clear()  # one noted just as an earlier hold ended was raised by then
    _hold_depth += 1
    try:
        old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    except (AttributeError, ValueError, OSError):  # no pthreads: the handler alone holds
        old_mask = None
    try:
        yield
    finally:
        if old_mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)  # a blocked signal now reaches _handle
        _hold_depth -= 1
        if _hold_depth == 0 and _held_back:
            signum = _held_back[0]
            _held_back.clear()
            raise _interrupt_for(signum)


def exit_code_for(exc: BaseException) -> int:
    if isinstance(exc, Terminated):
        return EXIT_TERMINATED if exc.signum == signal.SIGTERM else EXIT_HUNG_UP
    return EXIT_INTERRUPTED


def stop_word(code: int) -> str:
    """What stopped a command, by its exit code, for its last line."""
    return {EXIT_TERMINATED: "terminated", EXIT_HUNG_UP: "hung up (the terminal closed)"}.get(code, "interrupted")


#: How soon a signal that arrived during an import is delivered again (seconds).
RETRY = 0.05


def _importing(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _handle(signum, frame) -> None:
    """Raise the interrupt, unless a module is being imported: some libraries (numpy) turn any
    exception during their import into an ImportError with a traceback on stderr, so the
    signal is sent again shortly, after the import has finished. During
    :func:`signals_held` the signal is only noted; the hold raises it when it ends."""
    if _hold_depth:
        _held_back.append(signum)
        return
    if _importing(frame):
        timer = threading.Timer(RETRY, os.kill, (os.getpid(), signum))
        timer.daemon = True
        timer.start()
        return
    raise _interrupt_for(signum)


def install_handlers() -> None:
    """SIGINT raises KeyboardInterrupt, SIGTERM and SIGHUP raise Terminated (SIGINT and SIGHUP
    unless the shell made us ignore them: ``cmd &`` and ``nohup``)."""
    for sig in STOPPING:
        if sig == signal.SIGTERM or signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _handle)


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
                if any(b in STOPPING for b in data):
                    seen.append(1)
                    stop()

    thread = threading.Thread(target=watch, name="terragen-signal-watch", daemon=True)
    thread.start()
    try:
        yield
    finally:
        with signals_held():  # the cleanup must finish even if the interrupt is raised now
            done.set()
            thread.join()
            signal.set_wakeup_fd(old)
            os.close(r)
            os.close(w)
    if seen:
        raise KeyboardInterrupt()


def hold_again() -> None:
    """Block the stopping signals again inside a :func:`signals_held` hold whose mask a library
    call undid (``multiprocessing``'s resource tracker unblocks SIGINT and SIGTERM when it starts);
    the hold's end restores the mask as it was before the hold. Outside a hold it does nothing."""
    if _hold_depth == 0 or threading.current_thread() is not threading.main_thread():
        return
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    except (AttributeError, ValueError, OSError):
        pass


def worker_init(parent: int, via_server: bool = False) -> None:
    """Pool initializer: workers leave signals to the parent (which stops the pool), and die
    quietly, with no BrokenPipeError traceback, the moment the parent is gone.

    ``parent`` is the pid of the process that owns the pool. A worker started by ``fork``
    or ``spawn`` is its child, so the kernel's parent-death signal covers it. A worker
    started by a fork server (``via_server``) is the server's child, and the server
    outlives the owner for as long as any of its children lives (they hold its "keep
    alive" pipe): such a worker watches the owner's sentinel, a pipe end only the owner
    holds, which its death closes, and leaves at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate() ends a worker without a word
    if hasattr(signal, "SIGHUP"):  # a forked worker kept the parent's handler, which raises with a traceback
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:  # a pool is started with both held back (``signals_held``), and a process inherits that mask
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    except (AttributeError, ValueError, OSError):
        pass
    if hasattr(signal, "SIGPIPE"):  # a result sent to an owner that just died ends the worker, without a word
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:  # Linux: the kernel kills this worker when its parent process dies, even by SIGKILL
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if not via_server:
        if os.getppid() != parent:  # the parent died before the line above took effect
            os._exit(0)
        return
    import multiprocessing
    from multiprocessing.connection import wait

    owner = multiprocessing.parent_process()
    if owner is None or owner.pid != parent:
        os._exit(0)

    def leave_with_owner() -> None:
        wait([owner.sentinel])
        os._exit(0)

    threading.Thread(target=leave_with_owner, name="terragen-owner-watch", daemon=True).start()
