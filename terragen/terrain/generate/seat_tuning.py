"""Seat-by-seat tuning: move one seat's destinations (a whole class's on a turned board) at a
time, or with fixed destinations turn one piece, until the corrected models and one tuning
seed's games call every seat fair (:meth:`SeatTuning.tune`). It tunes every board that is
neither fair by construction nor two classes of movable destinations (those the class search
takes, ``class_search.py``): seats no symmetry relates (five seats, ``--symmetry none``,
corners of the user's own, mirrored seats), and fixed or opposite placement; its steps also
make the solo-greedy race fair before either search simulates anything.

The loop: make the solo prediction fair without playing a full game; then simulate on
one tuning seed (common random numbers: rounds differ by the destinations, not the
dice), learn the offsets, move the one seat whose move makes the prediction fairest
(keeping the race model near-fair too, so solitary players stay fair), undo moves
that measured worse, and double the sample whenever the board is fair within its own
noise, up to half the verification's size. Cells next to another seat's start or
destination are penalised (tokens meeting there send each other home).

Why a module of its own: the moves and their loop are one job, apart from the models they
score by (``balance.py``), the two-class search and the fresh checks that decide
(``fresh_checks.py``).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from terragen.terrain.generate.construct import Candidate
from terragen.terrain.generate.evaluate import tour
from terragen.terrain.generate.fresh_checks import simulated_rates
from terragen.terrain.generate.seat_check import clearly_short

if TYPE_CHECKING:
    from terragen.terrain.generate.balance import BalanceSettings
    from terragen.terrain.generate.symmetry import Mirror

MAX_ROUNDS = 20  # tuning rounds per verification
RACE_WEIGHT = 0.3  # how much a fair race model (players who never rotate) counts beside fair greedy rates
TURN_CANDIDATES = 30  # piece turns the race model scores in one terrain step (fixed destinations)
CANDIDATES = 8  # destination sets per seat the race model scores in one step


class SeatTuning:
    """The seat-by-seat tuning of :class:`~terragen.terrain.generate.balance.Balancer`, which
    provides its fields (``spec``, ``cand``, ``to_layout``, ``settings``, ``seed``, ``attempt``,
    ``should_stop``, ``pool``; the two read most are annotated below), the state its
    ``__post_init__`` derives (annotated below) and
    the models and checks called here (``turns``, ``options``, ``_meets_spec``, ``seat_ok``,
    ``_cross_ok``, ``_with``, ``_penalty``, ``modelled``, ``solo_model``, ``predicted``,
    ``predicted_lone``, ``worst``, ``pooled``, ``_keep_if_fairest``, ``_reset_board``, ``_say``).

    Why a mix-in: the tuning moves the balancer's candidate and learns into its offsets, the
    balance loop calls it again after a failed fresh check, and tests and bench scripts
    replace its methods on the balancer; as methods of the balancer all of that keeps
    working, while this module holds the tuning in one place.
    """

    cand: Candidate
    settings: BalanceSettings
    n: int
    fair: float
    classes: list[list[int]]
    mirror: Mirror | None
    movable: bool
    offset: dict[tuple[int, tuple[int, ...]], float]
    lone_offset: dict[tuple[int, tuple[int, ...]], float]
    _seen: set
    _slope_guess: float
    _tune_share: float

    def _loss(self, dests: list[list[int]]) -> float:
        """Both must be fair: the simulated rates predicted for the tuned (greedy) players,
        and solitary players' (the exact race model, corrected by what the tuning measured
        of them when it played them)."""
        pen = sum(self._penalty(s, d, dests) for s, d in enumerate(dests))
        if self.lone_offset:
            lone, weight = self.predicted_lone(dests), 1.0
        else:
            # classes: both kinds of player count alike
            lone, weight = self.modelled(dests), 1.0 if self.mirror is not None else RACE_WEIGHT
        return sum(weight * (m - self.fair) ** 2 + (p - self.fair) ** 2
                   for m, p in zip(lone, self.predicted(dests))) + 1e-4 * pen

    def _candidates(self, seat: int, dests: list[list[int]], rate: float, limit: int = 0) -> list[list[int]]:
        """Destination sets one move away whose expected turns lie in the direction the seat
        needs, nearest to a rough target first; only those meeting the spec per seat."""
        now = self.turns(seat, dests[seat])
        aim = now + (rate - self.fair) / -self._slope_guess
        opts = [o for o in self.options(seat, dests) if abs(o.turns - now) <= 4.0]
        opts.sort(key=lambda o: (abs(o.turns - aim), o.dests))
        out = []
        for o in opts:
            if len(out) >= (limit or CANDIDATES):
                break
            moved = self._with(dests, seat, o.dests)
            if moved is None:
                continue
            trial = [tuple(d) for d in moved]
            if o.dests == dests[seat] or tuple(trial) in self._seen:
                continue  # tried before: leave the place to a new one
            if self._meets_spec(seat, o):
                out.append(o.dests)
        return out

    def learn(self, rates: list[float] | None, lone: list[float] | None = None) -> None:
        """Record each seat's simulated-minus-modelled rate for its current destinations (given
        ``rates``, the tuned players' against the solo-greedy race; given ``lone``, solitary
        players' against the race model)."""
        if rates is not None:
            model = self.solo_model(self.cand.dests)
            for s, d in enumerate(self.cand.dests):
                self.offset[(s, tuple(d))] = rates[s] - model[s]
        if lone is not None:
            race = self.modelled(self.cand.dests)
            for s, d in enumerate(self.cand.dests):
                self.lone_offset[(s, tuple(d))] = lone[s] - race[s]

    def step(self, rates: list[float]) -> bool:
        """Move one seat's destinations so that the corrected models predict fairer rates; when
        the nearest candidates offer nothing, look at three times as many, then try the
        best-predicted untried move; False when every nearby move has been tried."""
        rates = self.pooled(rates)
        return (self._step(rates, CANDIDATES) or self._step(rates, 3 * CANDIDATES)
                or self._step(rates, CANDIDATES, explore=True))

    def _step(self, rates: list[float], limit: int, explore: bool = False) -> bool:
        """One move among ``limit`` candidates per seat; with ``explore`` the best-predicted
        move even when it is predicted no better (the tuning undoes it if it measures worse:
        the predictions of cells never played carry a few points of noise)."""
        dests = [list(d) for d in self.cand.dests]
        # per seat, (candidate, the state with that seat moved to it)
        trials = {s: [(cand, self._with(dests, s, cand)) for cand in self._candidates(s, dests, rates[s], limit)]
                  for s in (c[0] for c in self.classes)}
        # every trial's solo races at once, so their chains are spread over the simulation processes
        states = [dests] + [trial for pairs in trials.values() for _, trial in pairs]
        self.prefetch_solos([(k, d) for state in states for k, d in enumerate(state)])
        base_loss = math.inf if explore else self._loss(dests)
        moves = []  # (loss after moving this seat alone, seat, new destinations)
        for s, pairs in trials.items():
            best, best_loss = None, base_loss
            for cand, trial in pairs:
                loss = self._loss(trial)
                if loss < best_loss - 1e-12:
                    best, best_loss = cand, loss
            if best is not None:
                moves.append((best_loss, s, best))
        if not moves:
            return False
        for _, s, cand in sorted(moves):
            new = self._with(dests, s, cand)
            if self._cross_ok(new, [self.turns(k, d) for k, d in enumerate(new)]):
                self._seen.add(tuple(map(tuple, new)))
                self.cand.dests = new
                return True
        return False

    def terrain_step(self, rates: list[float]) -> bool:
        """For fixed destinations (placement fixed or opposite): turn one piece on or next to
        the routes of the two seats furthest from fair, the turn whose corrected race model is
        fairest and that keeps every requirement; False when none helps."""
        import random

        from terragen.terrain.pieces import distinct_rotations

        b, dests = self.cand.board, self.cand.dests
        base_loss = self._loss(dests)
        cells: set[int] = set()
        for s in sorted(range(self.n), key=lambda s: -abs(rates[s] - self.fair))[:2]:
            for i in tour(b, self.cand.starts[s], dests[s]).path:
                cells.add(i)
                cells.update(j for j in b.nbr[i] if j >= 0)
        cells -= self.cand.locked_rot
        moves = [(i, r) for i in sorted(cells) for r in distinct_rotations(b.pattern[i]) if r != b.rotation[i]]
        random.Random(f"terragen-balance-turn:{self.seed}:{self.attempt}:{len(self._seen)}").shuffle(moves)
        best = None
        for i, r in moves[:TURN_CANDIDATES]:
            if ("turn", i, r) in self._seen:
                continue
            turned = Candidate(b.rotated(i, r), [], dests, self.cand.starts, mirror=self.mirror)
            if self.mirror is not None and not self.mirror.restore(Candidate(b, [], dests, self.cand.starts), turned):
                continue  # a symmetric board turns whole orbits; this turn cannot be mirrored
            trial = type(self)(self.spec, turned, self.to_layout,
                               self.settings, self.seed, self.attempt, self.should_stop)
            trial.offset, trial.lone_offset = self.offset, self.lone_offset
            loss = trial._loss(dests)
            if loss < (best[0] if best else base_loss) - 1e-12:
                turns = [trial.turns(s, d) for s, d in enumerate(dests)]
                if all(trial.seat_ok(s, d, t) for s, (d, t) in enumerate(zip(dests, turns))) \
                        and trial._cross_ok(dests, turns):
                    best = (loss, i, r, turned.board)
        if best is None:
            return False
        _, i, r, board = best
        self._seen.add(("turn", i, r))
        self.cand.board = board
        self._reset_board()
        return True

    def tune(self, seed: int, first: int, top: int, rounds: int = MAX_ROUNDS) -> bool:
        """Tune on one seed (common random numbers) until the board is fair within the
        sample's noise at ``top`` games; False when the moves run out or time is up.

        Every step starts from the fairest destinations measured so far at the current
        sample size, so a move that turned out badly (a cell where rotations or send-backs
        change the race) is undone, while what it taught about that cell is kept.

        Solitary players are played each round beside the tuned ones, on the same dice (a
        third of the cost): the race model alone left them 2 to 4 points off on five-seat
        boards fair for greedy players, because tokens meeting move each seat by a few points
        that no model of lone tokens sees; learned per seat (:meth:`predicted_lone`) and
        measured each round, both kinds of player are tuned alike.
        """
        games = first
        best: tuple | None = None
        for rnd in range(rounds):
            if self.should_stop():
                return False
            layout = self.to_layout(self.cand)
            rates, _ = simulated_rates(layout, games, seed, self.settings.policy, self.should_stop, self.pool)
            lone, _ = simulated_rates(layout, games, seed, "solitary", self.should_stop, self.pool)
            greedy_worst, lone_worst = self.worst(self.pooled(rates)), self.worst(self.pooled(lone))
            worst = max(greedy_worst, lone_worst)
            # a class's pooled rate is the mean of its seats: its noise shrinks with the class size
            se = math.sqrt(self.fair * (1 - self.fair) / games / min(len(c) for c in self.classes))
            self._keep_if_fairest(worst + 2.0 * se, 0.0)
            self._say(f"balance round {rnd + 1}: {games} games, worst seat {100 * greedy_worst:.1f} points off "
                      f"({100 * lone_worst:.1f} with solitary players)")
            self.learn(rates, lone)
            # the worst of n noisy seats: a fair board measures about 2 standard errors off
            if games >= top and self._worth_a_check(rates, lone, games):
                return True
            if worst <= max(self.settings.margin * self._tune_share, 2.0 * se):
                if games >= top:
                    return True
                games = min(top, games * 2)
                best = None  # a larger sample: earlier measurements are not comparable
                continue
            measured = sum((r - self.fair) ** 2 for r in self.pooled(rates) + self.pooled(lone))
            if best is None or measured < best[0]:
                best = (measured, [list(d) for d in self.cand.dests], rates, lone, dict(self.offset),
                        dict(self.lone_offset))
            elif self.movable:
                # back to the best: its seats' offsets as measured there (this round's values for
                # the seats that did not move include the moved seat's surprise); what this
                # round taught about newly tried cells is kept
                self.cand.dests = [list(d) for d in best[1]]
                rates, lone = best[2], best[3]
                self.offset = {**self.offset, **best[4]}
                self.lone_offset = {**self.lone_offset, **best[5]}
            both = [(g + m) / 2 for g, m in zip(rates, lone)]  # where the seats stand for both kinds of player
            if not (self.step(both) if self.movable else self.terrain_step(both)):
                return False
        return False

    def _worth_a_check(self, rates: list[float], lone: list[float], games: int) -> bool:
        """Seats tuned one by one: whether the board as measured on the tuning seed could pass
        its fresh check, that is, not clearly short of what ``terragen simulate`` needs (the
        fresh check's own early stop: with every seat a standard error closer to fair, one
        default ``simulate`` run would say BALANCED at least 99 times in 100), for both kinds
        of player.

        Why: "every seat within twice its noise" refuses a fair five-seat board about 4 times
        in 10 on one sample of the tuning's size (about 2 in 10 for each kind of player), so
        the tuning kept moving away from boards the check would have passed."""
        if any(len(c) > 1 for c in self.classes):
            return False
        return not any(clearly_short(r, games, self.settings.margin) for r in (rates, lone))
