"""Long jobs (generate, simulate, print) in child processes: progress, results, cancel.

A job runs in its own process so the page stays responsive and Cancel is
immediate (the process is terminated, whatever the search is doing). Each
browser tab may have one job running at a time; the server as a whole runs at
most ``max_running``. Finished jobs keep their result until the same tab starts
another job of the same kind, ``keep_seconds`` pass or ``keep_finished`` newer
ones have finished; the page says so when a link it shows has outlived its job.
"""

from __future__ import annotations

import multiprocessing as mp
import shutil
import tempfile
import threading
import time
import traceback
import uuid
from dataclasses import dataclass, field
from typing import Any

from terragen.web.api import page_words
from terragen.web.tasks import TASKS, TaskFailed, TaskResult


#: how long a running job may go without its page asking about it before a new job may take its
#: place (:meth:`JobManager._stop_abandoned`). Why this long: a browser slows the timers of a tab hidden
#: for five minutes to once a minute (Chrome's intensive throttling), and such a tab's job still lives
ABANDONED_SECONDS = 150.0


class Busy(Exception):
    """This tab already has a job running, or the server is at its job limit."""


def _child(conn: Any, kind: str, args: tuple, scratch: str) -> None:
    """Entry point of the job process: run the task, send progress and one final message. Every
    temporary file it makes goes under ``scratch``, a folder the server made and removes when the
    job ends however it ends: a job cancelled in its first instant was killed before it could
    clean up, and left its folder in /tmp."""
    import signal

    tempfile.tempdir = scratch
    from terragen.errors import TerragenError

    # Ctrl-C in the terminal reaches the whole process group: the server stops its jobs itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Cancel is a SIGTERM and must end the job at once. A job is forked by multiprocessing's fork
    # server, one per process, whose children start with its signal mask; where a simulation pool
    # started it (inside ``signals_held``, in a program that also generates boards, or the tests),
    # SIGTERM came blocked, stayed pending, and every cancel waited 5 s for the SIGKILL
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # (not on Windows, which has no fork server either)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

    def report(progress: dict[str, Any]) -> None:
        conn.send(("progress", progress))

    try:
        result = TASKS[kind](*args, report=report)
        conn.send(("done", result))
    except TaskFailed as exc:
        conn.send(("failed", {"error": exc.message, "exit_code": exc.exit_code}))
    except TerragenError as exc:  # a library error (simulate's): in the page's words
        conn.send(("failed", {"error": page_words(exc.message), "exit_code": exc.exit_code}))
    except Exception as exc:  # an internal error: say so, with the type, never a traceback to the page
        traceback.print_exc()
        conn.send(("failed", {"error": f"internal error: {type(exc).__name__}: {exc}", "exit_code": 70}))
    finally:
        conn.close()


@dataclass
class Job:
    id: str
    tab: str
    kind: str
    process: Any
    conn: Any
    started: float
    deadline: float
    state: str = "running"  # running, done, failed, cancelled
    progress: dict[str, Any] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    result: TaskResult | None = None
    error: dict[str, Any] | None = None
    finished: float | None = None
    scratch: str | None = None  # the job's folder for temporary files, removed when it ends
    seen: float = 0.0  # when its page last asked about it (the page asks four times a second)

    def to_json(self) -> dict[str, Any]:
        end = self.finished or time.monotonic()
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "state": self.state,
                               "elapsed": round(end - self.started, 2), "progress": self.progress,
                               "log": self.log[-20:]}
        if self.result is not None:
            out["result"] = self.result.data
            out["files"] = sorted(self.result.files)
        if self.error is not None:
            out["error"] = self.error["error"]
            out["exit_code"] = self.error["exit_code"]
        return out


def _remove_scratch(job: Job) -> None:
    """The job's temporary folder, gone once its process is (its results travel in memory)."""
    if job.scratch is not None:
        shutil.rmtree(job.scratch, ignore_errors=True)
        job.scratch = None


class JobManager:
    """Starts, polls and cancels jobs; safe to call from the server's threads."""

    def __init__(self, max_running: int = 2, keep_seconds: float = 1800.0, keep_finished: int = 20) -> None:
        self.max_running = max_running
        self.keep_seconds = keep_seconds
        #: finished jobs kept at most, the oldest forgotten first: results (a kit's PDFs) are
        #: megabytes, and without a count 60 kits from new tabs grew the server by 22 MB
        self.keep_finished = keep_finished
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        methods = mp.get_all_start_methods()
        # forkserver: children fork from a clean process, never from the server's threads
        self.ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")

    def start(self, tab: str, kind: str, args: tuple, max_seconds: float) -> Job:
        with self.lock:
            self._reap()
            for job in self.jobs.values():
                self._drain(job)
            if any(j.tab == tab and j.state == "running" for j in self.jobs.values()):
                raise Busy("a job is already running in this tab; wait for it or cancel it first")
            if sum(j.state == "running" for j in self.jobs.values()) >= self.max_running:
                self._stop_abandoned()
            if sum(j.state == "running" for j in self.jobs.values()) >= self.max_running:
                raise Busy(f"the server already runs {self.max_running} jobs; try again when one ends")
            # only the same kind: a simulation must not take away the kit whose links the page still shows
            for old in [j for j in self.jobs.values() if j.tab == tab and j.kind == kind]:
                self._forget(old)
            parent, child = self.ctx.Pipe(duplex=False)
            scratch = tempfile.mkdtemp(prefix="terragen-web-")
            proc = self.ctx.Process(target=_child, args=(child, kind, args, scratch), name=f"terragen-{kind}",
                                    daemon=True)
            try:
                proc.start()
            except BaseException:
                shutil.rmtree(scratch, ignore_errors=True)
                raise
            child.close()
            now = time.monotonic()
            job = Job(uuid.uuid4().hex, tab, kind, proc, parent, now, now + max_seconds, scratch=scratch, seen=now)
            self.jobs[job.id] = job
            return job

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            job = self.jobs.get(job_id)
            if job is not None:
                job.seen = time.monotonic()
                self._drain(job)
            return job

    def cancel(self, job_id: str) -> Job | None:
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None:
                return None
            self._drain(job)
            if job.state == "running":
                self._stop(job, "cancelled", None)
            return job

    def shutdown(self) -> None:
        with self.lock:
            for job in list(self.jobs.values()):
                if job.state == "running":
                    self._stop(job, "cancelled", None)
                self._forget(job)

    def running(self) -> int:
        with self.lock:
            for job in self.jobs.values():
                self._drain(job)
            return sum(j.state == "running" for j in self.jobs.values())

    # -- under the lock ------------------------------------------------------------------
    def _drain(self, job: Job) -> None:
        if job.state != "running" or self._read(job):
            return
        if not job.process.is_alive():
            # read again: the job may have sent its result and ended between the read above and
            # this look (its messages stay in the pipe after it ends), and that is a finished job
            if self._read(job):
                return
            self._finish(job, "failed")
            job.error = {"error": "the job stopped unexpectedly", "exit_code": 70}
        elif time.monotonic() > job.deadline:
            self._stop(job, "failed", {"error": "the job ran past its time limit and was stopped", "exit_code": 4})

    def _read(self, job: Job) -> bool:
        """Take in what the job has sent so far; True once it has ended (done or failed)."""
        try:
            while job.conn.poll():
                kind, payload = job.conn.recv()
                if kind == "progress":
                    job.progress = payload
                    if payload.get("message") and "done" not in payload:
                        job.log.append(payload["message"])
                elif kind == "done":
                    self._finish(job, "done")
                    job.result = payload
                    return True
                else:
                    self._finish(job, "failed")
                    job.error = payload
                    return True
        except (EOFError, OSError):
            pass
        return False

    def _finish(self, job: Job, state: str) -> None:
        job.state = state
        job.finished = time.monotonic()
        job.process.join(timeout=5)
        job.conn.close()
        _remove_scratch(job)

    def _stop(self, job: Job, state: str, error: dict[str, Any] | None) -> None:
        job.process.terminate()
        job.process.join(timeout=5)
        if job.process.is_alive():
            job.process.kill()
            job.process.join(timeout=5)
        job.state = state
        job.error = error
        job.finished = time.monotonic()
        job.conn.close()
        _remove_scratch(job)

    def _stop_abandoned(self) -> None:
        """Stop the running jobs no page has asked about for :data:`ABANDONED_SECONDS`, to make room.

        Why: a tab that closes cancels its job, but a browser that crashes or is killed says nothing,
        and its jobs ran on to their time limit while every other tab was told the server was full.
        Only when room is wanted, one job at a time, and only after a long silence: a page asks four
        times a second, and a browser slows a hidden tab's timers to once a minute at most."""
        now = time.monotonic()
        silent = [job for job in self.jobs.values() if job.state == "running" and now - job.seen > ABANDONED_SECONDS]
        if silent:  # the one silent longest: room for one job is what is wanted
            job = min(silent, key=lambda j: j.seen)
            self._stop(job, "cancelled", {"error": f"stopped: no page asked about this job for "
                                          f"{ABANDONED_SECONDS:g} s, and another needed its place",
                                          "exit_code": 130})

    def _forget(self, job: Job) -> None:
        self.jobs.pop(job.id, None)

    def _reap(self) -> None:
        now = time.monotonic()
        for job in list(self.jobs.values()):
            if job.finished is not None and now - job.finished > self.keep_seconds:
                self._forget(job)
        done = sorted((j for j in self.jobs.values() if j.finished is not None), key=lambda j: j.finished)
        for job in done[:max(0, len(done) - self.keep_finished)]:
            self._forget(job)
