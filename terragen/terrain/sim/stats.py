"""Summaries of many games: win rates with intervals, game lengths, the two verdicts.

PLAYABLE says the games can be played out (every destination reachable, games
finish under the cap); BALANCED says every seat wins within a margin of its
fair share. They are separate because a board can be one without the other.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from terragen.intervals import wilson
from terragen.plain_text import counted


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of already sorted values."""
    if not sorted_values:
        return float("nan")
    k = max(1, math.ceil(q / 100 * len(sorted_values)))
    return float(sorted_values[k - 1])


def mean_and_stderr(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(values) / n
    if n < 2:
        return m, float("inf")
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, math.sqrt(var / n)


def points_text(deviation: float, margin: float, signed: bool = False) -> str:
    """A seat's distance from its fair share in percentage points, one decimal unless that would
    show a seat past the margin as on it: "+2.5 *" beside "within 2.5 points" read as a verdict
    against itself (it was 2.503 points), so such a distance gets as many decimals as it needs
    (up to three)."""
    sign = "+" if signed else ""
    off = off_margin(deviation, margin)
    text = ""
    for digits in (1, 2, 3):
        text = f"{100 * deviation:{sign}.{digits}f}"
        if not off or abs(float(text)) > 100 * margin + 1e-9:
            break
    return text


def off_margin(deviation: float, margin: float) -> bool:
    """Whether a seat's distance from its fair share is past the margin. A distance equal to it is
    within (11 wins of 40 is 2.5 points off 25%, but 0.275 - 0.25 is 0.025000000000000022)."""
    return abs(deviation) > margin + 1e-12


def balanced_odds(rates: Sequence[float], games: int, margin: float) -> float:
    """The chance that one run of ``games`` games calls a board whose seats truly win
    ``rates`` BALANCED (every measured rate within ``margin`` of 1/n).

    A normal approximation per seat, the seats taken as independent: good to a point
    or two at thousands of games. It says how reliable a verdict is for a board, which
    a single pass or fail does not. With two seats one rate decides the other, so only
    the first counts.
    """
    fair = 1.0 / len(rates)
    odds = 1.0
    for r in rates[:1] if len(rates) == 2 else rates:
        sd = math.sqrt(max(r * (1 - r), 1e-12) / games)
        above, below = (fair + margin - r) / sd, (fair - margin - r) / sd
        odds *= 0.5 * (math.erfc(-above / math.sqrt(2)) - math.erfc(-below / math.sqrt(2)))
    return odds


@dataclass
class SeatStats:
    seat: int
    policy: str
    wins: int
    games: int
    fair: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def deviation(self) -> float:
        """Win rate minus the fair share (a fraction; positive = wins more than its share)."""
        return self.rate - self.fair

    def to_json(self) -> dict:
        lo, hi = self.interval
        interval = [round(lo, 4), round(hi, 4)]
        # win_rate_ci95 is the key every game's play report shares; ci95 is the older name, kept for scripts
        return {"seat": self.seat, "policy": self.policy, "wins": self.wins, "win_rate": round(self.rate, 4),
                "win_rate_ci95": interval, "ci95": interval, "fair": round(self.fair, 4),
                "deviation": round(self.deviation, 4)}


@dataclass
class SimulationReport:
    """Everything ``terragen simulate`` prints.

    ``playable`` (games finish) rests on ``reasons``; ``balanced`` (every seat
    within ``margin`` of its fair share) on ``balance_reasons``.
    """

    games: int
    seed: int
    variant: str
    policies: list[str]
    seats: list[SeatStats]
    finished: int
    turns: dict[str, float]
    capped_share: float
    rotations_per_game: float
    inversions_per_game: float
    send_backs_per_game: float
    forfeits_per_game: float
    turn_cap: int
    margin: float
    unreachable: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    balance_reasons: list[str] = field(default_factory=list)
    twin_dice: str | None = None  # the seats whose dice twin games swapped ("0-1,2-3"), or None
    cycle_dice: bool = False  # whether the games were played in cycles of dice (``runner.cycle_dice``)
    played: int | None = None  # games actually played (fewer than ``games`` when stopped or unplayable)
    #: the games whose noise the BALANCED verdict was sized for (``default_games``), when known: a run
    #: of fewer is said to be a quick look, whose verdict can go either way
    reliable_games: int | None = None

    def __post_init__(self) -> None:
        if self.played is None:
            self.played = self.games

    @property
    def playable(self) -> bool:
        return not self.reasons

    @property
    def balanced(self) -> bool:
        return not self.balance_reasons

    @property
    def verdicts(self) -> tuple[str, str]:
        return ("PLAYABLE" if self.playable else "NOT PLAYABLE", "BALANCED" if self.balanced else "NOT BALANCED")

    def to_json(self) -> dict:
        return {
            "game": "terrain", "games": self.games, "played": self.played, "seed": self.seed, "variant": self.variant, "policies": self.policies,
            "seats": [s.to_json() for s in self.seats], "finished": self.finished,
            "turns_to_finish": {k: (round(v, 3) if v == v else None) for k, v in self.turns.items()},
            "capped_share": round(self.capped_share, 4), "turn_cap": self.turn_cap,
            "per_game": {"rotations": round(self.rotations_per_game, 3), "inversions": round(self.inversions_per_game, 3),
                         "send_backs": round(self.send_backs_per_game, 3), "forfeits": round(self.forfeits_per_game, 3)},
            "margin": self.margin, "playable": self.playable, "balanced": self.balanced,
            "verdict": ", ".join(self.verdicts), "reasons": self.reasons, "balance_reasons": self.balance_reasons,
            "twin_dice": self.twin_dice, "cycle_dice": self.cycle_dice, "reliable_games": self.reliable_games,
        }

    def lines(self) -> list[str]:
        """The plain-text report, one line each."""
        count = counted(self.games, "game") if self.played == self.games else f"{self.played} of {self.games} games played"
        out = [f"{count}, seed {self.seed}, variant {self.variant}, policies {', '.join(self.policies)}"
               + (f", twin dice {self.twin_dice}" if self.twin_dice else "")
               + (", cycles of dice" if self.cycle_dice else "")]
        if not self.played:  # a table of zeros would read as games every seat lost
            return out + self._verdict_lines()
        width = max(8, *(len(s.policy) for s in self.seats))  # a plug-in's package.module:Class is long
        out.append(f"seat  {'policy':<{width}}  wins   win rate  95% interval     fair   vs fair")
        for s in self.seats:
            lo, hi = s.interval
            flag = "  *" if off_margin(s.deviation, self.margin) else ""
            out.append(f"{s.seat:>4}  {s.policy:<{width}} {s.wins:>5}   {s.rate:7.1%}  [{lo:6.1%}, {hi:6.1%}]  {s.fair:6.1%}"
                       f"  {points_text(s.deviation, self.margin, signed=True):>5}{flag}")
        t = self.turns
        if self.finished:
            out.append(f"turns to finish: mean {t['mean']:.2f}, median {t['median']:.0f}, p90 {t['p90']:.0f}, max {t['max']:.0f}"
                       f" ({counted(self.finished, 'finished game')})")
        else:
            out.append("turns to finish: no game finished")
        out.append(f"hit the turn cap ({self.turn_cap} rounds): {self.capped_share:.1%} of games")
        out.append(f"per game: {self.rotations_per_game:.2f} rotations, {self.send_backs_per_game:.2f} send-backs, "
                   f"{self.inversions_per_game:.2f} inversions, {self.forfeits_per_game:.2f} forfeited doubles")
        return out + self._verdict_lines()

    def _verdict_lines(self) -> list[str]:
        out = []
        playable, balanced = self.verdicts
        # a failed verdict says what it needs: "NOT BALANCED (every seat within ...)" read as if it held
        needs = lambda verdict: "needs " if verdict.startswith("NOT") else ""  # noqa: E731
        out.append(f"verdict: {playable} ({needs(playable)}every destination reachable, games finish under the cap)")
        out.extend(f"  - {r}" for r in self.reasons)
        out.append(f"verdict: {balanced} ({needs(balanced)}every seat within {100 * self.margin:g} points of its fair share)")
        out.extend(f"  - {r}" for r in self.balance_reasons)
        note = self.quick_look_note()
        if note:
            out.append(f"  note: {note}")
        return out

    def quick_look_note(self) -> str | None:
        """Why a verdict on fewer games than the board's default can go either way, or None (the
        command's report and the web page say it in these words)."""
        if self.played and self.reliable_games and self.played < self.reliable_games and len(self.seats) > 1:
            # a user's --games 100 on a board generate had just called fair read NOT BALANCED as a finding
            are = "is" if self.played == 1 else "are"
            return (f"{self.played:,} {'game' if self.played == 1 else 'games'} {are} a quick look: on so few, seats' rates wander by several "
                    f"points and this verdict can go either way; the default for this board, "
                    f"{self.reliable_games:,} games, keeps its noise to a seventh of the margin")
        return None
