"""Writing documents to disk: PDF or SVG, always atomically.

An SVG holds one page; a multi-page document written as SVG becomes one file
per page (``name-p01.svg`` ...). Nothing is written until the whole document
has been drawn, so a failure leaves any earlier file untouched.
"""

from __future__ import annotations

import re
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


def stale_pages(doc: Document, path: str | Path, fmt: str = "pdf") -> list[Path]:
    """Files of an earlier sheet written under the same name that this one would not overwrite:
    its pages past this one's last (``name-p04.svg`` after a three-page sheet), or the other form
    when the page count crossed one (``name.svg`` beside ``name-p01.svg`` ...).

    Why: a set of SVG pages is one result, so a folder holding pages of two boards would print the
    wrong build order; a command treats these as part of its output (refused without --force,
    removed with it)."""
    if fmt != "svg":
        return []
    p = Path(path)
    if not p.parent.is_dir():
        return []
    new = set(output_paths(doc, p, fmt))
    page = re.compile(re.escape(p.stem) + r"-p\d{2,}" + re.escape(p.suffix or ".svg"))
    old = [q for q in p.parent.iterdir() if page.fullmatch(q.name)]
    if p.suffix in ("", ".svg") and p.is_file():
        old.append(p)
    return sorted(q for q in old if q not in new and q.is_file())


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
