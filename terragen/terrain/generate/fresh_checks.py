"""The fresh-seed checks a tuned board must pass before it is written, and the samples
they are played on (growing ones, and whole simulations of one size: :func:`simulated_rates`):
the part of the balancer that decides, as opposed to the parts that search (``seat_tuning.py``,
``class_search.py``).

Why a mix-in: the checks read the balancer's seats, classes, settings and simulation
processes, and the tests replace its ``play`` to feed a check games of known rates; keeping
them methods of the balancer keeps both, while this module holds the statistics in one place.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from terragen.terrain.generate.seat_check import (SEAT_LOOKS, SIMULATE_MISS, clearly_short, seat_check, seat_se,
                                                  simulate_odds)

if TYPE_CHECKING:
    from terragen.terrain.generate.balance import BalanceSettings
    from terragen.terrain.generate.construct import Candidate
    from terragen.terrain.sim.pool import GamePool

MIN_FRESH_GAMES = 2000  # fewest fresh-seed games a check may pass on
#: the experts' glance lets a board by after its first half when the classes' pooled rates plus this
#: many standard errors are within its limit (:meth:`FreshChecks._expert_glance`)
GLANCE_ACCEPT_SE = 1.0
#: the experts' glance refuses a board when the classes' pooled rates minus this many standard errors
#: are over its limit: none, so any board read over the limit, on every seat count. Until 2026-12-06 it
#: was twice (only a board plainly off). Why: side by side on 60 fresh specs of each (every preset),
#: refusing every board read over the margin made experts BALANCED on 40 four-seat boards instead of 31
#: and 43 six-seat boards instead of 36, at a median run of 2.7 s instead of 2.0 and 2.5 s instead of 1.9
#: (``bench/README.md``, "Issue 12: experts at the generator's default speed"); on 80 fresh five-seat
#: specs (128001-128020) on 34 boards instead of 27, at 0.94x in total (median 3.6 -> 4.0 s and 6.0 ->
#: 5.9 s on the two halves: the runs it lengthens are mostly the quick easy and medium ones), but on the
#: next 40 (128101-128110, with the best-effort choice's glance too) 0.83x, median 4.7 -> 5.9 s
#: ("Issue 12: five seats' experts' glance refuses any board read over the margin", "five seats after
#: this session's two changes")
GLANCE_REFUSE_SE = 0.0
#: early in a search of these seat counts (``generate.EARLY_SHARE``) the experts' glance looks again
#: at these multiples of its games, each time letting a board by once the classes' pooled rates plus
#: a standard error are within the early limit (``balance.EXPERT_EARLY_GIVE_UP``), and a board still
#: read over it at the last look is held back (so a board near the margin is judged on up to four times
#: the games, while the search has time to look for another). Six seats too since 2026-12-07 (session
#: of 06:12 UTC), their glance's 300 games then 600 and 1,200: side by side on 80 fresh six-seat specs
#: experts BALANCED 59 -> 64 at 0.93-0.94x, 8 boards changed, 6 fairer for experts (3.58 -> 1.62,
#: 2.79 -> 1.23, 3.21 -> 1.98, ...) and 2 less fair (1.04 -> 3.03: classes 2.3 points apart that 1,200
#: games read at 1.92 and let by; 1.16 -> 1.72) (``bench/README.md``, "Issue 12: six seats' early glance
#: looks again too")
GLANCE_EARLY_LOOKS = {4: (0.5, 1.0, 2.0, 4.0), 6: (1.0, 2.0, 4.0)}
#: seat counts whose glance plays the same looks late in a search too (past ``generate.EARLY_SHARE``),
#: letting a board by at a look once it reads within the early limit by a standard error, as early,
#: but then holding back nothing: only a board read over the margin at a look is refused, and one read
#: between the two at the last look goes on as before. Why: past the early share a four-seat glance let
#: by on 600 games boards whose classes it read 0.9-2.2 points apart and that were 3.2-3.8 points off
#: at the worst seat on ``simulate``'s games (grid of fresh seeds 137201-137210). Side by side on 80
#: fresh four-seat specs (138001-138010, 138101-138110) 4 boards changed, 3 fairer for experts (3.07 ->
#: 1.73, 2.84 -> 1.58 points at the worst seat, both now BALANCED; 0.88 -> 0.68) and one less fair (3.48
#: -> 4.36, NOT BALANCED either way), experts BALANCED 68 -> 70, 0.97x and 1.00x in total; on 40 more
#: (138501-138510) 33 -> 33 at 0.95x, 3 boards changed, one fairer and two less fair: about neutral over
#: the 120 (101 -> 103, 0.97x), kept for the boards it mends late in a search. Not six seats:
#: on 40 fresh six-seat specs (138201-138210) no board changed, at 0.97x (``bench/README.md``, "Issue
#: 12: four seats' glance looks again late in the search too")
GLANCE_LATE_LOOKS = (4,)


def pooled_rates(rates: list[float], classes: list[list[int]]) -> list[float]:
    """Each seat's rate replaced by its class's mean (the best estimate: the seats of a class have
    equal chances by symmetry)."""
    out = list(rates)
    for c in classes:
        mean = sum(rates[s] for s in c) / len(c)
        for s in c:
            out[s] = mean
    return out


def games_for_class_se(classes: list[list[int]], players: int, se: float) -> int:
    """The fewest games (rounded as every sample is) on which a class's pooled rate has a standard
    error of at most ``se`` on independent games (with classes of unequal size, five seats' three
    and two, the noisier smaller one's, which is also the one furthest off). A game has one winner,
    so a class's wins are one binomial count with chance ``len(class) / players``."""
    fair = 1.0 / players
    return _chunked(max(len(c) * fair * (1 - len(c) * fair) / (len(c) * se) ** 2 for c in classes), players)


def _chunked(x: float, seats: int) -> int:
    """At least 100 games, rounded up to a multiple of 100 and of the seat count (every seat
    opens equally often)."""
    step = 100 * seats // math.gcd(100, seats)
    return max(step, int(math.ceil(x / step)) * step)


class OutOfTime(Exception):
    """Raised inside a simulation when the generator's time is up (never leaves the balancer)."""


#: fewest twin pairs a sample estimates its own noise from (:meth:`Tally.noise_factor`); below, the
#: games count as independent ones (a larger noise than twin games have on every board measured)
MIN_TWIN_PAIRS = 100
#: fewest cycles of dice a sample estimates its own noise from (:meth:`Tally.noise_factor`); below, the
#: games count as independent ones
MIN_CYCLES = 100
#: the smallest share of its planned games a twin sample is cut to (:meth:`FreshChecks._sized_by_noise`)
TWIN_SIZE_FLOOR = 0.4
#: the smallest noise factor a twin sample is credited with (:meth:`Tally.noise_factor`): four
#: independent games a game, well past the 2.6 measured at most (``bench/twin_games.py``), so that a
#: sample whose pairs all happened to split cannot claim no noise at all
TWIN_NOISE_FLOOR = 0.25
#: a check of two classes that judges its seats on a share ``f`` of the games it planned pushes
#: each seat ``SHORT_SEAT_PUSH * (1 - sqrt(f))`` of its own standard errors away from fair first
#: (:meth:`FreshChecks._seats_ok`)
SHORT_SEAT_PUSH = 2.0


@dataclass
class Tally:
    """Wins per seat over the first ``played`` games of ``seed`` with ``policy`` players.

    With ``twins`` (a seat's partner in the other class, see
    :func:`~terragen.terrain.sim.runner.run_games`) the games are twin pairs, and ``pairs``
    counts the pairs whose two games the class ``first`` won none, one or both of: what the
    sample's own noise is worked out from. With ``cycle`` the games are cycles of dice
    (:func:`~terragen.terrain.sim.runner.cycle_dice`), and ``squares`` sums, per seat and then
    for the class ``first`` and the other seats, the square of the wins in each cycle: what
    the noise of each seat's rate and of each class's is worked out from.
    """

    policy: str
    seed: int
    seats: int
    played: int = 0
    wins: list[int] = field(default_factory=list)
    twins: tuple[int, ...] | None = None
    first: tuple[int, ...] = ()
    pairs: list[int] = field(default_factory=lambda: [0, 0, 0])
    #: the noise factor a record of this sample gives (a tally rebuilt from a check's record, which
    #: keeps the factor, not the pairs); used instead of the pairs when set
    recorded_factor: float | None = None
    cycle: bool = False
    squares: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.seats
        self.squares = self.squares or [0.0] * (self.seats + 2)

    @property
    def rates(self) -> list[float]:
        return [w / self.played if self.played else 0.0 for w in self.wins]

    @property
    def step(self) -> int:
        """The games a sample grows by at the least: a pair, a cycle, or one game."""
        return 2 if self.twins is not None else self.seats if self.cycle else 1

    def noise_factor(self) -> float:
        """The variance of a class's share of the wins on this sample, as a share of the variance
        the same number of independent games would give (1 for independent games): of the first
        class for twin pairs, of the noisier class for cycles of dice.

        Why each sample its own: how much a game and its twin cancel out depends on how much of
        a race the dice decide, which differs threefold between boards (``bench/twin_games.py``:
        a twin sample worth 1.2 to 2.6 times as many independent games); a fixed factor would
        flatter some boards. Worked out from the pairs' spread: with ``x`` the share of a pair the
        class won (0, 1/2 or 1), independent games give ``x`` a variance of ``m(1-m)/2``.
        """
        if self.recorded_factor is not None:
            return self.recorded_factor
        if self.cycle:
            return max(self._cycle_factor(self.seats), self._cycle_factor(self.seats + 1))
        total = sum(self.pairs)
        if self.twins is None or total < MIN_TWIN_PAIRS:
            return 1.0
        m = (self.pairs[1] + 2 * self.pairs[2]) / (2 * total)
        if not 0 < m < 1:
            return 1.0
        var = (self.pairs[1] / 4 + self.pairs[2]) / total - m * m
        return max(TWIN_NOISE_FLOOR, var / (m * (1 - m) / 2))

    def seat_noise_factor(self) -> float:
        """The same for one seat's rate, the noisiest seat's: below 1 only for cycles of dice
        (twin pairs do nothing for a seat against the others of its class)."""
        if not self.cycle:
            return 1.0
        return max(self._cycle_factor(s) for s in range(self.seats))

    def seat_games(self) -> float:
        """As many independent games as give each seat's rate the noise this sample gives it."""
        return self.played / self.seat_noise_factor()

    def _cycle_factor(self, k: int) -> float:
        """For cycles of dice, the variance of count ``k``'s wins per cycle (a seat, or with
        ``k`` = seats or seats + 1 the first class or the other seats) against independent
        games'; 1 before ``MIN_CYCLES`` cycles, never under ``TWIN_NOISE_FLOOR``."""
        cycles = self.played // self.seats
        if cycles < MIN_CYCLES:
            return 1.0
        first = set(self.first)
        wins = (self.wins[k] if k < self.seats
                else sum(w for s, w in enumerate(self.wins) if (s in first) == (k == self.seats)))
        m = wins / cycles  # mean wins a cycle
        p = m / self.seats
        if not 0 < p < 1:
            return 1.0
        var = self.squares[k] / cycles - m * m
        return max(TWIN_NOISE_FLOOR, var / (self.seats * p * (1 - p)))

    def count(self, games: list) -> None:
        """Add ``games`` (the next ones of the seed, in order, starting at ``played``)."""
        for game in games:
            for w in game.winners:
                self.wins[w] += 1
        if self.twins is not None:
            first = set(self.first)
            for a, b in zip(games[::2], games[1::2]):
                self.pairs[sum(1 for g in (a, b) if g.winners and g.winners[0] in first)] += 1
        if self.cycle:
            first = set(self.first)
            n = self.seats
            for c in range(0, len(games), n):
                per = [0] * (n + 2)
                for game in games[c:c + n]:
                    for w in game.winners:
                        per[w] += 1
                        per[n if w in first else n + 1] += 1
                for k, v in enumerate(per):
                    self.squares[k] += v * v


class FreshChecks:
    """Fresh-seed checks for :class:`~terragen.terrain.generate.balance.Balancer`, which
    provides ``n``, ``fair``, ``classes``, ``settings``, ``cand``, ``to_layout``, ``pool``,
    ``should_stop``, ``worst`` and ``pooled``."""

    n: int
    fair: float
    classes: list[list[int]]
    approximate: bool
    settings: BalanceSettings
    cand: Candidate
    pool: GamePool | None
    _safe_gap: float | None

    def _tally(self, policy: str, seed: int) -> Tally:
        """An empty sample of ``policy`` players on ``seed``: twin pairs of games when the seats
        form two classes of the same size, each seat paired with the seat in the same place of the
        other class (:meth:`Tally.noise_factor`); cycles of dice for approximate classes (five
        seats); else independent games."""
        twins = None
        if len(self.classes) == 2 and len(self.classes[0]) == len(self.classes[1]):
            pairing = [0] * self.n
            for a, b in zip(self.classes[0], self.classes[1]):
                pairing[a], pairing[b] = b, a
            twins = tuple(pairing)
        # classes whose seats are judged one by one too (five seats): cycles of dice, which measure
        # each seat's rate, and the classes', more sharply than independent games
        return Tally(policy, seed, self.n, twins=twins, first=tuple(self.classes[0]),
                     cycle=twins is None and self.approximate)

    def _sized_by_noise(self, games: int, tally: Tally) -> int:
        """``games`` for independent games; for a twin sample that has shown its noise
        (:meth:`Tally.noise_factor`), as many games as give the same noise (at most ``games``,
        at least ``TWIN_SIZE_FLOOR`` of them), rounded as every sample is.

        Why: a sample's sizes were chosen for independent games; twin pairs reach the same
        noise on fewer, and every limit is a number of standard errors, so the smaller sample
        decides as the larger one did. Why a floor: the factor is itself measured, and a
        sample far smaller than planned would lean on that measurement more than it can bear."""
        if (tally.twins is None or sum(tally.pairs) < MIN_TWIN_PAIRS) and not (
                tally.cycle and tally.played >= MIN_CYCLES * self.n):
            return games
        return _chunked(games * min(1.0, max(TWIN_SIZE_FLOOR, tally.noise_factor())), self.n)

    def _confirm_limit(self, games: int, tally: Tally | None = None) -> float:
        """How far the classes' pooled rates may be from fair in a fresh-seed check on
        ``games`` games: :meth:`_simulate_safe_gap` less this check's own noise (a board is
        kept on a measurement, not on its true rates); at least twice that noise, or no fair
        board would pass.

        Why tie it to ``simulate``: that run is how a user checks the board, so its verdict is
        what has to hold; a fixed share of the margin was either needlessly strict (and cost
        seconds of search) or, with fewer games behind ``simulate``, not strict enough.
        """
        se = self._class_se(games, tally)
        return max(self._simulate_safe_gap() - se, 2.0 * se)

    def _simulate_safe_gap(self) -> float:
        """The largest true distance of the first class from fair (the other class making up
        the difference) at which ``terragen simulate`` with its defaults still calls the board
        BALANCED in all but ``SIMULATE_MISS`` of its runs (worked out once per balancer)."""
        if self._safe_gap is not None:
            return self._safe_gap
        from terragen.terrain.sim.runner import default_games
        from terragen.terrain.sim.stats import balanced_odds

        first = self.classes[0]
        user_games = default_games(self.n, self.settings.margin, self.n)

        def odds(gap: float) -> float:
            up, down = self.fair + gap, self.fair - gap * len(first) / (self.n - len(first))
            return balanced_odds([up if s in first else down for s in range(self.n)], user_games,
                                 self.settings.margin)

        lo, hi = 0.0, self.settings.margin
        for _ in range(40):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if odds(mid) >= 1 - SIMULATE_MISS else (lo, mid)
        self._safe_gap = lo
        return lo

    def _confirm(self, seed: int, games: int, policy: str, threshold: float) -> tuple[list[float], dict, bool]:
        """One kind of player's fresh-seed check on a board of two classes, grown in steps (a
        quarter of ``games``, then half, all and for a near miss twice the full size: ``games``,
        or as many twin games as give its noise, :meth:`_sized_by_noise`): stopped as soon as a
        class is clearly outside the limit (by twice the sample's noise) or the seats clearly
        short of what ``simulate`` needs, and accepted at half the games (never under
        ``MIN_FRESH_GAMES``) when the classes are clearly inside it (:meth:`_clearly_inside`)
        and the seats pass (:meth:`_seats_ok`), as they must at any size. A twin sample cut to its
        noise is never accepted on fewer than ``MIN_FRESH_GAMES`` (unless ``games`` is fewer, as a
        user may ask), and its seats, judged on fewer games than planned (at an early look too),
        must pass with a push or else play the planned games. A pair the screening
        flattered costs a quarter of the check, a plainly fair one half. Returns (rates, record,
        whether it passed); the record names the games actually played, so replaying it with
        ``terragen simulate`` gives the same rates.

        Why a second look: a miss by less than one standard error of the full check
        (:meth:`_near_miss`) is mostly a board whose classes are a few tenths of a point from
        passing, about where :meth:`_confirm_limit` puts the line; the next pair of the search
        is a new unknown, a point either way. So the check plays as many games again on its
        seed and judges all of them by the limit for that size, which sits closer to what
        ``terragen simulate`` needs because its own noise is smaller. The board is still kept
        on its measurement alone, one standard error inside the gap ``simulate`` needs, so a
        board accepted on the second look is as safe as one accepted on the first.
        """
        tally = self._tally(policy, seed)
        layout = self.to_layout(self.cand)
        passed = False
        decided_by = "classes"  # what refused the board, when something did: the classes or the seats
        full = games
        least = min(games, _chunked(MIN_FRESH_GAMES, self.n))  # never accepted on fewer (unless asked for)
        sizes = [_chunked(games / 4, self.n)]
        for size in sizes:  # grows: the later sizes follow from the first look's noise
            self.play(layout, tally, size)
            if len(sizes) == 1:
                full = max(least, self._sized_by_noise(games, tally))
                sizes += [s for s in (_chunked(full / 2, self.n), full, _chunked(2 * full, self.n)) if s > size]
            pooled = self.worst(self.pooled(tally.rates))
            if size < full:  # an early look: stop only when the verdict is plain either way
                if pooled > self._confirm_limit(full, tally) + 2.0 * self._class_se(size, tally):
                    break
                if clearly_short(tally.rates, tally.played, self.settings.margin):
                    decided_by = "seats"
                    break
                if (size >= max(full / 2, least) and self._clearly_inside(tally)
                        and self._seats_ok(tally, threshold, games)):
                    passed = True
                    break
                continue
            if pooled <= self._confirm_limit(size, tally):
                if self._seats_ok(tally, threshold, games):
                    passed = True
                    break
                if size < games and self._seats_ok(tally, threshold):
                    # the seats pass as measured but not on the planned games' terms: the planned
                    # games decide, as they did before samples were cut to their noise
                    at = sizes.index(size) + 1
                    sizes[at:] = [games] + [s for s in sizes[at:] if s > games]
                    continue
                decided_by = "seats"
            else:
                decided_by = "classes"
            if size > full or not self._near_miss(tally, full, threshold):
                break
        rates = tally.rates
        pooled = self.worst(self.pooled(rates))
        limit = (self._confirm_limit(tally.played, tally) if tally.played >= full
                 else self._simulate_safe_gap() - 2.0 * self._class_se(tally.played, tally))
        return rates, {"games": tally.played, "seed": seed, "policy": tally.policy, **self._twin_fields(tally, layout),
                       "win_rates": [round(r, 4) for r in rates],
                       "pooled_worst_deviation": round(pooled, 4),
                       "pooled_standard_error": round(self._class_se(tally.played, tally), 5),
                       "pooled_threshold": round(limit, 4),
                       # what refused the board (its seats, or its classes by the rule of that look)
                       "decided_by": "passed" if passed else decided_by,
                       "simulate_odds": round(self._seat_odds(tally), 4),
                       "simulate_odds_needed": 1 - SIMULATE_MISS}, passed

    def _seat_odds(self, tally: Tally, push: float = 0.0) -> float:
        """The chance that one default ``terragen simulate`` run calls BALANCED a board whose
        seats win what ``tally`` measured, seat by seat (``push``: see :func:`simulate_odds`)."""
        return simulate_odds(tally.rates, tally.seat_games(), self.settings.margin, push)

    def _seats_ok(self, tally: Tally, threshold: float, planned: float = 0) -> bool:
        """Every seat within ``threshold``, and the seats as measured leave one default
        ``terragen simulate`` run odds of at least ``1 - SIMULATE_MISS`` to say BALANCED; on a
        sample smaller than ``planned`` games, each seat first pushed away from fair by what
        makes the smaller sample as strict as the planned one (``SHORT_SEAT_PUSH``).

        Why the push: a twin sample is cut to the games that give its classes' pooled rates the
        noise planned for (:meth:`_sized_by_noise`), but pairing does nothing for the difference
        between two seats of one class (its variance stays that of independent games), so the
        seats' guard would judge on a noisier sample than the check planned and let a board whose
        seats are parted by order of play through more often (simulated: seats 2 points either
        side of fair, a board ``simulate`` calls BALANCED 85 times in 100, passed the guard 7.7% of
        the time on 0.4 of the planned 11,200 games against 2.5% on all of them). A seat ``x`` of
        the planned sample's standard errors past what passes gets by it with chance ``Phi(-x)``;
        on a share ``f`` of the games, pushed by ``p`` of its own (larger) standard errors, with
        ``Phi(-x sqrt(f) - p)``: with ``p = 2 (1 - sqrt(f))`` the short sample is at least as
        strict for ``x`` up to 2 (0.74 standard errors at the 40% floor; a fixed push of one cost
        six-seat runs 0.89x, ``bench/README.md``). A board whose seats pass only as measured
        plays the planned games instead (:meth:`_confirm`).

        Why the seats, when the classes are checked more sharply: a mirror maps a seat's
        terrain onto its image's but reverses the order of play, so the two meet the other
        tokens in a different order, and on some boards that parts them by points (the
        board 4 medium 223 got before this rule: classes pooled 0.03 points off, the first and
        last seat of one class 2.0 above and 1.9 below fair on 10,000 fresh games; `simulate`
        said NOT BALANCED in 2 runs of 20, with 4,800 games a run). The classes' pooled rates
        cannot see that, and the per-seat threshold let it through; these odds do not. They
        take the measured rates as they are (no push): the class limit already keeps the
        classes a standard error inside the gap, and a fair board measured on the full check
        still passes 99 times in 100.
        """
        push = SHORT_SEAT_PUSH * (1.0 - math.sqrt(tally.played / planned)) if tally.played < planned else 0.0
        return self.worst(tally.rates) <= threshold and self._seat_odds(tally, push) >= 1 - SIMULATE_MISS

    def _seat_check(self, seed: int, games: int, policy: str, threshold: float) -> tuple[list[float], dict, bool]:
        """:func:`seat_by_seat_check` of the current board on the generator's processes."""
        return seat_by_seat_check(self.to_layout(self.cand), seed, games, policy, threshold, self.settings.margin,
                                  self.play)

    def _near_miss(self, tally: Tally, games: int, threshold: float) -> bool:
        """Whether a full check that missed is worth a second look on as many games again: the
        classes within one standard error of the full check beyond the limit of the doubled
        check, and every seat within ``threshold`` plus one seat's standard error (so the
        doubled sample, whose noise is 0.7 of this one's, has a fair chance to land inside),
        and the seats not clearly short of what ``simulate`` needs (:func:`clearly_short`)."""
        se = seat_se(self.n, tally.seat_games())
        return (self.worst(self.pooled(tally.rates)) <= self._confirm_limit(2 * games, tally)
                + self._class_se(games, tally)
                and self.worst(tally.rates) <= threshold + se
                and not clearly_short(tally.rates, tally.played, self.settings.margin))

    def _clearly_inside(self, tally: Tally) -> bool:
        """The classes' pooled rates, plus twice their noise, within what ``terragen simulate``
        needs (:meth:`_simulate_safe_gap`): a check may stop there before its full size.

        Why twice: the full-size check accepts a class up to one standard error under that
        gap; an early look at half the games with two standard errors is stricter, so the
        chance of accepting a board whose classes are truly at the gap rises by about 2 in 100
        (measured on the normal approximation: 16% to 18% at the gap itself), while about
        half of the fair boards stop at half the games."""
        gap = self.worst(self.pooled(tally.rates))
        return gap + 2.0 * self._class_se(tally.played, tally) <= self._simulate_safe_gap()

    def _class_se(self, games: int, tally: Tally | None = None) -> float:
        """The standard error of a class's pooled rate on ``games`` games of a fair board, played
        as ``tally``'s are (twin pairs: :meth:`Tally.noise_factor`; none given: independent games).

        A game has one winner, so the wins of a class of ``k`` seats are one binomial count
        with chance ``k / n`` (the seats of a class are not independent samples: when one wins
        the others lose); its pooled rate is that count's share divided by ``k``."""
        factor = tally.noise_factor() if tally is not None else 1.0
        # classes of unequal size (five seats): the noisier, the smaller one's
        return max(math.sqrt(len(c) * self.fair * (1 - len(c) * self.fair) * factor / games) / len(c)
                   for c in self.classes)

    @staticmethod
    def _twin_fields(tally: Tally, layout) -> dict:
        """What a record needs to replay a twin sample of ``layout`` (``terragen simulate --twin-dice``)."""
        if tally.cycle:
            return cycle_fields(tally)
        if tally.twins is None:
            return {}
        from terragen.terrain.sim.runner import format_twins, seat_numbers

        return {"twin_dice": format_twins(tally.twins, seat_numbers(layout)),
                "twin_noise_factor": round(tally.noise_factor(), 4)}

    def _expert_glance(self, seed: int, games: int, limit: float,
                       look_within: float | None = None) -> tuple[dict, bool]:
        """A few hundred fresh games of expert players on a board of two classes: False when
        the classes' pooled rates read more than ``limit`` from fair (``GLANCE_REFUSE_SE``).
        Played in two steps; the first stops early when the verdict is plain, or when the board is
        clearly closer than the limit (see below). Returns (record, whether the board may go on).
        With ``look_within`` a seat count in ``GLANCE_EARLY_LOOKS`` plays its looks instead, each
        stopping once the board reads clearly within ``look_within``; the limit for refusing stays
        ``limit``. The caller asks for looks early in a search, where it holds back a board still read
        over ``look_within``, and late on seat counts in ``GLANCE_LATE_LOOKS``, where it holds nothing back.

        Why a glance and not a check: experts turn pieces against a near winner, and on about a
        quarter of the boards the search finds for greedy and solitary players that parts the
        classes by 5-9 points (one seat in two winning 30% of four-seat games); a glance this size
        tells those apart for a second or so, where a full check of experts costs 5-15 s. It
        only rejects: a board it lets through may still be 2-5 points off for experts (600 games
        cannot tell 2 points from 4).

        Why it may stop at half on one standard error (``GLANCE_ACCEPT_SE``), written when it
        refused only boards plainly off (twice the noise of the whole glance over the limit,
        about 4.5 points): a board that far off reads within one standard error of the limit at
        half the games less than once in a hundred (0.85% on four seats, for a board at 4.5
        points), while about half the fair boards do (54% on four seats, 60% on six) and save
        half their expert games. With two standard errors no board could stop at half (twice the
        noise of 300 games on four seats is more than the margin). Side by side on fresh seeds
        5741-5742 the same 16 boards, 1.07x (4 seats) and 1.00x (6 seats).
        """
        tally = self._tally("expert", seed)
        layout = self.to_layout(self.cand)
        refuse_se = GLANCE_REFUSE_SE
        looks = GLANCE_EARLY_LOOKS.get(self.n) if look_within is not None else None
        sizes = [_chunked(games * look, self.n) for look in looks] if looks else [_chunked(games / 2, self.n), games]
        accept_within = look_within if looks else limit
        ok = True
        for size in sizes:
            self.play(layout, tally, size)
            pooled = self.worst(self.pooled(tally.rates))
            se = self._class_se(tally.played, tally)
            if pooled - refuse_se * se > limit:
                ok = False
                break
            if pooled + GLANCE_ACCEPT_SE * se <= accept_within:
                break
        return {"games": tally.played, "seed": seed, "policy": "expert", **self._twin_fields(tally, layout),
                "win_rates": [round(r, 4) for r in tally.rates],
                "pooled_worst_deviation": round(pooled, 4), "pooled_limit": round(limit, 4),
                "refused_above": round(limit + refuse_se * se, 4),  # the limit plus the noise it allows
                "verdict": "NOT PLAINLY OFF" if ok else "PLAINLY OFF"}, ok

    def _games_for_class_se(self, se: float) -> int:
        """:func:`games_for_class_se` for this board's classes (:meth:`_class_se`)."""
        return games_for_class_se(self.classes, self.n, se)

    def play(self, layout, tally: Tally, size: int) -> None:
        """Grow ``tally`` to the first ``size`` games of its seed on ``layout``
        (:func:`grow_tally`, on the generator's processes, stopped when its time is up)."""
        grow_tally(layout, tally, size, self.pool, self.should_stop)


def simulated_rates(layout, games: int, seed: int, policy: str,
                    should_stop: Callable[[], bool] = lambda: False,
                    pool: GamePool | None = None) -> tuple[list[float], dict]:
    """Per-seat win rates over ``games`` full-rules games, and their record for ``meta``.

    Raises OutOfTime between batches of games once ``should_stop()`` says so, so a large
    simulation cannot run far past the time limit. ``pool`` (the generator's, for the
    whole search) spreads the games over processes; the rates do not depend on it.
    """
    from terragen.terrain.sim import simulate_layout
    from terragen.terrain.sim.pool import Stopped

    try:
        report = simulate_layout(layout, games=games, seed=seed, policy=policy, margin=1.0, pool=pool,
                                 should_stop=should_stop)
    except Stopped:
        raise OutOfTime from None
    rates = [s.rate for s in report.seats]
    return rates, {"games": games, "seed": seed, "policy": policy, "win_rates": [round(r, 4) for r in rates]}


def grow_tally(layout, tally: Tally, size: int, pool: GamePool | None = None,
               should_stop: Callable[[], bool] | None = None) -> None:
    """Grow ``tally`` to the first ``size`` games of its seed on ``layout``; OutOfTime when
    ``should_stop()`` says so.

    Game ``i`` of a seed is the same game whatever the sample's size, so a sample can
    grow in steps: a pair that is clearly off is dropped after a few hundred games, and
    one that passes costs no more than one simulation of the full size.
    """
    from terragen.terrain.sim.pool import GamePool, Stopped
    from terragen.terrain.sim.variants import Rules

    if tally.played < size:
        if tally.played % tally.step or size % tally.step:
            raise ValueError(f"a sample of twin pairs or cycles of dice grows by {tally.step} games at a time, "
                             f"not {tally.played} to {size} games")
        if should_stop is not None and should_stop():
            raise OutOfTime
        try:
            games = (pool or GamePool(1)).run(layout, Rules(), [tally.policy] * tally.seats, tally.seed,
                                              tally.played, size, should_stop, twins=tally.twins, cycle=tally.cycle)
        except Stopped:
            raise OutOfTime from None
        tally.count(games)
    tally.played = max(tally.played, size)


def seat_by_seat_check(layout, seed: int, games: int, policy: str, threshold: float, margin: float,
                       play: Callable[[object, Tally, int], None] = grow_tally,
                       cycle: bool = True) -> tuple[list[float], dict, bool]:
    """One kind of player's fresh-seed check of a board judged seat by seat, grown from
    ``games`` to up to four times that until its verdict is plain (:func:`seat_check`);
    ``play(layout, tally, size)`` grows a tally. Returns (rates, record, whether it passed);
    the record names the games played (and the cycles of dice), so replaying it with
    ``terragen simulate`` gives the same rates.

    ``cycle`` plays cycles of dice (:func:`~terragen.terrain.sim.runner.cycle_dice`): the check
    first plays ``TWIN_SIZE_FLOOR`` of ``games`` (at least ``MIN_FRESH_GAMES``, at most
    ``games``), learns from its cycles how many independent games each seat's noise is worth
    (:meth:`Tally.seat_games`), and its later looks play as many games as give the noise planned
    for ``games`` and its multiples (never fewer than the first look's). Every verdict is taken on
    the seats' noise as measured, so a check of cycles is as strict as one of independent games,
    on fewer games: a seat's rate on five-seat boards has the noise of 2.3 to 4.5 times as many
    independent games (greedy and solitary players), 1.5 to 3.6 times for experts."""
    seats = len(layout.players)
    tally = Tally(policy, seed, seats, cycle=cycle)
    if not cycle:
        sizes = [_chunked(look * games, seats) for look in SEAT_LOOKS]
        fields, passed = seat_check(lambda size: play(layout, tally, size), tally, sizes, threshold, margin)
    else:
        first = min(_chunked(games, seats), _chunked(max(MIN_FRESH_GAMES, TWIN_SIZE_FLOOR * games), seats))
        play(layout, tally, first)
        factor = max(TWIN_SIZE_FLOOR, tally.seat_noise_factor())
        sizes = sorted({max(first, _chunked(look * games * factor, seats)) for look in SEAT_LOOKS})
        fields, passed = seat_check(lambda size: play(layout, tally, size), tally, sizes, threshold, margin)
        fields.update(cycle_fields(tally))
    rates = tally.rates
    return rates, {"games": tally.played, "seed": seed, "policy": policy,
                   "win_rates": [round(r, 4) for r in rates], **fields}, passed


def cycle_fields(tally: Tally) -> dict:
    """What a record needs to replay a sample of cycles of dice (``terragen simulate
    --cycle-dice``) and to know its noise: the classes' factor (when the sample has classes) and
    the seats'."""
    out: dict = {"cycle_dice": True, "seat_noise_factor": round(tally.seat_noise_factor(), 4)}
    if tally.first:
        out["cycle_noise_factor"] = round(tally.noise_factor(), 4)
    return out
