"""Teams of three: how many games never finish, and a follower rule tried against it.

    python bench/team_threes.py BOARD [BOARD ...] [--splits 0+1+2,3+4+5 0+2+4,1+3+5] [--players greedy solitary]
                                [--games 1000] [--seed 7]
                                [--mode main|no-trio|no-pair-turn|gated|gated+aside|plan|plan+goal]

Team play binds teammates by the distance rule (a move may not leave a teammate more than
max(3, the distance now) hexes away). Pairs whose convoy stalls plan together
(``terragen/terrain/sim/convoy.py``); teams of three travel as a convoy only, so a lead can stand next
to its goal for good while a teammate three hexes behind cannot close up. This plays each board, split
and kind of player (all seats alike) and prints the games stopped by the turn cap and each team's wins.

``--mode main`` plays the package as it is; ``--mode no-trio`` the package with teams of three never
planning as one (``convoy_trio``, built 2026-12-07 in the session of 10:37 UTC; the same as main before
it); ``--mode no-pair-turn`` with pairs the pips hold fast never turning a piece for themselves
(``convoy_open.pair_turn``, the same session). The other modes are the probes of 2026-12-07, run then
against main ab2e78a (before ``_threes_move`` was built; on today's package they replace it):
``--mode gated`` tries one rule for teams of three: once the lead has
stood still six turns in a row, its followers prefer (after staying within two hexes of the lead) the
cells nearest the lead's next destination, so that the lead may step onto it; ``gated+aside`` also lets
such a lead step aside from an opponent's token as lone seats do (``_unless_blocked``); ``plan`` makes a
stalled team of three plan as a pair with its furthest teammate; ``plan+goal`` (with ``PLAN_TURNS=12`` in
the environment: what was built) with the teammate that alone holds the lead back, and otherwise sends
the followers toward the lead's destination (on today's package: its own ``_threes_move``, the bound
set from the environment). The probe of solitary partners' turns is built into ``SolitaryPolicy``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from terragen.terrain.sim import convoy, policies  # noqa: E402
from terragen.terrain.sim.engine import hex_gaps  # noqa: E402

PLAN_TURNS = int(__import__('os').environ.get('PLAN_TURNS', '0'))  # probe: a plan's most lead turns
STALL = 6  # lead turns standing still before the followers head for its goal (the pairs' STALL_TURNS)


def goal_follow(state, seat: int, options, lead: int) -> int:
    """A follower's move that also closes in on the lead's next destination: the rule built since."""
    return convoy.follow_move(state, seat, options, lead, toward_goal=True)


def binding_follower(state, lead: int, mates: list[int]) -> int:
    """The teammate furthest from the lead's next destination (ties: the lower seat)."""
    gaps = hex_gaps(state)
    goals = [c for c in state.setup.target_cells[lead] if state.gain(lead, c) != state.collected[lead]]
    return max(mates, key=lambda m: (min(gaps[c][state.pos[m]] for c in goals) if goals else 0, -m))


def install_plan() -> None:
    """Teams of three plan as a pair: the lead and its binding follower, once stalled."""
    plain = convoy.convoy_move
    plain_turn = convoy.team_turn

    def convoy_move(state, seat, roll, options, own):
        mates = state.teammates(seat)
        if len(mates) < 2 or not convoy.plans(state):
            return plain(state, seat, roll, options, own)
        team = state.team_of[seat]
        lead = min(mates + [seat])
        key = ("threes", team)
        note = state.notes.get(key)
        if note is None:
            note = state.notes[key] = [0, False, -1, convoy.INF, None, None]
        if seat != lead:
            old = convoy.follow_move(state, seat, options, lead)
            if note[5] == seat and convoy._still_planning(state, lead, seat, note):
                return convoy._planned(state, seat, lead, seat, options, old)
            return old
        old = own()
        partner = note[5] if note[1] else binding_follower(state, lead, mates)
        if note[5] != partner:
            note[0], note[2], note[5] = 0, -1, partner
        if not convoy._still_planning(state, lead, partner, note):
            if not convoy._stalled(state, lead, partner, note, old):
                return convoy._unless_blocked(state, seat, options, old)
            note[1], note[3] = True, convoy._cost_to_go(state, lead)
            note[4] = (state.collected[lead], state.collected[partner])
        return convoy._unless_blocked(state, seat, options, convoy._planned(state, seat, lead, partner, options, old))

    convoy.convoy_move = policies.convoy_move = convoy_move


def install(mode: str) -> None:
    """Replace the convoy's move for teams of three or more (``mode`` other than main)."""
    if mode == "no-trio":
        from terragen.terrain.sim import convoy_trio

        convoy_trio.TRIO_STALL_TURNS = 10**9
        return
    if mode == "no-pair-turn":
        from terragen.terrain.sim import convoy_open

        convoy_open.pair_turn = lambda *args: None
        return
    if mode == "plan":
        install_plan()
        return
    if mode == "plan+goal":  # the package's own rules (built), its plans bounded by PLAN_TURNS (0: none)
        convoy.THREES_PLAN_TURNS = PLAN_TURNS or 10**9
        return
    plain = convoy.convoy_move

    def convoy_move(state, seat, roll, options, own):
        mates = state.teammates(seat)
        if len(mates) < 2 or not convoy.plans(state):
            return plain(state, seat, roll, options, own)
        lead = min(mates)
        key = ("threes", state.team_of[seat])
        if seat > lead:
            if state.notes.get(key, 0) >= STALL:
                return goal_follow(state, seat, options, lead)
            return convoy.follow_move(state, seat, options, lead)
        choice = own()
        if mode == "gated+aside":
            choice = convoy._unless_blocked(state, seat, options, choice)
        state.notes[key] = state.notes.get(key, 0) + 1 if choice == state.pos[seat] else 0
        return choice

    convoy.convoy_move = policies.convoy_move = convoy_move


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="+", type=Path)
    parser.add_argument("--splits", nargs="+", default=["0+1+2,3+4+5", "0+2+4,1+3+5"])
    parser.add_argument("--players", nargs="+", default=["greedy", "solitary"])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mode", choices=["main", "no-trio", "no-pair-turn", "gated", "gated+aside", "plan",
                                           "plan+goal"], default="main")
    args = parser.parse_args()
    if args.mode != "main":
        install(args.mode)
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.runner import run_games
    from terragen.terrain.sim.variants import rules_for_layout

    for board in args.boards:
        layout = load_layout(str(board))
        for split in args.splits:
            rules = rules_for_layout(layout, ["teams"], teams=split)
            for player in args.players:
                began = time.process_time()
                games = run_games(layout, rules, [player] * len(layout.players), args.seed, 0, args.games)
                wins = [0] * len(rules.teams)
                for g in games:
                    if g.winners:
                        wins[next(k for k, team in enumerate(rules.teams) if g.winners[0] in team)] += 1
                print(f"{board.name} {split} {player} {args.mode}: unfinished {sum(g.capped for g in games)} of "
                      f"{args.games}, team wins {' / '.join(f'{w / args.games:.3f}' for w in wins)}, "
                      f"{time.process_time() - began:.1f} CPU s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
