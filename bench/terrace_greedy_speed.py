"""Terrace's greedy player: games per second now, side by side with the way it was before.

The greedy player weighs every legal move by playing it and asking whether the game is over;
that asked for every move of the other side (`result` listed them all) and found the T by
building the whole piece map. Both now stop early. The baseline puts the two old ways back in
the same process, plays the same games and checks they are the same.

    python bench/terrace_greedy_speed.py --games 40 --repeats 3
"""

from __future__ import annotations

import argparse
import platform
import time

from terragen.terrace.play import play_match
from terragen.terrace.position import Position


def _old_has_move(self: Position) -> bool:
    return bool(self._gen_all())


def _old_t_square(self: Position, side: str):
    for sq, p in self.pieces().items():
        if p.side == side and p.kind == "T":
            return sq
    return None


def timed(games: int, seed: int) -> tuple[float, dict]:
    start = time.perf_counter()
    report = play_match(Position.start("full"), ["greedy", "greedy"], games, seed, 300)
    return time.perf_counter() - start, report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    new_has, new_t = Position._has_move, Position.t_square
    rows = []
    for _ in range(args.repeats):
        t_new, rep_new = timed(args.games, args.seed)
        Position._has_move, Position.t_square = _old_has_move, _old_t_square
        try:
            t_old, rep_old = timed(args.games, args.seed)
        finally:
            Position._has_move, Position.t_square = new_has, new_t
        assert rep_new == rep_old, "the baseline played other games"
        rows.append((t_old, t_new))
    plies = rep_new["plies"]["mean"] * args.games
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}; "
          f"{args.games} greedy-vs-greedy games (full set-up, seed {args.seed}, {plies:.0f} plies), same games both ways")
    for t_old, t_new in rows:
        print(f"  before {t_old:6.2f} s ({args.games / t_old:5.2f} games/s)   now {t_new:6.2f} s "
              f"({args.games / t_new:5.2f} games/s)   {t_old / t_new:.2f}x")
    best_old, best_new = min(r[0] for r in rows), min(r[1] for r in rows)
    print(f"best of {args.repeats}: {best_old / best_new:.2f}x")


if __name__ == "__main__":
    main()
