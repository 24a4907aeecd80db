"""Reading moves typed by people (the writing side is ``Position.san``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from terragen.errors import InputError
from terragen.terrace.board import parse_square
from terragen.terrace.model import Move

if TYPE_CHECKING:
    from terragen.terrace.position import Position

_MOVE = re.compile(r"^\s*([TABCDtabcd])?([a-lA-L][0-9]{1,2})\s*([-x:]?)\s*([a-lA-L][0-9]{1,2})\s*$")


def parse_move(position: Position, text: str) -> Move:
    """The legal move ``text`` names in ``position``, or an InputError saying why not; text that is
    not a string is a TypeError (a Move or a number failed inside the pattern matcher)."""
    if not isinstance(text, str):
        raise TypeError(f"parse_move reads a move written as text, e.g. 'Cb7-b6' or 'b7b6', not {text!r}")
    m = _MOVE.match(text)
    if not m:
        raise InputError(f"cannot read move {text!r}; write it like Cb7-b6, b7b6 or Dc6xb5")
    letter, a, _, b = m.groups()
    n = position.size
    frm, to = parse_square(a, n), parse_square(b, n)
    if frm is None or to is None:
        raise InputError(f"move {text!r} names a square off the {n}x{n} board")
    for mv in position.legal_moves():
        if mv.frm == frm and mv.to == to:
            if letter and letter.upper() != mv.piece:
                raise InputError(f"move {text!r}: the piece on {a} is {mv.piece}, not {letter.upper()}")
            return mv
    raise InputError(f"move {text!r} is not legal in this position")
