"""What a game looks like mid-play: the board, the tokens, what each player has collected.

A :class:`GameSetup` is built once per layout (it checks the layout can be
played at all); a :class:`GameState` is the mutable game played on a copy of
its board. Policies read the state; only the engine changes it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from terragen.errors import SpecError
from terragen.grids import hex as hx
from terragen.plain_text import counted
from terragen.terrain.board import Board
from terragen.terrain.frames import seat_frame_rank, seat_hand
from terragen.terrain.layout import Layout
from terragen.terrain.sim.cache import BoardCache
from terragen.terrain.sim.variants import Rules

MIN_PLAYERS, MAX_PLAYERS = 1, 6  # one player is allowed for solo runs and agreement tests


@dataclass(frozen=True)
class GameSetup:
    """The fixed facts of a game: board, seats, starts and what each seat must collect.

    ``groups[s]`` lists seat ``s``'s targets; each target is a tuple of cells and
    counts when a move ends on any of them (a destination is a one-cell group;
    LOST!'s edge is one group of every edge cell).
    """

    board: Board
    starts: tuple[int, ...]
    groups: tuple[tuple[tuple[int, ...], ...], ...]
    destinations: frozenset[int]
    edge: tuple[int, ...]
    target_cells: tuple[frozenset[int], ...] = ()  # per seat: every cell of its groups
    #: per seat, a tie-break order of the cells as seen from that seat's corner (the board turned
    #: so the corner is corner 0, and mirrored when the seat is left-handed, see ``hand``). Why:
    #: players who break ties by raw cell number favour some corners; ties broken in each seat's
    #: own frame make seats that a turn or a mirror of the board maps onto each other play
    #: exactly alike, so a symmetric board stays fair with every player kind.
    rank: tuple[tuple[int, ...], ...] = ()
    #: per seat, the way round its frame turns: 1, or -1 when it is mirrored (pieces are then tried
    #: turning the other way too).
    hand: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.target_cells:
            cells = tuple(frozenset(c for grp in groups for c in grp) for groups in self.groups)
            object.__setattr__(self, "target_cells", cells)
        if not self.hand:
            object.__setattr__(self, "hand", tuple(seat_hand(self.board, s, self.starts) for s in self.starts))
        if not self.rank:
            object.__setattr__(self, "rank", tuple(seat_frame_rank(self.board, s, h)
                                                   for s, h in zip(self.starts, self.hand)))

    @property
    def players(self) -> int:
        return len(self.starts)


def setup_from_layout(layout: Layout, rules: Rules) -> GameSetup:
    """Check that ``layout`` can be simulated under ``rules`` and index it; SpecError otherwise."""
    board = Board.from_layout(layout)
    n = len(layout.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise SpecError(f"the layout has {counted(n, 'player')}; the simulator plays 1 to {MAX_PLAYERS}")
    missing = [i for i in range(len(board)) if not board.present[i]]
    if missing:
        raise SpecError(f"the layout leaves {counted(len(missing), 'board position')} empty; fill the board before simulating")
    edge = tuple(i for i, h in enumerate(board.hexes) if hx.length(h) == layout.radius)
    starts = []
    groups = []
    dests: set[int] = set()
    for p in sorted(layout.players, key=lambda p: p.seat):
        if rules.lost:
            starts.append(board.index[(0, 0)])
            groups.append((edge,))
            continue
        start = layout.start(p)
        if start is None:
            raise SpecError(f"seat {p.seat} has corner {p.corner}; corners are numbered 0 to 5")
        starts.append(board.index[start])
        cells = []
        for d in p.destinations:
            if d.hex not in board.index:
                raise SpecError(f"seat {p.seat}'s destination ({d.q},{d.r}) is off the board")
            cells.append(board.index[d.hex])
        if not cells:
            raise SpecError(f"seat {p.seat} has no destination")
        cells = list(dict.fromkeys(cells))
        dests.update(cells)
        groups.append(tuple((c,) for c in cells))
    if not rules.lost and len(set(starts)) != len(starts):
        raise SpecError("two seats start on the same corner")
    if rules.teams and sorted(s for t in rules.teams for s in t) != list(range(n)):
        raise SpecError(f"the teams must cover seats 0 to {n - 1} exactly once")
    return GameSetup(board, tuple(starts), tuple(groups), frozenset(dests), edge)


@dataclass
class GameState:
    """A game in progress. ``pos[s]`` is seat s's cell (-1 once lifted off after finishing)."""

    setup: GameSetup
    rules: Rules
    board: Board
    cache: BoardCache
    rng: random.Random
    pos: list[int]
    collected: list[int]
    finished: list[bool]
    occupant: dict[int, int] = field(default_factory=dict)  # cell -> seat (LOST!'s shared centre excluded)
    shared_start: set[int] = field(default_factory=set)  # LOST!: seats still on the centre
    turns: list[int] = field(default_factory=list)
    round: int = 0
    rotations: int = 0
    inversions: int = 0
    send_backs: int = 0
    forfeits: int = 0
    team_of: dict[int, int] = field(default_factory=dict)
    #: the main rules' moves (inversion allowed): tokens meet and send each other home, paths pass
    #: over tokens, no teams, no green die, no LOST! (see
    #: :func:`terragen.terrain.sim.engine.take_turn`, which has a shorter path for them)
    plain: bool = False
    #: what players note for themselves during one game (team play: a pair that has stalled and now
    #: plans together, :mod:`terragen.terrain.sim.convoy`); empty at the start of every game
    notes: dict = field(default_factory=dict)

    @classmethod
    def new(cls, setup: GameSetup, rules: Rules, rng: random.Random, template: BoardCache | None = None) -> GameState:
        """A fresh game; ``template`` is a cache of the starting board shared between games."""
        board = setup.board.copy()
        n = setup.players
        if template is not None and template.pips != rules.uses_pips:
            template = None
        st = cls(setup, rules, board, BoardCache(board, pips=rules.uses_pips, template=template), rng,
                 list(setup.starts), [0] * n, [False] * n, turns=[0] * n)
        st._place_tokens()
        st.plain = rules.send_back and rules.pass_through and not rules.green
        for t, team in enumerate(rules.teams):
            for s in team:
                st.team_of[s] = t
        return st

    def clone(self) -> GameState:
        """A state of its own to play on: a search tries actions on copies and must leave the game
        it came from as it was. Its board starts as the set-up's and is turned to this one's, its
        cache following each turn, as a game's does: a cache made on the turned board took it for
        the start, and :meth:`restart` then went back to that board's tables on the set-up's board.
        The cache shares this one's store of tables (they depend on the board's state alone, as
        the games of a run share them): a clone starts warm, and the states clones reach are kept
        for the original too, up to the store's limit (:data:`~terragen.terrain.sim.cache.MAX_STATES`,
        some tens of MB at most). Setup and rules are shared, nothing changes them. Only what play
        changes is carried over (turns and inversions of pieces): a board edited by hand
        (``set_piece``) is not a game state, and its clone has the set-up's pieces."""
        board, cache = self._board_like_this(self.cache)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return replace(self, board=board, cache=cache, rng=rng,
                       pos=list(self.pos), collected=list(self.collected), finished=list(self.finished),
                       occupant=dict(self.occupant), shared_start=set(self.shared_start), turns=list(self.turns),
                       team_of=dict(self.team_of), notes={k: list(v) if isinstance(v, list) else v
                                                          for k, v in self.notes.items()})

    def _board_like_this(self, template: BoardCache | None) -> tuple[Board, BoardCache]:
        """A copy of the set-up's board turned (and inverted) as this one is, with a cache that
        followed each change, so that the cache knows the set-up's board as its start."""
        board = self.setup.board.copy()
        cache = BoardCache(board, pips=self.rules.uses_pips, template=template)
        for i in range(len(board)):
            if board.rotation[i] != self.board.rotation[i]:
                old_out = cache.arcs[i]
                board.set_rotation(i, self.board.rotation[i])
                cache.rotated(i, old_out)
        for i in range(len(board)):
            if board.inverted[i] != self.board.inverted[i]:
                board.set_inverted(i, self.board.inverted[i])
                cache.inverted(i)
        return board, cache

    def __getstate__(self) -> dict:
        """Pickled without the cache: its tables are derived from the board (tens of MB at most,
        and a chain of board states deep enough to break the pickler after a long game)."""
        state = dict(self.__dict__)
        del state["cache"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.board, self.cache = self._board_like_this(None)

    def restart(self) -> None:
        """Make this state the start of a new game of its setup and rules, as :meth:`new` would.

        Why: a run plays thousands of games of one board, and a new state for each (a copy of
        the board, a new cache, the dataclass) was a fifth of a short solitary game's time. The
        board is put back only when the game turned or inverted a piece (a look at a piece upside
        down and back leaves it as it was)."""
        setup = self.setup
        if self.rotations or self.inversions:
            self.board.restore(setup.board)
        self.cache.restart()
        n = setup.players
        self.pos[:] = setup.starts
        self.collected[:] = [0] * n
        self.finished[:] = [False] * n
        self.turns[:] = [0] * n
        self.occupant.clear()
        self.shared_start.clear()
        self.notes.clear()
        self._place_tokens()
        self.round = self.rotations = self.inversions = self.send_backs = self.forfeits = 0

    def _place_tokens(self) -> None:
        """Every token on its start, in ``occupant`` (or LOST!'s shared centre), both empty before."""
        if not self.rules.interactions:
            return  # tokens never meet: no cell counts as occupied
        if self.rules.lost:
            self.shared_start.update(range(self.setup.players))
        else:
            self.occupant.update((c, s) for s, c in enumerate(self.setup.starts))

    @property
    def players(self) -> int:
        return self.setup.players

    def full_mask(self, seat: int) -> int:
        return (1 << len(self.setup.groups[seat])) - 1

    def remaining_groups(self, seat: int) -> list[tuple[int, ...]]:
        m = self.collected[seat]
        return [g for b, g in enumerate(self.setup.groups[seat]) if not m >> b & 1]

    def gain(self, seat: int, cell: int) -> int:
        """The collection mask after seat ``seat`` ends a move on ``cell``."""
        m = self.collected[seat]
        for b, g in enumerate(self.setup.groups[seat]):
            if not m >> b & 1 and cell in g:
                m |= 1 << b
        return m

    def token_at(self, cell: int) -> int | None:
        """The seat whose token stands on ``cell`` (LOST!'s centre counts while anyone waits there)."""
        s = self.occupant.get(cell)
        if s is None and self.shared_start and cell == self.setup.starts[0]:
            return min(self.shared_start)
        return s

    def occupied(self) -> set[int]:
        cells = set(self.occupant)
        if self.shared_start:
            cells.add(self.setup.starts[0])
        return cells

    def teammates(self, seat: int) -> list[int]:
        if not self.rules.teams:
            return []
        t = self.team_of[seat]
        return [s for s in self.rules.teams[t] if s != seat and not self.finished[s]]
