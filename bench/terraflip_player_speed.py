"""TerraFlip's greedy and memory players: games per second now, side by side with scoring the
whole table for every change they weigh (as they did before).

A tile's points depend on itself and its six neighbours, so a placement or a flip moves the
points of seven cells at most; the players now score those again and count the table once a
turn. The baseline puts the old way back in the same process (every margin from the whole
table), plays the same games and checks the reports are the same.

    python bench/terraflip_player_speed.py --games 40 --repeats 3
"""

from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from unittest.mock import patch

from terragen.terraflip import players
from terragen.terraflip.simulate import PlaySpec, simulate

sys.path.insert(0, os.path.dirname(__file__))
from games_side_by_side import arguments, side_by_side  # noqa: E402


def _old_flip_value(self, state, h, base, points=None):
    seat = state.current
    cell = state.board.cells[h]
    up = cell.up
    value = 0.0
    for colour, prob in players.belief(state, seat, h, self.memory).items():
        cell.up = colour
        value += prob * (players.margin(state, seat) - base)
    cell.up = up
    return value


def _old_placement_value(self, state, tile_id, kind, h, points=None):
    seat, colour, board = state.current, state.colour, state.board
    tile = state.tileset.tile(tile_id)
    board.cells[h] = players.rules.Placed(tile, tile.front)
    try:
        base = players.margin(state, seat)
        targets = list(players.rules.first_targets(board, h, colour, state.options))
        if kind in ("campsite", "catapult"):
            targets += players.rules.campsite_targets(board, h, colour)
        best, best_target = 0.0, None
        for t in targets:
            v = self.flip_value(state, t, base)
            if v > best:
                best, best_target = v, t
        hold = 0.5 if kind != players.REGULAR else 0.0
        return base + best - hold, best_target
    finally:
        del board.cells[h]


def main() -> None:
    args = arguments(__doc__)
    spec = PlaySpec(players=4, games=args.games, seed=args.seed, policies=("memory",))

    def old_code() -> ExitStack:
        stack = ExitStack()
        stack.enter_context(patch.object(players.GreedyPolicy, "flip_value", _old_flip_value))
        stack.enter_context(patch.object(players.GreedyPolicy, "placement_value", _old_placement_value))
        return stack

    side_by_side(lambda: simulate(spec), old_code, args.repeats, args.games,
                 lambda _: f"{args.games} games of four memory players (seed {args.seed})")


if __name__ == "__main__":
    main()
