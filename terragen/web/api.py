"""What each API call does, as plain functions of decoded JSON: no HTTP here.

Every answer comes from the library: the live check is ``terragen validate``'s
own report (the same JSON as ``terragen validate --json``) plus the geometry
the page needs to draw it (exits, cliffs, starts), so the browser never
decides a rule. Options for the long jobs are checked here, against the
command's own click options where one exists, before a job starts; anything
that could name a file or load code (spec files, output folders, policy
classes) is not offered.
"""

from __future__ import annotations

import json
import re
from typing import Any

import click

from terragen.errors import InputError, TerragenError
from terragen.fileio import decode_text
from terragen.formats import GAME_FILES, GAMES, detect_game
from terragen.terrain.sim.variants import VARIANT_NAMES
from terragen.plain_text import named
from terragen.safejson import MAX_SEED

#: Largest layout or upload the API reads; real layouts are a few kilobytes.
MAX_TEXT_CHARS = 1_000_000

#: generate options the page may not set: files, folders, terminal output, and processes (a page's job
#: runs in a daemonic process, which may start none: it plays every game itself, the same board)
GENERATE_HIDDEN = {"spec_file", "out_dir", "progress", "force", "as_json", "quiet", "workers"}
#: the generate form's labels in plain words, for a player who never typed the command (the flag
#: stays beside each as a hint); an option without one here is labelled with its flag's words
GENERATE_LABELS = {
    "players": "Seats",
    "destinations": "Destinations per seat",
    "difficulty": "Difficulty",
    "seed": "Random seed",
    "time_limit": "Time limit (s)",
    "radius": "Board radius",
    "inventory": "Piece set",
    "placement": "Where destinations go",
    "shape": "Terrain shape",
    "symmetry": "Symmetry",
    "balance_games": "Games to check balance",
    "margin": "Fairness margin",
    "no_balance": "Skip balancing (faster)",
    "strict_balance": "Only a verified balanced board",
    "check_experts": "Balance for expert players too",
    "expert_glance": "Quick look at expert players",
    "team_play": "Fair in team play too",
}
#: the piece inventories offered (a file path is never taken from the browser)
INVENTORIES = ("standard", "extended")
#: rule variants the page may offer: the simulator's, less the plain rules (team play with the default
#: partners, on neighbouring corners: the page has no list of teams, as --teams gives)
VARIANT_CANDIDATES = tuple(v for v in VARIANT_NAMES if v != "standard")
KIT_GAMES = GAMES  # every game has a kit
FLIPS = ("long", "short")
#: the piece colours the page offers (the shipped palettes: a file of one's own is the command line's)
PALETTES = ("colour", "grey")
PAGE_MAX_GAMES = 20_000
#: the page's own bounds, tighter than the command line's: a job holds a process of a shared server
PAGE_MAX_TIME_LIMIT = 600.0
PAGE_MAX_TURN_CAP = 10_000
#: rough games per second of each built-in player on a four-seat board (measured 2026-12-05 on a
#: shared 2-core machine, 1,000 games from cold): only for the page's "about 10 s" beside the default
#: number of games, a hint of the wait and nothing more
SIM_PACE = {"greedy": 1500, "expert": 200, "random": 60, "solitary": 20000}


class ApiError(InputError):
    """A request the API refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


#: the CLI's pointer to the command that lists every problem; the page lists them itself
_VALIDATE_HINT = re.compile(r"(: )?'?terragen validate'? lists (them all|every problem)")


def page_words(message: str) -> str:
    """A library or CLI message as the page says it: pointers to commands the page user has no
    use for become the page's own list of problems ("... (terragen validate lists every problem)")."""

    def said(m: re.Match) -> str:
        if m.group(2) == "them all":  # a file that did not read: the page has no list to show, only the count
            return ""
        return ("; " if m.group(1) else "") + "the page's list of problems names every one"

    return _VALIDATE_HINT.sub(said, message)


# -- layouts ----------------------------------------------------------------------------------
def layout_from_request(data: Any, source: str = "layout") -> Any:
    """The Layout in a request's ``layout`` value (the JSON contract), read as strictly as a file."""
    from terragen.terrain.formats_json import layout_from_data

    if not isinstance(data, dict):
        raise ApiError("'layout' must be a JSON object (the layout file's content)")
    # as large as a file may be, as for an upload: a 7.5 MB layout of 140,000 cells took seconds and
    # a gigabyte when sent thirty times at once
    size = len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    if size > MAX_TEXT_CHARS:
        raise ApiError(f"{source}: larger than the limit of {MAX_TEXT_CHARS:,} characters for a layout "
                       f"({size:,} as JSON)", 413)
    return layout_from_data(data, source)


def parse_upload(text: Any, name: Any) -> dict[str, Any]:
    """An uploaded layout file (JSON or the hand-typed text form) as layout data."""
    from terragen.terrain.files import parse_layout
    from terragen.terrain.formats_json import layout_to_data

    if not isinstance(text, str):
        raise ApiError("'text' must be the file's content as a string")
    label = file_label(name, "upload")
    if len(text) > MAX_TEXT_CHARS:  # characters, as the page counts them too (not bytes)
        raise ApiError(f"{label}: file is longer than the limit of {MAX_TEXT_CHARS:,} characters for a layout", 413)
    # empty and binary files as the CLI says them, and a byte-order mark dropped as the CLI drops it
    text = decode_text(text.encode("utf-8", "surrogatepass"), label)
    game = detect_game(text)
    if game not in (None, "terrain"):  # "this is a TerraFlip position, not a Terrain Game layout", and no way on
        raise ApiError(f"{label}: this is a {GAME_FILES[game]}; the page edits Terrain Game boards only. "
                       f"'terragen validate {label}' checks it, and the Print tab makes its game's kit")
    layout = parse_layout(text, label)
    from terragen.terrain.formats_json import is_scenario

    # a batch scenario: the page checks its one player as the puzzle it is, as validate does
    return {"layout": layout_to_data(layout), "puzzle": is_scenario(text)}


#: the most bytes of a file label, leaving room for a suffix (``-build.pdf``) within a file name's 255
MAX_LABEL_BYTES = 200


def optional(body: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    """``body[key]`` when given and of ``kind`` (null counts as not given); a wrong type is a 400
    naming the key, as every other value of a request is (``"puzzle": "yes"`` read as false)."""
    value = body.get(key)
    if value is None:
        return default
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        what = {bool: "true or false", str: "a string"}.get(kind, kind.__name__)
        raise ApiError(f"'{key}' must be {what}, not {type(value).__name__}")
    return value


def file_label(name: Any, fallback: str) -> str:
    """A file name the browser sent, fit to show in messages and to name a file in a job's own
    temporary folder: printable, no folder part, at most 80 characters and 200 bytes (80 emoji
    are 320 bytes, past the 255 a file name may have here: the job failed as an internal error);
    ``fallback`` otherwise."""
    label = name if isinstance(name, str) and name.strip() else fallback
    label = "".join(ch for ch in label[:80] if ch.isprintable() and ch not in "/\\").strip()
    while len(label.encode("utf-8", "surrogatepass")) > MAX_LABEL_BYTES:
        label = label[:-1]
    return label if label.strip(".") else fallback


def empty_layout(radius: Any) -> dict[str, Any]:
    """A board of ``radius`` with no pieces and two players on opposite corners."""
    from terragen.terrain.formats_json import MAX_RADIUS, layout_to_data
    from terragen.terrain.layout import Layout, Player

    if isinstance(radius, bool) or not isinstance(radius, int) or not 1 <= radius <= MAX_RADIUS:
        raise ApiError(f"'radius' must be a whole number from 1 to {MAX_RADIUS} (the largest a layout file may have)")
    return {"layout": layout_to_data(Layout(radius, [], [Player(0, 0), Player(1, 3)]))}


def check(data: Any, puzzle: bool = False) -> dict[str, Any]:
    """The live check: validate's report (with the race model's chances) and what the page draws;
    ``puzzle``: the board came from a batch scenario, checked as validate checks that file."""
    from terragen.grids import hex as hx
    from terragen.terrain.board import Board
    from terragen.terrain.pieces import PATTERNS, exits
    from terragen.terrain.validation import BLOCKING_CODES, chances_of, validate_layout

    layout = layout_from_request(data)
    report = validate_layout(layout, puzzle=puzzle)
    report_json = report.to_json()
    board = Board.from_layout(layout)
    cells = []
    for c in layout.sorted_cells():
        ok = c.pattern in PATTERNS and 0 <= c.rotation <= 5
        cells.append({"q": c.q, "r": c.r, "exits": list(exits(c.pattern, c.rotation)) if ok else []})
    cliffs = []
    for i, j in board.cliffs():
        d = hx.direction_between(board.hexes[i], board.hexes[j])
        cliffs.append({"q": board.hexes[i][0], "r": board.hexes[i][1], "direction": d})
    starts = [{"seat": p.seat, "corner": p.corner, "hex": list(s) if (s := layout.start(p)) else None}
              for p in layout.players]
    # the errors for which validate left out every seat's figures: the page says so in the seats'
    # table, which was left with its headers only
    skipped_by = sorted({f.code for f in report.errors if f.code in BLOCKING_CODES}) \
        if report_json.get("analysis") == "skipped" else []
    metrics = report_json.get("metrics") or {}
    return {
        "report": report_json,
        "summary": report.summary,
        # "valid" says legal; how even the seats' chances look is said beside it (validate's words)
        "chances": (chances_of(metrics)[0] if metrics.get("race_max_deviation_rotating") is not None
                    and len(layout.players) > 1 else None),
        "skipped_by": skipped_by,
        "to_do": still_to_do(layout, report.errors),
        "board": {"radius": layout.radius, "cells": cells, "cliffs": cliffs, "starts": starts,
                  "positions": [list(h) for h in hx.board_cells(layout.radius)]},
    }


def still_to_do(layout: Any, errors: list[Any]) -> list[int]:
    """Which of ``errors`` (their places in the list) are work not yet done rather than a mistake:
    a position with no piece, a seat with no destination. ``validate`` must call them errors (a
    file to play from has to be whole), but on a board being built they are what comes next, and
    the page drew a new board all in red as if the user had broken something."""
    from terragen.grids import hex as hx
    from terragen.terrain.validation import destination_count_message

    unplaced = {destination_count_message(p.seat, 0) for p in layout.players if not p.destinations}
    placed = {c.hex for c in layout.cells}
    unfinished = any(f.code == "cell-missing" for f in errors)

    def waits_for_a_piece(f: Any) -> bool:
        """A destination put on a position whose piece is still to come (placing destinations first
        turned the board red); and, while positions are empty, one no route reaches yet."""
        if f.code == "destination-off-board" and f.cells:
            cell = tuple(f.cells[0])
            return hx.on_board(cell, layout.radius) and cell not in placed
        return f.code == "destination-unreachable" and unfinished

    return [i for i, f in enumerate(errors)
            if f.code == "cell-missing" or (f.code == "destination-count" and f.message in unplaced)
            or waits_for_a_piece(f)]


def export(data: Any, fmt: Any) -> tuple[str, str]:
    """The layout as a file: (text, media type) for ``json`` or ``text``."""
    from terragen.terrain.formats_json import write_json_layout
    from terragen.terrain.formats_text import write_text_layout

    layout = layout_from_request(data)
    if fmt == "json":
        return write_json_layout(layout), "application/json"
    if fmt == "text":
        return write_text_layout(layout), "text/plain"
    raise ApiError("'format' must be 'json' or 'text'")


# -- options of the long jobs -----------------------------------------------------------------
def _option_json(p: click.Option) -> dict[str, Any]:
    from terragen.terrain.generate.presets import load_preset, preset_names

    default = p.default if isinstance(p.default, (bool, int, float, str)) else None  # click marks "unset" with a sentinel
    label = GENERATE_LABELS.get(p.name or "") or p.opts[0].lstrip("-").replace("-", " ").capitalize()
    out: dict[str, Any] = {"name": p.name, "flag": p.opts[0], "label": label, "help": p.help or "", "default": default}
    shown = re.search(r"\[default: ([^\]]+)\]", p.help or "")
    if default is None and shown and len(shown.group(1)) <= 12:  # a value fit for a field, not a sentence
        out["shown_default"] = " ".join(shown.group(1).split())  # what the command picks itself, as its help says
    if p.is_flag:
        out["type"] = "flag"
        out["default"] = default is True
    elif p.name == "difficulty":
        out["type"] = "choice"
        out["choices"] = [{"value": n, "description": load_preset(n).get("description", "")} for n in preset_names()]
    elif isinstance(p.type, click.Choice):
        out["type"] = "choice"
        # "fixed" placement reads its cells from a spec file, which the page has no way to give
        out["choices"] = [c for c in p.type.choices if not (p.name == "placement" and c == "fixed")]
    elif p.name == "inventory":
        out["type"] = "choice"
        out["choices"] = list(INVENTORIES)
    elif p.type.name.startswith("integer"):  # click's int and IntRange
        out["type"] = "int"
    elif p.type.name.startswith(("float", "number")):  # click's float and FloatRange, terragen's FiniteFloat
        out["type"] = "float"
    else:
        out["type"] = "text"
    for bound, names in (("min", ("min", "lo")), ("max", ("max", "hi"))):
        value = next((getattr(p.type, n) for n in names if getattr(p.type, n, None) is not None), None)
        if value is not None:
            out[bound] = value
    checked = getattr(p.callback, "bounds", None)  # a range checked by the option's callback (--players 2-6)
    if checked is not None:
        out["min"], out["max"] = checked
    if getattr(p.type, "positive", False):  # above 0: the form's min, and the check refuses 0 itself
        out["min"] = max(out.get("min", 0), 0)
        out["positive"] = True
    return out


def generate_options() -> list[dict[str, Any]]:
    """The form for ``terragen generate``, read from the command's own options."""
    from terragen.cli.generate import generate

    return [_option_json(p) for p in generate.params
            if isinstance(p, click.Option) and p.name not in GENERATE_HIDDEN]


def _named(opt: dict[str, Any]) -> str:
    """A form field as the page shows it, its plain name and the command's flag: an error naming the
    flag alone sent a player looking for "--players" in a form that says "Seats"."""
    return f"{opt['label']} ({opt['flag']})"


#: the Simulate form's fields, as the page names them (the form is written in the page, not built here)
SIMULATE_FIELDS = {"games": "Games to play (--games)", "seed": "Random seed (--seed)",
                   "turn_cap": "Round limit (--turn-cap)", "margin": "Fairness margin (--margin)",
                   "policy": "Players (--policy)", "variants": "Rule variants (--variant)"}


def check_generate(values: Any) -> dict[str, Any]:
    """The form's values, each checked against the option's type and choices; unknown keys refused."""
    if not isinstance(values, dict):
        raise ApiError("'options' must be an object")
    known = {o["name"]: o for o in generate_options()}
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise ApiError(f"unknown generate option {key!r}")
        if value is None or value == "":
            continue
        opt = known[key]
        kind = opt["type"]
        if kind == "flag":
            if not isinstance(value, bool):
                raise ApiError(f"{_named(opt)} must be true or false")
        elif kind == "choice":
            names = [c["value"] if isinstance(c, dict) else c for c in opt["choices"]]
            if value not in names:
                raise ApiError(f"{_named(opt)} must be one of {', '.join(names)}")
        elif kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ApiError(f"{_named(opt)} must be a whole number")
        elif kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                raise ApiError(f"{_named(opt)} must be a number")  # 1e7 was "not a number": the range says
        else:
            if not isinstance(value, str) or len(value) > 100:
                raise ApiError(f"{_named(opt)} must be short text")
        if key == "time_limit" and value > PAGE_MAX_TIME_LIMIT:
            raise ApiError(f"{_named(opt)} must be at most {PAGE_MAX_TIME_LIMIT:.0f} seconds here")
        if kind in ("int", "float"):
            lo, hi = opt.get("min"), opt.get("max")
            if opt.get("positive") and value <= 0:
                raise ApiError(f"{_named(opt)} must be above 0")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                bounds = (f"between {lo} and {hi}" if lo is not None and hi is not None
                          else f"at least {lo}" if lo is not None else f"at most {hi}")
                raise ApiError(f"{_named(opt)} must be {bounds}")
            if abs(value) > MAX_SEED:  # no option without bounds of its own takes more (a seed's are these)
                raise ApiError(f"{_named(opt)} must be from {-MAX_SEED} to {MAX_SEED}")
        out[key] = value
    from terragen.cli.generate import balance_flags_clash

    clash = balance_flags_clash(bool(out.get("no_balance")), bool(out.get("strict_balance")),
                                bool(out.get("check_experts")), bool(out.get("team_play")))
    if clash:  # the command would refuse them: say so now, not once a job has started
        raise ApiError(clash)
    return out


def simulate_defaults() -> dict[str, Any]:
    """The defaults of ``terragen simulate``'s options (games may be None: chosen from the seat count)."""
    from terragen.cli.simulate import simulate

    return {p.name: (p.default if isinstance(p.default, (bool, int, float, str)) else None)
            for p in simulate.params if isinstance(p, click.Option)}


def simulate_default_team_games() -> dict[str, int]:
    """The games ``simulate --variant teams`` plays by default, by seat count (4 and 6: two and three
    teams of neighbours): the page's hint showed the seats' own count (10,890 for six, not 17,424)."""
    from terragen.terrain.sim.runner import default_games

    margin = simulate_defaults()["margin"]
    return {str(n): default_games(n // 2, margin, n) for n in (4, 6)}


def simulate_default_games() -> dict[str, int]:
    """The games ``terragen simulate`` plays at its default margin when none are given, by seat count
    (the page's 'Games to play' said only 'default')."""
    from terragen.terrain.sim.runner import default_games

    margin = simulate_defaults()["margin"]
    return {str(n): default_games(n, margin, n) for n in range(2, 7)}


def simulate_margin_range() -> tuple[float, float]:
    """``terragen simulate --margin``'s own bounds."""
    from terragen.cli.simulate import simulate

    margin = next(p for p in simulate.params if p.name == "margin")
    return margin.type.lo, margin.type.hi


def simulate_rules(layout: Any, options: dict[str, Any]) -> Any:
    """The rules a simulate job plays, as ``terragen simulate`` reads its flags (team play's partners
    from the board's corners)."""
    from terragen.terrain.sim.variants import rules_for_layout

    return rules_for_layout(layout, list(options.get("variants", [])), turn_cap=options["turn_cap"])


def check_simulate_on(layout: Any, options: dict[str, Any]) -> None:
    """What ``check_simulate`` cannot see without the board: a policy per seat, and games enough for
    the margin within what the page plays."""
    from terragen.terrain.sim.policies import parse_policies
    from terragen.terrain.sim.runner import default_games

    from terragen.terrain.sim.state import setup_from_layout
    from terragen.terrain.validation import check_game_shape

    seats = len(layout.players)
    if "teams" in options["variants"] and seats not in (4, 6):  # the command's words name --teams, which the page has not
        raise ApiError(f"cannot simulate this board in teams: the page pairs partners on neighbouring corners, "
                       f"for 4 or 6 seats (this board has {seats}); 'terragen simulate --teams' takes any split")
    try:  # a board no game can be set up on is refused now, not by a job that fails once started
        check_game_shape(layout, "layout")
        rules = simulate_rules(layout, options)
        setup_from_layout(layout, rules)
    except TerragenError as exc:
        raise ApiError(page_words(f"cannot simulate this board: {exc.message}")) from None
    try:
        parse_policies(options["policy"], seats)
    except TerragenError as exc:
        said = exc.message.removeprefix("--policy: ").removeprefix("--policy ")
        raise ApiError(f"{SIMULATE_FIELDS['policy']}: {said}") from None
    if options["games"] is None and seats:
        needed = default_games(len(rules.teams) if rules.teams else seats, options["margin"], seats)  # as the command
        if needed > PAGE_MAX_GAMES:
            raise ApiError(f"a margin of {options['margin']:g} needs {needed:,} games, more than the page plays "
                           f"({PAGE_MAX_GAMES:,}): give games, or a wider margin")


def policies() -> list[str]:
    """The simulator's built-in players; ``module:Class`` would import code, so it is never offered."""
    from terragen.terrain.sim.policies import POLICIES

    return list(POLICIES)


def variants() -> list[str]:
    """The rule variants this terragen's simulator accepts (asked of the simulator itself)."""
    from terragen.terrain.sim.variants import rules_from_names

    out = []
    for name in VARIANT_CANDIDATES:
        try:
            rules_from_names([name], 4)
        except TerragenError:
            continue
        out.append(name)
    return out


def check_simulate(values: Any) -> dict[str, Any]:
    """games, seed, policy (built-in names only), variants, turn_cap and margin, defaulted as the CLI."""
    if not isinstance(values, dict):
        raise ApiError("'options' must be an object")
    d = simulate_defaults()
    out = {"games": d["games"], "seed": d["seed"], "policy": d["policy"], "variants": [],
           "turn_cap": d["turn_cap"], "margin": d["margin"]}
    unknown = set(values) - set(out)
    if unknown:
        raise ApiError(f"unknown simulate {named('option', unknown)}")
    out.update({k: v for k, v in values.items() if v is not None})
    for key, lo, hi in (("games", 1, PAGE_MAX_GAMES), ("seed", 0, MAX_SEED), ("turn_cap", 1, PAGE_MAX_TURN_CAP)):
        v = out[key]
        if key == "games" and v is None:
            continue  # the simulator picks enough games for the seat count
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ApiError(f"{SIMULATE_FIELDS[key]} must be a whole number from {lo} to {hi}")
    m, (least, most) = out["margin"], simulate_margin_range()
    if isinstance(m, bool) or not isinstance(m, (int, float)) or not least <= m <= most:
        raise ApiError(f"{SIMULATE_FIELDS['margin']} must be a number from {least:g} to {most:g}")
    pol, known = out["policy"], policies()
    if not isinstance(pol, str) or not all(p.strip().lower() in known for p in pol.split(",")):
        raise ApiError(f"{SIMULATE_FIELDS['policy']} must be {', '.join(known)} or a comma list of them, one per seat")
    vs = out["variants"]
    if not isinstance(vs, list) or not all(isinstance(v, str) and v in variants() for v in vs):
        raise ApiError(f"{SIMULATE_FIELDS['variants']} must be a list drawn from {', '.join(variants())}")
    return out


def check_paper(value: Any) -> str:
    from terragen.render.paper import paper_names

    if value not in paper_names():
        raise ApiError(f"'paper' must be one of {', '.join(paper_names())}")
    return value


def check_kit(game: Any, values: Any) -> dict[str, Any]:
    if game not in KIT_GAMES:
        raise ApiError(f"'game' must be one of {', '.join(KIT_GAMES)}")
    if not isinstance(values, dict):
        raise ApiError("'options' must be an object")
    unknown = set(values) - {"paper", "flip", "outlines", "nets", "radius", "palette", "low_ink", "back_offset"}
    if unknown:
        raise ApiError(f"unknown kit {named('option', unknown)}")
    out = {"paper": check_paper(values.get("paper", "a4")), "flip": values.get("flip", "long"),
           "outlines": values.get("outlines"), "nets": values.get("nets", False)}
    if out["flip"] not in FLIPS:
        raise ApiError("'flip' must be 'long' or 'short'")
    # outlines: null keeps the kit's own choice (cut lines round hex pieces, crop ticks for square ones)
    if not isinstance(out["outlines"], (bool, type(None))) or not isinstance(out["nets"], bool):
        raise ApiError("'outlines' must be true, false or null, and 'nets' true or false")
    if out["nets"] and game != "terrain":
        raise ApiError("fold-up nets exist for the Terrain Game kit only")
    # the board sheets of the board on the page (kit terrain --radius): its start marks where its
    # build sheet puts them
    radius = values.get("radius", 5)
    if isinstance(radius, bool) or not isinstance(radius, int) or not 3 <= radius <= 6:
        raise ApiError("'radius' must be a whole number from 3 to 6 (the kit's board sizes)")
    if radius != 5 and game != "terrain":
        raise ApiError("a board radius is for the Terrain Game kit only")
    out["radius"] = radius
    out["palette"] = check_palette(values.get("palette", "colour"))
    if out["palette"] != "colour" and game != "terrain":
        raise ApiError("a palette is for the Terrain Game kit only")
    out["low_ink"] = values.get("low_ink", False)
    if not isinstance(out["low_ink"], bool):
        raise ApiError("'low_ink' must be true or false")
    out["back_offset"] = check_back_offset(values.get("back_offset"))
    return out


def check_palette(value: Any) -> str:
    """One of the shipped palettes, by name (the page's list)."""
    if value not in PALETTES:
        raise ApiError(f"'palette' must be one of {', '.join(PALETTES)}")
    return value


def check_back_offset(value: Any) -> str | None:
    """The duplex offset read on the alignment test (kit --back-offset's "X,Y" in mm), or None for
    none; refused as the command refuses it. Why on the page: every kit has the alignment test
    sheet, and the page offered no way to use what it measures."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise ApiError("'back_offset' must be text such as 0.5,-0.3 (mm)")
    from terragen.errors import SpecError
    from terragen.render.impose import MAX_BACK_OFFSET, parse_offset

    try:
        x, y = parse_offset(value)
    except SpecError as exc:
        raise ApiError(exc.message.replace("--back-offset", "the back offset")) from None
    if max(abs(x), abs(y)) > MAX_BACK_OFFSET:  # refused here, not by the job it would have started
        raise ApiError(f"the back offset is limited to {MAX_BACK_OFFSET:g} mm each way; larger errors mean the "
                       "alignment test was misread")
    return f"{x:g},{y:g}"


def kit_names() -> dict[str, str]:
    """Each kit's game as its printed sheets name it (The Terrain Game, Terrace, ...): the page's list
    showed the ids (terrain, terrace), which are the values it sends."""
    import importlib

    return {game: importlib.import_module(f"terragen.render.kits.{game}.kit").GAME for game in KIT_GAMES}


def info() -> dict[str, Any]:
    """Everything the page needs to build its forms and draw: options, choices, colours."""
    from terragen import __version__
    from terragen.grids import hex as hx
    from terragen.render.palette import load_palette
    from terragen.terrain.generate.presets import RADIUS_FACTOR
    from terragen.terrain.pieces import MAX_LEVEL, MIN_LEVEL, PATTERNS
    from terragen.render.paper import paper_names

    pal = load_palette()
    return {
        "version": __version__,
        "radii": sorted(RADIUS_FACTOR),  # the radii the generator and its presets are made for
        "levels": list(range(MIN_LEVEL, MAX_LEVEL + 1)),
        "patterns": list(PATTERNS),
        "rotations": list(range(len(hx.DIRECTIONS))),
        "corners": list(range(len(hx.DIRECTIONS))),
        # corner k of a board of radius R is R steps along direction k: the page numbers the corners
        # and lists their positions from these, with no copy of the grid's geometry of its own
        "corner_directions": [list(d) for d in hx.DIRECTIONS],
        "colours": {"levels": {str(k): v for k, v in pal.levels.items()},
                    "ink": {str(k): v for k, v in pal.ink.items()},
                    "seats": list(pal.seats), "seat_names": list(pal.seat_names)},
        "generate": generate_options(),
        "simulate": {"defaults": check_simulate({}), "policies": policies(), "variants": variants(),
                     "max_games": PAGE_MAX_GAMES, "default_games": simulate_default_games(),
                     "default_team_games": simulate_default_team_games(),
                     "pace": {p: SIM_PACE[p] for p in policies() if p in SIM_PACE}},
        "papers": paper_names(),
        "kits": list(KIT_GAMES),
        "kit_names": kit_names(),
        "flips": list(FLIPS),
        "palettes": list(PALETTES),
        "max_text_chars": MAX_TEXT_CHARS,
    }
