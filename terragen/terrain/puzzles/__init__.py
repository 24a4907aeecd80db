"""Terrain Game puzzle scenarios with solver-proven unique solutions.

One module per kind (:mod:`route`, :mod:`rotation`, :mod:`dice`), the shared
solver utilities (:mod:`solver`), the grade and presets (:mod:`grading`) and
the record (:mod:`model`). :func:`make_puzzle` is the one entry point the batch
runner calls: scenario ``index`` depends only on ``(seed, index)``, so any
number of workers, in any order, produce the same set. No I/O in those.

The batch engine behind ``terragen batch`` writes the files: :mod:`batch`
(:func:`~terragen.terrain.puzzles.batch.run_batch`, the run loop and the output
folder), :mod:`batch_manifest` (the manifests and what a resume keeps) and
:mod:`batch_workers` (computing scenarios locally or on Dask).
"""

from __future__ import annotations

from terragen.errors import InfeasibleError, SpecError
from terragen.terrain.puzzles.grading import DIFFICULTIES, KINDS, preset
from terragen.terrain.puzzles.model import Puzzle

MIX = "mix"


def kind_for(kind: str, index: int) -> str:
    """The kind of scenario ``index``: the given kind, or for ``mix`` route, rotation, dice in turn."""
    if kind == MIX:
        return KINDS[index % len(KINDS)]
    if kind not in KINDS:
        raise SpecError(f"unknown puzzle kind {kind!r} (choose one of: {', '.join(KINDS + (MIX,))})")
    return kind


def make_puzzle(kind: str, difficulty: str, seed: int, index: int) -> Puzzle:
    """Scenario ``index`` of the batch ``(kind, difficulty, seed)``, its solution proven unique."""
    k = kind_for(kind, index)
    preset(k, difficulty)
    if k == "route":
        from terragen.terrain.puzzles.route import make_route as make
    elif k == "rotation":
        from terragen.terrain.puzzles.rotation import make_rotation as make
    else:
        from terragen.terrain.puzzles.dice import make_dice as make
    p = make(difficulty, seed, index)
    if p is None:
        raise InfeasibleError(f"scenario {index}: no {difficulty} {k} puzzle found within the board budget (seed {seed}; "
                               "a scenario depends on the seed and its index alone: use another --seed)")
    return p


__all__ = ["DIFFICULTIES", "KINDS", "MIX", "Puzzle", "kind_for", "make_puzzle"]
