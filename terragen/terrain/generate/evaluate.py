"""How far a candidate board is from its spec, as one number the search can lower.

Two stages, because exact expected turns cost ~100x more than a cheapest-path
search: the cheap stage scores reachability, cost bands, cost spread, up-3
steps and cliff exits; only a board with a cheap score of zero pays for the
exact expected turns (bands and fairness) and the rotation-critical count.
Per-seat *cost targets* translate the expected-turns band into a cost band
and are tightened from each exact check (generate-and-verify), so the cheap
stage steers towards boards whose exact check will pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from terragen.terrain import expected
from terragen.terrain.analysis import fragility
from terragen.terrain.board import Board
from terragen.terrain.expected import expected_turns, near_sources
from terragen.terrain.generate.construct import Candidate
from terragen.terrain.generate.spec import Spec
from terragen.terrain.paths import reachable
from terragen.terrain.rules import MAX_CLIMB, step_allowed
from terragen.terrain.work_meter import COSTS, charge

UNREACHABLE = 1000.0
#: :func:`cliff_exits` compiled (``_kernels.c``: ``cliff_count``), or None: the search counts them on
#: every move it scores
_CLIFF_COUNT = getattr(expected.COMPILED, "cliff_count", None)


@dataclass
class SeatResult:
    cost: int | None
    up3: int
    path: list[int]


def tour(board: Board, start: int, goals: list[int]) -> SeatResult:
    """Cheapest tour over all goals (best order) with its fewest-up-3 route, as the analysis reports it."""
    from terragen.terrain.analysis import best_tour, up3_count

    cost, _, path = best_tour(board, start, goals)
    if cost is None:
        return SeatResult(None, 0, [])
    return SeatResult(cost, up3_count(board, path), path)


def cliff_exits(board: Board) -> int:
    """Pips that point at a neighbouring piece more than 3 levels away (the rulebook's hint)."""
    charge(COSTS["cliff_exits"])
    if _CLIFF_COUNT is not None:
        n = _CLIFF_COUNT(board.nbr, board.mask, board.level, MAX_CLIMB)
        if n is not None:
            return n
    n = 0
    for i, ns in enumerate(board.nbr):
        m = board.mask[i]
        for d, j in enumerate(ns):
            if j >= 0 and m >> d & 1 and not step_allowed(board.level[j] - board.level[i]):
                n += 1
    return n


def band_gap(value: float, band: list | tuple | None) -> float:
    if band is None:
        return 0.0
    lo, hi = band
    return max(lo - value, 0.0, value - hi)


@dataclass
class Score:
    cheap: float
    exact: float
    seats: list[SeatResult]
    turns: list[float] | None = None

    @property
    def total(self) -> float:
        return self.cheap + self.exact

    @property
    def ok(self) -> bool:
        return self.total == 0.0


class Evaluator:
    """Scores candidates for one spec; keeps the per-seat cost targets between calls."""

    def __init__(self, spec: Spec, cost_targets: list[list[int]]) -> None:
        self.spec = spec
        self.reset(cost_targets)

    def reset(self, cost_targets: list[list[int]]) -> None:
        """Back to the first guesses (a new construction starts from scratch)."""
        spec = self.spec
        self.targets = [list(t) for t in cost_targets]  # per seat [lo, hi], within the spec's cost band
        # Fair expected turns need similar costs (turns ~ 0.66 x cost on measured boards),
        # so a fairness demand also steers the cheap stage towards a small cost spread.
        self.cost_spread = spec.cost_spread
        if spec.fairness is not None:
            derived = int(spec.fairness / 0.66)
            self.cost_spread = derived if self.cost_spread is None else min(self.cost_spread, derived)

    def seats(self, cand: Candidate) -> list[SeatResult]:
        return [tour(cand.board, s, g) for s, g in zip(cand.starts, cand.dests)]

    def cheap(self, cand: Candidate, seats: list[SeatResult]) -> float:
        spec = self.spec
        score = 0.0
        costs = []
        for seat, res in enumerate(seats):
            if res.cost is None:
                elev = reachable(cand.board, cand.starts[seat], pips=False)
                score += UNREACHABLE * sum(1 for g in cand.dests[seat] if g not in elev) + 100.0
                continue
            costs.append(res.cost)
            score += 10.0 * band_gap(res.cost, self.targets[seat])
            score += 10.0 * max(0, spec.min_up3 - res.up3)
        if self.cost_spread is not None and len(costs) > 1:
            score += 10.0 * max(0, max(costs) - min(costs) - self.cost_spread)
        if spec.min_cliff_exits:
            score += 2.0 * max(0, spec.min_cliff_exits - cliff_exits(cand.board))
        return score

    def exact(self, cand: Candidate, seats: list[SeatResult]) -> tuple[float, list[float]]:
        spec = self.spec
        near = near_sources(cand.board)  # shared by every seat's exact solve
        turns = [expected_turns(cand.board, s, g, near) for s, g in zip(cand.starts, cand.dests)]
        score = 0.0
        for t in turns:
            score += 20.0 * band_gap(t, spec.turns_band) if math.isfinite(t) else UNREACHABLE
        if spec.fairness is not None and all(math.isfinite(t) for t in turns):
            score += 20.0 * max(0.0, max(turns) - min(turns) - spec.fairness)
        if score == 0.0 and spec.min_critical:
            for s, g in zip(cand.starts, cand.dests):
                score += 5.0 * max(0, spec.min_critical - fragility(cand.board, s, g))
        return score, turns

    def score(self, cand: Candidate) -> Score:
        seats = self.seats(cand)
        cheap = self.cheap(cand, seats)
        if cheap > 0:
            return Score(cheap, 1.0, seats)
        exact, turns = self.exact(cand, seats)
        return Score(0.0, exact, seats, turns)
