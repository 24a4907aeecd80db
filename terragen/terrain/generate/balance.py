"""Balance by win rates: tune the destinations on a finished terrain until every seat wins
its fair share in full-rules simulation, then verify on fresh seeds.

Why destinations: on a fixed terrain a destination is the cheapest lever there is.
Moving it changes one seat's solitary expected turns (exact, about 0.1 ms per cell),
and nothing else about the board, so the search is a small, well-behaved problem:
per seat, pick the cell whose expected turns hit a target.

Why simulation steers and expected turns aim: equal expected turns do not make equal
chances (spread of finishing times, rotations on doubles, send-backs), but *changes*
of a seat's chances follow changes of its expected turns closely (measured: about
8 points per turn with 2 seats, 5 with 4). So each round simulates the board with
common random numbers (the same tuning seed every round, so two rounds differ by the
destinations, not by the dice), converts each seat's distance from its fair share
into a change of expected turns through that slope (re-estimated from the rounds
seen so far), and moves each seat's destination to the allowed cell nearest its new
target. The sample doubles whenever the board is fair within its own noise, up to
a tuning maximum. Cells next to another seat's start or destination are penalised,
since tokens meeting there send each other home, which the expected turns ignore.

A tuned board is then **verified** on seeds the tuning never used, with more games
and a threshold well inside the user's margin (half of it), so that
``terragen simulate`` with its own defaults calls it BALANCED nearly always. A board
that fails verification is tuned again on the verification games' seed, and checked
once more on yet another fresh seed; after ``MAX_VERIFICATIONS`` the terrain is given up.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from terragen.grids import hex as hx
from terragen.terrain.expected import expected_turns, near_sources
from terragen.terrain.generate.construct import Candidate, destination_options
from terragen.terrain.generate.evaluate import band_gap, tour
from terragen.terrain.generate.spec import Spec

DEFAULT_MARGIN = 0.025
MAX_ROUNDS = 14  # tuning rounds per verification
MAX_VERIFICATIONS = 3
INTERACTION_PENALTY = 0.25  # expected turns a cell next to another seat's start/destination "costs"


@dataclass
class BalanceSettings:
    """What balanced means for a generated board and how hard it is checked.

    ``margin`` is the user's margin (a seat's win rate within it of 1/n). The
    verification passes when every seat is within ``margin * VERIFY_SHARE`` on
    ``verify_games`` fresh games; the tuning stops when its own estimate is
    within ``margin * TUNE_SHARE``.
    """

    margin: float = DEFAULT_MARGIN
    policy: str = "greedy"
    verify_games: int | None = None  # None: enough for a standard error of margin / 4
    tune_games: int | None = None  # None: verify_games / 2

    VERIFY_SHARE = 0.5
    TUNE_SHARE = 0.4

    def games_for(self, players: int) -> tuple[int, int, int]:
        """(first tuning sample, largest tuning sample, verification games) for ``players`` seats."""
        fair = 1.0 / players
        verify = self.verify_games or _chunked(fair * (1 - fair) / (self.margin / 4) ** 2)
        top = self.tune_games or _chunked(verify / 2)
        return max(100, _chunked(top / 8)), top, verify


def _chunked(x: float) -> int:
    return max(100, int(math.ceil(x / 100.0)) * 100)


def balance_seed(purpose: str, seed: int, attempt: int, k: int) -> int:
    """A simulation seed for one purpose, far from the small seeds people type."""
    digest = hashlib.sha256(f"terragen-balance:{purpose}:{seed}:{attempt}:{k}".encode()).hexdigest()
    return 1_000_000 + int(digest[:8], 16)


def win_rates(layout, games: int, seed: int, policy: str) -> tuple[list[float], dict]:
    """Per-seat win rates over ``games`` full-rules games (capped games count for no one)."""
    from terragen.terrain.sim import simulate_layout

    report = simulate_layout(layout, games=games, seed=seed, policy=policy, margin=1.0)
    rates = [s.rate for s in report.seats]
    return rates, {"games": games, "seed": seed, "policy": policy,
                   "win_rates": [round(r, 4) for r in rates], "capped_share": round(report.capped_share, 4)}


@dataclass
class SeatOption:
    dests: list[int]
    turns: float
    penalty: float


@dataclass
class Balancer:
    """Tunes one candidate's destinations (placement free or distance) against simulation."""

    spec: Spec
    cand: Candidate
    to_layout: Callable[[Candidate], object]
    settings: BalanceSettings
    seed: int
    attempt: int
    should_stop: Callable[[], bool]
    progress: Callable[[str], None] | None = None
    history: list[tuple[list[float], list[float]]] = field(default_factory=list)  # (turns, rates)
    record: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.n = len(self.cand.starts)
        self.fair = 1.0 / self.n
        self.near = near_sources(self.cand.board)
        self.movable = self.spec.placement in ("free", "distance")
        self.slope = self._prior_slope()
        self._sxy, self._sxx = self.slope, 1.0  # the prior counts as one turn² of evidence

    # -- measures ---------------------------------------------------------------------------
    def turns(self, seat: int, dests: list[int]) -> float:
        return expected_turns(self.cand.board, self.cand.starts[seat], dests, self.near)

    def _prior_slope(self) -> float:
        """Win-rate change per expected turn (negative), as measured on typical boards:
        steeper with fewer seats, flatter for long races whose finishing times spread more."""
        mean = sum(self.turns(s, d) for s, d in enumerate(self.cand.dests)) / self.n
        return -0.16 / self.n ** 0.7 * math.sqrt(12.0 / max(mean, 4.0))

    def _update_slope(self) -> None:
        """Least squares over the last two rounds on one seed (common random numbers) and all
        earlier pairs: change of rate against change of turns relative to the mean."""
        if len(self.history) >= 2:
            (t0, r0), (t1, r1) = self.history[-2:]
            m0, m1 = sum(t0) / self.n, sum(t1) / self.n
            for s in range(self.n):
                dx = (t1[s] - m1) - (t0[s] - m0)
                self._sxy += dx * (r1[s] - r0[s])
                self._sxx += dx * dx
        self.slope = min(-0.01, max(-0.25, self._sxy / self._sxx))

    # -- constraints ------------------------------------------------------------------------
    def seat_ok(self, seat: int, dests: list[int], turns: float) -> bool:
        """The spec's per-seat requirements with these destinations (bands, up-3, critical)."""
        spec = self.spec
        if not math.isfinite(turns) or band_gap(turns, spec.turns_band) > 1e-6:
            return False
        res = tour(self.cand.board, self.cand.starts[seat], dests)
        if res.cost is None or band_gap(res.cost, spec.cost_band) > 0 or res.up3 < spec.min_up3:
            return False
        if spec.min_critical:
            from terragen.terrain.analysis import fragility

            if fragility(self.cand.board, self.cand.starts[seat], dests) < spec.min_critical:
                return False
        return True

    def _cross_ok(self, dests: list[list[int]], turns: list[float]) -> bool:
        spec = self.spec
        if spec.fairness is not None and max(turns) - min(turns) > spec.fairness:
            return False
        if spec.cost_spread is not None:
            costs = [tour(self.cand.board, s, d).cost for s, d in zip(self.cand.starts, dests)]
            if max(costs) - min(costs) > spec.cost_spread:
                return False
        return True

    # -- moves ------------------------------------------------------------------------------
    def _penalty(self, seat: int, dests: list[int], others: list[list[int]]) -> float:
        b = self.cand.board
        crowd = [b.hexes[s] for k, s in enumerate(self.cand.starts) if k != seat]
        crowd += [b.hexes[g] for k, ds in enumerate(others) if k != seat for g in ds]
        return INTERACTION_PENALTY * sum(1 for g in dests for h in crowd if hx.distance(b.hexes[g], h) <= 1)

    def options(self, seat: int, dests: list[list[int]]) -> list[SeatOption]:
        """Every destination set for ``seat`` one move away (one destination moved), with its turns."""
        b = self.cand.board
        mine = dests[seat]
        used = {g for k, ds in enumerate(dests) if k != seat for g in ds}
        allowed = [i for i in destination_options(self.spec, b, self.cand.starts, seat) if i not in used]
        out = [SeatOption(list(mine), self.turns(seat, mine), self._penalty(seat, mine, dests))]
        for k, g in enumerate(mine):
            near = allowed if len(mine) == 1 else [i for i in allowed if hx.distance(b.hexes[i], b.hexes[g]) <= 2]
            for i in near:
                if i in mine:
                    continue
                new = list(mine)
                new[k] = i
                out.append(SeatOption(new, self.turns(seat, new), self._penalty(seat, new, dests)))
        return out

    def step(self, rates: list[float]) -> bool:
        """Move destinations towards fair rates; False when nothing would change."""
        dests = [list(d) for d in self.cand.dests]
        turns = [self.turns(s, d) for s, d in enumerate(dests)]
        shift = [0.8 * (rates[s] - self.fair) / -self.slope for s in range(self.n)]
        mean_shift = sum(shift) / self.n
        targets = [turns[s] + shift[s] - mean_shift for s in range(self.n)]
        if self.spec.turns_band:  # keep the targets inside the band, their differences intact
            lo, hi = self.spec.turns_band
            over = max(targets) - hi
            under = lo - min(targets)
            if over > 0 and under <= 0:
                targets = [t - min(over, -under if under < 0 else over) for t in targets]
            elif under > 0 and over <= 0:
                targets = [t + min(under, -over if over < 0 else under) for t in targets]
        new = [list(d) for d in dests]
        new_turns = list(turns)
        for s in sorted(range(self.n), key=lambda s: -abs(rates[s] - self.fair)):
            opts = sorted(self.options(s, new), key=lambda o: (abs(o.turns - targets[s]) + o.penalty, o.dests))
            for o in opts[:25]:
                if o.dests == new[s] or self.seat_ok(s, o.dests, o.turns):
                    new[s], new_turns[s] = o.dests, o.turns
                    break
        if new == dests or not self._cross_ok(new, new_turns):
            return False
        self.cand.dests = new
        return True

    # -- the loop ---------------------------------------------------------------------------
    def _say(self, msg: str) -> None:
        if self.progress:
            self.progress(msg)

    def tune(self, seed: int, first: int, top: int) -> tuple[list[float], int] | None:
        """Tune on one seed until fair within noise at ``top`` games; (rates, games) or None."""
        games = first
        self.history.clear()  # pairs of rounds compare only on one seed
        tol = self.settings.margin * self.settings.TUNE_SHARE
        for rnd in range(MAX_ROUNDS):
            if self.should_stop():
                return None
            layout = self.to_layout(self.cand)
            rates, _ = win_rates(layout, games, seed, self.settings.policy)
            turns = [self.turns(s, d) for s, d in enumerate(self.cand.dests)]
            self.history.append((turns, rates))
            self._update_slope()
            worst = max(abs(r - self.fair) for r in rates)
            se = math.sqrt(self.fair * (1 - self.fair) / games)
            self._say(f"balance round {rnd + 1}: {games} games, worst seat {100 * worst:.1f} points off")
            if worst <= max(tol, 2.0 * se):
                if games >= top:
                    return rates, games
                games = min(top, games * 2)
                continue
            if not self.movable or not self.step(rates):
                return None
        return None

    def run(self) -> dict | None:
        """Tune and verify; the balance record for ``meta`` on success, None to give this terrain up."""
        first, top, verify = self.settings.games_for(self.n)
        threshold = self.settings.margin * self.settings.VERIFY_SHARE
        tune_seed = balance_seed("tune", self.seed, self.attempt, 0)
        tunings = []
        for k in range(MAX_VERIFICATIONS):
            tuned = self.tune(tune_seed, first if k == 0 else top // 2, top)
            if tuned is None:
                return None
            tunings.append({"seed": tune_seed, "games": tuned[1], "win_rates": [round(r, 4) for r in tuned[0]]})
            verify_seed = balance_seed("verify", self.seed, self.attempt, k)
            if self.should_stop():
                return None
            rates, rec = win_rates(self.to_layout(self.cand), verify, verify_seed, self.settings.policy)
            worst = max(abs(r - self.fair) for r in rates)
            self._say(f"verification {k + 1}: {verify} fresh games, worst seat {100 * worst:.2f} points off")
            if worst <= threshold:
                rec.update({"fair_share": round(self.fair, 4), "worst_deviation": round(worst, 4),
                            "threshold": threshold, "verdict": "BALANCED"})
                return {"margin": self.settings.margin, "policy": self.settings.policy, "tuning": tunings,
                        "verification": rec, "verifications": k + 1}
            tune_seed = verify_seed  # tune on what verification saw; verify next on a new seed
        return None
