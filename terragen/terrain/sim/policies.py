"""Players: how a seat picks its move and what it does with doubles.

A policy is any object with two methods (see :class:`BasePolicy`):

``choose_move(state, seat, roll, options) -> cell``
    ``options`` maps every legal end cell to its good-weather cost (the
    current cell, cost 0, means standing still). Return one of its keys.
``choose_rotation(state, seat, roll, options) -> action | None``
    Called on doubles. Return ``("rotate", cell, rotation)``,
    ``("invert", cell)`` (only when ``options.can_invert`` and the cell is in
    ``options.invertible()``), or None to forfeit.

Policies must draw randomness only from ``state.rng`` so games replay from a
seed. Plug your own in with ``--policy package.module:ClassName``; the class
is built without arguments, once per worker process.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from terragen.errors import SpecError
from terragen.names import unknown_name
from terragen.terrain import expected
from terragen.terrain.pieces import exit_mask
from terragen.terrain.race import solitary_choice
from terragen.terrain.sim.cache import INF, MAX_BUDGET, ROLL_COUNTS, stay_or_move_value
from terragen.terrain.sim.convoy import convoy_move, team_turn
from terragen.terrain.sim.engine import Action, Roll, RotationOptions
from terragen.terrain.sim.state import GameState

#: an expert's one-cell re-evaluation compiled (``_kernels.c``: ``local_value``), or None
_LOCAL_VALUE = getattr(expected.COMPILED, "local_value", None)
#: an expert's weighing of the turns of pieces on doubles compiled (``_kernels.c``: ``expert_turn``), or None
_EXPERT_TURN = getattr(expected.COMPILED, "expert_turn", None)
_LOCAL_KEY = "expert-local"  # the first item of the key an expert's re-evaluations are remembered by
#: :func:`_route` compiled (``_kernels.c``: ``seat_route``), or None
_SEAT_ROUTE = getattr(expected.COMPILED, "seat_route", None)

ROUTE_CELLS = 6  # how far along a route the rotation search looks
DEFEND_WITHIN = 4.0  # expected turns: a leader this close to winning is worth blocking
MIN_GAIN = 0.05  # expected turns a rotation must win (own gain plus leader's loss) to be worth it


class BasePolicy:
    """The interface, with the simplest legal behaviour: stand still, forfeit doubles."""

    name = "base"

    def choose_move(self, state: GameState, seat: int, roll: Roll, options: Mapping[int, int]) -> int:
        return state.pos[seat] if state.pos[seat] in options else min(options)

    def choose_rotation(self, state: GameState, seat: int, roll: Roll, options: RotationOptions) -> Action | None:
        return None


class RandomPolicy(BasePolicy):
    """Uniformly random legal end; on doubles a random piece to a random new rotation
    (or, when a double 6 allows, a random inversion half of the time)."""

    name = "random"

    def choose_move(self, state: GameState, seat: int, roll: Roll, options: Mapping[int, int]) -> int:
        return state.rng.choice(sorted(options))

    def choose_rotation(self, state: GameState, seat: int, roll: Roll, options: RotationOptions) -> Action | None:
        rng = state.rng
        if options.can_invert and rng.random() < 0.5:
            inv = options.invertible()
            if inv:
                return ("invert", rng.choice(inv))
        cells = options.rotatable()
        cell = rng.choice(cells)
        rot = rng.choice([k for k in range(6) if k != state.board.rotation[cell]])
        return ("rotate", cell, rot)


# ---- shared helpers ---------------------------------------------------------------------------

ALL_EXITS = 0b111111  # an exit mask with all six sides open


@lru_cache(maxsize=256)
def gains_by_cell(groups: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    """For each cell of a seat's targets, the bits of every group it belongs to: a move there
    collects them (``GameState.gain``, whatever is collected already). Do not change it."""
    gains: dict[int, int] = {}
    for b, grp in enumerate(groups):
        for c in grp:
            gains[c] = gains.get(c, 0) | 1 << b
    return gains


def _dir_arcs(state: GameState, cell: int, mask: int) -> list[tuple[int, int]]:
    """Arcs (target, cost) piece ``cell`` would have with exit mask ``mask``."""
    return state.cache.exits_as(cell, mask)


@lru_cache(maxsize=None)
def _turns(pattern: str, current: int = 0, hand: int = 1) -> tuple[tuple[int, int], ...]:
    """(rotation, exit mask) for every rotation of ``pattern`` giving a different exit set, in
    order of the turn from ``current`` the way ``hand`` goes (so ties go the same way on every
    corner of a turned or mirrored board)."""
    out = {}
    for step in range(6):
        k = (current + hand * step) % 6
        out.setdefault(exit_mask(pattern, k), k)
    return tuple((k, m) for m, k in out.items())


def tour_cost(state: GameState, seat: int, cell: int, mask: int, elev: bool = False) -> float:
    """Cheapest total cost from ``cell`` to collect every group not in ``mask``, best order."""
    return state.cache.tours(state.setup.groups[seat], mask, elev)[cell]


def _route(state: GameState, seat: int, length: int = ROUTE_CELLS) -> list[int]:
    """The first cells of the seat's cheapest tour over its remaining targets (under the
    pips if there is one, else with pips ignored)."""
    pos = state.pos[seat]
    if pos < 0 or state.finished[seat]:
        return []
    groups = state.setup.groups[seat]
    mask = state.collected[seat]
    rank = state.setup.rank[seat]
    if _SEAT_ROUTE is not None:  # the same cells in C (``_kernels.c``), where it was built
        t = state.cache.tours(groups, mask)
        route = _SEAT_ROUTE(pos, mask, t, state.cache.tours(groups, mask, True) if t[pos] == INF else None,
                            gains_by_cell(groups), state.cache.arcs, state.board.elev_arcs, rank, length)
        if route is not None:
            return route
    for elev in (False, True):
        t = state.cache.tours(groups, mask, elev)
        if t[pos] == INF:
            continue
        arcs = state.board.elev_arcs if elev else state.cache.arcs
        route = [pos]
        cur = pos
        while len(route) < length:
            nxt = min((j for j, c, _ in arcs[cur] if t[j] + c == t[cur]), key=rank.__getitem__, default=None)
            if nxt is None:
                break
            route.append(nxt)
            if state.gain(seat, nxt) != mask:
                break  # the first target: beyond it the tour table of a bigger mask applies
            cur = nxt
        return route
    return [pos]


def _leader(state: GameState, seat: int) -> int | None:
    """The opponent closest to finishing by cheapest remaining cost (ties: the next seat to play after ``seat``)."""
    team = state.team_of.get(seat)
    best, who = INF, None
    for s in range(state.players):
        if s == seat or state.finished[s] or (team is not None and state.team_of.get(s) == team):
            continue
        c = tour_cost(state, s, state.pos[s], state.collected[s])
        if c == INF:
            c = 1000 + tour_cost(state, s, state.pos[s], state.collected[s], elev=True)
        c = (c, (s - seat) % state.players)
        if best == INF or c < best:
            best, who = c, s
    return who


def _best_inversion(state: GameState, seat: int, options: RotationOptions) -> Action | None:
    """Invert a piece on the leading opponent's route if it costs them and not us."""
    who = _leader(state, seat)
    if who is None:
        return None
    legal = set(options.invertible())
    cand = [c for c in _route(state, who)[1:] if c in legal]
    if not cand:
        return None
    mine0 = tour_cost(state, seat, state.pos[seat], state.collected[seat])
    theirs0 = tour_cost(state, who, state.pos[who], state.collected[who])
    best, choice = 0.0, None
    for c in cand:
        b = state.board
        b.set_inverted(c, True)
        state.cache.inverted(c)
        gain = tour_cost(state, who, state.pos[who], state.collected[who]) - theirs0
        loss = tour_cost(state, seat, state.pos[seat], state.collected[seat]) - mine0
        b.set_inverted(c, False)
        state.cache.inverted(c)
        if loss <= 0 and gain > best:
            best, choice = gain, c
    return ("invert", choice) if choice is not None else None


# ---- greedy -----------------------------------------------------------------------------------

class GreedyPolicy(BasePolicy):
    """Move to the reachable cell with the smallest remaining cheapest cost (pips; the
    pips-ignored cost breaks ties and guides a token with no pip path). On doubles,
    turn the piece on its own route whose new exits shorten that cost most; forfeit
    when no turn helps. A double 6 with inversion first tries to block the leader."""

    name = "greedy"
    #: its move is a function of the board state, its seat, cell, collection and the open cells
    #: alone (it draws no random numbers), so the engine may reuse it (see ``take_turn``); not
    #: inherited by subclasses
    decides_by_board = True
    #: likewise its turn on doubles when no inversion is open to it (not inherited either)
    rotates_by_board = True

    def choose_move(self, state: GameState, seat: int, roll: Roll, options: Mapping[int, int]) -> int:
        if state.rules.teams:  # a convoy: the lead races, its partners follow, a stalled pair plans
            return convoy_move(state, seat, roll, options, lambda: GreedyPolicy._race_move(state, seat, options))
        return GreedyPolicy._race_move(state, seat, options)

    @staticmethod
    def _race_move(state: GameState, seat: int, options: Mapping[int, int]) -> int:
        """Greedy's own move, racing for its own targets."""
        groups = state.setup.groups[seat]
        tours = state.cache.tours
        base = state.collected[seat]
        pip, elev = tours(groups, base), tours(groups, base, True)
        targets = state.setup.target_cells[seat]
        rank = state.setup.rank[seat]
        # the least (cost on, cost on with pips ignored, points, rank): a plain loop that builds the
        # key only for a cell not already beaten on its first entry (this runs on every new board state)
        best, best_key = None, None
        for q, points in options.items():
            m = state.gain(seat, q) if q in targets else base  # the collection changes only on a target
            on = pip[q] if m == base else tours(groups, m)[q]
            if best_key is not None and on > best_key[0]:
                continue
            key = (on, (elev if m == base else tours(groups, m, True))[q], points, rank[q])
            if best_key is None or key < best_key:
                best, best_key = q, key
        return best

    def choose_rotation(self, state: GameState, seat: int, roll: Roll, options: RotationOptions) -> Action | None:
        if options.can_invert:
            act = _best_inversion(state, seat, options)
            if act is not None:
                return act
        if state.rules.teams:  # a pair whose plan sees no way on turns a piece to open one
            act = team_turn(state, seat, _turns)
            if act is not None:
                return act
        return self._own_rotation(state, seat)

    @staticmethod
    def _own_rotation(state: GameState, seat: int) -> Action | None:
        """The turn of a piece on its own route whose new exits shorten its remaining tour most."""
        pos = state.pos[seat]
        if pos < 0 or state.finished[seat]:
            return None
        key = GreedyPolicy.own_rotation_key(state, seat)
        memo = state.cache.memo
        if key not in memo:
            memo[key] = GreedyPolicy._find_own_rotation(state, seat, key[3], key[4], key[5])
        return memo[key]

    @staticmethod
    def own_rotation_key(state: GameState, seat: int) -> tuple:
        """Where :meth:`_own_rotation` remembers its answer in the board state's memo.

        A function of the board state and these alone (the start and hand fix the seat's frame,
        whose order breaks ties: two seats may hold the same targets). The board state is known
        by its pieces' exits, and boards whose pieces differ only in turns that give the same exits
        share it; the first answer made on such a state is the one kept, so anything that makes
        this answer another way (the compiled one of ``greedy_kernels``) keeps it here too."""
        return ("own-rotation", state.setup.starts[seat], state.setup.hand[seat], state.setup.groups[seat],
                state.pos[seat], state.collected[seat])

    @staticmethod
    def _find_own_rotation(state: GameState, seat: int, groups, pos: int, mask: int) -> Action | None:
        t = state.cache.tours(groups, mask)
        route = _route(state, seat)
        b = state.board
        exits_as = state.cache.exits_as
        hand = state.setup.hand[seat]
        before = 0  # cost from pos along the route to the candidate cell
        best_cost = t[pos]
        choice = None
        for k, cell in enumerate(route):
            if k:
                before += next(c for j, c, _ in b.elev_arcs[route[k - 1]] if j == cell)
            if state.gain(seat, cell) != mask:
                break
            # no turn of this piece can do better than its cheapest way on through any side (its
            # arcs with every exit open): when even that is no gain, skip its turns (on most route
            # cells the open exits already hold it)
            floor = INF
            for j, c in exits_as(cell, ALL_EXITS):
                if c + t[j] < floor:
                    floor = c + t[j]
            if before + floor >= best_cost:
                continue
            now = b.mask[cell]
            for rot, m in _turns(b.pattern[cell], b.rotation[cell], hand):
                if m == now:
                    continue
                # the cheapest way on from the piece with these exits; a plain loop, as this runs
                # for every new board state of every game (a min() over a generator cost more)
                via = INF
                for j, c in exits_as(cell, m):
                    if c + t[j] < via:
                        via = c + t[j]
                if before + via < best_cost:
                    best_cost, choice = before + via, ("rotate", cell, rot)
        return choice


# ---- expert -----------------------------------------------------------------------------------

class ExpertPolicy(GreedyPolicy):
    """Moves by exact expected turns (the analysis table for the current board, rotations
    ignored), so it weighs up-3 steps and weather risk, not just cost. On doubles it
    scores rotations of pieces on its own route (offence) and, when the leading opponent is
    ahead of it and within DEFEND_WITHIN expected turns of winning, on that opponent's
    route (defence), by a one-cell re-evaluation of the expected-turns tables (neighbours'
    values held fixed). It plays the turn that most widens its lead, falls back to the
    greedy turn, and forfeits when nothing helps. Defending only against a near winner
    keeps all-expert games from turning into endless rotation fights."""

    name = "expert"
    #: its move, like greedy's, is a function of the board state, its seat, cell, collection and the
    #: open cells alone (it draws no numbers; the expected-turns table is the board state's), so the
    #: engine may remember it; its turn on doubles is not (it looks at the other seats' tokens),
    #: except when its token is alone on the board (no leader to defend against): then its lone
    #: games are a chain (``sim/lone_chain.py``)
    decides_by_board = True
    rotates_alone_by_board = True

    def _table(self, state: GameState, seat: int) -> dict[int, list[float]]:
        return state.cache.table(state.setup.groups[seat])

    def choose_move(self, state: GameState, seat: int, roll: Roll, options: Mapping[int, int]) -> int:
        if not state.rules.uses_pips:
            return super().choose_move(state, seat, roll, options)
        if state.rules.teams:
            return convoy_move(state, seat, roll, options, lambda: self._race_move(state, seat, options))
        return self._race_move(state, seat, options)

    def _race_move(self, state: GameState, seat: int, options: Mapping[int, int]) -> int:
        """The expert's own move: the least expected turns."""
        table = self._table(state, seat)
        here = state.collected[seat]
        values = table[here]
        targets = state.setup.target_cells[seat]
        rank = state.setup.rank[seat]
        # the least (value, fallback, cost) and among equals the cell first in the seat's frame: the
        # rank (distinct per cell) ends the key instead of sorting the options; the collection
        # changes only on a target
        best_key, best = None, None
        for q, cost in options.items():
            m = state.gain(seat, q) if q in targets else here
            v = values[q] if m == here else table[m][q]
            key = (v, tour_cost(state, seat, q, m, elev=True) if v == INF else 0, cost, rank[q])
            if best_key is None or key < best_key:
                best_key, best = key, q
        return best

    def _local(self, state: GameState, cell: int, mask: int, seat: int) -> float:
        """Expected turns at ``cell`` for ``seat`` if its piece had exit ``mask`` and every other
        value stayed.

        Remembered per board state: the answer depends on the board, the seat's targets and
        collection, the cell and the mask alone, and the same few turns are weighed on every
        double of every game, which made this most of an expert game's time."""
        groups = state.setup.groups[seat]
        collected = state.collected[seat]
        key = (_LOCAL_KEY, groups, collected, cell, mask)
        memo = state.cache.memo
        value = memo.get(key)
        if value is None:
            value = memo[key] = self._find_local(state, cell, mask, seat)
        return value

    def _find_local(self, state: GameState, cell: int, mask: int, seat: int) -> float:
        table = self._table(state, seat)
        here = state.collected[seat]
        values = table[here]
        if _LOCAL_VALUE is not None:  # the same minima and value in C (``_kernels.c``), where it was built
            cache = state.cache
            value = _LOCAL_VALUE(_dir_arcs(state, cell, mask), cache.tables_now().reach, cache.reach, values,
                                 gains_by_cell(state.setup.groups[seat]), here, table, cell, ROLL_COUNTS)
            if value is not None:
                return value
        targets = state.setup.target_cells[seat]
        reach = state.cache.reach
        # best[b]: the least value among cells this piece reaches at a cost of exactly b by way of
        # one exit; the running minimum below makes it the least within b, the same minimum over
        # the same cells as a table of each cell's cheapest cost would give (a minimum of floats
        # is exact in any order)
        best = [INF] * (MAX_BUDGET + 1)
        for j, c in _dir_arcs(state, cell, mask):
            for q, cq in reach(j).items():
                t = c + cq
                if t <= MAX_BUDGET and q != cell:
                    v = values[q] if q not in targets else table[state.gain(seat, q)][q]
                    if v < best[t]:
                        best[t] = v
        for b in range(1, MAX_BUDGET + 1):
            if best[b - 1] < best[b]:
                best[b] = best[b - 1]
        return stay_or_move_value(best)

    def _weighed(self, state: GameState, seat: int, values: list[float]) -> tuple:
        """What the compiled weighing reads of ``seat`` (its layer ``values``): the key and inputs of
        :meth:`_local`."""
        groups = state.setup.groups[seat]
        return groups, state.collected[seat], values, gains_by_cell(groups), self._table(state, seat)

    def choose_rotation(self, state: GameState, seat: int, roll: Roll, options: RotationOptions) -> Action | None:
        if options.can_invert:
            act = _best_inversion(state, seat, options)
            if act is not None:
                return act
        if not state.rules.uses_pips:
            return None
        if state.rules.teams:  # a pair whose plan sees no way on turns a piece to open one
            act = team_turn(state, seat, _turns)
            if act is not None:
                return act
        b = state.board
        me = self._table(state, seat)[state.collected[seat]]
        who = _leader(state, seat)
        them = self._table(state, who)[state.collected[who]] if who is not None else None
        if them is not None and not (them[state.pos[who]] < me[state.pos[seat]] and them[state.pos[who]] <= DEFEND_WITHIN):
            them = None  # defend only against an opponent who is ahead and close to winning
        cand = _route(state, seat)
        theirs = _route(state, who) if them is not None else []
        # the same weighing in C (``_kernels.c``), where it was built, unless a subclass weighs a turn its own way
        if _EXPERT_TURN is not None and type(self)._local is ExpertPolicy._local \
                and type(self)._find_local is ExpertPolicy._find_local:
            cache = state.cache
            got = _EXPERT_TURN(cand, theirs, self._weighed(state, seat, me),
                               self._weighed(state, who, them) if them is not None else None,
                               b.pattern, b.rotation, b.mask, state.setup.hand[seat], _turns, cache.exits_as,
                               cache.tables_now().reach, cache.reach, cache.memo, _LOCAL_KEY, ROLL_COUNTS, MIN_GAIN,
                               ALL_EXITS)
            if got is not None:
                return ("rotate", *got) if got else self._own_rotation(state, seat)
        best_score, choice = MIN_GAIN, None
        for cell in dict.fromkeys(cand + theirs):
            if me[cell] == 0:
                continue
            if them is None or cell not in theirs or them[cell] == INF:
                # only its own gain counts here, and no turn gains more than all six sides open
                # would (a cell's value only falls as its exits grow): when even that is not
                # enough, none of its turns is weighed
                gain = me[cell] - self._local(state, cell, ALL_EXITS, seat) if cell in cand and me[cell] < INF else 0.0
                if gain <= best_score:
                    continue
            for rot, mask in _turns(b.pattern[cell], b.rotation[cell], state.setup.hand[seat]):
                if mask == b.mask[cell]:
                    continue
                score = 0.0
                if cell in cand and me[cell] < INF:
                    score += me[cell] - self._local(state, cell, mask, seat)
                if them is not None and cell in theirs and them[cell] < INF:
                    score += self._local(state, cell, mask, who) - them[cell]
                if score > best_score:
                    best_score, choice = score, ("rotate", cell, rot)
        if choice is None:
            return self._own_rotation(state, seat)
        return choice


# ---- solitary ---------------------------------------------------------------------------------

class SolitaryPolicy(BasePolicy):
    """Plays as if alone on the board: moves to the reachable cell with the lowest exact
    expected turns (ties: fewer points, then the cell first in its seat's frame; see
    :func:`terragen.terrain.race.solitary_choice`)
    and forfeits every double (in team play, see :meth:`choose_rotation`); in team play a partner that is not the lead follows it. It is the race model's player, so with interactions off
    its games follow the race model's distributions. A token the board has cut off
    (after someone else's rotation) falls back to the greedy move."""

    name = "solitary"
    decides_by_board = True  # as for greedy
    rotates_by_board = True  # outside team play it never turns a piece

    def choose_rotation(self, state: GameState, seat: int, roll: Roll, options: RotationOptions) -> Action | None:
        """Forfeits, except in team play where its team would otherwise stand for good: the team's turn
        of a piece (:func:`~terragen.terrain.sim.convoy.team_turn`: for a planning pair the pips shut
        in, or a seat head on with another token), or, for a token the board has cut off from its own
        destinations, the greedy player's turn (as its move then falls back to the greedy one).

        Why: a partner follows its lead into cells it cannot leave along the pips, and a player that
        never turns a piece then waits there to the turn cap; on two freshly generated six-seat hard
        boards 997 and 407 of 1,000 solitary games in pairs never finished, none with these turns
        (``bench/README.md``, "Team play: teams of three leave games unfinished")."""
        if not state.rules.teams:
            return None
        act = team_turn(state, seat, _turns)
        if act is None and state.cache.tours(state.setup.groups[seat], state.collected[seat])[state.pos[seat]] == INF:
            act = GreedyPolicy._own_rotation(state, seat)
        return act

    def choose_move(self, state: GameState, seat: int, roll: Roll, options: Mapping[int, int]) -> int:
        # in team play a partner who is not the lead follows it, as greedy and expert ones do: racing
        # alone, partners bound to stay together left 6-9% of the example boards' team games unfinished
        if state.rules.teams:
            return convoy_move(state, seat, roll, options, lambda: self._race_move(state, seat, options))
        return self._race_move(state, seat, options)

    @staticmethod
    def _race_move(state: GameState, seat: int, options: Mapping[int, int]) -> int:
        table = state.cache.table(state.setup.groups[seat])
        pos = state.pos[seat]
        if table[state.collected[seat]][pos] == INF:
            return GreedyPolicy._race_move(state, seat, options)
        return solitary_choice(options, pos, lambda q: table[state.gain(seat, q)][q], state.setup.rank[seat])


POLICIES: dict[str, type] = {"random": RandomPolicy, "greedy": GreedyPolicy, "expert": ExpertPolicy,
                             "solitary": SolitaryPolicy}


_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def failed_plugin(exc: BaseException, specs: Sequence, policies: Sequence) -> str | None:
    """The ``module:Class`` spec whose player caused ``exc`` during play, or None when no plug-in did
    (a fault of terragen's own code stays a bug to report).

    A player caused it when it answered illegally (:class:`IllegalChoice` names it) or when the
    error was raised inside its module's code (the traceback passes through it).
    """
    from terragen.terrain.sim.engine import IllegalChoice

    plugins = {i: s.strip() for i, s in enumerate(specs) if isinstance(s, str) and s.strip() not in POLICIES}
    if isinstance(exc, IllegalChoice):
        return next((plugins[i] for i in plugins if policies[i] is exc.policy), None)
    modules, selves = set(), set()
    tb = exc.__traceback__
    while tb is not None:
        modules.add(tb.tb_frame.f_globals.get("__name__"))
        selves.add(id(tb.tb_frame.f_locals.get("self")))
        tb = tb.tb_next
    by_self = [plugins[i] for i in plugins if id(policies[i]) in selves]  # the very player whose method raised
    hit = by_self or [spec for spec in plugins.values() if spec.partition(":")[0] in modules]
    return ", ".join(dict.fromkeys(hit)) if hit else None


def load_policy(spec: str) -> object:
    """A policy from a built-in name or ``package.module:ClassName``; SpecError when it cannot be had."""
    spec = spec.strip()
    if spec in POLICIES:
        return POLICIES[spec]()
    if ":" not in spec:
        raise unknown_name("policy", spec, list(POLICIES), "package.module:ClassName")
    mod_name, _, attr = spec.partition(":")
    if not (_DOTTED.fullmatch(mod_name) and attr.isidentifier()):
        raise SpecError(f"policy {spec!r} is not package.module:ClassName (a module importable from PYTHONPATH "
                        "and a class in it; a file path such as ./players.py does not work)")
    try:
        module = importlib.import_module(mod_name)
    except ImportError as exc:
        raise SpecError(f"cannot import policy module {mod_name!r}: {exc}") from None
    except (Exception, SystemExit) as exc:  # a user's module that breaks on import (SyntaxError, a raise)
        raise SpecError(f"cannot import policy module {mod_name!r}: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise SpecError(f"module {mod_name!r} has no {attr!r}")
    # a class with the two methods, checked before it is called: a function named here ran
    # (builtins:print printed, os:abort ended the process with no word)
    if not (isinstance(cls, type) and callable(getattr(cls, "choose_move", None))
            and callable(getattr(cls, "choose_rotation", None))):
        raise SpecError(f"policy {spec!r} is not a class with choose_move and choose_rotation methods")
    try:
        policy = cls()
    except (Exception, SystemExit) as exc:  # a user's class: report, never trace back
        raise SpecError(f"cannot create policy {spec!r}: {type(exc).__name__}: {exc}") from None
    if not (callable(getattr(policy, "choose_move", None)) and callable(getattr(policy, "choose_rotation", None))):
        raise SpecError(f"policy {spec!r} needs choose_move and choose_rotation methods")
    return policy


def parse_policies(spec: str, players: int) -> list[str]:
    """One name for every seat, or a comma list with one entry per seat."""
    from terragen.names import comma_list, per_seat

    return per_seat(comma_list(spec, "--policy", POLICIES), players)


