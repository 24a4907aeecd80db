"""Check a TerraFlip position against the rules and report every problem found.

Parse errors (bad syntax, unknown words) raise InputError; everything a
well-formed file can still get wrong (tiles too far out, cut off from the
tower, stacked, too many of a kind, a special tile turned over, ...) becomes a
Finding so that all of it is reported in one go.
"""

from __future__ import annotations

from collections import Counter

from terragen.errors import SpecError
from terragen.findings import SYNTAX, ValidationReport, error, in_file_order, warning
from terragen.formats import looks_like_json, require_text
from terragen.grids.hex import length
from terragen.plain_text import counted
from terragen.terraflip.formats import Position, TileEntry, parse_position, parse_text_forgiving
from terragen.terraflip.model import REGULAR, SPECIAL_KINDS, SPIES_PER_PLAYER, TILES_PER_FAMILY, TOWER, TileSet
from terragen.terraflip.rules import (LINE_MODES, Board, Options, Placed, all_frame_targets, placement_limit,
                                     reachable_from_tower)
from terragen.terraflip.scoring import colour_points


def _cell(t: TileEntry) -> str:
    return f"({t.q},{t.r})"


def validate_text(text: str, source: str, *, tileset: TileSet | None = None, per_family: int | None = None,
                  lines: str = "centres", tower_passable: bool = True) -> ValidationReport:
    """Validate a position in either form.

    ``tileset`` (a TileSet from ``terraflip tiles``: its per-family count, so a position of a game
    played with that set checks as that game) or ``per_family`` (the count alone; the rulebook's
    nine by default); ``lines`` ("centres" or "axes") and ``tower_passable`` pick the framing
    reading used for the analysis, as ``terraflip play`` takes them. Keywords, so that a misspelt
    one is refused instead of silently checking by the default reading.

    A text file is read forgivingly: each line the reader must skip becomes a ``syntax`` finding
    (exit status 2) and the rest is still checked. JSON is all or nothing (an error raises).
    """
    require_text(text, "validate_text")
    if lines not in LINE_MODES:
        raise SpecError(f"line reading must be one of {', '.join(LINE_MODES)}, got {lines!r}")
    if tileset is not None:
        per_family = tileset.per_family
    per_family = TILES_PER_FAMILY if per_family is None else int(per_family)
    rules = Options(lines=lines, tower_passable=bool(tower_passable))
    if looks_like_json(text):
        return validate_position(parse_position(text, source), per_family=per_family, options=rules)
    problems: list[tuple[int | None, int | None, str]] = []
    position = parse_text_forgiving(text, source, problems)
    syntax = [error(SYNTAX, why, line=line, col=col) for line, col, why in problems]
    if position is None:
        return ValidationReport("terraflip", syntax)
    report = validate_position(position, per_family=per_family, options=rules)
    report.findings = in_file_order(syntax + report.findings)
    return report


def validate_position(position: Position, per_family: int = TILES_PER_FAMILY,
                      options: Options | None = None) -> ValidationReport:
    report = ValidationReport("terraflip")
    add = report.findings.append
    players = position.players
    n = len(players)

    if not 2 <= n <= 4:
        add(error("player-count", f"TerraFlip needs 2 to 4 players, the file lists {n}", line=position.players_line))
    for colour, k in Counter(players).items():
        if k > 1:
            add(error("duplicate-player", f"{colour} is listed {k} times among the players",
                      line=position.players_line))
    for colour, k in position.spies.items():
        if colour not in players:
            add(error("spies-of-non-player", f"spies given for {colour}, who is not playing", line=position.spies_line))
        elif not 0 <= k <= SPIES_PER_PLAYER:
            add(error("spies-out-of-range", f"{colour} has {k} spies left; a player starts with {SPIES_PER_PLAYER}",
                      line=position.spies_line))

    limit_players = min(max(n, 2), 4)
    by_pos: dict[tuple[int, int], TileEntry] = {}
    for t in position.tiles:
        where = {"cells": [t.pos], "line": t.line, "col": t.col}
        if t.pos == TOWER:
            add(error("tile-on-tower", f"{t.label} at (0,0) sits on the tower", **where))
            continue
        if t.pos in by_pos:
            first = by_pos[t.pos]
            add(error("duplicate-position", f"{_cell(t)} holds both {first.label} and {t.label}", **where))
            continue
        by_pos[t.pos] = t
        if t.family not in players:
            add(error("family-not-playing", f"{t.label} at {_cell(t)} belongs to {t.family}, who is not playing",
                      **where))
        limit = placement_limit(limit_players, t.kind)
        if length(t.pos) > limit:
            add(error("tile-too-far", f"{t.label} at {_cell(t)} is {length(t.pos)} from the tower; "
                      f"the limit for a {t.kind} tile with {n} players is {limit}", **where))
        if t.kind != REGULAR and (t.up != t.family or t.hidden != t.family):
            add(error("special-face-down", f"{t.label} at {_cell(t)} shows {t.up}/{t.hidden}; "
                      f"special tiles never flip and show {t.family} only", **where))
        if t.kind == REGULAR:
            if t.family not in (t.up, t.hidden):
                add(error("no-owner-face", f"{t.label} at {_cell(t)} shows {t.up}/{t.hidden}; "
                          f"one face must be its owner's colour {t.family}", **where))
            elif t.up == t.hidden:
                add(warning("same-colour-faces", f"{t.label} at {_cell(t)} has {t.up} on both faces", **where))

    counts = Counter((t.family, t.kind) for t in by_pos.values())
    for (family, kind), k in sorted(counts.items()):
        allowed = per_family if kind == REGULAR else 1
        if k > allowed:
            cells = [t.pos for t in by_pos.values() if (t.family, t.kind) == (family, kind)]
            add(error("too-many-tiles", f"{family} has {k} {kind} tiles on the table; the set holds {allowed}",
                      cells=cells))
    ids = Counter((t.family, t.kind, t.index) for t in by_pos.values() if t.index is not None)
    for (family, kind, index), k in sorted(ids.items()):
        if k > 1:
            same = [t for t in by_pos.values() if (t.family, t.kind, t.index) == (family, kind, index)]
            # the tile's name as both forms write it (blue-river-1), with the line of its second copy
            add(error("duplicate-tile", f"tile {same[0].label} appears {k} times", cells=[t.pos for t in same],
                      **({"line": same[1].line} if same[1].line else {})))

    unknown: set[str] = set()
    for t in by_pos.values():  # in file order, at the line of the first copy (duplicate-tile names the others)
        if t.kind == REGULAR and t.index is not None and t.index > per_family and t.label not in unknown:
            unknown.add(t.label)
            add(error("unknown-tile", f"{t.label} at {_cell(t)}: {t.family} has only {per_family} numbered tiles, "
                      f"not {t.index}" + (" (give --tiles FILE for a tile set of your own)" if per_family == TILES_PER_FAMILY
                                          else ""), cells=[t.pos], line=t.line,
                      col=t.col))

    board = Board({h: Placed(t.to_tile(), t.up) for h, t in by_pos.items()})
    joined = reachable_from_tower(board)
    for h in sorted(set(by_pos) - joined, key=lambda h: (h[1], h[0])):
        t = by_pos[h]
        add(error("disconnected-tile", f"{t.label} at {_cell(t)} is not joined to the tower by touching tiles",
                  cells=[h], line=t.line, col=t.col))

    placed = [sum(1 for t in by_pos.values() if t.family == c) for c in players]
    if placed and any(a < b for a, b in zip(placed, placed[1:])) or (placed and max(placed) - min(placed) > 1):
        add(warning("turn-order-counts", "tiles placed per player (" + ", ".join(
            f"{c} {k}" for c, k in zip(players, placed)) + ") do not fit play in seat order without passes"))

    blocking = sorted({f.code for f in report.findings if f.code in BLOCKING_CODES})
    if blocking:
        what = [BLOCKING_CODES[c] for c in blocking]
        listed = what[0] if len(what) == 1 else ", ".join(what[:-1]) + " and " + what[-1]
        report.summary.append(f"analysis skipped: fix {listed} first")
        return report
    _analyse(report, position, board, placed, per_family, options or Options())
    return report


#: Errors after which the framing analysis means nothing, and whose cost grows with the hostile
#: size (a tile at q=9999 makes every pair of tiles span a huge area): the analysis is skipped.
#: Each says what to fix, so the summary names the problem the file has (a doubled player was
#: once told to "fix the player count and the tiles out of reach").
BLOCKING_CODES = {
    "duplicate-player": "the players listed twice",
    "player-count": "the player count",
    "tile-too-far": "the tiles out of reach",
    "too-many-tiles": "the surplus tiles",
}


def _analyse(report: ValidationReport, position: Position, board: Board, placed: list[int], per_family: int,
             options: Options) -> None:
    """Scores, and which tiles each player could attempt to turn right now (framed by two of
    their tiles anywhere on the table)."""
    players = []
    for seat, colour in enumerate(position.players):
        points, tiles = colour_points(board, colour)
        players.append({
            "seat": seat, "colour": colour, "points": points, "tiles_showing": tiles,
            "tiles_placed": placed[seat], "tiles_in_hand": max(0, per_family + len(SPECIAL_KINDS) - placed[seat]),
            "spies_left": position.spies.get(colour, SPIES_PER_PLAYER),
            "framed": [list(h) for h in all_frame_targets(board, colour, options)],
        })
    report.data["players"] = players
    report.data["tiles_on_table"] = len(board.cells)
    report.summary.append(f"{counted(len(board.cells), 'tile')} on the table, {counted(len(position.players), 'player')}")
    for p in players:
        report.summary.append(
            f"seat {p['seat']} {p['colour']}: {counted(p['points'], 'point')} from {counted(p['tiles_showing'], 'tile')} showing, "
            f"{p['tiles_placed']} placed, {counted(p['spies_left'], 'spy', 'spies')} left, {counted(len(p['framed']), 'tile')} framed"
            + (" (" + ", ".join(f"({q},{r})" for q, r in p["framed"]) + ")" if p["framed"] else ""))


__all__ = ["validate_text", "validate_position"]
