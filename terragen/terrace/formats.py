"""Terrace position files: a text diagram like the rulebook's, and JSON.

Text (documented in docs/terrace.md)::

    game: terrace
    to-move: T  setup: full  size: 8
    D D C C B B A T
    A A B B C C D D
    - - - - - - - -
    ...

One row per board row, top row first, squares separated by spaces. A square
is ``-`` or ``.`` or its height (empty), or a piece token: the kind letter,
upper case for the top seat, lower case for the bottom seat, doubled for the
left (``DD``) and right (``dd``) seats of the four-player game.

Reading is split in two: :func:`parse_text` / :func:`parse_json` turn the file
into a :class:`Draft` (pieces as written plus findings for things a diagram
can express but the rules forbid), and validation turns a draft into a
:class:`Position` or a list of findings. Malformed input raises InputError,
except in :func:`parse_text_forgiving`, which ``validate`` uses to list every
unreadable header entry and square of a text file in one run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from terragen.errors import InputError
from terragen.safejson import load_json, shown
from terragen.findings import Finding, error, warning
from terragen.grids.square import Square
from terragen.terrace.board import SIZES, board, parse_square, square_name
from terragen.terrace.model import KINDS, SEAT_BY_NAME, SEAT_NAME, SIDES, Piece, parse_piece_token
from terragen.terrace.position import Position
from terragen.terrace.setups import SEAT_ORDER, SETUP_PLAYERS
from terragen.formats import (GAME_FILES, refuse_other_text, ExtraLine, check_item_keys, check_version, extra_text_line, json_file_text, looks_like_json,
                              text_lines, wrong_game, wrong_kind)
from terragen.plain_text import counted

FORMAT_VERSION = 1
#: the keys the text form's own lines give; any other JSON key travels on its extra: line
OWN_KEYS = ("game", "version", "size", "setup", "to_move", "pieces")
EMPTY = ("-", ".")


@dataclass
class Placed:
    square: Square  # may lie off the board (reported by validation)
    piece: Piece
    line: int | None = field(default=None, compare=False)  # where it was read: not part of the value
    col: int | None = field(default=None, compare=False)  # where it was read: not part of the value
    written: str | None = None  # the square's name as the file gave it (for a square off the board)


@dataclass
class Draft:
    """A position as written in a file, before the rules are checked."""

    size: int
    setup: str
    to_move: str | None
    placed: list[Placed] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    to_move_line: int | None = field(default=None, compare=False)  # where it was read: not part of the value


def seat_from_text(value: str) -> str | None:
    """A seat side from its token (``T``, ``t``, ``TT``, ``tt``) or its side name."""
    v = value.strip()
    if v in SEAT_BY_NAME:
        return SEAT_BY_NAME[v]
    if v.lower() in SIDES:
        return v.lower()
    return None


_PAIR = re.compile(r"(?<![A-Za-z_-])([A-Za-z][A-Za-z_-]*)\s*[:=]\s*(\S+)")
#: the header's keys as the reader takes them (``to_move`` and ``turn`` are other names of ``to-move``)
_KEY_WORDS = ("game", "to-move", "to_move", "turn", "setup", "size")
_KEYS = set(_KEY_WORDS)
#: the header keys as the docs and messages name them, for "did you mean" on a misspelt one
HEADER_KEYS = ("game", "to-move", "setup", "size")
#: the other spellings a key is read by
_KEY_NAME = {"to_move": "to-move", "turn": "to-move"}
#: a game line, where it is found (below the board, say)
_GAME_PAIR = re.compile(r"\s*game\s*[:=]\s*(\S+)", re.IGNORECASE)

#: what the reader could not read: (line, col, why); line None for the file as a whole
Problems = list[tuple[int | None, int | None, str]]


def parse_text(text: str, source: str = "<text>") -> Draft:
    """Read the text diagram for a command that plays from it: InputError naming ``file:line:col``
    of the first problem (and how many more ``terragen validate`` lists)."""
    problems: Problems = []
    draft = _read_text(text, source, problems)
    if problems:
        line, col, why = in_file_order(problems)[0]
        where = f"{source}:{line}:{col}" if line is not None else source
        more = f" (and {counted(len(problems) - 1, 'more problem')}: 'terragen validate' lists them all)" \
            if len(problems) > 1 else ""
        raise InputError(f"{where}: {why}{more}")
    assert draft is not None  # no problem, so a board was read
    return draft


def in_file_order(problems: Problems) -> Problems:
    """The reader's problems by line and column, those about the whole file last: the reader finds
    some (a size that does not fit the rows) only after reading further."""
    return sorted(problems, key=lambda p: (p[0] is None, p[0] or 0, p[1] or 0))


def parse_text_forgiving(text: str, source: str, problems: Problems) -> Draft | None:
    """The text diagram read as ``validate`` reads it, like the other games' text forms: each
    header entry or square that cannot be read is added to ``problems`` as ``(line, col, why)``
    and stepped over, so one run names every problem. None when no board is left to check (no
    rows, or no size to read them by). A file that is not a Terrace position at all (another
    game's, or no ``game: terrace`` line) still raises InputError: there is nothing to list."""
    return _read_text(text, source, problems)


def _read_text(text: str, source: str, problems: Problems) -> Draft | None:
    from terragen.safejson import check_text_numbers
    from terragen.suggest import suggest

    check_text_numbers(text, source)
    refuse_other_text(text, source, "terrace")

    def fail(line: int | None, col: int | None, why: str) -> None:
        problems.append((line, col, why))

    header: dict[str, tuple[str, int, int]] = {}
    spelt_right = {_KEY_NAME.get(m.group(1).lower(), m.group(1).lower()) for raw in text_lines(text)
                   for m in _PAIR.finditer(raw.split("#", 1)[0])}
    rows: list[tuple[int, list[tuple[str, int]]]] = []
    extra = ExtraLine(source, OWN_KEYS)
    for lineno, raw in enumerate(text_lines(text), start=1):
        if extra.take(raw, lineno):
            continue
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        extra.refuse_after(lineno, len(line) - len(line.lstrip()) + 1)
        if ":" in line or "=" in line:
            if rows:  # skipped: a set-up or size given below the board would be read too late to trust
                fail(lineno, len(line) - len(line.lstrip()) + 1, "header line after the board rows "
                     "(game, to-move, setup and size come before the board)")
                late = _GAME_PAIR.match(line)
                if late and late.group(1).lower() == "terrace" and "game" not in header:
                    header["game"] = (late.group(1), lineno, late.start(1) + 1)  # not also "missing" at 1:1
                continue
            pos = 0
            stripped = line.strip()
            offset = len(line) - len(line.lstrip())

            def junk(seg: str, at: int, lineno: int = lineno) -> None:  # at the text itself, not the space before it
                fail(lineno, at + len(seg) - len(seg.lstrip()) + 1, f"cannot read {seg.strip()!r}; expected key: value")

            for m in _PAIR.finditer(stripped):
                if stripped[pos:m.start()].strip():
                    junk(stripped[pos:m.start()], offset + pos)
                pos = m.end()
                key, at = m.group(1).lower(), offset + m.start() + 1
                guessed = False
                if key in ("radius", "map", "players") and "game" not in header:
                    raise InputError(f"{source}:{lineno}:{at}: {wrong_game('terrain', 'terrace')} "
                                     "(a Terrace file starts with a 'game: terrace' line)")
                if key not in _KEYS:
                    guess = suggest(key, _KEY_WORDS)
                    guess = _KEY_NAME.get(guess, guess)
                    hint = (f": did you mean '{guess}'?" if guess
                            else f" (the header has {', '.join(HEADER_KEYS[:-1])} and {HEADER_KEYS[-1]})")
                    fail(lineno, at, f"unknown header {m.group(1)!r}{hint}")  # the other games' words
                    if guess is None or guess in header or guess in spelt_right:
                        continue  # (a key given rightly elsewhere is not taken from a typo: 'sise: 10 size: 8')
                    key, guessed = guess, True  # read on as the key it most likely is, so one typo is one problem
                key = _KEY_NAME.get(key, key)
                if guessed and key == "game" and m.group(2).lower() != "terrace":
                    # a guess is no file's word: "Name: terragen" in /proc/self/status was called "a
                    # 'terragen' file", and a shadow file's line "a '*:20228:...' file"
                    continue
                if key in header:
                    fail(lineno, at, f"{key} given twice (the first, on line {header[key][1]}, is used)")
                    continue
                header[key] = (m.group(2), lineno, offset + m.start(2) + 1)
                if key == "game" and m.group(2).lower() != "terrace":  # before its other keys read as unknown
                    raise InputError(f"{source}:{lineno}:{offset + m.start(2) + 1}: {wrong_game(m.group(2), 'terrace')}")
            if stripped[pos:].strip():
                junk(stripped[pos:], offset + pos)
            continue
        tokens = [(m.group(0), m.start() + 1) for m in re.finditer(r"\S+", line)]
        word = tokens[0][0].lower()
        if not rows and word in _KEYS:  # 'to-move T': a header line short of its ':'
            key = _KEY_NAME.get(word, word)
            fail(lineno, tokens[0][1], f"{tokens[0][0]!r} needs a ':' after it ('{key}: ...'); a board row holds "
                                       "squares only")
            if len(tokens) == 2 and key not in header and (key != "game" or tokens[1][0].lower() == "terrace"):
                header[key] = (tokens[1][0], lineno, tokens[1][1])  # read as meant: one slip, one problem
            continue
        rows.append((lineno, tokens))
    if "game" not in header:
        raise InputError(f"{source}:1:1: missing 'game: terrace' line")
    setup: str | None = "full"  # (the game line was checked where it was read)
    if "setup" in header:
        sval, sl, sc = header["setup"]
        setup = sval.lower()
        if setup not in SETUP_PLAYERS:
            guess = suggest(setup, SETUP_PLAYERS)
            hint = f"did you mean {guess!r}? " if guess else ""
            fail(sl, sc, f"unknown setup {sval!r} ({hint}expected full, short, four, three, free, free3 or free4)")
            setup = None  # chosen below from the seats on the board, with no piece counts to break
    size: int | None = None
    if "size" in header:
        sval, zl, zc = header["size"]
        if not (sval.isascii() and sval.isdigit()) or int(sval) not in SIZES:
            fail(zl, zc, f"size must be one of {', '.join(map(str, SIZES))}, got {sval!r}")
        else:
            size = int(sval)
    square = len(rows) in SIZES and all(len(tokens) == len(rows) for _, tokens in rows)
    if size is not None and square and size != len(rows):
        # an 8 x 8 board under 'size: 6': the size is what is wrong, not each of the 8 rows
        fail(zl, zc, f"size {size}, but the board below it is {len(rows)} x {len(rows)} squares")
        size = len(rows)
    elif size is not None:
        pass  # given, so rows of another count or width are what is wrong
    elif len(rows) in SIZES:
        size = len(rows)
    elif rows and len(rows[0][1]) in SIZES:  # rows missing or extra: the first row's width says the size
        size = len(rows[0][1])
    elif rows:  # one line saying why, not a wrong-length problem for every row of an 8x8 guess
        given = " and no readable 'size:'" if "size" in header else " and no 'size:'"
        fail(rows[0][0], 1, f"the board has {len(rows)} rows of {len(rows[0][1])} squares{given}; "
                            f"a board is {', '.join(map(str, SIZES))} squares a side")
        return None
    else:
        size = 8
    if not rows:
        fail(None, None, "no board rows")
        return None
    draft = Draft(size=size, setup=setup or "free", to_move=None, meta=extra.keys)
    if "to-move" in header:
        tval, tl, tc = header["to-move"]
        seat = seat_from_text(tval)
        if seat is None:
            fail(tl, tc, f"to-move must be a seat (T, t, TT, tt or top, bottom, left, right), got {tval!r}")
        else:
            draft.to_move, draft.to_move_line = seat, tl
    else:
        # pointed at the header's last line, where the entry belongs (line 1 was often a comment)
        last = max(at_line for _, at_line, _ in header.values())
        draft.findings.append(error("to-move-missing", "the file does not say whose move it is (add 'to-move: T' or 't')", line=last, col=1))
    heights = board(size).heights
    # A row or a board of the wrong length cannot be read as the n x n board (which square is
    # missing?): a syntax problem, as in a Terrain Game map, not a broken rule. The squares are
    # still read where they fall, so the counts of pieces and Ts are checked; one past the edge
    # is off-board.
    if len(rows) != size:
        lineno = rows[-1][0] if len(rows) < size else rows[size][0]
        fail(lineno, 1, f"the board has {counted(len(rows), 'row')}; a size-{size} board has {size}"
                        + (" (the rows below are off the board)" if len(rows) > size else ""))
    for r, (lineno, tokens) in enumerate(rows):
        if len(tokens) != size:
            col = tokens[size][1] if len(tokens) > size else tokens[-1][1]
            fail(lineno, col, f"row {r + 1} of the board has {len(tokens)} squares; a size-{size} board has {size}")
        for c, (tok, col) in enumerate(tokens):
            if tok in EMPTY:
                continue
            if tok.isascii() and tok.isdigit():
                if r < size and c < size and int(tok) != heights[r * size + c]:
                    draft.findings.append(warning("height-mismatch", f"{square_name((r, c), size)} is written as height {tok} but its height is {heights[r * size + c]}", cells=[(r, c)], line=lineno, col=col))
                continue
            parsed = parse_piece_token(tok)
            if parsed is None:  # stepped over: the square counts as empty for the rule checks
                fail(lineno, col, f"cannot read square {tok!r}; expected -, ., a height, or a piece such as D, d, DD, dd")
                continue
            side, kind = parsed
            draft.placed.append(Placed((r, c), Piece(side, kind), lineno, col))
    if setup is None:  # an unreadable set-up: a free one of the seats on the board
        sides = {pl.piece.side for pl in draft.placed}
        draft.setup = "free4" if "left" in sides else "free3" if "right" in sides else "free"
    return draft


def parse_json(text: str, source: str = "<json>") -> Draft:
    """Read the JSON form; InputError if it is not well-formed."""
    data = load_json(text, source)
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a JSON object")
    other = wrong_kind(data, "terrace")  # a deck, a tile set, a play report, a batch manifest
    if other is not None:
        raise InputError(f"{source}: {other}")
    if data.get("game") != "terrace":
        if isinstance(data.get("game", "terrain"), str) and data.get("game", "terrain") in GAME_FILES:
            # a layout without "game" is a Terrain Game one
            raise InputError(f"{source}: {wrong_game(data.get('game', 'terrain'), 'terrace')}")
        raise InputError(f"{source}: 'game' must be \"terrace\", got {shown(data.get('game'))}")
    check_version(data, source, FORMAT_VERSION)
    size = data.get("size", 8)
    if not isinstance(size, int) or isinstance(size, bool) or size not in SIZES:
        raise InputError(f"{source}: 'size' must be one of {', '.join(map(str, SIZES))}, got {shown(size)}")
    setup = data.get("setup", "full")
    if not isinstance(setup, str) or setup not in SETUP_PLAYERS:
        raise InputError(f"{source}: unknown setup {shown(setup)} (expected full, short, four, three, free, free3 or free4)")
    draft = Draft(size=size, setup=setup, to_move=None)
    tm = data.get("to_move")
    if tm is None:
        draft.findings.append(error("to-move-missing", "the file does not say whose move it is (add \"to_move\")"))
    else:
        seat = seat_from_text(tm) if isinstance(tm, str) else None
        if seat is None:
            raise InputError(f"{source}: 'to_move' must be a seat (top, bottom, left, right), got {shown(tm)}")
        draft.to_move = seat
    if "pieces" not in data:  # a misspelt key was read as an empty board, with findings about missing Ts
        from terragen.suggest import suggest

        typo = next((k for k in data if k not in OWN_KEYS and suggest(str(k), ["pieces"])), None)
        raise InputError(f"{source}: no 'pieces' list" + (f"; did you mean 'pieces' for {typo!r}?" if typo else
                                                         ' (give "pieces": [] for an empty board)'))
    pieces = data["pieces"]
    if not isinstance(pieces, list):
        raise InputError(f"{source}: 'pieces' must be a list")
    for k, item in enumerate(pieces):
        where = f"{source}: pieces[{k}]"
        if not isinstance(item, dict):
            raise InputError(f"{where}: expected an object with square, side and kind")
        check_item_keys(item, ("square", "side", "kind"), where, "a piece")
        sq_name, side, kind = item.get("square"), item.get("side"), item.get("kind")
        if not isinstance(sq_name, str) or not re.fullmatch(r"[a-zA-Z][0-9]{1,2}", sq_name.strip()):
            raise InputError(f"{where}: 'square' must be a name such as a1, got {shown(sq_name)}")
        if side not in SIDES:
            raise InputError(f"{where}: 'side' must be one of {', '.join(SIDES)}, got {shown(side)}")
        if kind not in KINDS:
            raise InputError(f"{where}: 'kind' must be one of {', '.join(KINDS)}, got {shown(kind)}")
        sq = parse_square(sq_name, size)
        if sq is None:
            s = sq_name.strip().lower()
            sq = (size - int(s[1:]), ord(s[0]) - ord("a"))  # off the board: validation reports it
        draft.placed.append(Placed(sq, Piece(side, kind), written=sq_name.strip()))
    draft.meta = {k: v for k, v in data.items() if k not in OWN_KEYS}
    return draft


def parse_any(text: str, source: str = "<input>") -> Draft:
    return parse_json(text, source) if looks_like_json(text) else parse_text(text, source)


# ----- writing ------------------------------------------------------------------------
def to_text(pos: Position) -> str:
    """The canonical text diagram of a position (reads back to an equal position)."""
    return _text(pos.size, pos.setup, pos.to_move, pos.pieces(), pos.meta, wide=len(pos.seats) > 2)


def _text(n: int, setup: str, to_move: str | None, at: dict[Square, Piece], meta: dict[str, Any], wide: bool) -> str:
    whose = f"to-move: {SEAT_NAME[to_move]}  " if to_move is not None else ""
    lines = ["game: terrace", f"{whose}setup: {setup}  size: {n}"]
    for r in range(n):
        toks = []
        for c in range(n):
            p = at.get((r, c))
            tok = p.token if p else "-"
            toks.append(tok.rjust(2) if wide else tok)
        lines.append(" ".join(toks))
    return "\n".join(lines + extra_text_line(meta)) + "\n"


def to_json_data(pos: Position) -> dict[str, Any]:
    n = pos.size
    return _json_data(n, pos.setup, pos.to_move, [(square_name(sq, n), p) for sq, p in sorted(pos.pieces().items())],
                      pos.meta)


def _json_data(n: int, setup: str, to_move: str | None, pieces: list[tuple[str, Piece]],
               meta: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = dict(meta)
    data.update({"game": "terrace", "version": FORMAT_VERSION, "size": n, "setup": setup})
    if to_move is not None:
        data["to_move"] = to_move
    data["pieces"] = [{"square": name, "side": p.side, "kind": p.kind} for name, p in pieces]
    return data


# A draft is written as read, rule breaks and all: converting is how a player fixes a file in the
# form they edit best (convert refused a Terrace position with two Ts, and converted every other
# game's broken file). What one form cannot hold is refused, naming the input.
def draft_to_json(draft: Draft) -> str:
    """``draft`` in the JSON form: its pieces in square order, one off the board by its written name."""
    n = draft.size
    on = sorted((pl for pl in draft.placed if _on_board(pl.square, n)), key=lambda pl: pl.square)
    off = [pl for pl in draft.placed if not _on_board(pl.square, n)]
    pieces = [(square_name(pl.square, n), pl.piece) for pl in on] + [(pl.written or "?", pl.piece) for pl in off]
    return json_file_text(_json_data(n, draft.setup, draft.to_move, pieces, draft.meta))


def draft_to_text(draft: Draft, source: str) -> str:
    """``draft`` as a text diagram; InputError naming ``source`` when a piece has no square in it."""
    n = draft.size
    at: dict[Square, Piece] = {}
    for pl in draft.placed:
        name = pl.written or square_name(pl.square, n)
        if not _on_board(pl.square, n):
            raise InputError(f"{source}: the text form cannot hold a piece off the board ({name}); "
                             "fix that in this file first")
        if pl.square in at:
            raise InputError(f"{source}: the text form cannot hold two pieces on {name}; "
                             "fix that in this file first")
        at[pl.square] = pl.piece
    wide = len(SEAT_ORDER[SETUP_PLAYERS[draft.setup]]) > 2 or any(p.side in ("left", "right") for p in at.values())
    return _text(n, draft.setup, draft.to_move, at, draft.meta, wide)


def _on_board(sq: Square, n: int) -> bool:
    return 0 <= sq[0] < n and 0 <= sq[1] < n


def to_json(pos: Position) -> str:
    return json_file_text(to_json_data(pos))
