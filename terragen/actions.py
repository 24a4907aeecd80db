"""Actions as a program hands them to a game state: the same whichever container they arrive in."""

from __future__ import annotations


def as_tuple(action: object) -> object:
    """An action as a state's legal list names it. One read from JSON has lists where tuples go
    (``["move", [1, -2]]``, ``["place", 0, [6, 0], 1]``): the same action, and refused as malformed
    by a state that compares or checks tuples."""
    if isinstance(action, list):
        action = tuple(action)
    if isinstance(action, tuple):
        return tuple(tuple(part) if isinstance(part, list) else part for part in action)
    return action


def whole_number(value: object) -> int | None:
    """``value`` as a plain int when it is a whole number (an int or numpy's integers), else None.

    Why not ``isinstance(value, int)``: that takes ``True`` for a 1 (which then reached a board
    and its file as ``True``) and refuses ``numpy.int64(1)``, which a script's arrays hand over."""
    import operator

    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None
