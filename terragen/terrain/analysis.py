"""Everything a player or designer wants to know about a layout, in one pass.

Per player: whether each destination is reachable (ignoring pips, and under
the current rotations), its cheapest cost and path, the exact expected turns
to collect all destinations, the unavoidable up-3 steps, how fragile the
route is to a single rotation and, on request, the race model (when the lone
token finishes and how often it wins the race of independent tokens). Per
board: cliffs, dead pips and how fair the seats are. The generator, validator, simulator gate and renderer all read
this one report, so they can never disagree about a board.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from terragen.grids.hex import Hex
from terragen.terrain.board import Board
from terragen.terrain.compiled import load
from terragen.terrain.expected import expected_turns, near_sources
from terragen.terrain.layout import Layout, Player, require_layout
from terragen.terrain.paths import cheapest_path, costs_from, reachable
from terragen.terrain.pieces import distinct_rotations, exit_mask
from terragen.terrain.race import RaceResult, SeatRace, layout_seats, race_model
from terragen.terrain.rules import BAD_WEATHER_FACTOR, MAX_CLIMB
from terragen.terrain.work_meter import COSTS, charge

#: the compiled :func:`_reach_tree_python` (``_kernels.c``), or None
_COMPILED_TREE = getattr(load("terragen.terrain._kernels"), "reach_tree", None)


@dataclass
class DestinationReport:
    q: int
    r: int
    reachable_elevation: bool
    reachable_pips: bool
    cost_good: int | None
    path: list[Hex] = field(default_factory=list)

    @property
    def cost_bad(self) -> int | None:
        return None if self.cost_good is None else self.cost_good * BAD_WEATHER_FACTOR

    def to_json(self) -> dict[str, Any]:
        return {
            "q": self.q,
            "r": self.r,
            "reachable_elevation": self.reachable_elevation,
            "reachable_pips": self.reachable_pips,
            "cost_good": self.cost_good,
            "cost_bad": self.cost_bad,
            "path": [list(h) for h in self.path],
        }


@dataclass
class PlayerReport:
    seat: int
    corner: int
    start: Hex | None
    destinations: list[DestinationReport]
    expected_turns: float | None  # None when the destinations cannot all be collected
    tour_cost: int | None  # cheapest good-weather cost to collect every destination, best order
    tour_order: list[Hex]  # the destinations in that order
    tour_path: list[Hex]  # the whole route, start first
    up3_steps: int | None  # up-3 steps on that route (cheapest route with the fewest of them)
    fragility: int  # single-piece rotations that would make the destinations uncollectable
    race: SeatRace | None = None  # the lone token's finishing rounds (when the race was asked for)
    win_probability_race: float | None = None  # wins the race of independent tokens, seat 0 opening
    win_probability_race_rotating: float | None = None  # the same, the opener rotating game by game

    def finish_quantiles(self) -> dict[str, int | None] | None:
        """Rounds by which the lone token has finished with chance 10%, 50% and 90% (None: never)."""
        if self.race is None:
            return None
        return {f"p{q}": (t if (t := self.race.quantile(q / 100)) >= 0 else None) for q in (10, 50, 90)}

    def race_json(self) -> dict[str, Any]:
        if self.race is None:
            return {}
        er = self.race.expected_rounds
        return {
            "win_probability_race": round(self.win_probability_race or 0.0, 6),
            "win_probability_race_rotating": round(self.win_probability_race_rotating or 0.0, 6),
            "finish_rounds": self.finish_quantiles(),
            "expected_rounds": round(er, 6) if math.isfinite(er) else None,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.race_json(),
            "seat": self.seat,
            "corner": self.corner,
            "start": list(self.start) if self.start else None,
            "expected_turns": None if self.expected_turns is None else round(self.expected_turns, 6),
            "cost_good": self.tour_cost,
            "cost_bad": None if self.tour_cost is None else self.tour_cost * BAD_WEATHER_FACTOR,
            "up3_steps": self.up3_steps,
            "fragility": self.fragility,
            "order": [list(h) for h in self.tour_order],
            "path": [list(h) for h in self.tour_path],
            "destinations": [d.to_json() for d in self.destinations],
        }


@dataclass
class Analysis:
    players: list[PlayerReport]
    cliffs: int
    blocked_exits: int
    up3_arcs: int
    race: RaceResult | None = None

    @property
    def fairness_spread(self) -> float | None:
        """Largest minus smallest expected turns across seats (None if a seat cannot finish)."""
        ets = [p.expected_turns for p in self.players]
        if not ets or any(e is None for e in ets):
            return None
        return max(ets) - min(ets)  # type: ignore[type-var,operator]

    def metrics(self) -> dict[str, Any]:
        ets = [p.expected_turns for p in self.players if p.expected_turns is not None]
        costs = [p.tour_cost for p in self.players if p.tour_cost is not None]
        up3 = [p.up3_steps for p in self.players if p.up3_steps is not None]
        spread = self.fairness_spread
        return {
            "cliffs": self.cliffs,
            "blocked_exits": self.blocked_exits,
            "up3_arcs": self.up3_arcs,
            "expected_turns_mean": round(sum(ets) / len(ets), 6) if ets else None,
            "expected_turns_max": round(max(ets), 6) if ets else None,
            "fairness_spread": None if spread is None else round(spread, 6),
            "cost_min": min(costs) if costs else None,
            "cost_max": max(costs) if costs else None,
            "up3_min": min(up3) if up3 else None,
            "fragility_total": sum(p.fragility for p in self.players),
            **self.race_metrics(),
        }

    def race_metrics(self) -> dict[str, Any]:
        """How far the race model puts the luckiest or unluckiest seat from a fair share."""
        if self.race is None:
            return {}
        return {
            "race_max_deviation": round(self.race.max_deviation(), 6),
            "race_max_deviation_rotating": round(self.race.max_deviation(rotating=True), 6),
        }


def up3_count(board: Board, cells: list[int] | tuple[int, ...]) -> int:
    """How many steps of a route climb the most the rules allow (three levels): the presets'
    measure of a hard route, as each costs a high roll."""
    return sum(1 for a, b in zip(cells, cells[1:]) if board.level[b] - board.level[a] == MAX_CLIMB)


def _reach_tree(board: Board, start: int, stuck: int = -1) -> dict[int, int]:
    """Every cell a token on ``start`` can get to, each mapped to the cell it is first reached
    from (``start`` to itself); a token that lands on ``stuck`` cannot leave it. Made in C where
    ``_kernels.c`` was built (the same dict): counting rotation-critical pieces asks it tens of
    thousands of times a generator run."""
    charge(COSTS["reach"])
    if not board.passable(start):
        return {}
    if _COMPILED_TREE is not None:
        came = _COMPILED_TREE(board.pip_arcs, start, stuck)
        if came is not None:
            return came
    return _reach_tree_python(board.pip_arcs, start, stuck)


def _reach_tree_python(arcs: list, start: int, stuck: int = -1) -> dict[int, int]:
    """:func:`_reach_tree` on ``arcs`` from a passable ``start``: a depth-first search."""
    came = {start: start}
    stack = [start]
    while stack:
        i = stack.pop()
        if i == stuck:
            continue
        for j, _, _ in arcs[i]:
            if j not in came:
                came[j] = i
                stack.append(j)
    return came


def _tour_order(board: Board, start: int, goals: list[int], stuck: int = -1) -> tuple[int, ...] | None:
    """An order in which the token can land on every goal under the current rotations, or None."""
    first = _reach_tree(board, start, stuck)
    if any(g not in first for g in goals):
        return None
    if len(goals) == 1:
        return (goals[0],)
    reach = {start: first, **{g: _reach_tree(board, g, stuck) for g in goals}}
    for order in itertools.permutations(goals):
        if all(b in reach[a] for a, b in zip((start, *order), order)):
            return order
    return None


def _tour_reachable(board: Board, start: int, goals: list[int]) -> bool:
    """Can the token land on every goal in some order under the current rotations?"""
    return _tour_order(board, start, goals) is not None


def fragility(board: Board, start: int, goals: list[int]) -> int:
    """How many single-piece rotations would leave the player unable to collect every goal.

    Turning a piece only changes its own exits, so a piece that can be left for good (a
    token landing on it is stuck) without spoiling the tour can never cut the player off.
    Only a piece on one possible tour's own path can spoil it (any other leaves that tour
    whole), so only those are tried stuck, and only the few critical ones are then tried
    rotation by rotation.
    """
    if not goals:
        return 0
    order = _tour_order(board, start, goals)
    if order is None:
        return 0
    on_tour: set[int] = set()
    for a, b in zip((start, *order), order):
        came = _reach_tree(board, a)
        while b != a:
            b = came[b]
            on_tour.add(b)
    count = 0
    for i in sorted(on_tour):
        if _tour_order(board, start, goals, stuck=i) is not None:
            continue
        now = board.rotation[i]
        for rot in distinct_rotations(board.pattern[i]):
            if rot == now or board.mask[i] == exit_mask(board.pattern[i], rot):
                continue
            # turned in place and back (a copy of the board per turn tried was a tenth of this count's time)
            board.set_rotation(i, rot)
            try:
                count += not _tour_reachable(board, start, goals)
            finally:
                board.set_rotation(i, now)
    return count


def best_tour(board: Board, start: int, goals: list[int]) -> tuple[int | None, list[int], list[int]]:
    """Cheapest order to visit all goals: (cost, order, full cell path)."""
    nodes = [start, *goals]
    dist = {a: costs_from(board, a) for a in nodes}
    best: tuple[float, tuple[int, ...]] | None = None
    for order in itertools.permutations(goals):
        total = 0.0
        for a, b in zip((start, *order), order):
            total += dist[a].get(b, math.inf)
        if best is None or (total, order) < best:
            best = (total, order)
    assert best is not None
    if best[0] == math.inf:
        return None, [], []
    path = [start]
    for a, b in zip((start, *best[1]), best[1]):
        path.extend(cheapest_path(board, a, b).cells[1:])
    return int(best[0]), list(best[1]), path


def analyse_player(
    board: Board, layout: Layout, player: Player, with_fragility: bool = True,
    near: list[list[tuple[int, int]]] | None = None,
) -> PlayerReport:
    """One seat's analysis: reachability, cheapest routes, expected turns and, with
    ``with_fragility``, how many single turns of a piece break its route. :func:`analyse` calls it
    for every seat sharing ``near`` (the cells within reach of each cell) across seats, which made
    a six-seat board 4x faster to analyse than solving each seat alone."""
    start_hex = layout.start(player)
    start = board.index.get(start_hex, -1) if start_hex else -1
    dest_reports = []
    goals: list[int] = []
    elev = reachable(board, start, pips=False) if start >= 0 else set()
    pip = reachable(board, start, pips=True) if start >= 0 else set()
    for d in player.destinations:
        g = board.index.get(d.hex, -1)
        res = cheapest_path(board, start, g) if start >= 0 and g >= 0 else None
        dest_reports.append(
            DestinationReport(
                d.q,
                d.r,
                reachable_elevation=g in elev,
                reachable_pips=g in pip,
                cost_good=res.cost if res else None,
                path=[board.hexes[i] for i in res.cells] if res else [],
            )
        )
        if g >= 0:
            goals.append(g)
    # a destination listed twice is an error validate reports; the figures count it once, as the
    # race model and the expected-turns solver do, so the table's columns agree with each other
    complete = start >= 0 and len(goals) == len(player.destinations) and goals
    goals = list(dict.fromkeys(goals))
    if complete and _tour_reachable(board, start, goals):
        tour_cost, order, path = best_tour(board, start, goals)
        et = expected_turns(board, start, goals, near)
        et_value = et if math.isfinite(et) else None
        up3 = up3_count(board, path)
        frag = fragility(board, start, goals) if with_fragility else 0
    else:
        tour_cost, order, path, et_value, up3, frag = None, [], [], None, None, 0
    return PlayerReport(
        seat=player.seat,
        corner=player.corner,
        start=start_hex,
        destinations=dest_reports,
        expected_turns=et_value,
        tour_cost=tour_cost,
        tour_order=[board.hexes[g] for g in order],
        tour_path=[board.hexes[i] for i in path],
        up3_steps=up3,
        fragility=frag,
    )


def analyse(layout: Layout, board: Board | None = None, with_fragility: bool = True, with_race: bool = False) -> Analysis:
    """Analyse every player of ``layout``; pass ``board`` if you already built it.

    ``with_race`` adds the race model (a few milliseconds more per board).
    """
    require_layout(layout, "analyse")
    board = board or Board.from_layout(layout)
    near = near_sources(board)  # shared by every player's expected-turns solve
    players = [analyse_player(board, layout, p, with_fragility, near) for p in layout.players]
    up3_arcs = sum(1 for arcs in board.pip_arcs for _, _, delta in arcs if delta == MAX_CLIMB)
    race = None
    if with_race and players:
        seats, numbers = layout_seats(layout, board)
        race = race_model(board, seats, near=near, seat_numbers=numbers)
        order = sorted(range(len(players)), key=lambda k: layout.players[k].seat)  # seat (turn) order
        for pos, k in enumerate(order):
            rep = players[k]
            rep.race = race.seats[pos]
            rep.win_probability_race = race.win_probability[pos]
            rep.win_probability_race_rotating = race.win_probability_rotating[pos]
    return Analysis(players, len(board.cliffs()), board.blocked_exits(), up3_arcs, race)
