"""A pool of game-playing processes that lives across many simulations of one search.

Why not ``simulate_layout(workers=...)``: that forks a new pool per call, and the
generator simulates many times per board (tuning rounds, verifications), each call
too short to pay for new processes and new per-board tables. Here the workers are
started once per :class:`GamePool` and keep the tables of the board they played
last (``runner._setup_and_tables``), so a board simulated again costs them nothing
but the layout's few kilobytes per work item.

Why forkserver: the generator runs CP-SAT, whose native threads may hold locks at
the moment of a ``fork``; a child forked from that process can hang on them. The
fork server is a clean single-threaded process that forks the workers.

Why a window of work items in flight instead of ``imap``: the caller may stop a
run between items (the generator's time limit); with only a few items in flight,
stopping costs at most those, and the workers are idle and usable for the next run.

Results never depend on the number of workers: game ``i`` depends on the seed and
``i`` only, and the items come back in order.
"""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.pool
import os
import time
from collections import deque
from collections.abc import Callable, Sequence

from terragen.process_pool import POLL, check_workers, end_pool, start_pool
from terragen.terrain.layout import Layout
from terragen.terrain.sim.engine import GameResult
from terragen.terrain.sim.runner import CHUNK, run_games
from terragen.terrain.sim.variants import Rules

#: Environment variable that sets the generator's number of simulation processes (1: none).
WORKERS_ENV = "TERRAGEN_WORKERS"
#: Games per work item sent to a worker, at most: about 0.1 s of greedy 4-seat play, so the
#: layout sent with each item and the results coming back cost well under 1% of it, and a
#: stop request waits for little. Smaller runs use smaller items so both workers get work.
MAX_ITEM = 250
#: Work items per worker a run is cut into, at least (so the last items end close together).
ITEMS_PER_WORKER = 4
#: Work items in flight per worker: one running, one queued so a worker never waits for the parent.
AHEAD = 2
#: Runs of at least this many games time the machine's pace apart from shorter ones (``seconds_per_game``).
LARGE_RUN = 1000
#: Below this many games a run stays in this process: the work would not cover the messages.
#: Why not more: a six-seat screen's first look is 78 games (``class_search.SCREEN_GLANCE``); played
#: here, one core idled through it (about 70 ms of greedy play), and pooling it took 1.05x off
#: whole six-seat runs (same boards; ``bench/README.md``, "Short runs pooled").
MIN_POOLED = 2 * CHUNK


def _item_size(games: int, workers: int) -> int:
    """Games per work item: ``ITEMS_PER_WORKER`` items per worker, of ``CHUNK`` to ``MAX_ITEM``
    games; a run too short for that is cut into two items per worker, so both workers get
    equal shares of it."""
    smallest = min(CHUNK, -(-games // (2 * workers)))
    return max(smallest, min(MAX_ITEM, -(-games // (ITEMS_PER_WORKER * workers))))


def _policy_name(policy_specs: Sequence) -> str:
    """The kind of player a run's timing is kept under: its first seat's (the generator's runs
    give every seat the same)."""
    first = policy_specs[0] if policy_specs else ""
    return first if isinstance(first, str) else getattr(first, "name", type(first).__name__)


#: simulated turns of the budget's mix (greedy and solitary players) that take as long as one
#: turn of these kinds of player, for :attr:`GamePool.turns_played`. Measured inside the generator
#: (``bench/expert_work_weight.py``, 2-core AMD EPYC VM, 2026-11-30, 4 and 6 seats, medium and
#: hard, seeds 4701-4702): experts played 12,000 and 8,800 turns a second against 237,000 and
#: 173,000 for the mix, 19.7 and 19.6 times as long a turn. Measured without the compiled table
#: kernels (``expected.COMPILED``), with which an expert turn costs 1.4-1.8 times less, and kept so:
#: a machine without a C compiler must still reach the budget before the clock, or the same seed
#: would give it another board
TURN_WORK = {"expert": 20}


def _work_of(games: Sequence[GameResult], policy_specs: Sequence) -> int:
    """The turns ``games`` count for in the work budget (:data:`TURN_WORK`)."""
    return TURN_WORK.get(_policy_name(policy_specs), 1) * sum(g.total_turns for g in games)


def _get_ready() -> None:
    """A worker's first task in a pool started early (:meth:`GamePool.start_early`): import what
    games and exact solo chains need (this module brought the game code in with it)."""
    import terragen.terrain.sim.lone_chain  # noqa: F401


class Stopped(Exception):
    """A run was stopped between work items because the caller's ``should_stop()`` said so."""


def default_workers() -> int:
    """Processes to simulate with: ``TERRAGEN_WORKERS`` when set, else one per core up to two.

    Two because the project's target machines have two cores, and each worker warms
    its own per-board tables, so workers beyond the cores only add warm-ups.
    """
    text = os.environ.get(WORKERS_ENV, "").strip()
    if text:
        try:
            value = int(text)
        except ValueError:
            value = 0
        from terragen.process_pool import max_workers

        if not 1 <= value <= max_workers():
            from terragen.errors import InputError

            raise InputError(f"{WORKERS_ENV} must be a whole number from 1 to {max_workers()} (four per core "
                             f"here), got {text!r}")
        return value
    return max(1, min(2, os.cpu_count() or 1))


class GamePool:
    """Worker processes for :func:`run_games`, started on first need and kept until :meth:`close`.

    Use it as a context manager: leaving the block (normally, by an exception, by
    Ctrl-C or SIGTERM) ends the workers. With one worker no process is started and
    every run plays in this process. As with any fork-server or spawn pool, a script
    that uses one must guard its top level with ``if __name__ == "__main__":`` (the
    workers import the script's file).
    """

    def __init__(self, workers: int | None = None) -> None:
        # a daemonic process (a web job, another pool's worker) may not start processes
        self.workers = 1 if mp.current_process().daemon else default_workers() if workers is None else max(1, workers)
        self._pool: multiprocessing.pool.Pool | None = None
        self._workers: list[mp.process.BaseProcess] = []
        #: turns played by all seats in every run that returned whole (a run stopped part-way adds
        #: nothing, so the count moves only at points that do not depend on timing), a kind of
        #: player's turns weighted by what they cost (:data:`TURN_WORK`): a count of the work done
        #: that does not depend on the machine or the number of workers (the generator's budget)
        self.turns_played = 0
        #: per (kind of player, large run or not), [games, wall seconds] of the runs of
        #: :meth:`run` that returned whole: how long this machine, now, takes per game
        self._timed: dict[tuple[str, bool], list[float]] = {}

    def seconds_per_game(self, policy: str) -> float:
        """Wall seconds per game that ``policy`` players took in this pool's runs so far (0.0
        before any): what the generator plans the work after its search by. Runs of at least
        ``LARGE_RUN`` games count alone once there are any: short runs (a screen's first look)
        pay more per game for warming a new board's tables and for the last item's wait, and
        read 6-seat games about 1.5x slower than a fresh check plays them. Machine-dependent,
        so it may only ever decide things the clock decides anyway."""
        games, seconds = self._timed.get((policy, True)) or self._timed.get((policy, False)) or (0, 0.0)
        return seconds / games if games else 0.0

    def __enter__(self) -> GamePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, layout: Layout, rules: Rules, policy_specs: Sequence, seed: int, start: int, stop: int,
            should_stop: Callable[[], bool] | None = None,
            progress: Callable[[int], None] | None = None, twins: Sequence[int] | None = None,
            cycle: bool = False) -> list[GameResult]:
        """Exactly ``run_games(layout, rules, policy_specs, seed, start, stop, twins, cycle)``, spread over the workers.

        ``should_stop`` is asked between work items; when it returns True the run
        raises :class:`Stopped` and the pool stays usable. ``progress`` gets the number
        of games done after each item. Policy objects must be picklable.
        """
        if self._spreads(stop - start):
            self._started()  # the workers' start is not a game's time
        began = time.monotonic()
        games = self._run_spread(layout, rules, policy_specs, seed, start, stop, should_stop, progress, twins, cycle)
        timed = self._timed.setdefault((_policy_name(policy_specs), len(games) >= LARGE_RUN), [0, 0.0])
        timed[0] += len(games)
        timed[1] += time.monotonic() - began
        self.turns_played += _work_of(games, policy_specs)  # whole runs only: a stopped one raised
        return games

    def _spreads(self, games: int) -> bool:
        """Whether a run of ``games`` games goes to the workers (else it is played here)."""
        return self.workers > 1 and games >= MIN_POOLED

    def _run_spread(self, layout: Layout, rules: Rules, policy_specs: Sequence, seed: int, start: int, stop: int,
                    should_stop: Callable[[], bool] | None,
                    progress: Callable[[int], None] | None, twins: Sequence[int] | None,
                    cycle: bool = False) -> list[GameResult]:
        if not self._spreads(stop - start):
            return self._run_here(layout, rules, policy_specs, seed, start, stop, should_stop, progress, twins, cycle)
        size = _item_size(stop - start, self.workers)
        items = iter([(a, min(a + size, stop)) for a in range(start, stop, size)])
        pool = self._started()
        pending: deque = deque()
        out: list[GameResult] = []

        def send() -> None:
            item = next(items, None)
            if item is not None:
                pending.append(pool.apply_async(run_games, (layout, rules, policy_specs, seed, *item, twins, cycle)))

        try:
            for _ in range(AHEAD * self.workers):
                send()
            while pending:
                out.extend(self._result(pending.popleft()))
                if progress is not None:
                    progress(len(out))
                if pending and should_stop is not None and should_stop():
                    self._drain(pending)
                    raise Stopped
                send()
        except Stopped:
            raise
        except BaseException:
            # an error in a worker, or an interrupt here: items may still be running, so the
            # workers are ended rather than left to finish work nobody will read
            self.close()
            raise
        return out

    def run_each(self, jobs: Sequence[tuple], should_stop: Callable[[], bool] | None = None) -> list[list[GameResult]]:
        """``[run_games(*job) for job in jobs]``, each job played whole by one worker.

        For many small runs of different layouts (the generator's solo games, a few
        hundred games each): splitting one of them over the workers would make each worker
        warm that layout's tables, so the jobs are spread instead. ``should_stop`` is asked
        between jobs (:class:`Stopped`).
        """
        runs = self.map_each(run_games, jobs, should_stop)
        self.turns_played += sum(_work_of(games, job[2]) for games, job in zip(runs, jobs))
        return runs

    def map_each(self, fn: Callable, jobs: Sequence[tuple], should_stop: Callable[[], bool] | None = None) -> list:
        """``[fn(*job) for job in jobs]`` in order, each job done whole by one worker (here with
        one worker or one job). ``fn`` must be a module-level function and the jobs picklable.
        ``should_stop`` is asked between jobs (:class:`Stopped`). Counts no work: what the jobs
        are worth to the work budget is the caller's to say (:meth:`count_work`)."""
        if self.workers <= 1 or len(jobs) < 2:
            out = []
            for job in jobs:
                if out and should_stop is not None and should_stop():
                    raise Stopped
                out.append(fn(*job))
            return out
        pool = self._started()
        todo = iter(jobs)
        pending: deque = deque()
        out = []
        try:
            for job in todo:
                pending.append(pool.apply_async(fn, job))
                if len(pending) >= AHEAD * self.workers:
                    break
            while pending:
                out.append(self._result(pending.popleft()))
                if pending and should_stop is not None and should_stop():
                    self._drain(pending)
                    raise Stopped
                job = next(todo, None)
                if job is not None:
                    pending.append(pool.apply_async(fn, job))
        except Stopped:
            raise
        except BaseException:
            self.close()
            raise
        return out

    def count_work(self, turns: int) -> None:
        """Count work done outside the pool's runs (the generator's exact solo chains) in
        :attr:`turns_played`, as the simulated turns that take as long: the work budget then
        keeps its meaning, and a count that does not depend on the clock."""
        self.turns_played += turns

    @staticmethod
    def _run_here(layout: Layout, rules: Rules, policy_specs: Sequence, seed: int, start: int, stop: int,
                  should_stop: Callable[[], bool] | None,
                  progress: Callable[[int], None] | None, twins: Sequence[int] | None,
                  cycle: bool = False) -> list[GameResult]:
        out: list[GameResult] = []
        for a in range(start, stop, CHUNK):
            if a > start and should_stop is not None and should_stop():
                raise Stopped
            out.extend(run_games(layout, rules, policy_specs, seed, a, min(a + CHUNK, stop), twins, cycle))
            if progress is not None:
                progress(len(out))
        return out

    def _result(self, item):
        """The item's result (a run's games); WorkerDied when a worker is gone (``Pool`` would replace it and
        wait forever for the item it had)."""
        while not item.ready():
            item.wait(POLL)
            if not item.ready():
                check_workers(self._workers, "simulation")
        return item.get()

    @staticmethod
    def _drain(pending: deque) -> None:
        """Wait for the items in flight (at most ``AHEAD`` per worker, a fraction of a second)
        so the next run does not queue behind them."""
        while pending:
            pending.popleft().wait()

    def start_early(self) -> None:
        """Start the workers now and have each import the simulation code, without waiting for
        either: for a caller that knows it will simulate after some work of its own.

        Why: a pool otherwise starts at its first run, and that run waits for the workers to
        import the simulation modules and the game code (about 0.2 s of a two-seat ``generate``
        of 1 s on the reference VM), while the caller's own work before it (the generator's
        first terrain) leaves the other core idle. Results do not change: they never depend
        on when or where the games are played."""
        if self.workers <= 1:
            return
        pool = self._started()
        for _ in range(self.workers):
            pool.apply_async(_get_ready)

    def _started(self) -> multiprocessing.pool.Pool:
        if self._pool is None:
            from terragen.interrupts import signals_held

            method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
            with signals_held():  # a pool started is a pool :meth:`close` can end
                self._pool, self._workers = start_pool(self.workers, method)
        return self._pool

    def close(self) -> None:
        """End the workers at once (:func:`terragen.process_pool.end_pool`): nothing is left
        to run once the owner is done."""
        pool, self._pool = self._pool, None
        if pool is not None:
            end_pool(pool, self._workers)
        self._workers = []
