"""Turning flags, a spec file and a difficulty preset into one checked Spec.

Precedence, lowest first: preset < spec file < flags. The preset is applied
after the radius and destination count are known, because its bands scale
with them. With no difficulty and no band at all, ``medium`` is used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from terragen.errors import SpecError
from terragen.terrain.generate.presets import preset_keys
from terragen.terrain.generate.spec import Spec, check_spec, read_spec_file, spec_from_dict

BAND_KEYS = ("turns_band", "cost_band")


def build_spec(flags: dict[str, Any], spec_file: str | Path | None = None) -> tuple[Spec, dict[str, Any]]:
    """The spec plus the run settings (seed, time_limit) from file and flags."""
    file_data = read_spec_file(spec_file) if spec_file else {}
    inv = file_data.get("inventory")
    if spec_file and isinstance(inv, str) and inv.endswith(".toml") and not Path(inv).is_absolute():
        beside = Path(spec_file).parent / inv
        if beside.exists() and not Path(inv).exists():
            file_data["inventory"] = str(beside)  # a spec file's inventory path is relative to the spec file
    merged = {**file_data, **{k: v for k, v in flags.items() if v is not None}}
    run = {"seed": merged.pop("seed", 0), "time_limit": merged.pop("time_limit", 60.0)}
    if not isinstance(run["seed"], int) or isinstance(run["seed"], bool) or run["seed"] < 0:
        raise SpecError("seed must be a whole number >= 0")
    if not isinstance(run["time_limit"], (int, float)) or run["time_limit"] <= 0:
        raise SpecError("time_limit must be a positive number of seconds")
    difficulty = merged.get("difficulty")
    if difficulty is None and not any(k in merged for k in BAND_KEYS):
        difficulty = "medium"
    probe = spec_from_dict({k: merged[k] for k in ("radius", "destinations") if k in merged})
    data: dict[str, Any] = {}
    if difficulty is not None:
        data.update(preset_keys(difficulty, probe.radius, probe.destinations))
        data["difficulty"] = difficulty
    data.update(merged)
    spec = spec_from_dict(data)
    check_spec(spec)
    return spec, run
