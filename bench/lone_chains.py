"""Building lone-token chains with the greedy player's compiled answers against its Python ones.

    python bench/lone_chains.py [--destinations N] [--repeat R]

The balance search builds an exact lone chain (``terragen/terrain/sim/lone_chain.py``) for every
(seat, destinations) it ranks: hundreds a five-seat run, spread over the simulation processes. For
each bench board and seat, N one-seat layouts with seeded random destinations are built with the
compiled first answers (``greedy_kernels``) and with ``GreedyPolicy``'s own, alternately, R times
each; prints the best chains per second of each and their ratio, and checks that both give the same
chains (finishing rounds, states, turns at the finish).
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fast_turns import BOARDS, best_alternately  # noqa: E402  (its boards and timing helpers)
from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.layout import Destination  # noqa: E402
from terragen.terrain.sim import Rules, greedy_kernels  # noqa: E402
from terragen.terrain.sim.lone_chain import lone_chain  # noqa: E402
from terragen.terrain.sim.policies import load_policy  # noqa: E402


def lone_layouts(layout, per_seat: int, seed: int) -> list:
    """Per seat, ``per_seat`` one-seat copies of ``layout`` with the seat's destinations moved to
    random cells (as many as it has), as the balance search tries them."""
    rng = random.Random(seed)
    cells = [c for c in layout.cells if c.level > 0]
    out = []
    for player in layout.players:
        for _ in range(per_seat):
            one = copy.deepcopy(layout)
            seat = copy.deepcopy(player)
            seat.destinations = [Destination(c.q, c.r) for c in rng.sample(cells, len(player.destinations))]
            one.players = [seat]
            out.append(one)
    return out


def _build(layouts: list, compiled: bool) -> tuple[float, list]:
    greedy_kernels.COMPILED = compiled
    greedy = load_policy("greedy")
    start = time.perf_counter()
    chains = [lone_chain(one, Rules(), greedy) for one in layouts]
    return len(layouts) / (time.perf_counter() - start), chains


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--destinations", type=int, default=12, help="random destination sets per seat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--boards", nargs="*", default=list(BOARDS), help="file names under bench/boards")
    args = parser.parse_args()
    if not greedy_kernels.COMPILED:
        sys.exit("the compiled kernels were not built (no C compiler at install time?)")
    print(f"{'board':40} {'chains':>6} {'python/s':>9} {'compiled/s':>10} {'ratio':>6}")
    for name in args.boards:
        layouts = lone_layouts(load_layout(HERE / "boards" / name), args.destinations, seed=1)
        python, fast = best_alternately(lambda on: _build(layouts, on), args.repeat,
                                        f"{name}: the compiled answers built other chains")
        print(f"{name:40} {len(layouts):6} {python:9.1f} {fast:10.1f} {fast / python:5.2f}x", flush=True)
    greedy_kernels.COMPILED = True


if __name__ == "__main__":
    main()
