"""Comma-separated lists of names given on the command line (``--policy greedy,expert``), and one per seat."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from terragen.errors import SpecError


def comma_list(text: str, option: str, known: Iterable[str] = (), item: str = "name") -> list[str]:
    """The names in ``text``, refusing an empty one; a name in ``known`` is matched in any case.

    Why: ``random,,greedy`` or a trailing comma was read as two names, so a player meant for one
    seat silently played another's; a slip in a list of seats should be named, not guessed at.
    Built-in names match in any case (``GREEDY``) as every other named option value does, while a
    name outside ``known`` (a plug-in's ``module:Class``) keeps its case, which Python needs."""
    if not text.strip():  # no comma to speak of: ' ' is a value left empty (a shell variable not set, say)
        raise SpecError(f"{option} is empty: give a {item}")
    parts = [p.strip() for p in text.split(",")]
    if any(not p for p in parts):
        raise SpecError(f"{option} {text!r} has an empty {item} (two commas in a row, or one at an end)")
    by_lower = {k.lower(): k for k in known}
    return [by_lower.get(p.lower(), p) for p in parts]


def per_seat(names: Sequence[str], seats: int, option: str = "--policy") -> list[str]:
    """One player name for every seat: a single name plays them all, else there is one per seat.

    Why one rule for every game: each game's command and library expanded and counted the list
    its own way (one did not count it, and too few names failed mid-game)."""
    if len(names) == 1:
        return list(names) * seats
    if len(names) != seats:
        raise SpecError(f"{option}: {len(names)} given for {seats} seats; give one, or one per seat")
    return list(names)


def unknown_name(kind: str, name: str, known: Sequence[str], more: str = "") -> SpecError:
    """The error for a name not among ``known`` (a policy, a variant), in one shape for every game
    and command, with the likely fix when the name is close to one (``gredy``). ``more`` names what
    else is accepted besides the list (a plug-in's ``package.module:ClassName``).

    Why one place: the four games' commands worded it three ways (one led with the option's name,
    the others with the name), so the same slip read differently from game to game."""
    from terragen.suggest import suggest

    guess = suggest(name, known)
    hint = f": did you mean {guess!r}?" if guess else ""
    choices = ", ".join(known) + (f" or {more}" if more else "")
    return SpecError(f"unknown {kind} {name!r}{hint} (choose from {choices})")
