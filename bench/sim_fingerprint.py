"""One hash of many whole games, to show an engine change plays exactly the same games.

    python bench/sim_fingerprint.py [--games N]

Plays ``N`` games (default 300) of every case below on the two bench boards and prints one line per case, a total,
and a total of the cases without teams (a change of the team players alone must leave that one). A speed-up of the
simulator must leave every line unchanged: run it before and after and compare.
Cases cover each player and each rule the engine branches on (send-backs, rotations,
inversion, green die, LOST!, teams, no pass-through, no interactions).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from terragen.terrain.files import load_layout  # noqa: E402
from terragen.terrain.sim import Rules  # noqa: E402
from terragen.terrain.sim.runner import forget_tables, run_games  # noqa: E402

BOARDS = ("readme-4p-hard-seed1.json", "six-easy-seed1.json")
CASES = {
    "greedy": (Rules(), "greedy"),
    "solitary": (Rules(), "solitary"),
    "expert": (Rules(), "expert"),
    "random": (Rules(), "random"),
    "greedy, inversion": (Rules(inversion=True), "greedy"),
    "expert, inversion": (Rules(inversion=True), "expert"),
    "greedy, green die": (Rules(green=True), "greedy"),
    "greedy, LOST!": (Rules(lost=True), "greedy"),
    "greedy, no pass-through": (Rules(pass_through=False), "greedy"),
    "greedy, no interactions": (Rules(interactions=False), "greedy"),
    "solitary, no interactions": (Rules(interactions=False), "solitary"),
    "mixed seats": (Rules(), "mixed"),
    "greedy, teams of two": (None, "greedy"),
}


def teams_of_two(seats: int) -> Rules:
    """Seats facing each other across the table play together."""
    half = seats // 2
    return Rules(teams=tuple((s, s + half) for s in range(half)))


def fingerprint(layout, rules: Rules, policy: str, games: int) -> str:
    n = len(layout.players)
    specs = ["greedy", "solitary", "expert", "random"] * 2 if policy == "mixed" else [policy] * n
    forget_tables()  # every case starts cold, as a new run would
    digest = hashlib.sha256()
    for g in run_games(layout, rules, specs[:n], 20261126, 0, games):
        digest.update(repr((g.winners, g.rounds, g.turns, g.rotations, g.inversions, g.send_backs,
                            g.forfeits, g.total_turns)).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    total = hashlib.sha256()
    alone = hashlib.sha256()  # the cases without teams: a change of the team players alone leaves it
    for name in BOARDS:
        layout = load_layout(HERE / "boards" / name)
        for label, (rules, policy) in CASES.items():
            rules = rules or teams_of_two(len(layout.players))
            fp = fingerprint(layout, rules, policy, args.games)
            total.update(fp.encode())
            if not rules.teams:
                alone.update(fp.encode())
            print(f"{name:<28} {label:<28} {fp}", flush=True)
    print(f"total {total.hexdigest()[:16]}")
    print(f"total without teams {alone.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
