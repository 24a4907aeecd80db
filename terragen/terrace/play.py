"""Playing whole games between policies and summarising them per seat.

Each game gets its own seed drawn from one ``random.Random(seed)``, so a run
is reproducible and a single game can be replayed. A game that reaches the
ply limit is counted separately from rulebook draws (no legal move).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from terragen.arguments import check_seed, check_whole
from terragen.errors import SpecError
from terragen.intervals import wilson
from terragen.limits import MAX_PLAY_GAMES, MAX_TERRACE_PLIES
from terragen.names import per_seat
from terragen.terrace.model import SEAT_NAME
from terragen.terrace.players import get_policy
from terragen.terrace.position import Position


@dataclass
class GameRecord:
    seed: int
    plies: int
    winner: str | None
    reason: str  # outcome reason, or "ply-limit"
    moves: list[str] = field(default_factory=list)


def _check_start(start: object) -> None:
    if not isinstance(start, Position):  # None was an AttributeError from inside the first move
        raise TypeError(f"start must be a Position (Position.start('full') makes one), not {type(start).__name__}")


def _check_players(start: Position, players: list[str]) -> None:
    """One policy per seat (too few was an IndexError mid-game from play_game)."""
    _check_start(start)
    if not players:
        raise SpecError("--policy names no player; give random or greedy, or one per seat")
    if len(players) != len(start.seats):
        raise SpecError(f"--policy lists {len(players)} policies for this set-up's {len(start.seats)} seats: "
                        "give one per seat in turn order")


def play_game(start: Position, players: list[str], seed: int, max_plies: int = 300) -> GameRecord:
    """Play one game; ``players[i]`` is the policy of ``start.seats[i]``."""
    _check_players(start, players)
    max_plies = check_whole(max_plies, "max_plies", 1, MAX_TERRACE_PLIES)
    rng = random.Random(check_seed(seed))  # 'a' and -1 were taken, as no command takes them
    policies = [get_policy(p) for p in players]
    pos = start.copy()
    moves: list[str] = []
    for _ in range(max_plies):
        res = pos.result()
        if res is not None:
            return GameRecord(seed, len(moves), res.winner, res.reason, moves)
        mv = policies[pos.turn](pos, rng)
        moves.append(pos.san(mv))
        pos.push(mv)
    res = pos.result()
    if res is not None:
        return GameRecord(seed, len(moves), res.winner, res.reason, moves)
    return GameRecord(seed, len(moves), None, "ply-limit", moves)


def play_match(start: Position, players: list[str], games: int, seed: int, max_plies: int = 300,
               progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games and report wins, draws and lengths per seat; ``players`` is one policy
    for every seat or one per seat in turn order; ``progress(done, total)`` is told after each game."""
    _check_start(start)
    if players:
        players = per_seat(players, len(start.seats))
    _check_players(start, players)
    # in the parameters' names, as every library call says them (the command checks its flags itself)
    games = check_whole(games, "games", 1, MAX_PLAY_GAMES)
    max_plies = check_whole(max_plies, "max_plies", 1, MAX_TERRACE_PLIES)
    for p in players:
        get_policy(p)
    master = random.Random(check_seed(seed))
    records = []
    for k in range(games):
        records.append(play_game(start, players, master.randrange(2**32), max_plies))
        if progress:
            progress(k + 1, games)
    seats = []
    for side, policy in zip(start.seats, players):
        won = [r for r in records if r.winner == side]
        seats.append(
            {
                "seat": SEAT_NAME[side],
                "side": side,
                "policy": policy,
                "player": policy,  # the older name of policy, kept for scripts
                "wins": len(won),
                "win_rate": round(len(won) / games, 4),
                "win_rate_ci95": [round(x, 4) for x in wilson(len(won), games)],
                "by_t_capture": sum(1 for r in won if r.reason in ("t-captured", "last-standing")),
                "by_objective": sum(1 for r in won if r.reason == "objective"),
                "mean_plies_of_wins": round(sum(r.plies for r in won) / len(won), 2) if won else None,
            }
        )
    lengths = [r.plies for r in records]
    return {
        "game": "terrace",
        "games": games,
        "seed": seed,
        "setup": start.setup,
        "size": start.size,
        "rules": {"t_rank": start.rules.t_rank, "own_t_capture": start.rules.own_t_capture},
        "max_plies": max_plies,
        "seats": seats,
        "draws_no_move": sum(1 for r in records if r.reason == "no-move"),
        "unfinished_ply_limit": sum(1 for r in records if r.reason == "ply-limit"),
        "plies": {"mean": round(sum(lengths) / games, 2), "min": min(lengths), "max": max(lengths)},
        "results": [{"seed": r.seed, "plies": r.plies, "winner": r.winner, "reason": r.reason} for r in records],
    }
