"""What the work meter's charges cost in time, and how much of the generator's own work they cover.

Part 1 times each charged call (``terragen/terrain/work_meter.py``, ``COSTS``) on the generated
boards in ``bench/boards`` and prints the measured microseconds beside the charge.
Part 2 runs ``generate_board`` on a few specs and compares, for the main process, the CPU seconds
it used with the seconds the meter charged (the simulation processes' games are counted apart, as
turns), and gives the share of the work budget the main process's work filled by the run's end.

    python bench/work_meter_costs.py [--specs 4:brutal:5201 6:hard:5202 ...]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from pathlib import Path

BOARDS = Path(__file__).parent / "boards"


def _per_call(fn, repeat: int = 5, number: int = 40) -> float:
    """Median over ``repeat`` rounds of the microseconds one call of ``fn`` takes."""
    rounds = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        rounds.append((time.perf_counter() - t) / number * 1e6)
    return statistics.median(rounds)


def part_one() -> None:
    from terragen.terrain import race
    from terragen.terrain.analysis import _reach_tree
    from terragen.terrain.board import Board
    from terragen.terrain.expected import near_sources, solve_layer
    from terragen.terrain.generate.evaluate import cliff_exits
    from terragen.terrain.files import load_layout
    from terragen.terrain.paths import _arcs, _dijkstra, cheapest_path, reachable
    from terragen.terrain.work_meter import COSTS

    measured: dict[str, list[float]] = {k: [] for k in COSTS}
    for path in sorted(BOARDS.glob("*.json")):
        layout = load_layout(path)
        board = Board.from_layout(layout)
        seats, _ = race.layout_seats(layout, board)
        near = near_sources(board)
        fwd = race.forward_reach(board, near)
        start, goals = seats[0]
        arcs = _arcs(board, True)
        measured["dijkstra"].append(_per_call(lambda: _dijkstra(arcs, start, None)))
        measured["cheapest_path"].append(_per_call(lambda: cheapest_path(board, start, goals[0])))
        measured["reach"].append(_per_call(lambda: reachable(board, start)))
        measured["reach"].append(_per_call(lambda: _reach_tree(board, start)))
        measured["expected_layer"].append(_per_call(lambda: solve_layer(len(board), near, {goals[0]: 0.0}), number=10))
        measured["cliff_exits"].append(_per_call(lambda: cliff_exits(board)))
        rank = range(len(board))
        chain_us = _per_call(lambda: race._chain(board, fwd, start, goals, near, rank), number=5)
        layers = (1 << len(goals)) - 1
        layer_us = statistics.median(measured["expected_layer"][-1:])
        measured["race_chain"].append(max(0.0, chain_us - layers * layer_us))
        chain = race._chain(board, fwd, start, goals, near, rank)
        measured["race_spread"].append(_per_call(lambda: race._propagate(chain[0], chain[1], chain[2], 1e-9), number=5))
        races = [race.seat_race(board, k, s, g, near=near, fwd=fwd) for k, (s, g) in enumerate(seats)]
        measured["win_probabilities"].append(_per_call(lambda: race.win_probabilities(races)))
    measured["symmetry_restore"].append(_restore_cost())
    print("charged call        charge us   measured us (median over boards, range)")
    for key, charge in COSTS.items():
        got = measured[key]
        print(f"{key:20s} {charge:8d}   {statistics.median(got):8.0f} ({min(got):.0f}-{max(got):.0f})")


def _restore_cost() -> float:
    """A symmetric four-seat board put right after a random move, as the repair does it."""
    from terragen.terrain.generate import roughness
    from terragen.terrain.generate.construct import board_symmetry, construct
    from terragen.terrain.generate.options import build_spec
    from terragen.terrain.generate.search import _move
    from terragen.terrain.pieces import load_inventory

    spec, _ = build_spec(_flags(4, "hard", 1), None)
    inv = load_inventory(spec.inventory_name())
    rng = random.Random(1)
    sym = board_symmetry(spec, inv)
    cand = construct(spec, inv, rng, roughness(spec), sym)
    pairs = []
    while len(pairs) < 200:
        new = _move(cand, spec, rng, list(range(len(cand.board))))
        if new is not None and new.mirror is not None:
            pairs.append(new)
    t = time.perf_counter()
    for new in pairs:
        new.mirror.restore(cand, new)
    return (time.perf_counter() - t) / len(pairs) * 1e6


def _flags(players: int, difficulty: str, seed: int) -> dict:
    return {"players": players, "difficulty": difficulty, "seed": seed, "time_limit": 60, "destinations": None,
            "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}


def part_two(specs: list[str]) -> None:
    import terragen.terrain.sim.pool as pool_module
    from terragen.terrain import work_meter
    from terragen.terrain.generate import BalanceSettings, generate_board, turns_per_second, work_budget
    from terragen.terrain.generate.options import build_spec

    pools = []
    init = pool_module.GamePool.__init__

    def remember(self, *a, **k):
        init(self, *a, **k)
        pools.append(self)

    pool_module.GamePool.__init__ = remember
    print("\nspec                 wall s   main CPU s   meter s   meter / CPU   turns played   "
          "main work / budget")
    ratios = []
    for text in specs:
        players, difficulty, seed = text.split(":")
        spec, _ = build_spec(_flags(int(players), difficulty, int(seed)), None)
        cpu0, wall0, meter0 = time.process_time(), time.monotonic(), work_meter.spent()
        generate_board(spec, int(seed), 60, balance=BalanceSettings(), best_effort=True, workers=None)
        cpu, wall, meter = time.process_time() - cpu0, time.monotonic() - wall0, (work_meter.spent() - meter0) / 1e6
        ratios.append(meter / cpu)
        main_share = work_meter.seconds_since(meter0) * turns_per_second(int(players)) / work_budget(int(players), 60)
        print(f"{text:20s} {wall:6.1f}   {cpu:10.1f}   {meter:7.1f}   {meter / cpu:11.2f}   {pools[-1].turns_played:12,d}"
              f"   {main_share:18.2f}")
    print(f"meter / CPU: median {statistics.median(ratios):.2f}, range {min(ratios):.2f}-{max(ratios):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", nargs="*", default=["4:brutal:5201", "4:hard:5202", "4:medium:5203",
                                                         "6:hard:5204", "6:brutal:5205", "5:medium:5206"])
    parser.add_argument("--skip-calls", action="store_true", help="only part 2")
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}")
    if not args.skip_calls:
        part_one()
    if args.specs:
        part_two(args.specs)


if __name__ == "__main__":
    main()
