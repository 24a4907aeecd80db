"""Five seats: does what the absent sixth seat's turns on doubles would do tell how far a class's seats part?

    python bench/five_seat_rotation_exposure.py BOARD.json ... [--games 8000] [--out F.json]
    python bench/five_seat_rotation_exposure.py --activity F.json   # from a run's --out

Five seats sit on a board that a turn by 120 degrees maps onto itself with corner 5 empty. On the
same board with six seats, the seats of a class would play the same game; with five, each seat of
the class {0, 2, 4} misses a different neighbour (seat 0 the one on one side, seat 4 the one on the
other, seat 2 the one across), and greedy players' seats part mostly through turns of pieces on
doubles (``five_seat_send_back_within.py``, "without-send-backs"). A static guess at that: seat 5's
token played alone (its destinations the images of seat 3's), the pieces its exact lone greedy
chain has turned when it finishes, each with its chance; for every seat, how much each such turn
changes the seat's exact expected turns, weighted by that chance. A seat that seat 5's turns would
have cost more should win more without it. Per board: the greedy and solitary players' rates
(``--games`` games a kind, two simulation processes, seed 6161), each seat's distance from its
class's mean, and the guess's; then the correlation over all boards.

``--activity`` takes such a run's ``--out`` file and asks a plainer question of the same boards: does the
three-seat class's spread (greedy players) follow how busy the games are, in turns of pieces or
send-backs a game (2,000 greedy games a board, seed 99)?
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from five_seat_send_back_within import CLASSES, within  # noqa: E402


def rates(pool, layout, policy: str, games: int) -> list[float]:
    from terragen.terrain.sim import Rules

    wins = [0.0] * len(layout.players)
    for game in pool.run(layout, Rules(), [policy] * len(layout.players), 6161, 0, games):
        for s in game.winners:
            wins[s] += 1 / len(game.winners)
    return [100 * w / games for w in wins]


def absent_seat_exposure(layout) -> list[float]:
    """Per seat, the expected turns seat 5's lone greedy turns of pieces would add (see the docstring)."""
    from terragen.grids import hex as hx
    from terragen.terrain.board import Board
    from terragen.terrain.expected import expected_turns, near_sources
    from terragen.terrain.layout import Destination
    from terragen.terrain.sim import Rules
    from terragen.terrain.sim.lone_chain import lone_chain
    from terragen.terrain.sim.policies import load_policy

    radius = layout.radius
    players = sorted(layout.players, key=lambda p: p.seat)
    c1, c3 = hx.corner(radius, players[1].corner), hx.corner(radius, players[3].corner)
    k = next(k for k in range(6) if hx.rotate(c1, k) == c3)  # the turn taking seat 1's corner to seat 3's
    corner5 = next(c for c in range(6) if hx.corner(radius, c) == hx.rotate(c3, k))
    absent = layout.copy()
    ghost = [p for p in absent.players if p.seat == players[3].seat][0]
    ghost.corner, ghost.seat = corner5, 0
    ghost.destinations = [Destination(*hx.rotate(d.hex, k)) for d in players[3].destinations]
    absent.players = [ghost]
    chain = lone_chain(absent, Rules(), load_policy("greedy"))
    turned: dict[tuple[int, int], float] = {}
    for prob, turns in chain.turns_at_finish:
        for piece in turns:
            turned[piece] = turned.get(piece, 0.0) + prob
    board = Board.from_layout(layout)
    near = near_sources(board)
    seats = [(board.index[hx.corner(radius, p.corner)], [board.index[d.hex] for d in p.destinations]) for p in players]
    base = [expected_turns(board, s, g, near) for s, g in seats]
    out = []
    for i, (start, goals) in enumerate(seats):
        total = 0.0
        for (cell, rotation), prob in turned.items():
            b = board.copy()
            b.set_rotation(cell, rotation)
            total += prob * min(expected_turns(b, start, goals, near_sources(b)) - base[i], 10.0)
        out.append(total)
    return out


def activity(path: Path) -> None:
    """How busy each board's greedy games are against its three-seat class's spread (see the docstring)."""
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim import Rules
    from terragen.terrain.sim.pool import GamePool

    turns, sends, spreads = [], [], []
    with GamePool(2) as pool:
        for row in json.loads(path.read_text()):
            games = pool.run(load_layout(row["board"]), Rules(), ["greedy"] * 5, 99, 0, 2000)
            turns.append(sum(g.rotations for g in games) / len(games))
            sends.append(sum(g.send_backs for g in games) / len(games))
            rates = row["greedy"]
            spreads.append(max(rates[i] for i in CLASSES[0]) - min(rates[i] for i in CLASSES[0]))
            print(f"{row['board']}: turns of pieces {turns[-1]:.1f} a game, send-backs {sends[-1]:.2f}, "
                  f"the three-seat class's spread {spreads[-1]:.1f} points")
    print(f"correlation with the spread: turns of pieces {statistics.correlation(turns, spreads):.2f}, "
          f"send-backs {statistics.correlation(sends, spreads):.2f}")


def main() -> None:
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.pool import GamePool

    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="*", type=Path)
    ap.add_argument("--games", type=int, default=8000)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--activity", type=Path, help="a run's --out file: busy games against the spread")
    args = ap.parse_args()
    if args.activity:
        activity(args.activity)
        return
    rows = []
    with GamePool(2) as pool:
        for path in args.boards:
            layout = load_layout(path)
            row = {"board": str(path), "exposure": absent_seat_exposure(layout),
                   **{policy: rates(pool, layout, policy, args.games) for policy in ("greedy", "solitary")}}
            rows.append(row)
            print(f"{path}: greedy {[round(v, 2) for v in within(row['greedy'])]}, "
                  f"exposure {[round(v, 2) for v in within(row['exposure'])]}", flush=True)
    for policy in ("greedy", "solitary"):
        xs = [v for r in rows for v in within(r["exposure"])]
        ys = [v for r in rows for v in within(r[policy])]
        print(f"{policy}: correlation of a seat's distance from its class with the exposure's: "
              f"{statistics.correlation(xs, ys):.2f} ({len(rows)} boards)")
    if args.out:
        args.out.write_text(json.dumps(rows))


if __name__ == "__main__":
    main()
