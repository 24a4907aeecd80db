"""Puzzle batches: many scenarios, each proven unique, with manifests and a booklet, in one folder.

:func:`run_batch` is the engine behind ``terragen batch``; the command only
parses its options, draws the progress bar and prints the outcome.

The work is split so that interruption is harmless: workers only compute
(scenario ``i`` depends on ``(seed, i)`` alone and comes back as text, see
:mod:`terragen.terrain.puzzles.batch_workers`), this module writes each
scenario's JSON and SVG as one all-or-nothing pair and then, from time to time
and always on the way out, both manifests as one set
(:mod:`terragen.terrain.puzzles.batch_manifest`), so after Ctrl-C, SIGTERM or
even SIGKILL every scenario the manifest lists is complete on disk and a
resumed run computes only the rest (a scenario written after the last manifest
is simply computed again, to the same bytes). The manifest is rewritten only
after its row count has grown by a fixed share or a few seconds have passed,
so the whole run stays linear in the count. The booklet is drawn at the end
from the scenario files, page by page, so its memory does not grow with the
count. The output folder is locked for the run, so two batches cannot mix
their scenarios in one folder.

Errors are :class:`~terragen.errors.TerragenError` subclasses with one-line
messages. Those about the folder's state name the settings as the command line
spells them (``--resume``, ``--force``, ``--out``, ``--count``), which are also
:func:`run_batch`'s parameter names.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from terragen.errors import InputError, SpecError
from terragen.limits import MAX_BATCH_COUNT
from terragen.terrain.puzzles.batch_manifest import (CSV_FIELDS, SCENARIO_FILE, read_manifest, resumable_rows,
                                                      scenario_files, write_manifest)
from terragen.terrain.puzzles.batch_workers import Result, Task, build_scenario, run_dask, run_local

#: the most scenarios one batch holds
MAX_COUNT = MAX_BATCH_COUNT
#: The manifest is rewritten once the rows not yet in it reach this share of all rows...
MANIFEST_GROWTH = 1 / 16
#: ... or this many seconds after the last rewrite (a rewrite costs O(rows), so both keep the run linear).
MANIFEST_SECONDS = 3.0


def lock_folder(out: Path) -> int:
    """Hold an exclusive lock on the output folder for this run; OutputError if another batch holds it.

    The lock is on the folder itself (no lock file to leave behind) and ends with the process,
    however it ends. Returns the descriptor holding it: closing it releases the lock.
    """
    import fcntl

    from terragen.errors import OutputError
    from terragen.fileio import display_name

    fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise OutputError(f"{display_name(out)}: another terragen batch is writing into this folder "
                          "(wait for it to finish, or choose another --out)") from None
    return fd


def run_batch(count: int, kind: str, difficulty: str, seed: int, out: str | Path, workers: int | None = None,
              resume: bool = False, backend: str = "local", scheduler: str | None = None,
              progress: Callable[[int, int], None] | None = None, booklet: bool = True,
              on_result: Callable[[int], None] | None = None, force: bool = False,
              status: dict[str, Any] | None = None, paper: str = "a4") -> dict[str, Any]:
    """Produce the batch of ``count`` scenarios ``(kind, difficulty, seed)`` in folder ``out``.

    Returns a summary: ``count`` (scenarios in the folder), ``computed`` (by this run),
    ``files`` (the manifests and the booklet, relative to ``out``) and ``grades`` (in index
    order), ``unchanged`` (a resumed batch that was already whole: nothing written). Raises InputError/SpecError on bad input or a folder that holds another batch,
    OutputError when a file cannot be written or another batch holds the folder,
    InfeasibleError when a scenario cannot be made with this seed, and WorkerDied when a
    worker process ends; KeyboardInterrupt (and the signals :mod:`terragen.interrupts`
    turns into it) keeps every finished scenario for a ``resume=True`` run.

    ``workers`` None or 0 means one process per CPU core; ``backend`` ``"dask"`` runs on
    ``scheduler`` (or a local Dask cluster). A folder that already holds a batch is never
    touched unless ``resume`` (continue it: same kind, difficulty and seed; ``count`` may grow)
    or ``force`` (start it again) is given. ``progress(done, count)`` is called as scenarios
    finish (and once at the start, with those a resume keeps), ``on_result(index)`` after each
    scenario's files are written. ``status`` (when given) gets ``old_batch_intact``: whether a
    ``force`` run stopped before it removed the batch it replaces, so a stopped run's last
    line can say what the folder holds."""
    from terragen.terrain.puzzles import DIFFICULTIES, KINDS, MIX
    from terragen.terrain.puzzles.grading import preset

    status = status if status is not None else {}
    status["old_batch_intact"] = force
    from terragen.arguments import check_seed, check_whole

    count = check_whole(count, "count", 1, MAX_COUNT, InputError)  # "3" failed deep inside as a TypeError
    seed = check_seed(seed)  # -1 made a batch that the command then refused to resume
    if backend not in ("local", "dask"):  # "bogus" ran locally without a word
        raise SpecError(f"backend must be 'local' or 'dask', not {backend!r}")
    if kind != MIX and kind not in KINDS:
        raise InputError(f"unknown kind {kind!r} (choose {', '.join(KINDS)} or {MIX})")
    if difficulty not in DIFFICULTIES:
        raise InputError(f"unknown difficulty {difficulty!r} (choose {', '.join(DIFFICULTIES)})")
    for k in KINDS:
        preset(k, difficulty)
    if booklet:  # the booklet comes last: a date reportlab cannot use failed after every scenario
        from terragen.render.pdf import check_source_date_epoch

        check_source_date_epoch()
    from terragen.process_pool import worker_count

    if backend == "dask" and scheduler:  # a cluster's own workers play; workers is not used
        workers = workers or 1
    else:
        workers = worker_count(workers or 0, "workers")  # None or 0: one per CPU core
    from terragen.fileio import check_out_folder, check_writable_folder, make_folder

    outp = Path(out)
    check_out_folder(out)  # as given: a library caller's "-" is refused, its Path("./-") is a folder
    check_out_folder(outp / "scenarios")  # a file in the way fails here, before a manifest is written
    check_writable_folder(outp)  # a read-only folder: before any scenario is computed
    created = _missing_folders(outp / "scenarios")
    make_folder(outp)
    lock = lock_folder(outp)
    try:
        return _run_locked(count, kind, difficulty, seed, outp, workers, resume, backend, scheduler, progress,
                           booklet, on_result, force, status, paper)
    finally:
        _remove_empty(created)  # while the lock is held: no other batch can have taken the folder yet
        os.close(lock)


def _missing_folders(path: Path) -> list[Path]:
    """``path`` and those of its parents that do not exist yet, deepest first."""
    out = []
    for p in (path, *path.parents):
        if os.path.lexists(p):
            break
        out.append(p)
    return out


def _remove_empty(folders: list[Path]) -> None:
    """Take away the folders this run made that it left empty (deepest first): a run refused after
    the folder was made (a Dask scheduler out of reach) or stopped before its first scenario left
    an empty folder, which generate and kit never do. A folder with anything in it stays."""
    for p in folders:
        if not os.path.lexists(p):
            continue  # never made (the run stopped before its first scenario)
        try:
            p.rmdir()
        except OSError:
            return  # not empty (or not ours to remove): nor are its parents


def _refuse_files_in_the_way(outp: Path, kind: str, count: int, booklet: bool) -> None:
    """A folder with no batch in it may still hold files of the names a batch writes (a user's own,
    or a batch whose manifest was deleted): replacing them needs --force, as for every command."""
    from terragen.terrain.puzzles import kind_for
    from terragen.terrain.puzzles.model import scenario_ident

    names = ["manifest.json", "manifest.csv"] + (["booklet.pdf"] if booklet else [])
    names += [f"scenarios/{scenario_ident(i, kind_for(kind, i))}.{ext}" for i in range(count) for ext in ("json", "svg")]
    in_the_way = [name for name in names if os.path.lexists(outp / name)]
    if in_the_way:
        more = f" (and {len(in_the_way) - 1} more)" if len(in_the_way) > 1 else ""
        raise InputError(f"{outp / in_the_way[0]}{more} exists already and is not part of a batch this folder "
                         "holds: add --force to replace it, or choose another --out")


def _check_output_files(outp: Path, kind: str, count: int, booklet: bool) -> None:
    """What writing a file of the batch would refuse stops the run before any scenario is computed,
    not after all of them: a folder where a manifest, the booklet or a scenario goes is refused as
    generate and kit refuse one (exit 2), a device or a link to nothing or to a stream as the
    write would (exit 73)."""
    from terragen.fileio import check_file_name, output_target
    from terragen.terrain.puzzles import kind_for
    from terragen.terrain.puzzles.model import scenario_ident

    for name in ["manifest.json", "manifest.csv"] + (["booklet.pdf"] if booklet else []):
        check_file_name(outp / name)
        output_target(outp / name)
    for i in range(count):
        for ext in ("json", "svg"):
            path = outp / "scenarios" / f"{scenario_ident(i, kind_for(kind, i))}.{ext}"
            if os.path.lexists(path):
                check_file_name(path)
                output_target(path)


def _remove_old_batch(outp: Path, old_files: set[Path], booklet: bool, status: dict[str, Any]) -> None:
    """Remove the batch ``--force`` replaces, all at once with interrupts held back: its manifests,
    its booklet (or a file of that name this run will write) and the scenario files it lists.
    ``status`` says it is gone inside the same hold: an interrupt held back during the removal is
    raised as the hold ends, and a stopped run then said the folder was as it was."""
    from terragen.interrupts import signals_held

    names = ["manifest.json", "manifest.csv"]
    if booklet or old_files or (outp / "manifest.json").is_file():
        names.append("booklet.pdf")
    with signals_held():
        removed = _remove_files([*(outp / name for name in names), *sorted(old_files)])
        status["old_batch_intact"] = False
        status["old_batch_removed"] = removed  # (--force into a folder that held no batch removes nothing)


def _remove_files(paths: list[Path]) -> bool:
    """Remove those of ``paths`` that are files (or links), all at once with interrupts held back;
    whether any was there."""
    from terragen.interrupts import signals_held

    removed = False
    with signals_held():
        for path in paths:
            if path.is_file() or path.is_symlink():
                path.unlink(missing_ok=True)
                removed = True
    return removed


def _run_locked(count: int, kind: str, difficulty: str, seed: int, outp: Path, workers: int, resume: bool,
                backend: str, scheduler: str | None, progress: Callable[[int, int], None] | None, booklet: bool,
                on_result: Callable[[int], None] | None, force: bool, status: dict[str, Any],
                paper: str = "a4") -> dict[str, Any]:
    import time

    from terragen.fileio import OutputSet, remove_stray_temporaries

    batch = {"kind": kind, "difficulty": difficulty, "seed": seed}
    rows: dict[int, dict[str, Any]] = {}
    remade = 0
    _check_output_files(outp, kind, count, booklet)
    replaced = scenario_files(outp) if force else set()
    old = None if force else read_manifest(outp)
    if old is not None:
        if not resume:
            raise InputError(f"{outp} already holds a batch: add --resume to continue it, --force to start it "
                             "again, or choose another --out")
        rows = resumable_rows(outp, old, batch, count)
        # the earlier run's scenarios whose files were damaged or gone: made again (the same bytes),
        # and said, since the user may want to know what touched the folder
        remade = len({r["index"] for r in old["scenarios"] if isinstance(r, dict) and isinstance(r.get("index"), int)
                      and not isinstance(r["index"], bool) and 0 <= r["index"] < count} - set(rows))
    elif not force:
        _refuse_files_in_the_way(outp, kind, count, booklet)
    remove_stray_temporaries(outp)  # a killed run's half-written files; safe, the folder is locked
    remove_stray_temporaries(outp / "scenarios")
    batch["count"] = count
    if booklet:  # the booklet's paper: a resume on other paper makes the booklet again
        batch["paper"] = paper
    tasks = [(kind, difficulty, seed, i) for i in range(count) if i not in rows]
    if old is not None and not tasks and _complete(outp, batch, rows, booklet):
        # a finished batch resumed (scripts are told to always pass --resume): nothing to compute and
        # nothing to write; drawing the booklet again took 13 s for 500 puzzles and touched every file
        return {"count": len(rows), "computed": 0, "remade": 0, "files": _files(booklet),
                "grades": [rows[i]["grade"] for i in sorted(rows)], "unchanged": True}
    if old is not None:
        # the booklet of the batch being continued (a larger count, damaged scenarios, another paper)
        # would sit beside a manifest it no longer matches until this run ends, and for good if it
        # stops: a run stopped while drawing a new paper's booklet left the old paper's, which the
        # next resume then took for whole (found in review). A whole batch returned above.
        _remove_files([outp / "booklet.pdf"])
    if progress:
        progress(len(rows), count)
    results = run_dask(tasks, workers, scheduler) if backend == "dask" else run_local(tasks, workers)
    last_write, saved_rows = time.monotonic(), len(rows)
    # force: the old batch goes as a whole just before the first new scenario is written, so a
    # run stopped early leaves the old batch whole or a part of the new one (which a resume
    # continues), never scenarios of two batches beside one manifest
    try:
        for index, text, svg, row in results:
            if status["old_batch_intact"]:
                _remove_old_batch(outp, replaced, booklet, status)
            if not rows and not (outp / "manifest.json").exists():
                # the folder holds a batch before its first scenario file: a disk that filled while
                # the first manifest was written left scenario files no resume would take
                write_manifest(outp, batch, rows)
            with OutputSet() as pair:
                pair.add(outp / row["json"], text)
                pair.add(outp / row["svg"], svg)
            rows[index] = row
            if (len(rows) - saved_rows >= MANIFEST_GROWTH * len(rows)
                    or time.monotonic() - last_write >= MANIFEST_SECONDS):
                write_manifest(outp, batch, rows)
                last_write, saved_rows = time.monotonic(), len(rows)
            if progress:
                progress(len(rows), count)
            if on_result:
                on_result(index)
        if status["old_batch_intact"]:  # no scenario to compute (a batch of none)
            _remove_old_batch(outp, replaced, booklet, status)
    finally:
        if not status["old_batch_intact"]:
            if rows or old is not None:
                write_manifest(outp, batch, rows)
            else:  # a run that produced nothing leaves no batch behind (not even the first manifest)
                _remove_files([outp / "manifest.json", outp / "manifest.csv"])
    files = _files(booklet)
    if booklet:
        from terragen.render.kits.terrain.booklet import booklet_pdf

        title = f"{kind} puzzles, {difficulty}, seed {seed}"
        paths = [outp / rows[i]["json"] for i in sorted(rows)]
        with OutputSet() as out:
            out.add(outp / "booklet.pdf", booklet_pdf(paths, paper, title=title))
    grades = [rows[i]["grade"] for i in sorted(rows)]
    return {"count": len(rows), "computed": len(tasks), "remade": remade, "files": files, "grades": grades,
            "unchanged": False}


def _files(booklet: bool) -> list[str]:
    """The files a batch writes beside its scenarios."""
    return ["manifest.json", "manifest.csv"] + (["booklet.pdf"] if booklet else [])


def _complete(outp: Path, batch: dict[str, Any], rows: dict[int, dict[str, Any]], booklet: bool) -> bool:
    """Whether the folder already holds this whole batch: its manifests as this run would write them
    (the same settings and paper, every scenario intact) and, if one is asked for, a whole booklet (a
    PDF from its header to its end marker: a copy cut short is drawn again)."""
    from terragen.terrain.puzzles.batch_manifest import manifests_hold

    if not manifests_hold(outp, batch, rows):
        return False
    if not booklet:
        return True
    try:
        with open(outp / "booklet.pdf", "rb") as f:
            head = f.read(5)
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 1024))
            tail = f.read()
    except OSError:
        return False
    return head == b"%PDF-" and b"%%EOF" in tail


__all__ = ["CSV_FIELDS", "MANIFEST_GROWTH", "MANIFEST_SECONDS", "MAX_COUNT", "SCENARIO_FILE", "Result", "Task",
           "build_scenario", "lock_folder", "read_manifest", "run_batch", "run_dask", "run_local", "write_manifest"]
