"""What a generated board must satisfy: the spec, read from flags and a TOML file.

A spec is plain data. Presets (``terragen/data/terrain/presets/<name>.toml``) fill
the difficulty-related keys, the spec file overrides the preset, and flags
override the spec file. Every bad value becomes a SpecError naming the key,
so the CLI can print one line instead of a traceback.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from terragen.errors import SpecError, SpecFileError
from terragen.formats import not_toml_kind
from terragen.grids import hex as hx
from terragen.plain_text import counted
from terragen.safejson import shown

PLACEMENTS = ("free", "distance", "fixed", "opposite")
SHAPES = ("none", "mountain", "valley", "ridge", "terraces")
SYMMETRIES = ("auto", "none")  # see symmetry.py
#: corners in seat (play) order where "auto" symmetry differs from the spread-out defaults: two seats
#: on corners 0 and 2 (a mirror swaps them), four seated 0, 1, 4, 3 (the mirror through corners 2
#: and 5 then moves every seat two places on in the order of play, so mirrored seats also play in
#: the same turn order; seated 0, 1, 3, 4 the mirror reverses that order)
AUTO_CORNERS = {2: [0, 2], 4: [0, 1, 4, 3]}
DEFAULT_CORNERS = {2: [0, 3], 3: [0, 2, 4], 4: [0, 1, 3, 4], 5: [0, 1, 2, 3, 4], 6: [0, 1, 2, 3, 4, 5]}


@dataclass
class Pin:
    """A given piece kind at a given cell, optionally with a fixed rotation."""

    q: int
    r: int
    level: int
    pattern: str
    rotation: int | None = None


@dataclass
class Spec:
    """Every requirement of a generated board. ``None`` means "no requirement"."""

    players: int = 4
    corners: list[int] | None = None
    destinations: int = 1
    placement: str = "free"
    min_distance: int = 0  # "distance" placement: at least this many hexes from the start
    fixed: list[list[list[int]]] | None = None  # "fixed": per seat, list of [q, r]
    radius: int = 5
    inventory: str | None = None  # None: standard, extended for radius 6
    difficulty: str | None = None
    cost_band: list[int] | None = None  # cheapest good-weather tour cost per seat [lo, hi]
    cost_spread: int | None = None  # max - min cheapest cost across seats
    turns_band: list[float] | None = None  # expected turns per seat [lo, hi]
    fairness: float | None = None  # max - min expected turns across seats
    min_up3: int = 0  # up-3 steps on every cheapest route, per seat
    min_cliff_exits: int = 0  # pips (board-wide) that point over a cliff
    min_critical: int = 0  # rotation-critical pieces per seat (analysis fragility)
    shape: str = "none"
    pins: list[Pin] = field(default_factory=list)
    symmetry: str = "auto"  # auto: a symmetric board when the corners and inventory allow one

    def inventory_name(self) -> str:
        """The inventory to build from: the named one, else the set that fits the radius."""
        if self.inventory:
            return self.inventory
        return "extended" if self.radius == 6 else "standard"

    def seat_corners(self) -> list[int]:
        """The corners given, else spread-out defaults; two seats with symmetry "auto" start on
        corners 0 and 2, which a mirror swaps (opposite corners admit no symmetry the box can
        build, see symmetry.py), so their board is fair by construction."""
        if self.corners is not None:
            return list(self.corners)
        if self.symmetry == "auto" and self.players in AUTO_CORNERS:
            return list(AUTO_CORNERS[self.players])
        return list(DEFAULT_CORNERS[self.players])

    def to_json(self) -> dict[str, Any]:
        """The spec as stored in ``meta.spec`` (deterministic key order)."""
        d = asdict(self)
        d["corners"] = self.seat_corners()
        # a file's name only: the path as spelled (or joined to the spec file's) changed with the folder
        # the command ran in, so the same spec and seed wrote different bytes
        d["inventory"] = Path(self.inventory_name()).name
        d["pins"] = [{k: v for k, v in asdict(p).items() if v is not None} for p in self.pins]
        return {k: v for k, v in sorted(d.items()) if v is not None}


SPEC_KEYS = {f.name for f in fields(Spec)}
#: the highest cheapest cost a band may name: far above any board's (6 destinations' worth of
#: 126 steps of 4 points on the largest board), and a whole number every part of the search holds
MAX_COST = 100_000


def check_difficulty(value: Any) -> str:
    """A difficulty must be a shipped preset's name: it once was joined to the presets' folder as
    a path, so ``../../x`` read any TOML file and sent the default output folder elsewhere."""
    from terragen.templates import template_names

    if not isinstance(value, str) or value not in template_names("terrain", "presets"):
        from terragen.terrain.generate.presets import preset_names  # easiest first: reads every preset

        raise SpecError(f"spec key 'difficulty' must be one of {', '.join(preset_names())} (got {shown(value)})")
    return value


def _int(data: dict, key: str, lo: int, hi: int) -> int:
    v = data[key]
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise SpecError(f"spec key '{key}' must be a whole number from {lo} to {hi} (got {shown(v)})")
    return v


def _num(data: dict, key: str, lo: float) -> float:
    v = data[key]
    if not isinstance(v, (int, float)) or isinstance(v, bool) or v < lo:
        raise SpecError(f"spec key '{key}' must be a number >= {lo} (got {shown(v)})")
    return float(v)


def _band(data: dict, key: str, integer: bool) -> list:
    v = data[key]
    ok = isinstance(v, list) and len(v) == 2 and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and (not integer or isinstance(x, int)) for x in v)
    if not ok:
        kind = "whole numbers" if integer else "numbers"
        raise SpecError(f"spec key '{key}' must be a pair [low, high] of {kind} (got {shown(v)})")
    if v[0] > v[1]:
        raise SpecError(f"spec key '{key}': low {v[0]} is above high {v[1]}")
    if v[0] < 0:
        raise SpecError(f"spec key '{key}' must not be negative")
    return [int(x) for x in v] if integer else [float(x) for x in v]


PIN_KEYS = ("q", "r", "piece", "rotation")


def _pin(item: Any, n: int) -> Pin:
    where = f"spec key 'pins' entry {n + 1}"
    if isinstance(item, dict):  # a misspelt key first: "peice" once read as a missing piece, with no hint
        from terragen.suggest import suggest

        for key in sorted(set(item) - set(PIN_KEYS)):
            guess = suggest(str(key), PIN_KEYS)
            if guess is not None and guess not in item:
                raise SpecError(f"{where}: unknown key {key!r}; did you mean {guess!r}?")
    if not isinstance(item, dict) or not {"q", "r", "piece"} <= set(item):
        raise SpecError(f"{where} must be a table with q, r and piece (e.g. {{q = 0, r = 0, piece = \"8A\"}})")
    from terragen.terrain.pieces import parse_piece_id

    text = str(item["piece"]).strip()
    try:
        lv, pat, copy = parse_piece_id(text if text[-1:].isdigit() else text + "1")
    except ValueError:
        raise SpecError(f"{where}: bad piece {shown(item['piece'])} (expected a level and a pattern, e.g. 5B)") from None
    if text[-1:].isdigit() and len(text) > 2:
        # the generator numbers the copies of a kind itself (the build order's ids); a copy asked for
        # was once dropped without a word
        raise SpecError(f"{where}: piece {shown(item['piece'])} names a copy; a pin names a kind of piece, a level and a "
                        f"pattern ({lv}{pat}), and the board numbers the copies")
    if not 1 <= lv <= 8 or pat not in "ABCD":
        raise SpecError(f"{where}: bad piece {shown(item['piece'])} (levels 1-8, patterns A-D)")
    rot = item.get("rotation")
    if rot is not None and (not isinstance(rot, int) or isinstance(rot, bool) or not 0 <= rot <= 5):
        raise SpecError(f"{where}: rotation must be 0 to 5 (got {shown(rot)})")
    for k in ("q", "r"):
        if not isinstance(item[k], int) or isinstance(item[k], bool):
            raise SpecError(f"{where}: {k} must be a whole number")
    unknown = set(item) - set(PIN_KEYS)
    if unknown:
        from terragen.plain_text import named

        raise SpecError(f"{where}: unknown {named('key', unknown)}")
    return Pin(item["q"], item["r"], lv, pat, rot)


def spec_from_dict(data: dict[str, Any], base: Spec | None = None) -> Spec:
    """Apply the keys of ``data`` over ``base`` (a fresh Spec when None), checking each.

    Only the keys given: a ``difficulty`` key here is a label, not its preset's bands and minimums.
    :func:`terragen.terrain.generate.options.build_spec` is the way to a Spec as ``generate`` builds
    it (a library user's ``{"difficulty": "hard"}`` through this function made easy boards)."""
    spec = Spec(**{f.name: getattr(base, f.name) for f in fields(Spec)}) if base else Spec()
    unknown = set(data) - SPEC_KEYS - {"seed", "time_limit"}
    if unknown:
        from terragen.suggest import suggest

        key = sorted(unknown)[0]
        guess = suggest(key, sorted(SPEC_KEYS | {"seed", "time_limit"}))
        hint = f": did you mean {guess}?" if guess else f" (known: {', '.join(sorted(SPEC_KEYS | {'seed', 'time_limit'}))})"
        raise SpecError(f"unknown spec key {key}{hint}")
    for key, value in data.items():
        if value is None or key in ("seed", "time_limit"):
            continue
        if key == "players":
            spec.players = _int(data, key, 2, 6)
        elif key == "destinations":
            spec.destinations = _int(data, key, 1, 3)
        elif key == "radius":
            spec.radius = _int(data, key, 3, 6)
        elif key in ("min_distance", "min_up3", "min_cliff_exits", "min_critical", "cost_spread"):
            setattr(spec, key, _int(data, key, 0, 1000))
        elif key == "fairness":
            spec.fairness = _num(data, key, 0.0)
        elif key == "cost_band":
            spec.cost_band = _band(data, key, True)
            if spec.cost_band[1] > MAX_COST:
                raise SpecError(f"spec key 'cost_band' must stay within 0 to {MAX_COST} (got {shown(data[key])})")
        elif key == "turns_band":
            spec.turns_band = _band(data, key, False)
        elif key == "placement":
            if value not in PLACEMENTS:
                raise SpecError(f"spec key 'placement' must be one of {', '.join(PLACEMENTS)} (got {shown(value)})")
            spec.placement = value
        elif key == "shape":
            if value not in SHAPES:
                raise SpecError(f"spec key 'shape' must be one of {', '.join(SHAPES)} (got {shown(value)})")
            spec.shape = value
        elif key == "symmetry":
            if value not in SYMMETRIES:
                raise SpecError(f"spec key 'symmetry' must be one of {', '.join(SYMMETRIES)} (got {shown(value)})")
            spec.symmetry = value
        elif key == "inventory":
            if not isinstance(value, str) or not value:
                raise SpecError(f"spec key '{key}' must be a name or a file path")
            spec.inventory = value
        elif key == "difficulty":
            spec.difficulty = check_difficulty(value)
        elif key == "corners":
            if not isinstance(value, list) or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 5 for c in value):
                raise SpecError("spec key 'corners' must be a list of corner numbers 0 to 5")
            if len(set(value)) != len(value):
                raise SpecError("spec key 'corners' names a corner twice")
            spec.corners = list(value)
        elif key == "fixed":
            if not isinstance(value, list) or not all(
                isinstance(seat, list) and all(isinstance(h, list) and len(h) == 2
                                               and all(isinstance(x, int) and not isinstance(x, bool) for x in h) for h in seat)
                for seat in value
            ):
                raise SpecError("spec key 'fixed' must be a list per seat of [q, r] cells, e.g. [[[-2, 1]], [[3, -1]]]")
            spec.fixed = [[list(h) for h in seat] for seat in value]
        elif key == "pins":
            if not isinstance(value, list):
                raise SpecError("spec key 'pins' must be a list of tables (use [[pins]] in TOML)")
            spec.pins = [_pin(item, n) for n, item in enumerate(value)]
    return spec


def read_spec_file(path: str | Path) -> dict[str, Any]:
    """The raw table of a TOML spec file (checked later by :func:`spec_from_dict`)."""
    from terragen.fileio import read_text_input

    from terragen.safejson import load_toml

    text = read_text_input(path)
    try:
        return load_toml(text, str(path), SpecFileError)
    except SpecFileError:
        # said only of a file that is not TOML: a spec starting with a [[pins]] table looked like JSON
        other = not_toml_kind(text)
        if other is None:
            raise
    from terragen.docs import doc_page

    raise SpecFileError(f"{path}: this looks like {other}, not a generator spec: a spec file is TOML (key = value "
                        f"lines, {doc_page('generate.md')})")


def check_spec(spec: Spec) -> None:
    """Contradictions between keys that no search could ever resolve (SpecError)."""
    if not isinstance(spec, Spec):  # a dict failed deep inside with "'dict' object has no attribute ..."
        raise TypeError(f"a spec is a Spec (spec_from_dict(data) or Spec(players=3, ...) makes one), not "
                        f"{type(spec).__name__}")
    corners = spec.seat_corners()
    if len(corners) != spec.players:
        raise SpecError(f"spec key 'corners' lists {counted(len(corners), 'corner')} but 'players' is {spec.players}")
    if spec.placement == "fixed":
        if spec.fixed is None:
            raise SpecError("placement 'fixed' needs the spec key 'fixed' (per seat, the destination cells)")
        if len(spec.fixed) != spec.players:
            raise SpecError(f"spec key 'fixed' gives destinations for {counted(len(spec.fixed), 'seat')} but 'players' is {spec.players}")
        starts = {hx.corner(spec.radius, c) for c in corners}
        seen: set = set()
        for seat, cells in enumerate(spec.fixed):
            if len(cells) != spec.destinations:
                raise SpecError(f"spec key 'fixed': seat {seat} has {counted(len(cells), 'destination')}, 'destinations' is {spec.destinations}")
            for q, r in cells:
                if not hx.on_board((q, r), spec.radius):
                    raise SpecError(f"spec key 'fixed': ({q},{r}) is off the radius-{spec.radius} board")
                if (q, r) in starts:
                    raise SpecError(f"spec key 'fixed': ({q},{r}) is a corner where a player starts")
                if (q, r) in seen:
                    raise SpecError(f"spec key 'fixed': two destinations on ({q},{r})")
                seen.add((q, r))
    elif spec.fixed is not None:
        raise SpecError("spec key 'fixed' is given but 'placement' is not 'fixed'")
    if spec.placement == "opposite" and spec.destinations != 1:
        raise SpecError(f"spec key 'placement' 'opposite' gives one destination per seat, but 'destinations' is "
                        f"{spec.destinations}")
    if spec.placement != "distance" and spec.min_distance:
        raise SpecError("spec key 'min_distance' needs placement = 'distance'")
    if spec.min_distance > 2 * spec.radius:
        raise SpecError(f"spec key 'min_distance' {spec.min_distance} exceeds the board's diameter {2 * spec.radius}")
    seen_pins: set = set()
    for pin in spec.pins:
        if not hx.on_board((pin.q, pin.r), spec.radius):
            raise SpecError(f"spec key 'pins': ({pin.q},{pin.r}) is off the radius-{spec.radius} board")
        if (pin.q, pin.r) in seen_pins:
            raise SpecError(f"spec key 'pins': ({pin.q},{pin.r}) is pinned twice")
        seen_pins.add((pin.q, pin.r))
