"""The ``terragen`` command line: one click group whose subcommands load lazily.

Each subcommand lives in its own module under ``terragen.cli`` and is imported
only when it runs, so ``terragen --help`` does not pay for OR-Tools, reportlab
or shapely. All expected failures become one line on stderr and a documented
exit code (see ``terragen.errors``); a traceback is shown only with
``TERRAGEN_DEBUG=1``.
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import os
import sys
import types

import click

from terragen import __version__
from terragen.cli._common import set_quiet
from terragen.errors import EXIT_CANTCREAT, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, TerragenError


class Interrupted(Exception):
    """Ctrl-C or SIGTERM inside a command, carried past click (which would print a blank line
    and turn it into Abort) to :func:`main`, which prints one line and exits with ``code``."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code

#: name -> (module under terragen.cli, attribute, one-line help shown by ``terragen --help``)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "generate": ("generate", "generate", "Generate a fair Terrain Game board that meets a spec."),
    "validate": ("validate", "validate", "Check a layout or position against the rules and analyse it."),
    "show": ("show", "show", "Draw a Terrain Game layout in the terminal."),
    "convert": ("convert", "convert", "Convert a file between its text and JSON forms (any game)."),
    "simulate": ("simulate", "simulate", "Play many Terrain Game matches on a layout and judge it."),
    "render": ("render", "render", "Draw a layout as a printable build sheet (SVG or PDF)."),
    "kit": ("kit", "kit", "Print-and-play sheets for a game: tiles, boards, tokens."),
    "batch": ("batch", "batch", "Produce many puzzle scenarios with a booklet and answer key."),
    "presets": ("presets", "presets", "List the difficulty presets with their bands."),
    "examples": ("examples", "examples", "List, print or copy the example files that ship with terragen."),
    "terrace": ("terrace", "terrace", "Terrace: check positions, list moves, count move trees, play matches."),
    "terralogical": ("terralogical", "terralogical", "Terralogical: design the deck, check boards, play matches."),
    "terraflip": ("terraflip", "terraflip", "TerraFlip: design the tile set, check positions, play matches."),
    "serve": ("serve", "serve", "A local web page to build, check, balance and print a board."),
}


def _with_quiet(cmd: click.Command) -> click.Command:
    """Every command, down to the leaves of each group, takes ``-q/--quiet``."""
    from terragen.cli._common import add_quiet

    add_quiet(cmd)
    said = " ".join([cmd.help or "", *(getattr(p, "help", None) or "" for p in cmd.params)])
    if "docs/" in said and not isinstance(cmd, LazyGroup):  # its help names a page: say where the pages are
        cmd.format_epilog = types.MethodType(_epilog_with_docs, cmd)  # type: ignore[method-assign]
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None:
                _with_quiet(sub)
    return cmd


def _available(name: str) -> bool:
    module = COMMANDS[name][0]
    return importlib.util.find_spec(f"terragen.cli.{module}") is not None


#: words users type for a command that has another name (the docs call the page "web")
COMMAND_SYNONYMS = {"web": "serve", "server": "serve", "gui": "serve", "ui": "serve", "check": "validate",
                    "play": "simulate", "print": "kit", "puzzles": "batch", "draw": "render", "list": "examples"}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand is used."""

    def resolve_command(self, ctx: click.Context, args: list[str]):
        # an unknown command names the one meant where it can tell: click said only "No such command"
        name = args[0] if args else ""
        if (name and not name.startswith("-") and not ctx.resilient_parsing  # shell completion: click's own way
                and self.get_command(ctx, name) is None):
            import difflib

            guess = COMMAND_SYNONYMS.get(name.lower()) or next(
                iter(difflib.get_close_matches(name.lower(), self.list_commands(ctx), 1)), None)
            if guess is not None:
                ctx.fail(f"No such command {name!r}. Did you mean {guess!r}?")  # click's words in the groups
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMANDS if _available(name)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS or not _available(cmd_name):
            return None
        module, attr, _ = COMMANDS[cmd_name]
        return _with_quiet(getattr(importlib.import_module(f"terragen.cli.{module}"), attr))

    def invoke(self, ctx: click.Context):
        from terragen.interrupts import exit_code_for

        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise Interrupted(exit_code_for(exc)) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        write_docs_folder(formatter)


def write_docs_folder(formatter: click.HelpFormatter) -> None:
    """The help's docs/NAME.md pointers, resolved for this install (a wheel has no checkout): in the
    top-level help and in every command's help that names a page (only the top level said it)."""
    from terragen.docs import docs_folder

    folder = docs_folder()
    formatter.write_paragraph()
    if folder is None:
        formatter.write_text("Documentation (docs/NAME.md in the help): the docs folder of terragen's "
                             "source distribution; this install has no copy.")
    else:  # the path on a line of its own, never wrapped, so it can be copied
        formatter.write_text("Documentation (docs/NAME.md in the help) is in:")
        formatter.write(f"{' ' * (formatter.current_indent + 2)}{folder}\n")


def _epilog_with_docs(self: click.Command, ctx: click.Context, formatter: click.HelpFormatter) -> None:
    click.Command.format_epilog(self, ctx, formatter)
    write_docs_folder(formatter)


def say_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``terragen, version 0.1.0 (compiled kernels in use)``: a build without a C compiler falls back
    to the same results in pure Python, two to three times slower, and said so nowhere."""
    if not value or ctx.resilient_parsing:
        return
    from terragen.terrain.compiled import kernels_in_use

    use = kernels_in_use()
    if all(use.values()):
        how = "compiled kernels in use"
    elif os.environ.get("TERRAGEN_PURE_PYTHON", "") not in ("", "0"):
        how = "pure Python, as TERRAGEN_PURE_PYTHON asks"
    else:
        missing = ", ".join(name for name, ok in use.items() if not ok)
        how = f"{missing} not loaded: the same results in pure Python, slower"
    click.echo(f"terragen, version {__version__} ({how})")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("-q", "--quiet", is_flag=True, expose_value=False, is_eager=True, callback=set_quiet,
              help="Print nothing but errors and the data asked for, in every command.")
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True, callback=say_version,
              help="Show the version, and whether the compiled kernels are in use, and exit.")
def cli() -> None:
    """Generate, check, simulate and print boards for The Terrain Game, Terrace,
    Terralogical and TerraFlip.

    \b
    Examples:
      terragen generate --players 4 --difficulty hard
      terragen validate my-board.txt
      terragen validate my-board.txt --json
      terragen show my-board.txt
      terragen COMMAND --help

    Every command takes -q/--quiet and -h/--help; commands that write files
    never replace an existing one without --force. Shell completion (bash,
    zsh, fish): see docs/cli.md, e.g. eval "$(_TERRAGEN_COMPLETE=bash_source terragen)".

    \b
    Exit status (the same for every command):
      0    success
      1    the input failed its check (validate: rule violations; simulate: NOT
           PLAYABLE or NOT BALANCED; generate's best-effort board is 0, with a
           warning)
      2    bad usage, an unreadable or malformed input, an output that exists
      3    the spec was proved infeasible
      4    the time limit was reached without a result
      70   internal error (a bug in terragen: please report it)
      73   an output file could not be written (read-only, disk full, a file
           in the way)
      130  interrupted (Ctrl-C); 143 stopped by SIGTERM; 129 the terminal
           closed (SIGHUP)
    """


def _command_path(exc: click.ClickException, args: list[str] | None = None) -> str:
    """The command an error is about. click's parser leaves no context on some of its errors
    (``validate F --json=1``: "Option '--json' does not take a value"), which then pointed to
    'terragen --help': the command is read off ``args`` instead."""
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        return ctx.command_path
    return _path_in(args or [])


def _path_in(args: list[str]) -> str:
    """The deepest command named by ``args``' words (options skipped), as click writes its path."""
    path: list[str] = ["terragen"]
    group: click.Command = cli
    ctx = click.Context(cli, info_name="terragen", resilient_parsing=True)
    for word in args:
        if word.startswith("-"):
            continue
        if not isinstance(group, click.Group):
            break
        found = group.get_command(ctx, word)
        if found is None:
            break
        path.append(word)
        group = found
    return " ".join(path)


_QUIET_TRACKER = "ignore::UserWarning:multiprocessing.resource_tracker"


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI and turn every failure into one line and an exit code."""
    import signal

    from terragen.cli._streams import protect_stderr, protect_stdout
    from terragen.interrupts import install_handlers

    args = sys.argv[1:] if argv is None else argv
    if argv is None and _QUIET_TRACKER not in sys.warnoptions:
        # Ctrl-C or SIGTERM ends the simulation processes at once, and multiprocessing's
        # resource tracker (a helper process started with our -W options) then frees what
        # they held and says so on stderr, under the one line the user is promised
        sys.warnoptions.append(_QUIET_TRACKER)
    protect_stdout()
    protect_stderr()
    problem = _completion_problem(os.environ)
    if problem:
        from terragen.docs import doc_page

        _err(f"terragen: error: shell completion: {problem} (see {doc_page('cli.md')})")
        sys.exit(EXIT_USAGE)
    from terragen.interrupts import STOPPING

    saved = {sig: signal.getsignal(sig) for sig in STOPPING}
    install_handlers()
    try:
        try:
            rv = cli.main(args=args, prog_name="terragen", standalone_mode=False)
            code = rv if isinstance(rv, int) else 0
        finally:
            _ignore_signals()  # the work is over: a late Ctrl-C must not break the report or the exit
    except SystemExit:
        raise
    except BaseException as exc:
        code = _report(exc, args)
    finally:
        from terragen.fileio import expect_nothing

        expect_nothing()  # a command that checked its outputs and failed must not bind a later one
        if argv is not None:  # called from Python (tests, embedding): give the caller its handlers back
            for sig, handler in saved.items():
                signal.signal(sig, handler)
    sys.exit(code)


def _ignore_signals() -> None:
    import signal

    from terragen.interrupts import STOPPING

    for sig in STOPPING:
        signal.signal(sig, signal.SIG_IGN)


#: what click's shell completion needs of the environment for each request it can be sent
_COMPLETION_NEEDS = {"bash_source": (), "zsh_source": (), "fish_source": (),
                     "bash_complete": ("COMP_WORDS", "COMP_CWORD"), "zsh_complete": ("COMP_WORDS", "COMP_CWORD"),
                     "fish_complete": ("COMP_WORDS", "COMP_CWORD")}


def _completion_problem(env: os._Environ | dict) -> str | None:
    """Why a shell-completion request in ``env`` cannot be served (click fails with a KeyError or
    exits 1 in silence), or None: ``_TERRAGEN_COMPLETE`` is meant to be set by the shell's script."""
    request = env.get("_TERRAGEN_COMPLETE")
    if not request:  # unset or empty: no completion asked for (as click reads it)
        return None
    if request not in _COMPLETION_NEEDS:
        return (f"_TERRAGEN_COMPLETE={request!r} is not one of "
                f"{', '.join(sorted(_COMPLETION_NEEDS))}")
    missing = [name for name in _COMPLETION_NEEDS[request] if name not in env]
    if missing:
        return f"{request} needs {' and '.join(missing)}, which the shell's completion script sets"
    if "COMP_CWORD" in _COMPLETION_NEEDS[request] and not env["COMP_CWORD"].strip().isdigit():
        return f"COMP_CWORD must be a word number, got {env['COMP_CWORD']!r}"
    return None


def _err(line: str) -> None:
    """The error line on stderr, if stderr can take it: a closed or full stderr (``2>&-``) must
    not change the exit status the line stands for (it turned a bad input's 2 into 1)."""
    try:
        click.echo(line, err=True)
    except (OSError, ValueError):
        pass


def _report(exc: BaseException, args: list[str] | None = None) -> int:
    """One line on stderr for ``exc``; the exit code it stands for."""
    from terragen.interrupts import exit_code_for

    if isinstance(exc, click.exceptions.Abort):
        return _interrupted(exit_code_for(exc.__cause__) if exc.__cause__ else 130)
    no_args = getattr(click.exceptions, "NoArgsIsHelpError", ())
    if isinstance(exc, no_args) and exc.ctx is not None:  # bare `terragen` or `terragen terrace`: the help, as asked
        click.echo(exc.ctx.get_help())
        return EXIT_OK
    if isinstance(exc, click.exceptions.NoSuchOption) and exc.possibilities and exc.ctx is not None:
        # names an option keeps for old scripts but hides from --help are not offered either
        hidden = {n for p in exc.ctx.command.params for n in getattr(p, "old_names", ())}
        exc.possibilities = [n for n in exc.possibilities if n not in hidden]
    if isinstance(exc, click.UsageError):
        path = _command_path(exc, args)
        _err(f"{path}: error: {_one_line(exc.format_message())} (see '{path} --help')")
        return EXIT_USAGE
    if isinstance(exc, click.ClickException):
        _err(f"{_command_path(exc)}: error: {_one_line(exc.format_message())}")
        return exc.exit_code
    if isinstance(exc, TerragenError):
        _err(f"terragen: error: {_one_line(exc.message)}")
        return exc.exit_code
    if isinstance(exc, Interrupted):
        return _interrupted(exc.code)
    if isinstance(exc, KeyboardInterrupt):
        return _interrupted(exit_code_for(exc))
    if isinstance(exc, BrokenPipeError):
        return 0
    if isinstance(exc, UnicodeEncodeError) and not os.environ.get("TERRAGEN_DEBUG"):
        # a pipe or file whose encoding (PYTHONIOENCODING, the locale) lacks a character of the data
        bad = exc.object[exc.start:exc.end][:5]
        _err(f"terragen: error: cannot write the output: its encoding {exc.encoding} has no {bad!r}; "
             "set PYTHONIOENCODING=utf-8 (or a UTF-8 locale)")
        return EXIT_CANTCREAT

    if isinstance(exc, OSError) and exc.errno in _ENVIRONMENT_ERRNOS and not os.environ.get("TERRAGEN_DEBUG"):
        from terragen.fileio import display_name

        where = f" {display_name(exc.filename)}" if exc.filename else ""
        _err(f"terragen: error: cannot write{where}: {exc.strerror or exc}")
        return EXIT_CANTCREAT
    if isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG and not os.environ.get("TERRAGEN_DEBUG"):
        from terragen.fileio import display_name  # a name no file can have: bad input, wherever it is met

        _err(f"terragen: error: {display_name(exc.filename or '')}: {exc.strerror or exc}")
        return EXIT_USAGE
    if not isinstance(exc, Exception) or os.environ.get("TERRAGEN_DEBUG"):
        raise exc  # the last guard shows a traceback only when asked
    return _internal(exc)


#: OSErrors that describe the user's machine (a full disk, a read-only mount), not a bug.
_ENVIRONMENT_ERRNOS = {28, 30, 122, 13, 1}  # ENOSPC, EROFS, EDQUOT, EACCES, EPERM


def _one_line(message: str, limit: int = 600) -> str:
    """A message as one bounded line: a hostile token or file name cannot flood the terminal."""
    from terragen.fileio import elide

    return elide(" ".join(message.splitlines()), limit)


def _internal(exc: BaseException) -> int:
    _err(f"terragen: internal error: {type(exc).__name__}: {_one_line(str(exc), 300)} "
               "(please report it; set TERRAGEN_DEBUG=1 for a traceback)")
    return EXIT_INTERNAL


def _interrupted(code: int) -> int:
    from terragen.interrupts import stop_word

    _err(f"terragen: {stop_word(code)}")
    return code
