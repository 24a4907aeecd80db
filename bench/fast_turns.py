"""The plain game's compiled turns against its Python turns, side by side in one process.

    python bench/fast_turns.py [--games N] [--repeat R]

For each bench board and kind of player, plays the same N games (one seed) with the compiled
turns (``terragen/terrain/sim/_fast_turns.c``) and with the Python ones, alternately, R times each,
and prints the best turns per second of each and their ratio. "cold" starts every run with no
remembered tables (as the generator meets a new board), "warm" replays games whose board states
are all known (as a long ``simulate`` run on one board mostly is). Checks that both play the same
games.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.sim import Rules, plain_game  # noqa: E402
from terragen.terrain.sim.runner import forget_tables, run_games  # noqa: E402

BOARDS = ("readme-4p-hard-seed1.json", "gen-4p-brutal-seed1907.json", "gen-5p-hard-seed2001-best-effort.json",
          "gen-6p-medium-seed902.json")
POLICIES = ("greedy", "solitary", "expert")


def turns_per_second(layout, policy: str, games: int, warm: bool = False) -> tuple[float, list]:
    """Turns a second of ``games`` games (seed 1) with every seat a ``policy`` player, and the games:
    from no remembered tables, or (``warm``) after the same games once. The compiled-against-Python
    benches all time their runs this way."""
    forget_tables()
    players = [policy] * len(layout.players)
    if warm:
        run_games(layout, Rules(), players, 1, 0, games)
    start = time.perf_counter()
    results = run_games(layout, Rules(), players, 1, 0, games)
    seconds = time.perf_counter() - start
    return sum(r.total_turns for r in results) / seconds, results


def best_alternately(measure: Callable[[bool], tuple[float, object]], repeat: int, differ: str) -> tuple[float, float]:
    """The best rate of ``measure(True)`` (compiled) and ``measure(False)`` (Python), run alternately
    ``repeat`` times each, as (Python, compiled); exits with ``differ`` when the two give other results."""
    best = {True: 0.0, False: 0.0}
    for _ in range(repeat):
        fast, fast_out = measure(True)
        slow, slow_out = measure(False)
        if fast_out != slow_out:
            sys.exit(differ)
        best[True], best[False] = max(best[True], fast), max(best[False], slow)
    return best[False], best[True]


def _rate(layout, policy: str, games: int, compiled, warm: bool) -> tuple[float, list]:
    plain_game.FAST_TURNS = compiled
    return turns_per_second(layout, policy, games, warm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    compiled = plain_game.FAST_TURNS
    if compiled is None:
        sys.exit("the compiled turns were not built (no C compiler at install time?)")
    print(f"{'board':40} {'player':9} {'tables':6} {'python':>10} {'compiled':>10} {'ratio':>6}")
    for name in BOARDS:
        layout = load_layout(HERE / "boards" / name)
        for policy in POLICIES:
            games = args.games // 10 if policy == "expert" else args.games
            for warm in (False, True):
                python, fast = best_alternately(
                    lambda on: _rate(layout, policy, games, compiled if on else None, warm), args.repeat,
                    f"{name} {policy}: the compiled turns played other games")
                print(f"{name:40} {policy:9} {'warm' if warm else 'cold':6} {python:10.0f} "
                      f"{fast:10.0f} {fast / python:5.2f}x", flush=True)
    plain_game.FAST_TURNS = compiled


if __name__ == "__main__":
    main()
