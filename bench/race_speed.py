"""How long the exact race model takes per board (it is the generator's inner measure).

    python bench/race_speed.py [--repeats N]

Boards: the README board (4 seats, 1 destination each), a 6-seat board (1
each), the 4-player example (2 each) and a 3-seat board with 3 destinations
each built by bench/sim_board.py. Baseline in the same run: the exact
expected-turns analysis of the same seats (what the generator measured before),
so the ratio says what the race model costs on top of it; "near shared" is the
race model when the caller passes the board's cells-within-6-points table it
already has. Median CPU ms per call.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from sim_board import standard_board  # noqa: E402

from terragen.templates import template_path  # noqa: E402
from terragen.terrain.board import Board  # noqa: E402
from terragen.terrain.expected import expected_turns, near_sources  # noqa: E402
from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.race import layout_seats, race_model  # noqa: E402


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return 1000 * statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=30)
    args = ap.parse_args()
    boards = {
        "README board, 4 seats x 1": load_layout(HERE / "boards" / "readme-4p-hard-seed1.json"),
        "6 seats x 1": load_layout(HERE / "boards" / "six-easy-seed1.json"),
        "4-player example, 4 seats x 2": load_layout(template_path("terrain", "examples", "four-players.txt")),
        "3 seats x 3 (sim_board)": standard_board(5, players=3, destinations=3),
    }
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; "
          f"median of {args.repeats} (CPU ms)")
    print(f"{'board':<32} {'expected turns':>15} {'race model':>11} {'ratio':>6} {'near shared':>12} {'horizon':>8}")
    for label, layout in boards.items():
        board = Board.from_layout(layout)
        seats, numbers = layout_seats(layout, board)

        def analysis() -> None:
            near = near_sources(board)
            for start, goals in seats:
                expected_turns(board, start, goals, near)

        def race() -> None:
            race_model(board, seats, seat_numbers=numbers)

        near = near_sources(board)

        def race_shared() -> None:  # a generator trying destinations on one terrain keeps near
            race_model(board, seats, seat_numbers=numbers, near=near)

        race()  # numpy import and first-call costs out of the way
        base = median_ms(analysis, args.repeats)
        ours = median_ms(race, args.repeats)
        shared = median_ms(race_shared, args.repeats)
        horizon = race_model(board, seats).horizon
        print(f"{label:<32} {base:15.2f} {ours:11.2f} {ours / base:6.2f} {shared:12.2f} {horizon:8d}")


if __name__ == "__main__":
    main()
