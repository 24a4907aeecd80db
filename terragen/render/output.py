"""Writing documents to disk: PDF or SVG, always atomically.

An SVG holds one page; a multi-page document written as SVG becomes one file
per page (``name-p01.svg`` ...). Nothing is written until the whole document
has been drawn, so a failure leaves any earlier file untouched.
"""

from __future__ import annotations

from pathlib import Path

from terragen.errors import InputError
from terragen.fileio import atomic_write
from terragen.render.model import Document


def write_document(doc: Document, path: str | Path, fmt: str = "pdf") -> list[Path]:
    """Render ``doc`` as ``fmt`` (pdf|svg) to ``path``; returns the files written."""
    p = Path(path)
    if p.exists() and p.is_dir():
        raise InputError(f"{p}: is a directory, expected an output file name")
    if fmt == "pdf":
        from terragen.render.pdf import document_pdf

        data = document_pdf(doc)
        return [atomic_write(p, data)]
    if fmt == "svg":
        from terragen.render.svg import page_svg

        texts = [page_svg(page, doc.title) for page in doc.pages]
        if len(texts) == 1:
            return [atomic_write(p, texts[0])]
        return [atomic_write(p.with_name(f"{p.stem}-p{k:02d}{p.suffix or '.svg'}"), t) for k, t in enumerate(texts, 1)]
    raise InputError(f"unknown output format {fmt!r} (choose pdf or svg)")
