"""Safe reading and all-or-nothing writing of user files.

Reading goes through :func:`read_text_input`, which reads *every* kind of
file (regular file, device, pipe, FIFO, stdin) through a size cap, so
``/dev/zero`` or an endless pipe ends in one clear
:class:`~terragen.errors.InputError` instead of exhausting memory, and a FIFO
never hangs the command: it is opened without blocking, read only from a
writer that is already attached, and given up on when no byte arrives for
:data:`PIPE_TIMEOUT` seconds.

Writing goes through :class:`OutputSet` (or :func:`atomic_write` for a single
file): every file of a command's output is first written in full to a
temporary file beside its target, and only when all of them are on disk are
they renamed into place. A failure or an interrupt before that removes the
temporaries and leaves any earlier output untouched. A write failure (read-only
folder, full disk, a file where a folder should be) becomes an
:class:`~terragen.errors.OutputError` (exit 73) naming the file and the reason.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import stat
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from terragen.errors import InputError, OutputError
from terragen.interrupts import signals_held

#: Layout and position files are a few kilobytes; anything this large is a mistake.
MAX_INPUT_BYTES = 5 * 1024 * 1024
#: A pipe or FIFO that sends nothing for this long is given up on (seconds).
PIPE_TIMEOUT = 30.0
#: Temporary files are named ``.<target name>.<random>.tmp`` beside their target.
TEMP_SUFFIX = ".tmp"
_CHUNK = 1 << 16


def display_name(name: str | os.PathLike[str], limit: int = 200) -> str:
    """A file name fit for a one-line message: control characters escaped, long names elided."""
    text = str(name)
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        text = text.encode("unicode_escape", "backslashreplace").decode("ascii")
    return elide(text, limit)


def elide(text: str, limit: int = 60) -> str:
    """``text`` cut to about ``limit`` characters, saying how much was left out."""
    if len(text) <= limit + 30:  # the note is ~30 characters: cutting fewer saves nothing
        return text
    head = limit * 2 // 3
    tail = limit - head
    return f"{text[:head]}...({len(text) - limit} more characters)...{text[-tail:]}"


def read_text_input(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES,
                    timeout: float | None = None) -> str:
    """Read a small UTF-8 text file of any kind (``-`` is stdin) or raise an InputError naming the problem."""
    if str(path) == "-":
        # named "-" as the user typed it, as every reader names the text it parses
        return decode_text(_read_stdin(max_bytes), "-")
    name = display_name(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        if os.path.islink(path):  # "no such file" beside a file the user can see listed
            raise InputError(f"{name}: a link to nothing ({display_name(os.readlink(path))} does not exist)") from None
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(folder_not_a_file(path, name)) from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError(folder_not_a_file(path, name))
        if stat.S_ISREG(st.st_mode):
            if st.st_size > max_bytes:
                raise _too_large(name, max_bytes, st.st_size)
            data = _read_capped(fd, name, max_bytes, None)
        else:  # a device, FIFO, pipe or socket: no size to trust, so read through the cap and a timeout
            data = _read_capped(fd, name, max_bytes, PIPE_TIMEOUT if timeout is None else timeout)
            if not data and stat.S_ISFIFO(st.st_mode):
                raise InputError(f"{name}: nothing to read (a pipe or FIFO with no writer)")
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    return decode_text(data, name)


def folder_not_a_file(path: str | os.PathLike[str], name: str) -> str:
    """Why a folder was refused, naming the board inside it when it is a folder ``generate`` wrote:
    ``simulate my-board`` right after ``generate --out my-board`` is the likely slip."""
    board = os.path.join(path, "board.json")
    if os.path.isfile(board):
        return f"{name}: is a directory, expected a file (the board generate wrote there is {display_name(board)})"
    return f"{name}: is a directory, expected a file"


def _too_large(name: str, max_bytes: int, size: int | None = None) -> InputError:
    what = f"file is {size / 1e6:.1f} MB, larger than" if size is not None else "input is larger than"
    return InputError(f"{name}: {what} the {max_bytes / 1e6:.0f} MB limit for an input file")


def _read_capped(fd: int, name: str, max_bytes: int, timeout: float | None) -> bytes:
    """At most ``max_bytes`` bytes from ``fd`` (an error past that); with ``timeout``, wait at most that long per chunk."""
    parts: list[bytes] = []
    total = 0
    if timeout is not None:  # a FIFO nobody writes to: Linux reports EOF at once, but select() would wait
        try:
            first = os.read(fd, min(_CHUNK, max_bytes + 1))
        except BlockingIOError:
            first = None  # a writer is attached and has sent nothing yet
        if first == b"":
            return b""
        if first:
            parts.append(first)
            total = len(first)
            if total > max_bytes:
                raise _too_large(name, max_bytes)
    while True:
        if timeout is not None:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                raise InputError(f"{name}: no data arrived for {timeout:g} s (a pipe or device with no writer?)")
        try:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
        except BlockingIOError:
            time.sleep(0.01)
            continue
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        total += len(chunk)
        if total > max_bytes:
            raise _too_large(name, max_bytes)


def _read_stdin(max_bytes: int) -> bytes:
    if sys.stdin is None:  # started with standard input closed (``<&-``; some schedulers do)
        raise InputError("-: standard input is closed: nothing to read (give a file name, or pipe the file in)")
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):  # a replaced stream (tests, embedding)
        data = sys.stdin.buffer.read(max_bytes + 1) if hasattr(sys.stdin, "buffer") else sys.stdin.read(max_bytes + 1).encode()
        if len(data) > max_bytes:
            raise _too_large("-", max_bytes) from None
        return data
    return _read_capped(fd, "-", max_bytes, None)


def _is_utf16(data: bytes) -> bool:
    """Whether ``data`` (starting with a UTF-16 byte-order mark) reads whole as UTF-16 text."""
    try:
        data.decode("utf-16")
    except UnicodeDecodeError:
        return False
    return len(data) % 2 == 0


def decode_text(data: bytes, name: str) -> str:
    """Decode bytes as UTF-8 text, rejecting empty and binary content clearly."""
    if not data.strip():
        raise InputError(f"{name}: file is empty")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") and _is_utf16(data):  # Windows editors' "Unicode": not "binary"
        raise InputError(f"{name}: UTF-16 text; save it as UTF-8 (terragen reads UTF-8)")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(f"{name}: not a text file (binary data at byte {nul})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        at = exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)  # (counted after the BOM utf-8-sig drops)
        line, col = _place_of_byte(data, at)
        raise InputError(f"{name}:{line}:{col}: not UTF-8 text: byte 0x{data[at]:02x} here does not read as UTF-8 "
                         "(an editor saving Latin-1 or Windows-1252 writes accented letters so); save the file as UTF-8",
                         position=(line, col)) from None
    return text


def _place_of_byte(data: bytes, offset: int) -> tuple[int, int]:
    """Line and column (1-based, characters of the valid text before it) of byte ``offset``: "bad byte at
    offset 626" left a user counting bytes; an editor goes to a line and column."""
    import re

    breaks = list(re.finditer(rb"\r\n|\r|\n", data[:offset]))  # the line breaks the readers know, a lone \r too
    line = len(breaks) + 1
    start = breaks[-1].end() if breaks else 0
    if start == 0 and data.startswith(b"\xef\xbb\xbf"):  # a BOM is no character of the first line
        start = 3
    col = len(data[start:offset].decode("utf-8", errors="replace")) + 1
    return line, col


def write_error(path: str | os.PathLike[str], exc: OSError) -> OutputError:
    """The user-facing error for a file that could not be written."""
    return OutputError(f"cannot write {display_name(path)}: {_write_reason(path, exc)}")


def _write_reason(path: str | os.PathLike[str], exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno == errno.EROFS:
        return "read-only file system"
    if exc.errno in (errno.ENOTDIR, errno.EEXIST) and not Path(path).parent.is_dir():
        return "a part of the path is a file, not a folder"
    return exc.strerror or str(exc)


STDOUT_AS_FOLDER = "'-' (standard output) cannot hold a folder's files: give a folder name (./- for a folder called '-')"


def check_out_folder(folder: str | os.PathLike[str]) -> None:
    """Fail early (before any drawing) when ``folder`` or one of its parents is a file, or when it is
    the name ``-``: that means standard output to every command, and as a folder it made one called
    '-'. Only the name as typed: a path object of ``./-`` reads ``-`` too, and is the folder the
    message itself offers (the option types refuse a typed ``-`` before it becomes a path)."""
    if isinstance(folder, str) and folder == "-":
        raise InputError(STDOUT_AS_FOLDER)
    p = Path(folder)
    for part in (p, *p.parents):
        if os.path.exists(part):  # os.path: a name too long for the system is "no", not an error
            if not os.path.isdir(part):
                raise OutputError(f"cannot write into {display_name(p)}: {display_name(part)} is a file, not a folder")
            return
        if os.path.islink(part):  # a link to nothing: mkdir said only "File exists"
            what = _broken_link(part)
            if part == p:
                raise OutputError(f"cannot write {display_name(p)}: it is {what}; remove the link or give another name")
            raise OutputError(f"cannot write into {display_name(p)}: {display_name(part)} is {what}; remove the link "
                              "or give another name")


def check_writable_folder(folder: str | os.PathLike[str]) -> None:
    """Refuse, before any work, a folder (or the nearest existing one it would be made in) that takes
    no new files: a read-only disk, an immutable folder, one whose permissions forbid it. Why: the
    write failed only after the work, 20 s of a five-seat search. Asked with the effective ids, as
    the write itself will be made; the folder of a link's target, not of the link, is the caller's to
    pass (a link in a read-only folder to a file in a writable one is written through)."""
    p = Path(folder) if str(folder) else Path(".")
    for part in (p, *p.parents):
        if os.path.isdir(part):
            effective = os.access in os.supports_effective_ids
            if not os.access(part, os.W_OK | os.X_OK, effective_ids=effective):
                which = "the folder" if part == p else display_name(part)
                raise OutputError(f"cannot write into {display_name(p)}: {which} does not let files be made in it "
                                  "(its permissions, or a read-only disk)")
            return
        if os.path.lexists(part):  # a file or a broken link on the way: check_out_folder says so
            return


def check_file_name(out: str | os.PathLike[str]) -> None:
    """Refuse an output named as a folder: one that is a folder, or a name ending in ``/``
    (given as the user typed it: ``Path()`` drops that slash). Here, not in the command line's
    helpers, because the library's batch checks its file names with it too."""
    if os.path.isdir(out):
        raise InputError(f"{display_name(out)}: is a folder, expected a file name")
    if str(out).endswith(("/", os.sep)):  # "dd/: is a folder" when there was no dd at all
        raise InputError(f"{display_name(out)}: names a folder (it ends in '/'), expected a file name")
    if str(out) == "-":  # read as standard input elsewhere; as an output it made a file called '-'
        # (it said "leave the option out to print", which render and validate --svg never do)
        raise InputError("'-' (standard output) cannot take this output: give a file name (./- for a file "
                         "called '-')")


def make_folder(folder: str | os.PathLike[str]) -> Path:
    """Create ``folder`` (and its parents) or raise an OutputError saying why not."""
    p = Path(folder)
    check_out_folder(p)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise write_error(p, exc) from None
    return p


#: outputs the overwrite check found free, without --force (real paths): a commit must not replace
#: one that appeared since
_EXPECTED_NEW: set[str] = set()


def expect_new(targets: Iterable[str | os.PathLike[str]], force: bool) -> None:
    """Note what the overwrite check decided for ``targets``: without ``force`` each must still be
    free when it is written; with it, each may be replaced."""
    for target in targets:
        real = os.path.realpath(target)
        if force or os.path.lexists(target):
            _EXPECTED_NEW.discard(real)
        else:
            _EXPECTED_NEW.add(real)


def expect_nothing() -> None:
    """Forget every noted output: a new command starts (several run in one process in tests and
    when terragen is embedded)."""
    _EXPECTED_NEW.clear()


class OutputSet:
    """A command's output files, written all or nothing.

    ``add`` writes one file in full to a temporary beside its target (so the
    final rename cannot run out of space); ``commit`` renames every temporary
    into place with interrupts held back; leaving a ``with`` block by an
    exception removes the temporaries, and the folders ``add`` made for them
    if still empty, and leaves every earlier file as it was.
    """

    def __init__(self) -> None:
        self._staged: list[tuple[str, Path]] = []
        self._made: list[Path] = []  # folders add created, deepest last: a failed set removes them again

    def __enter__(self) -> OutputSet:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.discard()

    def add(self, path: str | os.PathLike[str], data: bytes | str) -> Path:
        """Write ``data`` to a temporary for ``path``; it replaces ``path`` at commit."""
        p = Path(path)
        folder = p.parent if str(p.parent) else Path(".")
        missing = [f for f in (folder, *folder.parents) if not os.path.lexists(f)]  # lexists: never raises
        try:
            make_folder(folder)
        finally:  # even a failed make_folder may have made the first few
            self._made.extend(f for f in reversed(missing) if os.path.lexists(f))
        target = output_target(p)
        for _, staged in self._staged:
            if staged == target or Path(os.path.realpath(staged)) == Path(os.path.realpath(target)):
                raise OutputError(f"cannot write {display_name(p)}: it is the same file as another output of this "
                                  f"command ({display_name(staged)}); give each output a file of its own")
        payload = data.encode("utf-8") if isinstance(data, str) else data
        with signals_held():  # an interrupt between creating the temporary and noting it would strand it
            try:
                fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target.name), suffix=TEMP_SUFFIX, dir=str(target.parent))
            except OSError as exc:
                if target == p:
                    raise write_error(p, exc) from None
                # the temporary goes beside the linked file: say which folder refused it
                raise OutputError(f"cannot write {display_name(p)}: {_write_reason(target, exc).lower()} in "
                                  f"{display_name(target.parent)}, the folder of the file it links to (terragen "
                                  "writes a new file there and renames it into place)") from None
            self._staged.append((tmp, target))
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(payload)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)
        except OSError as exc:
            self.discard()
            raise write_error(p, exc) from None
        except BaseException:
            self.discard()
            raise
        return p

    def commit(self) -> list[Path]:
        """Rename every temporary into place; returns the files written, in the order added.

        A target the command's overwrite check found free (:func:`expect_new`) that exists now was
        written by someone else while this command worked (two runs into one folder): the set is
        discarded and the error says so, where the later run replaced the earlier's result unasked.
        Such targets are placed first, each by a hard link that fails if the name was taken, so no
        moment between a look and the rename lets the other run's file be replaced (a file system
        without hard links falls back to the look); only then are the files --force may replace
        renamed, so a refusal can still take back everything this set placed."""
        done: set[Path] = set()
        with signals_held():
            staged = list(self._staged)
            fresh = [(tmp, target) for tmp, target in staged if os.path.realpath(target) in _EXPECTED_NEW]
            taken = [target for _, target in fresh if os.path.lexists(target)]
            failed: Path | None = None
            try:
                for tmp, target in ([] if taken else fresh):
                    failed = target
                    if _link_if_free(tmp, target):
                        done.add(target)
                    elif os.path.lexists(target):
                        taken.append(target)
                        break
                    else:
                        os.replace(tmp, target)
                        done.add(target)
                if taken:
                    for target in done:  # this set made them a moment ago: the folder is as it was
                        with contextlib.suppress(OSError):
                            os.unlink(target)
                    done.clear()
                    self.discard()
                    raise InputError(f"{display_name(taken[0])} appeared while this command ran (another run "
                                     "wrote it?): nothing of this run was written; add --force to replace it, "
                                     "or choose another output")
                for tmp, target in staged:
                    if target not in done:
                        failed = target
                        os.replace(tmp, target)
                        done.add(target)
            except OSError as exc:
                if done:  # the files already placed keep their folders
                    self._made = []
                self.discard()
                raise write_error(failed or staged[0][1], exc) from None
            finally:  # inside the hold: a held Ctrl-C raised at its end must not skip it
                _EXPECTED_NEW.difference_update(os.path.realpath(target) for target in done)
        self._staged = []
        self._made = []
        return [target for _, target in staged if target in done]

    def discard(self) -> None:
        """Remove every temporary not yet renamed (the earlier files stay as they were)."""
        with signals_held():  # a second Ctrl-C must not leave half of them behind
            for tmp, _ in self._staged:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            self._staged = []
            for folder in reversed(self._made):  # only if still empty: never what another writer put there
                with contextlib.suppress(OSError):
                    folder.rmdir()
            self._made = []


def _link_if_free(tmp: str, target: Path) -> bool:
    """Give the temporary ``tmp`` the name ``target`` only if no file has it: True when done, False
    when the name is taken or no hard link could be made (the caller tells them apart by looking,
    and renames as before: FAT, network and FUSE file systems refuse links with errors of every
    kind, EPERM, EINVAL, EIO, and a real trouble with the folder fails that rename with its reason)."""
    try:
        os.link(tmp, target)
    except OSError:
        return False
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    return True


def output_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` replaces, or an OutputError saying why ``path`` takes none.

    A symbolic link is written through: the file it points to gets the content and the link
    stays (renaming onto the link would replace the link by a file of its own and leave the
    linked file as it was). Refused: a folder; a device, pipe or socket (a rename would put a
    regular file where it was, even /dev/full as root); a link to nothing or a loop of links
    (where the file should be made is a guess, as cp says); a link to a stream such as
    /dev/stdout (terragen writes whole files by renaming, which would cut the stream's file
    off its redirection: ``>>`` lost what the file held). Commands call it on every output
    before they work, so a refusal costs nothing."""
    try:
        return _output_target(Path(path))
    except OSError as exc:  # a name too long, a folder on the way that cannot be read
        raise write_error(path, exc) from None


def _output_target(p: Path) -> Path:
    name = display_name(p)
    if _names_a_stream(p):
        raise OutputError(f"cannot write {name}: it is a stream (a link into a process's open files, as "
                          "/dev/stdout is); give a file name")
    if p.is_dir():
        raise OutputError(f"cannot write {name}: it is a folder")
    if p.exists() and not p.is_file():
        raise OutputError(f"cannot write {name}: it is not a regular file (a device, pipe or socket); give a file name")
    if not p.is_symlink():
        return p
    try:
        os.stat(p)
    except OSError:
        raise OutputError(f"cannot write {name}: it is {_broken_link(p)}; remove the link or give another "
                          "name") from None
    return Path(os.path.realpath(p))


def _broken_link(p: str | os.PathLike[str]) -> str:
    """What a link that leads to no file is, for the refusals of a file and of a folder alike
    (where to make the missing target is a guess, as cp says): "a loop of links" or "a link to
    nothing (TARGET)"."""
    try:
        os.stat(p)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a loop of links"
    return f"a link to nothing ({display_name(os.path.realpath(p))})"


def _names_a_stream(p: Path) -> bool:
    """Whether ``p`` or a link on the way from it leads into /proc's list of a process's open files."""
    import re

    fd_folder = re.compile(r"/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/fd")
    here = Path(os.path.abspath(p))
    for _ in range(40):  # the kernel's own limit on links followed
        if fd_folder.fullmatch(os.path.realpath(here.parent)):
            return True
        if not here.is_symlink():
            return False
        try:
            here = Path(os.path.abspath(here.parent / os.readlink(here)))
        except OSError:
            return False
    return False


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Write one file via a temporary and a rename: readers see the old file or the complete new one."""
    with OutputSet() as out:
        out.add(path, data)
    return Path(path)


#: a file name's limit in bytes on the usual file systems (ext4, XFS, APFS, NTFS in UTF-16 units)
NAME_MAX = 255


def hidden_name(name: str, tail: str, reserve: int = 0) -> str:
    """``.<name><tail>``, the name cut (on a character's boundary) so the whole, with ``reserve``
    bytes more that a caller adds, stays within NAME_MAX bytes: a valid 250-byte output name gave
    its temporary or set-aside copy a name too long, and failed after all the work was done."""
    room = NAME_MAX - 1 - len(os.fsencode(tail)) - reserve
    raw = os.fsencode(name)  # a name's bytes as the file system has them, not-UTF-8 ones included
    if len(raw) > room:  # (strict UTF-8 refused such a name: "its encoding utf-8 has no '\udcff'")
        raw = raw[:room]
        lead = len(raw) - 1  # a UTF-8 character cut in half goes whole: find its lead byte
        while lead > 0 and len(raw) - lead < 4 and raw[lead] & 0xC0 == 0x80:
            lead -= 1
        if raw[lead] >= 0xC0 and len(raw) - lead < (4 if raw[lead] >= 0xF0 else 3 if raw[lead] >= 0xE0 else 2):
            raw = raw[:lead] or raw  # (stray bytes that are not UTF-8 stay as cut)
    return f".{os.fsdecode(raw)}{tail}"


def _temp_prefix(name: str) -> str:
    """``.<name>.``, leaving room for mkstemp's 8 random characters and the suffix."""
    return hidden_name(name, ".", reserve=8 + len(TEMP_SUFFIX))


def remove_stray_temporaries(folder: str | os.PathLike[str]) -> int:
    """Delete temporaries a killed run left in ``folder`` (``.<name>.<random>.tmp``); returns how many."""
    removed = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed += 1
    return removed
