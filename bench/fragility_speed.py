"""How long counting a seat's rotation-critical pieces takes (``analysis.fragility``).

    python bench/fragility_speed.py [--repeats N]

The generator's score counts them for every candidate when a spec asks for
``min_critical`` (hard and brutal presets), and ``validate`` reports them for
every seat. Baseline in the same run: the previous way, written out here, which
tried every piece the token can reach stuck (a token landing on it cannot
leave) and then turned the critical ones; the current code tries only the
pieces on one possible tour's own path. Both must give the same counts (the
script stops if not). Boards: the two boards in ``bench/boards`` and the
4-player example, every seat. Median CPU ms per board (all seats). Since 2026-12-03 the
reach trees the count walks are made in C where ``_kernels.c`` was built: "py tree ms" is the
current count with the Python tree, and "C/py" how much faster the compiled one makes it.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from terragen.templates import template_path  # noqa: E402
from terragen.terrain import analysis  # noqa: E402
from terragen.terrain.analysis import fragility  # noqa: E402
from terragen.terrain.board import Board  # noqa: E402
from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.paths import reachable  # noqa: E402
from terragen.terrain.pieces import distinct_rotations  # noqa: E402
from terragen.terrain.race import layout_seats  # noqa: E402


def _tour_possible(board: Board, start: int, goals: list[int]) -> bool:
    reach = {c: reachable(board, c) for c in (start, *goals)}
    return any(all(b in reach[a] for a, b in zip((start, *order), order)) for order in itertools.permutations(goals))


def baseline_fragility(board: Board, start: int, goals: list[int]) -> int:
    """Every reachable piece tried stuck on a copy of the board, then the critical ones turned."""
    if not goals or not _tour_possible(board, start, goals):
        return 0
    count = 0
    for i in sorted(reachable(board, start)):
        stuck = board.copy()
        stuck.pip_arcs[i] = []
        if _tour_possible(stuck, start, goals):
            continue
        for rot in distinct_rotations(board.pattern[i]):
            if rot != board.rotation[i] and board.mask[i] != board.rotated(i, rot).mask[i]:
                count += not _tour_possible(board.rotated(i, rot), start, goals)
    return count


def seats(path: Path) -> tuple[Board, list[tuple[int, list[int]]]]:
    layout = load_layout(path)
    board = Board.from_layout(layout)
    return board, [(s, g) for s, g in layout_seats(layout, board)[0] if s >= 0 and min(g, default=0) >= 0]


def cpu_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(1000 * (time.process_time() - t))
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9)
    args = ap.parse_args()
    boards = [*sorted((HERE / "boards").glob("*.json")), template_path("terrain", "examples") / "four-players.txt"]
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d')}")
    print(f"{'board':<40}{'counts':>16}{'baseline ms':>13}{'now ms':>9}{'ratio':>8}{'py tree ms':>12}{'C/py':>7}")
    compiled = analysis._COMPILED_TREE
    for path in boards:
        board, players = seats(path)
        now = [fragility(board, s, g) for s, g in players]
        old = [baseline_fragility(board, s, g) for s, g in players]
        if now != old:
            sys.exit(f"{path.name}: counts differ: {now} now, {old} by the baseline")
        base = cpu_ms(lambda: [baseline_fragility(board, s, g) for s, g in players], args.repeats)
        new = cpu_ms(lambda: [fragility(board, s, g) for s, g in players], args.repeats)
        analysis._COMPILED_TREE = None
        if [fragility(board, s, g) for s, g in players] != now:
            sys.exit(f"{path.name}: the Python reach tree counts differently")
        python_tree = cpu_ms(lambda: [fragility(board, s, g) for s, g in players], args.repeats)
        analysis._COMPILED_TREE = compiled
        print(f"{path.name:<40}{str(now):>16}{base:>13.2f}{new:>9.2f}{base / new:>7.1f}x{python_tree:>12.2f}"
              f"{python_tree / new:>6.1f}x")


if __name__ == "__main__":
    main()
