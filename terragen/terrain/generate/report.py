"""The summary ``terragen generate`` prints under a board: each seat's figures, the balance verdicts
with what they were measured on, what was not checked, and the difficulty.

Why in the library: it reads only the board and its meta, so a script that generates a board can
print what the command prints (and the command stays a shell that writes files and prints this).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from terragen.terrain.analysis import Analysis
    from terragen.terrain.generate.spec import Spec
    from terragen.terrain.layout import Layout


#: the simulator's expert players, said once where a summary names them (users met the word undefined)
EXPERTS = "expert players (who turn pieces against a leader close to winning)"


#: a best-effort board whose every seat measured within the margin, but not far enough inside it for
#: the generator's promise (BALANCED in at least 99 default `simulate` runs of 100)
UNVERIFIED = "UNVERIFIED"


def _experts_line(players: int, seat_classes: list[list[int]] | None, glance: dict | None = None) -> str:
    """What the summary says of expert players when the run did not check them (``glance``: the
    few hundred games the generator looked at them on, if it did).

    Why a line at all: the balance lines name the kinds of player checked, and a reader who
    sees every one BALANCED would take the board as fair for all; the simulator's experts (who
    turn pieces against a near winner) are not, on about half of 4- and 6-seat boards. Where the
    symmetry makes every seat an image of every other (one class of seats: 2 and 3 seats), no
    kind of player can tell the seats apart, so the line says that instead (``seat_classes`` from the
    board's meta; a board written before the meta kept them claims nothing)."""
    one_class = seat_classes is not None and len(seat_classes) == 1 and len(seat_classes[0]) == players
    if one_class and players <= 3:
        return ("balance: expert players not simulated; every seat is an image of every other under the "
                "symmetry, so they are even for experts too")
    if glance:
        seen = (f"{glance['games']} fresh games of expert players (seed {glance['seed']}) put the seat classes "
                f"{100 * glance['pooled_worst_deviation']:.2f} points from fair")
        among = glance.get("chosen_among")
        if among:  # a best-effort board: the glance helped choose it, and refused nothing
            return (f"balance: {EXPERTS} only glanced at, to choose this board among the {among} fairest the search "
                    f"reached: {seen}; add --check-experts for a full check")
        refused = glance.get("refused_above")
        # glances refuse any board read over the margin (fresh_checks.GLANCE_REFUSE_SE); five-seat
        # boards written before 2026-12-06 kept the margin plus twice the glance's noise
        strict = refused is not None and refused <= glance["pooled_limit"] + 1e-9
        if glance["verdict"] == "PLAINLY OFF":
            among = glance.get("chosen_from")
            if among is None:
                # written at once (five seats, and four- and six-seat boards from before set-aside): the
                # search did not go on looking, so "none it found passed" would claim a search it skipped
                why = ("the search had spent its share of work for a board the glance passes, so it wrote this "
                       "one, balanced for the others, which the glance refused")
            else:
                kept = (f"the fairest for experts of the {among} boards balanced for the others that it refused"
                        if among > 1 else "a board balanced for the others that it refused")
                why = f"no board the search found in time passed the glance, so it wrote {kept}"
            return (f"balance: NOT BALANCED for expert players by a glance: {seen}, "
                    f"{'over' if strict else 'plainly over'} {100 * glance['pooled_limit']:.1f}; {why} (try another "
                    "--seed, or --check-experts with a longer --time-limit)")
        # say the limit a glance really applies: "3.58 points ... refuses only a board plainly over 2.5"
        # read as a contradiction (the board passed because 3.58 was within the glance's noise)
        if strict:
            bar = f"it refuses any board read over {100 * glance['pooled_limit']:.1f}"
        elif refused:
            bar = f"it refuses only above {100 * refused:.1f}, the margin plus twice its noise"
        else:
            bar = f"it refuses only a board plainly over {100 * glance['pooled_limit']:.1f}"
        if glance["pooled_worst_deviation"] > glance["pooled_limit"]:
            # what it means and what to do first, in plain words; the figures after (a user asked what an
            # expert was and what to do about "likely NOT BALANCED for experts ... within the noise")
            return (f"balance: {EXPERTS} only glanced at: likely NOT BALANCED for experts, some seats a few points "
                    f"ahead when players block the leader; for a board fair for them too, add --check-experts "
                    f"(slower). The glance: {seen}, over the {100 * glance['pooled_limit']:.1f} margin but within "
                    f"its noise ({bar})")
        if "held_from" in glance:  # read near the margin early on; no board read closer came in time
            bar += (f"; the search held it back for one read within {100 * glance['held_above']:.1f} and found "
                    "none in time")
        return f"balance: {EXPERTS} only glanced at: {seen} ({bar}; add --check-experts for a full check)"
    if players == 5:
        odds = "; about four five-seat boards in five are unfair for them"
    elif players in (4, 6):
        odds = "; about half of 4- and 6-seat boards are unfair for them"
    else:  # measured only on the symmetric boards, where every seat is an image of every other
        odds = ""
    return f"balance: {EXPERTS} not checked (add --check-experts{odds})"


def _floor_percent(p: float) -> str:
    """A lower bound as a percentage rounded down: "at least 100%" read oddly for 99.6%."""
    import math

    return f"{math.floor(p * 1000) / 10:g}%"


def generation_report(layout: Layout, analysis: Analysis, spec: Spec) -> list[str]:
    """Per seat: destinations, cheapest cost, expected turns, race-model and simulated win
    chances; then the balance verdict and the difficulty."""
    from terragen.terrain.generate.fresh_checks import MIN_FRESH_GAMES
    from terragen.plain_text import columns
    from terragen.terrain.race import race_for_layout

    race = race_for_layout(layout).win_probability_rotating
    sim = layout.extra.get("meta", {}).get("balance")
    rates = sim["verification"][0]["win_rates"] if sim else [None] * len(layout.players)
    # the columns validate has are named as validate names them (this table said "critical" and
    # "race win" for validate's "fragility" and its opener-rotating race)
    rows = [("seat", "corner", "destinations", "cost", "exp.\nturns", "up-3", "fragility", "race,\nrotating",
             "simulated\nwin")]
    for p, rep, pr, rate in zip(layout.players, analysis.players, race, rates):
        # one destination a row, as validate has them: three on one row took the table past 80 columns
        first, *more = [f"({d.q},{d.r})" for d in p.destinations] or ["-"]
        rows.append((str(p.seat), str(p.corner), first,
                     str(rep.tour_cost), f"{rep.expected_turns or 0:.2f}", str(rep.up3_steps), str(rep.fragility),
                     f"{100 * pr:.1f}%", f"{100 * rate:.1f}%" if rate is not None else "-"))
        rows.extend(("", "", dest, "", "", "", "", "", "") for dest in more)
    lines = columns(rows)
    m = analysis.metrics()
    symmetry = layout.extra.get("meta", {}).get("symmetry")
    if symmetry:
        lines.append(f"symmetry: {symmetry}")
    if sim:
        tag = ""
        if sim.get("best_effort"):
            tag = (" (best effort: the search's work budget was spent while tuning)"
                   if sim.get("ended_by") == "work budget" else " (best effort: the time ran out while tuning)")
        if sim.get("time_limited"):
            tag = tag[:-1] + "; measured on fewer games to end within --time-limit)"
        for v in sim["verification"]:
            # what a player reads first on a line of its own, the figures to replay or audit it indented
            # below (one line of about 300 characters was a wall of text)
            lines.append(f"balance: {v['verdict']}{tag} for {v['policy']} players: worst seat "
                         f"{100 * v['worst_deviation']:.2f} points from a fair {100 * v['fair_share']:.1f}% "
                         f"(checked against {100 * v['threshold']:.2f}; margin {100 * sim['margin']:.1f}), "
                         f"on {v['games']} fresh games")
            details = [f"seed {v['seed']}" + (f", twin dice {v['twin_dice']}" if v.get("twin_dice") else "")
                       + (f", cycles of dice (each seat's noise that of about {v['games'] / v['seat_noise_factor']:.0f} "
                          "independent games)" if v.get("cycle_dice") else "")]
            if "pooled_threshold" in v:
                details.append(f"seat classes pooled {100 * v['pooled_worst_deviation']:.2f} "
                               f"(checked against {100 * v['pooled_threshold']:.2f})")
            if "simulate_odds_bound" in v:
                needed = f"the promise needs {100 * v['simulate_odds_needed']:.0f}%"
                if _floor_percent(v["simulate_odds_bound"]) == "0%":  # "odds of at least 0%" told nothing
                    details.append("no odds that a default 'terragen simulate' run says BALANCED can be promised (a "
                                   "cautious bound, every seat taken a little further from fair than measured, "
                                   f"leaves none; {needed})")
                else:
                    details.append(f"a default 'terragen simulate' run says BALANCED with odds of at least "
                                   f"{_floor_percent(v['simulate_odds_bound'])} (a cautious bound: every seat taken a "
                                   f"little further from fair than measured; {needed})")
            lines.append("  " + "; ".join(details))
        if len({v["games"] for v in sim["verification"]}) > 1:  # 4000 beside 9600 read as a slip
            lines.append("balance: the kinds of player were checked on different numbers of games: each check "
                         "ends once its own measured noise makes its verdict clear (twin pairs of games, on "
                         "seats the board mirrors, and cycles of dice, on seats checked one by one, cancel part "
                         "of the dice's luck)")
        if sim.get("best_effort"):  # read as "simulate will refuse it", which it often does not
            # (it said "measured on fewer games than simulate plays" over a measurement of 16,400 games)
            lines.append("balance: best effort means the board missed the generator's promise (BALANCED in at least "
                         "99 default 'terragen simulate' runs of 100); simulate may still call it BALANCED: "
                         "'terragen simulate' on the board measures it")
        quick = [v for v in sim["verification"] if v["games"] < MIN_FRESH_GAMES]
        if quick:
            why = ("the time limit cut the measurement" if sim.get("time_limited")
                   else "--balance-games asked for fewer")
            either = ("; on so few games a verdict can go either way, NOT BALANCED too"
                      if any(v["verdict"] != "BALANCED" for v in quick) else "")
            lines.append(f"balance: a quick look only: {min(v['games'] for v in quick)} fresh games is fewer than the "
                         f"{MIN_FRESH_GAMES} a balance check needs ({why}){either}; 'terragen simulate' on the board "
                         "measures it properly")
        if not any(v["policy"] == "expert" for v in sim["verification"]):
            seat_classes = layout.extra.get("meta", {}).get("seat_classes")
            lines.append(_experts_line(len(layout.players), seat_classes, sim.get("expert_glance")))
        if sim.get("teams"):
            lines.append(team_line(sim["teams"]))
    else:
        lines.append("balance: not simulated (--no-balance)")
    lines.append(f"expected-turns spread {m['fairness_spread']:.2f}"
                 + (f" (spec <= {spec.fairness:g})" if spec.fairness is not None else ""))
    band = f", band {spec.turns_band[0]:g}-{spec.turns_band[1]:g}" if spec.turns_band else ""
    lines.append(f"difficulty: {spec.difficulty or 'custom'}, mean expected turns {m['expected_turns_mean']:.2f}{band}")
    return lines


def team_line(teams: dict) -> str:
    """The summary's line on team play (``generate --team-play``)."""
    if teams["verdict"] == "NOT CHECKED":
        why = ("the time ran out during the team check" if teams.get("time_limited")
               else "the board is best effort for seats alone, and the search's time was spent")
        return f"team play: not checked ({why}); 'terragen simulate --variant teams' on the board measures it"
    partners = ", ".join("+".join(map(str, team)) for team in teams["teams"])
    rates = " / ".join(f"{100 * r:.1f}%" for r in teams["win_rates"])
    unfinished = f"; {100 * teams['unfinished']:.2f}% of games unfinished" if teams.get("unfinished") else ""
    if teams.get("too_many_unfinished"):  # stuck partners: NOT BALANCED for that (the check's own reading)
        unfinished += f", over the {100 * teams['unfinished_limit']:.2f}% allowed"
    return (f"team play: {teams['verdict']} for greedy players in teams {partners}: the teams won {rates} "
            f"(worst {100 * teams['worst_deviation']:.2f} points from a fair {100 * teams['fair_share']:.1f}%, "
            f"checked against {100 * teams['threshold']:.2f}{unfinished}), on {teams['games']} fresh games, "
            f"seed {teams['seed']}")


def team_warning(layout: Layout) -> str | None:
    """The warning for a board ``--team-play`` asked for that is not shown fair in teams, or None."""
    teams = (layout.extra.get("meta", {}).get("balance") or {}).get("teams") or {}
    if teams.get("verdict") == "NOT BALANCED":
        return ("no board the search found within its work budget was fair in team play; this one, balanced for "
                "seats alone, is the nearest: NOT BALANCED in teams (see the team play line); try another --seed "
                "or a longer --time-limit")
    if teams.get("verdict") == "NOT CHECKED":
        why = ("the time ran out during its team check" if teams.get("time_limited")
               else "the board is best effort for seats alone")
        return f"team play was not checked: {why} (see the team play line); a longer --time-limit checks it"
    return None


def not_balanced_warning(layout: Layout, as_json: bool = False) -> str | None:
    """The warning for a best-effort board its own check called NOT BALANCED or UNVERIFIED, or None.

    Why the advice differs by seat count: on five seats a longer time limit was measured not to help
    (two brutal boards still unfair at 120 s) while about half of another seed's brutal boards come out
    BALANCED (bench/README.md, the grid of seeds 114101), so another seed comes first there."""
    meta = layout.extra.get("meta", {})
    record = meta.get("balance") or {}
    verdict = record.get("verdict")
    if verdict not in ("NOT BALANCED", UNVERIFIED):
        return None
    from terragen.terrain.generate.fresh_checks import MIN_FRESH_GAMES

    checks = record.get("verification") or []
    if not record.get("time_limited") and any(v.get("games", MIN_FRESH_GAMES) < MIN_FRESH_GAMES for v in checks):
        # the user's quick look: a fair board misses a check on a few hundred games more often than
        # not, so the search ran its budget out on noise (a mirrored two-seat board, fair by
        # construction, was called NOT BALANCED with advice to try other seeds)
        games = min(v["games"] for v in checks)
        return (f"the balance check was a quick look of {games} games (--balance-games), too few to tell a fair "
                f"board from noise: a fair board misses such a check as often as not, so this {verdict} may be "
                "noise alone; 'terragen simulate' on the board measures it, or generate without --balance-games")
    ended = ("the search's work budget (simulation worth part of --time-limit) was spent"
             if record.get("ended_by") == "work budget" else "the time ran out")
    where = "the balance record in the JSON" if as_json else "the balance lines"
    advice = ("try another --seed (five seats are the hardest to balance: most hard and brutal five-seat runs "
              "end like this, 15 of 20 in the last measured grid (bench/README.md), and a longer --time-limit "
              "seldom helps), or a wider --margin"
              if len(layout.players) == 5 else "try another --seed, a longer --time-limit or a wider --margin")
    if verdict == UNVERIFIED:  # every seat within the margin, short of the promise: simulate may pass it
        return (f"{ended} before the board was verified: its seats measured within the margin but not by enough "
                f"for the generator's promise, so it is UNVERIFIED (see {where}); 'terragen simulate' on the board "
                f"gives its verdict; for a verified board, {advice}")
    return f"{ended} before the seats were balanced; this board is NOT BALANCED (see {where}); {advice}"
