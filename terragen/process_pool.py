"""Start a ``multiprocessing.Pool`` of our workers, notice when one dies, and end it at once.

Three things about ``Pool`` are wrong for a command-line tool, and all were seen:

- ``Pool.terminate()`` first takes the task queue's lock. An idle worker holds that lock
  while it waits for work, and a worker killed while holding it never gives it back, so
  after Ctrl-C (or a worker killed from outside) the teardown can wait forever.
  :func:`end_pool` kills the workers instead and cancels the pool's own exit-time
  finaliser, which would take the same lock.
- A worker that dies mid-task is replaced, and the task it had is never answered: a
  caller waiting on it waits forever. :func:`check_workers` turns that into
  :class:`WorkerDied`.
- A worker that ends wakes the pool's handler thread, which starts a replacement. Ending
  the pool in that moment used to miss the replacement, which then outlived its pool;
  :func:`end_pool` stops the handler first.

The workers are ours and hold nothing worth saving, so killing them loses nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from terragen.errors import EXIT_INTERNAL, TerragenError

if TYPE_CHECKING:  # multiprocessing itself is imported when a pool starts: it costs the CLI 13 ms
    import multiprocessing as mp
    import multiprocessing.pool

#: How often a caller waiting on a result looks at whether a worker died (seconds).
POLL = 0.5
#: How long ending a pool waits for its worker handler to stop (seconds; it takes milliseconds).
HANDLER_WAIT = 5.0


def max_workers() -> int:
    """The most worker processes a command starts: four per core. Why a bound at all: a slip
    (``TERRAGEN_WORKERS=99999999``) started processes until the machine ran out of memory, and
    CPU-bound workers beyond the cores only share them."""
    return 4 * (os.cpu_count() or 1)


def worker_count(value: int, what: str) -> int:
    """``--workers`` as a user gives it: 0 means one per core; below 0 or above :func:`max_workers`
    is an InputError naming ``what`` (the flag or variable)."""
    from terragen.errors import InputError

    if not 0 <= value <= max_workers():
        raise InputError(f"{what} must be 0–{max_workers()} (got {value}): 0 is one per CPU core, and at most four per core here")
    return value or os.cpu_count() or 1


class WorkerDied(TerragenError, RuntimeError):
    """A worker process ended under a run (killed from outside, out of memory): one line for
    the user and exit 70, but not a traceback, since the cause is usually the machine."""

    exit_code = EXIT_INTERNAL


def start_pool(workers: int, method: str) -> tuple[multiprocessing.pool.Pool, list[mp.process.BaseProcess]]:
    """A pool of ``workers`` processes started by ``method``, and the processes it started
    (the pool would replace a dead one; the caller must still see that one died)."""
    import multiprocessing as mp

    from terragen.interrupts import hold_again, worker_init

    if method != "fork":
        # the helpers a fork server or spawn needs start as fresh interpreters, and a Ctrl-C
        # reaching them while they import ``site`` printed "Fatal Python error" and a traceback.
        # They inherit this process's held signals, but the resource tracker, when it starts,
        # unblocks SIGINT and SIGTERM here: so it is started first and the hold taken again
        # before the fork server starts
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
        hold_again()
    pool = _quiet_pool_class()(workers, initializer=worker_init, initargs=(os.getpid(), method == "forkserver"),
                               context=mp.get_context(method))
    return pool, list(pool._pool)


def _quiet_pool_class() -> type:
    """``multiprocessing.pool.Pool`` whose worker handler thread wakes only when a worker ends
    or the pool changes, not for every result.

    Why: the standard pool's handler also waits on the results pipe, so while a result sits
    there unread it wakes again and again (about 20,000 times in 4.6 s of a five-seat search's
    games, 4,300 a second) and takes the lock the result thread and the caller need: half the
    parent's CPU time. That wake-up is there for ``maxtasksperchild`` (workers that end after
    some tasks), which these pools do not use; a worker that dies still wakes the handler, by
    its own sentinel. Measured on the recorded games of a five-seat medium run: the parent's
    CPU 1.40 -> 0.68 s, the games' wall time 4.73 -> 4.11 s (``bench/README.md``)."""
    import multiprocessing.pool

    base = multiprocessing.pool.Pool
    if not hasattr(base, "_get_sentinels"):  # CPython's internals moved: the standard pool, slower but right
        return base

    class QuietPool(base):
        def _get_sentinels(self) -> list:
            notifier = getattr(self, "_change_notifier", None)
            if notifier is None or not hasattr(notifier, "_reader"):
                return super()._get_sentinels()
            return [notifier._reader]

    return QuietPool


def check_workers(procs: Iterable[mp.process.BaseProcess], what: str) -> None:
    """Raise :class:`WorkerDied` if any of ``procs`` has ended."""
    dead = [p.exitcode for p in procs if p.exitcode is not None]
    if dead:
        raise WorkerDied(f"a {what} worker process ended unexpectedly (exit code {dead[0]}; {_likely_cause(dead[0])})")


def _likely_cause(exit_code: int) -> str:
    """What a worker's exit code says of why it ended. Exit 1 is the worker's own Python error, and
    from a library user's script the usual one is a call outside ``if __name__ == "__main__":``:
    a new worker imports the script, which starts workers again, and multiprocessing refuses
    (the old message blamed a kill or the memory)."""
    if exit_code == 1:
        return ('the worker stopped on an error of its own; from a script, make the call under '
                '`if __name__ == "__main__":`, since each worker starts by importing the script')
    return "killed from outside or out of memory?"


def end_pool(pool: multiprocessing.pool.Pool, procs: Iterable[mp.process.BaseProcess]) -> None:
    """Kill the pool's workers and reap them, without taking any of the pool's locks.

    Ctrl-C and SIGTERM are held back until it is done (it takes milliseconds): a signal landing
    midway, after the workers were killed and before the pool's exit-time finaliser was
    cancelled, left that finaliser to run when the pool was collected, and it waited forever
    for a lock a killed worker held (seen in CI: a batch interrupted just as its last scenario
    was written printed its one line and never exited)."""
    from terragen.interrupts import signals_held

    with signals_held():
        pool._terminate.cancel()  # first: nothing may take the pool's locks once a worker is killed
        _kill_workers(pool, procs)


def _kill_workers(pool: multiprocessing.pool.Pool, procs: Iterable[mp.process.BaseProcess]) -> None:
    import multiprocessing.pool
    import threading

    handler = pool._worker_handler
    handler._state = multiprocessing.pool.TERMINATE  # no replacement workers from now on
    # The handler may be starting a replacement this very moment (it wakes whenever a worker
    # ends). Woken and waited for, it has stopped, and whatever it started is in pool._pool:
    # a replacement missed here outlived its pool, and on a busy machine printed a traceback
    # when it could no longer find the pool's queues.
    pool._change_notifier.put(None)
    if handler.is_alive() and handler is not threading.current_thread():
        handler.join(HANDLER_WAIT)
    everyone = list({p.pid: p for p in [*procs, *pool._pool]}.values())
    for p in everyone:
        if p.exitcode is None:
            p.kill()
    for p in everyone:
        p.join(5)
