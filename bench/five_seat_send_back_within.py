"""Five seats: does a race model with send-backs tell how far the seats of one class part?

    python bench/five_seat_send_back_within.py screens OUT.json hard:100011 brutal:100012 ...
    python bench/five_seat_send_back_within.py analyse OUT.json
    python bench/five_seat_send_back_within.py without-send-backs BOARD.json [--games 6000]

Five seats sit on a board that a turn by 120 degrees maps onto itself, corner 5 empty, so the seats
of the class {0, 2, 4} (and of {1, 3}) face images of one terrain and one set of destinations but not
the same neighbours, and they part by several points; the class search moves whole classes and
cannot close that (``five_seat_within_spread.py``). The exact race model gives the seats of a class
the same chances to a tenth of a point. The mean-field send-back model (``send_back_model.py``:
every seat's race-model chain pushed in the order of play, each landing sending the others'
tokens on that cell home) does see the empty corner.

``screens`` runs ``generate_board`` as the CLI does (two simulation processes, 60 s limit) and
records every class-search screen of at least 1,000 games: its destinations, greedy and solitary
players' rates per seat, the race model's and the send-back model's. ``analyse`` prints how well
each model tells a seat's distance from its class's mean (correlation, root mean square error),
alone and with the terrain's earlier screens' residuals added (shrunk by a prior of games).

``without-send-backs`` plays a board with the full rules and with send-backs switched off (a token
may not end on another; rotations on doubles as ever; the engine's slower path), to see which part
of the seats' distances from their classes send-backs make.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

CLASSES = ((0, 2, 4), (1, 3))


def within(rates: list[float]) -> list[float]:
    """Each seat's rate (or any per-seat figure) less its class's mean."""
    out = [0.0] * len(rates)
    for c in CLASSES:
        mean = sum(rates[i] for i in c) / len(c)
        for i in c:
            out[i] = rates[i] - mean
    return out


def screens(out: Path, specs: list[str]) -> None:
    from send_back_model import mean_field_race

    from terragen.terrain.generate import balance, class_search, generate_board
    from terragen.terrain.generate.options import build_spec

    rows: list[dict] = []
    terrain = [0]
    spec_name = [""]
    reset = balance.Balancer._reset_board
    learn = class_search.ClassSearch._learn_class_offsets

    def on_reset(self) -> None:
        terrain[0] += 1
        reset(self)

    def on_learn(self, dests, *tallies) -> None:
        if len(tallies) == 2 and tallies[0].played >= 1000 and tallies[1].played:
            greedy, lone = tallies
            model = mean_field_race(self.cand.board, self.cand.starts, dests, self.near, self.fwd, self._ranks)
            rows.append({"spec": spec_name[0], "terrain": terrain[0], "dests": [list(d) for d in dests],
                         "games": greedy.played, "greedy": [100 * r for r in greedy.rates],
                         "solitary": [100 * r for r in lone.rates], "race": [100 * r for r in self.modelled(dests)],
                         "send_backs": [100 * float(r) for r in model]})
        learn(self, dests, *tallies)

    balance.Balancer._reset_board = on_reset
    class_search.ClassSearch._learn_class_offsets = on_learn
    for item in specs:
        preset, seed = item.split(":")
        spec_name[0] = item
        spec, _ = build_spec({"players": 5, "difficulty": preset}, None)
        t = time.monotonic()
        try:
            generate_board(spec, seed=int(seed), time_limit=60, workers=None)
        except Exception as exc:  # a time-out still leaves its screens
            print(f"{item}: {type(exc).__name__}: {exc}")
        print(f"{item}: {time.monotonic() - t:.1f} s (the model's time included), {len(rows)} screens so far", flush=True)
        out.write_text(json.dumps(rows))


def _fit(xs: list[float], ys: list[float]) -> str:
    rmse = statistics.mean((a - b) ** 2 for a, b in zip(xs, ys)) ** 0.5
    return f"correlation {statistics.correlation(xs, ys):.2f}, rmse {rmse:.2f} points"


def analyse(path: Path) -> None:
    rows = json.loads(path.read_text())
    full = [r for r in rows if r["games"] >= 2000]
    print(f"{len(rows)} screens of 1,000+ games, {len(full)} of 2,000+ (analysed)")
    for policy in ("solitary", "greedy"):
        measured = [v for r in full for v in within(r[policy])]
        for model in ("race", "send_backs"):
            print(f"{policy}: {model} model alone: {_fit([v for r in full for v in within(r[model])], measured)}")
        for weight in (0.0, 0.5, 0.75, 1.0):
            for prior in (0, 2000):
                pred, meas = [], []
                for r in full:
                    earlier = [q for q in rows[:rows.index(r)] if (q["spec"], q["terrain"]) == (r["spec"], r["terrain"])]
                    games = sum(q["games"] for q in earlier)
                    residual = [sum((within(q[policy])[i] - weight * within(q["send_backs"])[i]) * q["games"]
                                    for q in earlier) / (games + prior) if games + prior else 0.0 for i in range(5)]
                    pred += [weight * m + e for m, e in zip(within(r["send_backs"]), residual)]
                    meas += within(r[policy])
                print(f"{policy}: {weight} x send-back model + the terrain's earlier residuals (prior {prior} games): "
                      f"{_fit(pred, meas)}")


def without_send_backs(board: Path, games: int) -> None:
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim import Rules
    from terragen.terrain.sim import variants
    from terragen.terrain.sim.runner import run_games

    layout = load_layout(board)

    def rates(policy: str) -> list[float]:
        wins = [0.0] * len(layout.players)
        for game in run_games(layout, Rules(), [policy] * len(layout.players), 5151, 0, games):
            for s in game.winners:
                wins[s] += 1 / len(game.winners)
        return [100 * w / games for w in wins]

    full = {policy: rates(policy) for policy in ("greedy", "solitary")}
    variants.Rules.send_back = property(lambda self: False)
    off = {policy: rates(policy) for policy in ("greedy", "solitary")}
    for policy in ("greedy", "solitary"):
        print(f"{board} {policy}: distance from class, full rules "
              f"{[round(v, 2) for v in within(full[policy])]}, no send-backs {[round(v, 2) for v in within(off[policy])]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("screens")
    s.add_argument("out", type=Path)
    s.add_argument("specs", nargs="+")
    a = sub.add_parser("analyse")
    a.add_argument("path", type=Path)
    w = sub.add_parser("without-send-backs")
    w.add_argument("board", type=Path)
    w.add_argument("--games", type=int, default=6000)
    args = ap.parse_args()
    if args.what == "screens":
        screens(args.out, args.specs)
    elif args.what == "analyse":
        analyse(args.path)
    else:
        without_send_backs(args.board, args.games)


if __name__ == "__main__":
    main()
