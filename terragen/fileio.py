"""Safe reading and atomic writing of user files.

Every file terragen writes goes through :func:`atomic_write`, so an
interrupted or failed run never leaves a half-written file and never replaces
an existing file with garbage. Reading goes through :func:`read_text_input`,
which turns the usual ways a file can be wrong (missing, empty, binary,
enormous) into one clear :class:`~terragen.errors.InputError`.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from terragen.errors import InputError

#: Layout and position files are a few kilobytes; anything this large is a mistake.
MAX_INPUT_BYTES = 5 * 1024 * 1024


def read_text_input(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES) -> str:
    """Read a small UTF-8 text file or raise an InputError naming the problem."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc})") from None
    if p.is_dir():
        raise InputError(f"{p}: is a directory, expected a file")
    if size > max_bytes:
        raise InputError(
            f"{p}: file is {size / 1e6:.1f} MB, larger than the {max_bytes / 1e6:.0f} MB limit for an input file"
        )
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc})") from None
    return decode_text(data, str(p))


def decode_text(data: bytes, name: str) -> str:
    """Decode bytes as UTF-8 text, rejecting empty and binary content clearly."""
    if not data.strip():
        raise InputError(f"{name}: file is empty")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(f"{name}: not a text file (binary data at byte {nul})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (bad byte at offset {exc.start})") from None
    return text


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Write ``data`` to ``path`` via a temporary file and a rename.

    The rename is atomic on POSIX, so readers see either the old file or the
    complete new one. Parent folders are created as needed.
    """
    p = Path(path)
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=str(p.parent or "."))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return p
