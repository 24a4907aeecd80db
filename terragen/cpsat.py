"""One way to build and run a CP-SAT solver: single-threaded, seeded, and interruptible.

OR-Tools catches SIGINT itself by default: it quietly ends the search early
and returns whatever it has, so Ctrl-C did not stop the program and a seed
could give a different result. Here CP-SAT's own handling is off, and
:func:`solve` stops the search from a watcher thread when SIGINT or SIGTERM
arrives and then raises, so an interrupted solve never yields a result.
"""

from __future__ import annotations

from typing import Any

from terragen.interrupts import stop_on_signal


def new_solver(seed: int, deterministic_time: float) -> Any:
    """A CpSolver with one worker, a fixed seed and a deterministic (not wall-clock) time budget."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed % (2**31)
    solver.parameters.max_deterministic_time = deterministic_time
    solver.parameters.catch_sigint_signal = False
    return solver


def solve(solver: Any, model: Any) -> Any:
    """``solver.Solve(model)``, raising KeyboardInterrupt (never returning) if interrupted."""
    with stop_on_signal(solver.StopSearch):
        return solver.Solve(model)
