"""A puzzle batch's record on disk: its two manifests, its file names, and which rows a resume keeps.

``manifest.json`` is the batch's own account of itself (the settings, and a
row per finished scenario with the digests of its two files); ``manifest.csv``
holds the same rows for a spreadsheet. Both are written from the same rows as
one all-or-nothing set, so they never disagree. A resumed run trusts a row
only while its files are still the ones written (:func:`resumable_rows`).

Messages name the batch's settings as the command line spells them
(``--resume``, ``--force``, ``--out``): they are also :func:`run_batch`'s
parameter names (:mod:`terragen.terrain.puzzles.batch`), so they read the same
to a library caller.
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path
from typing import Any

from terragen.errors import InputError
from terragen.formats import json_file_text
from terragen.limits import MAX_BATCH_COUNT

MANIFEST_VERSION = 1
#: the columns of ``manifest.csv`` (also the keys every row of ``manifest.json`` must have)
CSV_FIELDS = ["index", "id", "kind", "difficulty", "grade", "json", "svg", "answer"]
#: the names a batch gives its scenario files (``scenarios/00007-route.json``)
SCENARIO_FILE = re.compile(r"[0-9]{5,}-(route|rotation|dice)\.(json|svg)")


def digest(text: str) -> str:
    """A scenario file's fingerprint, kept in its manifest row: a --resume keeps a file only if it is
    still the one written (a file replaced by another scenario's, or edited, drew a wrong booklet)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_manifest(out: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The manifest of the batch in folder ``out``, or None when the folder holds none.

    Anything that is not a batch manifest is an InputError rather than None, so a damaged
    manifest is never taken for an empty folder (whose batch a new run would then mix with
    the old scenario files). ``out`` may be a str, as ``run_batch``'s is (``"bt1"`` failed as
    a TypeError about '/')."""
    from terragen.fileio import MAX_INPUT_BYTES, read_text_input
    from terragen.safejson import load_json

    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"read_manifest takes the batch's folder, a path or str, not {type(out).__name__}")
    path = Path(out) / "manifest.json"
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


def manifest_texts(batch: dict[str, Any], rows: dict[int, dict[str, Any]]) -> dict[str, str]:
    """The two manifests' texts by file name, from the same rows in index order (so the files never
    depend on finishing order and never disagree)."""
    ordered = [rows[i] for i in sorted(rows)]
    data = {"version": MANIFEST_VERSION, "batch": batch, "done": len(ordered), "scenarios": ordered}
    buf = io.StringIO()
    w = csv.DictWriter(buf, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for row in ordered:
        w.writerow(row)
    return {"manifest.json": json_file_text(data), "manifest.csv": buf.getvalue()}


def write_manifest(out: Path, batch: dict[str, Any], rows: dict[int, dict[str, Any]]) -> None:
    """Both manifests, as one all-or-nothing set."""
    from terragen.fileio import OutputSet

    with OutputSet() as files:
        for name, text in manifest_texts(batch, rows).items():
            files.add(out / name, text)


def manifests_hold(out: Path, batch: dict[str, Any], rows: dict[int, dict[str, Any]]) -> bool:
    """Whether the folder's manifests are already what :func:`write_manifest` would write."""
    try:
        return all((out / name).read_bytes() == text.encode("utf-8")
                   for name, text in manifest_texts(batch, rows).items())
    except OSError:
        return False


def _listed(name: Any) -> bool:
    """Whether a manifest's file name is one a batch writes: in ``scenarios/``, nowhere else (an
    edited manifest naming ``notes.txt`` had --force delete the user's file)."""
    if not isinstance(name, str):
        return False
    parts = Path(name).parts
    return len(parts) == 2 and parts[0] == "scenarios" and bool(SCENARIO_FILE.fullmatch(parts[1]))


def scenario_files(out: Path) -> set[Path]:
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


def resumable_rows(outp: Path, old: dict[str, Any], batch: dict[str, Any], count: int) -> dict[int, dict[str, Any]]:
    """The finished scenarios of an earlier run of the same batch that this run keeps.

    A batch of other settings, a damaged count or a smaller ``count`` is refused (InputError):
    continuing it would leave scenarios of two batches, or a manifest and a booklet that disagree
    with the files."""
    if {k: old["batch"].get(k) for k in batch} != batch:
        held = old["batch"]
        differ = ", ".join(f"--{k.replace('_', '-')} {held.get(k)} there, {v} now" for k, v in batch.items()
                           if held.get(k) != v)
        raise InputError(f"{outp}: --resume with different settings ({differ}); resume with the folder's, "
                         "or choose another --out")
    before = old["batch"].get("count")
    if isinstance(before, int) and not isinstance(before, bool) and before > MAX_BATCH_COUNT:
        raise InputError(f"{outp}/manifest.json says the batch holds {before} scenarios, more than a batch can "
                         f"({MAX_BATCH_COUNT}): the manifest is damaged; --force starts the batch again")
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
        return sums.get("json") == digest(text) and sums.get("svg") == digest(svg)
    # a manifest written before its rows held digests: recomputing a whole long batch (40 hard
    # rotation puzzles a minute) would be a high price, so such a file is kept when it is whole and
    # names this row's scenario (an edit inside it is not caught), and the row gets its digests
    if _whole_scenario(data, row) and svg.rstrip().endswith("</svg>"):
        row["sha256"] = {"json": digest(text), "svg": digest(svg)}
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
