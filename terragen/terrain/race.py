"""The race model: each seat's exact finishing-round distribution, and who wins the race.

Expected turns say how long a token needs on average; a race is decided by the
whole distribution. Here each seat's token plays alone, by the policy the exact
expected-turns value defines (every roll, move to the reachable cell whose
remaining expected turns are lowest; a double loses the turn; rotations are
ignored). Its state is (cell, destinations collected), so it is a Markov chain
with a few hundred states at most. We push the exact probability distribution
through that chain one round at a time and record ``F(t)``, the chance that
the token has collected everything by the end of round ``t``, until less than
``tail`` of the mass is still on its way.

Seats move in seat order within a round, so with independent tokens seat ``i``
wins in round ``t`` when it finishes then, every earlier seat is still out at
the end of round ``t`` and every later seat was still out at the end of round
``t - 1``. Interactions between tokens (send-backs, blocking) and rotations are
not modelled: the simulator measures those.

The policy's ties are broken by (remaining expected turns, movement points
spent, cell index), staying put counting as 0 points; the simulator's
``solitary`` player uses :func:`solitary_choice` so it plays the same moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from terragen.terrain import expected
from terragen.terrain.board import Board
from terragen.terrain.frames import seat_ranks
from terragen.terrain.expected import expected_turns_table, near_sources
from terragen.terrain.layout import Layout
from terragen.terrain.rules import MAX_BUDGET, budget_counts
from terragen.terrain.work_meter import COSTS, charge

MAX_ROUNDS = 100_000  # a guard only: even a 2-in-36 bottleneck leaves < 1e-9 after ~400 rounds
_BLOCK = 16  # rounds advanced per matrix product (see _propagate)


@dataclass(frozen=True)
class SeatRace:
    """One seat's token alone: when it finishes."""

    seat: int
    cdf: tuple[float, ...]  # cdf[t] = P(finished by the end of round t); cdf[0] = 0
    expected_rounds: float  # sum over t of (1 - cdf[t]); inf when the token cannot finish

    def quantile(self, p: float) -> int:
        """The smallest round ``t`` with ``cdf[t] >= p`` (-1 when the horizon never gets there)."""
        for t, f in enumerate(self.cdf):
            if f >= p:
                return t
        return -1

    def at(self, t: int) -> float:
        """``cdf[t]``, extended past the horizon by its last value."""
        if t < len(self.cdf):
            return self.cdf[t]
        return self.cdf[-1]


@dataclass(frozen=True)
class RaceResult:
    """Every seat's finishing distribution and the chance each wins the race of independent tokens."""

    seats: tuple[SeatRace, ...]  # in seat (turn) order
    win_probability: tuple[float, ...]  # seat order as given opens every round
    horizon: int
    win_probability_rotating: tuple[float, ...] = ()  # averaged over every seat opening in turn

    def max_deviation(self, rotating: bool = False) -> float:
        """Largest distance of a seat's win probability from a fair 1/n (a fraction)."""
        probs = self.win_probability_rotating if rotating else self.win_probability
        n = len(probs)
        return max((abs(p - 1.0 / n) for p in probs), default=0.0)


def forward_reach(board: Board, near: Sequence[Sequence[tuple[int, int]]] | None = None) -> list[list[tuple[int, int]]]:
    """For every cell p: the cells q it reaches with 1..6 good-weather points, as (q, cost), cheapest first.

    Built from :func:`terragen.terrain.expected.near_sources` (the same table
    turned around), so the race and the expected-turns solve agree on every move.
    """
    near = near if near is not None else near_sources(board)
    fwd: list[list[tuple[int, int]]] = [[] for _ in range(len(board))]
    for q, srcs in enumerate(near):
        for p, c in srcs:
            fwd[p].append((q, c))
    for lst in fwd:
        lst.sort(key=lambda qc: (qc[1], qc[0]))
    return fwd


_LAST_FORWARD: list = []  # [(near, fwd)]: a caller passing the same near table again reuses fwd


def _forward_for(board: Board, near: Sequence[Sequence[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    if _LAST_FORWARD and _LAST_FORWARD[0][0] is near:
        return _LAST_FORWARD[0][1]
    fwd = forward_reach(board, near)
    _LAST_FORWARD[:] = [(near, fwd)]
    return fwd


def solitary_choice(options: Mapping[int, int], here: int, value_of, rank: Sequence[int] | None = None) -> int:
    """The end cell a lone optimal token picks: lowest ``value_of(cell)``, then fewest points, then
    the cell first in ``rank`` (the seat's frame, :mod:`terragen.terrain.frames`; default: lowest cell).

    ``options`` maps each legal end to its cost (``here`` itself, cost 0, is staying).
    """
    place = rank.__getitem__ if rank is not None else int
    best = here
    best_key = (value_of(here), 0, place(here)) if here in options else None
    for q, c in options.items():
        key = (value_of(q), c, place(q))
        if best_key is None or key < best_key:
            best_key, best = key, q
    return best


def _policy_moves(
    fwd: list[list[tuple[int, int]]], table: dict[int, list[float]], goal_bit: dict[int, int], p: int, mask: int,
    rank: Sequence[int],
) -> list[tuple[int, int]]:
    """The (cell, mask) a token on ``p`` holding ``mask`` moves to for budgets 1..6 (index 0 = budget 0)."""
    layer = table[mask]
    best_key = (layer[p], 0, rank[p])
    best = (p, mask)
    out = [best]
    reach = fwd[p]
    k = 0
    for b in range(1, MAX_BUDGET + 1):
        while k < len(reach) and reach[k][1] <= b:
            q, c = reach[k]
            k += 1
            bit = goal_bit.get(q, 0)
            m = mask | bit
            key = (table[m][q], c, rank[q])
            if key < best_key:
                best_key, best = key, (q, m)
        out.append(best)
    return out


def policy_states(board: Board, fwd, start: int, goals: list[int], near,
                  rank: Sequence[int]) -> tuple[list[tuple[int, ...]], float, dict[tuple[int, int], int]]:
    """The seat's token under the optimal policy as a table: for each state reachable from the
    start (1 is the start, 0 is "finished", absorbing), the state it moves to with a budget of
    0..6 points; the start's expected turns; each state's index by (cell, destinations collected).

    Why a table of its own: the race model pushes probabilities through it, and a game's own
    dice can walk a lone token through it (``bench/lone_race_control.py``), so the two see
    one policy."""
    table = expected_turns_table(board, goals, near)
    k = len(goals)
    full = (1 << k) - 1
    value = table[0][start] if board.passable(start) else math.inf
    goal_bit = {g: 1 << b for b, g in enumerate(goals)}
    index: dict[tuple[int, int], int] = {(start, 0): 1}
    rows: dict[int, tuple[int, ...]] = {0: (0,) * (MAX_BUDGET + 1)}
    todo = [(start, 0)]
    while todo:
        p, mask = todo.pop()
        here = index[(p, mask)]
        row = []
        for q, m in _policy_moves(fwd, table, goal_bit, p, mask, rank):
            if m == full:
                row.append(0)
                continue
            j = index.get((q, m))
            if j is None:
                j = index[(q, m)] = len(index) + 1
                todo.append((q, m))
            row.append(j)
        row[0] = here  # budget 0 (and doubles): the token stays
        rows[here] = tuple(row)
    return [rows[i] for i in range(len(rows))], value, index


def _chain(board: Board, fwd, start: int, goals: list[int], near,
           rank: Sequence[int]) -> tuple[list[tuple[int, int, float]], int, int, float, dict[tuple[int, int], int]]:
    """The seat's Markov chain under the optimal policy: arcs (from, to, probability) over
    the states reachable from the start, the number of states, the start's index, its
    expected turns, and each state's index by (cell, destinations collected). State 0 is
    "finished" (absorbing)."""
    charge(COSTS["race_chain"])
    states, value, index = policy_states(board, fwd, start, goals, near, rank)
    counts = budget_counts()
    stay_always = 36 - sum(counts[1:])  # doubles and budget 0
    arcs: list[tuple[int, int, float]] = [(0, 0, 1.0)]
    for here in range(1, len(states)):
        weight: dict[int, int] = {here: stay_always}
        for b in range(1, MAX_BUDGET + 1):
            j = states[here][b]
            weight[j] = weight.get(j, 0) + counts[b]
        arcs.extend((here, j, w / 36.0) for j, w in weight.items())
    return arcs, len(index) + 1, 1, value, index


def _propagate(arcs: list[tuple[int, int, float]], size: int, start: int, tail: float) -> list[float]:
    """``F(t)`` for t = 0, 1, ... until ``1 - F(t) < tail`` (or the mass stops moving).

    Rounds are advanced ``_BLOCK`` at a time: with ``P`` the transition matrix,
    ``F(t + j) = x_t · P^j e_0`` for j < _BLOCK and ``x_{t+_BLOCK} = x_t P^_BLOCK``,
    so a few small matrix products replace hundreds of tiny ones.
    """
    import numpy as np

    charge(COSTS["race_spread"])

    P = np.zeros((size, size))
    for i, j, w in arcs:
        P[i, j] += w
    # U[:, j] = P^j e_0: the chance to be finished j rounds from each state
    U = np.empty((size, _BLOCK))
    col = np.zeros(size)
    col[0] = 1.0
    for j in range(_BLOCK):
        U[:, j] = col
        col = P @ col
    PB = np.linalg.matrix_power(P, _BLOCK)
    x = np.zeros(size)
    x[start] = 1.0
    cdf: list[float] = []
    while len(cdf) < MAX_ROUNDS:
        cdf.extend((x @ U).tolist())
        if 1.0 - cdf[-1] < tail:
            break
        nxt = x @ PB
        if np.array_equal(nxt, x):
            break  # the unfinished mass is stuck for good
        x = nxt
    # trim to the first round past the tail (the block may overshoot)
    for t, f in enumerate(cdf):
        if 1.0 - f < tail:
            del cdf[t + 1:]
            break
    return [min(1.0, max(0.0, f)) for f in cdf]


def seat_race(
    board: Board, seat: int, start: int, goals: Sequence[int], *, tail: float = 1e-9,
    near: Sequence[Sequence[tuple[int, int]]] | None = None, fwd: list[list[tuple[int, int]]] | None = None,
    rank: Sequence[int] | None = None,
) -> SeatRace:
    """The finishing-round distribution of one seat's token alone (see the module docstring);
    ``rank`` is the seat's tie-break order (:func:`terragen.terrain.frames.seat_ranks`; default:
    lowest cell), the one its ``solitary`` player uses."""
    goals = list(dict.fromkeys(goals))
    if not goals:
        return SeatRace(seat, (0.0,), math.inf)  # nothing to race for: a broken layout, not a win
    near = near if near is not None else near_sources(board)
    fwd = fwd if fwd is not None else forward_reach(board, near)
    n = len(board)
    if not all(0 <= c < n and board.passable(c) for c in (start, *goals)):
        return SeatRace(seat, (0.0,), math.inf)
    arcs, size, s0, value, _ = _chain(board, fwd, start, goals, near, rank if rank is not None else range(n))
    if not math.isfinite(value):
        return SeatRace(seat, (0.0,), math.inf)
    cdf = _propagate(arcs, size, s0, tail)
    cdf[0] = 0.0
    expected = sum(1.0 - f for f in cdf)
    return SeatRace(seat, tuple(cdf), expected)


def win_probabilities(races: Sequence[SeatRace], first: int = 0) -> tuple[list[float], int]:
    """Chance each seat is the first to finish, seats moving in order from ``first``; and the horizon."""
    charge(COSTS["win_probabilities"])
    import numpy as np

    n = len(races)
    horizon = max((len(r.cdf) - 1 for r in races), default=0)
    if n == 0:
        return [], horizon
    F = np.empty((n, horizon + 1))
    for i, r in enumerate(races):
        F[i, : len(r.cdf)] = r.cdf
        F[i, len(r.cdf):] = r.cdf[-1]
    out = 1.0 - F  # out[i, t]: seat i still racing at the end of round t
    gain = F[:, 1:] - F[:, :-1]  # gain[i, t-1]: seat i finishes in round t
    order = [(first + k) % n for k in range(n)]
    win = [0.0] * n
    for pos, i in enumerate(order):
        w = gain[i].copy()
        for j in order[:pos]:
            w *= out[j, 1:]
        for j in order[pos + 1:]:
            w *= out[j, :-1]
        win[i] = float(w.sum())
    return win, horizon


def win_probabilities_by_opener(races: Sequence[SeatRace]) -> tuple[list[list[float]], int]:
    """:func:`win_probabilities` for every opener at once (``wins[first][seat]``), and the horizon.

    Why: the balance search combines the races of thousands of destination sets a run (every
    candidate, with the openers rotating), and one opener at a time that was n small array
    passes per seat (1.4 s of a five-seat run's main process). Here each factor of every opener
    and seat is one array, multiplied in the same order as :func:`win_probabilities` does (a seat
    left out multiplies by one, which changes no float), and summed the same way, so the
    numbers are identical to the last bit. It is charged as that many one-opener calls.

    Compiled where the optional extension was built (``_kernels.race_wins``: the same floats, with
    numpy's pairwise sums; 0.14 ms a call with numpy, most of it numpy's own overhead on arrays
    this small, and about 2,000 calls a five-seat run)."""
    n = len(races)
    horizon = max((len(r.cdf) - 1 for r in races), default=0)
    if n == 0:
        return [], horizon
    charge(COSTS["win_probabilities"] * n)
    compiled = getattr(expected.COMPILED, "race_wins", None)
    if compiled is not None:
        wins = compiled([r.cdf for r in races], horizon)
        if wins is not None:
            return wins, horizon
    return win_probabilities_by_opener_numpy(races, horizon), horizon


def win_probabilities_by_opener_numpy(races: Sequence[SeatRace], horizon: int) -> list[list[float]]:
    """:func:`win_probabilities_by_opener`'s wins with numpy: the reference the compiled kernel
    follows."""
    import numpy as np

    n = len(races)
    F = np.empty((n, horizon + 1))
    for i, r in enumerate(races):
        F[i, : len(r.cdf)] = r.cdf
        F[i, len(r.cdf):] = r.cdf[-1]
    out = 1.0 - F
    after, before = out[:, 1:], out[:, :-1]  # still racing at the end of round t, of round t-1
    gain = F[:, 1:] - F[:, :-1]
    first = np.arange(n)[:, None]
    seat = np.arange(n)[None, :]
    place = (seat - first) % n  # the seat's place in the order of play from ``first``
    w = np.broadcast_to(gain, (n, n, horizon)).copy()  # w[first, seat, t]
    for k in range(n):  # the k-th seat to play from each opener, in order
        other = np.broadcast_to((first + k) % n, (n, n))
        factor = np.where((k < place)[:, :, None], after[other], before[other])
        factor[other == seat] = 1.0
        w *= factor
    return w.sum(axis=2).tolist()


def race_of(races: Sequence[SeatRace]) -> RaceResult:
    """Combine finished per-seat distributions (in turn order) into the race."""
    wins, horizon = win_probabilities_by_opener(races)
    n = len(races)
    rotating = list(wins[0]) if n else []
    for first in range(1, n):
        rotating = [a + b for a, b in zip(rotating, wins[first])]
    opened_by_first = tuple(wins[0]) if n else ()
    return RaceResult(tuple(races), opened_by_first, horizon, tuple(r / n for r in rotating))


def race_model(
    board: Board, seats: Sequence[tuple[int, Sequence[int]]], *, tail: float = 1e-9,
    near: Sequence[Sequence[tuple[int, int]]] | None = None, seat_numbers: Sequence[int] | None = None,
) -> RaceResult:
    """The exact race of independent tokens.

    ``seats`` lists ``(start cell, [destination cells])`` in turn order (cell
    indices of ``board``; -1 marks a cell off the board, which that seat can
    never finish on). ``near`` (from :func:`near_sources`) may be passed when the
    caller already has it for this board: callers trying many destination sets
    on one terrain should pass the same ``near`` object every time (the reversed
    table is then reused too; do not change ``near`` in place). ``seat_numbers``
    labels the seats (default 0..n-1).
    """
    if not 0 < tail < 1:
        raise ValueError("tail must be between 0 and 1")
    near = near if near is not None else near_sources(board)
    fwd = _forward_for(board, near)
    labels = list(seat_numbers) if seat_numbers is not None else list(range(len(seats)))
    starts = [start for start, _ in seats]
    # a seat whose start is off the board cannot finish; the others keep their frames, seen
    # among the starts that are on the board (as if the lost seat were not there)
    on_board = [s for s in starts if 0 <= s < len(board)]
    frames = dict(zip(on_board, seat_ranks(board, on_board)))
    ranks = [frames.get(s) for s in starts]
    return race_of([
        seat_race(board, labels[k], start, goals, tail=tail, near=near, fwd=fwd, rank=ranks[k])
        for k, (start, goals) in enumerate(seats)
    ])


def layout_seats(layout: Layout, board: Board) -> tuple[list[tuple[int, list[int]]], list[int]]:
    """(start cell, destination cells) per player in seat order, and the seat numbers.

    A start or destination off the board becomes cell -1 (that seat cannot finish).
    """
    seats = []
    numbers = []
    for p in sorted(layout.players, key=lambda p: p.seat):
        start_hex = layout.start(p)
        start = board.index.get(start_hex, -1) if start_hex is not None else -1
        goals = [board.index.get(d.hex, -1) for d in p.destinations]
        seats.append((start, goals))
        numbers.append(p.seat)
    return seats, numbers


def race_for_layout(layout: Layout, board: Board | None = None, *, tail: float = 1e-9) -> RaceResult:
    """:func:`race_model` for the players of ``layout``, in seat order."""
    board = board or Board.from_layout(layout)
    seats, numbers = layout_seats(layout, board)
    return race_model(board, seats, tail=tail, seat_numbers=numbers)
