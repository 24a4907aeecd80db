"""The simulator's compiled table kernels against the Python versions, side by side in one process.

    python bench/table_kernels.py [--games 3000] [--policies expert,solitary,greedy] [BOARD.json ...]

Each board's games are played twice per kind of player, first with the Python versions (the
expected-turns layers repaired after a turn of a piece where they can be, the distances repaired
in Python) and then with the compiled kernels (``terragen/terrain/_kernels.c``), on the same seed,
every table cold; the script checks that both give the very same games (the same report) and prints
the CPU seconds of each and their ratio. Default boards: the bench's stored 4-seat hard (README)
board, a 4-seat brutal one and a 6-seat one.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from terragen.terrain import expected
from terragen.terrain.files import load_layout
from terragen.terrain.sim.runner import forget_tables, simulate_layout

HERE = Path(__file__).parent
DEFAULT_BOARDS = [HERE / "boards" / name for name in
                  ("readme-4p-hard-seed1.json", "gen-4p-brutal-seed1907.json", "gen-6p-medium-seed902.json")]


def timed(layout, games: int, policy: str, compiled) -> tuple[float, str]:
    keep = expected.COMPILED
    expected.COMPILED = compiled
    try:
        forget_tables()
        began = time.process_time()
        report = simulate_layout(layout, games=games, seed=424242, policy=policy, workers=1)
        return time.process_time() - began, report.to_json()
    finally:
        expected.COMPILED = keep


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="*", default=DEFAULT_BOARDS)
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--policies", default="expert,solitary,greedy")
    args = ap.parse_args()
    if expected.COMPILED is None:
        raise SystemExit("the compiled table kernels were not built (pip install -e . with a C compiler)")
    print("| board | player | games | Python solver (CPU s) | compiled (CPU s) | ratio | same games |")
    print("|---|---|---:|---:|---:|---:|---|")
    for path in args.boards:
        layout = load_layout(str(path))
        for policy in args.policies.split(","):
            slow, a = timed(layout, args.games, policy, None)
            fast, b = timed(layout, args.games, policy, expected.COMPILED)
            print(f"| {Path(path).name} | {policy} | {args.games} | {slow:.2f} | {fast:.2f} | {slow / fast:.2f}x | "
                  f"{'yes' if a == b else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
