"""Whole-number arguments of library calls, checked at the door the way the commands check them.

Why one place: each entry point used to check its seed, count or depth its own way, or not at all,
so ``seed='a'`` was recorded in a report, ``seed=-1`` made a batch the command then refused to
resume, and a depth of 1.5 recursed until Python gave up. The commands' options already hold
these bounds (``--seed`` is 0 to :data:`terragen.safejson.MAX_SEED`); a library call now refuses
the same values, in its parameters' names: a wrong type is a ``TypeError`` saying what the value
should be, a value out of range a :class:`~terragen.errors.SpecError` (a ``ValueError`` where
docs/library.md says a game state's set-up raises one) giving the range.
"""

from __future__ import annotations

from terragen.actions import whole_number
from terragen.errors import SpecError


def check_whole(value: object, name: str, low: int, high: int | None = None,
                error: type[Exception] = SpecError, why: str = "") -> int:
    """``value`` as a plain int when it is a whole number from ``low`` to ``high`` (no bound above
    when None). ``True`` is no number here, numpy's integers are (:func:`whole_number`). ``name``
    is the parameter as the caller spells it; ``why`` (optional) ends the TypeError's message.
    ``error`` is what a value out of range raises: a SpecError, save where the library's own
    convention says otherwise (a game state's set-up refuses a number with a ValueError)."""
    number = whole_number(value)
    if number is None:
        raise TypeError(f"{name} is a whole number, not {value!r}{why}")
    if number < low or (high is not None and number > high):
        bounds = f"{low}–{high}" if high is not None else f"at least {low}"  # the commands' wording
        raise error(f"{name} must be {bounds} (got {number})")
    return number


def check_seed(value: object, name: str = "seed", error: type[Exception] = SpecError, bounded: bool = True) -> int:
    """A seed as every command's ``--seed`` takes it: a whole number from 0 to ``MAX_SEED``. A
    longer or negative seed was taken by the library and written into files (a batch's manifest)
    that the command then refused to read or resume. ``bounded=False`` (a game state's own seed, which
    no file records) takes any whole number from 0 up: rollout code seeds copies with
    ``getrandbits(64)``, half of which are past ``MAX_SEED`` (found in review)."""
    from terragen.safejson import MAX_SEED

    return check_whole(value, name, 0, MAX_SEED if bounded else None, error,
                       why=": the same seed gives the same result")
