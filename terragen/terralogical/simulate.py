"""Play many games with given policies and summarise how they went.

The figures answer the deck designer's questions: do games reach the flower
corner or stall, how long do they last, how far apart are the scores, and
does the first seat win more than its share.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from terragen.arguments import check_seed, check_whole
from terragen.intervals import whole_or_share, wilson
from terragen.limits import MAX_PLAY_GAMES
from terragen.names import per_seat, unknown_name
from terragen.terralogical.board import RuleOptions
from terragen.terralogical.players import POLICIES
from terragen.terralogical.state import DeckTile, GameState


@dataclass
class GameResult:
    end_reason: str
    turns: int
    placements: int
    scores: list[int]
    final: GameState | None = field(default=None, compare=False, repr=False)

    @property
    def winners(self) -> list[int]:
        best = max(self.scores)
        return [i for i, s in enumerate(self.scores) if s == best]


def play_game(
    land_tiles: list[DeckTile],
    policies: list[str],
    seed: int,
    options: RuleOptions | None = None,
    max_turns: int = 2000,
) -> GameResult:
    """One game; the seed fixes the shuffle, the setup orientations and every policy choice."""
    fns = [_policy(name) for name in policies]
    rng = random.Random(check_seed(seed))
    state = GameState.new(land_tiles, len(policies), rng, options)
    while not state.is_terminal() and state.turns < max_turns:
        state.apply(fns[state.current](state, rng))
    return GameResult(state.end_reason or "turn-limit", state.turns, state.placements, state.scores(), state)


def _policy(name: str) -> Callable:
    """The player called ``name``; an unknown one is a SpecError naming the choices (a library
    caller got a bare KeyError)."""
    if name not in POLICIES:
        raise unknown_name("policy", name, list(POLICIES))
    return POLICIES[name]


def simulate(
    land_tiles: list[DeckTile],
    players: int,
    games: int,
    seed: int,
    policies: list[str] | None = None,
    options: RuleOptions | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> dict[str, Any]:
    """Summary statistics over ``games`` games; seat 0 always starts.

    ``on_game`` sees every finished game (with its final state) before it is
    summarised, e.g. to save one board.
    """
    games = check_whole(games, "games", 1, MAX_PLAY_GAMES)  # a negative count gave a report of -3 games
    seed = check_seed(seed)  # 'a' was played and recorded in the report as its seed
    policies = per_seat(policies or ["greedy"], players, "policies")
    for name in policies:
        _policy(name)
    master = random.Random(seed)
    results = []
    for _ in range(games):
        result = play_game(land_tiles, policies, master.randrange(2**63), options)
        if on_game is not None:
            on_game(result)
        result.final = None  # do not keep thousands of boards alive
        results.append(result)
    wins = [0.0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1.0 / len(r.winners)
    spreads = [max(r.scores) - min(r.scores) for r in results]
    n = max(1, games)
    seats = range(players)

    def share(reason: str) -> float:
        return round(sum(1 for r in results if r.end_reason == reason) / n, 4)

    score_mean = [round(statistics.fmean(r.scores[i] for r in results), 2) if results else 0 for i in seats]
    win_share = [round(w / n, 4) for w in wins]
    win_share_ci95 = [[round(x, 4) for x in wilson(w, n)] for w in wins]

    return {
        "game": "terralogical",
        "games": games,
        "players": players,
        "policies": policies,
        "seed": seed,
        # the rule readings played, so a report says what it measured (as TerraFlip's does)
        "rules": asdict(options or RuleOptions()),
        "flower_share": share("flower"),
        "stall_share": share("stall"),
        "turns_mean": round(statistics.fmean(r.turns for r in results), 2) if results else 0,
        "placements_mean": round(statistics.fmean(r.placements for r in results), 2) if results else 0,
        "score_mean": score_mean,
        "spread_mean": round(statistics.fmean(spreads), 2) if results else 0,
        "win_share": win_share,
        "win_share_ci95": win_share_ci95,
        "first_player_advantage": round(wins[0] / n - 1.0 / players, 4),
        # the per-seat rows every game's play report shares (win_share above is the same rates as a list)
        "seats": [{"seat": i, "policy": policies[i], "wins": whole_or_share(wins[i]), "win_rate": win_share[i],
                   "win_rate_ci95": win_share_ci95[i], "score_mean": score_mean[i]} for i in seats],
    }
