"""Helpers every command shares, so each option and behaviour means the same everywhere.

* :func:`echo_json` prints JSON the same way in every command.
* :func:`say` prints a human line unless ``-q/--quiet`` was given.
* :func:`check_outputs` is the one no-overwrite rule: a command names every file it
  is about to write *before* doing the work, and an existing one stops it (exit 2)
  unless ``--force`` was given.
* :data:`force_option`, :data:`json_option` and the ``-q`` option attached to every
  command by the root group keep names and help texts identical across commands.
* :class:`Whole` and :class:`FiniteFloat` read numbers in ASCII digits and give every range one
  wording, ``--players must be 2–6 (got 7)`` (:func:`out_of_range`).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from terragen.limits import MAX_SCALE, MAX_TIME_LIMIT, MIN_SCALE

QUIET_KEY = "terragen.quiet"


class PathName(click.Path):
    """click's Path that refuses an empty name.

    Why: an empty ``--tiles ''`` or ``--out ''`` (a shell variable that was not set) read as
    "not given", so a command silently used its default tile set, wrote into the current folder
    or wrote nothing; the user meant some file and should hear that the name is missing.

    A file that cannot be read is left to the command's reader, which says so as every reader does
    ("cannot read (Permission denied)"); click's own check said "Invalid value for 'FILE': File
    '...' is not readable." in some commands only."""

    def __init__(self, *args: Any, called: str | None = None, **kwargs: Any) -> None:
        """``called``: how an argument is named when refused (``OUT``): convert's output folder was
        refused as "adir: is a directory", the words of an input that cannot be read."""
        kwargs.setdefault("readable", False)
        super().__init__(*args, **kwargs)
        self.called = called

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, (str, bytes)) and not value:
            self.fail(EMPTY_NAME, param, ctx)
        if not self.dir_okay and isinstance(value, str) and os.path.isdir(value):
            # the words every reader uses (click said "File 'x' is a directory." for some commands)
            from terragen.errors import InputError
            from terragen.fileio import display_name, folder_not_a_file

            if not isinstance(param, click.Option) and not self.called:  # the file argument a command reads
                raise InputError(folder_not_a_file(value, display_name(value)))
            # which one: an option by its name, an output argument by what the help calls it
            option = f"{max(param.opts, key=len)}: " if isinstance(param, click.Option) else f"{self.called} "
            raise InputError(f"{option}{display_name(value)}: is a directory, expected a file")
        return super().convert(value, param, ctx)


class FolderName(PathName):
    """An output folder's name: what is in the way (a file of that name, or a parent that is a file) is
    the command's to say, with exit 73 as for every output that cannot be written. Why not click's
    ``Path(file_okay=False)``: it said "Directory 'x' is a file." with exit 2, bad usage."""

    def __init__(self, path_type: type[Any] | None = None) -> None:
        super().__init__(path_type=path_type)
        self.name = "directory"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value == "-":  # as typed: ./- is a folder called '-', which a path reads as '-'
            from terragen.errors import InputError
            from terragen.fileio import STDOUT_AS_FOLDER

            raise InputError(STDOUT_AS_FOLDER)
        converted = super().convert(value, param, ctx)
        _refuse_file_like_folder(str(value), param)
        return converted

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="dir")]  # folders, as click's Path(file_okay=False) offered


#: endings that name a file, not a folder: ``generate --out board.json`` made a folder called board.json
FILE_ENDINGS = (".json", ".txt", ".svg", ".pdf", ".png", ".toml", ".csv", ".zip")


def _refuse_file_like_folder(value: str, param: click.Parameter | None) -> None:
    """A new folder whose name ends like a file is most likely a file name given to an option that
    takes a folder; a folder of that name that already exists is the user's own choice, and is used."""
    stem, ending = os.path.splitext(value.rstrip("/\\"))
    if ending.lower() not in FILE_ENDINGS or os.path.lexists(value):  # a file in the way is the command's to say
        return
    from terragen.errors import InputError

    names = [o for o in (param.opts if param else ()) if o.startswith("--")] or ["this option"]
    raise InputError(f"{value!r} looks like a file name, but {' / '.join(names)} names a folder to write files into: "
                     f"give a folder (e.g. {names[0]} {os.path.basename(stem) or 'out'}), or make the folder first to "
                     "keep that name")


class OldNamesOption(click.Option):
    """An option that still answers to earlier names (``old_names``) without listing them in --help.

    Why: click lists every name of an option, so generate's help still offered ``--gate-games``,
    ``--gate-margin`` and ``--no-gate`` beside the names the docs use; scripts that give them must
    keep working, but a reader of the help should learn one name. click has no way to hide one name
    of an option, so the help line is written without them."""

    def __init__(self, *args: Any, old_names: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.old_names = tuple(old_names)
        unknown = [n for n in self.old_names if n not in self.opts]
        if unknown or len(self.old_names) >= len(self.opts):
            raise ValueError(f"old names {unknown or self.old_names} must be some, not all, of {self.opts}")

    def get_error_hint(self, ctx: click.Context) -> str:
        """Errors name the option as the help does ("'--margin' / '--gate-margin'" named the old one)."""
        return " / ".join(f"'{n}'" for n in self.opts if n not in self.old_names)

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        names = self.opts
        self.opts = [n for n in names if n not in self.old_names]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = names


EMPTY_NAME = "an empty name (was a shell variable not set?)"
#: ``--scale``'s help, the same wherever a sheet is printed (kit, render)
SCALE_HELP = "Print-scale correction, 0.9 to 1.1, e.g. 1.02 if the 100 mm bar prints as 98 mm."


class NonEmptyText(click.ParamType):
    """Plain text refusing an empty value as :class:`PathName` does: ``--scheduler ''`` (a shell
    variable that was not set) ran on a local cluster without a word."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value:
            self.fail(EMPTY_NAME, param, ctx)
        return value


class FileOrName(NonEmptyText):
    """A file name, "-" or the name of something shipped (an inventory, the default deck), refusing
    an empty one. Why not click's Path: a folder or an unreadable file must reach the command's own
    reading, which says so in its own words (and ``validate --json`` as a document)."""


FILE_OR_NAME = FileOrName()
NON_EMPTY_TEXT = NonEmptyText()


def one_standard_input(**inputs: str | None) -> None:
    """Refuse two of a command's inputs both given as ``-``: standard input holds one file, and the
    second read found it empty ("--deck: -: file is empty"). ``inputs`` maps how each is named
    (``FILE``, ``--deck``) to what was given."""
    both = [name for name, value in inputs.items() if value == "-"]
    if len(both) > 1:
        from terragen.errors import SpecError

        raise SpecError(f"{both[0]} and {both[1]} both read standard input ('-'), which holds one file: give one "
                        "of them a file name")


def echo_data(text: str) -> None:
    """Print what the command was asked for (a file's text, a JSON report), whole: the file's own
    line endings, no newline added. A closed or full standard output is an output error (exit 73),
    which the stream set up by :func:`terragen.cli._streams.protect_stdout` raises."""
    click.echo(text, nl=False)


def echo_json(data: Any) -> None:
    """Print JSON deterministically (sorted keys, stable indentation)."""
    echo_data(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def is_quiet() -> bool:
    """True when ``-q/--quiet`` was given to the root command or to the running command."""
    ctx = click.get_current_context(silent=True)
    while ctx is not None:
        if ctx.meta.get(QUIET_KEY):
            return True
        ctx = ctx.parent
    return False


def say(message: str = "", err: bool = False) -> None:
    """A line meant for people: silenced by ``-q``. Data the user asked for uses click.echo.

    A character the terminal's encoding lacks (a file named with an arrow, PYTHONIOENCODING=latin-1)
    is written escaped, as error lines are: the report failed as an output that could not be
    written (exit 73), and its real verdict was lost. Data keeps failing instead: a converted file
    written with escapes in it would be another file."""
    if not is_quiet():
        click.echo(_printable(message, sys.stderr if err else sys.stdout), err=err)


def note_missing_kernels() -> None:
    """Say once, before a long run, that the compiled modules are missing: a wheel built where no C
    compiler was found ran 2-3 times slower without a word (only ``terragen --version`` told).
    Silenced by ``-q``: the results are the same."""
    from terragen.terrain.compiled import missing_kernels

    missing = missing_kernels()
    if missing and not is_quiet():
        warn(f"{' and '.join(missing)} not compiled in this install: the same results in pure Python, 2-3x "
             "slower (with a C compiler, such as gcc, on the machine, reinstalling terragen builds them)")


def warn(message: str) -> None:
    """A warning: one line on stderr, ``terragen: warning: ...``, the shape of the error line
    (``terragen: error: ...``) so one search finds both; the commands once each put their own name
    in it, one of them a name no command has (``terragen terralogical kit`` for ``kit
    terralogical``). Not silenced by ``-q``: it tells of a result that is not what was asked."""
    try:
        click.echo(_printable(f"terragen: warning: {message}", sys.stderr), err=True)
    except (OSError, ValueError):  # a closed or full stderr must not change the exit status
        pass


#: control characters a line for people never holds as such (a file name can): a terminal would act
#: on an escape sequence, and a stray byte garbles the line; tabs and line breaks are the message's own
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _printable(message: str, stream: Any) -> str:
    message = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), message)
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        message.encode(encoding)
    except UnicodeEncodeError:
        return message.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:
        pass
    return message


def say_report(lines: list[str]) -> None:
    """A report's lines for people, long prose lines wrapped to 80 columns (tables left whole)."""
    from terragen.plain_text import wrapped

    for line in wrapped(lines):
        say(line)


def set_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta[QUIET_KEY] = True
    return value


def quiet_param(cmd: click.Command | None = None) -> click.Option:
    """The ``-q/--quiet`` option every command carries (added by the root group); its help names
    ``--json`` only where the command has it (show, serve and examples copy said it too)."""
    has_json = cmd is not None and any(p.name == "as_json" for p in cmd.params)
    asked = "the data asked for (--json, a printed file)" if has_json else "the data asked for"
    return click.Option(["-q", "--quiet"], is_flag=True, expose_value=False, is_eager=True, callback=set_quiet,
                        help=f"Print nothing but errors and {asked}; the exit status still tells the result.")


def add_quiet(cmd: click.Command) -> click.Command:
    """Give ``cmd`` and, for a group, every subcommand it lists a ``-q/--quiet`` option (idempotent)."""
    if not any(p.name == "quiet" for p in cmd.params):
        cmd.params.append(quiet_param(cmd))
    return cmd


#: ``--force``: the same name and meaning in every command that writes files.
force_option = click.option(
    "--force", is_flag=True,
    help="Replace existing output files (without it, a command never overwrites a result).",
)

#: ``--palette``: the Terrain Game's piece colours, for the kit and the build sheet alike (a sheet
#: should show the pieces as they were printed).
palette_option = click.option(
    "--palette", type=FILE_OR_NAME, default="colour", show_default=True, metavar="NAME|FILE",
    help="Piece colours: colour, grey (levels light to dark by height, for black-and-white printers) "
         "or a TOML file of your own (docs/printing.md).")


def read_palette_option(value: str) -> Any:
    """The palette ``--palette`` names; one that cannot be read or is malformed is bad usage of it (exit 2)."""
    from terragen.render.palette import read_palette

    with reading_option("--palette"):
        return read_palette(value)


#: ``--json``: a machine-readable document on stdout instead of the human report.
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print a JSON document on stdout instead of the human report.")


def seed_range() -> Whole:
    """What every --seed takes: 0 to :data:`terragen.safejson.MAX_SEED` (a longer seed, recorded in
    the files a command writes, made files that terragen's own readers refuse)."""
    from terragen.safejson import MAX_SEED

    return Whole(0, MAX_SEED)


class NameChoice(click.Choice):
    """click's Choice, in any case, whose refusal reads as every other unknown name's
    (:func:`terragen.names.unknown_name`), after the option's name as for every bad option:
    ``--difficulty: unknown difficulty 'hrad': did you mean 'hard'? (choose from easy, medium, hard,
    brutal)``. ``kind`` is what a value is (``difficulty``, ``set-up``); without it, the option's name.

    Why: ``--policy greddy`` was told the policy it meant, but a slip in any option click checked
    (``--difficulty hrad``, ``terrace setup nine``) got click's "Invalid value for '--difficulty':
    'hrad' is not one of ..." without the fix. It stays a click.Choice, so the help still lists the
    values, shell completion offers them and the web page's form reads them (web/api.py)."""

    def __init__(self, choices: Iterable[str], kind: str | None = None, case_sensitive: bool = False) -> None:
        super().__init__(list(choices), case_sensitive=case_sensitive)
        self.kind = kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():  # a shell variable not set: said as for any name
            self.fail(EMPTY_NAME, param, ctx)
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            from terragen.names import unknown_name

            kind = self.kind or _kind_of(param)
            known = [str(c) for c in self.choices]
            message = unknown_name(kind, str(value), known).message
            if isinstance(param, click.Option) and param.opts:  # named as every bad option is (--inventory's too)
                message = f"{max(param.opts, key=len)}: {message}"
            raise click.UsageError(message, ctx) from None


def _kind_of(param: click.Parameter | None) -> str:
    """What an option's values are, from its name: ``--subsoil-rule`` takes a "subsoil rule"."""
    if isinstance(param, click.Option) and param.opts:
        return max(param.opts, key=len).lstrip("-").replace("-", " ")
    return (param.name or "value").replace("_", " ") if param is not None else "value"


def paper_choice() -> NameChoice:
    """The paper sizes every printing command accepts (a4, letter, and any in a custom template set)."""
    from terragen.render.paper import paper_names

    return NameChoice(paper_names() or ["a4", "letter"], "paper")


def check_file_name(out: str | Path) -> None:
    """Refuse an output named as a folder (:func:`terragen.fileio.check_file_name`, loaded only
    when a command checks a name)."""
    from terragen.fileio import check_file_name as check

    check(out)


def check_outputs(paths: Iterable[str | Path], force: bool, inputs: Iterable[str | Path | None] = ()) -> None:
    """The one overwrite rule of terragen: an existing result is never replaced unasked.

    Called with every file a command is about to write, before it computes
    them, so a refusal costs nothing and leaves no half-done work behind.
    An output that is one of the command's ``inputs`` is refused even with
    --force: --force asks to replace an earlier result, and a layout, deck or
    tile set replaced by a picture or a game record is a slip, not a wish.
    """
    from terragen.errors import InputError

    from terragen.fileio import check_out_folder, check_writable_folder, display_name, output_target

    paths = list(paths)
    for out in paths:
        check_file_name(out)
    files: dict[str, str | Path] = {}
    for out in paths:  # what add would refuse after the work (a folder, a link to nothing, a stream), now
        check_out_folder(Path(out).parent)  # a file where a folder of the path should be
        target = output_target(out)
        check_writable_folder(target.parent)  # where the file (a link's target) will be made
        real = os.path.realpath(target)
        if real in files and str(files[real]) != str(out):
            raise InputError(f"{display_name(out)} and {display_name(files[real])} are the same file (through a "
                             "link): each output of a command needs a file of its own")
        files.setdefault(real, out)
    for out in paths:
        for source in inputs:
            if source is None or not os.path.exists(out):  # os.path: a name too long is "no", not an error
                continue
            if str(source) == "-":
                if _is_stdin(out):
                    raise InputError(f"{out} is the file standard input reads (the command's input): writing the "
                                     "output there would replace it; choose another output")
                continue
            if not os.path.exists(source):
                continue
            try:
                same = os.path.samefile(out, source)
            except OSError:
                continue
            if same:
                what = "is this command's input" if str(out) == str(source) else f"is the same file as the input {source}"
                raise InputError(f"{out} {what}: writing the output there would replace it; choose another output")
    existing = [Path(p) for p in paths if os.path.lexists(p)]  # a dangling link is in the way too
    if existing and not force:
        from terragen.plain_text import counted

        first = existing[0]
        others = len(existing) - 1
        more = f" (as {'does' if others == 1 else 'do'} {counted(others, 'other output file')})" if others else ""
        raise InputError(f"{first} exists already{more}: add --force to replace it, or choose another output")
    from terragen.fileio import expect_new

    expect_new([output_target(p) for p in paths], force)  # and still free when written, unless --force


def _is_stdin(path: str | Path) -> bool:
    """Whether ``path`` is the file standard input was redirected from (``convert - F < F``)."""
    try:
        here, there = os.fstat(sys.stdin.fileno()), os.stat(path)
    except (OSError, ValueError, AttributeError):  # no stdin, or one without a descriptor (a test's runner)
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def check_folder(path: str | Path) -> Path:
    """An output folder path with no file in the way (the folder itself or a parent): exit 73."""
    from terragen.fileio import check_out_folder

    check_out_folder(path)
    return Path(path)


def out_of_range(param: click.Parameter | None, shown: str, lo: float | None, hi: float | None,
                 above: float | None = None) -> click.UsageError:
    """The one wording of every option's range: ``--players must be 2–6 (got 7)``."""
    name = param.opts[0] if param is not None and param.opts else "the value"

    def num(x: float) -> str:  # whole numbers in full (":g" wrote 1000000 as 1e+06)
        return f"{x:g}" if isinstance(x, float) else str(x)

    if above is not None:
        want = f"above {num(above)}" + (f", at most {num(hi)}" if hi is not None else "")
    elif lo is not None and hi is not None:
        want = f"{num(lo)}–{num(hi)}"
    else:
        want = f"at least {num(lo)}" if lo is not None else f"at most {num(hi)}"
    return click.UsageError(f"{name} must be {want} (got {shown})")


class Whole(click.IntRange):
    """A whole-number option, optionally in ``lo``..``hi`` or one of a few values, in ASCII digits.

    Why not click's int and IntRange as they are: ``int()`` reads Arabic-Indic and other decimal
    digits (so ``--port ٣`` served on port 3), and IntRange's "is not in the range 0<=x<=..." read
    differently from every other range terragen checks; every option's range now reads one way.
    It stays an IntRange so that the help shows the range."""

    name = "integer"

    def __init__(self, lo: int | None = None, hi: int | None = None, one_of: tuple[int, ...] = (),
                 show_range: bool = True) -> None:
        super().__init__(lo, hi)  # min and max: the names the web page's form reads (web/api.py)
        self.one_of, self.show_range = one_of, show_range

    def _describe_range(self) -> str:
        if not self.show_range:  # the option's help says it in its own words
            return ""
        if self.one_of:
            return "one of " + ", ".join(map(str, self.one_of))
        if self.min is not None and self.max is not None:
            return f"{self.min}–{self.max}"
        return f"at least {self.min}" if self.min is not None else f"at most {self.max}" if self.max is not None else ""

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str | None:
        return None  # "INTEGER", as for click's int

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        import re

        if isinstance(value, bool) or not isinstance(value, (int, str)):
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if isinstance(value, str):
            text = value.strip()
            if not re.fullmatch(r"[+-]?[0-9]{1,40}", text):
                self.fail(f"{value!r} is not a whole number (ASCII digits 0-9){policy_hint(text, param, ctx)}",
                          param, ctx)
            value = int(text)
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise out_of_range(param, str(value), self.min, self.max)
        if self.one_of and value not in self.one_of:
            name = param.opts[0] if param is not None and param.opts else "the value"
            raise click.UsageError(f"{name} must be one of {', '.join(map(str, self.one_of))} (got {value})")
        return value


def policy_hint(text: str, param: click.Parameter | None, ctx: click.Context | None) -> str:
    """'; to choose the players' policies use --policy random,greedy' for ``--players random,greedy``
    in a command that has --policy: ``--players`` is a count everywhere (it once took the list in
    one game), and only Terrace's own reader said where the list goes."""
    has_policy = ctx is not None and any("--policy" in p.opts for p in ctx.command.params)
    if not (has_policy and param is not None and "--players" in param.opts
            and re.fullmatch(r"[A-Za-z][\w-]*(,[A-Za-z][\w-]*)*", text)):
        return ""
    return f"; to choose the players' policies use --policy {text}"


def checked_when_read(check: Any) -> Any:
    """A click callback that runs ``check`` (a library's own reading of the option's value, raising
    SpecError) as the command line is read. Why: a misspelt --policy or --variant was found only
    once the command ran, and said as "terragen: error: unknown policy ...", without the command,
    the option or the help that a misspelt --difficulty gets from click; now both read alike, and a
    slip is said before any board is read or any game played."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        from terragen.errors import SpecError

        if value is None or value == ():
            return value
        try:
            for one in (value if isinstance(value, tuple) else (value,)):
                check(one)
        except SpecError as exc:
            name = max(param.opts, key=len) if isinstance(param, click.Option) and param.opts else str(param.name)
            said = exc.message if exc.message.startswith(name) else f"{name}: {exc.message}"
            raise click.UsageError(said, ctx) from None
        return value

    return callback


def known_names(module: str, attr: str = "POLICIES", kind: str = "policy") -> Any:
    """A check for :func:`checked_when_read`: every name of a comma list is one of ``module.attr``'s (any
    case), the module imported only when the option is given (the CLI starts without the games)."""

    def check(text: str) -> None:
        import importlib

        from terragen.names import comma_list, unknown_name

        names = list(getattr(importlib.import_module(module), attr))
        for name in comma_list(text, f"--{kind}", names):
            if name not in names:
                raise unknown_name(kind, name, names)

    return check


@contextmanager
def reading_option(option: str) -> Iterator[None]:
    """Read an option's own file (``--deck``, ``--tiles``, ``--inventory``): one it cannot read is bad
    usage of that option, said as such, not an input that cannot be read. Why: inside
    :func:`json_even_on_failure` a missing ``--deck`` file made ``validate --json`` report the board
    itself as unreadable (``readable: false``), though the board was never the problem."""
    from terragen.errors import InputError, SpecError
    from terragen.templates import TemplateError

    try:
        yield
    except TemplateError:
        raise  # the data folder's file, not the option's: said as itself
    except InputError as exc:
        raise SpecError(f"{option}: {exc.message}", exc.exit_code) from None


@contextmanager
def json_even_on_failure(source: str, as_json: bool, game: str | None = None) -> Iterator[None]:
    """With ``--json``, a file that cannot be read still gives a JSON document on stdout
    (``readable: false`` and an ``unreadable`` error), plus the usual one line on stderr; ``game``
    (the command's own game) goes into it as every readable file's report has it."""
    from terragen.errors import InputError
    from terragen.safejson import JsonValueError

    try:
        yield
    except InputError as exc:
        if not as_json:
            raise
        # the file is the document's "file": the message need not start with it again
        error = {"code": "unreadable", "message": exc.message.removeprefix(f"{source}: "), "cells": []}
        if exc.position:  # a syntax error at a known place, given as the text forms' are: the place in
            line, col = exc.position  # its fields, not repeated at the head of the message
            error.update(code="unreadable" if isinstance(exc, JsonValueError) else "syntax", line=line, col=col,
                         message=exc.message.removeprefix(f"{source}:{line}:{col}: "))
        elif (at := re.match(rf"{re.escape(source)}:([0-9]+)(?::([0-9]+))?: ", exc.message)) is not None:
            # a reader that names its place only in the message ('FILE:1:1: missing 'game: ...' line'):
            # the place in the fields all the same, so a script reads it in one way for every game
            error.update(line=int(at.group(1)), message=exc.message[at.end():])
            if at.group(2):
                error["col"] = int(at.group(2))
        document = {"file": source, "valid": False, "readable": False, "errors": [error], "warnings": []}
        echo_json({**document, "game": game} if game else document)
        click.echo(f"terragen: error: {exc.message}", err=True)
        raise SystemExit(exc.exit_code) from None


class FiniteFloat(click.ParamType):
    """A float option that refuses ``nan`` and ``inf`` (``float()`` accepts both, and no range
    check catches nan: ``--time-limit nan`` used to remove the time limit), optionally in a range."""

    name = "number"

    def __init__(self, lo: float | None = None, hi: float | None = None, positive: bool = False) -> None:
        self.lo, self.hi, self.positive = lo, hi, positive

    def convert(self, value, param, ctx) -> float:
        import math

        try:
            # float() reads Arabic-Indic digits and '1_000' too; whole-number options refuse both
            if isinstance(value, str) and (not value.isascii() or "_" in value):
                raise ValueError
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        shown = value.strip() if isinstance(value, str) else f"{number:g}"
        if self.positive and number <= 0:
            raise out_of_range(param, shown, None, self.hi, above=0)
        if (self.lo is not None and number < self.lo) or (self.hi is not None and number > self.hi):
            raise out_of_range(param, shown, self.lo, self.hi, above=0 if self.positive else None)
        return number


class MarginShare(FiniteFloat):
    """A margin as a share (0.025), which users read as points everywhere else: ``--margin 2.5``
    is told the share it probably meant, not only the range. ``wider`` is what to do instead of
    a share above the range, up to 1 (generate's ``--no-balance``: ``simulate --margin 1`` is how
    its docs turn the balance verdict off, and generate refused the same wish naming only 0.5)."""

    def __init__(self, lo: float | None = None, hi: float | None = None, wider: str | None = None) -> None:
        super().__init__(lo, hi)
        self.wider = wider

    def convert(self, value, param, ctx) -> float:
        try:
            return super().convert(value, param, ctx)
        except click.UsageError as exc:
            if isinstance(value, str) and not value.isascii():
                raise exc from None  # float() reads '٣' as 3: "is not a number; did you mean 0.03?" said both
            try:
                points = float(value)
            except (TypeError, ValueError):
                raise exc from None
            if self.hi is not None and 1 < points <= 100 and points / 100 <= self.hi:  # 2.5: points
                raise click.UsageError(f"{exc.message}: a share, not points; did you mean {points / 100:g} "
                                       f"({points:g} points)?") from None
            if self.wider and self.hi is not None and self.hi < points <= 1:
                raise click.UsageError(f"{exc.message}; {self.wider}") from None
            raise


#: Any finite number; a strictly positive one (sizes, scales); a time limit (above 0, at most a day).
FINITE = FiniteFloat()
TIME_LIMIT = FiniteFloat(hi=MAX_TIME_LIMIT, positive=True)
#: --scale of every printing command
PRINT_SCALE = FiniteFloat(MIN_SCALE, MAX_SCALE)
