"""Turning flags, a spec file and a difficulty preset into one checked Spec.

Precedence, lowest first: preset < spec file < flags. The preset is applied
after the radius and destination count are known, because its bands scale
with them. With no difficulty and no band at all, ``medium`` is used.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from terragen.errors import SpecError
from terragen.limits import MAX_TIME_LIMIT
from terragen.terrain.generate.presets import preset_keys
from terragen.terrain.generate.spec import SPEC_KEYS, Spec, check_difficulty, check_spec, read_spec_file, spec_from_dict
from terragen.terrain.pieces import INVENTORY_KEYS, Inventory

BAND_KEYS = ("turns_band", "cost_band")


def build_spec(flags: dict[str, Any], spec_file: str | Path | None = None, *,
               as_flags: bool = False) -> tuple[Spec, dict[str, Any]]:
    """The spec plus the run settings (seed, time_limit) from file and flags.

    An error about a key names where the key came from: the spec file's line
    (``spec.toml:3: ...``) or the dict's key (``spec key 'players' ...``); with
    ``as_flags`` (the command line) the key is named as its flag (``--players``),
    which a library caller who never typed one would not recognise.
    """
    if not isinstance(flags, dict):  # build_spec("players=3") failed deep inside
        raise TypeError(f"build_spec takes a dict of spec keys, e.g. {{'players': 3}}, not {type(flags).__name__}")
    file_data = read_spec_file(spec_file) if spec_file else {}
    _not_an_inventory(file_data, spec_file)
    try:
        return _build(flags, spec_file, file_data)
    except SpecError as exc:
        raise SpecError(_locate(exc.message, flags, spec_file, file_data, as_flags)) from None


def _not_an_inventory(file_data: dict[str, Any], spec_file: str | Path | None) -> None:
    """An inventory file given as the spec is said to be one (it was told 'unknown spec key
    copies: did you mean corners?')."""
    if file_data and set(file_data) <= set(INVENTORY_KEYS) and not set(file_data) <= SPEC_KEYS:
        raise SpecError(f"{spec_file}: this is an inventory of pieces ({', '.join(sorted(file_data))}), not a "
                        "spec: give it as --inventory FILE, or name it in a spec as inventory = \"FILE\"")


_KEY_IN_MESSAGE = re.compile(r"spec key '?(\w+)'?|^(seed|time_limit) ")


def _locate(message: str, flags: dict[str, Any], spec_file: str | Path | None, file_data: dict[str, Any],
            as_flags: bool) -> str:
    """Rewrite ``spec key 'players' ...`` as ``--players ...`` (flags) or prefix it with
    ``file:line:``; another key the message names that came from a flag is said to (``'players'
    (--players 3)``), so a clash between a flag and the file names both sides."""
    m = _KEY_IN_MESSAGE.search(message)
    if not m:
        return message
    key = m.group(1) or m.group(2)
    for other in dict.fromkeys(re.findall(r"'(\w+)'", message)):
        # a key that clashes with one from elsewhere says where it came from: a flag, or the dict
        # beside the spec file (both keys from one dict need no word)
        if other != key and flags.get(other) is not None and (as_flags or (spec_file and key in file_data)):
            given = f"--{other.replace('_', '-')} {flags[other]}" if as_flags else f"{flags[other]!r} given beside the file"
            message = message.replace(f"'{other}'", f"'{other}' ({given})", 1)
    if flags.get(key) is not None:
        return message.replace(m.group(0).rstrip(), "--" + key.replace("_", "-"), 1) if as_flags else message
    if spec_file and key in file_data:
        entry = re.search(r"entry ([0-9]+)", message) if key == "pins" else None
        line = _line_of(Path(spec_file), key, int(entry.group(1)) if entry else 1) if str(spec_file) != "-" else "?"
        return f"{spec_file}:{line}: {message}" if line != "?" else f"{spec_file}: {message}"
    if spec_file:
        return f"{spec_file}: {message}"
    return message


def _line_of(path: Path, key: str, nth: int = 1) -> int | str:
    """The line where a TOML file sets ``key`` at its top level, its ``nth`` time for an array of
    tables such as ``[[pins]]`` ('?' when it cannot be found)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return "?"
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*[=.]|^\s*\[\[?\s*{re.escape(key)}\s*\]")
    seen = 0
    for n, line in enumerate(lines, 1):
        if pattern.match(line):
            seen += 1
            if seen == nth or not line.lstrip().startswith("[["):
                return n
    return "?"


def _names_a_file(inventory: str) -> bool:
    """Whether an inventory value is a file's path rather than a shipped template's name (as
    :func:`terragen.terrain.pieces.load_inventory` reads it: a template is a bare name)."""
    from terragen.templates import template_names

    return bool(Path(inventory).suffix) or inventory not in template_names("terrain", "inventories")


def load_spec_inventory(spec: Spec, flags: dict[str, Any], spec_file: str | Path | None = None) -> Inventory:
    """The inventory ``spec`` builds from, read now, so that a file that cannot be read is named as
    the flag (``--inventory: ...``) or the spec file's line (``spec.toml:3: inventory: ...``) that
    gave it; read late by the generator, its message named only the file."""
    from terragen.errors import InputError
    from terragen.terrain.pieces import load_inventory

    try:
        return load_inventory(spec.inventory_name())
    except InputError as exc:
        if flags.get("inventory") is not None:
            raise SpecError(f"--inventory: {exc.message}", exc.exit_code) from None
        if spec_file and spec.inventory:
            line = _line_of(Path(spec_file), "inventory") if str(spec_file) != "-" else "?"
            where = f"{spec_file}:{line}" if line != "?" else str(spec_file)
            raise SpecError(f"{where}: inventory: {exc.message}", exc.exit_code) from None
        raise


def _build(flags: dict[str, Any], spec_file: str | Path | None, file_data: dict[str, Any]) -> tuple[Spec, dict[str, Any]]:
    inv = file_data.get("inventory")
    if spec_file and str(spec_file) != "-" and isinstance(inv, str) and _names_a_file(inv) and not Path(inv).is_absolute():
        # a spec file's inventory path is relative to the spec file, wherever the command runs (once a
        # file of that name in the current folder won, so one spec gave two boards; then a name not
        # ending in lower-case '.toml' still did)
        file_data["inventory"] = str(Path(spec_file).parent / inv)
    merged = {**file_data, **{k: v for k, v in flags.items() if v is not None}}
    run = {"seed": merged.pop("seed", 0), "time_limit": merged.pop("time_limit", 60.0)}
    from terragen.safejson import MAX_SEED, shown

    if not isinstance(run["seed"], int) or isinstance(run["seed"], bool) or not 0 <= run["seed"] <= MAX_SEED:
        raise SpecError(f"seed must be a whole number from 0 to {MAX_SEED} (got {shown(run['seed'])})")  # as every key
    limit = run["time_limit"]
    if not isinstance(limit, (int, float)) or isinstance(limit, bool) or not 0 < limit <= MAX_TIME_LIMIT:
        raise SpecError(f"time_limit must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:g}, a day "
                        f"(got {shown(limit)})")
    difficulty = merged.get("difficulty")
    if difficulty is None and not any(k in merged for k in BAND_KEYS):
        difficulty = "medium"
    if difficulty is not None:
        check_difficulty(difficulty)
    probe = spec_from_dict({k: merged[k] for k in ("radius", "destinations") if k in merged})
    data: dict[str, Any] = {}
    if difficulty is not None:
        data.update(preset_keys(difficulty, probe.radius, probe.destinations))
        data["difficulty"] = difficulty
    data.update(merged)
    spec = spec_from_dict(data)
    check_spec(spec)
    return spec, run
