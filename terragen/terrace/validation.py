"""Checking a Terrace position file against the rules.

Everything a diagram can express but the rules forbid becomes a finding
(all of them, not only the first): pieces off the board, two pieces on one
square, seats that do not play in this set-up, more pieces of a kind than
the set-up gives, a missing or doubled T, an unknown or eliminated seat to
move. A text file is read forgivingly (each unreadable header entry or square
is a ``syntax`` finding, as in the other games); a file that cannot be read at
all, and any unreadable JSON, raises InputError instead.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from terragen.errors import InputError
from terragen.findings import SYNTAX, Finding, ValidationReport, error, warning
from terragen.findings import in_file_order as findings_in_file_order
from terragen.formats import looks_like_json, require_text
from terragen.terrace.board import FILES, square_name
from terragen.terrace.formats import Draft, in_file_order, parse_any, parse_json, parse_text_forgiving
from terragen.terrace.model import Rules, seat_words
from terragen.terrace.position import Position
from terragen.terrace.setups import SEAT_ORDER, SETUP_PLAYERS, setup_counts


def check_draft(draft: Draft, rules: Rules | None = None) -> tuple[list[Finding], Position | None]:
    """All findings for a draft, and the position when there is no error."""
    n = draft.size
    findings = list(draft.findings)
    seats = SEAT_ORDER[SETUP_PLAYERS[draft.setup]]
    occupied: dict[tuple[int, int], Any] = {}
    kept = []
    for pl in draft.placed:
        r, c = pl.square
        if pl.written is not None:
            name = pl.written
        elif 0 <= r < n and 0 <= c < n:
            name = square_name(pl.square, n)
        elif 0 <= c < len(FILES) and n - r >= 1:
            name = f"{FILES[c]}{n - r}"
        else:
            name = f"row {r + 1}, column {c + 1}"
        if not (0 <= r < n and 0 <= c < n):
            findings.append(error("off-board", f"{pl.piece.token} at {name} is off the {n}x{n} board", cells=[pl.square], line=pl.line, col=pl.col))
            continue
        if pl.square in occupied:
            findings.append(error("square-occupied-twice", f"{name} holds both {occupied[pl.square].token} and {pl.piece.token}", cells=[pl.square], line=pl.line, col=pl.col))
            continue
        if pl.piece.side not in seats:
            findings.append(error("seat-not-in-game", f"{pl.piece.token} at {name} belongs to the {pl.piece.side} seat, which does not play in a {len(seats)}-player game", cells=[pl.square], line=pl.line, col=pl.col))
            continue
        occupied[pl.square] = pl.piece
        kept.append(pl)
    counts = Counter((pl.piece.side, pl.piece.kind) for pl in kept)
    if draft.setup in ("full", "short", "four", "three"):
        limit = setup_counts(draft.setup, n)
        for side in seats:
            for kind, most in limit.items():
                if kind == "T":  # too-many-t says it, by name
                    continue
                have = counts[(side, kind)]
                if have > most:
                    these = [pl for pl in kept if pl.piece.side == side and pl.piece.kind == kind]
                    sq = [pl.square for pl in these]
                    extra = these[most]  # located at the first piece past the set-up's count, in the file's order
                    findings.append(error("too-many-pieces", f"seat {seat_words(side)} has {have} {kind} pieces, the {draft.setup} set-up gives {most} ({', '.join(square_name(s, n) for s in sq)})", cells=sq, line=extra.line, col=extra.col))
    out: set[str] = set()
    for side in seats:
        ts = [pl for pl in kept if pl.piece.side == side and pl.piece.kind == "T"]
        others = [pl for pl in kept if pl.piece.side == side and pl.piece.kind != "T"]
        if len(ts) > 1:
            # located at the second T, which the first is not (a text file's line and column)
            findings.append(error("too-many-t", f"seat {seat_words(side)} has {len(ts)} T pieces ({', '.join(square_name(p.square, n) for p in ts)}), expected one", cells=[p.square for p in ts], line=ts[1].line, col=ts[1].col))
        if not ts:
            if len(seats) == 2:
                # no T on the board at all: no-players says it once; the other seat's T still there: the
                # game ended when this one was taken, a finished game (game-over says so), as play writes it
                out.add(side)
            elif others:
                findings.append(error("t-missing", f"seat {seat_words(side)} has no T but still has pieces ({', '.join(square_name(p.square, n) for p in others)}); a seat that loses its T leaves with all its pieces", cells=[p.square for p in others], line=others[0].line, col=others[0].col))
            else:
                out.add(side)
    if len(out) == len(seats):
        findings.append(error("no-players", "no seat has a T; nobody is left to play"))
    if draft.to_move is not None:
        if draft.to_move not in seats:
            findings.append(error("to-move-unknown", f"the {seat_words(draft.to_move)} seat is to move but does not play in a {len(seats)}-player game", line=draft.to_move_line, col=1 if draft.to_move_line else None))
        elif draft.to_move in out and len(seats) - len(out) > 1:  # with one seat left the game is over
            findings.append(error("to-move-out", f"seat {seat_words(draft.to_move)} is to move but has left the game (no T, no pieces)", line=draft.to_move_line, col=1 if draft.to_move_line else None))
    if any(f.severity == "error" for f in findings):
        return findings, None
    pos = Position({pl.square: pl.piece for pl in kept}, to_move=draft.to_move or seats[0], setup=draft.setup, size=n, rules=rules, meta=draft.meta)
    res = pos.result()
    if res is not None and res.winner is not None:
        findings.append(warning("game-over", f"the game is already over: {res.text()}"))
    return findings, pos


def validate_text(text: str, source: str, *, t_rank: str = "a", own_t_capture: bool = True) -> ValidationReport:
    """The shared ``terragen validate`` entry point for Terrace positions; the rule readings are
    keywords, so a misspelt one is refused instead of checking by the default reading.

    A text file is read forgivingly: each header entry or square the reader cannot read becomes a
    ``syntax`` finding (exit status 2) and the rest is still checked, so one run names every
    problem; a board with one is not analysed (its moves would be those of another board). JSON is
    all or nothing (an error raises InputError)."""
    require_text(text, "validate_text")
    rules = Rules(t_rank=t_rank, own_t_capture=own_t_capture)
    if looks_like_json(text):
        draft = parse_json(text, source)
    else:
        problems: list[tuple[int | None, int | None, str]] = []
        parsed = parse_text_forgiving(text, source, problems)
        syntax = [error(SYNTAX, why, line=line, col=col) for line, col, why in in_file_order(problems)]
        if parsed is None:
            return ValidationReport(game="terrace", findings=syntax)
        draft = parsed
        draft.findings[:0] = syntax  # first, and an error: no position is built from a board half read
    findings, pos = check_draft(draft, rules)
    report = ValidationReport(game="terrace", findings=findings_in_file_order(findings))
    data: dict[str, Any] = {"size": draft.size, "setup": draft.setup, "to_move": draft.to_move}
    if pos is not None:
        moves = pos.legal_moves()
        res = pos.result()
        data["legal_moves"] = len(moves)
        data["result"] = None if res is None else {"winner": res.winner, "reason": res.reason}
        data["pieces"] = {pos.seats[i]: sum(1 for p in pos.pieces().values() if p.side == s) for i, s in enumerate(pos.seats)}
        report.summary.append(f"{draft.size}x{draft.size} board, set-up {draft.setup}, {seat_words(pos.to_move)} to move")
        report.summary.append(f"{len(moves)} legal moves" + (f"; {res.text()}" if res else ""))
    report.data = data
    return report


def load_position(text: str, source: str, rules: Rules | None = None) -> Position:
    """Read and check a position for commands that play from it; the first error becomes an InputError.

    Worded as ``terragen render`` words a broken rule (``FILE: breaks a rule: [code] ...``): the
    finding's own ``error [code]`` after the CLI's ``terragen: error:`` said "error" twice."""
    draft = parse_any(text, source)
    findings, pos = check_draft(draft, rules)
    errors = [f for f in findings if f.severity == "error"]
    if errors or pos is None:
        first = errors[0]
        more = f" (and {len(errors) - 1} more; see 'terragen validate')" if len(errors) > 1 else ""
        raise InputError(f"{first.where(source)}: breaks a rule: [{first.code}] {first.message}{more}")
    return pos
