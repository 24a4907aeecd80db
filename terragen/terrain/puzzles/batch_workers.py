"""Where a puzzle batch's scenarios are computed: in this process, in local worker processes, or on Dask.

Workers only compute: scenario ``i`` depends on ``(seed, i)`` alone and comes
back as text (its JSON, its SVG and its manifest row), and the caller writes
the files. So the files are the same whatever the number of workers or the
order results arrive in, and a worker that dies loses no file. Dask is
imported only when the Dask backend is used.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from terragen.errors import InputError
from terragen.formats import json_file_text
from terragen.terrain.puzzles.batch_manifest import digest

Task = tuple[str, str, int, int]  # (kind, difficulty, seed, index)
#: (index, JSON text, SVG text, manifest row) of one scenario
Result = tuple[int, str, str, dict[str, Any]]


def build_scenario(task: Task) -> Result:
    """Compute scenario ``index`` (no I/O): its JSON text, SVG text and manifest row.

    It returns text rather than writing, so that the main process alone writes files
    (one all-or-nothing pair per scenario) and an interrupted run leaves nothing half-written."""
    from terragen.render.kits.terrain.booklet import answer_text, scenario_svg
    from terragen.terrain.puzzles import make_puzzle

    kind, difficulty, seed, index = task
    p = make_puzzle(kind, difficulty, seed, index)
    data = p.to_data()
    text = json_file_text(data)
    svg = scenario_svg(data)
    row = {"index": index, "id": p.ident, "kind": p.kind, "difficulty": difficulty, "grade": p.metrics["grade"],
           "json": f"scenarios/{p.ident}.json", "svg": f"scenarios/{p.ident}.svg", "answer": answer_text(data),
           "metrics": p.metrics, "sha256": {"json": digest(text), "svg": digest(svg)}}
    return index, text, svg, row


def run_local(tasks: list[Task], workers: int) -> Iterator[Result]:
    """Results as they finish, over ``workers`` local processes (inline for one worker).

    The pool ends through :func:`terragen.process_pool.end_pool` (``Pool.terminate()`` can
    hang after Ctrl-C), and a worker that dies is an error, not a wait for a result that
    never comes."""
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield build_scenario(t)
        return
    import multiprocessing as mp
    import time

    from terragen.interrupts import signals_held
    from terragen.process_pool import POLL, check_workers, end_pool, start_pool

    pool = None
    try:
        with signals_held():  # a pool started is a pool the ``finally`` ends
            pool, procs = start_pool(min(workers, len(tasks)), "fork" if "fork" in mp.get_all_start_methods() else "spawn")
        results = pool.imap_unordered(build_scenario, tasks, chunksize=1)
        checked = time.monotonic()
        for _ in tasks:
            while True:
                try:
                    item = results.next(POLL)
                    break
                except mp.TimeoutError:
                    check_workers(procs, "batch")
            # also while results keep coming: the pool replaces a killed worker, and the others'
            # results never let the wait above time out until only the lost task was left
            if time.monotonic() - checked >= POLL:
                check_workers(procs, "batch")
                checked = time.monotonic()
            yield item
    finally:
        if pool is not None:
            end_pool(pool, procs)


def run_dask(tasks: list[Task], workers: int, scheduler: str | None) -> Iterator[Result]:
    """Results as they finish on a Dask cluster (the given scheduler, or a local one with ``workers``).

    It connects at once, not when the first result is asked for, so a scheduler that cannot be
    reached stops the run before it touches the output folder."""
    import logging

    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError("--backend dask needs Dask distributed: pip install 'terragen[distributed]'") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout=10)
        else:
            # its processes share the terminal's process group, so Ctrl-C reached them too, and each
            # printed its tracebacks above terragen's one line: they start with SIGINT ignored, which
            # a new process inherits and Python then leaves alone; this process stops them
            cluster = _quiet_local_cluster(LocalCluster, workers, logging.CRITICAL)
            client = Client(cluster)
    except OSError as exc:
        raise InputError(f"cannot reach Dask scheduler {scheduler!r}: {exc}") from None
    except (ValueError, TypeError) as exc:  # an address Dask cannot parse ('garbage!!', no port)
        raise InputError(f"--scheduler {scheduler!r} is not a Dask scheduler address (e.g. tcp://host:8786): "
                         f"{exc}") from None
    return _dask_results(client, cluster, tasks)


def _quiet_local_cluster(local_cluster: Any, workers: int, log_level: int) -> Any:
    """A local cluster whose processes ignore Ctrl-C. The creation waits for its workers, so they
    are all started (from the cluster's own threads) while SIGINT is ignored here: a Ctrl-C in those
    two seconds or so is lost (SIGTERM still stops the run), and every one after reaches terragen
    alone."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return local_cluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                             dashboard_address=None, silence_logs=log_level)
    finally:
        signal.signal(signal.SIGINT, previous)


def _dask_results(client: Any, cluster: Any, tasks: list[Task]) -> Iterator[Result]:
    from distributed import as_completed

    try:
        futures = client.map(build_scenario, tasks, pure=False)
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
