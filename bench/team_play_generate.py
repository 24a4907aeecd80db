"""``generate --team-play`` on fresh seeds: how long it takes, and whether its boards are fair in teams.

    python bench/team_play_generate.py [--first-seed S] [--per-preset K] [--games N] [--sim-seed T]

For four seats (each preset) and six seats (medium, hard), K boards each on fresh seeds are
generated twice, side by side: without the flag (the baseline) and with ``--team-play``. Each
board is then played in teams with ``simulate --variant teams`` (the default partners) on N games
of a simulation seed neither run used. Printed as Markdown: the two times, the team verdict the
generator recorded, and each board's worst team distance from its share on the fresh games.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from team_pairings import fresh_specs, terragen  # (this folder is the script's own: python bench/team_play_generate.py)


def worst_team(board: Path, games: int, seed: int) -> tuple[float, bool]:
    """The worst team's distance from its share, in points, in ``games`` team games (default partners),
    and whether `simulate` calls the board PLAYABLE and BALANCED in teams on them."""
    s = terragen("simulate", board, "--variant", "teams", "--games", games, "--seed", seed, "--json")
    d = json.loads(s.stdout)
    return 100 * max(abs(x["win_rate"] - x["fair"]) for x in d["seats"]), bool(d["playable"] and d["balanced"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first-seed", type=int, default=119400)
    ap.add_argument("--per-preset", type=int, default=3)
    ap.add_argument("--games", type=int, default=8000)
    ap.add_argument("--sim-seed", type=int, default=9091)
    a = ap.parse_args()
    specs = fresh_specs(a.first_seed, a.per_preset, a.per_preset)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; team play of each board on {a.games} games, simulation seed "
          f"{a.sim_seed}\n")
    print("| seats | preset | seed | without (s) | --team-play (s) | its team verdict | worst team, without | "
          "worst team, --team-play |")
    print("|---|---|---|---|---|---|---|---|")
    fine: dict[str, int] = {"without": 0, "with": 0}
    times: dict[str, list[float]] = {"without": [], "with": []}
    fair: dict[str, list[float]] = {"without": [], "with": []}
    with tempfile.TemporaryDirectory() as tmp:
        for n, diff, seed in specs:
            row = [str(n), diff, str(seed)]
            verdict = "-"
            for kind, flags in (("without", []), ("with", ["--team-play"])):
                out = Path(tmp) / f"{kind}-{n}-{diff}-{seed}"
                began = time.monotonic()
                g = terragen("generate", "--players", n, "--difficulty", diff, "--seed", seed, "--out", out, "-q",
                             *flags)
                took = time.monotonic() - began
                times[kind].append(took)
                row.append(f"{took:.1f}" + ("" if g.returncode == 0 else f" (exit {g.returncode})"))
                if kind == "with" and g.returncode == 0:
                    record = json.loads((out / "board.json").read_text())["meta"]["balance"]
                    verdict = record.get("teams", {}).get("verdict", "-")
                if g.returncode == 0:
                    worst, ok = worst_team(out / "board.json", a.games, a.sim_seed)
                    fair[kind].append(worst)
                    fine[kind] += ok
                    row.append(f"{worst:.2f}" + ("" if ok else " (not PLAYABLE and BALANCED)"))
                else:
                    row.append("-")
            # the columns: times first, then the verdict, then the two measurements
            print(f"| {' | '.join(row[:3])} | {row[3]} | {row[5]} | {verdict} | {row[4]} | {row[6]} |", flush=True)
    for kind in ("without", "with"):
        t = sorted(times[kind])
        within = sum(w <= 2.5 for w in fair[kind])
        print(f"\n{kind}: median {statistics.median(t):.1f} s, slowest {t[-1]:.1f} s; worst team within 2.5 points "
              f"on {within} of {len(fair[kind])} boards (median {statistics.median(fair[kind]):.2f} points); "
              f"PLAYABLE and BALANCED in teams on {fine[kind]} of {len(fair[kind])}")
    ratio = statistics.median(times["with"]) / statistics.median(times["without"])
    print(f"median time with --team-play / without: {ratio:.2f}x")


if __name__ == "__main__":
    main()
