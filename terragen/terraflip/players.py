"""Policies that play TerraFlip from one seat's point of view.

``random`` picks uniformly among legal moves. ``greedy`` maximises the score
margin one decision ahead and guesses hidden colours from the published tile
set (the base rates) only. ``memory`` plays the same way but remembers every
hidden face it has seen (its own tiles, spied tiles, flips) and narrows the
base rates by what it knows, and it spends spies on the flips it is unsure of.
Policies see the true board only through :func:`belief`, which honours what
the seat could know.
"""

from __future__ import annotations

import random

from terragen.grids.hex import Hex
from terragen.names import unknown_name
from terragen.terraflip import rules
from terragen.terraflip.model import FAMILIES, REGULAR
from terragen.terraflip.scoring import all_points, around, points_near, shifted
from terragen.terraflip.state import CHAIN, END, PLACE, POWER, Action, GameState

POLICIES = ("random", "greedy", "memory")


def belief(state: GameState, seat: int, h: Hex, memory: bool) -> dict[str, float]:
    """What ``seat`` may believe the hidden face of the tile at ``h`` is."""
    p = state.board.cells[h]
    tile = p.tile
    if p.up != tile.front:
        return {tile.front: 1.0}  # it was flipped: anyone can see it shows a foreign colour
    if memory and state.knows(seat, tile.id):
        return {p.hidden: 1.0}
    counts = dict(state.tileset.back_counts(tile.family))
    if memory:
        # Tiles of the same family whose backs this seat has seen are out of the pool.
        for tid in state.known[seat] | state.public:
            if tid != tile.id and tid.startswith(tile.family + "-") and state.tileset.tile(tid).kind == REGULAR:
                back = state.tileset.tile(tid).back
                if counts.get(back, 0) > 0:
                    counts[back] -= 1
    total = sum(counts.values())
    if total == 0:
        others = [c for c in FAMILIES if c != tile.front]
        return {c: 1.0 / len(others) for c in others}
    return {c: n / total for c, n in counts.items() if n}


def margin_after(state: GameState, seat: int, points: dict[str, int], before: dict[str, int],
                 after: dict[str, int]) -> int:
    """:func:`margin` of the table's ``points`` with some tiles' points ``before`` a change replaced
    by theirs ``after`` it (:func:`~terragen.terraflip.scoring.shifted`), without making the new
    table: the players weigh a few hundred thousand changes a run."""
    pts = [points.get(c, 0) - before.get(c, 0) + after.get(c, 0) for c in state.colours]
    return pts[seat] - max(p for s, p in enumerate(pts) if s != seat)


def margin(state: GameState, seat: int, points: dict[str, int] | None = None) -> int:
    """Own points minus the best opponent's points (bonus excluded: it never changes); ``points``:
    the table's points when the caller already has them."""
    if points is None:
        points = all_points(state.board)
    pts = [points.get(c, 0) for c in state.colours]
    return pts[seat] - max(p for s, p in enumerate(pts) if s != seat)


class Policy:
    name = "policy"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: GameState) -> Action:
        raise NotImplementedError


class RandomPolicy(Policy):
    name = "random"

    def act(self, state: GameState) -> Action:
        if state.phase == PLACE:
            kinds = state.hand_kinds(state.current)
            options = [(k, h) for k in sorted(kinds) for h in rules.legal_positions(state.board, k, state.players)]
            kind, h = self.rng.choice(options)
            return Action("place", h, self.rng.choice(sorted(kinds[kind])))
        return self.rng.choice(state.legal_actions(spies=False))


class GreedyPolicy(Policy):
    name = "greedy"
    memory = False

    def flip_value(self, state: GameState, h: Hex, base: int, points: dict[str, int] | None = None,
                   beliefs: dict[Hex, dict[str, float]] | None = None) -> float:
        """The expected gain in margin of turning ``h`` over; ``points``: the table's points as it
        is, when the caller has them (only ``h``'s neighbourhood is then scored again); ``beliefs``:
        what this seat believes of hidden faces, remembered over one decision (see
        :meth:`choose_placement`)."""
        seat = state.current
        cells = state.board.cells
        cell = cells[h]
        up = cell.up
        if points is None:
            points = all_points(state.board)
        near = around(h)
        before = points_near(cells, near)
        if beliefs is None:
            guess = belief(state, seat, h, self.memory)
        else:
            guess = beliefs.get(h)
            if guess is None:
                guess = beliefs[h] = belief(state, seat, h, self.memory)
        value = 0.0
        for colour, prob in guess.items():
            cell.up = colour
            value += prob * (margin_after(state, seat, points, before, points_near(cells, near)) - base)
        cell.up = up
        return value

    def catapult_value(self, state: GameState, src: Hex, dst: Hex, base: int) -> float:
        cells = state.board.cells
        moved = cells.pop(src)
        cells[dst] = moved
        try:
            return self.flip_value(state, dst, base)
        finally:
            del cells[dst]
            cells[src] = moved

    def best_power(self, state: GameState) -> tuple[float, Action]:
        """The most valuable flip-phase action and its expected gain over stopping."""
        base = margin(state, state.current)
        best: tuple[float, Action] = (0.0, END)
        for action in state.legal_actions(spies=False):
            if action.kind in ("flip", "campsite"):
                v = self.flip_value(state, action.pos, base)
            elif action.kind == "catapult":
                v = self.catapult_value(state, action.pos, action.dst, base)
            else:
                continue
            if v > best[0] + 1e-9 or (abs(v - best[0]) < 1e-9 and v > 0 and self.rng.random() < 0.5):
                best = (v, action)
        return best

    def placement_value(self, state: GameState, tile_id: str, kind: str, h: Hex,
                        points: dict[str, int] | None = None,
                        beliefs: dict[Hex, dict[str, float]] | None = None) -> tuple[float, Hex | None]:
        """The value of putting ``tile_id`` on ``h`` and the best first flip after it; ``points``: the
        table's points before it (the same for every placement a turn weighs); ``beliefs``: as for
        :meth:`flip_value`."""
        seat, colour, board = state.current, state.colour, state.board
        tile = state.tileset.tile(tile_id)
        if points is None:
            points = all_points(board)
        near = around(h)
        before = points_near(board.cells, near)
        board.cells[h] = rules.Placed(tile, tile.front)
        try:
            points = shifted(points, before, points_near(board.cells, near))
            base = margin(state, seat, points)
            targets = list(rules.first_targets(board, h, colour, state.options))
            if kind in ("campsite", "catapult"):
                targets += rules.campsite_targets(board, h, colour)
            best, best_target = 0.0, None
            for t in targets:
                v = self.flip_value(state, t, base, points, beliefs)
                if v > best:
                    best, best_target = v, t
            # Specials are worth keeping for a moment they matter: charge a small holding cost.
            hold = 0.5 if kind != REGULAR else 0.0
            return base + best - hold, best_target
        finally:
            del board.cells[h]

    def choose_placement(self, state: GameState) -> tuple[Action, Hex | None]:
        kinds = state.hand_kinds(state.current)
        scored = []
        points = all_points(state.board)  # the table before the placement: one count for every candidate
        # What the seat believes of a tile's hidden face rests on that tile and on what the seat has
        # seen, neither of which a placement being weighed changes (the placed tile is never its own
        # target), so each target's belief is worked out once a decision, not once per placement:
        # the same few tiles are targets of most placements
        beliefs: dict[Hex, dict[str, float]] = {}
        for kind in sorted(kinds):
            tid = self.pick_tile(state, sorted(kinds[kind]))
            for h in rules.legal_positions(state.board, kind, state.players):
                value, target = self.placement_value(state, tid, kind, h, points, beliefs)
                scored.append((value, self.rng.random(), Action("place", h, tid), target))
        scored.sort(key=lambda x: (-x[0], x[1]))
        return scored[0][2], scored[0][3]

    def pick_tile(self, state: GameState, ids: list[str]) -> str:
        return ids[0] if len(ids) == 1 else self.rng.choice(ids)

    def act(self, state: GameState) -> Action:
        if state.phase == PLACE:
            return self.choose_placement(state)[0]
        if state.phase in (POWER, CHAIN):
            return self.best_power(state)[1]
        return END


class MemoryPolicy(GreedyPolicy):
    """Greedy with a memory, and a spy habit: before placing, look under the tile it means to
    flip when the outcome is still uncertain (at most one spy per turn)."""

    name = "memory"
    memory = True

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._spied_turn: int | None = None

    def pick_tile(self, state: GameState, ids: list[str]) -> str:
        """Of its own regular tiles, put down the one whose hidden colour would gain least if an
        opponent flipped it: its own colour or one nobody plays first, then the opponent with
        fewest points.
        Only possible because the owner has seen its own backs."""
        if len(ids) == 1 or not state.options.owner_knows_backs:
            return super().pick_tile(state, ids)
        points = all_points(state.board)
        rivals = set(state.colours) - {state.colour}

        def cost(tid: str) -> tuple[bool, int, float]:
            back = state.tileset.tile(tid).back  # own colour or an absent family's: harmless
            return (back in rivals, points.get(back, 0), self.rng.random())

        return min(ids, key=cost)

    def act(self, state: GameState) -> Action:
        if state.phase == PLACE:
            action, target = self.choose_placement(state)
            turn = len(state.log)
            if (target is not None and state.spies[state.current] > 0 and self._spied_turn != turn
                    and len(belief(state, state.current, target, True)) > 1
                    and target in state.board.cells):
                self._spied_turn = turn + 1  # the spy adds one log line
                return Action("spy", target)
            return action
        return super().act(state)


def make_policy(name: str, seed: int) -> Policy:
    """The player called ``name``; an unknown name is a SpecError naming the choices (a library
    caller got a bare KeyError)."""
    classes = {"random": RandomPolicy, "greedy": GreedyPolicy, "memory": MemoryPolicy}
    if name not in classes:
        raise unknown_name("policy", name, list(classes))
    return classes[name](seed)
