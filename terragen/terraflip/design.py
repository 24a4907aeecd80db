"""Designing the tile set with CP-SAT: which colour hides under which regular tile.

The printed game fixes the front of every tile (its owner's colour) but the
back is a free design choice, and a lopsided choice would hand some families
easier flips. The balance wishes are linear counting constraints over one
Boolean per (tile, colour), which is exactly what CP-SAT proves or refutes;
each wish is guarded by an assumption literal so that an impossible request
is answered with the names of the wishes that clash rather than a bare "no".
"""

from __future__ import annotations

import numbers
import random
from dataclasses import dataclass, field
from typing import Any

from terragen.cpsat import solve
from terragen.errors import InfeasibleError, SpecError, TimeLimitError
from terragen.plain_text import counted
from terragen.terraflip.model import FAMILIES, TILES_PER_FAMILY, TileSet, regular_id

#: Human wording of each balance wish, used in infeasibility messages and statistics.
WISHES: dict[str, str] = {
    "own-colour": "each family hides its own colour under exactly {own}",
    "family-even": "each family hides every other colour equally often",
    "colour-even": "every colour hides under the same number of tiles",
    "pair-symmetric": "family A hides B exactly as often as B hides A",
}


@dataclass(frozen=True)
class DesignSpec:
    """What the tile set must satisfy. ``own`` is how many tiles per family may hide their
    owner's colour (0 by default: such a tile could never change hands when flipped)."""

    per_family: int = TILES_PER_FAMILY
    own: int = 0
    pair_symmetric: bool = True
    time_limit: float = 10.0

    def __post_init__(self) -> None:
        """Each setting's type, when made: ``per_family='a'`` was taken, then failed in :meth:`check`
        as a comparison of str and int. The ranges stay :meth:`check`'s."""
        from terragen.actions import whole_number

        for name in ("per_family", "own"):
            value = getattr(self, name)
            if whole_number(value) is None:
                raise TypeError(f"DesignSpec.{name} is a whole number, not {value!r}")
            object.__setattr__(self, name, whole_number(value))
        if not isinstance(self.pair_symmetric, bool):
            raise TypeError(f"DesignSpec.pair_symmetric is True or False, not {self.pair_symmetric!r}")
        if isinstance(self.time_limit, bool) or not isinstance(self.time_limit, numbers.Real):
            raise TypeError(f"DesignSpec.time_limit is a number of seconds, not {self.time_limit!r}")

    def check(self) -> None:
        if not 1 <= self.per_family <= 30:
            raise SpecError(f"tiles per family (--per-family) must be 1–30 (got {self.per_family})")
        if not 0 <= self.own <= self.per_family:
            raise SpecError(f"own-colour tiles per family (--own) must be 0–{self.per_family}, at most --per-family (got {self.own})")
        if self.time_limit <= 0:
            raise SpecError("time limit must be positive")


@dataclass
class Design:
    tileset: TileSet
    spec: DesignSpec
    seed: int
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "terraflip",
            "kind": "tileset",
            "version": 1,
            "seed": self.seed,
            "spec": {"per_family": self.spec.per_family, "own": self.spec.own,
                     "pair_symmetric": self.spec.pair_symmetric},
            "tiles": self.tileset.to_json(),
            "stats": self.stats,
        }


def _own_hint(spec: DesignSpec, clash: list[str]) -> str:
    """Which --own values leave the other colours an even share, when --own is in the clash (the
    refusal named the clash but not a value that works)."""
    if "own-colour" not in clash or "family-even" not in clash:
        return ""
    others = len(FAMILIES) - 1
    fits = [o for o in range(spec.per_family + 1) if (spec.per_family - o) % others == 0]
    if not fits:
        return ""
    listed = ", ".join(map(str, fits[:-1])) + f" or {fits[-1]}" if len(fits) > 1 else str(fits[0])
    return (f" (the {counted(spec.per_family - spec.own, 'tile')} left must split evenly over the {others} other colours: "
            f"--own {listed})")


def design_tileset(spec: DesignSpec, seed: int) -> Design:
    """Solve for a balanced tile set; the seed picks one of the many balanced sets.

    Determinism: one search worker, a fixed solver seed and a seeded random
    objective, so the same seed gives the same set on every run. ``seed`` is checked as
    ``--seed`` is ('x' failed inside the solver with a garbled formatting error, -1 was taken).
    """
    from terragen.arguments import check_seed

    if not isinstance(spec, DesignSpec):
        raise TypeError(f"design_tileset takes a DesignSpec (DesignSpec(per_family=9)), not {type(spec).__name__}")
    seed = check_seed(seed)
    spec.check()
    from ortools.sat.python import cp_model  # heavy, loaded only when designing

    wishes = [k for k in WISHES if k != "pair-symmetric" or spec.pair_symmetric]
    model, x = _build(cp_model, spec, wishes)
    rng = random.Random(seed)
    model.Maximize(sum(rng.randrange(1000) * v for _, v in sorted(x.items())))
    solver = _solver(cp_model, spec, seed)
    status = solve(solver, model)
    if status == cp_model.INFEASIBLE:
        names = _minimal_clash(cp_model, spec, wishes)
        clash = "; ".join(WISHES[k].format(own=counted(spec.own, "tile")) for k in names)
        raise InfeasibleError(f"no tile set with {spec.per_family} tiles per family can meet all of: {clash}"
                              + _own_hint(spec, names))
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise TimeLimitError(f"tile-set design found nothing within its time limit ({spec.time_limit:g})")

    n, fams = spec.per_family, FAMILIES
    backs = []
    for f in fams:
        for i in range(n):
            colour = next(c for c in fams if solver.BooleanValue(x[f, i, c]))
            backs.append((regular_id(f, i + 1), colour))
    tileset = TileSet(tuple(sorted(backs)), n)
    return Design(tileset, spec, seed, tileset_stats(tileset, spec))


def _build(cp_model: Any, spec: DesignSpec, wishes: list[str]) -> tuple[Any, dict]:
    """The model with exactly the listed wishes enforced."""
    n, fams = spec.per_family, FAMILIES
    model = cp_model.CpModel()
    x = {(f, i, c): model.NewBoolVar(f"x_{f}_{i}_{c}") for f in fams for i in range(n) for c in fams}
    for f in fams:
        for i in range(n):
            model.AddExactlyOne(x[f, i, c] for c in fams)
    count = {(f, c): sum(x[f, i, c] for i in range(n)) for f in fams for c in fams}
    for f in fams:
        others = [c for c in fams if c != f]
        if "own-colour" in wishes:
            model.Add(count[f, f] == spec.own)
        if "family-even" in wishes:
            for a, b in zip(others, others[1:]):
                model.Add(count[f, a] == count[f, b])
    if "colour-even" in wishes:
        totals = [sum(count[f, c] for f in fams) for c in fams]
        for a, b in zip(totals, totals[1:]):
            model.Add(a == b)
    if "pair-symmetric" in wishes:
        for i, a in enumerate(fams):
            for b in fams[i + 1:]:
                model.Add(count[a, b] == count[b, a])
    return model, x


def _solver(cp_model: Any, spec: DesignSpec, seed: int) -> Any:
    from terragen.cpsat import new_solver

    # Deterministic time, not wall-clock: a busy machine must not change which set is found.
    return new_solver(seed, spec.time_limit)


def _minimal_clash(cp_model: Any, spec: DesignSpec, wishes: list[str]) -> list[str]:
    """Drop wishes one at a time while the rest stay infeasible: what is left is a minimal
    set that cannot hold together, which is what the user needs to hear about."""
    core = list(wishes)
    for name in list(wishes):
        trial = [k for k in core if k != name]
        model, _ = _build(cp_model, spec, trial)
        if solve(_solver(cp_model, spec, 0), model) == cp_model.INFEASIBLE:
            core = trial
    return core


def tileset_stats(tileset: TileSet, spec: DesignSpec | None = None) -> dict[str, Any]:
    """Counts that show the balance at a glance (and that the tests check independently)."""
    matrix = {f: tileset.back_counts(f) for f in FAMILIES}
    hidden = {c: sum(matrix[f][c] for f in FAMILIES) for c in FAMILIES}
    # The chance that a face-up opponent tile, picked at random, turns to your colour.
    odds = {}
    for a in FAMILIES:
        pool = [f for f in FAMILIES if f != a]
        odds[a] = round(sum(matrix[f][a] for f in pool) / (len(pool) * tileset.per_family), 4)
    # With two or three players the first families play; the same physical set must stay fair.
    seated = {}
    for n in (2, 3, 4):
        fams = FAMILIES[:n]
        seated[str(n)] = {a: round(sum(matrix[f][a] for f in fams if f != a) / ((n - 1) * tileset.per_family), 4)
                          for a in fams}
    out: dict[str, Any] = {
        "flip_odds_by_players": seated,
        "hides": matrix,
        "hidden_under": hidden,
        "own_colour_tiles": {f: matrix[f][f] for f in FAMILIES},
        "flip_odds": odds,
        "regular_tiles": len(tileset.backs),
    }
    if spec is not None:
        out["wishes"] = {k: v.format(own=counted(spec.own, "tile")) for k, v in WISHES.items()
                         if k != "pair-symmetric" or spec.pair_symmetric}
    return out
