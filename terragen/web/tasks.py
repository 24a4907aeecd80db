"""The long jobs of the web app, as they run inside a child process.

Each task receives checked options (see ``terragen.web.api``) and a ``report``
callable for progress, and returns a :class:`TaskResult`. Generate, the kits
and the build sheet run the very ``terragen`` commands a user would type, in a
private temporary folder, so the page and the command line can never disagree;
the files they write come back as bytes and the folder is deleted. No path here
ever comes from the browser: the folder is made by ``tempfile``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from terragen.web.api import page_words

Report = Callable[[dict[str, Any]], None]


@dataclass
class TaskResult:
    """What a finished job hands back: JSON data for the page and files to download."""

    data: dict[str, Any] = field(default_factory=dict)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # name -> (media type, bytes)


class TaskFailed(Exception):
    """The command refused its input; ``message`` is its one stderr line, without the prefix."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class _LineSink(io.TextIOBase):
    """A text stream that hands every complete line to a callback (the child's stdout/stderr).

    As stderr it says it is a terminal, so the command draws its progress bar;
    each redraw (``\\r`` ... ``ESC[K``) arrives here as one line.
    """

    def __init__(self, on_line: Callable[[str], None], terminal: bool = False) -> None:
        self.on_line = on_line
        self.terminal = terminal
        self.buffer_text = ""
        self.lines: list[str] = []

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.terminal

    def write(self, s: str) -> int:
        self.buffer_text += s.replace("\x1b[K", "").replace("\r", "\n")
        while "\n" in self.buffer_text:
            line, self.buffer_text = self.buffer_text.split("\n", 1)
            if line.strip():
                self.lines.append(line)
                self.on_line(line)
        return len(s)


_BAR = re.compile(r"\[[#.]+\]\s*([0-9]+(?:\.[0-9]+)?)/([0-9]+(?:\.[0-9]+)?)")


def progress_of(line: str, command: str) -> dict[str, Any]:
    """One stderr line of a command as progress: the bar's count as done/total, the rest as the message."""
    # "terragen generate: error: ..." and "terragen: warning: ..." read "error: ..." and "warning: ..."
    text = line.removeprefix(f"terragen {command}").removeprefix("terragen").strip()
    text = text.removeprefix(": ").strip()
    m = _BAR.search(text)
    if m is None:
        return {"message": text}
    return {"done": float(m.group(1)), "total": float(m.group(2)),
            "message": (text[:m.start()] + text[m.start() + len(m.group(0).split("]")[0]) + 1:]).strip()}


_HELP_HINT = re.compile(r" \(see 'terragen [a-z -]+--help'\)$")


def _for_the_page(line: str, private: str | None) -> str:
    """A command's stderr line as the page shows it: without the job's temporary folder (a path
    the user never chose) or a pointer to a command's --help (the page has none)."""
    if private:
        line = line.replace(str(Path(private)) + os.sep, "")
    return page_words(_HELP_HINT.sub("", line))


def run_command(argv: list[str], report: Report, private: str | None = None) -> list[str]:
    """Run ``terragen ARGV`` in this process; stderr lines go to ``report`` as progress.

    Returns the lines it printed on stdout; raises TaskFailed with the
    command's own message and exit code when it does not succeed, with the job's
    temporary folder ``private`` taken out of it ("board.json: ...", not a path
    the user never chose).
    """
    from terragen.cli import main

    out = _LineSink(lambda line: None)
    err = _LineSink(lambda line: report(progress_of(_for_the_page(line, private), argv[0])), terminal=True)
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if code != 0:
        message = err.lines[-1] if err.lines else f"terragen {argv[0]} stopped with exit code {code}"
        for prefix in (f"terragen {argv[0]}: error: ", "terragen: error: ", "terragen: "):
            message = message.removeprefix(prefix)
        raise TaskFailed(_for_the_page(message, private), code)
    return out.lines


def _read_files(folder: Path, media: str) -> dict[str, tuple[str, bytes]]:
    return {p.name: (media, p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()}


def generate_flags(options: dict[str, Any]) -> list[str]:
    """The command-line flags for the form's (checked) options. An unticked box of an option
    that is on by default (``--expert-glance``) turns it off with its ``--no-`` form: leaving
    the flag out would leave it on."""
    import click

    from terragen.cli.generate import generate as command

    off = {p.name: p.secondary_opts[0] for p in command.params if isinstance(p, click.Option) and p.secondary_opts}
    argv: list[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            if value:
                argv.append(flag)
            elif key in off:
                argv.append(off[key])
        else:
            argv += [flag, str(value)]
    return argv


def generate(options: dict[str, Any], report: Report) -> TaskResult:
    """``terragen generate`` with the form's options; the board comes back as layout data."""
    with tempfile.TemporaryDirectory(prefix="terragen-web-") as tmp:
        folder = Path(tmp) / "board"
        argv = ["generate", "--progress", "--out", str(folder), *generate_flags(options)]
        report({"message": "searching for a board"})
        summary = run_command(argv, report, tmp)
        files = {name: (media, (folder / name).read_bytes()) for name, media in
                 (("board.json", "application/json"), ("board.txt", "text/plain"), ("board.svg", "image/svg+xml"))}
    layout = json.loads(files["board.json"][1])
    return TaskResult({"layout": layout, "summary": summary_for_page(summary), "warning": page_warning(layout)},
                      files)


def page_warning(layout: dict[str, Any]) -> dict[str, Any] | None:
    """The command's own warning on a generated board, in its words, with the verdict it is about:
    a best-effort board's, else one on team play (a board the page's "Fair in team play too" asked
    for reached the page as BALANCED, with no word that it was not fair in teams)."""
    from terragen.terrain.formats_json import layout_from_data
    from terragen.terrain.generate.report import not_balanced_warning, team_warning

    board = layout_from_data(layout, "board.json")
    balance = (layout.get("meta") or {}).get("balance") or {}
    warning = not_balanced_warning(board)
    if warning is not None:
        return {"verdict": balance.get("verdict"), "text": warning}
    warning = team_warning(board)
    if warning is not None:
        return {"verdict": f"team play {balance['teams']['verdict']}", "text": warning}
    return None


#: the command's pointers to what prints the board, as the page says them: its Print tab
_PRINT_HINTS = {
    "to print its build sheet: terragen render ": "to print its build sheet: Print tab → Build sheet PDF",
    "to print a kit with its board and pieces: terragen kit terrain": "to print a kit with its board and pieces: "
    "Print tab → Make kit (The Terrain Game; its board sheets take this board's radius)",
}


def summary_for_page(lines: list[str]) -> list[str]:
    """generate's summary as the page shows it: no line naming the job's temporary folder, which is
    deleted once the job ends ("written: ...", "terragen render /tmp/terragen-web-.../board.json"), and
    the printing hints pointing to the Print tab. A kit of another piece set (--inventory) keeps its
    command: the page's kit has no such choice."""
    out = []
    for line in lines:
        if line.startswith("written: "):
            continue
        hint = next((said for cli, said in _PRINT_HINTS.items() if line.startswith(cli)), None)
        out.append(line if hint is None or "--inventory" in line else hint)
    return out


def simulate(layout_data: dict[str, Any], options: dict[str, Any], report: Report) -> TaskResult:
    """Full-rules games on the layout, with the simulator's verdicts and a progress fraction."""
    from terragen.terrain.formats_json import layout_from_data
    from terragen.terrain.sim.runner import simulate_layout
    from terragen.web.api import simulate_rules

    layout = layout_from_data(layout_data, "layout")
    rules = simulate_rules(layout, options)

    def progress(done: int, total: int) -> None:
        report({"done": done, "total": total, "message": f"{done}/{total} games"})

    sim = simulate_layout(layout, games=options["games"], seed=options["seed"], policy=options["policy"],
                          rules=rules, margin=options["margin"], progress=progress)
    # the command's note on a verdict of few games, in its words (the page gave a firm verdict on 20)
    return TaskResult({"report": sim.to_json(), "lines": sim.lines(), "note": sim.quick_look_note(),
                       "shown": shown_rates(sim)})


def shown_rates(sim: Any) -> list[dict[str, Any]]:
    """Each seat's win rate, 95 % interval and fair share as the command prints them (62.2%): the
    page rounded the report's already rounded 0.6225 again and showed 62.3%."""
    out = []
    for s in sim.seats:
        lo, hi = s.interval
        out.append({"seat": s.seat, "win_rate": f"{s.rate:.1%}", "ci95": [f"{lo:.1%}", f"{hi:.1%}"], "fair": f"{s.fair:.1%}"})
    return out


def build_sheet(layout_text: str, paper: str, name: str, palette: str, report: Report) -> TaskResult:
    """``terragen render`` of the layout as a PDF build sheet.

    The layout is written under ``name``, the file the user opened (checked by ``api.file_label``),
    so the sheet's title and render's messages name that file; render reads JSON by its content,
    whatever the name ends in.
    """
    with tempfile.TemporaryDirectory(prefix="terragen-web-") as tmp:
        src = Path(tmp) / name
        src.write_text(layout_text, encoding="utf-8")
        # named as the command names it beside the layout (four-players.txt: four-players-build.pdf),
        # in a fresh folder of its own made after the layout is written: never the layout's own name
        # (a stem starting with a dot, '.json', would be a hidden file: such a sheet is board-build.pdf)
        stem = src.stem if src.stem and not src.stem.startswith(".") else "board"
        out = Path(tempfile.mkdtemp(dir=tmp)) / f"{stem}-build.pdf"
        report({"message": "drawing the build sheet"})
        # --name: the folder it is written to here is no part of the user's file's name
        run_command(["render", str(src), "--paper", paper, "--out", str(out), "--name", name, "--palette", palette],
                    report, tmp)
        return TaskResult({"files": [out.name]}, {out.name: ("application/pdf", out.read_bytes())})


def kit(game: str, options: dict[str, Any], report: Report) -> TaskResult:
    """``terragen kit GAME``: every PDF of the kit, each downloadable on its own."""
    with tempfile.TemporaryDirectory(prefix="terragen-web-") as tmp:
        folder = Path(tmp) / "kit"
        argv = ["kit", game, "--out", str(folder), "--paper", options["paper"], "--flip", options["flip"]]
        if options.get("outlines") is not None:  # None: each piece as the kit draws it by default
            argv.append("--outlines" if options["outlines"] else "--no-outlines")
        if options.get("nets"):
            argv.append("--nets")
        if options.get("radius", 5) != 5:
            argv += ["--radius", str(options["radius"])]
        if options.get("palette", "colour") != "colour":
            argv += ["--palette", options["palette"]]
        if options.get("low_ink"):
            argv.append("--low-ink")
        if options.get("back_offset"):
            argv.append(f"--back-offset={options['back_offset']}")  # one word: a leading '-' is no flag
        report({"message": f"drawing the {game} kit"})
        run_command(argv, report, tmp)
        files = _read_files(folder, "application/pdf")
    return TaskResult({"files": list(files)}, files)


#: job kind -> the function the child process runs
TASKS: dict[str, Callable[..., TaskResult]] = {
    "generate": generate,
    "simulate": simulate,
    "build-sheet": build_sheet,
    "kit": kit,
}
