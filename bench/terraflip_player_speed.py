"""TerraFlip's greedy and memory players: games per second now, side by side with scoring the
whole table for every change they weigh (as they did before).

A tile's points depend on itself and its six neighbours, so a placement or a flip moves the
points of seven cells at most; the players now score those again and count the table once a
turn. The baseline puts the old way back in the same process (every margin from the whole
table), plays the same games and checks the reports are the same.

    python bench/terraflip_player_speed.py --games 40 --repeats 3
"""

from __future__ import annotations

import argparse
import platform
import time

from terragen.terraflip import players
from terragen.terraflip.simulate import PlaySpec, simulate


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


def timed(spec: PlaySpec) -> tuple[float, object]:
    start = time.perf_counter()
    report = simulate(spec)
    return time.perf_counter() - start, report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    spec = PlaySpec(players=4, games=args.games, seed=args.seed, policies=("memory",))
    new = players.GreedyPolicy.flip_value, players.GreedyPolicy.placement_value
    rows = []
    for _ in range(args.repeats):
        t_new, rep_new = timed(spec)
        players.GreedyPolicy.flip_value, players.GreedyPolicy.placement_value = _old_flip_value, _old_placement_value
        try:
            t_old, rep_old = timed(spec)
        finally:
            players.GreedyPolicy.flip_value, players.GreedyPolicy.placement_value = new
        assert rep_new == rep_old, "the baseline played other games"
        rows.append((t_old, t_new))
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}; {args.games} games of "
          f"four memory players (seed {args.seed}), the same games both ways")
    for t_old, t_new in rows:
        print(f"  before {t_old:6.2f} s ({args.games / t_old:5.2f} games/s)   now {t_new:6.2f} s "
              f"({args.games / t_new:5.2f} games/s)   {t_old / t_new:.2f}x")
    print(f"best of {args.repeats}: {min(r[0] for r in rows) / min(r[1] for r in rows):.2f}x")


if __name__ == "__main__":
    main()
