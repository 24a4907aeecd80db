"""``terragen batch``: many puzzle scenarios, each proven unique, with manifest and booklet.

The work is split so that interruption is harmless: workers only compute
(scenario ``i`` depends on ``(seed, i)`` alone and comes back as text), the
main process writes each scenario's JSON and SVG as one all-or-nothing pair
and then, from time to time and always on the way out, both manifests as one
set, so after Ctrl-C, SIGTERM or even SIGKILL every scenario the manifest
lists is complete on disk and ``--resume`` computes only the rest (a scenario
written after the last manifest is simply computed again, to the same bytes).
The manifest is rewritten only after its row count has grown by a fixed share
or a few seconds have passed, so the whole run stays linear in the count. The
booklet is drawn at the end from the scenario files, page by page, so its
memory does not grow with the count. The output folder is locked for the
run, so two batches cannot mix their scenarios in one folder.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from terragen.cli._common import (Whole, NON_EMPTY_TEXT, FolderName, PathName, echo_json, json_option, paper_choice, say,
                                  seed_range)
from terragen.errors import InputError
from terragen.process_pool import WorkerDied

MANIFEST_VERSION = 1
#: Far more than a booklet anyone prints; the task list of an absurd count would fill memory.
MAX_COUNT = 100_000
#: The manifest is rewritten once the rows not yet in it reach this share of all rows...
MANIFEST_GROWTH = 1 / 16
#: ... or this many seconds after the last rewrite (a rewrite costs O(rows), so both keep the run linear).
MANIFEST_SECONDS = 3.0
CSV_FIELDS = ["index", "id", "kind", "difficulty", "grade", "json", "svg", "answer"]
Task = tuple[str, str, int, int]  # (kind, difficulty, seed, index)


def build_scenario(task: Task) -> tuple[int, str, str, dict[str, Any]]:
    """Compute scenario ``index`` (no I/O): its JSON text, SVG text and manifest row."""
    from terragen.render.kits.terrain.booklet import answer_text, scenario_svg
    from terragen.terrain.puzzles import make_puzzle

    kind, difficulty, seed, index = task
    p = make_puzzle(kind, difficulty, seed, index)
    data = p.to_data()
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    svg = scenario_svg(data)
    row = {"index": index, "id": p.ident, "kind": p.kind, "difficulty": difficulty, "grade": p.metrics["grade"],
           "json": f"scenarios/{p.ident}.json", "svg": f"scenarios/{p.ident}.svg", "answer": answer_text(data),
           "metrics": p.metrics, "sha256": {"json": _digest(text), "svg": _digest(svg)}}
    return index, text, svg, row


def _digest(text: str) -> str:
    """A scenario file's fingerprint, kept in its manifest row: a --resume keeps a file only if it is
    still the one written (a file replaced by another scenario's, or edited, drew a wrong booklet)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def run_local(tasks: list[Task], workers: int) -> Iterator[tuple[int, str, str, dict[str, Any]]]:
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


def run_dask(tasks: list[Task], workers: int, scheduler: str | None) -> Iterator[tuple[int, str, str, dict[str, Any]]]:
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


def _dask_results(client: Any, cluster: Any, tasks: list[Task]) -> Iterator[tuple[int, str, str, dict[str, Any]]]:
    from distributed import as_completed

    try:
        futures = client.map(build_scenario, tasks, pure=False)
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def read_manifest(out: Path) -> dict[str, Any] | None:
    from terragen.fileio import MAX_INPUT_BYTES, read_text_input
    from terragen.safejson import load_json

    path = out / "manifest.json"
    if not path.exists():
        return None
    try:
        # a manifest row is about 0.5 kB: allow far more rows than any batch the docs describe
        data = load_json(read_text_input(path, max_bytes=40 * MAX_INPUT_BYTES), str(path))
        data["batch"], data["scenarios"]  # noqa: B018 - shape check
        if not isinstance(data["batch"], dict) or not isinstance(data["scenarios"], list):
            raise TypeError
    except (InputError, KeyError, TypeError):
        # ("remove it" led on to a refusal of the scenario files it had listed: --force is the way on)
        raise InputError(f"{path}: not a terragen batch manifest (--force starts this batch again in the folder, "
                         "or use another --out)") from None
    return data


#: the names a batch gives its scenario files (``scenarios/00007-route.json``)
SCENARIO_FILE = re.compile(r"[0-9]{5,}-(route|rotation|dice)\.(json|svg)")


def _listed(name: Any) -> bool:
    """Whether a manifest's file name is one a batch writes: in ``scenarios/``, nowhere else (an
    edited manifest naming ``notes.txt`` had --force delete the user's file)."""
    if not isinstance(name, str):
        return False
    parts = Path(name).parts
    return len(parts) == 2 and parts[0] == "scenarios" and bool(SCENARIO_FILE.fullmatch(parts[1]))


def _scenario_files(out: Path) -> set[Path]:
    """The scenario files of an earlier batch in ``out``, which --force replaces: those its manifest
    lists and every file of a scenario's name in ``scenarios/``, listed or not (a killed run writes
    scenarios after its last manifest, and a manifest may be unreadable)."""
    try:
        old = read_manifest(out)
    except InputError:
        old = None
    listed = {out / row[k] for row in (old or {"scenarios": []})["scenarios"] if isinstance(row, dict)
              for k in ("json", "svg") if _listed(row.get(k))}
    folder = out / "scenarios"
    found = {folder / name for name in (os.listdir(folder) if folder.is_dir() else ()) if SCENARIO_FILE.fullmatch(name)}
    return listed | found


def write_manifest(out: Path, batch: dict[str, Any], rows: dict[int, dict[str, Any]]) -> None:
    """Both manifests from the same rows, as one all-or-nothing set, rows in index order
    (so the files never depend on finishing order and never disagree)."""
    from terragen.fileio import OutputSet

    ordered = [rows[i] for i in sorted(rows)]
    data = {"version": MANIFEST_VERSION, "batch": batch, "done": len(ordered), "scenarios": ordered}
    buf = io.StringIO()
    w = csv.DictWriter(buf, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for row in ordered:
        w.writerow(row)
    with OutputSet() as files:
        files.add(out / "manifest.json", json.dumps(data, indent=2, sort_keys=True) + "\n")
        files.add(out / "manifest.csv", buf.getvalue())


def lock_folder(out: Path) -> int:
    """Hold an exclusive lock on the output folder for this run; OutputError if another batch holds it.

    The lock is on the folder itself (no lock file to leave behind) and ends with the process,
    however it ends.
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
              progress: bool = False, booklet: bool = True,
              on_result: Callable[[int], None] | None = None, force: bool = False,
              status: dict[str, Any] | None = None, paper: str = "a4") -> dict[str, Any]:
    """Produce the batch in ``out``; returns a summary. Raises InputError/SpecError on bad input.

    ``status`` (when given) gets ``old_batch_intact``: whether a --force run stopped before it
    removed the batch it replaces, so a stopped run's last line can say what the folder holds."""
    from terragen.terrain.puzzles import DIFFICULTIES, KINDS, MIX
    from terragen.terrain.puzzles.grading import preset

    status = status if status is not None else {}
    status["old_batch_intact"] = force
    if not 1 <= count <= MAX_COUNT:
        raise InputError(f"--count must be 1–{MAX_COUNT} (got {count})")
    if kind != MIX and kind not in KINDS:
        raise InputError(f"unknown --kind {kind!r} (choose route, rotation, dice or mix)")
    if difficulty not in DIFFICULTIES:
        raise InputError(f"unknown --difficulty {difficulty!r} (choose {', '.join(DIFFICULTIES)})")
    for k in KINDS:
        preset(k, difficulty)
    from terragen.process_pool import worker_count

    if backend == "dask" and scheduler:  # a cluster's own workers play; --workers is not used
        workers = workers or 1
    else:
        workers = worker_count(workers or 0, "--workers")  # None or 0: one per CPU core
    from terragen.fileio import check_out_folder, make_folder

    outp = Path(out)
    check_out_folder(out)  # as given: a library caller's "-" is refused, its Path("./-") is a folder
    check_out_folder(outp / "scenarios")  # a file in the way fails here, before a manifest is written
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


def _resumable_rows(outp: Path, old: dict[str, Any], batch: dict[str, Any], count: int) -> dict[int, dict[str, Any]]:
    """The finished scenarios of an earlier run of the same batch that this run keeps."""
    if {k: old["batch"].get(k) for k in batch} != batch:
        held = old["batch"]
        differ = ", ".join(f"--{k.replace('_', '-')} {held.get(k)} there, {v} now" for k, v in batch.items()
                           if held.get(k) != v)
        raise InputError(f"{outp}: --resume with different settings ({differ}); resume with the folder's, "
                         "or choose another --out")
    before = old["batch"].get("count")
    if isinstance(before, int) and not isinstance(before, bool) and before > MAX_COUNT:
        raise InputError(f"{outp}/manifest.json says the batch holds {before} scenarios, more than a batch can "
                         f"({MAX_COUNT}): the manifest is damaged; --force starts the batch again")
    if isinstance(before, int) and count < before:
        raise InputError(f"{outp} holds a batch of {before} scenarios; --resume --count {count} would leave "
                         f"a manifest and a booklet that disagree with it (use --count {before} or more, "
                         "or another --out)")
    rows: dict[int, dict[str, Any]] = {}
    for row in old["scenarios"]:
        i = row.get("index") if isinstance(row, dict) else None
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < count:
            continue
        if _intact(outp, row):
            rows[i] = row
    return rows


def _intact(outp: Path, row: dict[str, Any]) -> bool:
    """Whether a manifest row and its two files can be kept as they are; a row that cannot is
    computed again (same bytes), where a damaged file once made every later --resume fail while
    drawing the booklet, and a row without its grade failed as an internal error."""
    from terragen.fileio import read_text_input
    from terragen.safejson import load_json

    if not (all(k in row for k in CSV_FIELDS) and isinstance(row["grade"], (int, float))
            and not isinstance(row["grade"], bool) and _listed(row["json"]) and _listed(row["svg"])):
        return False
    try:
        text = read_text_input(outp / row["json"])
        data = load_json(text, row["json"])
        svg = read_text_input(outp / row["svg"])
    except InputError:
        return False
    # the files must be the ones the row was written with: '{}', a cut board or another scenario's
    # file parsed as JSON, and then failed the booklet (exit 70) or drew the wrong puzzle
    sums = row.get("sha256")
    if isinstance(sums, dict):
        return sums.get("json") == _digest(text) and sums.get("svg") == _digest(svg)
    # a manifest written before its rows held digests: recomputing a whole long batch (40 hard
    # rotation puzzles a minute) would be a high price, so such a file is kept when it is whole and
    # names this row's scenario (an edit inside it is not caught), and the row gets its digests
    if _whole_scenario(data, row) and svg.rstrip().endswith("</svg>"):
        row["sha256"] = {"json": _digest(text), "svg": _digest(svg)}
        return True
    return False


def _whole_scenario(data: Any, row: dict[str, Any]) -> bool:
    """Whether scenario data is the row's scenario with every part the booklet draws from."""
    if not isinstance(data, dict) or any(data.get(k) != row.get(k) for k in ("id", "index", "kind", "difficulty")):
        return False
    layout = data.get("layout")
    if not (isinstance(layout, dict) and isinstance(layout.get("radius"), int) and isinstance(layout.get("cells"), list)
            and all(isinstance(data.get(k), dict) for k in ("puzzle", "solution", "metrics"))):
        return False
    from terragen.grids import hex as hx

    radius = layout["radius"]
    return 0 < radius <= 12 and len(layout["cells"]) == hx.board_size(radius)


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
    from terragen.cli._common import check_file_name
    from terragen.fileio import output_target
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


def _remove_old_batch(outp: Path, scenario_files: set[Path], booklet: bool) -> None:
    """Remove the batch ``--force`` replaces, all at once with interrupts held back: its manifests,
    its booklet (or a file of that name this run will write) and the scenario files it lists."""
    from terragen.interrupts import signals_held

    names = ["manifest.json", "manifest.csv"]
    if booklet or scenario_files or (outp / "manifest.json").is_file():
        names.append("booklet.pdf")
    with signals_held():
        for path in [*(outp / name for name in names), *sorted(scenario_files)]:
            if path.is_file() or path.is_symlink():
                path.unlink(missing_ok=True)


def _remove_booklet(outp: Path) -> None:
    from terragen.interrupts import signals_held

    path = outp / "booklet.pdf"
    with signals_held():
        if path.is_file() or path.is_symlink():
            path.unlink(missing_ok=True)


def _run_locked(count: int, kind: str, difficulty: str, seed: int, outp: Path, workers: int, resume: bool,
                backend: str, scheduler: str | None, progress: bool, booklet: bool,
                on_result: Callable[[int], None] | None, force: bool, status: dict[str, Any],
                paper: str = "a4") -> dict[str, Any]:
    import time

    from terragen.fileio import OutputSet, remove_stray_temporaries

    batch = {"kind": kind, "difficulty": difficulty, "seed": seed}
    rows: dict[int, dict[str, Any]] = {}
    _check_output_files(outp, kind, count, booklet)
    replaced = _scenario_files(outp) if force else set()
    old = None if force else read_manifest(outp)
    if old is not None:
        if not resume:
            raise InputError(f"{outp} already holds a batch: add --resume to continue it, --force to start it "
                             "again, or choose another --out")
        rows = _resumable_rows(outp, old, batch, count)
    elif not force:
        _refuse_files_in_the_way(outp, kind, count, booklet)
    remove_stray_temporaries(outp)  # a killed run's half-written files; safe, the folder is locked
    remove_stray_temporaries(outp / "scenarios")
    batch["count"] = count
    tasks = [(kind, difficulty, seed, i) for i in range(count) if i not in rows]
    if old is not None and tasks:
        # the booklet of the batch being continued (a larger --count, damaged scenarios) would sit
        # beside a manifest it no longer matches until this run ends, and for good if it stops
        _remove_booklet(outp)
    from terragen.cli.progress import Progress

    bar = Progress("terragen batch", count, "scenarios", enabled=progress)
    bar.update(len(rows))
    results = run_dask(tasks, workers, scheduler) if backend == "dask" else run_local(tasks, workers)
    last_write, saved_rows = time.monotonic(), len(rows)
    # --force: the old batch goes as a whole just before the first new scenario is written, so a
    # run stopped early leaves the old batch whole or a part of the new one (which --resume
    # continues), never scenarios of two batches beside one manifest
    cleared = not force
    try:
        for index, text, svg, row in results:
            if not cleared:
                _remove_old_batch(outp, replaced, booklet)
                cleared, status["old_batch_intact"] = True, False
            if not rows and not (outp / "manifest.json").exists():
                # the folder holds a batch before its first scenario file: a disk that filled while
                # the first manifest was written left scenario files no --resume would take
                write_manifest(outp, batch, rows)
            with OutputSet() as pair:
                pair.add(outp / row["json"], text)
                pair.add(outp / row["svg"], svg)
            rows[index] = row
            if (len(rows) - saved_rows >= MANIFEST_GROWTH * len(rows)
                    or time.monotonic() - last_write >= MANIFEST_SECONDS):
                write_manifest(outp, batch, rows)
                last_write, saved_rows = time.monotonic(), len(rows)
            bar.update(len(rows))
            if on_result:
                on_result(index)
        if not cleared:  # no scenario to compute (a batch of none)
            _remove_old_batch(outp, replaced, booklet)
            cleared, status["old_batch_intact"] = True, False
    finally:
        bar.close()
        if cleared and (rows or old is not None):  # a run that produced nothing leaves no batch behind
            write_manifest(outp, batch, rows)
    files = ["manifest.json", "manifest.csv"]
    if booklet:
        from terragen.render.kits.terrain.booklet import booklet_pdf

        title = f"{kind} puzzles, {difficulty}, seed {seed}"
        paths = [outp / rows[i]["json"] for i in sorted(rows)]
        with OutputSet() as out:
            out.add(outp / "booklet.pdf", booklet_pdf(paths, paper, title=title))
        files.append("booklet.pdf")
    grades = [rows[i]["grade"] for i in sorted(rows)]
    return {"count": len(rows), "computed": len(tasks), "files": files, "grades": grades}


def _kept(out: str, count: int, status: dict[str, Any]) -> str:
    """What a stopped batch leaves, for its last line: the folder as it was (a --force run
    stopped before it removed the batch it replaces), or a part of this batch."""
    if status.get("old_batch_intact"):
        return f"{out} is as it was (run again with --force to start this batch)"
    if not os.path.isdir(out):  # stopped before its first scenario: the folder it made is gone again
        return f"nothing was written ({out} not made)"
    try:
        done = len((read_manifest(Path(out)) or {"scenarios": []})["scenarios"])
    except InputError:
        done = 0
    return f"{done} of {count} scenarios are complete in {out} (run again with --resume to continue)"


@click.command()
@click.option("--count", type=Whole(1, MAX_COUNT), default=10, show_default=True, help="How many scenarios.")
@click.option("--kind", type=click.Choice(["route", "rotation", "dice", "mix"], case_sensitive=False), default="mix", show_default=True,
              help="Puzzle kind; mix takes the three in turn.")
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard", "brutal"], case_sensitive=False), default="medium",
              show_default=True, help="Difficulty band (docs/batch.md gives the measured grades).")
@click.option("--seed", type=seed_range(), default=0, show_default=True, help="Scenario i depends only on (seed, i).")
@click.option("-o", "--out", "out_dir", type=FolderName(path_type=str),
              help="Output folder. [default: output/batch-<KIND>-<DIFFICULTY>-seed<SEED>]")
@click.option("--force", is_flag=True,
              help="Start again in an --out that holds a batch (without it or --resume, a batch is never touched).")
@click.option("--workers", type=Whole(), default=1, show_default=True,
              help="Worker processes; 0 = one per CPU core. The files are the same whatever the number.")
@click.option("--resume", is_flag=True, help="Continue a stopped batch in --out (same kind, difficulty, seed).")
@click.option("--backend", type=click.Choice(["local", "dask"], case_sensitive=False), default="local", show_default=True,
              help="local processes, or Dask distributed (pip install 'terragen[distributed]').")
@click.option("--scheduler", metavar="ADDRESS", type=NON_EMPTY_TEXT, help="Dask scheduler address. [default: a local Dask cluster]")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr. [default: when stderr is a terminal]")
@click.option("--paper", default="a4", show_default=True, type=paper_choice(),
              help="Paper size of booklet.pdf (the scenario files do not depend on it; a --resume may change it).")
@json_option
def batch(count, kind, difficulty, seed, out_dir, force, workers, resume, backend, scheduler, progress, paper,
          as_json) -> int:
    """Produce many puzzle scenarios with unique, solver-proven solutions.

    Writes scenarios/<index>-<kind>.json (layout, puzzle, solution, metrics)
    and .svg, manifest.json and manifest.csv (kept up to date as scenarios
    finish) and booklet.pdf (puzzles, then the answer key). Same seed and
    count give the same files whatever the number of workers. Ctrl-C keeps
    every finished scenario; run again with --resume to continue (--count may
    grow on resume, never shrink). A folder that already holds a batch is
    never overwritten: --resume continues it, --force starts it again; nor is
    a file of a batch's names in a folder without one (--force replaces it);
    one batch at a time per folder. Every other command reads a scenario file as
    its layout (render, show, convert; validate too, which reports the
    one-player puzzle as breaking the game's player count).

    \b
    Examples:
      terragen batch --count 10 --kind mix --seed 1
      terragen batch --count 500 --kind route --difficulty brutal --workers 0 --out /tmp/r
      terragen batch --count 500 --kind route --difficulty brutal --workers 0 --out /tmp/r --resume
      terragen batch --count 20 --json
      terragen batch --count 10 --paper letter --out letter-puzzles

    Exit status: 0 batch complete, 2 bad options or the folder holds another
    batch (use --resume or --force), 3 a scenario cannot be made with this seed
    (try another --seed), 70 a worker process died, 73 a file cannot be written or
    another batch holds the folder, 130 interrupted, 143 terminated and 129 hung up
    (finished scenarios kept).
    """
    if scheduler and backend != "dask":
        raise InputError("--scheduler needs --backend dask")
    if resume and force:
        raise InputError("give --resume (continue the batch) or --force (start it again), not both")
    out = out_dir or f"output/batch-{kind}-{difficulty}-seed{seed}"
    from terragen.cli._common import is_quiet

    show = progress if progress is not None else sys.stderr.isatty() and not is_quiet()
    status: dict[str, Any] = {}
    try:
        summary = run_batch(count, kind, difficulty, seed, out, workers, resume, backend, scheduler, show, force=force,
                            status=status, paper=paper.lower())
    except KeyboardInterrupt as exc:
        from terragen.interrupts import exit_code_for, stop_word

        code = exit_code_for(exc)  # (a SIGTERM said "interrupted" here, "terminated" everywhere else)
        click.echo(f"terragen batch: {stop_word(code)}; {_kept(out, count, status)}", err=True)
        return code
    except WorkerDied as exc:
        raise WorkerDied(f"{exc.message}; {_kept(out, count, status)}") from None
    g = summary["grades"]
    if as_json:
        echo_json({"folder": out, "count": summary["count"], "computed": summary["computed"],
                   "files": [f"{out}/{name}" for name in summary["files"]], "scenarios": f"{out}/scenarios",
                   "grade": {"min": min(g), "mean": round(sum(g) / len(g), 2), "max": max(g)}})
        return 0
    say(f"{summary['count']} scenarios in {out} ({summary['computed']} computed now); "
        f"grade min {min(g)}, mean {sum(g) / len(g):.1f}, max {max(g)}")
    say(f"written: {out}/scenarios/*.json, *.svg, {', '.join(summary['files'])}")
    return 0
