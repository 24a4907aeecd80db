"""A TerraFlip game in progress, in the OpenSpiel manner: legal actions, apply, returns.

The state knows both faces of every tile; what each seat *knows* is tracked
separately (own tiles if the options say so, tiles it spied on, tiles anyone
saw flipped), so policies can be held to the information a real player has.
A turn is a short sequence of actions: optional spies, one placement, then
flips (or a special power) until the player stops or a flip shows a colour
that is not theirs.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from terragen.errors import IllegalActionError, SpecError
from terragen.grids.hex import Hex
from terragen.terraflip import rules
from terragen.terraflip.model import FAMILIES, REGULAR, SPIES_PER_PLAYER, TileSet, default_tileset
from terragen.terraflip.rules import Board, Options, Placed
from terragen.terraflip.scoring import Standing, standings, winners

PLACE, POWER, CHAIN, OVER = "place", "power", "chain", "over"


@dataclass(frozen=True)
class Action:
    """``place`` (tile, pos), ``flip`` (pos), ``campsite`` (pos), ``catapult`` (pos -> dst),
    ``spy`` (pos) or ``end`` (stop flipping)."""

    kind: str
    pos: Hex | None = None
    tile: str | None = None
    dst: Hex | None = None

    def __str__(self) -> str:
        if self.kind == "place":
            return f"place {self.tile} at {self.pos}"
        if self.kind == "catapult":
            return f"catapult {self.pos} -> {self.dst}"
        return self.kind if self.pos is None else f"{self.kind} {self.pos}"

    @classmethod
    def of(cls, action: object) -> "Action":
        """``action`` as an Action: a tuple or a list read from JSON (``["flip", [1, 0]]``, ``("place",
        (3, 0), "K1")``) or an Action holding lists for its places, as the other games take them."""
        from terragen.actions import as_tuple

        if isinstance(action, Action):
            fields = (action.kind, action.pos, action.tile, action.dst)
        elif isinstance(action, (tuple, list)) and 1 <= len(action) <= 4:
            fields = tuple(as_tuple(list(action)))
        else:
            raise IllegalActionError(f"an action is an Action (kind, pos, tile, dst) or such a tuple, not {action!r}")
        fields = tuple(tuple(f) if isinstance(f, list) else f for f in fields)
        try:
            return cls(*fields)
        except TypeError:
            raise IllegalActionError(f"an action is an Action (kind, pos, tile, dst) or such a tuple, not {action!r}") from None


END = Action("end")


@dataclass
class GameState:
    players: int
    tileset: TileSet
    options: Options
    board: Board
    hands: list[list[str]]
    spies: list[int]
    known: list[set[str]]  # per seat: tile ids whose hidden face that seat has seen
    public: set[str] = field(default_factory=set)  # tile ids everyone saw flip
    current: int = 0
    phase: str = PLACE
    anchor: Hex | None = None
    placed: Hex | None = None
    log: list[str] = field(default_factory=list)

    def clone(self) -> "GameState":
        """An independent copy to try actions on (OpenSpiel's name): a search applies actions to
        copies and the game it came from stays as it was. ``copy.copy`` gives the same (a shallow
        copy shared the board and the hands, so an action on it changed both games)."""
        return copy.deepcopy(self, {id(self.tileset): self.tileset})

    def __repr__(self) -> str:
        """A line, not the dataclass's thousands of characters of tile set and board."""
        state = "over" if self.is_terminal() else f"seat {self.current} to act ({self.phase})"
        return (f"<TerraFlip GameState: {self.players} players, {sum(len(h) for h in self.hands)} tiles in hand, "
                f"{state}>")

    def __copy__(self) -> "GameState":
        return self.clone()

    @classmethod
    def new(cls, players: int, tileset: TileSet | None = None, options: Options | None = None) -> "GameState":
        """A game at its start: every seat holds its family's tiles (the shipped set unless
        ``tileset``), nothing is on the table but the tower, and nobody has seen a hidden face
        (unless ``options`` lets owners know their own). Nothing is random: the hidden faces
        are the tile set's, so the same arguments give the same game."""
        from terragen.actions import whole_number

        if whole_number(players) is None or not 2 <= players <= 4:  # 3.0 failed inside on range()
            raise SpecError(f"TerraFlip is played by 2 to 4 players, got {players!r}")
        players = whole_number(players)
        tileset = tileset or default_tileset()
        options = options or Options()
        options.check()
        options.bonuses(players)
        fams = FAMILIES[:players]
        hands = [[t.id for t in tileset.tiles((f,))] for f in fams]
        known = [set(h) if options.owner_knows_backs else set() for h in hands]
        return cls(players, tileset, options, Board(), hands, [SPIES_PER_PLAYER] * players, known)

    # --- views -------------------------------------------------------------------------------

    @property
    def colours(self) -> tuple[str, ...]:
        """Each seat's family colour, in seat order."""
        return FAMILIES[: self.players]

    @property
    def colour(self) -> str:
        """The colour of the seat to act."""
        return self.colours[self.current]

    def is_terminal(self) -> bool:
        """Whether every tile is down and the game is scored."""
        return self.phase == OVER

    def current_player(self) -> int:
        """The seat to act, or -1 once the game is over: OpenSpiel's name, as the other games' states
        answer it (``current`` is the same seat while the game goes on)."""
        return -1 if self.is_terminal() else self.current

    def knows(self, seat: int, tile_id: str) -> bool:
        """Whether ``seat`` has seen the hidden face of ``tile_id`` (flipped in public, spied, or its
        own): what a fair player may base a choice on. (Not checked: the players ask it for every
        tile they weigh.)"""
        return tile_id in self.public or tile_id in self.known[seat]

    def hand_kinds(self, seat: int) -> dict[str, list[str]]:
        """The tiles ``seat`` still holds, by kind (regular, knight, campsite, catapult)."""
        self._check_seat(seat)
        out: dict[str, list[str]] = {}
        for tid in self.hands[seat]:
            out.setdefault(self.tileset.tile(tid).kind, []).append(tid)
        return out

    def _check_seat(self, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.players):  # an IndexError from inside
            raise SpecError(f"no seat {seat!r} in a game of {self.players}")

    def flip_targets(self) -> dict[Hex, list[Hex]]:
        """The tiles the seat to act may flip now, each with the tiles that frame it."""
        if self.phase == POWER or (self.phase == CHAIN and self.anchor == self.placed):
            return rules.first_targets(self.board, self.placed, self.colour, self.options)
        if self.phase == CHAIN:
            return rules.frame_targets(self.board, self.anchor, self.colour, self.options)
        return {}

    def legal_actions(self, spies: bool = True) -> list[Action]:
        """Every action the seat to act may take, in a fixed order; ``spies=False`` leaves out
        looking at a hidden face, which changes nothing on the table (players that never spy)."""
        if self.phase == OVER:
            return []
        out: list[Action] = []
        if self.phase == PLACE:
            for kind, ids in sorted(self.hand_kinds(self.current).items()):
                spots = rules.legal_positions(self.board, kind, self.players)
                out.extend(Action("place", h, tid) for tid in sorted(ids) for h in spots)
        else:
            if self.phase == POWER:
                kind = self.board.cells[self.placed].tile.kind
                if kind == "campsite":
                    out.extend(Action("campsite", h) for h in rules.campsite_targets(self.board, self.placed, self.colour))
                elif kind == "catapult":
                    out.extend(Action("catapult", s, None, d)
                               for s, d in rules.catapult_moves(self.board, self.placed, self.colour, self.players))
            out.extend(Action("flip", h) for h in self.flip_targets())
            out.append(END)
        if spies and self.spies[self.current] > 0:
            out.extend(Action("spy", h) for h, p in sorted(self.board.cells.items()) if p.tile.kind == REGULAR)
        return out

    # --- transitions -------------------------------------------------------------------------

    def apply(self, action: Action, check: bool = True) -> str | None:
        """Play ``action`` for the current seat; returns the colour seen by a spy or a flip.

        ``check=False`` skips the legality test for callers that picked the action from
        :meth:`legal_actions` themselves (the simulator), which saves recomputing it."""
        if check:
            if self.phase == OVER:
                raise IllegalActionError("the game is over")
            action = Action.of(action)
            if action not in self.legal_actions():
                raise IllegalActionError(f"{action} is not a legal action for seat {self.current} now "
                                         f"(phase {self.phase}); legal_actions() lists them")
        seat, colour = self.current, self.colour
        if action.kind == "spy":
            self.spies[seat] -= 1
            tile = self.board.cells[action.pos]
            self.known[seat].add(tile.tile.id)
            self.log.append(f"{colour} spies {action.pos}")
            return tile.hidden
        if action.kind == "place":
            tile = self.tileset.tile(action.tile)
            self.hands[seat].remove(action.tile)
            self.board.cells[action.pos] = Placed(tile, tile.front)
            self.placed = self.anchor = action.pos
            self.phase = POWER if tile.kind in ("campsite", "catapult") else CHAIN
            self.log.append(f"{colour} places {action.tile} at {action.pos}")
            if not self.legal_actions(spies=False)[:-1]:
                self._end_turn()  # nothing to flip or move: the turn is over
            return None
        if action.kind == "end":
            self._end_turn()
            return None
        if action.kind == "catapult":
            moved = self.board.cells.pop(action.pos)
            self.board.cells[action.dst] = moved
            self.log.append(f"{colour} catapults {action.pos} to {action.dst}")
            return self._flip(action.dst)
        return self._flip(action.pos)  # flip or campsite

    def _flip(self, h: Hex) -> str:
        p = self.board.cells[h]
        p.up = p.hidden
        self.public.add(p.tile.id)
        self.log.append(f"{self.colour} flips {h}: {p.up}")
        if p.up == self.colour:
            self.phase, self.anchor = CHAIN, h
            if not rules.frame_targets(self.board, h, self.colour, self.options):
                self._end_turn()
        else:
            self._end_turn()
        return p.up

    def _end_turn(self) -> None:
        self.anchor = self.placed = None
        for step in range(1, self.players + 1):
            seat = (self.current + step) % self.players
            kinds = self.hand_kinds(seat)
            if any(rules.legal_positions(self.board, k, self.players) for k in kinds):
                self.current, self.phase = seat, PLACE
                return
            if kinds:
                self.log.append(f"{self.colours[seat]} cannot place and passes")
        self.phase = OVER

    # --- results -----------------------------------------------------------------------------

    def standings(self) -> list[Standing]:
        """Each seat's points and tiles as the table stands (final once the game is over)."""
        return standings(self.board, self.colours, self.options.bonuses(self.players))

    def leaders(self, with_bonus: bool = True) -> list[int]:
        """The seats ahead as the table stands: most points, then most tiles (the turn-order
        bonus counted unless ``with_bonus`` is false)."""
        return winners(self.standings(), with_bonus)

    def winners(self, with_bonus: bool = True) -> list[int]:
        """The seats that won, once the game is over (none before, as the other games' states
        answer; it named the leaders of the moment: :meth:`leaders` does)."""
        return self.leaders(with_bonus) if self.is_terminal() else []

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others (bonus included); all 0 before the game
        is over, as OpenSpiel's returns are (it gave the leader of the moment 1)."""
        if not self.is_terminal():
            return [0.0] * self.players
        w = self.winners()
        return [1.0 / len(w) if s in w else 0.0 for s in range(self.players)]
