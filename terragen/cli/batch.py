"""``terragen batch``: many puzzle scenarios, each proven unique, with manifest and booklet.

A thin shell over :func:`terragen.terrain.puzzles.batch.run_batch`, which does
the work (and whose module says how an interrupted batch stays whole): this
command parses the options, draws the progress bar, and prints the outcome or
what a stopped run left in the folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from terragen.cli._common import (NameChoice, Whole, NON_EMPTY_TEXT, FolderName, echo_json, json_option, paper_choice, say,
                                  note_missing_kernels, seed_range, warn)
from terragen.errors import InputError
from terragen.fileio import display_name
from terragen.limits import MAX_BATCH_COUNT
from terragen.process_pool import WorkerDied
from terragen.terrain.puzzles import DIFFICULTIES, KINDS, MIX


def _kept(out: str, count: int, status: dict[str, Any]) -> str:
    """What a stopped batch leaves, for its last line: the folder as it was (a --force run
    stopped before it removed the batch it replaces), or a part of this batch."""
    if status.get("old_batch_intact"):
        return f"{out} is as it was (run again with --force to start this batch)"
    if not os.path.isdir(out):  # stopped before its first scenario: the folder it made is gone again
        return f"nothing was written ({out} not made)"
    from terragen.terrain.puzzles.batch import read_manifest

    try:
        done = len((read_manifest(Path(out)) or {"scenarios": []})["scenarios"])
    except InputError:
        done = 0
    if done == 0 and status.get("old_batch_removed"):  # the old batch went just before this one's first scenario
        return f"the batch {out} held was removed and none of this one's {count} scenarios is complete (run again)"
    return f"{done} of {count} scenarios are complete in {out} (run again with --resume to continue)"


@click.command()
@click.option("--count", type=Whole(1, MAX_BATCH_COUNT), default=10, show_default=True, help="How many scenarios.")
@click.option("--kind", type=NameChoice([*KINDS, MIX], "puzzle kind"), default="mix", show_default=True,
              help="Puzzle kind; mix takes the three in turn.")
@click.option("--difficulty", type=NameChoice(DIFFICULTIES, "difficulty"), default="medium",
              show_default=True, help="Difficulty band (docs/batch.md gives the measured grades).")
@click.option("--seed", type=seed_range(), default=0, show_default=True, help="Scenario i depends only on (seed, i).")
@click.option("-o", "--out", "out_dir", type=FolderName(path_type=str),
              help="Output folder. [default: output/batch-<KIND>-<DIFFICULTY>-seed<SEED>]")
@click.option("--force", is_flag=True,
              help="Start again in an --out that holds a batch (without it or --resume, a batch is never touched).")
@click.option("--workers", type=Whole(), default=1, show_default=True,
              help="Worker processes; 0 = one per CPU core. The files are the same whatever the number.")
@click.option("--resume", is_flag=True,
              help="Continue a stopped batch in --out (same kind, difficulty, seed); where there is none yet, start "
                   "one (with a warning saying so).")
@click.option("--backend", type=NameChoice(["local", "dask"], "backend"), default="local", show_default=True,
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
    its layout (render, show, convert; validate too, which checks it as a
    one-player puzzle, as its file says it is).

    \b
    Examples:
      terragen batch --count 10 --kind mix --seed 1
      terragen batch --count 500 --kind route --difficulty brutal --out r
      terragen batch --count 500 --kind route --difficulty brutal --out r --resume
      terragen batch --count 20 --json
      terragen batch --count 10 --paper letter --out letter-puzzles

    Exit status: 0 batch complete, 2 bad options or the folder holds another
    batch (use --resume or --force), 3 a scenario cannot be made with this seed
    (try another --seed), 70 a worker process died, 73 a file cannot be written or
    another batch holds the folder, 130 interrupted, 143 terminated and 129 hung up
    (finished scenarios kept; as for every command, terragen --help).
    """
    if scheduler and backend != "dask":
        raise InputError("--scheduler needs --backend dask")
    if resume and force:
        raise InputError("give --resume (continue the batch) or --force (start it again), not both")
    out = out_dir or f"output/batch-{kind}-{difficulty}-seed{seed}"
    from terragen.cli._common import is_quiet
    from terragen.cli.progress import Progress
    from terragen.process_pool import worker_count
    from terragen.terrain.puzzles.batch import run_batch

    show = progress if progress is not None else sys.stderr.isatty() and not is_quiet()
    traces = ("manifest.json", "manifest.csv", "booklet.pdf")
    scenarios = Path(out) / "scenarios"
    # an empty scenarios folder is what a run stopped before its first scenario leaves: no batch yet
    held = os.path.lexists(scenarios) and not (scenarios.is_dir() and not os.listdir(scenarios))
    if resume and not held and not any(os.path.lexists(Path(out) / name) for name in traces):
        # (a folder holding some of a batch's files is the batch's own checks' to judge: warning that
        # a new batch starts there, then refusing to start one, said two opposite things)
        # a run stopped before its first scenario left no batch, and --resume then simply starts it (so a
        # script may always pass it); a mistyped --out does the same, so say where the new batch goes
        warn(f"nothing to resume in {display_name(out)}: it holds no batch yet, so a new one starts there")
    if not (backend == "dask" and scheduler):  # a cluster's own workers play; --workers is not used
        worker_count(workers, "--workers")  # the library's check, in the option's name
    note_missing_kernels()
    status: dict[str, Any] = {}
    try:
        with Progress("terragen batch", count, "scenarios", enabled=show) as bar:
            summary = run_batch(count, kind, difficulty, seed, out, workers, resume, backend, scheduler, bar.update,
                                force=force, status=status, paper=paper.lower())
    except KeyboardInterrupt as exc:
        from terragen.interrupts import exit_code_for, stop_word

        code = exit_code_for(exc)  # (a SIGTERM said "interrupted" here, "terminated" everywhere else)
        click.echo(f"terragen batch: {stop_word(code)}; {_kept(out, count, status)}", err=True)
        return code
    except WorkerDied as exc:
        raise WorkerDied(f"{exc.message}; {_kept(out, count, status)}") from None
    g = summary["grades"]
    if summary["remade"]:  # on stderr with --json too: stdout stays one JSON document
        from terragen.plain_text import counted

        were = "was" if summary["remade"] == 1 else "were"
        warn(f"{counted(summary['remade'], 'scenario')} of the earlier run in {display_name(out)} had damaged or "
             f"missing files and {were} made again (the same bytes as before)")
    if as_json:
        echo_json({"folder": out, "count": summary["count"], "computed": summary["computed"], "remade": summary["remade"],
                   "unchanged": summary["unchanged"],
                   "files": [f"{out}/{name}" for name in summary["files"]], "scenarios": f"{out}/scenarios",
                   "grade": {"min": min(g), "mean": round(sum(g) / len(g), 2), "max": max(g)}})
        return 0
    from terragen.plain_text import counted

    if summary["unchanged"]:  # "written: ..." when nothing was (a resumed batch that was already whole)
        say(f"{counted(summary['count'], 'scenario')} in {out}: the batch is whole already, nothing written "
            f"(--force makes it again); grade min {min(g)}, mean {sum(g) / len(g):.1f}, max {max(g)}")
        return 0
    say(f"{counted(summary['count'], 'scenario')} in {out} ({summary['computed']} computed now); "
        f"grade min {min(g)}, mean {sum(g) / len(g):.1f}, max {max(g)}")
    # each with its folder: "scenarios/*.json, *.svg, manifest.json" read as if the manifest were in scenarios/
    scenarios = [f"{out}/scenarios/*.json and *.svg"] if summary["computed"] else []  # (a new --paper: booklet only)
    say("written: " + ", ".join(scenarios + [f"{out}/{name}" for name in summary["files"]]))
    return 0
