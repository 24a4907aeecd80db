"""Many seeded games between policies, summarised per seat.

The question the simulation answers is whether seat order is fair: win rates
and mean scores per seat without and with the turn-order bonus, the mean
score gap of each seat to the best seat, and the bonus that would close it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from terragen.arguments import check_seed, check_whole
from terragen.errors import SpecError
from terragen.intervals import whole_or_share, wilson
from terragen.limits import MAX_PLAY_GAMES
from terragen.names import unknown_name
from terragen.terraflip.model import TileSet
from terragen.terraflip.players import POLICIES, make_policy
from terragen.terraflip.rules import Options
from terragen.terraflip.scoring import winners
from terragen.terraflip.state import GameState

MAX_ACTIONS = 2000  # a game has under 200 actions; this only guards against a policy bug


@dataclass(frozen=True)
class PlaySpec:
    players: int = 4
    games: int = 100
    seed: int = 0
    policies: tuple[str, ...] = ("memory",)

    def __post_init__(self) -> None:
        """The counts' and the seed's types, when made: ``seed='a'`` was played and recorded in the
        report as its seed. Their ranges are :meth:`check`'s, as the other settings' are."""
        from terragen.actions import whole_number

        for name in ("players", "games", "seed"):
            value = getattr(self, name)
            if whole_number(value) is None:
                raise TypeError(f"PlaySpec.{name} is a whole number, not {value!r}")
            object.__setattr__(self, name, whole_number(value))

    def seat_policies(self) -> tuple[str, ...]:
        if len(self.policies) == 1:
            return self.policies * self.players
        return self.policies

    def check(self) -> None:
        check_whole(self.players, "players", 2, 4)
        check_whole(self.games, "games", 1, MAX_PLAY_GAMES)
        check_seed(self.seed)  # -1 was played, as no command takes it
        if len(self.policies) not in (1, self.players):
            raise SpecError(f"give one policy or one per seat ({self.players}), got {len(self.policies)}")
        for p in self.policies:
            if p not in POLICIES:
                raise unknown_name("policy", p, list(POLICIES))


def play_game(players: int, policies: tuple[str, ...], seed: int, tileset: TileSet | None = None,
              options: Options | None = None) -> GameState:
    """One full game; each seat's policy gets its own seed derived from the game seed. One name
    plays every seat, as in the other games (the default tile set and rules unless given)."""
    if len(policies) == 1:
        policies = tuple(policies) * players
    if len(policies) != players:
        raise SpecError(f"give one policy per seat ({players}) or one for all, got {len(policies)}")
    state = GameState.new(players, tileset, options)
    rng = random.Random(check_seed(seed))
    agents = [make_policy(name, rng.randrange(2**32)) for name in policies]
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            return state
        state.apply(agents[state.current].act(state), check=False)
    raise RuntimeError("game did not finish: a policy keeps acting without ending its turn")


def simulate(spec: PlaySpec, tileset: TileSet | None = None, options: Options | None = None,
             keep_games: bool = False, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play ``spec.games`` games; ``keep_games`` adds each game's (points, tiles) per seat, so
    callers can rescore the same games under other bonuses; ``progress(done, total)`` is told
    after each game."""
    if not isinstance(spec, PlaySpec):  # a dict failed as "'dict' object has no attribute 'check'"
        raise TypeError(f"simulate takes a PlaySpec (PlaySpec(players=3, games=100)), not {type(spec).__name__}")
    spec.check()
    options = options or Options()
    options.check()
    bonuses = options.bonuses(spec.players)
    n = spec.players
    raw = [0.0] * n
    total = [0.0] * n
    tiles = [0.0] * n
    wins_raw = [0.0] * n
    wins_bonus = [0.0] * n
    flips = 0
    results: list[list[tuple[int, int]]] = []
    master = random.Random(spec.seed)
    for k in range(spec.games):
        if progress:
            progress(k, spec.games)
        state = play_game(n, spec.seat_policies(), master.randrange(2**32), tileset, options)
        rows = state.standings()
        results.append([(r.points, r.tiles) for r in rows])
        for r in rows:
            raw[r.seat] += r.points
            total[r.seat] += r.total
            tiles[r.seat] += r.tiles
        for key, acc in ((False, wins_raw), (True, wins_bonus)):
            w = winners(rows, with_bonus=key)
            for s in w:
                acc[s] += 1.0 / len(w)
        flips += len(state.public)
    g = spec.games
    mean_raw = [x / g for x in raw]
    best = max(mean_raw)
    gap = [best - x for x in mean_raw]
    proposed = [round(x) for x in gap]
    low = min(proposed)
    proposed = [p - low for p in proposed]
    fair, fair_rates = fairest_bonus(results, n)
    out = {
        "game": "terraflip",
        "players": n,
        "games": g,
        "seed": spec.seed,
        "policies": list(spec.seat_policies()),
        "options": {"lines": options.lines, "first_frame": options.first_frame,
                    "tower_passable": options.tower_passable},
        "bonus": list(bonuses),
        "seats": [
            {
                "seat": s,
                "policy": spec.seat_policies()[s],
                # the keys every game's play report shares: the games as played, bonus and all
                "wins": whole_or_share(wins_bonus[s]),
                "win_rate": round(wins_bonus[s] / g, 4),
                "win_rate_ci95": [round(x, 4) for x in wilson(wins_bonus[s], g)],
                "mean_points": round(mean_raw[s], 3),
                "mean_total": round(total[s] / g, 3),
                "mean_tiles": round(tiles[s] / g, 3),
                "win_rate_without_bonus": round(wins_raw[s] / g, 4),
                "win_rate_with_bonus": round(wins_bonus[s] / g, 4),
                "win_rate_with_bonus_ci95": [round(x, 4) for x in wilson(wins_bonus[s], g)],
                "gap_to_best_seat": round(gap[s], 3),
            }
            for s in range(n)
        ],
        "proposed_bonus": proposed,
        "win_fair_bonus": fair,
        "win_rate_with_win_fair_bonus": [round(x, 4) for x in fair_rates],
        "mean_tiles_flipped": round(flips / g, 3),
    }
    if keep_games:
        out["per_game"] = [[list(row) for row in rows] for rows in results]
    return out


def win_rates(results: list[list[tuple[int, int]]], bonus: tuple[int, ...]) -> list[float]:
    """Win share per seat over recorded games (points, tiles per seat) under ``bonus``."""
    n = len(bonus)
    wins = [0.0] * n
    for rows in results:
        keys = [(rows[s][0] + bonus[s], rows[s][1]) for s in range(n)]
        best = max(keys)
        tied = [s for s in range(n) if keys[s] == best]
        for s in tied:
            wins[s] += 1.0 / len(tied)
    return [w / max(1, len(results)) for w in wins]


def fairest_bonus(results: list[list[tuple[int, int]]], n: int, top: int = 10) -> tuple[list[int], list[float]]:
    """The bonus (last seat 0, others 0..top) whose win shares in these games stray least from
    1/n. The policies ignore the bonus, so the same games can be rescored under every candidate;
    mean-score equality alone does not give equal win chances when the spreads differ."""
    import itertools

    best: tuple[float, int, tuple[int, ...]] | None = None
    for head in itertools.product(range(top + 1), repeat=n - 1):
        bonus = (*head, 0)
        rates = win_rates(results, bonus)
        key = (round(max(abs(r - 1.0 / n) for r in rates), 9), sum(bonus), bonus)
        if best is None or key < best:
            best = key
    bonus = best[2]
    return list(bonus), win_rates(results, bonus)
