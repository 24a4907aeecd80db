"""The search for the destinations of a board of two classes of symmetric seats (4 and 6 seats,
a turn or a mirror that keeps the order of play; 5 seats on a turned board with a corner
empty): every pair of destination sets within one move scored by the models, the fairest
screened on a few hundred games and grown only while it may still pass
(:meth:`ClassSearch.search_classes`).

Why a module of its own: it shares the balancer's models and fresh checks but none of the
seat-by-seat tuning's moves (``seat_tuning.py``), and it has its own constants and
per-terrain memory (the ranked pairs, the learned offsets).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist
from typing import TYPE_CHECKING

from terragen.terrain.generate.fresh_checks import Tally, _chunked
from terragen.terrain.generate.pair_offsets import PairOffsets
from terragen.terrain.generate.seat_check import clearly_short, seat_se

if TYPE_CHECKING:
    from terragen.terrain.generate.balance import BalanceSettings, SeatOption
    from terragen.terrain.generate.construct import Candidate

SEARCH_PAIRS = 8  # destination pairs of two classes simulated in full per terrain
SOLO_SHARE = 2.0  # a pair whose corrected models are further off than this (in margins) is not simulated
#: the same for classes whose seats are checked one by one (five seats), their seats' own distances counted
SEAT_SHARE = 1.0
#: how far past its fresh check's limit, in standard errors of one seat's rate, a seat of a screened
#: pair of approximate classes may read before the pair is dropped (:meth:`ClassSearch._seats_plainly_off`)
SEAT_SCREEN_NOISE = 1.0
SCREEN_PAIRS = 24  # destination pairs of two classes screened (on at most a sixth of the games) per terrain
RACE_SHARE = 0.4  # how close the corrected race model of a class pair must be to be tried, in margins
#: share of a screen's games after which a pair is first looked at (:meth:`ClassSearch._screen_sizes`)
SCREEN_GLANCE = 1 / 24
SCREEN_FUTILITY = 0.05  # a screened pair is dropped once its odds of passing at the full sample are below this
#: how far a screened pair's pooled class rate may end from fair, in standard errors of the screen's
#: full sample, when that is more than the share of the margin asked for (:meth:`ClassSearch._class_limit`)
SCREEN_NOISE = 3.0
#: how close solitary players' pooled class rates must be, in margins (or ``SCREEN_NOISE`` times their noise)
SOLITARY_SEARCH_SHARE = 0.3
#: games' worth of "no difference" each seat's distance from its class starts from (approximate
#: classes, :meth:`ClassSearch._within_offsets`)
WITHIN_PRIOR_GAMES = 2000


def screen_pass_odds(measured: float, limit: float, played: int, final: int, se: float) -> float:
    """The odds that a screened class, ``measured`` points from fair on ``played`` games (noise
    ``se``), ends within ``limit`` once the sample has ``final`` games, if the games still to
    come play like the ones seen (their true lean taken as the measured one, give or take the
    measurement's noise).

    Why odds, not the old "beyond the limit by twice the noise": a pair that ends its screen
    just outside the limit costs the most (all its games), and most such pairs could be told
    early. Recorded screens of 4 and 6 seats on seeds 400-404 (507 pairs, 63 of which passed):
    stopping below 5% odds would have spared 11-12% of the screening's games and lost at most
    one pair that passed; the old rule stops at odds of about 0.3% at half the games.
    """
    if played >= final:
        return 1.0 if measured <= limit else 0.0
    rest = final - played
    var = se * se * played  # one game's variance
    spread = rest / final * math.sqrt(var / played + var / rest)
    nd = NormalDist(measured, spread)
    return nd.cdf(limit) - nd.cdf(-limit)


class ClassSearch:
    """The two-class search of :class:`~terragen.terrain.generate.balance.Balancer`, which
    provides the state read here (``n``, ``fair``, ``classes``, ``settings``, ``cand``,
    ``to_layout``, ``should_stop``, the per-terrain memory that ``_reset_board`` clears) and
    the models and checks it calls (``modelled``, ``solo``, ``prefetch_solos``, ``options``,
    ``_meets_spec``, ``_cross_ok``, ``_with``, ``worst``, ``pooled``, ``play``,
    ``_class_se``, ``_keep_if_fairest``, ``_say``).

    Why a mix-in: the search moves the balancer's candidate and fills its caches, the balance
    loop calls it again after a failed check, and tests and bench scripts replace its methods
    (or ``play``) on the balancer; as methods of the balancer all of that keeps working, while
    this module holds the search in one place.
    """

    n: int
    fair: float
    classes: list[list[int]]
    approximate: bool
    settings: BalanceSettings
    cand: Candidate
    to_layout: Callable[[Candidate], object]
    should_stop: Callable[[], bool]
    _tune_share: float
    _ok: dict
    _ranked: list | None
    _tried: int
    _full: int
    _origin: list[list[int]]
    _learned: dict[str, PairOffsets]
    _screened_models: set[tuple]
    _within: dict[str, tuple[list[float], float]]

    def search_classes(self, seed: int, first: int) -> bool:
        """Two classes of symmetric seats (4 and 6 seats): choose the destinations of both
        classes together; True when a pair passed the screening (the caller verifies it),
        False when this terrain has no pair left worth simulating.

        Why a search, not steps: the two classes leave one number to balance (how far the
        first class is ahead of the second), but several kinds of player to balance it for,
        and they part by amounts that depend on the cells. So every pair of destination sets
        within one move is scored by the exact race model (milliseconds each); the race-fair
        pairs are ranked by the solo-greedy race as well (each class's first seat played
        alone, rotations included: it catches most of what greedy players' own turns on
        doubles do, where the race model misses by up to 20 points). Pairs are then simulated
        in steps (a sixth, half, all of ``first`` games, greedy and solitary players on one
        seed with common dice) so that a pair far off costs a few hundred games. Called again
        after a failed verification, it goes on with the next pair.

        What neither model sees is the tokens meeting (send-backs, one seat's turn cutting
        another's route). Measured on 4-seat hard terrain, that moves the first class's pooled
        rate by an amount that differs from terrain to terrain (solitary players: 0 to 3
        points, greedy: up to 7) and, within a terrain, is a common part plus a part for each
        class's destination, much the same whichever destination the other class has. So every
        simulated pair teaches the terrain's offsets for each kind of player, one term per
        destination of each class (:class:`PairOffsets`), and the next pair is the one whose
        models *plus* those offsets are fairest; a terrain whose best such pair is still far
        off is given up.

        Expert players are not checked here. Their imbalance is also one gap between the
        classes, but only about one pair in three that greedy and solitary players find fair is
        fair for them, and their games cost about five greedy ones: screening them too ran 4-seat
        medium runs to the time limit (``bench/README.md``, "Experts in the four-seat class search,
        again"), so the bench reports them instead.
        """
        a, b = (c[0] for c in self.classes)
        if self._ranked is None:
            self._origin = dests = [list(d) for d in self.cand.dests]
            pairs: dict[tuple, tuple[float, float, list[list[int]]]] = {}
            for oa in self._class_options(a, dests):
                for ob in self._class_options(b, dests):
                    trial = self._with(dests, a, oa.dests)
                    trial = self._with(trial, b, ob.dests) if trial is not None else None
                    if trial is None:
                        continue
                    pen = oa.penalty + ob.penalty
                    # the first class's signed distance from fair (the other's follows from it)
                    race_dev = self.modelled(trial)[a] - self.fair
                    # one pair per race among the ways of sharing the same cells (see _cells_of_classes)
                    key = (self._cells_of_classes(trial), round(race_dev, 9))
                    if key not in pairs or pen < pairs[key][1]:
                        pairs[key] = (race_dev, pen, trial)
            self._ranked = list(pairs.values())
            k = len(self.classes[0])
            self._learned = {self.settings.policy: PairOffsets(k, self.fair), "solitary": PairOffsets(k, self.fair)}
        sizes = self._screen_sizes(first)
        while self._tried < SCREEN_PAIRS and self._full < SEARCH_PAIRS:
            if self.should_stop():
                return False
            pick = self._next_pair()
            if pick is None:
                break
            race_dev, solo_dev, trial = pick
            self._tried += 1
            self.cand.dests = trial
            greedy, lone = self._tally(self.settings.policy, seed), self._tally("solitary", seed)
            # solitary players follow the race model alone but meet the others' tokens: checked alongside
            passed, full = self._grow((greedy, lone), {greedy.policy: self._tune_share,
                                                       lone.policy: SOLITARY_SEARCH_SHARE}, sizes)
            self._full += full
            self._learn_class_offsets(trial, greedy, lone)
            worst, lone_worst = self.worst(self.pooled(greedy.rates)), self.worst(self.pooled(lone.rates))
            if full:
                # seats of approximate classes (five seats) can part within a class: kept by their own
                # rates too, each bound with its own noise (a seat's is larger than a class's)
                bound = max(worst, lone_worst) + 2.0 * self._class_se(greedy.played, greedy)
                if self.approximate:
                    seat_worst = max(self.worst(greedy.rates), self.worst(lone.rates))
                    bound = max(bound, seat_worst + 2.0 * seat_se(self.n, greedy.seat_games()))
                self._keep_if_fairest(bound, abs(race_dev) * self._gap_scale())
            lone_note = f", solitary {100 * lone_worst:.1f}" if lone.played else ""
            self._say(f"class search {self._tried}: race model {100 * abs(race_dev):.1f}, solo greedy "
                      f"{100 * abs(solo_dev):.1f}, greedy {100 * worst:.1f}{lone_note} points off on {greedy.played} games")
            if passed:
                return True  # the fairest of several pairs on one seed flatters itself: verified on twice the games
        self.cand.dests = self._origin
        return False

    def _seat_worst(self, first_dev: float, within: list[float]) -> float:
        """The furthest a seat is predicted from fair when the first class is ``first_dev`` from
        it and each seat ``within[seat]`` from its class (all nought for exact classes)."""
        first = self.classes[0]
        second_dev = -first_dev * len(first) / len(self.classes[1])
        return max(abs((first_dev if s in first else second_dev) + within[s]) for s in range(self.n))

    def _within_offsets(self, policy: str) -> list[float]:
        """Per seat, how far its rate is from its class's on this terrain, as the samples so far
        measured it, shrunk towards nought by ``WITHIN_PRIOR_GAMES`` (nought for exact classes).

        Why: the seats of a class on a five-seat board (``Mirror.approximate``) have images of
        the same terrain and destinations but not of the same neighbours: the seats beside the
        empty corner meet fewer tokens. What that does to a seat is mostly the terrain's, much
        the same whichever pair the class search plays (on one 5-seat hard terrain, the first
        seat's solitary players read 2-4 points above its class on every fresh check), so the
        search ranks pairs by every seat's predicted rate, and gives a terrain up when no shift
        of the classes brings its seats near fair; judged by the classes alone, most pairs that
        passed their screens then missed the seat-by-seat fresh check. The shrink keeps one
        screen's noise (0.9 points a seat on 2,100 games) from giving a terrain up."""
        sums, games = self._within.get(policy, (None, 0.0))
        if sums is None or not games:
            return [0.0] * self.n
        return [v / (games + WITHIN_PRIOR_GAMES) for v in sums]

    def _learn_within(self, tally: Tally) -> None:
        """Add a sample's seats' distances from their classes to ``_within`` (approximate classes),
        weighed by the independent games its seats' noise is worth (:meth:`Tally.seat_games`).

        Why not its games: the prior (``WITHIN_PRIOR_GAMES``) is counted in independent games, and a
        sample of cycles of dice tells a seat's distance as well as two to four times as many; counted
        by its games it would be taken for noisier than it is, and a terrain whose seats part would
        be kept for more screens. Side by side on 12 fresh five-seat specs (medium to brutal, seeds
        122701-122704): 1.09x in total, best-effort boards 8 -> 6, seven boards the same."""
        if not self.approximate or not tally.played:
            return
        sums, games = self._within.get(tally.policy, ([0.0] * self.n, 0.0))
        pooled = self.pooled(tally.rates)
        worth = tally.seat_games()  # cycles of dice: the independent games its seats' noise is worth
        self._within[tally.policy] = ([v + (r - p) * worth for v, r, p in zip(sums, tally.rates, pooled)],
                                      games + worth)

    def _gap_scale(self) -> float:
        """How far the class furthest from fair is for each point the first class is off.

        Why: the search ranks pairs by the first class's distance from fair, as the other's
        follows from it; with classes of unequal size (five seats: three and two) the smaller
        class is off by more, since the rates add up to one (three seats 1 point up leave two
        seats 1.5 points down)."""
        first, second = (len(c) for c in self.classes)
        return max(1.0, first / second)

    def _screen_sizes(self, first: int) -> tuple[int, ...]:
        """The steps a screened pair's sample grows by: a glance (``SCREEN_GLANCE``, a multiple of
        the seat count so every seat opens equally often), a sixth, half, all of ``first``.

        Why the glance: most screened pairs are several points off, and the odds rule that drops
        them at a sixth of the games can drop most of those earlier. Measured on the screens of
        40 runs (4 and 6 seats, hard and brutal, seeds 360-369, ``bench/screen_glance.py``): a
        glance at a 24th would have spared 12% (4 seats) and 17% (6 seats) of the screens'
        simulated turns and dropped 2 of 29 and 2 of 39 pairs that passed; counting each lost
        pair at what finding a passing pair cost, 5.5% and 12% net; a glance at a 12th, 6.5% and
        3.2%. Whole runs (which that count cannot see: a pair dropped early teaches the terrain's
        offsets less) gave 4 seats 1.15x-1.19x and 6 seats 0.97x-1.03x in total time, on fresh
        seeds 350-355 side by side and on the grid of seeds 220-229."""
        glance = self.n * math.ceil(first * SCREEN_GLANCE / self.n)
        return glance, _chunked(first / 6, self.n), _chunked(first / 2, self.n), first

    def _next_pair(self) -> tuple[float, float, list[list[int]]] | None:
        """The untried pair whose models, corrected by what this terrain's simulated pairs
        taught (:class:`PairOffsets`), are fairest for both kinds of player: (race model's
        and solo-greedy race's signed distance of the first class from fair, destinations);
        None when even that pair is predicted far off.

        Only pairs the corrected race model calls near-fair get a solo-greedy race (200 solo
        games for each new destination set), and those are remembered for this terrain.
        """
        a, b = (c[0] for c in self.classes)
        lone, greedy = self._learned["solitary"], self._learned[self.settings.policy]
        within = {policy: self._within_offsets(policy) for policy in ("solitary", self.settings.policy)}
        # near fair: the seats no further off than the class search can bring them (for exact classes,
        # the first class within RACE_SHARE)
        near = self.settings.margin * RACE_SHARE + max(map(abs, within["solitary"]))
        kept = []
        for k, (race_dev, pen, trial) in enumerate(self._ranked):
            key_a, key_b = self._pair_keys(trial)
            lone_dev = lone.predict(key_a, key_b, self.fair + race_dev) - self.fair
            if self._seat_worst(lone_dev, within["solitary"]) <= near and self._pair_ok(trial):
                kept.append((k, race_dev, pen, trial, key_a, key_b, lone_dev))
        self.prefetch_solos([(seat, pick[3][seat]) for pick in kept for seat in (a, b)])
        best = None
        alike = set()  # pairs that would play what an earlier screen played (see _models_of)
        for k, race_dev, pen, trial, key_a, key_b, lone_dev in kept:
            if self._models_of(trial) in self._screened_models:
                alike.add(k)
                continue
            solo_dev = self.class_solo_model(trial)[a] - self.fair
            greedy_dev = greedy.predict(key_a, key_b, self.fair + solo_dev) - self.fair
            key = (max(self._seat_worst(lone_dev, within["solitary"]),
                       self._seat_worst(greedy_dev, within[self.settings.policy])), pen, trial)
            if best is None or key < best[0]:
                best = (key, k, race_dev, solo_dev)
        if alike:
            self._ranked = [pair for k, pair in enumerate(self._ranked) if k not in alike]
        if best is None or best[0][0] > self.settings.margin * (SEAT_SHARE if self.approximate else SOLO_SHARE):
            return None
        _, k, race_dev, solo_dev = best
        k -= sum(1 for gone in alike if gone < k)
        trial = self._ranked.pop(k)[2]
        self._screened_models.add(self._models_of(trial))
        return race_dev, solo_dev, trial

    def _models_of(self, dests: list[list[int]]) -> tuple:
        """Every seat's chance in both models (the race model and the solo-greedy race): what
        tells the search which pairs would play alike.

        Why the search skips a pair whose models equal an earlier screened pair's: two cells
        that every token reaches at the same cost in the same turns (next to each other at the
        same height, reached from the same cells) make equivalent destinations, and a pair built
        on one plays, dice for dice, the games the pair built on the other played (traces of
        4 medium 5702: the same screen twice, 0.23 and 1.62 points for both, to the last game).
        The offsets the search learns are per destination, so they never carried over, and such
        a twin ranked first as soon as its original was played: on 12 traced runs of 4 and 6
        seats, 4.5% of the time went on screens, checks and glances of pairs already played
        (side by side on fresh seeds such copies were rarer: 27 of 28 boards unchanged, one found
        sooner). Exact equality of every seat's chance in both models is what these share; pairs that
        differ anywhere in either model are still screened apart."""
        return (tuple(round(p, 12) for p in self.modelled(dests)),
                tuple(round(p, 12) for p in self.class_solo_model(dests)))

    def _cells_of_classes(self, dests: list[list[int]]) -> tuple:
        """Which destination sets each class holds, whichever of its seats holds which.

        Why the class search keeps one pair per value and race: the seats of a class can swap
        their sets (the first seat taking its image's). Where the exact race model cannot tell
        the two boards apart, they played identical games for solitary players, dice for dice,
        and greedy players read them within the noise of a screening (0.0-0.1 points apart on
        three screened twins, 0.8 on one more 1,200-game sample), so screening both spent a
        second simulation on what the first had measured; on one 4-seat hard terrain a quarter
        of the screened pairs were such swaps."""
        return tuple(tuple(sorted(tuple(dests[s]) for s in c)) for c in self.classes)

    def _pair_keys(self, dests: list[list[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The destinations of each class's first seat: what names a pair of the class search."""
        a, b = (c[0] for c in self.classes)
        return tuple(dests[a]), tuple(dests[b])

    def _pair_ok(self, dests: list[list[int]]) -> bool:
        """:meth:`_cross_ok` for a pair of the class search, remembered for this terrain."""
        key = ("pair", *map(tuple, dests))
        if key not in self._ok:
            self._ok[key] = self._cross_ok(dests, [self.turns(s, d) for s, d in enumerate(dests)])
        return self._ok[key]

    def _learn_class_offsets(self, dests: list[list[int]], *tallies: Tally) -> None:
        """Teach this terrain's offsets what simulated games measured beyond the models (the
        first class's pooled rate against the solo-greedy race for the tuned players, against
        the race model for solitary players)."""
        a = self.classes[0][0]
        key_a, key_b = self._pair_keys(dests)
        for tally in tallies:
            seen = self._learned.get(tally.policy)
            if seen is None or not tally.played:
                continue
            self._learn_within(tally)
            model = self.modelled if tally.policy == "solitary" else self.class_solo_model
            # twin pairs tell as much as more independent games would (Tally.noise_factor)
            seen.add(key_a, key_b, self.pooled(tally.rates)[a], model(dests)[a], tally.played / tally.noise_factor())

    def class_solo_model(self, dests: list[list[int]]) -> list[float]:
        """:meth:`solo_model` for a board of symmetric classes: a seat's solo games are those
        of its class's first seat turned or mirrored (the same dice give the same game), so
        only one seat per class is played. Remembered per state like the other models: the
        search asks it for every near-fair pair each time it picks the next one (7,500 races
        combined on one five-seat medium run, 1.5 s of its main process)."""
        reps = {s: c[0] for c in self.classes for s in c}
        return self._race_wins("class solo", lambda s, _: self.solo(reps[s], dests[reps[s]]), dests)

    def _class_limit(self, share: float, games: int, tally: Tally | None = None) -> float:
        """How far a screened class's pooled rate may be from fair: ``share`` of the margin, or
        ``SCREEN_NOISE`` times the noise of ``games`` games when that is larger (it is, at the
        screens' sizes: 1.5 points on 2,400 games of 4 seats).

        Why three standard errors, not two: a screen only picks what the fresh check plays,
        and that check judges the board on dice no step has seen, growing in steps and ending
        a clear miss after a quarter of its games. With two, a pair measuring a little outside
        the limit on the screen's one seed was dropped, and often the terrain with it when no
        untried pair was predicted near fair, though its true gap could pass the fresh check;
        brutal terrains were given up after a dozen such screens. Side by side with two on 60
        fresh specs (``bench/README.md``, "The screens' limit: three standard errors"), three
        made 4 seats 1.05x and 6 seats 1.38x faster in total, with lower medians; three and a
        half gave no more against three (1.08x, 0.91x). The fresh checks, and so what a board
        must pass, are unchanged. The noise is that of ``tally``'s games (twin pairs have less)."""
        return max(self.settings.margin * share, SCREEN_NOISE * self._class_se(games, tally))

    def _grow(self, tallies: tuple[Tally, ...], shares: dict[str, float],
              sizes: tuple[int, ...]) -> tuple[bool, bool]:
        """Grow each tally size by size on the current board; it fails at the first size where a
        tally's pooled rate is outside its policy's limit (:meth:`_class_limit` with its share,
        at its last size), or where the odds that it ends inside are below ``SCREEN_FUTILITY``
        (:func:`screen_pass_odds`): a board far off is dropped after a fraction of the games.
        Returns (passed, whether the first tally reached its last size).

        A twin sample's sizes after the look that showed its noise shrink to as many games as
        give the noise the screen was planned for (:meth:`_sized_by_noise`), each tally its own."""
        layout = self.to_layout(self.cand)
        final = sizes[-1]
        scaled: dict[int, int] = {}  # per tally (by place): its last size, once its noise is known

        def first_done() -> bool:
            return tallies[0].played >= scaled.get(0, final)

        for size in sizes:
            for k, tally in enumerate(tallies):
                last = scaled.get(k, final)
                step = size if k not in scaled else max(tally.played, _chunked(size * last / final, self.n))
                self.play(layout, tally, min(step, last))
                if k not in scaled:
                    sized = self._sized_by_noise(final, tally)
                    if sized < final:
                        scaled[k] = last = max(tally.played, sized)
                measured = self.worst(self.pooled(tally.rates))
                limit = self._class_limit(shares[tally.policy], last, tally)
                if self._seats_plainly_off(tally, tally.played >= last):
                    return False, first_done()
                if tally.played >= last:
                    if measured > limit:
                        return False, first_done()
                elif screen_pass_odds(measured, limit, tally.played, last,
                                      self._class_se(tally.played, tally)) < SCREEN_FUTILITY:
                    return False, first_done()
        return True, True

    def _seats_plainly_off(self, tally: Tally, last: bool) -> bool:
        """Approximate classes (five seats): whether a seat of the screened pair is further from
        fair than its fresh check allows by more than ``SEAT_SCREEN_NOISE`` times the noise of one
        seat's rate on the games played (at the screen's ``last`` size; before it, ``SCREEN_NOISE``
        times: on a glance of 90 games a fair seat's rate has 4 points of noise, and with five
        seats one of them reads past one standard error half the time).

        Why: the screen judges the classes' pooled rates, which cannot see a seat beside the empty
        corner parting from its class; the fresh check that follows goes seat by seat on two to
        eight times the screen's games, and a traced five-seat hard run spent most of its checks on
        pairs whose screens already showed a seat 2.7-5 points off.

        At the last size a pair is also dropped when its seats are clearly short of what one
        default ``terragen simulate`` run needs (:func:`clearly_short`, the rule a fresh check stops
        early by), each seat's noise that of the games its cycles of dice are worth: such a pair's
        check stops at its first look anyway (a traced hard run sent three in a row, 2.9-3.3 points
        off a seat, whose screens read their classes within a point). Side by side on 12 fresh
        five-seat specs (medium and hard, 123101-123106): 1.08x in total, 11 boards the same."""
        if not self.approximate:
            return False
        share = dict(self.settings.check_order()).get(tally.policy)
        if share is None:
            return False
        noise = SEAT_SCREEN_NOISE if last else SCREEN_NOISE
        allowed = self.settings.margin * share + noise * seat_se(self.n, tally.seat_games())
        if last and clearly_short(tally.rates, tally.seat_games(), self.settings.margin):
            return True
        return self.worst(tally.rates) > allowed

    def _class_options(self, seat: int, dests: list[list[int]]) -> list[SeatOption]:
        """The seat's destination sets one move away that meet the spec on their own."""
        return [o for o in self.options(seat, dests) if self._meets_spec(seat, o)]
