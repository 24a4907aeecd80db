"""The Terrain Game one decision at a time, in the style of OpenSpiel's game states.

Why: the simulator asks its players for decisions through callbacks (``choose_move``,
``choose_rotation``) and plays whole games; a program of your own that wants to drive a game
itself (a bot of another kind, a teaching tool, a game shown move by move) needs the other way
round: the state, the legal actions, apply one. This module is that, on the simulator's own
engine: the same dice, the same rules and variants, the same game as :func:`play_game` plays
when each decision is the one its players would take (the tests check that, game for game).

Players are numbered 0..n-1 in seat order (the lowest seat number the file gives first); an
action names cells by their ``(q, r)``:

* ``("move", (q, r))``: end this turn's move there (the token's own cell is a legal end: staying);
* ``("rotate", (q, r), k)``: on doubles, turn that piece to rotation ``k``;
* ``("invert", (q, r))``: on a double six with the inversion variant, turn that piece over;
* ``("forfeit",)``: on doubles, do neither.

Turns that leave nothing to decide (the green die finding no end; doubles in a variant where no
piece may be turned) are played on by themselves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from terragen.actions import as_tuple
from terragen.arguments import check_seed
from terragen.errors import IllegalActionError
from terragen.terrain.sim.dice import RandomDice
from terragen.terrain.sim.engine import (MAX_REROLLS, Roll, RotationOptions, _winners, apply_action, apply_move,
                                         line_options, move_options)
from terragen.terrain.sim.state import GameState, setup_from_layout
from terragen.terrain.sim.variants import Rules

if TYPE_CHECKING:
    from terragen.terrain.layout import Layout

Hex = tuple[int, int]
Action = tuple


class TerrainGame:
    """A game of the Terrain Game in progress, driven one decision at a time.

    ``seed`` fixes the dice (drawn as :func:`terragen.terrain.sim.engine.play_game` draws them
    from the same seed); ``first_seat`` is the player who opens (the simulator lets the opener
    move on one seat each game)."""

    def __init__(self, layout: Layout, rules: Rules | None = None, seed: int = 0, first_seat: int = 0) -> None:
        from terragen.terrain.layout import require_layout
        from terragen.terrain.validation import check_game_shape

        require_layout(layout, "TerrainGame")
        check_game_shape(layout, "the layout")
        rules = rules or Rules()
        if not isinstance(rules, Rules):  # a variant's name failed deep inside
            raise TypeError("rules is a Rules (terragen.terrain.sim.variants.rules_from_names(['green'], players) "
                            f"makes one), not {type(rules).__name__}")
        setup = setup_from_layout(layout, rules)
        n = setup.players
        if isinstance(first_seat, bool) or not (isinstance(first_seat, int) and 0 <= first_seat < n):
            raise ValueError(f"first_seat must be a player from 0 to {n - 1}, not {first_seat!r}")
        rng = random.Random(check_seed(seed, error=ValueError, bounded=False))  # 'a' and -1 were taken, as no command takes them
        self._dice = RandomDice(random.Random(rng.getrandbits(64)))  # first, as play_game draws them
        self.state = GameState.new(setup, rules, rng)
        self._order = [(first_seat + k) % n for k in range(n)]
        self._at = -1  # index in the order of the seat whose turn it is
        self._winners: tuple[int, ...] = ()
        self._over = False
        self.roll: Roll | None = None  # this turn's dice, once the turn has a decision
        self._options: Mapping[int, int] | RotationOptions | None = None
        self._actions: list[Action] | None = None
        self._next_turn()

    def clone(self, seed: int | None = None) -> TerrainGame:
        """An independent copy, the dice included: a search (a bot that looks ahead, a Monte Carlo
        player) applies actions to copies and the game it came from stays as it was. ``copy.copy``
        and ``copy.deepcopy`` give the same (a shallow copy shared the state and moved both games).

        ``seed``: the copy rolls its future dice, and the built-in players on it break their random
        choices, from this seed instead of the game's own, so that rollouts sample futures a player
        cannot know (every plain copy rolls what the game will); the roll already on the table stays."""
        if seed is not None:
            seed = check_seed(seed, error=ValueError, bounded=False)
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.state = self.state.clone()
        rng = random.Random()
        if seed is None:
            rng.setstate(self._dice._rng.getstate())
        else:  # two streams from the seed: the dice first, as a new game draws them, then the players'
            base = random.Random(seed)
            rng = random.Random(base.getrandbits(64))
            other.state.rng = random.Random(base.getrandbits(64))
        other._dice = RandomDice(rng)
        other._order = list(self._order)
        if isinstance(self._options, RotationOptions):  # it reads the board of its own state
            other._options = RotationOptions(other.state, self._options.can_invert)
        other._actions = None if self._actions is None else list(self._actions)
        return other

    def __repr__(self) -> str:
        state = "over" if self._over else f"player {self.current_player()} to decide"
        return f"<TerrainGame {self.players} players, round {self.state.round}, {state}>"

    def __getstate__(self) -> dict:
        """Pickled as the game it is: a program that keeps a game between messages, or sends states
        to worker processes, gets the same game back (the board's tables are made again)."""
        state = dict(self.__dict__)
        if isinstance(self._options, Mapping):  # a read-only view of the engine's table
            state["_options"] = dict(self._options)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if isinstance(self._options, dict):
            self._options = MappingProxyType(self._options)

    def _position_key(self) -> tuple:
        st, roll, start = self.state, self.roll, self.state.setup.board
        return (start.radius, start.present, start.level, start.pattern, start.rotation, start.inverted,
                st.setup.starts, st.setup.groups, st.rules, st.board.rotation, st.board.inverted,
                st.pos, st.collected, st.finished,
                st.round, st.turns, self._order, self._at, self._over, self._winners,
                None if roll is None else (roll.white, roll.red, roll.green))

    def __eq__(self, other: object) -> bool:
        """Equal when the games stand alike: the same board, rules and pieces, the tokens where they
        are, the same player to decide on the same roll. The dice still to come are not compared (a
        clone with another seed stands where its game stands)."""
        if not isinstance(other, TerrainGame):
            return NotImplemented
        return self._position_key() == other._position_key()

    __hash__ = None  # a game changes as it is played

    def __copy__(self) -> TerrainGame:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> TerrainGame:
        return self.clone()

    # -- queries ------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        """How many players the game seats (the layout's players)."""
        return self.state.players

    def current_player(self) -> int:
        """The player to decide, or -1 once the game is over."""
        return -1 if self._over else self._order[self._at]

    def is_terminal(self) -> bool:
        """Whether the game has ended: a winner, or the turn cap reached undecided."""
        return self._over

    def winners(self) -> list[int]:
        """The players who won (a team wins together); empty before the end, or when the game
        reached the turn cap undecided. A list, as the other games' states give it."""
        return list(self._winners)

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others; all 0 before the end or with no winner."""
        out = [0.0] * self.players
        for seat in self._winners:
            out[seat] = 1.0 / len(self._winners)
        return out

    def position(self, player: int) -> Hex | None:
        """Where ``player``'s token stands, or None once it has finished and left the board."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise ValueError(f"no player {player!r}: players are 0 to {self.players - 1}")
        cell = self.state.pos[player]
        return None if cell < 0 else self.state.board.hexes[cell]

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in a fixed order (none once the game is over)."""
        if self._over:
            return []
        if self._actions is None:
            self._actions = self._list_actions()
        return list(self._actions)

    # -- moves --------------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Take ``action`` for the current player and play on to the next decision. An action
        that is not legal now is an IllegalActionError (a ValueError) and changes nothing."""
        if self._over:
            raise IllegalActionError("the game is over")
        action = as_tuple(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(f"{action!r} is not a legal action now; legal_actions() lists them")
        action = legal[legal.index(action)]  # the list's own: a rotation of 1.0 or True equals 1 but broke the tables
        seat, hexes = self.current_player(), self.state.board.index
        if action[0] == "move":
            apply_move(self.state, seat, hexes[action[1]])
        elif action[0] == "rotate":
            apply_action(self.state, ("rotate", hexes[action[1]], action[2]))
        elif action[0] == "invert":
            apply_action(self.state, ("invert", hexes[action[1]]))
        else:
            self.state.forfeits += 1
        self._end_turn(seat)

    # -- the turn loop, as the engine plays it --------------------------------------------------
    def _list_actions(self) -> list[Action]:
        hexes = self.state.board.hexes
        if isinstance(self._options, RotationOptions):
            opts = self._options
            out: list[Action] = []
            if self.state.rules.rotations_matter:
                board = self.state.board
                out += [("rotate", hexes[c], k) for c in opts.rotatable() for k in range(6) if k != board.rotation[c]]
            if opts.can_invert:
                out += [("invert", hexes[c]) for c in opts.invertible()]
            return out + [("forfeit",)]
        return [("move", hexes[c]) for c in sorted(self._options or ())]

    def _end_turn(self, seat: int) -> None:
        if not self._won(seat):
            self._next_turn()

    def _won(self, seat: int) -> bool:
        """Whether ``seat``'s turn just won the game (its team's, in team play), as the engine asks
        after every turn."""
        won = _winners(self.state, seat)
        if won:
            self._winners, self._over = won, True
        return bool(won)

    def _next_turn(self) -> None:
        """On to the next player with a decision to take, playing out turns that have none."""
        state = self.state
        while True:
            self._options = self._actions = self.roll = None
            self._at += 1
            if self._at == len(self._order):
                self._at = 0
            if self._at == 0:
                if state.round >= state.rules.turn_cap:
                    self._over = True  # undecided at the turn cap
                    return
                state.round += 1
            seat = self._order[self._at]
            if state.finished[seat]:
                continue
            state.turns[seat] += 1
            if self._begin_turn(seat):
                return
            if self._won(seat):  # (a turn with nothing to decide wins nothing, but the engine asks)
                return

    def _begin_turn(self, seat: int) -> bool:
        """Roll this turn's dice; whether the player has a decision to take (else the turn is over)."""
        state, rules = self.state, self.state.rules
        if rules.green:
            g = self._dice.green()
            for _ in range(MAX_REROLLS):
                w, r = self._dice.roll()
                if w != r:
                    break
            else:
                state.forfeits += 1
                return False
            self.roll = Roll(w, r, g)
            self._options = line_options(state, seat, self.roll)
            return bool(self._options)
        w, r = self._dice.roll()
        self.roll = Roll(w, r)
        if w == r:
            opts = RotationOptions(state, rules.inversion and rules.interactions and w == 6)
            if not (rules.rotations_matter or opts.can_invert):
                state.forfeits += 1
                return False
            self._options = opts
            return True
        self._options = move_options(state, seat, self.roll)
        return True
