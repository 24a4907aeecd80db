"""Balance by win rates: tune the destinations on a finished terrain until every seat wins
its fair share in full-rules simulation, then verify on fresh seeds.

Why destinations: on a fixed terrain a destination is the cheapest lever there is;
moving it changes one seat's race and nothing else about the board.

Why three measures. Equal expected turns do not make equal chances (spread of
finishing times, rotations on doubles, send-backs). The exact race model
(``terragen.terrain.race``) gets the spread and the turn order right and is what
solitary players (who never rotate) play; measured, it matches their simulated win
rates within about a point. Greedy players (the ``terragen simulate`` default) rotate
pieces on doubles, which on some cells moves a seat by ten points; so for each candidate
destination the finishing rounds of the seat's token playing alone as a greedy player,
rotations included, are worked out exactly (``sim/lone_chain.py``) and combined like the
race model's. What is left, interactions between tokens, is measured
in full games: per seat and destination the offset between simulation and the solo
prediction is remembered (stable for seats whose destination did not move).

Seats tuned one by one (``seat_tuning.py``): make the solo prediction fair without
playing a full game, then simulate on one tuning seed, learn the offsets and move the
seat whose move makes the prediction fairest. Two classes of symmetric seats (4 and 6
seats, ``class_search.py``): a search over pairs of both classes' destinations, screened
on growing samples.

A tuned board is then **verified** on seeds the tuning never used, with more games
and thresholds well inside the user's margin (0.6 of it for greedy players, 0.8 for
solitary), so that ``terragen simulate`` with its own defaults calls it BALANCED
nearly always. A failed check's sample corrects the model, its seed becomes a tuning
seed, and the next check uses another fresh seed; after ``MAX_VERIFICATIONS`` the
terrain is given up. With placement fixed or opposite the destinations cannot move and
single piece turns near the routes are the (weak) lever instead.

This module holds what the searches share: the balancer's state, its models and moves,
the balance loop (tune or search, then verify) and the best-effort record; the searches
and the checks are mix-ins of :class:`Balancer` in the modules named above and
``fresh_checks.py``.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from terragen.grids import hex as hx
from terragen.terrain.expected import expected_turns, expected_turns_table, near_sources
from terragen.terrain.generate.class_search import ClassSearch
from terragen.terrain.generate.construct import Candidate, destination_options
from terragen.terrain.generate.evaluate import band_gap, cliff_exits, tour
from terragen.terrain.generate.fresh_checks import (GLANCE_LATE_LOOKS, MIN_FRESH_GAMES, FreshChecks, OutOfTime, Tally,
                                                   _chunked, pooled_rates, simulated_rates)
from terragen.terrain.generate.seat_check import seat_se
from terragen.terrain.generate.seat_tuning import SeatTuning
from terragen.terrain.generate.spec import Spec
from terragen.terrain.frames import seat_ranks
from terragen.terrain.race import SeatRace, forward_reach, race_of, seat_race
from terragen.terrain.sim.runner import DEFAULT_MARGIN

if TYPE_CHECKING:
    from terragen.terrain.generate.symmetry import Mirror
    from terragen.terrain.sim.pool import GamePool

RETUNE_ROUNDS = 8  # tuning rounds after a failed verification
MAX_VERIFICATIONS = 4
SOLO_GAMES = 200  # solo games per (seat, destinations) candidate, where the exact chain does not apply
CLASS_TUNE_SHARE = 0.15  # how close the pooled rate of a class of symmetric seats is tuned, in margins
INTERACTION_PENALTY = 0.25  # expected turns a cell next to another seat's start/destination "costs"
BEST_EFFORT_CHOICES = 3  # fairest states a best-effort board is chosen from, on fresh games
EXPERT_SHARE = 1.0  # share of the margin an experts' check may use per seat (the simulate odds decide)
#: an experts' check on two classes plays this share of the other kinds' games (and grows as they do)
EXPERT_CONFIRM_SHARE = 0.5
#: experts' pooled class rates this many margins from fair give a terrain up (``--check-experts``,
#: and the experts' glance every board of two classes gets without it)
EXPERT_GIVE_UP = 1.0
#: early in a search (``Balancer.early``) a board the experts' glance reads more than this many margins
#: from fair, though within ``EXPERT_GIVE_UP``, is held back: its checks go on, and it is written only
#: if the search finds no board the glance reads closer (``generate.EARLY_SHARE``). Why: a class read
#: 2.0-2.5 points off for experts is often 2.3-3 points off in truth, and with its seats' own noise a
#: default ``simulate --policy expert`` then calls the board NOT BALANCED (six seats' misses: classes
#: 2.0-2.8 points apart that the glance read 1.9-2.3)
EXPERT_EARLY_GIVE_UP = 0.8
#: the noise of the experts' glance (:meth:`FreshChecks._expert_glance`) in margins: a standard error
#: of about a point for a class's pooled rate (600 games on four seats, 300 on six, whose classes of
#: three seats are measured more closely and whose expert games cost more)
EXPERT_GLANCE_NOISE = 0.42


#: The most games a verification plays per kind of player (a user's --balance-games included): 4- and
#: 6-seat boards play it twice over as twin pairs, and one simulation plays at most a million games
#: (a margin of 0.2 points asked for 3,000,000 and failed naming --games, a flag not given)
MAX_VERIFY_GAMES = 500_000

@dataclass
class BalanceSettings:
    """What balanced means for a generated board and how hard it is checked.

    ``margin`` is the user's margin (a seat's win rate within it of 1/n). The
    verification passes when, for each of ``verify_policies``, every seat is within
    ``margin`` times that policy's ``verify_shares`` entry on ``verify_games`` fresh
    games; the tuning stops when its own estimate is within ``margin * TUNE_SHARE``
    (or within its sample's noise).
    """

    margin: float = DEFAULT_MARGIN
    policy: str = "greedy"  # the players the tuning simulates
    verify_policies: tuple[str, ...] = ("greedy", "solitary")  # every one must pass on fresh seeds
    #: share of the margin each verification policy may use: the tuned players (greedy, the
    #: ``terragen simulate`` default) 0.6 of it (1.5 points), the others 0.8
    verify_shares: tuple[float, ...] = (0.6, 0.8)
    verify_games: int | None = None  # None: enough for a standard error of margin / 4
    #: boards of two classes: a glance at expert players before the fresh checks (when they are
    #: not checked in full) refuses a board plainly unfair for them
    expert_glance: bool = True
    tune_games: int | None = None  # None: verify_games / 2
    #: also play a board in teams, partners on neighbouring corners, and keep it only when every team
    #: wins close to its share (``generate --team-play``; ``team_check.py``)
    teams: bool = False

    TUNE_SHARE = 0.4

    @property
    def checks_experts(self) -> bool:
        """Whether the fresh checks play expert players too (``generate --check-experts``)."""
        return "expert" in self.verify_policies

    def with_experts(self) -> BalanceSettings:
        """These settings with the simulator's expert players checked too (``generate
        --check-experts``).

        Why an option and not the default: the search tunes for greedy and solitary players, and
        on 4- and 6-seat boards about half of what it finds is 3-12 points off for experts, who
        turn pieces of a near winner's route against it; no model of that is cheap enough to
        steer by yet, so an experts' check can only reject, and the search goes on to the next
        candidate. Measured on fresh seeds (``bench/README.md``, "Experts checked by the
        generator" and the sections after it): experts BALANCED on 10 of 12 four- and six-seat
        boards instead of 5 (8-11 of 12 on later fresh sets), at a median of 20-45 s instead of
        3-6 s; with a larger work budget for the search that checks experts
        (``EXPERTS_BUDGET_FACTOR``), 33 of 40 on a fresh grid at a median of 14 s."""
        if self.checks_experts:
            return self
        return replace(self, verify_policies=(*self.verify_policies, "expert"),
                       verify_shares=(*self.verify_shares, EXPERT_SHARE))

    def check_order(self) -> list[tuple[str, float]]:
        """(policy, share of the margin) of every fresh check, in the order they are played:
        solitary players first (then the others in ``verify_policies``' order, so experts, whose
        games cost the most, come last). A board must pass them all, so a miss ends the round, and
        solitary players' games cost a quarter to a third of greedy ones (they never weigh a
        turn on doubles), and the two miss about equally often (6 of 10 misses in traces of
        6-seat runs were solitary players'), so checking the cheap one first saves a greedy
        check at each of its misses. The record keeps ``verify_policies``' order."""
        pairs = list(zip(self.verify_policies, self.verify_shares))
        return sorted(pairs, key=lambda pair: pair[0] != "solitary")

    def in_record_order(self, results: list[dict]) -> list[dict]:
        """Checks played in :meth:`check_order`, listed in ``verify_policies``' order."""
        return sorted(results, key=lambda r: self.verify_policies.index(r["policy"]))

    def games_for(self, players: int) -> tuple[int, int, int]:
        """(first tuning sample, largest tuning sample, verification games) for ``players`` seats.

        The default check is never under ``MIN_FRESH_GAMES`` (a wide ``--margin`` would otherwise
        give 1,600 games on two seats at 5 points): fewer is what a user asks for by
        ``verify_games``, and the summary calls such a check a quick look."""
        fair = 1.0 / players
        wanted = max(MIN_FRESH_GAMES, fair * (1 - fair) / (self.margin / 4) ** 2)
        step = _chunked(1, players)  # samples are whole multiples of this
        verify = self.verify_games or min(_chunked(wanted, players), MAX_VERIFY_GAMES // step * step)
        top = self.tune_games or _chunked(verify / 2, players)
        return min(top, _chunked(top / 8, players)), top, verify


def class_mirror(cand: Candidate) -> Mirror | None:
    """The symmetry whose seat classes the search tunes and checks together, or None: seats that
    are images of each other move together and win alike, when the map keeps the order of play (a
    turn does; a mirror reverses it, and then a seat's neighbour plays just before it where its
    image's plays just after: send-backs differ, so mirrored seats are tuned one by one)."""
    return cand.mirror if cand.mirror is not None and cand.mirror.keeps_order else None


def balance_seed(purpose: str, seed: int, attempt: int, k: int) -> int:
    """A simulation seed for one purpose, far from the small seeds people type."""
    digest = hashlib.sha256(f"terragen-balance:{purpose}:{seed}:{attempt}:{k}".encode()).hexdigest()
    return 1_000_000 + int(digest[:8], 16)


@dataclass
class SeatOption:
    dests: list[int]
    turns: float
    penalty: float


@dataclass
class Balancer(ClassSearch, SeatTuning, FreshChecks):
    """Tunes one candidate's destinations (or, for fixed destinations, its rotations) against simulation."""

    spec: Spec
    cand: Candidate
    to_layout: Callable[[Candidate], object]
    settings: BalanceSettings
    seed: int
    attempt: int
    should_stop: Callable[[], bool]
    progress: Callable[[str], None] | None = None
    pool: GamePool | None = None  # the generator's simulation processes (None: this process)
    #: whether the search has used so much of its time that a board plainly unfair for experts is
    #: no longer refused at their glance, only reported (None: never)
    late: Callable[[], bool] | None = None
    #: whether the search is still early enough to hold back a board its experts' glance reads near the
    #: margin and look for a closer one (``EXPERT_EARLY_GIVE_UP``; None: never)
    early: Callable[[], bool] | None = None

    def __post_init__(self) -> None:
        self.n = len(self.cand.starts)
        self._tune_share = self.settings.TUNE_SHARE
        self.fair = 1.0 / self.n
        self.movable = self.spec.placement in ("free", "distance")
        #: only one seat per class is tuned, against the class's pooled rate; mirrored seats are
        #: tuned one by one, from a start whose race model is already fair (``class_mirror``)
        self.mirror = class_mirror(self.cand)
        self.classes = self.mirror.classes if self.mirror is not None else [[s] for s in range(self.n)]
        #: five seats on a turned board with a corner empty: classes whose seats are images in
        #: terrain and destinations but not in their neighbours, so fresh checks go seat by seat
        self.approximate = self.mirror is not None and self.mirror.approximate
        self.offset: dict[tuple[int, tuple[int, ...]], float] = {}
        #: the same for solitary players against the exact race model, learned when the tuning
        #: plays them too (seats no symmetry relates: see :meth:`tune`)
        self.lone_offset: dict[tuple[int, tuple[int, ...]], float] = {}
        self._safe_gap: float | None = None  # see _simulate_safe_gap
        self._solo_seed = balance_seed("solo", self.seed, self.attempt, 0)
        self._reset_board()
        self._seen = {tuple(map(tuple, self.cand.dests))}
        #: the least unfair states measured, fairest first (an upper bound on each one's worst seat for
        #: both kinds of player: the measured distance plus twice its sample's noise, and a copy of
        #: it): what a best-effort board is chosen from when the time runs out
        #: (:func:`choose_best_effort`). Solitary players count too (measured, or where they were not
        #: played, the race model they follow), as a state chosen on greedy players alone can leave
        #: them far off; the noise counts because a lucky small sample must not beat a large one (a
        #: fair five-seat board reads 4.6 points off on 300 games).
        self.fairest_states: list[tuple[float, Candidate]] = []
        mean = sum(self.turns(s, d) for s, d in enumerate(self.cand.dests)) / self.n
        # win-rate change per expected turn, as measured: steeper with fewer seats and shorter races
        self._slope_guess = -0.16 / self.n ** 0.7 * math.sqrt(12.0 / max(mean, 4.0))

    def _reset_board(self) -> None:
        """Forget everything computed for the previous terrain."""
        board = self.cand.board
        self.near = near_sources(board)
        #: every cell with the cells next to it (what :meth:`_penalty` counts as close)
        self._close_to = [frozenset([i, *(j for j in board.nbr[i] if j >= 0)]) for i in range(len(board))]
        self._ranks = seat_ranks(board, self.cand.starts)
        self.fwd = forward_reach(board, self.near)
        self._races: dict = {}
        self._solos: dict = {}
        #: the two models' win chances per whole destination state (see :meth:`_race_wins`)
        self._wins: dict[tuple, tuple[float, ...]] = {}
        self._ok: dict = {}
        #: the class search's untried pairs on this terrain, and how many it simulated
        self._ranked: list | None = None
        self._tried = self._full = 0
        self._screened_models: set[tuple] = set()  # the models of the pairs it screened (_models_of)
        #: per kind of player, each seat's rate less its class's, summed over this terrain's samples
        #: (weighted by games), and the games (approximate classes: :meth:`ClassSearch._within_offsets`)
        self._within: dict[str, tuple[list[float], float]] = {}
        self._turns: dict[tuple[int, ...], list[float]] = {}  # expected turns from every cell, per set of cells

    # -- measures ---------------------------------------------------------------------------
    def turns(self, seat: int, dests: list[int]) -> float:
        """The seat's exact expected turns to collect ``dests`` (:func:`expected_turns`).

        Why remembered per set of cells and not per seat: the solve gives the value from every
        cell at once, so one solve serves every seat that may hold the set, and the searches
        ask for the same sets again and again (every step lists each seat's options anew).
        Measured on 4 easy seed 195: 4,668 solves for one board, most of them repeats, and
        the simulation processes sat idle while they ran."""
        board, start = self.cand.board, self.cand.starts[seat]
        if not dests or not board.passable(start):
            return expected_turns(board, start, dests, self.near)
        key = tuple(sorted(set(dests)))
        values = self._turns.get(key)
        if values is None:
            values = self._turns[key] = expected_turns_table(board, key, self.near)[0]
        return values[start]

    # -- constraints ------------------------------------------------------------------------
    def seat_ok(self, seat: int, dests: list[int], turns: float, board=None) -> bool:
        """The spec's per-seat requirements with these destinations (bands, up-3, critical)."""
        spec = self.spec
        board = board or self.cand.board
        if not math.isfinite(turns) or band_gap(turns, spec.turns_band) > 1e-6:
            return False
        res = tour(board, self.cand.starts[seat], dests)
        if res.cost is None or band_gap(res.cost, spec.cost_band) > 0 or res.up3 < spec.min_up3:
            return False
        if spec.min_critical:
            from terragen.terrain.analysis import fragility

            if fragility(board, self.cand.starts[seat], dests) < spec.min_critical:
                return False
        return True

    def _cross_ok(self, dests: list[list[int]], turns: list[float], board=None) -> bool:
        """The requirements across seats: expected-turns spread, cost spread, cliff pips."""
        spec = self.spec
        board = board or self.cand.board
        if spec.fairness is not None and max(turns) - min(turns) > spec.fairness:
            return False
        if spec.cost_spread is not None:
            costs = [tour(board, s, d).cost for s, d in zip(self.cand.starts, dests)]
            if None in costs or max(costs) - min(costs) > spec.cost_spread:
                return False
        if spec.min_cliff_exits and cliff_exits(board) < spec.min_cliff_exits:
            return False
        return True

    def _meets_spec(self, seat: int, option: SeatOption) -> bool:
        """:meth:`seat_ok` for a destination option, remembered for this terrain."""
        key = (seat, tuple(option.dests))
        if key not in self._ok:
            self._ok[key] = self.seat_ok(seat, option.dests, option.turns)
        return self._ok[key]

    # -- moves ------------------------------------------------------------------------------
    def _penalty(self, seat: int, dests: list[int], others: list[list[int]]) -> float:
        """INTERACTION_PENALTY for every other seat's start or destination on or next to one of
        ``dests`` (counted once per such pair)."""
        close_to = self._close_to
        starts = self.cand.starts
        count = 0
        for g in dests:
            close = close_to[g]
            count += sum(1 for k, s in enumerate(starts) if k != seat and s in close)
            count += sum(1 for k, ds in enumerate(others) if k != seat for h in ds if h in close)
        return INTERACTION_PENALTY * count

    def options(self, seat: int, dests: list[list[int]]) -> list[SeatOption]:
        """Every destination set for ``seat`` one move away (one destination moved), with its turns."""
        b = self.cand.board
        mine = dests[seat]
        mates = self._class_of(seat)
        used = {g for k, ds in enumerate(dests) if k not in mates for g in ds}
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

    def _class_of(self, seat: int) -> list[int]:
        return next(c for c in self.classes if seat in c)

    def _with(self, dests: list[list[int]], seat: int, new: list[int]) -> list[list[int]] | None:
        """``dests`` with ``seat`` (and, on a symmetric board, its whole class) moved to ``new``;
        None when an image would collide with another seat's cell or a start."""
        if self.mirror is None:
            out = [list(d) for d in dests]
            out[seat] = list(new)
            return out
        out = self.mirror.with_class(dests, seat, new)
        if out is None or any(g in self.cand.starts for ds in out for g in ds):
            return None
        return out

    def worst(self, rates: list[float]) -> float:
        """The largest distance of a seat's rate (or chance) from a fair share."""
        return max(abs(r - self.fair) for r in rates)

    def pooled(self, rates: list[float]) -> list[float]:
        """Each seat's rate replaced by its class's mean (:func:`~terragen.terrain.generate.
        fresh_checks.pooled_rates`)."""
        return pooled_rates(rates, self.classes)

    def race(self, seat: int, dests: list[int]) -> SeatRace:
        key = (seat, tuple(dests))
        if key not in self._races:
            self._races[key] = seat_race(self.cand.board, seat, self.cand.starts[seat], dests,
                                         near=self.near, fwd=self.fwd, tail=1e-6, rank=self._ranks[seat])
        return self._races[key]

    def solo(self, seat: int, dests: list[int]) -> SeatRace:
        """The seat's finishing rounds when its token plays alone as the tuned players do
        (greedy: rotations on doubles included). What separates greedy play from the race model
        is mostly here: a rotation that opens a shortcut can move a seat by ten points."""
        self.prefetch_solos([(seat, dests)])
        return self._solos[(seat, tuple(dests))]

    def prefetch_solos(self, wanted: list[tuple[int, list[int]]]) -> None:
        """The solo races of every (seat, destinations) not yet known.

        Exact where the tuned player decides by the board (greedy): its lone game is a small
        Markov chain (``sim/lone_chain.py``), a few milliseconds a destination and free of the
        sampling noise that ``SOLO_GAMES`` sampled games left in the ranking (a point or two of
        a seat's chance); several at once are built in the simulation processes
        (:meth:`_lone_chains`). Otherwise, or for a chain too large, the games are sampled as
        before, spread over the simulation processes (each set's games by one of them)."""
        from terragen.terrain.sim.lone_chain import can_chain
        from terragen.terrain.sim.policies import load_policy
        from terragen.terrain.sim.pool import Stopped
        from terragen.terrain.sim.runner import run_games
        from terragen.terrain.sim.variants import Rules

        keys = list(dict.fromkeys((seat, tuple(d)) for seat, d in wanted if (seat, tuple(d)) not in self._solos))
        if not keys:
            return
        exact = can_chain(load_policy(self.settings.policy), Rules())
        layouts = []
        for seat, dests in keys:
            trial = self.cand.copy()
            trial.dests[seat] = list(dests)
            layout = self.to_layout(trial)
            layout.players = [layout.players[seat]]
            layouts.append(layout)
        chains = self._lone_chains(layouts) if exact else [None] * len(keys)
        sampled, jobs = [], []
        for (seat, dests), layout, chain in zip(keys, layouts, chains):
            if chain is not None:
                cdf, work_turns = chain
                self._solos[(seat, dests)] = self._race_with(seat, dests, cdf)
                if self.pool is not None:
                    self.pool.count_work(work_turns)  # the work budget counts it like the games it replaced
                continue
            sampled.append((seat, dests))
            jobs.append((layout, Rules(), [self.settings.policy], self._solo_seed, 0, SOLO_GAMES))
        if not jobs:
            return
        if self.pool is None:
            played = [run_games(*job) for job in jobs]
        else:
            try:
                played = self.pool.run_each(jobs, self.should_stop)
            except Stopped:
                raise OutOfTime from None
        for (seat, dests), games in zip(sampled, played):
            rounds = sorted(g.rounds for g in games if not g.capped)
            top = rounds[-1] if rounds else 0
            cdf, k = [], 0
            for t in range(top + 1):
                while k < len(rounds) and rounds[k] <= t:
                    k += 1
                cdf.append(k / len(games))
            self._solos[(seat, dests)] = self._race_with(seat, dests, tuple(cdf))

    def _lone_chains(self, layouts: list) -> list[tuple[tuple[float, ...], int] | None]:
        """:func:`~terragen.terrain.sim.lone_chain.lone_chain_cdf` of each one-seat layout, in order.

        Why in the simulation processes when there are several: a step of the seat-by-seat tuning
        or a ranking of the class search asks for dozens of new destination sets at once, about
        12 ms of chain each, and the processes sat idle while this one worked them out (5 of the
        main process's 24 CPU seconds on a five-seat hard run, seed 2002). The chains are the
        same wherever they are built; their work counts toward the budget here, in order."""
        from terragen.terrain.sim.lone_chain import lone_chain_cdf
        from terragen.terrain.sim.variants import Rules

        jobs = [(layout, Rules(), self.settings.policy) for layout in layouts]
        if self.pool is not None and len(jobs) > 1:
            return self.pool.map_each(lone_chain_cdf, jobs)
        return [lone_chain_cdf(*job) for job in jobs]

    def _race_with(self, seat: int, dests: tuple[int, ...], cdf: tuple[float, ...]) -> SeatRace:
        """The seat's race-model record with another finishing distribution (a solo race's)."""
        return replace(self.race(seat, list(dests)), cdf=cdf, expected_rounds=sum(1 - f for f in cdf))

    def modelled(self, dests: list[list[int]]) -> list[float]:
        """The race model's win probabilities (openers rotating, as in the simulation)."""
        return self._race_wins("race", self.race, dests)

    def solo_model(self, dests: list[list[int]]) -> list[float]:
        """Win probabilities of independent tokens each playing like its solo greedy games."""
        return self._race_wins("solo", self.solo, dests)

    def _race_wins(self, kind: str, seat_race_of: Callable, dests: list[list[int]]) -> list[float]:
        """The race of ``seat_race_of(seat, destinations)`` for every seat, remembered per state.

        Why: a seat-by-seat step scores every seat's candidates, each trial differing from the
        current state in one seat, and the next, wider step scores the same trials again; on a
        five-seat hard run (seed 2002) combining the races took 8 of the main process's 24 CPU
        seconds while the simulation processes waited. The per-seat races are already kept per
        (seat, destinations) for this terrain, so their combination is a function of the state."""
        key = (kind, tuple(map(tuple, dests)))
        wins = self._wins.get(key)
        if wins is None:
            wins = self._wins[key] = race_of([seat_race_of(s, d) for s, d in enumerate(dests)]).win_probability_rotating
        return list(wins)

    def predicted(self, dests: list[list[int]]) -> list[float]:
        """The solo-greedy race plus, per seat, the offset between simulation and that race
        (interactions between tokens; see :meth:`_offset`)."""
        return [p + self._offset(s, d) for s, (p, d) in enumerate(zip(self.solo_model(dests), dests))]

    def predicted_lone(self, dests: list[list[int]]) -> list[float]:
        """Solitary players' rates: the exact race model plus, per seat, their measured offset
        (what tokens meeting do to a seat that never rotates; 1 to 6 points on five-seat
        boards, much the same for every destination of the seat on one terrain)."""
        return [m + self._offset(s, d, self.lone_offset) for s, (m, d) in enumerate(zip(self.modelled(dests), dests))]

    def _offset(self, seat: int, dests: list[int], table: dict | None = None) -> float:
        """The measured offset for these destinations; for cells never played, the seat's
        mean offset so far (what its corner and neighbours do to it), else 0."""
        table = self.offset if table is None else table
        key = (seat, tuple(dests))
        if key in table:
            return table[key]
        known = [v for (s, _), v in table.items() if s == seat]
        return sum(known) / len(known) if known else 0.0

    # -- the loop ---------------------------------------------------------------------------
    def _experts_plainly_off(self, results: list[dict]) -> bool:
        """Whether this round's experts' check (``--check-experts``) found the classes plainly
        apart: pooled rates more than ``EXPERT_GIVE_UP`` margins from fair. Then the terrain is
        given up instead of trying its next pair.

        Why: the experts' gap is mostly the terrain's, not the pair's (it kept one sign across the
        pairs of most terrains measured, e.g. eight of nine pairs 1.7-9.0 points off one way), and
        no model steers the search away from it, so after a plain miss the next pairs of the same
        terrain (each a screen, a confirmation and an experts' check) mostly miss too."""
        return any(r["policy"] == "expert" and r["verdict"] != "BALANCED"
                   and self._pooled_deviation(r) > EXPERT_GIVE_UP * self.settings.margin
                   for r in results)

    def _pooled_deviation(self, record: dict) -> float:
        """A check's classes' pooled distance from fair: recorded by the classes' own check, worked
        out from the seats' rates for a seat-by-seat check (five seats' approximate classes)."""
        if "pooled_worst_deviation" in record:
            return record["pooled_worst_deviation"]
        return self.worst(self.pooled(record["win_rates"]))

    def _say(self, msg: str) -> None:
        if self.progress:
            self.progress(msg)

    @property
    def fairest(self) -> tuple[float, Candidate] | None:
        """The least unfair state measured, with its bound (see ``fairest_states``)."""
        return self.fairest_states[0] if self.fairest_states else None

    def _keep_if_fairest(self, bound: float, race_worst: float) -> None:
        """Remember the current state among the ``BEST_EFFORT_CHOICES`` fairest yet (a state
        measured again keeps its better bound). Measurements on samples of different sizes are
        compared by an upper bound (the measured distance plus twice its noise), so a lucky small
        sample does not beat a large one; the race model counts too (it is what solitary players
        play)."""
        unfair = max(bound, race_worst)
        key = _state_key(self.cand)
        kept = [(u, c) for u, c in self.fairest_states if _state_key(c) != key or u <= unfair]
        if not any(_state_key(c) == key for _, c in kept):
            kept.append((unfair, self.cand.copy()))
        kept.sort(key=lambda state: state[0])
        self.fairest_states = kept[:BEST_EFFORT_CHOICES]

    def run(self) -> dict | None:
        """See :meth:`balance`; None also when the time is up."""
        try:
            return self.balance()
        except OutOfTime:
            return None

    def balance(self) -> dict | None:
        """Tune, then verify on fresh seeds; the balance record for ``meta``, or None to give
        this terrain up.

        Each verification uses a seed no earlier step saw. When one fails, its (large)
        sample corrects the model and one more move is made before the next fresh check.
        """
        first, top, verify = self.settings.games_for(self.n)
        tune_seed = balance_seed("tune", self.seed, self.attempt, 0)
        symmetric = len(self.classes) == 1  # every seat an image of every other: fair by construction
        if self.mirror is not None:
            # classes of seats: a class that is off moves all its seats at once, so tune the pooled
            # rates much closer (0.15 of the margin) on larger samples (the seats of a class share them)
            self._tune_share = CLASS_TUNE_SHARE
            top = _chunked(2 * verify, self.n)
            first = _chunked(top / 4, self.n)
        two_classes = self.mirror is not None and len(self.classes) == 2 and self.movable
        # first make the solo-greedy race fair (no full game played for that); the class search
        # with one destination per seat looks at every cell of both classes anyway, wherever it starts
        single = all(len(d) == 1 for d in self.cand.dests)
        if self.movable and not symmetric and not (two_classes and single):
            for _ in range(len(self.classes)):
                if not self.step(self.predicted(self.cand.dests)):
                    break
        if two_classes:
            if not self.search_classes(tune_seed, first):
                return None
        elif not symmetric and not self.tune(tune_seed, first, top):
            return None
        checks = []
        glancing = two_classes and self.settings.expert_glance and not self.settings.checks_experts
        for k in range(MAX_VERIFICATIONS):
            verify_seed = balance_seed("verify", self.seed, self.attempt, k)
            results = []
            glance: dict | None = None  # each pair its own: a terrain's pairs can differ by 5 points for experts
            for policy, share in self.settings.check_order():
                threshold = self.settings.margin * share
                if self.should_stop():
                    return None
                if glancing and glance is None and policy != "solitary":
                    # after the cheap solitary check (which misses as often as any), before the
                    # dearer greedy one; a plain miss gives the terrain up, as the experts' gap is
                    # mostly the terrain's (see _experts_plainly_off), unless the search is late:
                    # then the board goes on to its other checks and the record says what the glance
                    # saw; generate_board sets it aside (a board checked for the other kinds beats a
                    # best-effort one if no board passes the glance in time)
                    early = self.early is not None and self.early()
                    hold_above = EXPERT_EARLY_GIVE_UP * self.settings.margin
                    glance, fine = self._expert_glance(balance_seed("expert-glance", self.seed, self.attempt, k),
                                                       self._games_for_class_se(EXPERT_GLANCE_NOISE
                                                                                * self.settings.margin),
                                                       EXPERT_GIVE_UP * self.settings.margin,
                                                       hold_above if early or self.n in GLANCE_LATE_LOOKS
                                                       else None)
                    near = fine and early and glance["pooled_worst_deviation"] > hold_above
                    if near:  # checked on as any board the glance passes; generate_board holds it back
                        glance["held_above"] = round(hold_above, 4)
                    kept = fine or (self.late is not None and self.late())
                    self._say(f"experts' glance: {glance['games']} fresh games, seat classes pooled "
                              f"{100 * glance['pooled_worst_deviation']:.2f} points off"
                              + (": near the margin, held back while the search is early" if near else
                                 "" if fine else ": plainly off, " + ("set aside, as the search is late" if kept
                                                                       else "terrain given up")))
                    if not kept:
                        return None
                    if self.should_stop():
                        return None
                # two classes: every kind of player's check is also the search's confirmation, on
                # twice the games, judged by the classes' pooled rates (by symmetry the best
                # estimate of each of their seats'), which must be as close as `simulate` needs
                pooled_note = ""
                if two_classes and not self.approximate:
                    rates, rec, ok = self._confirm(verify_seed, _confirm_games(policy, top, self.n), policy, threshold)
                    games = rec["games"]
                    worst = self.worst(rates)
                    pooled = rec["pooled_worst_deviation"]
                    if policy == self.settings.policy:
                        self._keep_if_fairest(pooled + 2.0 * rec["pooled_standard_error"], 0.0)
                    pooled_note = f", classes pooled {100 * pooled:.2f}"
                elif not symmetric:
                    rates, rec, ok = self._seat_check(verify_seed, verify, policy, threshold)
                    games = rec["games"]
                    worst = self.worst(rates)
                    odds = 100 * rec["simulate_odds_bound"]
                    pooled_note = (f", simulate estimated to say BALANCED in {odds:.0f}% of runs"
                                   " (each seat taken a little further from fair than measured)")
                else:
                    games = verify
                    rates, rec = simulated_rates(self.to_layout(self.cand), games, verify_seed, policy, self.should_stop,
                                                 self.pool)
                    worst = self.worst(rates)
                    ok = worst <= threshold
                self._say(f"verification {k + 1}: {games} fresh games, {policy} players, "
                          f"worst seat {100 * worst:.2f} points off{pooled_note}")
                rec.update({"fair_share": round(self.fair, 4), "worst_deviation": round(worst, 4),
                            "threshold": round(threshold, 4), "verdict": "BALANCED" if ok else "NOT BALANCED"})
                results.append(rec)
                if not ok:
                    break
            results = self.settings.in_record_order(results)
            if (self.approximate or not two_classes) and not symmetric \
                    and len(results) == len(self.settings.verify_policies):
                # a fresh check is the largest sample a board gets: the fairest-state bound from it
                # (a sample of cycles of dice has each seat's noise of more independent games)
                self._keep_if_fairest(max(r["worst_deviation"]
                                          + 2.0 * seat_se(self.n, r["games"] / r.get("seat_noise_factor", 1.0))
                                          for r in results), 0.0)
            checks.append(results)
            if all(r["verdict"] == "BALANCED" for r in results) and len(results) == len(self.settings.verify_policies):
                record = {"margin": self.settings.margin, "tuning": {"policy": self.settings.policy, "seed": tune_seed,
                                                                     "largest_sample": top},
                          "verification": results, "checks": checks}
                if glance is not None:
                    record["expert_glance"] = glance
                return record
            if k + 1 == MAX_VERIFICATIONS:
                break
            if symmetric:
                continue  # nothing to tune: a miss on a board fair by construction is the sample's noise
            if two_classes:
                # what the check measured beyond the models corrects this terrain's offsets; then
                # the next pair the search ranks (this check's seed is spent: the next pair is
                # verified on another fresh one)
                self._learn_class_offsets(self.cand.dests, *(
                    Tally(r["policy"], r["seed"], self.n, r["games"], [round(w * r["games"]) for w in r["win_rates"]],
                          recorded_factor=r.get("twin_noise_factor", r.get("cycle_noise_factor")))
                    for r in results))
                if self._experts_plainly_off(results) or not self.search_classes(tune_seed, first):
                    return None
                continue
            # learn from the large sample, move, then tune on the failed check's seed (it is a
            # tuning seed from now on) and verify on a new one
            played = {r["policy"]: r["win_rates"] for r in results}
            greedy, lone = played.get(self.settings.policy), played.get("solitary")
            self.learn(greedy, lone)
            both = [(g + m) / 2 for g, m in zip(greedy, lone)] if greedy and lone else (greedy or lone)
            moved = self.step(both) if self.movable else self.terrain_step(both)
            if not moved or not self.tune(verify_seed, top, top, RETUNE_ROUNDS):
                return None
        return None


def _confirm_games(policy: str, games: int, players: int) -> int:
    """The games of a two-class confirmation for ``policy`` players: ``games``, but
    ``EXPERT_CONFIRM_SHARE`` of them for experts, whose games cost 6-17 times greedy ones (the
    check still grows on a near miss and is judged by the limit for the games it played). Why
    half and not a quarter: on a quarter the seat-by-seat rule refused boards fair for experts
    (bench/README.md, "Experts checked by the generator")."""
    return _chunked(EXPERT_CONFIRM_SHARE * games, players) if policy == "expert" else games


def _state_key(cand: Candidate) -> tuple:
    """What tells two states of a search apart: the pieces' turns and the destinations."""
    return tuple(cand.board.rotation), tuple(map(tuple, cand.dests))
