"""How well the race of lone tokens on a game's own dice predicts who wins the game.

    python bench/lone_race_control.py BOARD.json [BOARD.json ...] --games 2000 --seed 4242

Each full-rules game (``run_games``, greedy and solitary players by default) also fixes a race of
lone tokens: every seat's token alone, following the race model's routes
(:func:`terragen.terrain.race.policy_states`), on the rolls the game dealt that seat (round ``t``'s
roll of the seat in position ``k`` of the order is the game's draw ``(t - 1) * n + k``, drawn on
from the same generator after the game ends). Its winner's mean is the race model's exactly, so it
is a control variate for the seat's win rate: with correlation ``rho`` between a seat's game win
and its race win, a control-variate estimate carries ``1 - rho**2`` of the plain rate's variance,
a gain of ``1 / (1 - rho**2)`` in games. This prints, per board and kind of player, each seat's
plain rate, its lone-race rate against the race model's (a check that the walk reads the dice as
the model says), the correlation and the gain. See ``bench/README.md``, "Race-adjusted rates".
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from terragen.terrain.board import Board  # noqa: E402
from terragen.terrain.expected import near_sources  # noqa: E402
from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.frames import seat_ranks  # noqa: E402
from terragen.terrain.race import forward_reach, layout_seats, policy_states, race_model  # noqa: E402
from terragen.terrain.rules import roll_budgets  # noqa: E402
from terragen.terrain.sim.runner import dice_rng, run_games  # noqa: E402
from terragen.terrain.sim.variants import Rules  # noqa: E402


def walks(layout) -> list[list[tuple[int, ...]] | None]:
    """Per seat, the race model's policy as ``walk[state][draw]`` (state 0: finished)."""
    board = Board.from_layout(layout)
    seats, _ = layout_seats(layout, board)
    near = near_sources(board)
    fwd = forward_reach(board, near)
    ranks = seat_ranks(board, [s for s, _ in seats])
    budgets = [b for _, _, b in roll_budgets()]
    out = []
    for k, (start, goals) in enumerate(seats):
        states, value, _ = policy_states(board, fwd, start, list(dict.fromkeys(goals)), near, ranks[k])
        out.append(None if not math.isfinite(value) else
                   [tuple(row[b] if b is not None else here for b in budgets) for here, row in enumerate(states)])
    return out


def lone_winner(table, seed: int, index: int, first: int, cap: int = 5000) -> int:
    """Who finishes first when every seat's token walks alone on game ``index``'s dice."""
    n = len(table)
    order = [(first + k) % n for k in range(n)]
    state = [1] * n
    bits = dice_rng(seed, index).getrandbits
    for _ in range(cap):
        for k, s in enumerate(order):
            r = bits(6)
            while r >= 36:
                r = bits(6)
            if table[s] is not None:
                state[k] = table[s][state[k]][r]
                if state[k] == 0:
                    return s
    return -1


def correlation(a: list[int], b: list[int]) -> float:
    m = len(a)
    ma, mb = sum(a) / m, sum(b) / m
    va, vb = ma * (1 - ma), mb * (1 - mb)
    cov = sum(x * y for x, y in zip(a, b)) / m - ma * mb
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+", type=Path)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--policies", nargs="+", default=["greedy", "solitary"])
    args = ap.parse_args()
    for path in args.boards:
        layout = load_layout(path)
        n = len(layout.players)
        table = walks(layout)
        board = Board.from_layout(layout)
        seats, _ = layout_seats(layout, board)
        model = race_model(board, seats).win_probability_rotating
        lone = [lone_winner(table, args.seed, i, i % n) for i in range(args.games)]
        for policy in args.policies:
            games = run_games(layout, Rules(), [policy] * n, args.seed, 0, args.games)
            won = [g.winners[0] if len(g.winners) == 1 else -1 for g in games]
            gains = []
            for s in range(n):
                y = [int(w == s) for w in won]
                x = [int(w == s) for w in lone]
                rho = correlation(y, x)
                gain = 1 / (1 - rho * rho) if not math.isnan(rho) else 1.0
                gains.append(gain)
                print(f"{path} {policy:8s} seat {s}: game {100 * sum(y) / len(y):5.1f}%, lone race "
                      f"{100 * sum(x) / len(x):5.1f}% (model {100 * model[s]:5.1f}%), rho {rho:.3f}, gain {gain:.2f}")
            print(f"{path} {policy:8s} smallest gain {min(gains):.2f}")


if __name__ == "__main__":
    main()
