"""One game of Terralogical as a state machine, in the style of OpenSpiel.

``legal_actions()`` lists what the player to move may do, ``apply()`` does it,
``is_terminal()`` and ``returns()`` end it. Actions are plain tuples so the
simulator can create millions cheaply:

* ``("place", hand_index, (row, col), rotation)``
* ``("draw",)``  - take the top tile of the shuffled draw pile
* ``("pass",)``  - only when neither placing nor drawing is possible

The face-down stacks of the rulebook are one shuffled pile here: drawing from
any of several randomly built stacks gives the same chances.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from terragen.actions import as_tuple, whole_number
from terragen.arguments import check_seed
from terragen.errors import IllegalActionError
from terragen.grids.square import Square
from terragen.terralogical.board import FLOWER_FIELDS, Board, Placed, RuleOptions, quick_points
from terragen.terralogical.scoring import final_scores
from terragen.terralogical.tiles import Tile

Action = tuple
DeckTile = tuple[str, Tile]  # (tile id, tile)


@dataclass
class GameState:
    players: int
    board: Board
    pile: list[DeckTile]
    hands: list[list[DeckTile]]
    options: RuleOptions = field(default_factory=RuleOptions)
    current: int = 0
    points: list[int] = field(default_factory=list)
    cubes_left: list[int] = field(default_factory=list)
    turns: int = 0
    placements: int = 0
    idle_turns: int = 0  # consecutive turns without a placement
    end_reason: str | None = None  # "flower" or "stall"
    history: list[tuple[int, Action]] = field(default_factory=list)

    def clone(self) -> "GameState":
        """An independent copy to try actions on (OpenSpiel's name): a search applies actions to
        copies and the game it came from stays as it was. ``copy.copy`` gives the same (a shallow
        copy shared the board and the hands, so an action on it changed both games)."""
        return copy.deepcopy(self, {id(self.options): self.options})

    def __repr__(self) -> str:
        """A line, not the dataclass's thousands of characters of board and pile."""
        state = f"over ({self.end_reason})" if self.is_terminal() else f"seat {self.current} to act"
        return (f"<Terralogical GameState: {self.players} players, turn {self.turns}, {len(self.pile)} tiles in the "
                f"pile, points {self.points}, {state}>")

    def __copy__(self) -> "GameState":
        return self.clone()

    @classmethod
    def new(
        cls, land_tiles: list[DeckTile], players: int, rng: random.Random | int, options: RuleOptions | None = None
    ) -> "GameState":
        """Set up: sun and flower tiles in random orientation, pile shuffled, 3 tiles per hand.
        ``rng`` may be a seed, as everywhere else in the library (a seed failed deep inside)."""
        if whole_number(players) is None or not 2 <= players <= 4:  # "3" failed on '<=' inside
            raise ValueError(f"Terralogical is for 2 to 4 players, got {players!r}")
        players = whole_number(players)
        if not isinstance(rng, random.Random):  # 'x' and -1 were taken, as no command takes them
            if whole_number(rng) is None:
                raise TypeError(f"rng is a random.Random or a seed (a whole number), not {rng!r}")
            rng = random.Random(check_seed(rng, "rng", ValueError, bounded=False))
        if isinstance(land_tiles, (str, bytes, dict)) or not isinstance(land_tiles, Iterable):
            raise TypeError(f"land_tiles is a deck's tiles (default_deck().tiles), not {type(land_tiles).__name__}")
        land_tiles = list(land_tiles)  # (a generator was used up by the check below and dealt no tiles)
        for entry in land_tiles:  # a bare code passed here and failed at the first legal_actions()
            if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], Tile)):
                raise ValueError(f"a land tile is (tile id, Tile), as a Deck's tiles are; got {entry!r}")
        options = options or RuleOptions()
        board = Board.initial(rng.randrange(4), rng.randrange(4))
        pile = list(land_tiles)
        rng.shuffle(pile)
        hands: list[list[DeckTile]] = [[] for _ in range(players)]
        for _ in range(options.hand_size):
            for seat in range(players):
                if pile:
                    hands[seat].append(pile.pop())
        return cls(
            players,
            board,
            pile,
            hands,
            options,
            points=[0] * players,
            cubes_left=[options.cubes_per_player] * players,
        )

    # -- queries ---------------------------------------------------------------
    def is_terminal(self) -> bool:
        """Whether the game has ended (a flower field reached, or a round in which nobody could
        change anything: ``end_reason`` says which)."""
        return self.end_reason is not None

    def current_player(self) -> int:
        """The seat to act, or -1 once the game is over: OpenSpiel's name, as the other games' states
        answer it (``current`` is the same seat while the game goes on)."""
        return -1 if self.is_terminal() else self.current

    def winners(self) -> list[int]:
        """The seats with the best final score (ties all win); none before the game is over."""
        if not self.is_terminal():
            return []
        scores = self.scores()
        return [seat for seat, score in enumerate(scores) if score == max(scores)]

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others; all 0 before the game is over, as OpenSpiel's
        returns are and the other games' states give them (they were the scores, so a search written
        for one game read another's returns on another scale)."""
        w = self.winners()
        return [1.0 / len(w) if s in w else 0.0 for s in range(self.players)]

    def placements_for(self, seat: int) -> list[tuple[int, Square, int, int]]:
        """Every legal (hand index, square, rotation, points) for a seat's hand.

        Identical tiles in a hand (possible only with a custom deck) and rotations
        of symmetric tiles are listed once each, as they lead to the same board.
        """
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a game of {self.players}")
        out = []
        hand = self.hands[seat]
        frontier = [(sq, self.board.touching(sq)) for sq in self.board.frontier()]
        rule = self.options.subsoil_rule
        seen_codes: set[str] = set()
        for idx, (_, tile) in enumerate(hand):
            if tile.code in seen_codes:
                continue
            seen_codes.add(tile.code)
            seen_orient: set[str] = set()
            rotations = []
            for k in range(4):
                sides = tile.rotated(k)
                key = "".join(t.code for t in sides)
                if key not in seen_orient:
                    seen_orient.add(key)
                    rotations.append((k, sides))
            for sq, touching in frontier:
                for k, sides in rotations:
                    pts = quick_points(sides, touching, rule)
                    if pts is not None:
                        out.append((idx, sq, k, pts))
        return out

    def legal_actions(self) -> list[Action]:
        """Placements first, then draw; pass only when nothing else is possible."""
        if self.is_terminal():
            return []
        actions: list[Action] = [("place", i, sq, k) for i, sq, k, _ in self.placements_for(self.current)]
        if self.pile:
            actions.append(("draw",))
        if not actions:
            actions.append(("pass",))
        return actions

    # -- moves -----------------------------------------------------------------
    def apply(self, action: Action) -> int:
        """Do the action for the player to move; returns the points it scored."""
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        seat = self.current
        scored = 0
        action = self._checked(as_tuple(action))  # a list read from JSON is the same action
        kind = action[0]
        if kind == "place":
            _, idx, sq, rot = action
            tile_id, tile = self.hands[seat][idx]
            chk = self.board.check(sq, tile, rot, self.options)
            if not chk.legal:
                raise IllegalActionError(f"illegal placement: {chk.problems[0][1]}")
            owner = seat if self.cubes_left[seat] > 0 else None
            if owner is not None:
                self.cubes_left[seat] -= 1
            self.board.tiles[sq] = Placed(tile, rot, tile_id, owner)
            del self.hands[seat][idx]
            scored = chk.points
            self.points[seat] += scored
            self.placements += 1
            self.idle_turns = 0
            if not self.hands[seat] and self.pile:
                self.hands[seat].append(self.pile.pop())
            if sq in FLOWER_FIELDS:
                self.end_reason = "flower"
        elif kind == "draw":
            if not self.pile:
                raise IllegalActionError("the draw pile is empty")
            self.hands[seat].append(self.pile.pop())
            self.idle_turns += 1
            if self.options.stall_rule == "empty-pile" and self.pile:
                self.idle_turns = 0  # drawing still changes the hands: not yet a dead round
        else:  # a pass
            self.idle_turns += 1
        self.history.append((seat, action))
        self.turns += 1
        stall_allowed = self.options.stall_rule != "empty-pile" or not self.pile
        if self.end_reason is None and self.idle_turns >= self.players and stall_allowed:
            self.end_reason = "stall"
        self.current = (seat + 1) % self.players
        return scored

    def _checked(self, action: Action) -> Action:
        """The action with its form checked and its numbers plain ints, so that a malformed action
        is an IllegalActionError saying what is wrong, not an IndexError from inside, and a rotation
        of ``True`` or ``numpy.int64(1)`` is the 1 it stands for (``True`` went into the board and
        its file, which then could not be read back); and a pass only when nothing else is legal
        (one was taken with placements open, ending games early)."""
        kind = action[0] if isinstance(action, tuple) and action else None
        if kind == "place":
            if len(action) != 4:
                raise IllegalActionError(f"a placement is ('place', hand index, (row, col), rotation), got {action!r}")
            _, idx, sq, rot = action
            hand = self.hands[self.current]
            idx, rot = whole_number(idx), whole_number(rot)
            if not hand:
                raise IllegalActionError(f"seat {self.current} holds no tiles to place")
            if idx is None or not 0 <= idx < len(hand):
                raise IllegalActionError(f"seat {self.current} holds {len(hand)} tiles: "
                                         f"a hand index is 0 to {len(hand) - 1}, got {action[1]!r}")
            if rot is None or not 0 <= rot < 4:
                raise IllegalActionError(f"a rotation is 0-3 quarter turns, got {action[3]!r}")
            square = tuple(whole_number(v) for v in sq) if isinstance(sq, tuple) else ()
            if len(square) != 2 or None in square:
                raise IllegalActionError(f"a square is (row, col), got {sq!r}")
            return ("place", idx, square, rot)
        if kind == "pass":
            if len(action) != 1:  # ("pass", "x") was taken as a pass
                raise IllegalActionError(f"a pass is ('pass',), got {action!r}")
            if self.pile or self.placements_for(self.current):
                raise IllegalActionError("a pass only when no tile can be laid and the pile is empty")
        elif kind != "draw" or len(action) != 1:
            raise IllegalActionError(f"unknown action {action!r}: ('place', ...), ('draw',) or ('pass',)")
        return action

    def scores(self) -> list[int]:
        """The scores as they stand (final once the game is over): placement points, flock prizes,
        minus one per tile in hand."""
        return final_scores(self.board, self.points, [len(h) for h in self.hands], self.options.min_flock,
                            self.options.flock_ties)
