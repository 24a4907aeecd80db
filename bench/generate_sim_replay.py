"""The generator's simulation work, recorded once and replayed: a fixed workload to time
simulator changes on, without the noise of a whole search.

    python bench/generate_sim_replay.py record --out FILE [--specs 4:hard:1 6:brutal:131 ...]
    python bench/generate_sim_replay.py replay FILE [--repeats R]

``record`` runs ``generate`` for each spec (players:difficulty:seed) and writes every batch of
games the balance stage asked for (layout, player, seed, games) in order. ``replay`` plays
them again in this one process, in the same order (so tables kept between batches of one
layout are kept here too, as in a simulation process), and prints CPU seconds and turns per
CPU second, the best of ``R`` runs. Run ``replay`` from two checkouts on the same file, one
after the other, and compare: the games are the same, so only the simulator's speed differs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def record(specs: list[str], out: Path) -> None:
    from terragen.terrain.formats_json import write_json_layout
    from terragen.terrain.generate import balance, generate_board
    from terragen.terrain.generate.options import build_spec

    batches: list[dict] = []
    layouts: dict[str, int] = {}
    play = balance.Balancer.play

    def recording(self, layout, tally, size):  # type: ignore[no-untyped-def]
        if tally.played < size:
            text = write_json_layout(layout)
            batches.append({"layout": layouts.setdefault(text, len(layouts)), "policy": tally.policy,
                            "seed": tally.seed, "start": tally.played, "stop": size})
        return play(self, layout, tally, size)

    balance.Balancer.play = recording
    for item in specs:
        players, difficulty, seed = item.split(":")
        flags = {"players": int(players), "difficulty": difficulty, "seed": int(seed), "time_limit": None,
                 "radius": None, "destinations": None, "inventory": None, "placement": None, "shape": None,
                 "symmetry": None}
        spec, run = build_spec(flags, None)
        generate_board(spec, run["seed"], run["time_limit"], workers=1)
        print(f"{item}: {len(batches)} batches, {len(layouts)} layouts so far", flush=True)
    out.write_text(json.dumps({"specs": specs, "layouts": list(layouts), "batches": batches}))


def replay(path: Path, repeats: int) -> None:
    from terragen.terrain.formats_json import read_json_layout
    from terragen.terrain.sim import Rules
    from terragen.terrain.sim.runner import forget_tables, run_games

    data = json.loads(path.read_text())
    layouts = [read_json_layout(t) for t in data["layouts"]]
    best, turns, games = float("inf"), 0, 0
    for _ in range(repeats):
        forget_tables()
        turns = games = 0
        began = time.process_time()
        for b in data["batches"]:
            layout = layouts[b["layout"]]
            results = run_games(layout, Rules(), [b["policy"]] * len(layout.players), b["seed"], b["start"], b["stop"])
            games += len(results)
            turns += sum(r.total_turns for r in results)
        best = min(best, time.process_time() - began)
    print(f"python {platform.python_version()}, load {os.getloadavg()[0]:.1f}; {path.name}: {len(data['batches'])} batches, "
          f"{len(layouts)} layouts, {games} games, {turns} turns; best of {repeats}: {best:.2f} CPU s, "
          f"{turns / best:,.0f} turns/CPU-s")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--out", type=Path, required=True)
    rec.add_argument("--specs", nargs="+", default=["4:hard:1", "4:medium:133", "6:hard:131", "6:brutal:132"])
    rep = sub.add_parser("replay")
    rep.add_argument("file", type=Path)
    rep.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    if args.cmd == "record":
        record(args.specs, args.out)
    else:
        replay(args.file, args.repeats)


if __name__ == "__main__":
    main()
