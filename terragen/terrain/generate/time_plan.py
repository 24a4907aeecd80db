"""Keeping a best-effort board's measurements inside ``--time-limit``.

Why: when the search ends without a verified board, the generator still measures the fairest
states it reached on fresh seeds (``choose_best_effort``) and gives the chosen one its verdict
(``best_effort_record``, grown until plain). Those games used to run after the search, wherever
the clock stood: a six-seat brutal run on the reference VM took 62 s against a limit of 60, and
``--players 6 --difficulty hard --time-limit 10`` took 23 s. Now they fit in what the search
left: the states are compared only while each one and the verdict's first size still fit, and
the verdict grows only while it fits (:meth:`TimePlan.fits`, :meth:`TimePlan.may_spend`).

The verdict's first size is always played (a board is not written without one), so the clock
stops the search that much early (:meth:`TimePlan.reserve`). Only that much: the work budget
ends the search at 70-85% of the limit on the reference VM, and the clock is the backstop that
makes a run on a slower machine write a different board; a larger reserve (the whole choice,
up to 15% of the limit, was tried) would take the clock's margin for slower machines down from
about 20% to a few per cent. So where the budget ends the search, it ends where it did, and
where the measurements then fit in what is left (the default limit on the reference VM), the
same command writes the same bytes as before.

All of it is timed from the games this run has played, so it depends on the machine and its
load, like the clock it serves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from terragen.terrain.generate.balance import BalanceSettings
    from terragen.terrain.sim.pool import GamePool


#: how many greedy games' time a game of these players is planned at, where it must be planned before
#: this run has timed one of theirs (experts, checked only with ``--check-experts``, may first play in
#: the best-effort choice: 6-17 times greedy's time on the boards of ``bench/expert_speed.py``)
UNTIMED_COST = {"expert": 10.0}
#: how much longer than their measured pace these players' games are planned at: experts' pace differs
#: most from board to board, and the search's own last check of them runs on in work items of a few
#: seconds; planned at their pace, 2 of 12 ``--check-experts`` runs ended 1.6 and 3.1 s past a 60 s limit
PACE_SLACK = {"expert": 2.0}


@dataclass
class TimePlan:
    """What the measurements after a search cost on this machine, from the run's own games."""

    pool: GamePool
    deadline: float  # time.monotonic() at which the whole run must be done
    settings: BalanceSettings
    players: int
    clock: Callable[[], float] = time.monotonic

    @cached_property
    def check_games(self) -> int:
        """Games per kind of player in one fresh-seed measurement (the verification's size);
        kept, as the search asks :meth:`search_over` between every two steps of its own."""
        return self.settings.games_for(self.players)[2]

    @cached_property
    def _least_check_games(self) -> int:
        return self._least_games(self.check_games)

    def seconds(self, policy: str, games: int, untimed: bool = True) -> float:
        """How long ``games`` games of ``policy`` players take here, at this run's pace so far;
        for players not timed yet, ``UNTIMED_COST`` times the tuned players' pace (``untimed``)
        or nothing; experts with ``PACE_SLACK``."""
        pace = self.pool.seconds_per_game(policy) * PACE_SLACK.get(policy, 1.0)
        if not pace and untimed and policy in UNTIMED_COST:
            pace = UNTIMED_COST[policy] * self.pool.seconds_per_game(self.settings.policy)
        return games * pace

    def _one_state(self, policies: Sequence[str] | None = None, untimed: bool = True) -> float:
        """One state measured once per kind of player: a choice's candidate, or a verdict's first size."""
        return sum(self.seconds(p, self.check_games, untimed) for p in (policies or self.settings.verify_policies))

    def reserve(self) -> float:
        """Seconds the search leaves for the verdict's first size, which is always played (0
        before the run has timed any game: nothing is measured then). Kinds of player not timed
        yet count for nothing here: the search asks this all the time, and a guess from its
        first few games (the slowest per game) stopped a ``--check-experts`` search after 1 s
        (a reserve of 75 s); the choice of states, asked once, plans them (:meth:`fits`).

        Experts count only for the least first size they may get (:meth:`first_games`: an eighth
        of the check, at their measured pace): a run's first experts' check is short and on a
        fresh board, so its pace (with ``PACE_SLACK``) read 52 s for a six-seat verdict's 3,600
        expert games and stopped a search at 15 s of 60 (those games then took 17 s); the
        verdict gives experts what fits instead."""
        return sum(self._least_check_games * self.pool.seconds_per_game(p)
                   if p in UNTIMED_COST else self.seconds(p, self.check_games, untimed=False)
                   for p in self.settings.verify_policies)

    def _least_games(self, games: int) -> int:
        """The fewest games a verdict's first size gives experts: an eighth of ``games``, in whole
        rounds of openers."""
        from terragen.terrain.generate.fresh_checks import _chunked

        return _chunked(games / 8, self.players)

    def search_over(self) -> bool:
        """Whether the search must stop now to leave :meth:`reserve` for the verdict."""
        return self.clock() > self.deadline - self.reserve()

    def fits(self, states: int, pace: float | None = None) -> bool:
        """Whether ``states`` more measurements of a state (once per kind of player) fit before the
        deadline, at ``pace`` seconds each (as measured on the states compared so far) or, before
        any, at this run's pace (about 1.1-1.5x slower than a best-effort state plays: the search's
        boards warm more tables per game)."""
        each = self._one_state() if pace is None else pace
        return self.clock() + states * each <= self.deadline

    def compared_policies(self) -> list[str]:
        """The kinds of player a best-effort choice compares states on: every kind checked, less
        those with an ``UNTIMED_COST`` this run has not timed (experts when the search never
        reached an experts' check). Why: planned blind, a state's experts took 19 s of a six-seat
        run's choice (10x greedy on that board, while the search's warm games had put greedy at a
        fifth of that) and the run ended 10 s past its limit."""
        return [p for p in self.settings.verify_policies
                if p not in UNTIMED_COST or self.pool.seconds_per_game(p)]

    def first_games(self, policy: str, games: int, paces: dict[str, float], later: Sequence[str]) -> int:
        """How many games the first size of a best-effort verdict plays for ``policy`` players:
        all ``games``, but for experts (kinds with an ``UNTIMED_COST``, for whom the search's
        :meth:`reserve` keeps only an eighth) as many as fit before the deadline, leaving ``later``
        kinds their first size, and at least an eighth of ``games``. Planned at their measured
        pace with ``PACE_SLACK`` or, not timed yet, at ``UNTIMED_COST`` times what the tuned
        players' games took on this board (``paces``, seconds per game)."""
        if policy not in UNTIMED_COST:
            return games
        from terragen.terrain.generate.fresh_checks import _chunked

        base = paces.get(self.settings.policy) or self.pool.seconds_per_game(self.settings.policy)
        pace = self.seconds(policy, 1, untimed=False) or UNTIMED_COST[policy] * base
        room = self.deadline - self.clock() - (self._one_state(later) if later else 0.0)
        if pace <= 0.0 or pace * games <= room:
            return games
        step = _chunked(1, self.players)  # games come in whole rounds of openers, 100 at least
        return min(games, max(self._least_games(games), int(max(room, 0.0) / pace) // step * step))

    def may_spend(self, seconds: float, later: Sequence[str]) -> bool:
        """Whether ``seconds`` more of measuring still leave the first size of the ``later``
        kinds of player inside the limit (a verdict growing: its caller times its own board)."""
        need = seconds + (self._one_state(later) if later else 0.0)
        return self.clock() + need <= self.deadline
