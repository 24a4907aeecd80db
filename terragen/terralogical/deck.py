"""Deck design with CP-SAT: choose 63 distinct land tiles under balance constraints.

The rulebook gives the tile count but not the tiles. The designer picks 63
tiles from the 1044 tiles that differ up to rotation (no two dealt tiles are
the same up to turning) so that:

* the three landscapes are equally common over all triangles
  (``landscape_tolerance`` allows a difference);
* clouds make up ``cloud_share`` of the triangles (± ``cloud_tolerance``),
  at most ``max_clouds_per_tile`` per tile;
* light subsoil makes up ``light_share`` of the triangles (± ``light_tolerance``);
* every tile can be joined by a regular connection to at least
  ``min_partners`` other tiles of the deck;
* at least ``min_connectors`` tiles carry one landscape straight across
  (the same landscape on two opposite sides), the tiles that let a route and
  a landscape area grow across the board towards the flower corner.

The seed only picks among the decks that meet the constraints (random weights
in the objective); the solver runs with one worker and a deterministic time
budget, so the same seed and parameters always give the same deck.
"""

from __future__ import annotations

import math
import numbers
import random
import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from terragen.errors import InfeasibleError, SpecError, TimeLimitError
from terragen.limits import MAX_TIME_LIMIT
from terragen.plain_text import counted
from terragen.terralogical.tiles import (
    CLOUD,
    END_ID,
    END_TILE,
    LANDSCAPES,
    START_ID,
    START_TILE,
    Tile,
    all_canonical_tiles,
)

#: The most land tiles a deck may hold, designed or read (the game's has 63): a 20,000-tile deck
#: was read, and its kit wrote 3,343 SVG pages
MAX_DECK_TILES = 500


def fewest_to_flower() -> int:
    """The fewest land tiles that can join the sun to a flower field: the nearest field's distance
    from the sun in squares (a path of tiles steps to a side neighbour each time)."""
    from terragen.terralogical.board import FLOWER_FIELDS, SUN_SQUARE

    return min(abs(SUN_SQUARE[0] - r) + abs(SUN_SQUARE[1] - c) for r, c in FLOWER_FIELDS)


def small_deck_warning(tiles: int) -> str | None:
    """Why a deck of ``tiles`` land tiles cannot give a proper game, or None. Why: a 1- or 9-tile deck
    was designed and played without a word, and every game stalled, the flower out of reach. (A deck
    that reaches it also deals three tiles to each of four players: 12 either way.)"""
    need = fewest_to_flower()
    if tiles < need:
        return (f"a deck of {tiles} land tile{'s' if tiles != 1 else ''} can never reach a flower field (the "
                f"nearest is {need} squares from the sun): every game ends stalled")
    return None


@dataclass(frozen=True)
class DeckParams:
    tiles: int = 63
    cloud_share: float = 0.08
    cloud_tolerance: int = 2
    light_share: float = 0.5
    light_tolerance: int = 2
    landscape_tolerance: int = 0
    max_clouds_per_tile: int = 1
    min_partners: int = 45
    min_connectors: int = 30
    max_deterministic_time: float = 5.0

    def __post_init__(self) -> None:
        """Each parameter's type, when made: ``tiles='a'`` was taken, then failed in
        :meth:`check_ranges` as a comparison of str and int. The ranges stay :meth:`check_ranges`'s
        (``from_pairs`` says them as the option was typed)."""
        from terragen.actions import whole_number

        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in (float, "float"):
                if isinstance(value, bool) or not isinstance(value, numbers.Real):
                    raise TypeError(f"DeckParams.{f.name} is a number, not {value!r}")
            elif whole_number(value) is None:
                raise TypeError(f"DeckParams.{f.name} is a whole number, not {value!r}")
            else:
                object.__setattr__(self, f.name, whole_number(value))  # numpy's: a plain int in the deck file

    @staticmethod
    def key_of(pair: str) -> str:
        """The parameter a ``key=value`` string names, as :meth:`from_pairs` reads it (``max-clouds`` is
        ``max_clouds``), so a caller asking whether one was given reads it the same way."""
        return pair.split("=", 1)[0].strip().replace("-", "_")

    @classmethod
    def from_pairs(cls, pairs: list[str] | tuple[str, ...]) -> "DeckParams":
        """Build from ``key=value`` strings, rejecting unknown keys and bad values with one line each."""
        types = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for pair in pairs:
            if "=" not in pair:
                raise SpecError(f"--param {pair!r}: expected key=value")
            key, raw = cls.key_of(pair), pair.split("=", 1)[1].strip()
            if not key:  # "--param =" said "--param : unknown parameter"
                raise SpecError(f"--param {pair!r}: no parameter name before '=' (known: {', '.join(sorted(types))})")
            if key not in types:  # the names and the likely one, as for every other unknown name
                from terragen.names import unknown_name

                raise SpecError(f"--param: {unknown_name('parameter', key, sorted(types)).message}")
            if key in values:  # once the last one won without a word
                raise SpecError(f"--param {key} given twice")
            whole = types[key] not in (float, "float")
            try:
                if not raw.isascii() or "_" in raw:  # int() reads '６３' and '6_3' too; no other number option does
                    raise ValueError
                values[key] = int(raw) if whole else float(raw)
            except ValueError:
                raise SpecError(f"--param {key}={raw}: not {'a whole number' if whole else 'a number'}") from None
            if not whole and not math.isfinite(values[key]):
                raise SpecError(f"--param {key}={raw}: not a finite number")
        if "tiles" in values and values["tiles"] != cls.tiles:
            # the two counts are set for the game's 63 tiles: a deck of another size keeps their
            # shares of it unless given (tiles=9 alone was refused: 45 partners among 8 others)
            n = values["tiles"]
            # halves up, as the docs' "rounded" reads (round() takes halves to even: 22.5 -> 22)
            values.setdefault("min_partners", math.floor(cls.min_partners * max(n - 1, 0) / (cls.tiles - 1) + 0.5))
            values.setdefault("min_connectors", math.floor(cls.min_connectors * n / cls.tiles + 0.5))
        params = cls(**values)
        try:
            params.check_ranges()
        except SpecError as exc:  # given as --param: said as the option ("param tiles=0" named none)
            raise SpecError(as_given(exc.message, pairs)) from None
        return params

    def check_ranges(self) -> None:
        if not 1 <= self.tiles <= MAX_DECK_TILES:
            raise SpecError(f"param tiles={self.tiles}: must be 1 to {MAX_DECK_TILES}")
        for name in ("cloud_share", "light_share"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise SpecError(f"param {name}={v}: must be between 0 and 1")
        for name in ("cloud_tolerance", "light_tolerance", "landscape_tolerance", "min_partners", "min_connectors"):
            if getattr(self, name) < 0:
                raise SpecError(f"param {name}={getattr(self, name)}: must not be negative")
        if not 0 <= self.max_clouds_per_tile <= 3:
            raise SpecError(
                f"param max_clouds_per_tile={self.max_clouds_per_tile}: must be 0 to 3 (a tile needs one regular edge)"
            )
        if not 0 < self.max_deterministic_time <= MAX_TIME_LIMIT:  # --time-limit's own range (it sets this)
            raise SpecError(f"param max_deterministic_time={self.max_deterministic_time:g}: must be above 0 and at "
                            f"most {MAX_TIME_LIMIT:g} (a day)")


def as_given(message: str, pairs: list[str] | tuple[str, ...]) -> str:
    """``param cloud_share=2.0: ...`` said as the user typed it, ``--param cloud_share=2: ...``: the
    option's name, and the value as given rather than as read (the 2.0 was never typed)."""
    m = re.match(r"param (\w+)(=[^:]*)?:", message)
    if not m:
        return message
    typed = {DeckParams.key_of(pair): pair.split("=", 1)[1].strip() for pair in pairs if "=" in pair}
    shown = f"={typed[m.group(1)]}" if m.group(1) in typed else (m.group(2) or "")
    return f"--param {m.group(1)}{shown}:{message[m.end():]}"


@dataclass
class Deck:
    """Land tiles with ids, plus the sun and flower tiles and how the deck was made."""

    tiles: list[tuple[str, Tile]]
    seed: int | None = None
    params: dict[str, Any] | None = None
    #: the file the deck was read from (None: the shipped deck or a fresh design), so a board's
    #: unknown tile id can say which deck it is missing from
    source: str | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "terralogical",
            "version": 1,
            "kind": "deck",
            "seed": self.seed,
            "params": self.params or {},
            "start": {"id": START_ID, "edges": START_TILE.code},
            "end": {"id": END_ID, "edges": END_TILE.code},
            "tiles": [{"id": tid, "edges": t.code} for tid, t in self.tiles],
            "stats": deck_stats(self.tiles),
        }

    def by_id(self) -> dict[str, Tile]:
        out = {tid: t for tid, t in self.tiles}
        out[START_ID] = START_TILE
        out[END_ID] = END_TILE
        return out


def is_connector(tile: Tile) -> bool:
    """A tile that carries one landscape straight across, so areas and routes can keep growing."""
    e = tile.edges
    return any(not e[i].is_cloud and e[i].kind == e[i + 2].kind for i in (0, 1))


def can_touch(a: Tile, b: Tile) -> bool:
    """Whether some orientation joins the two by a regular connection."""
    return bool(a.regular_kinds & b.regular_kinds)


def deck_stats(tiles: list[tuple[str, Tile]]) -> dict[str, Any]:
    """Counts that show whether a deck is balanced; printed by ``deck`` and stored in the file."""
    plain = [t for _, t in tiles]
    tri = [x for t in plain for x in t.edges]
    kinds = {k: sum(1 for x in tri if x.kind == k) for k in LANDSCAPES + (CLOUD,)}
    partners = [sum(1 for j, b in enumerate(plain) if j != i and can_touch(a, b)) for i, a in enumerate(plain)]
    canon = [t.canonical() for t in plain]
    return {
        "tiles": len(plain),
        "triangles": len(tri),
        "meadow": kinds["M"],
        "field": kinds["F"],
        "wood": kinds["W"],
        "cloud": kinds["C"],
        "light": sum(1 for x in tri if x.light),
        "light_by_landscape": {
            name: sum(1 for x in tri if x.kind == k and x.light)
            for k, name in zip(LANDSCAPES + (CLOUD,), ("meadow", "field", "wood", "cloud"))
        },
        "dark": sum(1 for x in tri if not x.light),
        "tiles_by_clouds": {str(n): sum(1 for t in plain if t.cloud_count == n) for n in range(5)},
        "connectors": sum(1 for t in plain if is_connector(t)),
        "min_partners": min(partners) if partners else 0,
        "duplicates_up_to_rotation": len(canon) - len(set(canon)),
    }


def _precheck(p: DeckParams, candidates: list[Tile]) -> tuple[int, int, int, int]:
    """Counting bounds that make a spec impossible before any solving; returns cloud and light ranges."""
    n = p.tiles
    tri = 4 * n
    if n > len(candidates):
        raise InfeasibleError(
            f"param tiles={n}: only {len(candidates)} tiles differ up to rotation with at most "
            f"{counted(p.max_clouds_per_tile, 'cloud')} per tile"
        )
    target = round(p.cloud_share * tri)
    c_lo, c_hi = max(0, target - p.cloud_tolerance), min(tri, target + p.cloud_tolerance)
    if c_lo > n * p.max_clouds_per_tile:
        most = n * p.max_clouds_per_tile
        if p.max_clouds_per_tile != DeckParams.max_clouds_per_tile:  # named first where the user changed it
            raise InfeasibleError(
                f"param max_clouds_per_tile={p.max_clouds_per_tile}: allows at most {most} cloud triangles, but "
                f"cloud_share={p.cloud_share:g} needs at least {c_lo} (lower cloud_share, or raise max_clouds_per_tile)")
        raise InfeasibleError(
            f"param cloud_share={p.cloud_share:g}: needs at least {c_lo} cloud triangles but "
            f"max_clouds_per_tile={p.max_clouds_per_tile} allows at most {most}"
        )
    if p.landscape_tolerance == 0 and not any((tri - c) % 3 == 0 for c in range(c_lo, c_hi + 1)):
        raise InfeasibleError(
            f"param landscape_tolerance=0: no cloud count from {c_lo} to {c_hi} leaves a multiple of 3 "
            "triangles to share equally among meadow, field and wood (raise cloud_tolerance or landscape_tolerance)"
        )
    cloudless = sum(1 for t in candidates if all(e.kind != "C" for e in t.edges))  # a cloudy tile spends one
    if n - c_hi > cloudless:
        raise InfeasibleError(
            f"param cloud_share={p.cloud_share}: at most {c_hi} cloud triangles leave at least {n - c_hi} tiles "
            f"without a cloud, but only {cloudless} such tiles differ up to rotation (raise cloud_share)")
    target = round(p.light_share * tri)
    l_lo, l_hi = max(0, target - p.light_tolerance), min(tri, target + p.light_tolerance)
    if p.min_partners > n - 1:
        raise InfeasibleError(
            f"param min_partners={p.min_partners}: a deck of {n} tiles has only {n - 1} others per tile"
        )
    if p.min_connectors > n:
        raise InfeasibleError(f"param min_connectors={p.min_connectors}: more than the {n} tiles of the deck")
    return c_lo, c_hi, l_lo, l_hi


GROUPS = ("cloud_share", "light_share", "landscape_tolerance", "min_partners", "min_connectors")


def _build(
    p: DeckParams,
    cands: list[Tile],
    seed: int,
    ranges: tuple[int, int, int, int],
    skip: str | None = None,
    optimise: bool = True,
):
    from ortools.sat.python import cp_model  # heavy: load only when designing

    c_lo, c_hi, l_lo, l_hi = ranges
    m = cp_model.CpModel()
    x = [m.NewBoolVar(f"x{i}") for i in range(len(cands))]
    m.Add(sum(x) == p.tiles)

    def count(pred) -> Any:
        return sum(sum(1 for e in t.edges if pred(e)) * x[i] for i, t in enumerate(cands))

    if skip != "cloud_share":
        clouds = count(lambda e: e.is_cloud)
        m.Add(clouds >= c_lo)
        m.Add(clouds <= c_hi)
    if skip != "light_share":
        light = count(lambda e: e.light)
        m.Add(light >= l_lo)
        m.Add(light <= l_hi)
    if skip != "landscape_tolerance":
        per = [count(lambda e, k=k: e.kind == k) for k in LANDSCAPES]
        for a in range(3):
            for b in range(3):
                if a != b:
                    m.Add(per[a] - per[b] <= p.landscape_tolerance)
    if skip != "min_connectors":
        m.Add(sum(x[i] for i, t in enumerate(cands) if is_connector(t)) >= p.min_connectors)
    if skip != "min_partners":
        sets = sorted({t.regular_kinds for t in cands}, key=lambda s: "".join(sorted(s)))
        n_s = {s: sum(x[i] for i, t in enumerate(cands) if t.regular_kinds == s) for s in sets}
        for s in sets:
            used = m.NewBoolVar("used_" + "".join(sorted(s)))
            m.Add(n_s[s] >= 1).OnlyEnforceIf(used)
            m.Add(n_s[s] == 0).OnlyEnforceIf(used.Not())
            reach = sum(n_s[t] for t in sets if t & s)
            m.Add(reach - 1 >= p.min_partners).OnlyEnforceIf(used)
    rng = random.Random(seed)
    weights = [rng.randrange(1000) for _ in cands]
    if optimise:
        m.Maximize(sum(w * xi for w, xi in zip(weights, x)))
    from terragen.cpsat import new_solver, solve

    solver = new_solver(seed, p.max_deterministic_time)
    # The weights only pick one deck among many good ones; proving the last
    # fraction of a percent of optimality buys nothing and can take long.
    solver.parameters.relative_gap_limit = 0.005
    status = solve(solver, m)
    return cp_model, solver, status, x


def design_deck(seed: int, params: DeckParams | None = None) -> Deck:
    """Solve for a deck; raises InfeasibleError naming the parameter that cannot be met.

    ``seed`` is checked as ``--seed`` is, and ``params`` must be a DeckParams: 'x' failed inside
    the solver with a garbled formatting error, -1 was taken, and a dict failed as an AttributeError."""
    from terragen.arguments import check_seed

    seed = check_seed(seed)
    if params is not None and not isinstance(params, DeckParams):
        raise TypeError(f"params is a DeckParams (e.g. DeckParams(tiles=30)), not {type(params).__name__}")
    p = params or DeckParams()
    p.check_ranges()
    cands = all_canonical_tiles(p.max_clouds_per_tile)
    ranges = _precheck(p, cands)
    cp_model, solver, status, x = _build(p, cands, seed, ranges)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = sorted((cands[i] for i in range(len(cands)) if solver.Value(x[i])), key=lambda t: t.code)
        width = len(str(len(chosen)))
        tiles = [(f"T{i + 1:0{width}d}", t) for i, t in enumerate(chosen)]
        return Deck(tiles, seed, asdict(p))
    if status == cp_model.INFEASIBLE:
        for group in GROUPS:
            cp2, s2, st2, _ = _build(p, cands, seed, ranges, skip=group, optimise=False)
            if st2 in (cp2.OPTIMAL, cp2.FEASIBLE):
                raise InfeasibleError(
                    f"param {group}={getattr(p, group)}: CP-SAT proved no deck meets it together with the other "
                    "parameters (dropping it alone makes the deck possible)"
                )
        raise InfeasibleError("CP-SAT proved that no deck meets these parameters together")
    raise TimeLimitError(
        f"CP-SAT found no deck within {p.max_deterministic_time:g} deterministic seconds (max_deterministic_time; "
        "--time-limit on the command line): raise it or loosen the parameters"
    )
