"""The bounded reader, the safe parsers and the all-or-nothing writer, in process."""

import errno
import json
import os
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from terragen.errors import InputError, OutputError, SpecError
from terragen.fileio import OutputSet, atomic_write, display_name, elide, read_text_input, remove_stray_temporaries
from terragen.safejson import check_text_numbers, load_json, load_toml


def test_device_files_are_read_through_the_cap():
    for dev in ("/dev/zero", "/dev/urandom"):
        with pytest.raises(InputError, match="limit"):
            read_text_input(dev, max_bytes=1000)
    with pytest.raises(InputError, match="empty"):
        read_text_input("/dev/null")


def test_fifo_without_writer_fails_at_once(tmp_path):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    t = time.monotonic()
    with pytest.raises(InputError, match="no writer"):
        read_text_input(fifo)
    assert time.monotonic() - t < 2


def fifo_with_writer(folder, data: bytes, hold: float):
    """A FIFO held open by a writer thread that sends ``data`` after 0.2 s, then closes after ``hold`` s."""
    fifo = folder / "f"
    os.mkfifo(fifo)
    opened = threading.Event()

    def writer():
        fd = os.open(fifo, os.O_RDWR)  # opening read-write never blocks
        opened.set()
        time.sleep(0.2)
        if data:
            os.write(fd, data)
        time.sleep(hold)
        os.close(fd)

    threading.Thread(target=writer, daemon=True).start()
    opened.wait(5)
    return fifo


def test_fifo_whose_writer_sends_nothing_times_out(tmp_path):
    fifo = fifo_with_writer(tmp_path, b"", hold=2)
    t = time.monotonic()
    with pytest.raises(InputError, match="no data arrived"):
        read_text_input(fifo, timeout=0.3)
    assert time.monotonic() - t < 1.5


def test_fifo_with_a_writer_is_read(tmp_path):
    fifo = fifo_with_writer(tmp_path, b"radius: 1\n", hold=0.1)
    assert "radius" in read_text_input(fifo, timeout=5)


def test_display_name_escapes_newlines_and_elides():
    assert "\n" not in display_name("a\nb.txt") and "\\n" in display_name("a\nb.txt")
    long = "x" * 10_000
    assert len(elide(long, 60)) < 120 and "more characters" in elide(long, 60)


def test_nested_json_is_an_input_error():
    for depth in (33, 5000, 200_000):
        with pytest.raises(InputError, match="nested"):
            load_json('{"a":' + "[" * depth + "]" * depth + "}", "f.json")
    assert load_json("[" * 10 + "]" * 10, "ok") == [[[[[[[[[[]]]]]]]]]]


def test_huge_numbers_and_non_finite_values_are_input_errors():
    with pytest.raises(InputError, match=r"f.json:2:11: .*5000 digits"):
        load_json('{\n  "r":    ' + "1" * 5000 + "}", "f.json")
    for bad in ("NaN", "Infinity", "-Infinity", "1e999"):
        with pytest.raises(InputError):
            load_json(f'{{"x": {bad}}}', "f.json")
    for bad in ("x = nan", "x = inf", "x = [1.0, -inf]", "x = " + "9" * 5000):
        with pytest.raises(SpecError):
            load_toml(bad, "s.toml", SpecError)
    with pytest.raises(InputError, match=r"t.txt:2:9: number with 5000 digits"):
        check_text_numbers("map:\nradius: " + "1" * 5000, "t.txt")


@given(st.text(max_size=300))
def test_load_json_raises_only_input_errors(text):
    try:
        load_json(text, "fuzz")
    except InputError:
        pass


def test_output_set_failure_leaves_the_old_set_and_no_temporaries(tmp_path):
    (tmp_path / "a.txt").write_text("old a")
    (tmp_path / "b.txt").write_text("old b")
    with pytest.raises(RuntimeError):
        with OutputSet() as out:
            out.add(tmp_path / "a.txt", "new a")
            out.add(tmp_path / "b.txt", "new b")
            raise RuntimeError("drawing the third file failed")
    assert (tmp_path / "a.txt").read_text() == "old a" and (tmp_path / "b.txt").read_text() == "old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]
    with OutputSet() as out:
        out.add(tmp_path / "a.txt", "new a")
        out.add(tmp_path / "b.txt", "new b")
    assert (tmp_path / "a.txt").read_text() == "new a" and (tmp_path / "b.txt").read_text() == "new b"


def test_full_disk_is_an_output_error_naming_the_file(tmp_path, monkeypatch):
    (tmp_path / "board.json").write_text("old")
    real_fsync = os.fsync
    calls = []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OutputError, match="cannot write .*board.svg: no space left") as info:
        with OutputSet() as out:
            out.add(tmp_path / "board.json", "new")
            out.add(tmp_path / "board.svg", "<svg/>")
    assert info.value.exit_code == 73
    assert (tmp_path / "board.json").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.json"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_is_an_output_error(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(OutputError, match="cannot write"):
            atomic_write(ro / "x.txt", "x")
    finally:
        ro.chmod(0o755)


def test_a_file_in_the_way_of_a_folder_is_an_output_error(tmp_path):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(OutputError, match="afile is a file, not a folder"):
        atomic_write(tmp_path / "afile" / "sub" / "x.txt", "x")


def test_a_fifo_or_device_is_never_replaced_by_a_regular_file(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="not a regular file"):
        atomic_write(fifo, "x")
    assert fifo.is_fifo() and not list(tmp_path.glob(".*.tmp"))
    with pytest.raises(OutputError, match="not a regular file"):
        atomic_write("/dev/null", "x")
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_stray_temporaries_are_removed(tmp_path):
    (tmp_path / ".board.json.abc123.tmp").write_text("half")
    (tmp_path / "board.json").write_text("{}")
    assert remove_stray_temporaries(tmp_path) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["board.json"]
    json.loads((tmp_path / "board.json").read_text())


def test_a_signal_another_thread_takes_waits_for_the_writer(tmp_path):
    """While a pool's helper threads run, the kernel may hand Ctrl-C to one of them even though
    the main thread holds signals back; the Python handler still runs in the main thread.
    It must wait until the temporary is noted, so the interrupted set leaves none behind."""
    import signal

    from terragen.interrupts import install_handlers, signals_held

    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    release = threading.Event()
    helper = threading.Thread(target=release.wait, daemon=True)  # a thread that does not block the signal
    helper.start()
    reached_end = False
    install_handlers()
    try:
        with pytest.raises(KeyboardInterrupt):
            with OutputSet() as out:
                with signals_held():
                    os.kill(os.getpid(), signal.SIGINT)
                    deadline = time.monotonic() + 0.5
                    while time.monotonic() < deadline:  # bytecodes at which a handler may run
                        pass
                    out.add(tmp_path / "a.txt", "new")
                    reached_end = True
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        release.set()
    assert reached_end
    assert os.listdir(tmp_path) == []


def test_a_link_is_written_through_and_a_link_to_nothing_refused(tmp_path):
    """Renaming onto a link would replace the link and leave the linked file as it was (or
    destroy a link such as /dev/stdout); a link to nothing has no file to write."""
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to("real.json")
    atomic_write(tmp_path / "link.json", "new")
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "real.json").read_text() == "new"
    (tmp_path / "dangling.json").symlink_to("nowhere.json")
    with pytest.raises(OutputError, match="dangling.json: it is a link to nothing"):
        atomic_write(tmp_path / "dangling.json", "x")
    assert (tmp_path / "dangling.json").is_symlink() and not (tmp_path / "nowhere.json").exists()
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_folder_on_the_way_that_is_a_link_to_nothing_is_named_as_one(tmp_path):
    """A folder of the path that is a dangling link or a loop of links: mkdir said "File exists"."""
    (tmp_path / "gone").symlink_to("nowhere")
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(OutputError, match=r"into .*gone/sub: .*gone is a link to nothing \(.*nowhere\); remove"):
        atomic_write(tmp_path / "gone" / "sub" / "x.json", "x")
    with pytest.raises(OutputError, match=r"cannot write .*/a: it is a loop of links; remove the link"):
        atomic_write(tmp_path / "a" / "x.json", "x")
    assert sorted(os.listdir(tmp_path)) == ["a", "b", "gone"]


def test_a_rename_that_fails_at_commit_names_its_file(tmp_path):
    """The error once looked the failed file up after the list of staged files was emptied."""
    out = OutputSet()
    out.add(tmp_path / "a.txt", "a")
    out.add(tmp_path / "b.txt", "b")
    (tmp_path / "b.txt").mkdir()
    (tmp_path / "b.txt" / "inside").write_text("x")  # a folder with files cannot be replaced by a rename
    with pytest.raises(OutputError, match="b.txt"):
        out.commit()
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_failed_set_removes_the_folders_it_made(tmp_path):
    with pytest.raises(RuntimeError), OutputSet() as out:
        out.add(tmp_path / "new" / "deeper" / "a.txt", "a")
        raise RuntimeError("drawing failed")
    assert list(tmp_path.iterdir()) == []


def test_a_stream_a_loop_of_links_and_a_name_too_long_are_refused_before_writing(tmp_path):
    """Renaming onto /dev/stdout's file cut it off its redirection (``>>`` lost what it held)."""
    from terragen.fileio import output_target

    (tmp_path / "out.txt").symlink_to("/dev/stdout")
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    for name, says in (("out.txt", "it is a stream"), ("loop1", "a loop of links")):
        with pytest.raises(OutputError, match=says):
            output_target(tmp_path / name)
        with pytest.raises(OutputError, match=says):
            atomic_write(tmp_path / name, "x")
    with pytest.raises(OutputError, match="cannot write"):  # the folder it made for it goes again
        atomic_write(tmp_path / "new" / ("a" * 300) / "x.txt", "x")
    assert sorted(q.name for q in tmp_path.iterdir()) == ["loop1", "loop2", "out.txt"]


def test_one_file_reached_twice_through_a_link_is_refused(tmp_path):
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.txt").symlink_to("real.json")
    with pytest.raises(OutputError, match="same file as another output"), OutputSet() as out:
        out.add(tmp_path / "real.json", "json")
        out.add(tmp_path / "link.txt", "text")
    assert (tmp_path / "real.json").read_text() == "old" and not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("name", ["a" * 251 + ".txt", "é" * 123 + ".txt"])
def test_an_output_with_a_name_at_the_limit_is_written(tmp_path, name):
    """A 255-byte name is a valid file name; its temporary (".<name>.<random>.tmp") was not, and
    the command failed with exit 73 after all its work."""
    assert len(name.encode("utf-8")) <= 255
    atomic_write(tmp_path / name, "data")
    assert (tmp_path / name).read_text() == "data"
    assert [p.name for p in tmp_path.iterdir()] == [name]


@pytest.mark.parametrize("raw", [b"c\xff.json", b"\xe9" * 250 + b".txt"])
def test_an_output_whose_name_is_not_utf8_is_written(tmp_path, raw):
    """A name with a byte that is not UTF-8 (a Latin-1 file system's, say) was refused as 'its
    encoding utf-8 has no ...; set PYTHONIOENCODING', advice that could not help."""
    import os

    name = os.fsdecode(raw)
    atomic_write(tmp_path / name, "data")
    assert os.listdir(os.fsencode(tmp_path)) == [raw] and (tmp_path / name).read_text() == "data"


def test_an_output_that_appears_while_a_command_works_is_not_replaced_unasked(tmp_path):
    """Two runs into one folder: each found the file free before its work, and the later one
    replaced the earlier one's result without --force, both exiting 0."""
    from terragen.fileio import expect_new, expect_nothing

    target = tmp_path / "board.json"
    expect_nothing()
    expect_new([target], force=False)  # the overwrite check: free, no --force
    target.write_text("the other run's board")  # another run finishes first
    with pytest.raises(InputError, match="appeared while this command ran"):
        with OutputSet() as out:
            out.add(target, "this run's board")
    assert target.read_text() == "the other run's board" and [p.name for p in tmp_path.iterdir()] == ["board.json"]
    expect_new([target], force=True)  # with --force it is this run's to replace
    with OutputSet() as out:
        out.add(target, "this run's board")
    assert target.read_text() == "this run's board"


@pytest.mark.parametrize("link_error", [None, "EPERM", "EINVAL", "EIO"])
def test_an_output_that_appears_at_the_last_moment_is_not_replaced_and_the_set_is_taken_back(
        tmp_path, monkeypatch, link_error):
    """The look for an output that appeared came a moment before the rename: a file the other run
    wrote in that moment was replaced. Here it appears while the set is being placed, after the
    look: nothing of the set stays (its first file, new, is taken back), the other run's file is
    whole. Without hard links (FAT, some network file systems) the look has to do, and does."""
    import errno
    import os
    from pathlib import Path

    from terragen.fileio import expect_new, expect_nothing

    first, second = tmp_path / "board.json", tmp_path / "board.svg"
    expect_nothing()
    expect_new([first, second], force=False)
    real_link, real_replace = os.link, os.replace

    def other_run_writes_then(do):
        def placed(src, dst, *a, **k):
            if Path(dst) == second and not second.exists():
                second.write_text("the other run's picture")
            if link_error and do is real_link:
                raise OSError(getattr(errno, link_error), "no hard links here")
            return do(src, dst, *a, **k)
        return placed

    monkeypatch.setattr(os, "link", other_run_writes_then(real_link))
    if link_error:
        monkeypatch.setattr(os, "replace", other_run_writes_then(real_replace))
    with pytest.raises(InputError, match="board.svg appeared while this command ran"):
        with OutputSet() as out:
            out.add(first, "this run's board")
            out.add(second, "this run's picture")
    assert second.read_text() == "the other run's picture"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg"]


@pytest.mark.parametrize("link_error", ["EPERM", "EINVAL", "EIO", "EACCES"])
def test_new_outputs_are_written_where_no_hard_link_can_be_made(tmp_path, monkeypatch, link_error):
    """Only a few errors of os.link fell back to the rename; a file system answering EINVAL (FAT
    on some systems) or EIO (some network mounts) failed every new output without --force."""
    import errno
    import os

    from terragen.fileio import expect_new, expect_nothing

    def no_links(*a, **k):
        raise OSError(getattr(errno, link_error), "no hard links here")

    monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / "new.txt"
    expect_nothing()
    expect_new([target], force=False)
    atomic_write(target, "data")
    assert target.read_text() == "data" and [p.name for p in tmp_path.iterdir()] == ["new.txt"]


def test_a_set_of_new_files_and_files_force_replaces_is_written_whole_and_in_order(tmp_path):
    from terragen.fileio import expect_new, expect_nothing

    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("before")
    expect_nothing()
    expect_new([old], force=True)
    expect_new([new], force=False)
    with OutputSet() as out:
        out.add(old, "after")
        out.add(new, "fresh")
    assert (old.read_text(), new.read_text()) == ("after", "fresh")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt", "old.txt"]
    out = OutputSet()
    out.add(old, "1")
    out.add(new, "2")
    expect_new([new], force=True)
    assert out.commit() == [old, new]


def test_a_file_written_by_this_command_may_be_written_again_by_it(tmp_path):
    from terragen.fileio import expect_new, expect_nothing

    target = tmp_path / "a.txt"
    expect_nothing()
    expect_new([target], force=False)
    atomic_write(target, "one")
    atomic_write(target, "two")  # its own file: not someone else's
    assert target.read_text() == "two"


def test_a_command_that_failed_after_its_output_check_binds_no_later_write(tmp_path, monkeypatch):
    """convert of a missing file noted its output as 'must be new' and failed; in the same process a
    later write of that path (a library call, a test) was then refused as 'appeared while this command ran'."""
    from terragen.cli import main
    from terragen.templates import template_path
    from terragen.terrain.files import load_layout, save_layout

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(["convert", "missing.txt", "out.json"])
    assert stop.value.code == 2
    (tmp_path / "out.json").write_text("mine")
    save_layout(load_layout(template_path("terrain", "examples", "two-players.txt")), tmp_path / "out.json")
    assert (tmp_path / "out.json").read_text() != "mine"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_file_is_named_as_such_not_as_binary(tmp_path, encoding):
    """Windows editors save 'Unicode' as UTF-16: it was 'not a text file (binary data at byte 3)'."""
    from terragen.errors import InputError
    from terragen.fileio import decode_text

    data = "\ufeffradius: 5\n".encode(encoding) if encoding.endswith("be") else "radius: 5\n".encode(encoding)
    with pytest.raises(InputError, match="UTF-16 text; save it as UTF-8"):
        decode_text(data, "board.txt")


@pytest.mark.parametrize("data, place, byte", [
    (b"game: terrain\n# caf\xe9\n", "2:6", "e9"),  # a Latin-1 editor's accented letter
    (b"\xef\xbb\xbf\xe9", "1:1", "e9"),  # a BOM is no character of the line
    ("# 🎲 ".encode() + b"\xff", "1:5", "ff"),  # a character is one column, whatever its bytes
    (b"game: terrain\nab\xc3", "2:3", "c3"),  # a sequence cut short at the end
    (b"a\r\xe9", "2:1", "e9"),  # a lone \r ends a line, as the readers count lines
    (b"a\r\nb\xe9", "2:2", "e9"),
])
def test_a_file_that_is_not_utf8_names_the_line_and_column_of_its_bad_byte(data, place, byte):
    """'bad byte at offset 626' left a user counting bytes; an editor goes to a line and column."""
    from terragen.errors import InputError
    from terragen.fileio import decode_text

    with pytest.raises(InputError) as caught:
        decode_text(data, "f.txt")
    assert caught.value.message.startswith(f"f.txt:{place}: not UTF-8 text: byte 0x{byte} here")
    assert caught.value.position == tuple(int(n) for n in place.split(":"))
