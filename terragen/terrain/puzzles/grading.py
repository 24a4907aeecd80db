"""Difficulty presets and the grade formula for each puzzle kind.

A grade is one number computed from what the solver had to do and what the
puzzle looks like: route length and cost, up-3 steps, decoys (near-cheapest
alternatives or near-miss rotations, dead-end roll sequences) and the number
of states the solver visited. Presets set board size and structural bands;
the grade then lands in clearly separated ranges (see docs/batch.md for the
measured numbers). Puzzle boards are radius 3 (easy) or 4 (medium, hard) so a
board prints at a readable scale one to a page.
"""

from __future__ import annotations

import math
from typing import Any

from terragen.errors import SpecError

KINDS = ("route", "rotation", "dice")
DIFFICULTIES = ("easy", "medium", "hard", "brutal")

#: kind -> difficulty -> settings. Bands are inclusive; None = no bound.
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "route": {
        "easy": {"radius": 3, "roughness": 0.2, "cost": (3, 6), "min_up3": 0, "min_decoys": 0, "grade": (None, 22)},
        "medium": {"radius": 4, "roughness": 0.35, "cost": (7, 10), "min_up3": 0, "min_decoys": 1, "grade": (23, 33)},
        "hard": {"radius": 4, "roughness": 0.6, "cost": (11, None), "min_up3": 1, "min_decoys": 3, "grade": (35, 47)},
        "brutal": {"radius": 4, "roughness": 0.7, "cost": (15, None), "min_up3": 2, "min_decoys": 4, "grade": (49, None)},
    },
    "rotation": {
        "easy": {"radius": 3, "roughness": 0.3, "turns": 1, "region": (3, None), "cost": (3, 10), "max_near": 8, "grade": (None, 25)},
        "medium": {"radius": 4, "roughness": 0.4, "turns": 1, "region": (6, None), "cost": (8, 16), "max_near": None, "grade": (27, 38)},
        "hard": {"radius": 4, "roughness": 0.5, "turns": 2, "region": (2, 8), "cost": (3, None), "max_near": None, "grade": (40, 50)},
        "brutal": {"radius": 4, "roughness": 0.55, "turns": 2, "region": (2, 8), "cost": (6, None), "max_near": None, "grade": (51, None)},
    },
    "dice": {
        "easy": {"radius": 3, "roughness": 0.2, "rolls": 2, "bad_weather": 0, "grade": (None, 21)},
        "medium": {"radius": 4, "roughness": 0.35, "rolls": 3, "bad_weather": 1, "grade": (24, 31)},
        "hard": {"radius": 4, "roughness": 0.5, "rolls": 4, "bad_weather": 2, "grade": (33, 40)},
        "brutal": {"radius": 4, "roughness": 0.6, "rolls": 5, "bad_weather": 3, "grade": (42, None)},
    },
}


def preset(kind: str, difficulty: str) -> dict[str, Any]:
    """The preset of ``kind`` at ``difficulty``; a bad name is a one-line SpecError."""
    if kind not in PRESETS:
        raise SpecError(f"unknown puzzle kind {kind!r} (choose one of: {', '.join(KINDS)})")
    if difficulty not in PRESETS[kind]:
        raise SpecError(f"unknown difficulty {difficulty!r} (choose one of: {', '.join(DIFFICULTIES)})")
    return PRESETS[kind][difficulty]


def in_band(value: float, band: tuple[float | None, float | None]) -> bool:
    lo, hi = band
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def _log(n: int) -> float:
    return math.log2(1 + n)


def grade(kind: str, m: dict[str, Any]) -> float:
    """The difficulty grade of a puzzle from its metrics (higher = harder), rounded to 0.1.

    route: cost + 1.5 per step + 2 per up-3 step + 2 log2(1 + decoys) + log2(1 + solver states)
    rotation: 6 per rotation needed + cost after + 2 log2(1 + near misses) + log2(1 + rotations checked)
    dice: 2 per roll + 2 per bad-weather roll + total cost + 2 log2(1 + dead ends) + log2(1 + states)
    """
    if kind == "route":
        g = m["cost"] + 1.5 * m["steps"] + 2 * m["up3"] + 2 * _log(m["decoys"]) + _log(m["work"])
    elif kind == "rotation":
        g = 6 * m["rotations"] + m["cost_after"] + 2 * _log(m["near_misses"]) + _log(m["work"])
    elif kind == "dice":
        g = 2 * m["rolls"] + 2 * m["bad_weather"] + m["cost"] + 2 * _log(m["dead_ends"]) + _log(m["work"])
    else:  # pragma: no cover - guarded by preset()
        raise SpecError(f"unknown puzzle kind {kind!r}")
    return round(g, 1)
