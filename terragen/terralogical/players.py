"""Player policies for simulation: each picks an action from a state with its own rng."""

from __future__ import annotations

import random
from typing import Callable

from terragen.terralogical.board import FLOWER_FIELDS
from terragen.terralogical.state import Action, GameState

Policy = Callable[[GameState, random.Random], Action]


def random_policy(state: GameState, rng: random.Random) -> Action:
    """Place a uniformly random legal tile when possible, else draw (or pass)."""
    placements = state.placements_for(state.current)
    if placements:
        idx, sq, rot, _ = rng.choice(placements)
        return ("place", idx, sq, rot)
    return ("draw",) if state.pile else ("pass",)


def greedy_policy(state: GameState, rng: random.Random) -> Action:
    """Take the placement worth the most points now, ties broken at random.

    It neither seeks nor avoids the flower fields: a baseline for how games go
    when nobody plans the ending."""
    placements = state.placements_for(state.current)
    if not placements:
        return ("draw",) if state.pile else ("pass",)
    best = max(p[3] for p in placements)
    top = [p for p in placements if p[3] == best]
    idx, sq, rot, _ = rng.choice(top)
    return ("place", idx, sq, rot)


def rusher_policy(state: GameState, rng: random.Random) -> Action:
    """Head for the flower corner: the placement nearest to it, points as tie-break."""
    placements = state.placements_for(state.current)
    if not placements:
        return ("draw",) if state.pile else ("pass",)

    def distance(p) -> int:
        sq = p[1]
        return min(abs(sq[0] - f[0]) + abs(sq[1] - f[1]) for f in FLOWER_FIELDS)

    best = min((distance(p), -p[3]) for p in placements)
    top = [p for p in placements if (distance(p), -p[3]) == best]
    idx, sq, rot, _ = rng.choice(top)
    return ("place", idx, sq, rot)


def careful_policy(state: GameState, rng: random.Random) -> Action:
    """Greedy, but ends the game on a flower field only while leading on points, drawing
    instead while it may; with the pile empty it must lay what it can, flower field or not
    (a pass is only for a player who can neither lay nor draw: it used to pass, which the
    game state now refuses).

    A player behind has every reason to keep the game going; this policy shows
    whether such players can drag games into a stall.
    """
    placements = state.placements_for(state.current)
    if not placements:
        return ("draw",) if state.pile else ("pass",)
    leading = state.points[state.current] >= max(state.points)
    allowed = [p for p in placements if leading or p[1] not in FLOWER_FIELDS]
    if not allowed:
        if state.pile:
            return ("draw",)
        allowed = placements
    best = max(p[3] for p in allowed)
    idx, sq, rot, _ = rng.choice([p for p in allowed if p[3] == best])
    return ("place", idx, sq, rot)


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "rusher": rusher_policy,
    "careful": careful_policy,
}
