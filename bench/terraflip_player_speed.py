"""TerraFlip's greedy and memory players: games per second now, side by side with older code.

Two baselines, each put back in the same process to play the same games (the reports must be
the same):

* ``--baseline whole-table`` (2026-12-04, the first change): every margin from the whole table.
  A tile's points depend on itself and its six neighbours, so a placement or a flip moves the
  points of seven cells at most; the players now score those again and count the table once a
  turn.
* ``--baseline per-placement`` (2026-12-05, the second): a target's belief worked out again for
  every placement weighed, a framing line's cells listed through ``line_cells``, and a cell's
  neighbours added up anew on every look, and a new table of points made for every margin. Now a
  belief is worked out once a decision, a line is walked on its remembered offsets, a cell's
  neighbours are made once, and a margin is read off the change.

    python bench/terraflip_player_speed.py --games 40 --repeats 3 [--baseline per-placement]
"""

from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from unittest.mock import patch

from terragen.grids.hex import DIRECTIONS
from terragen.terraflip import players, rules, scoring
from terragen.terraflip.geometry import line_cells
from terragen.terraflip.simulate import PlaySpec, simulate

sys.path.insert(0, os.path.dirname(__file__))
from games_side_by_side import arguments, side_by_side  # noqa: E402

BASELINES = ("whole-table", "per-placement")


def _old_flip_value(self, state, h, base, points=None, beliefs=None):
    seat = state.current
    cell = state.board.cells[h]
    up = cell.up
    value = 0.0
    for colour, prob in players.belief(state, seat, h, self.memory).items():
        cell.up = colour
        value += prob * (players.margin(state, seat) - base)
    cell.up = up
    return value


def _old_placement_value(self, state, tile_id, kind, h, points=None, beliefs=None):
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


# ---- the per-placement baseline: the code as it was before the second change -------------------

def _old_around(h):
    q, r = h
    return [h] + [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def _old_points_near(cells, hexes):
    out = {}
    get = cells.get
    for q, r in hexes:
        p = get((q, r))
        if p is None:
            continue
        up = p.up
        joined = False
        for dq, dr in DIRECTIONS:
            n = get((q + dq, r + dr))
            if n is not None and n.up == up:
                joined = True
                break
        out[up] = out.get(up, 0) + (2 if joined else 1)
    return out


def _old_passable(board, h, options):
    if h == rules.TOWER:
        return options.tower_passable
    return h in board.cells


def _old_frame_line(board, a, b, colour, options):
    if board.colour(a) != colour or board.colour(b) != colour:
        return None
    if options.lines == "axes" and not rules.is_axis_line(a, b):
        return None
    centres, off = line_cells(a, b, options.lines == "axes")
    if not centres:
        return None
    out = []
    for h in centres:
        if not _old_passable(board, h, options):
            return None
        p = board.cells.get(h)
        if p is None:
            continue
        if p.up == colour:
            return None
        if p.tile.kind == players.REGULAR:
            out.append(h)
    for h in off:
        if not _old_passable(board, h, options):
            return None
    return out


def _flip_value_without_beliefs(self, state, h, base, points=None, beliefs=None):
    seat = state.current
    cells = state.board.cells
    cell = cells[h]
    up = cell.up
    if points is None:
        points = scoring.all_points(state.board)
    near = _old_around(h)
    before = _old_points_near(cells, near)
    value = 0.0
    for colour, prob in players.belief(state, seat, h, self.memory).items():  # every belief worked out again
        cell.up = colour
        value += prob * (players.margin(state, seat, scoring.shifted(points, before, _old_points_near(cells, near)))
                         - base)
    cell.up = up
    return value


def _per_placement_code() -> ExitStack:
    stack = ExitStack()
    for module in (players, scoring):
        stack.enter_context(patch.object(module, "around", _old_around))
        stack.enter_context(patch.object(module, "points_near", _old_points_near))
    stack.enter_context(patch.object(rules, "frame_line", _old_frame_line))
    stack.enter_context(patch.object(players.GreedyPolicy, "flip_value", _flip_value_without_beliefs))
    return stack


def _whole_table_code() -> ExitStack:
    stack = ExitStack()
    stack.enter_context(patch.object(players.GreedyPolicy, "flip_value", _old_flip_value))
    stack.enter_context(patch.object(players.GreedyPolicy, "placement_value", _old_placement_value))
    return stack


def main() -> None:
    baseline = "whole-table"
    if "--baseline" in sys.argv:  # the shared parser takes --games, --repeats and --seed only
        at = sys.argv.index("--baseline")
        baseline = sys.argv[at + 1] if at + 1 < len(sys.argv) else ""
        del sys.argv[at:at + 2]
        if baseline not in BASELINES:
            sys.exit(f"--baseline must be one of {', '.join(BASELINES)}")
    args = arguments(__doc__)
    spec = PlaySpec(players=4, games=args.games, seed=args.seed, policies=("memory",))
    old_code = _whole_table_code if baseline == "whole-table" else _per_placement_code
    side_by_side(lambda: simulate(spec), old_code, args.repeats, args.games,
                 lambda _: f"{args.games} games of four memory players (seed {args.seed}), baseline {baseline}")


if __name__ == "__main__":
    main()
