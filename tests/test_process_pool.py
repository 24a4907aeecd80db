"""The shared process pool: it ends at once whatever state its workers are in, and a
worker that dies is an error, not a wait for an answer that never comes."""

import multiprocessing as mp
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from terragen.terrain.puzzles.batch import run_local
from terragen.process_pool import WorkerDied, end_pool, start_pool


def _square(x: int) -> int:
    return x * x


def _finishes(fn, seconds: float = 20) -> bool:
    thread = threading.Thread(target=fn, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive()


def test_a_pool_whose_idle_workers_were_killed_still_ends():
    """An idle worker waits for work holding the task queue's lock; killed, it never gives it
    back. ``Pool.terminate()`` takes that lock and waits forever; the pool must not."""
    pool, procs = start_pool(2, "fork")
    assert pool.map(_square, range(4)) == [0, 1, 4, 9]
    time.sleep(0.2)  # both idle, one of them holding the lock
    for p in procs:
        os.kill(p.pid, signal.SIGKILL)
    time.sleep(0.2)
    assert _finishes(lambda: end_pool(pool, procs))
    assert all(p.exitcode is not None for p in procs)


def test_a_pool_with_busy_workers_ends_and_leaves_no_process():
    pool, procs = start_pool(2, "fork")
    pool.map_async(time.sleep, [30, 30])
    time.sleep(0.3)
    assert _finishes(lambda: end_pool(pool, procs), 10)
    assert not [p for p in procs if p.exitcode is None]


def test_a_batch_worker_killed_from_outside_is_an_error_not_a_hang():
    tasks = [("route", "easy", 4, i) for i in range(12)]
    results = run_local(tasks, 2)
    errors: list[BaseException] = []

    def consume() -> None:
        try:
            for n, _ in enumerate(results):
                if n == 0:
                    for child in mp.active_children():
                        os.kill(child.pid, signal.SIGKILL)
        except WorkerDied as exc:
            errors.append(exc)

    assert _finishes(consume, 60), "the batch waited for a dead worker's scenario"
    assert errors and "worker" in str(errors[0])
    assert not mp.active_children()


def test_ending_a_pool_while_it_replaces_a_worker_leaves_no_process():
    """A worker that ends wakes the pool's handler, which starts a replacement. Ended in that
    moment, the pool must still end every process, the replacement too: one left behind
    outlives its pool (on a busy machine it printed a traceback once its queues were gone)."""
    left = []
    for k in range(30):
        pool, procs = start_pool(2, "forkserver")
        assert pool.map(_square, range(4)) == [0, 1, 4, 9]
        os.kill(procs[0].pid, signal.SIGKILL)
        procs[0].join(5)  # dead: the handler is waking up to replace it
        time.sleep(0.0002 * (k % 10))
        assert _finishes(lambda: end_pool(pool, procs), 10)
        left += [p for p in pool._pool if p.exitcode is None]
        left += [p for p in mp.active_children() if p not in procs]
    assert not left


_SIGNAL_MIDWAY = """
import gc, os, signal, time
from terragen import process_pool
from terragen.interrupts import install_handlers
from terragen.process_pool import end_pool, start_pool

def square(x):
    return x * x

if __name__ == "__main__":
    pool, procs = start_pool(2, "fork")
    assert pool.map(square, range(4)) == [0, 1, 4, 9]
    time.sleep(0.2)  # both idle, one of them holding the task queue's lock
    kill = process_pool._kill_workers

    def kill_then_signal(*args):
        kill(*args)
        os.kill(os.getpid(), signal.SIGINT)  # the signal lands midway
        time.sleep(0.05)

    process_pool._kill_workers = kill_then_signal
    install_handlers()
    try:
        end_pool(pool, procs)
        print("no interrupt")
    except KeyboardInterrupt:
        print("interrupted once ended" if all(p.exitcode is not None for p in procs) else "interrupted midway")
    pool = None
    gc.collect()  # the pool's exit-time finaliser would run here, or at exit
"""


def test_a_signal_while_a_pool_ends_waits_until_it_has_ended(tmp_path):
    """Ctrl-C landing after the workers were killed and before the pool's exit-time finaliser was
    cancelled left that finaliser to take a lock a killed worker held, forever (a batch
    interrupted as its last scenario was written printed its line and never exited)."""
    import subprocess
    import sys

    script = tmp_path / "midway.py"
    script.write_text(_SIGNAL_MIDWAY)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "interrupted once ended", done.stderr
    assert done.returncode == 0, done.stderr


def _blocked(_: int) -> list[int]:
    return sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, []))


def test_workers_started_while_signals_are_held_do_not_inherit_the_hold():
    """Pools start with Ctrl-C and SIGTERM held back, and a child inherits its parent's signal
    mask: a worker must not keep them blocked (SIGTERM is how a worker may be ended)."""
    from terragen.interrupts import signals_held

    for method in ("fork", "forkserver"):
        with signals_held():
            pool, procs = start_pool(2, method)
        try:
            masks = pool.map(_blocked, range(4))
        finally:
            end_pool(pool, procs)
        assert all(signal.SIGINT not in m and signal.SIGTERM not in m for m in masks), (method, masks)


def test_a_script_without_a_main_guard_is_told_what_to_fix(tmp_path):
    """Workers start by importing the calling script; one that calls simulate_layout at import
    time makes every worker stop on multiprocessing's own error. The message named a kill or the
    memory; it must name the guard a library user has to add."""
    import subprocess
    import sys
    from pathlib import Path

    import terragen

    example = Path(terragen.__file__).parent / "data" / "terrain" / "examples" / "two-players.txt"
    script = tmp_path / "no_guard.py"
    script.write_text(
        "from terragen.terrain.files import load_layout\n"
        "from terragen.terrain.sim import simulate_layout\n"
        "from terragen.process_pool import WorkerDied\n"
        "try:\n"
        f"    simulate_layout(load_layout({str(example)!r}), games=400, seed=5, workers=2)\n"
        "    print('finished')\n"
        "except WorkerDied as exc:\n"
        "    print('DIED', exc)\n")
    proc = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    died = [ln for ln in proc.stdout.splitlines() if ln.startswith("DIED")]
    assert died, proc.stdout + proc.stderr[-2000:]
    assert 'if __name__ == "__main__":' in died[0] and "out of memory" not in died[0]


def test_the_fork_server_starts_with_interrupts_held_so_a_ctrl_c_cannot_break_its_start(tmp_path):
    """A Ctrl-C reaches the whole process group: the fork server, a fresh interpreter still
    importing ``site``, died printing "Fatal Python error" and a traceback above terragen's one
    line. It was started with the signals unblocked, as the resource tracker had undone the hold."""
    import multiprocessing
    import signal
    import subprocess
    import sys

    if "forkserver" not in multiprocessing.get_all_start_methods() or not Path("/proc/self/status").exists():
        pytest.skip("needs a fork server and /proc")
    script = tmp_path / "probe.py"
    script.write_text(
        "import multiprocessing.forkserver as fs\n"
        "from terragen.interrupts import signals_held\n"
        "from terragen.process_pool import end_pool, start_pool\n"
        "if __name__ == '__main__':\n"
        "    with signals_held():\n"
        "        pool, procs = start_pool(1, 'forkserver')\n"
        "    pid = fs._forkserver._forkserver_pid\n"
        "    print(next(l for l in open(f'/proc/{pid}/status') if l.startswith('SigBlk')).split()[1])\n"
        "    end_pool(pool, procs)\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=True)
    blocked = int(out.stdout.strip(), 16)
    assert blocked >> (signal.SIGINT - 1) & 1 and blocked >> (signal.SIGTERM - 1) & 1


def test_the_quiet_pool_still_finds_the_standard_pools_internals():
    """The pools' handler thread is kept from waking for every result by overriding a private method
    of CPython's Pool (half the parent's CPU in a five-seat search): if a Python release moves those
    internals, this fails loudly, and the code falls back to the standard pool meanwhile."""
    import multiprocessing.pool

    from terragen.process_pool import _quiet_pool_class

    assert hasattr(multiprocessing.pool.Pool, "_get_sentinels")
    quiet = _quiet_pool_class()
    assert quiet is not multiprocessing.pool.Pool
    pool = quiet(1, context=mp.get_context("spawn"))
    try:
        assert pool._get_sentinels() == [pool._change_notifier._reader]
    finally:
        pool.terminate()
        pool.join()
