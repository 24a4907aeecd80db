"""Terrace positions and move generation, in the manner of python-chess.

A :class:`Position` holds the board size, the set-up (which fixes the seats
and their objectives), the pieces and the seat to move. ``legal_moves()``
lists the moves, ``push``/``pop`` play and take back a move in place (used by
perft and search), ``result()`` says whether and how the game has ended.

It also answers the OpenSpiel-style names the other three games' states
answer (``current_player()``, ``legal_actions()``, ``apply()`` in place,
``is_terminal()``, ``winners()``, ``returns()``, ``clone()``), so one loop
plays any of the four games; ``applied()`` is the checked move played on a
new position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from terragen.errors import IllegalActionError, InputError
from terragen.grids.square import Square
from terragen.plain_text import counted
from terragen.terrace.board import Board, board, square_name
from terragen.terrace.model import KINDS, Move, Piece, Rules, seat_words
from terragen.terrace.setups import SEAT_ORDER, SETUP_PLAYERS, check_setup, objective, start_pieces

# Internal piece code: 0 = empty, else 1 + seat_index * 5 + kind_index (kind order T A B C D).
_T = 0


def _code(seat: int, kind: str) -> int:
    return 1 + seat * 5 + KINDS.index(kind)


#: each way a game ends, in words for a report
_REASON_WORDS = {"t-captured": "took the other T", "objective": "reached the objective",
                 "last-standing": "the last seat left", "no-move": "the side to move has no move"}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is a seat side (``"top"``...) or None for a draw."""

    winner: str | None
    reason: str  # "t-captured", "objective", "no-move", "last-standing"

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def text(self) -> str:
        # the reason in words after its code: "bottom (t) wins (t-captured)" read as if t had been taken
        words = _REASON_WORDS.get(self.reason)
        why = f"{self.reason}: {words}" if words else self.reason
        if self.winner is None:
            return f"draw ({why})"
        # the side's name with its file-form letter: "t wins" alone read as a piece, not a player
        return f"{seat_words(self.winner)} wins ({why})"


class Position:
    """A Terrace position. Mutable through ``push``/``pop`` and ``apply`` only."""

    def __init__(
        self,
        pieces: dict[Square, Piece] | Iterable[tuple[Square, Piece]] = (),
        *,
        to_move: str = "top",
        setup: str = "full",
        size: int = 8,
        rules: Rules | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        check_setup(setup)
        self.board: Board = board(size)
        self.size = size
        self.setup = setup
        self.rules = rules or Rules()
        self.seats: tuple[str, ...] = SEAT_ORDER[SETUP_PLAYERS[setup]]
        self.meta = dict(meta or {})
        n = size
        self.objectives = tuple(self.board.index(objective(s, n)) for s in self.seats)
        self.cells = [0] * (n * n)
        items = pieces.items() if isinstance(pieces, dict) else pieces
        for sq, piece in items:
            if not isinstance(piece, Piece):  # Position({(0, 0): "T"}) failed with AttributeError
                raise InputError(f"a piece is a Piece(side, kind), e.g. Piece('top', 'T'), not {piece!r}")
            if not self.board.on_board(sq):
                raise InputError(f"square {sq} is off the {n}x{n} board")
            if piece.kind not in KINDS:
                raise InputError(f"unknown piece kind {piece.kind!r}")
            if piece.side not in self.seats:
                raise InputError(f"a {SETUP_PLAYERS[setup]}-player position has no {piece.side} seat")
            self.cells[self.board.index(sq)] = _code(self.seats.index(piece.side), piece.kind)
        if to_move not in self.seats:
            raise InputError(f"seat {to_move!r} does not play in a {SETUP_PLAYERS[setup]}-player game")
        self.turn = self.seats.index(to_move)
        nk = len(KINDS)
        self._rank = [0] + [self.rules.rank(KINDS[(c - 1) % nk]) for c in range(1, 1 + nk * len(self.seats))]
        self.alive = [self._has_t(s) for s in range(len(self.seats))]
        self.winner: int | None = None
        self.reason = ""
        self._settle_loaded()
        self._stack: list[tuple] = []

    # ----- construction helpers -------------------------------------------------
    @classmethod
    def start(cls, setup: str = "full", size: int = 8, rules: Rules | None = None) -> "Position":
        """The starting position of a set-up; the top seat moves first."""
        return cls(start_pieces(setup, size), to_move="top", setup=setup, size=size, rules=rules)

    def __str__(self) -> str:
        """The position as a position file writes it (python-chess prints its board the same way)."""
        from terragen.terrace.formats import to_text

        return to_text(self)

    def __repr__(self) -> str:
        outcome = self.result()
        state = f"{self.to_move} to move" if outcome is None else f"over: {outcome.text()}"
        return f"<Position {self.setup} {self.size}x{self.size}, {state}, {counted(len(self._stack), 'move')} to take back>"

    def copy(self, stack: bool = False) -> "Position":
        """A position of its own; with ``stack`` it keeps the moves :meth:`pop` can take back
        (python-chess keeps them by default; here a player's look-ahead copies without them)."""
        other = Position.__new__(Position)
        other.__dict__.update(self.__dict__)
        other.cells = list(self.cells)
        other.alive = list(self.alive)
        other.meta = dict(self.meta)
        # each entry's own lists: pop() puts an entry's list of seats still in back as the position's,
        # and two positions holding one list let a capture in one remove a seat from the other
        other._stack = [(a, b, c, cap, list(removed), (*prev[:3], list(prev[3])))
                        for a, b, c, cap, removed, prev in self._stack] if stack else []
        return other

    def __copy__(self) -> "Position":
        """``copy.copy`` shared the cells, so a move pushed on the copy moved the original too."""
        return self.copy(stack=True)

    def __deepcopy__(self, memo: dict) -> "Position":
        return self.copy(stack=True)

    def _has_t(self, seat: int) -> bool:
        return _code(seat, "T") in self.cells

    def _settle_loaded(self) -> None:
        """Decide whether a position read from a file is already over."""
        for seat in range(len(self.seats)):
            t = _code(seat, "T")
            if self.cells[self.objectives[seat]] == t:
                self.winner, self.reason = seat, "objective"
                return
        live = [s for s in range(len(self.seats)) if self.alive[s]]
        if len(live) == 1:
            self.winner = live[0]
            self.reason = "t-captured" if len(self.seats) == 2 else "last-standing"

    # ----- queries ----------------------------------------------------------------
    @property
    def to_move(self) -> str:
        """The side whose turn it is (``"top"``...); it stays the last mover's once the game is won.
        :meth:`current_player` is the same seat as a number, and -1 once the game is over."""
        return self.seats[self.turn]

    def piece_at(self, sq: Square) -> Piece | None:
        """The piece on ``sq``, or None if it is empty; a square off the board is a ValueError
        (not another square's piece)."""
        c = self.cells[self.board.index(sq)]
        if not c:
            return None
        return Piece(self.seats[(c - 1) // 5], KINDS[(c - 1) % 5])

    def pieces(self) -> dict[Square, Piece]:
        """Every piece by its square: a new dict each call, so changing it does not change the
        position (only ``push``/``pop``/``apply`` do)."""
        out = {}
        for i, c in enumerate(self.cells):
            if c:
                out[self.board.square(i)] = Piece(self.seats[(c - 1) // 5], KINDS[(c - 1) % 5])
        return out

    def t_square(self, side: str) -> Square | None:
        """Where ``side``'s T stands (None once it is taken), without building :meth:`pieces`.
        A side that does not play here is a ValueError, as in :meth:`objective_of` (it was None,
        which reads as "that seat has lost its T")."""
        code = _code(self._seat_index(side), "T")
        return self.board.square(self.cells.index(code)) if code in self.cells else None

    def objective_of(self, side: str) -> Square:
        """The square ``side``'s T must reach."""
        return self.board.square(self.objectives[self._seat_index(side)])

    def _seat_index(self, side: str) -> int:
        if side not in self.seats:
            raise ValueError(f"no side {side!r} here; the sides are {', '.join(self.seats)}")
        return self.seats.index(side)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self.size, self.setup, self.turn, self.cells) == (other.size, other.setup, other.turn, other.cells)

    def key(self) -> tuple:
        """A hashable identity of the position (board, seats, side to move)."""
        return (self.size, self.setup, self.turn, tuple(self.cells))

    # ----- move generation ---------------------------------------------------------
    def piece_moves(self, sq: Square) -> list[Move]:
        """Every move of the piece on ``sq`` by the rules, whoever is to move.

        Used to examine one piece (as the rulebook's diagrams do); ``legal_moves``
        adds the turn and the end of the game.
        """
        idx = self.board.index(sq)
        return [Move(self.board.square(a), self.board.square(b), k, p) for a, b, k, p in self._gen_from(idx)]

    def _gen_from(self, i: int) -> list[tuple[int, int, str, str]]:
        cells = self.cells
        c = cells[i]
        if not c:
            return []
        bd = self.board
        seat = (c - 1) // 5
        kind = KINDS[(c - 1) % 5]
        lo, hi = 1 + seat * 5, 5 + seat * 5  # codes of this seat's pieces
        out: list[tuple[int, int, str, str]] = []
        # Slide: walk along the terrace through empty or own squares, never an opponent's.
        adj = bd.terrace_adj
        seen = {i}
        stack = [i]
        while stack:
            a = stack.pop()
            for b in adj[a]:
                if b in seen:
                    continue
                seen.add(b)
                cb = cells[b]
                if cb == 0:
                    out.append((i, b, "slide", kind))
                    stack.append(b)
                elif lo <= cb <= hi:
                    stack.append(b)
        for b in bd.up[i]:
            if cells[b] == 0:
                out.append((i, b, "up", kind))
        for b in bd.down[i]:
            if cells[b] == 0:
                out.append((i, b, "down", kind))
        rank = self._rank[c]
        own_t = lo + _T
        for b in bd.capture[i]:
            cb = cells[b]
            if cb and self._rank[cb] <= rank:
                if cb == own_t and not self.rules.own_t_capture:
                    continue
                out.append((i, b, "capture", kind))
        return out

    def legal_moves(self) -> list[Move]:
        """All moves of the side to move, in board order; none once the game is decided."""
        if self.winner is not None:
            return []
        return [Move(self.board.square(a), self.board.square(b), k, p) for a, b, k, p in self._gen_all()]

    def _gen_all(self) -> list[tuple[int, int, str, str]]:
        lo, hi = 1 + self.turn * 5, 5 + self.turn * 5
        out: list[tuple[int, int, str, str]] = []
        for i, c in enumerate(self.cells):
            if lo <= c <= hi:
                out.extend(self._gen_from(i))
        return out

    def _move_pairs(self) -> list[tuple[int, int]]:
        if self.winner is not None:
            return []
        return [(a, b) for a, b, _, _ in self._gen_all()]

    def is_legal(self, move: Move) -> bool:
        """Whether :meth:`apply` would play ``move`` here (the game goes on, the piece on ``frm`` is
        the side to move's and may go to ``to``). Looks only at that piece's moves."""
        try:
            self._legal(move)
        except IllegalActionError:
            return False
        return True

    # ----- checking moves --------------------------------------------------------------
    def _indices(self, move: Move) -> tuple[int, int]:
        """The board indices of a move's squares; anything not a Move is a TypeError saying what
        a move is (a pair of squares failed deep inside with AttributeError 'frm')."""
        if not isinstance(move, Move):
            raise TypeError(f"a move is a Move(frm, to) of two (row, column) squares, e.g. Move((6, 0), (5, 0)), "
                            f"one of legal_moves() or parse_move('Cc8-c6'), not {move!r}")
        try:
            return self.board.index(move.frm), self.board.index(move.to)
        except ValueError as exc:
            raise IllegalActionError(f"move {move.frm} to {move.to}: {exc}") from None
        except TypeError:
            raise TypeError(f"a move's squares are (row, column) pairs of whole numbers, e.g. Move((6, 0), (5, 0)); "
                            f"got {move!r}") from None

    def _name(self, a: int, b: int) -> str:
        n = self.size
        return f"move {square_name(self.board.square(a), n)}-{square_name(self.board.square(b), n)}"

    def _check_mover(self, a: int, b: int) -> None:
        """Refuse a move whose from-square holds no piece of the side to move: two comparisons, so
        :meth:`push` can afford it."""
        c = self.cells[a]
        if 1 + self.turn * 5 <= c <= 5 + self.turn * 5:
            return
        where = square_name(self.board.square(a), self.size)
        if not c:
            raise IllegalActionError(f"{self._name(a, b)}: no piece on {where} to move")
        owner = self.seats[(c - 1) // 5]
        raise IllegalActionError(f"{self._name(a, b)}: the {KINDS[(c - 1) % 5]} on {where} is {owner}'s, "
                                 f"and {self.to_move} is to move")

    def _legal(self, move: Move) -> tuple[int, int, str, str]:
        """``move`` as the generator lists it, (from, to, kind, piece), if it is legal; otherwise an
        IllegalActionError saying why (the game is over, not the side to move's piece, or that
        piece cannot go there). Only the moving piece's moves are generated, and the end of the
        game is asked only for a refusal: a move found among them proves the game goes on."""
        a, b = self._indices(move)
        if self.winner is None and self.alive[self.turn] and 1 + self.turn * 5 <= self.cells[a] <= 5 + self.turn * 5:
            for entry in self._gen_from(a):
                if entry[1] == b:
                    return entry
        outcome = self.result()
        if outcome is not None:
            raise IllegalActionError(f"{self._name(a, b)}: the game is over, {outcome.text()}")
        self._check_mover(a, b)
        where = square_name(self.board.square(a), self.size)
        raise IllegalActionError(f"{self._name(a, b)} is not a legal move: the {KINDS[(self.cells[a] - 1) % 5]} on "
                                 f"{where} cannot go there (legal_moves() lists the moves)")

    # ----- making moves --------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play a move in place, checking only what costs nothing: the game is not decided and the
        from-square holds a piece of the side to move (python-chess asserts as much). Whether that
        piece may go to ``to`` is not checked, for speed: take moves from ``legal_moves()`` or use
        :meth:`apply`, which checks them."""
        a, b = self._indices(move)
        if self.winner is not None:
            raise IllegalActionError(f"{self._name(a, b)}: the game is over, {self.result().text()}")
        if not 1 + self.turn * 5 <= self.cells[a] <= 5 + self.turn * 5:  # _check_mover's test, inline for speed
            self._check_mover(a, b)
        self._push_idx(a, b)

    def apply(self, move: Move) -> None:
        """Play ``move`` in place after checking it is legal, as the other games' states apply an
        action; an illegal move is an IllegalActionError and changes nothing. :meth:`pop` takes it
        back; :meth:`applied` plays it on a new position instead."""
        a, b, _, _ = self._legal(move)
        self._push_idx(a, b)

    def applied(self, move: Move) -> "Position":
        """A new position with ``move`` played (checked as :meth:`apply` checks it); ``self`` is
        unchanged. The new position has no moves for :meth:`pop` to take back."""
        other = self.copy()
        other.apply(move)
        other._stack = []
        return other

    def _push_idx(self, a: int, b: int) -> None:
        cells = self.cells
        c = cells[a]
        captured = cells[b]
        removed: list[tuple[int, int]] = []
        prev = (self.turn, self.winner, self.reason, list(self.alive))
        cells[b] = c
        cells[a] = 0
        mover = self.turn
        nseats = len(self.seats)
        if captured and (captured - 1) % 5 == _T:
            loser = (captured - 1) // 5
            self.alive[loser] = False
            if nseats == 2:
                self.winner, self.reason = 1 - loser, "t-captured"
            else:
                lo, hi = 1 + loser * 5, 5 + loser * 5
                for k, ck in enumerate(cells):
                    if lo <= ck <= hi:
                        removed.append((k, ck))
                        cells[k] = 0
                live = [s for s in range(nseats) if self.alive[s]]
                if len(live) == 1:
                    self.winner, self.reason = live[0], "last-standing"
        if self.winner is None and (c - 1) % 5 == _T and b == self.objectives[mover]:
            self.winner, self.reason = mover, "objective"
        if self.winner is None:
            t = mover
            for _ in range(nseats):
                t = (t + 1) % nseats
                if self.alive[t]:
                    break
            self.turn = t
        self._stack.append((a, b, c, captured, removed, prev))

    def pop(self) -> Move:
        """Take back the last pushed move and return it as :meth:`legal_moves` lists it, its kind
        and piece filled in (they were blank)."""
        a, b, c, captured = self._pop_idx()
        n = self.size
        return Move(divmod(a, n), divmod(b, n), self._kind_of(a, b, captured), KINDS[(c - 1) % 5])

    def _pop_idx(self) -> tuple[int, int, int, int]:
        """Take back the last pushed move; its (from, to, piece code, captured code). Perft calls
        this, and builds no Move."""
        if not self._stack:
            raise ValueError("no move to take back: none was pushed on this position")
        a, b, c, captured, removed, prev = self._stack.pop()
        cells = self.cells
        for k, ck in removed:
            cells[k] = ck
        cells[a] = c
        cells[b] = captured
        self.turn, self.winner, self.reason, self.alive = prev[0], prev[1], prev[2], prev[3]
        return a, b, c, captured

    def _kind_of(self, a: int, b: int, captured: int) -> str:
        """A move's kind from its squares: every move but a capture goes to an empty square, and
        a slide stays on its level while a step goes one up or down."""
        if captured:
            return "capture"
        rise = self.board.heights[b] - self.board.heights[a]
        return "slide" if rise == 0 else "up" if rise > 0 else "down"

    # ----- the OpenSpiel-style names the other games' states answer ----------------------------
    def current_player(self) -> int:
        """The seat to move as its number in :attr:`seats` (turn order), or -1 once the game is over."""
        return -1 if self.is_terminal() else self.turn

    def legal_actions(self) -> list[Move]:
        """The legal moves, none once the game is over (as :meth:`legal_moves`)."""
        return [] if self.is_terminal() else self.legal_moves()

    def is_terminal(self) -> bool:
        """Whether the game is over (won or drawn): :meth:`is_game_over`'s OpenSpiel name."""
        return self.is_game_over()

    def winners(self) -> list[int]:
        """The winning seat's number, in a list as the other games give theirs; empty before the end
        and on a draw (no side to move could move: nobody won, as a Terrain Game at its turn cap)."""
        outcome = self.result()
        if outcome is None or outcome.winner is None:
            return []
        return [self.seats.index(outcome.winner)]

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the other seats; all 0 before the end and on a draw (no winner
        to share it), as the Terrain Game's are when no one wins."""
        won = self.winners()
        return [1.0 if seat in won else 0.0 for seat in range(len(self.seats))]

    def clone(self) -> "Position":
        """An independent copy to try moves on (OpenSpiel's name): ``copy(stack=True)``."""
        return self.copy(stack=True)

    # ----- the end of the game ----------------------------------------------------------
    def result(self) -> Outcome | None:
        """The outcome if the game is over, else None (a side with no move makes a draw)."""
        if self.winner is not None:
            return Outcome(self.seats[self.winner], self.reason)
        if not self.alive[self.turn] or not self._has_move():
            return Outcome(None, "no-move")
        return None

    def _has_move(self) -> bool:
        """Whether the side to move has any move: stops at the first piece that has one (the greedy
        player asks this after every move it weighs; listing them all took 60% of its time)."""
        lo, hi = 1 + self.turn * 5, 5 + self.turn * 5
        return any(lo <= c <= hi and self._gen_from(i) for i, c in enumerate(self.cells))

    def is_game_over(self) -> bool:
        """Whether the game is over: won, or drawn because the side to move has no move (so
        ``legal_moves()`` being empty is not the whole test)."""
        return self.result() is not None

    # ----- notation ----------------------------------------------------------------------
    def san(self, move: Move) -> str:
        """Readable notation: piece letter, from, ``-`` or ``x``, to (e.g. ``Cb7-b6``, ``Dc6xb5``).
        Only a legal move is written (IllegalActionError otherwise): 'Da8xh1' read as a real move."""
        a, b, kind, piece = self._legal(move)
        n = self.size
        sep = "x" if kind == "capture" else "-"
        return f"{piece}{square_name(self.board.square(a), n)}{sep}{square_name(self.board.square(b), n)}"

    def parse_move(self, text: str) -> Move:
        """Read a move written as ``Cb7-b6``, ``b7-b6``, ``b7b6`` or ``Dc6xb5``; must be legal."""
        from terragen.terrace.notation import parse_move

        return parse_move(self, text)
