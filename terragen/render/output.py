"""Writing documents to disk: PDF or SVG, always atomically.

An SVG holds one page; a multi-page document written as SVG becomes one file
per page (``name-p01.svg`` ...). Nothing is written until the whole document
has been drawn, so a failure leaves any earlier file untouched.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from terragen.errors import InputError, OutputError
from terragen.fileio import OutputSet, display_name
from terragen.render.model import Document


def output_paths(doc: Document, path: str | Path, fmt: str = "pdf") -> list[Path]:
    """The files :func:`write_document` will write for ``doc``, so a command can check them first."""
    p = Path(path)
    if fmt == "svg" and len(doc.pages) > 1:
        return [p.with_name(f"{p.stem}-p{k:02d}{p.suffix or '.svg'}") for k in range(1, len(doc.pages) + 1)]
    return [p]


#: the page number of a multi-page SVG's page files (``name-p01.svg`` ...), as :func:`output_paths` names them
_PAGE_NUMBER = r"-p(?:[0-9]{2}|[1-9][0-9]{2,})"


def stale_pages(doc: Document, path: str | Path, fmt: str = "pdf", keep: Path | None = None) -> list[Path]:
    """Pages of an earlier build sheet written under the same name that this one would not
    overwrite (``name-p04.svg`` after a three-page sheet): only files named exactly as this
    module names pages, whose SVG says it is a terragen build sheet, and never ``keep`` (the
    layout being drawn).

    Why: the pages of an SVG sheet are one result, and a folder holding pages of two sheets
    prints the wrong build order; a command treats these as part of its output (refused without
    --force, removed with it). Why so narrow: a file terragen did not write is never removed."""
    if fmt != "svg":
        return []
    return stale_page_files(path, set(output_paths(doc, path, fmt)), ": build sheet of ", keep)


def stale_page_files(path: str | Path, new: set[Path], marker: str, keep: Path | None = None) -> list[Path]:
    """The page files ``stem-pNN<suffix>`` beside ``path`` that are not in ``new``, are SVG and
    hold ``marker`` near their start (what says which document they were pages of): what an
    earlier, longer document under this name left that the new one will not overwrite."""
    p = Path(path)
    suffix = p.suffix or ".svg"
    if not p.parent.is_dir() or suffix.lower() != ".svg":
        return []
    page = re.compile(re.escape(p.stem) + _PAGE_NUMBER + re.escape(suffix))
    keep_at = keep.resolve() if keep is not None and keep.exists() else None
    out = []
    for q in sorted(p.parent.iterdir()):
        if q in new or not page.fullmatch(q.name) or not q.is_file() or (keep_at and q.resolve() == keep_at):
            continue
        try:
            head = q.read_text(encoding="utf-8", errors="replace")[:20000]
        except OSError:
            continue
        if head.startswith("<svg") and marker in head:
            out.append(q)
    return out


def refuse_stale(stale: list[Path], earlier: str, remedy: str) -> None:
    """Without --force, pages an earlier document left are refused by name, as an existing output is."""
    if stale:
        raise InputError(f"{display_name(stale[0])} is a page of {earlier}"
                         + (f" (as are {len(stale) - 1} more)" if len(stale) > 1 else "")
                         + f": add --force to remove it with {remedy}")


def set_aside_name(name: str) -> str:
    """``.<name>.<pid>.old``, within a file name's 255 bytes however long the page's name."""
    from terragen.fileio import hidden_name

    return hidden_name(name, f".{os.getpid()}.old")


def replace_stale(stale: list[Path], write: Callable[[], list[Path]]) -> list[Path]:
    """Run ``write`` with ``stale`` out of the way, then remove them: set aside first (a rename,
    so a file that cannot be removed stops the command before anything is written), put back if
    the write fails, so the folder never holds a mix of two sheets."""
    aside: list[tuple[Path, Path]] = []
    try:
        for q in stale:
            tmp = q.with_name(set_aside_name(q.name))
            try:
                q.rename(tmp)
            except OSError as exc:
                raise OutputError(f"cannot remove {display_name(q)} (a page of an earlier sheet under this name): "
                                  f"{exc.strerror or exc}") from None
            aside.append((q, tmp))
        written = write()
    except BaseException:
        for q, tmp in reversed(aside):
            tmp.rename(q)
        raise
    for _, tmp in aside:
        tmp.unlink(missing_ok=True)
    return written


def write_document(doc: Document, path: str | Path, fmt: str = "pdf") -> list[Path]:
    """Render ``doc`` as ``fmt`` (pdf|svg) to ``path``; returns the files written."""
    p = Path(path)
    if p.exists() and p.is_dir():
        raise OutputError(f"cannot write {display_name(p)}: it is a folder, expected an output file name")
    with OutputSet() as out:  # every page file or none
        if fmt == "pdf":
            from terragen.render.pdf import document_pdf

            out.add(p, document_pdf(doc))
            return [p]
        if fmt == "svg":
            from terragen.render.svg import page_svg

            names = output_paths(doc, p, fmt)
            for name, page in zip(names, doc.pages):
                out.add(name, page_svg(page, doc.title))
            return names
    raise InputError(f"unknown output format {fmt!r} (choose pdf or svg)")
