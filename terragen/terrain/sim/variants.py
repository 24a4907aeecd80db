"""The rule options a simulated game is played under.

The default is the main game of the rulebook. Each variant is a switch, so a
user can combine them where the combination makes sense (for example green
die with inversion). ``docs/rules-decisions.md`` (The Terrain Game, playing it out) explains every choice.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from terragen.errors import SpecError
from terragen.names import unknown_name

VARIANT_NAMES = ("standard", "inversion", "green", "lost", "teams", "no-pass-through", "fixed-start", "no-interactions")
#: other spellings a variant is known by
VARIANT_ALIASES = {"green-die": "green", "team": "teams", "solo": "no-interactions"}


def variant_names(text: str) -> list[str]:
    """The variants a comma list names, each by its own name, in lower case; SpecError for an empty or
    unknown one. Apart from building the rules so that the command can refuse a slip as it reads its
    options, before it reads a board (then said as every bad option value is)."""
    from terragen.names import comma_list

    names = []
    for raw in comma_list(text, "--variant"):  # an empty name is a slip, not "standard"
        name = VARIANT_ALIASES.get(raw.lower(), raw.lower())
        if name not in VARIANT_NAMES:
            raise unknown_name("variant", raw, list(VARIANT_NAMES))
        names.append(name)
    return names


@dataclass(frozen=True)
class Rules:
    """How one game is played.

    ``inversion``: a double 6 may turn an unoccupied piece upside down for good.
    ``green``: a third die picks the direction; pips are ignored; doubles re-roll.
    ``lost``: everyone starts on the centre hex and races to any edge hex.
    ``teams``: tuples of seats that win together and must stay close.
    ``pass_through``: a path may cross a hex where another token stands.
    ``rotate_start``: game ``i`` is opened by seat ``i mod players`` (else seat 0 always).
    ``interactions``: tokens meet (send-backs, blocked ends) and doubles may turn or
    invert pieces. Off, every token races alone on the starting board: tokens never
    meet and doubles are forfeited; that is the race model's game, and the difference
    between the two measures what interactions do to each seat.
    ``turn_cap``: the game stops undecided after this many rounds.
    """

    inversion: bool = False
    green: bool = False
    lost: bool = False
    teams: tuple[tuple[int, ...], ...] = ()
    pass_through: bool = True
    rotate_start: bool = True
    turn_cap: int = 500
    team_distance: int = 3
    interactions: bool = True

    def __post_init__(self) -> None:
        """A setting no game can have is refused when the rules are made: ``team_distance=-1`` was
        taken, and ``'x'`` failed in the middle of the first game."""
        for name in ("turn_cap", "team_distance"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise ValueError(f"Rules.{name} must be a whole number, at least 1, not {value!r}")
            object.__setattr__(self, name, int(value))  # numpy's whole numbers were taken, and stay taken
        for name in ("inversion", "green", "lost", "pass_through", "rotate_start", "interactions"):
            if not isinstance(getattr(self, name), bool):  # green="no" is true: the variant was played
                raise ValueError(f"Rules.{name} must be True or False, not {getattr(self, name)!r}")
        object.__setattr__(self, "teams", _checked_teams(self.teams))

    @property
    def send_back(self) -> bool:
        """Whether ending a move on a token sends it home (only the main game and inversion)."""
        return self.interactions and not (self.green or self.lost or self.teams)

    @property
    def uses_pips(self) -> bool:
        """Green-die and LOST! movement ignores pips (see the decisions document)."""
        return not (self.green or self.lost)

    @property
    def rotations_matter(self) -> bool:
        return self.uses_pips and self.interactions

    def describe(self) -> str:
        parts = [n for n, on in (("inversion", self.inversion), ("green", self.green), ("lost", self.lost)) if on]
        if self.teams:
            parts.append("teams " + ",".join("+".join(map(str, t)) for t in self.teams))
        if not self.pass_through:
            parts.append("no-pass-through")
        if not self.rotate_start:
            parts.append("fixed-start")
        if not self.interactions:
            parts.append("no-interactions")
        return ", ".join(parts) or "standard"


def _checked_teams(teams: object) -> tuple[tuple[int, ...], ...]:
    """``teams`` as tuples of seat numbers. Why here: ``teams='ab'`` was taken when the rules were
    made, and a seat given as ``'3'`` failed in the first game as a comparison of str and int.
    Which seats a layout has is the game's to check (``setup_from_layout``)."""
    from terragen.actions import whole_number

    def bad() -> ValueError:
        return ValueError(f"Rules.teams must be teams of seat numbers, e.g. ((0, 2), (1, 3)), not {teams!r}")

    if isinstance(teams, (str, bytes)) or not isinstance(teams, (tuple, list)):
        raise bad()
    out = []
    for team in teams:
        if isinstance(team, (str, bytes)) or not isinstance(team, (tuple, list)):
            raise bad()
        seats = []
        for seat in team:
            number = whole_number(seat)
            if number is None or number < 0:
                raise bad()
            seats.append(number)
        out.append(tuple(seats))
    return tuple(out)


def default_teams(players: int, corners: Sequence[int] | None = None) -> tuple[tuple[int, ...], ...]:
    """Partners on neighbouring corners, two by two in seat order: seats 0+1, 2+3 (, 4+5) when their
    ``corners`` (each seat's, in seat order) are neighbours, else 1+2, 3+0 (... 5+0) when those are,
    else by seat number (0+1, 2+3, 4+5).

    Why neighbours, not seats facing across the table: teammates may not move apart beyond 3 pieces,
    or beyond the distance they start at; on opposite corners (10 apart on a radius-5 board, as far
    as two cells can be) that never binds, so team play was two lone races a team, and on 16
    generated four-seat boards such teams were BALANCED on 1 (up to 78% against 22%), neighbours on
    12 (on the other 4 some games never finished); six seats 1 of 6 against 6 of 6
    (``docs/rules-decisions.md``, team play).

    Other counts have no such pairs, but team play itself is not refused (``--teams 0+2+4,1+3``
    plays five): the error said "team play needs an even number", so it names ``--teams`` with
    teams that would do for this layout."""
    if players < 3:  # two one-seat teams are the plain game
        raise SpecError(f"team play needs 3 players or more, two of them in one team (this layout has {players})")
    if players < 4 or players % 2:
        example = ",".join("+".join(map(str, range(first, players, 2))) for first in (0, 1) if first < players)
        raise SpecError(f"--variant teams pairs seats on neighbouring corners for 4 or 6 players only (this layout "
                        f"has {players}); give the teams with --teams, seats joined by + and teams by commas, "
                        f"e.g. --teams {example}")
    if corners is not None and len(corners) == players:
        pairs = neighbour_teams(corners)
        if pairs is not None:
            return pairs
    return tuple((2 * k, 2 * k + 1) for k in range(players // 2))


def neighbour_teams(corners: Sequence[int]) -> tuple[tuple[int, int], ...] | None:
    """Pairs of seats (places in seat order) on neighbouring ``corners`` covering every seat, or None
    when there are none. The pairs two by two in seat order first (0+1, 2+3, ...), then shifted by
    one (1+2, 3+0, ...), then any other: seats on corners 0, 3, 1, 4 pair as 0+2, 1+3, where the
    first two tries would put partners on opposite corners."""
    n = len(corners)
    if n % 2:
        return None

    def neighbours(a: int, b: int) -> bool:
        return (corners[a] - corners[b]) % 6 in (1, 5)

    for shift in (0, 1):
        pairs = [tuple(sorted(((2 * k + shift) % n, (2 * k + 1 + shift) % n))) for k in range(n // 2)]
        if all(neighbours(a, b) for a, b in pairs):
            return tuple(sorted(pairs))

    def matchings(left: list[int]):
        if not left:
            yield []
            return
        first, rest = left[0], left[1:]
        for k, other in enumerate(rest):
            if neighbours(first, other):
                for more in matchings(rest[:k] + rest[k + 1:]):
                    yield [(first, other), *more]

    found = next(matchings(list(range(n))), None)
    return tuple(sorted(found)) if found is not None else None


def parse_teams(text: str, players: int) -> tuple[tuple[int, ...], ...]:
    """``"0+2,1+3"`` -> ((0, 2), (1, 3)); every seat in exactly one team, at least two teams."""
    teams = []
    try:
        for part in text.split(","):
            teams.append(tuple(int(x) for x in part.split("+")))
    except ValueError:
        raise SpecError(f"bad --teams {text!r}: expected seats joined by + and teams by commas, e.g. 0+2,1+3") from None
    seats = sorted(s for t in teams for s in t)
    if seats != list(range(players)) or len(teams) < 2:
        raise SpecError(f"bad --teams {text!r}: every seat 0 to {players - 1} must be in exactly one team, and there must be two teams or more")
    if all(len(team) == 1 for team in teams):  # the plain game, reported as a team game
        raise SpecError(f"bad --teams {text!r}: every team has one seat, which is the plain game; put two seats or "
                        "more in a team (e.g. 0+2,1)")
    return tuple(teams)


def rules_for_layout(layout: Any, names: list[str], turn_cap: int = 500, teams: str | None = None) -> Rules:
    """:func:`rules_from_names` for ``layout``'s seats, team play's default partners read off their
    corners (in seat order): what ``simulate``, the page's simulate job and ``generate --team-play``
    each worked out alike."""
    seated = sorted(layout.players, key=lambda p: p.seat)
    return rules_from_names(names, len(seated), turn_cap=turn_cap, teams=teams, corners=[p.corner for p in seated])


def rules_from_names(names: list[str], players: int, turn_cap: int = 500, teams: str | None = None,
                     corners: Sequence[int] | None = None) -> Rules:
    """Build :class:`Rules` from variant names as the command line gives them; ``corners`` (each
    seat's, in seat order) let team play's default pair the seats that really face each other."""
    flags = {"inversion": False, "green": False, "lost": False, "pass_through": True, "rotate_start": True,
             "interactions": True}
    team_spec: tuple[tuple[int, ...], ...] = ()
    for raw in names:
        for name in variant_names(raw):
            if name == "standard":
                continue
            if name == "inversion":
                flags["inversion"] = True
            elif name == "green":
                flags["green"] = True
            elif name == "lost":
                flags["lost"] = True
            elif name == "teams":
                if teams is None:  # teams given with --teams need no default (it was refused first)
                    team_spec = default_teams(players, corners)
            elif name == "no-pass-through":
                flags["pass_through"] = False
            elif name == "fixed-start":
                flags["rotate_start"] = False
            elif name == "no-interactions":
                flags["interactions"] = False
    if teams is not None:  # --teams= (empty) is a slip to name, not "no teams"
        team_spec = parse_teams(teams, players)
    if turn_cap < 1:
        raise SpecError("--turn-cap must be at least 1")
    return Rules(turn_cap=turn_cap, teams=team_spec, **flags)


