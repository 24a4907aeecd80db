"""Many games on one layout: seeding, worker processes, the report and the verdict.

Game ``i`` gets its own generators derived from ``(seed, i)`` alone, so the
numbers do not depend on how games are split between processes.
"""

from __future__ import annotations

import contextlib
import gc
import math
import numbers
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from terragen.errors import SpecError, TerragenError
from terragen.limits import MAX_PLAY_GAMES
from terragen.terrain.layout import Layout
from terragen.terrain.paths import reachable
from terragen.terrain.sim.engine import GameResult, IllegalChoice, decides_by_board, play_game, play_game_on
from terragen.terrain.sim.policies import failed_plugin, load_policy, parse_policies
from terragen.terrain.sim.state import GameSetup, GameState, setup_from_layout
from terragen.terrain.sim.stats import SeatStats, SimulationReport, mean_and_stderr, off_margin, percentile, points_text
from terragen.terrain.sim.variants import Rules

if TYPE_CHECKING:
    from terragen.terrain.sim.cache import BoardCache
    from terragen.terrain.sim.pool import GamePool

DEFAULT_MARGIN = 0.025  # BALANCED: every seat within 2.5 points of its fair share
NOISE_SHARE = 1 / 7  # default games: a fair seat's standard error at most a seventh of the margin
FINISH_SHARE = 0.99
CHUNK = 25  # games per work item: small enough for a smooth progress bar


def game_rngs(seed: int, index: int) -> tuple[random.Random, random.Random]:
    """(policy generator, dice generator) for game ``index`` of a run seeded ``seed``."""
    return policy_rng(seed, index), dice_rng(seed, index)


def policy_rng(seed: int, index: int) -> random.Random:
    """The generator game ``index`` of a run seeded ``seed`` feeds its players."""
    return random.Random(f"terragen-sim/{seed}/{index}/policy")


def dice_rng(seed: int, index: int) -> random.Random:
    """The dice generator of game ``index`` of a run seeded ``seed``."""
    return random.Random(f"terragen-sim/{seed}/{index}/dice")


#: The policy generator of a game whose players draw no numbers (greedy and solitary players, whose
#: every answer the board decides): seeding game ``i``'s own costs about 8 µs, a tenth of a short
#: solitary game, for a generator nothing reads. Sharing this one changes no game.
_UNREAD = random.Random("terragen-sim/unread")


def run_games(layout: Layout, rules: Rules, policy_specs: Sequence, seed: int, start: int, stop: int,
              twins: Sequence[int] | None = None, cycle: bool = False) -> list[GameResult]:
    """Games ``start..stop-1``; a top-level function so worker processes can run it.

    ``twins`` (see :func:`check_twins`) plays twin pairs: games ``2j`` and ``2j+1`` are pair
    ``j``, the second dealing each seat's rolls to the seat ``twins`` pairs it with
    (:class:`~terragen.terrain.sim.dice.PairedDice`), and opened by that seat. ``cycle`` plays
    cycles of dice instead (:func:`cycle_dice`): games ``nj..nj+n-1`` share ``n`` streams of
    rolls, handed out by place in the order of play.
    """
    setup, template = _setup_and_tables(layout, rules)
    policies = [load_policy(p) if isinstance(p, str) else p for p in policy_specs]
    out: list[GameResult] = []
    try:
        _play_games(out, rules, policies, seed, start, stop, twins, setup, template, cycle)
    except (Exception, SystemExit) as exc:  # a plug-in player's fault is the user's to fix: exit 2, never 70
        culprit = None if isinstance(exc, TerragenError) else failed_plugin(exc, policy_specs, policies)
        if culprit is None:
            raise
        how = exc.what if isinstance(exc, IllegalChoice) else f"failed during a game: {type(exc).__name__}: {exc}"
        raise SpecError(f"policy {culprit} {how}") from None
    return out


def _play_games(out: list[GameResult], rules: Rules, policies: list, seed: int, start: int, stop: int,
                twins: Sequence[int] | None, setup: GameSetup, template: BoardCache, cycle: bool = False) -> None:
    """:func:`run_games`' loop, appending to ``out``."""
    from terragen.terrain.sim.dice import PairedDice, RandomDice, pair_blocks

    draws = not all(decides_by_board(p) for p in policies)
    n = setup.players
    couples = check_twins(twins, n, rules) if twins is not None else []
    if cycle:
        check_cycle(twins, rules)
    blocks: tuple[int, list[bytes]] = (-1, [])  # the last pair's first blocks: its twin reads them too
    plain: tuple[GameState, Callable] | None = None  # the run's reused state and loop, once it has one
    with cycle_collector_paused():
        for i in range(start, stop):
            prng = policy_rng(seed, i) if draws else _UNREAD
            if cycle:
                block, k = divmod(i, n)
                first = k if rules.rotate_start else 0
                order = [(first + m) % n for m in range(n)]
                if blocks[0] != block:
                    blocks = (block, pair_blocks(seed, block, n))
                dice = PairedDice(seed, block, cycle_dice(k, n), order, blocks[1])
            elif twins is None:
                first = i % n if rules.rotate_start else 0
                order = [(first + k) % n for k in range(n)]
                dice = RandomDice(dice_rng(seed, i))
            else:
                pair, second = divmod(i, 2)
                first = couples[pair % len(couples)][second] if rules.rotate_start else 0
                order = [(first + k) % n for k in range(n)]
                if blocks[0] != pair:
                    blocks = (pair, pair_blocks(seed, pair, n))
                dice = PairedDice(seed, pair, twins if second else None, order, blocks[1])
            if draws:
                out.append(play_game(setup, rules, policies, prng, dice, first_seat=first, template=template))
                continue
            if plain is None:
                plain = _plain_loop(setup, rules, policies, template)
            else:
                plain[0].restart()
            state, play = plain
            out.append(play(dice, order) if play is not None else play_game_on(state, policies, dice, order))


def _plain_loop(setup: GameSetup, rules: Rules, policies: list, template: BoardCache) -> tuple[GameState, Callable | None]:
    """A fresh game of ``setup`` for a run's games of players who draw no numbers, and the loop
    that plays it (:func:`~terragen.terrain.sim.plain_game.plain_game_player`), or None when
    the game is not one it plays (the engine's turns then play it): made once per run, the state
    made fresh again for each next game (:meth:`GameState.restart`)."""
    from terragen.terrain.sim.plain_game import plain_game_player, plays_plainly

    state = GameState.new(setup, rules, _UNREAD, template)
    return state, plain_game_player(state, policies, rules.turn_cap) if plays_plainly(state, policies) else None


@contextlib.contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Python's cycle collector off while games are played, as it was before afterwards.

    Why: games allocate containers by the hundred thousand (every new board state's tables), so
    the collector ran thousands of times a screen, its passes walking every table the run keeps,
    and games make no reference cycles for it to find: the kept board states' links are cut by
    :meth:`~terragen.terrain.sim.cache.BoardCache.release` when the run's board is dropped, and
    greedy, solitary, expert and random players leave none (``tests/terrain/sim/test_sim_memory.py``).
    Reference counting frees everything else as before.

    On the way out, what the games left alive (mostly the run's tables, kept for its next games)
    is moved straight to the collector's oldest generation (a freeze and an unfreeze, two list
    splices) instead of being walked by the next young-generation pass and the one after: those
    two passes were 0.8 s of a five-seat hard run's 12.5 s of screens. Cycles made elsewhere are
    still found, at the next full collection. Not done when the process keeps frozen objects of
    its own (a server that froze its start-up state before forking): an unfreeze would undo that.
    The collector is the whole process's: a program that plays games in one thread while others
    make cyclic garbage has that garbage collected after the run (the web page plays its games in
    job processes of their own).
    Measured on the recorded screens of a five-seat hard and a six-seat brutal run, played in one
    process: 1.13x and 1.15x, the same games (``bench/cycle_collector.py``). Another thread's run
    on another board releases this one's kept states (one board's tables are kept per process):
    its games then work their tables out again, the same values, only slower."""
    was_on = gc.isenabled()
    promote = gc.get_freeze_count() == 0
    gc.disable()
    try:
        yield
    finally:
        if promote:
            gc.freeze()
            gc.unfreeze()
        if was_on:
            gc.enable()


def check_twins(twins: Sequence[int], seats: int, rules: Rules) -> list[tuple[int, int]]:
    """The couples of seats (``a``, ``twins[a]``, ``a`` the smaller) that twin games swap dice
    between; SpecError unless ``twins`` pairs every seat with another (``twins[twins[a]] == a``)
    under rules where every seat rolls once a round (no teams, no green die).

    Why couples open: pair ``j`` is opened by the first seat of couple ``j mod (seats / 2)`` and its
    twin by the second, so every seat opens once in every ``seats`` games, as in independent games.
    """
    if len(twins) != seats or sorted(twins) != list(range(seats)) or any(
            twins[twins[a]] != a or twins[a] == a for a in range(seats)):
        raise SpecError(f"twin dice must pair each of the {seats} seats with another, got {list(twins)}")
    if rules.teams or rules.green:
        raise SpecError("twin dice need rules where every seat rolls once a round (no teams, no green die)")
    return [(a, twins[a]) for a in range(seats) if a < twins[a]]


def cycle_dice(k: int, seats: int) -> list[int]:
    """Which stream of its cycle each seat rolls in game ``k`` of the cycle (``k`` also opens it,
    where the opener rotates): the ``m``-th seat to play rolls stream ``m``.

    Why cycles: a seat's chance to win is mostly its own dice and its place in the order of play.
    Over a cycle of ``seats`` games every seat rolls every stream once, each time from the place
    in the order that stream always has, so a stream of lucky rolls wins about one game for every
    seat instead of several for one. Each game on its own is an ordinary fair game (fresh,
    independent streams), so every seat's rate is measured without bias, and with far less noise
    than as many independent games: 2.3 to 4.5 times as many on three five-seat boards, greedy
    and solitary players; 1.5 to 3.6 times for experts (``bench/cycle_dice.py``). What that noise
    is, each sample works out from its cycles (:class:`~terragen.terrain.generate.fresh_checks.Tally`).
    Not for classes of seats that a turn maps onto each other exactly: there games of one cycle
    repeat each other turned, and a class's pooled rate is measured worse than by independent games
    (twin pairs are what those use)."""
    return [(s - k) % seats for s in range(seats)]


def check_cycle(twins: Sequence[int] | None, rules: Rules) -> None:
    """SpecError unless cycles of dice can be played: not with twin pairs too, and only under
    rules where every seat rolls once a round (no teams, no green die)."""
    if twins is not None:
        raise SpecError("cycles of dice and twin dice are two ways to deal the rolls: choose one")
    if rules.teams or rules.green:
        raise SpecError("cycles of dice need rules where every seat rolls once a round (no teams, no green die)")


def seat_numbers(layout: Layout) -> list[int]:
    """The seat numbers the file gives its players, in the simulator's seat order."""
    return sorted(p.seat for p in layout.players)


def parse_twins(text: str, seat_numbers: Sequence[int]) -> list[int]:
    """``"0-1,2-3"`` (seat numbers as the board names them, couples joined by ``-``) as a list
    ``twins`` with ``twins[s]`` the seat index paired with seat index ``s``."""
    index = {num: k for k, num in enumerate(seat_numbers)}
    twins = [-1] * len(seat_numbers)
    for part in text.split(","):
        bits = part.strip().split("-")
        try:
            a, b = (index[int(x)] for x in bits)
        except (ValueError, KeyError):
            raise SpecError(f"--twin-dice: {part.strip()!r} is not two of the board's seats joined by '-' "
                            f"(seats {', '.join(map(str, seat_numbers))})") from None
        if a == b:
            raise SpecError(f"--twin-dice: {part.strip()!r} pairs a seat with itself")
        if twins[a] != -1 or twins[b] != -1:
            raise SpecError(f"--twin-dice: a seat of {part.strip()!r} is paired twice")
        twins[a], twins[b] = b, a
    if -1 in twins:
        raise SpecError(f"--twin-dice must pair every seat ({', '.join(map(str, seat_numbers))})")
    return twins


def format_twins(twins: Sequence[int], seat_numbers: Sequence[int]) -> str:
    """The inverse of :func:`parse_twins`: ``"0-1,2-3"``."""
    return ",".join(f"{seat_numbers[a]}-{seat_numbers[b]}" for a, b in enumerate(twins) if a < b)


_LAST_SETUP: list = []  # [(key, setup, template)]: the board this process played last


def _setup_and_tables(layout: Layout, rules: Rules) -> tuple[GameSetup, object]:
    """The game setup and the run's shared tables, kept while a process plays chunks of one board.

    Tables of board states found by earlier chunks are the same for later ones,
    so a run keeps them (only for the last board played, to bound memory).
    """
    from terragen.terrain.sim.cache import BoardCache

    key = (rules, layout.radius,
           tuple((c.q, c.r, c.level, c.pattern, c.rotation, c.inverted) for c in layout.cells),
           tuple((p.seat, p.corner, tuple(d.hex for d in p.destinations)) for p in layout.players))
    if _LAST_SETUP and _LAST_SETUP[0][0] == key:
        return _LAST_SETUP[0][1], _LAST_SETUP[0][2]
    forget_tables()
    setup = setup_from_layout(layout, rules)
    template = BoardCache(setup.board, pips=rules.uses_pips)
    _LAST_SETUP[:] = [(key, setup, template)]
    return setup, template


def forget_tables() -> None:
    """Drop the tables kept from the last board played (benchmarks use it to start cold)."""
    if _LAST_SETUP:
        _LAST_SETUP[0][2].release()
    _LAST_SETUP.clear()


def default_games(sides: int, margin: float = DEFAULT_MARGIN, seats: int | None = None) -> int:
    """Games enough that a fair seat's win rate has a standard error of at most a seventh of ``margin``.

    With fair share ``p = 1/sides`` that is ``p(1-p)/N <= (margin/7)^2``: 19600 games for
    2 sides, 17424 for 3, 14700 for 4, 12545 for 5 and 10890 for 6 at the default 2.5 points,
    rounded up to a multiple of ``seats`` so that every seat opens equally often.

    Why a seventh (a third would do for a fair seat alone): a balanced board is one whose
    seats are *within* the margin, not exactly fair, and the verdict should be about the
    board, not the dice. A four-seat board whose seats are 1 point off (well inside 2.5) is
    called NOT BALANCED in 1 run of 7 with a third, 1 of 31 with a quarter (the default until
    2026-11-27), 1 of 185 with a fifth (until 2026-11-28) and about never with a seventh; a
    seat 2.5 points off is still caught half the time. It is also what the generator's
    promise (one default run says BALANCED 99 times in 100) is worked out against: the less
    noise here, the further from exact fairness a board may be and still keep it (a 4-seat
    board's classes 1.50 points instead of 1.10), so boards are found sooner. The games cost
    about a second for greedy players on a 4-seat board (experts about six times that; 2026-12-03).
    """
    from terragen.actions import whole_number

    if (whole_number(sides) or 0) < 1:  # (numpy's integers are whole numbers too)
        raise ValueError(f"sides is how many seats (or teams) share the wins, 1 or more, not {sides!r}")
    if sides < 2:
        return 400  # nothing to balance: enough games to see whether they finish
    if not 0 < margin <= 1:
        raise SpecError("--margin must be above 0 and at most 1")
    p = 1.0 / sides
    need = math.ceil(p * (1 - p) / (margin * NOISE_SHARE) ** 2 - 1e-9)
    k = seats or sides
    return -(-need // k) * k


def unreachable_targets(setup: GameSetup) -> list[str]:
    """Targets that no path can reach from their seat's start with pips ignored (the rulebook's test)."""
    out = []
    b = setup.board
    for s, start in enumerate(setup.starts):
        seen = reachable(b, start, pips=False)
        for grp in setup.groups[s]:
            if not seen.intersection(grp):
                what = "the board's edge" if len(grp) > 1 else "destination ({},{})".format(*b.hexes[grp[0]])
                out.append(f"seat {s} cannot reach {what} even ignoring pips")
    return out


#: The same ceiling as the other games' ``play``: past it the 95% intervals stop narrowing usefully,
#: and the chunk list of an absurd count would fill memory before the first game.
MAX_GAMES = MAX_PLAY_GAMES


def _check_arguments(games: object, seed: object, rules: object, workers: object, margin: object) -> None:
    """A library caller's wrong types, said at the door: a str for games failed deep in the runner,
    a dict for rules as an AttributeError, and a seed of None or 1.5 was taken (None giving other
    dice on every run), as was a seed the command refuses (-1) or a number of workers it refuses
    (24 on a two-core machine started 24 processes)."""
    from terragen.actions import whole_number
    from terragen.arguments import check_seed
    from terragen.process_pool import worker_count

    if games is not None and whole_number(games) is None:
        raise TypeError(f"games is a whole number (or None for the default), not {games!r}")
    check_seed(seed)
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError("rules is a Rules (terragen.terrain.sim.variants.rules_from_names(['green'], players) "
                        f"makes one), not {type(rules).__name__}")
    if workers is not None:
        if whole_number(workers) is None:
            raise TypeError(f"workers is a whole number (0: one per CPU core), not {workers!r}")
        worker_count(workers, "workers")  # the command's own rule for --workers
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
        raise TypeError(f"margin is a number above 0 and at most 1, not {margin!r}")


def _policy_specs(policy: object, n: int) -> list:
    """One name or player object per seat, from what ``simulate_layout`` takes as ``policy``. Each
    must be a name or have ``choose_move``: a None failed in the first game as an AttributeError."""
    if isinstance(policy, str):
        specs = parse_policies(policy, n)
    elif hasattr(policy, "choose_move"):  # one player object for every seat, as one name is
        specs = [policy] * n
    else:
        try:
            specs = list(policy)  # type: ignore[call-overload]
        except TypeError:
            raise TypeError("policy is a name, a player object or one of them per seat, "
                            f"not {type(policy).__name__}") from None
    if len(specs) != n:
        raise SpecError(f"{len(specs)} policies given for {n} seats")
    for s in specs:
        if isinstance(s, str):
            load_policy(s)  # fail early, in this process, with a clear message
        elif not callable(getattr(s, "choose_move", None)):
            raise TypeError(f"policy: each seat's is a name or a player object with choose_move, not {s!r}")
    return specs


def simulate_layout(
    layout: Layout,
    games: int | None = None,
    seed: int = 0,
    policy: str | Sequence = "greedy",
    rules: Rules | None = None,
    workers: int = 1,
    margin: float = DEFAULT_MARGIN,
    progress: Callable[[int, int], None] | None = None,
    pool: GamePool | None = None,
    should_stop: Callable[[], bool] | None = None,
    source: str | None = None,
    twins: Sequence[int] | None = None,
    cycle: bool = False,
) -> SimulationReport:
    """Play ``games`` games of ``layout`` and judge it; the generator's playability gate.

    ``policy`` is one name (random, greedy, solitary, expert, or ``module:Class``) for every
    seat, a comma list, or a sequence with one name or policy object per seat
    (objects must be picklable when ``workers`` > 1). The report's ``playable`` is true when every target can
    be reached ignoring pips and at least 99% of games finish under the turn cap;
    its ``balanced`` when no seat's win rate is further than ``margin`` from a fair
    share. ``games`` defaults to :func:`default_games` for the seats (or teams) at hand.
    A caller that simulates many times passes its own ``pool`` (``workers`` is then
    ignored) and may pass ``should_stop``, asked between batches of games (raises
    ``pool.Stopped``). ``source`` (a file name) starts the message of a layout the game cannot
    be set up on, such as a destination off the board. ``twins`` plays twin pairs of games
    (:func:`run_games`; an even number of games), as the generator's class samples do, so a
    board's record can be replayed; ``cycle`` plays cycles of dice (:func:`cycle_dice`; a multiple
    of the seat count), as the generator's seat-by-seat samples do. The report's intervals still
    count the games as independent.
    With ``workers`` > 1 a script must make the call under ``if __name__ == "__main__":``: the
    worker processes start by importing it.
    """
    from terragen.terrain.layout import require_layout

    require_layout(layout, "simulate_layout")
    _check_arguments(games, seed, rules, workers, margin)
    rules = rules or Rules()
    if pool is None and workers == 0:  # one per core, as the command's --workers 0
        import os

        workers = os.cpu_count() or 1
    if not 0 < margin <= 1:
        raise SpecError("margin must be above 0 and at most 1")
    from terragen.terrain.validation import check_game_shape

    check_game_shape(layout, source or "the layout")
    try:
        setup = setup_from_layout(layout, rules)
    except SpecError as exc:
        if source is None:
            raise
        from terragen.errors import InputError

        raise InputError(f"{source}: {exc.message} (terragen validate lists every problem)") from None
    n = setup.players
    chosen = games is not None
    reliable = default_games(len(rules.teams) if rules.teams else n, margin, n)
    if games is None:
        games = reliable
    if not 1 <= games <= MAX_GAMES:
        why = "" if chosen else f" (the default for a margin of {margin:g}; give a wider margin or fewer games)"
        raise SpecError(f"games must be 1–{MAX_GAMES} (got {games}){why}")
    specs = _policy_specs(policy, n)
    if twins is not None:
        check_twins(twins, n, rules)
        if games % 2:
            raise SpecError(f"games must be even with twin dice (games come in pairs), got {games}")
    if cycle:
        check_cycle(twins, rules)
        if games % n:
            raise SpecError(f"games must be a multiple of the {n} seats with cycles of dice, got {games}")
    unreachable = unreachable_targets(setup)
    results: list[GameResult] = []
    if not unreachable:
        from terragen.terrain.sim.pool import GamePool

        def step(done: int) -> None:
            if progress:
                progress(done, games)

        with contextlib.nullcontext(pool) if pool is not None else GamePool(workers) as games_pool:
            results = games_pool.run(layout, rules, specs, seed, 0, games, should_stop, step, twins, cycle=cycle)
    names = [s if isinstance(s, str) else getattr(s, "name", type(s).__name__) for s in specs]
    numbers = seat_numbers(layout)
    report = build_report(results, games, seed, rules, names, margin, unreachable, numbers)
    if twins is not None:
        report.twin_dice = format_twins(twins, numbers)
    report.cycle_dice = cycle
    report.reliable_games = reliable
    return report


def build_report(results: list[GameResult], games: int, seed: int, rules: Rules, specs: list[str],
                 margin: float, unreachable: list[str], seat_numbers: Sequence[int] | None = None) -> SimulationReport:
    """The report of finished games: win rates with Wilson intervals, turns, events and the two
    verdicts. Apart from playing so that games played elsewhere (worker processes, a Dask
    cluster, a saved run) are judged exactly as a local run's."""
    n = len(specs)
    wins = [0] * n
    for r in results:
        for s in r.winners:
            wins[s] += 1
    sides = len(rules.teams) if rules.teams else n
    fair = 1.0 / sides
    played = len(results)
    labels = list(seat_numbers) if seat_numbers is not None else list(range(n))  # the seats the file names
    seats = [SeatStats(labels[s], specs[s], wins[s], played, fair) for s in range(n)]
    lengths = sorted(r.turns for r in results if not r.capped)
    mean, _ = mean_and_stderr(lengths)
    turns = {"mean": mean, "median": percentile(lengths, 50), "p90": percentile(lengths, 90),
             "max": float(lengths[-1]) if lengths else float("nan")}
    capped = sum(1 for r in results if r.capped)

    def per_game(attr: str) -> float:
        return sum(getattr(r, attr) for r in results) / played if played else 0.0

    reasons = list(unreachable)
    balance: list[str] = []
    if played:
        if (played - capped) / played < FINISH_SHARE:
            reasons.append(cap_reason(capped / played, rules))
        if n > 1:
            for st in seats:
                if off_margin(st.rate - fair, margin):
                    lo, hi = st.interval
                    balance.append(f"seat {st.seat} wins {st.rate:.1%} of games (95% interval {lo:.1%}-{hi:.1%}), "
                                   f"{points_text(abs(st.rate - fair), margin)} points {'above' if st.rate > fair else 'below'} "
                                   f"a fair {fair:.1%}")
    elif n > 1:
        balance.append("no game was played")
    return SimulationReport(
        games=games, seed=seed, variant=rules.describe(), policies=specs, seats=seats, finished=len(lengths),
        turns=turns, capped_share=capped / played if played else 0.0,
        rotations_per_game=per_game("rotations"), inversions_per_game=per_game("inversions"),
        send_backs_per_game=per_game("send_backs"), forfeits_per_game=per_game("forfeits"),
        turn_cap=rules.turn_cap, margin=margin, unreachable=unreachable, reasons=reasons, balance_reasons=balance,
        played=played,
    )


def cap_reason(share: float, rules: Rules) -> str:
    """Why too many games reached the turn cap, for the PLAYABLE verdict.

    Why teams of three or more are named: the distance rule binds them most, and their simulated
    partners, though a team of three plans as one when it stalls (teams of four or more as pairs), still
    stand for good in some games on some boards (up to 10% on a fresh hard board, against 97% before they
    planned as one: ``bench/README.md``, "Team play: a joint plan for teams of three"). The verdict
    then says more about the simulated players than about the board, and the user should be told so."""
    text = f"{share:.1%} of games hit the {rules.turn_cap}-round cap (at most {1 - FINISH_SHARE:.0%} allowed)"
    if any(len(team) >= 3 for team in rules.teams):
        text += ("; in teams of three or more the simulated partners can still stand for good where the distance "
                 "rule and the pips hold them, so this says more about them than about the board "
                 "(docs/simulate.md, team play)")
    return text


def win_rates(layout: Layout, games: int, seed: int, policy: str | Sequence = "greedy", rules: Rules | None = None,
              workers: int = 1, twins: Sequence[int] | None = None, cycle: bool = False) -> tuple[float, ...]:
    """Each seat's share of ``games`` games won (seat order), for callers that judge balance themselves.

    The same games as :func:`simulate_layout` with the same arguments (game ``i``
    depends on ``seed`` and ``i`` only); capped games count for nobody. All zeros
    when some target cannot be reached at all.
    """
    report = simulate_layout(layout, games=games, seed=seed, policy=policy, rules=rules, workers=workers, margin=1.0,
                             twins=twins, cycle=cycle)
    return tuple(s.rate for s in report.seats)


def replay_check(layout: Layout, record: dict) -> tuple[float, ...]:
    """The per-seat rates of a check the generator recorded in ``meta.balance`` (its games,
    seed and kind of player, and its twin dice or cycles of dice when it played them), played again."""
    twins = parse_twins(record["twin_dice"], seat_numbers(layout)) if record.get("twin_dice") else None
    return win_rates(layout, record["games"], record["seed"], record["policy"], twins=twins,
                     cycle=bool(record.get("cycle_dice")))
