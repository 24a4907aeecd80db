"""A count of the work this process's board searches do, in a unit that does not depend on the clock.

Why it exists: the generator ends its search on a *work budget* so that the same spec and seed
give the same board on every machine and every run. The simulation processes' games were
counted, but the work the main process does itself (building and repairing terrains, exact
expected turns, the race model) was not, so on runs where that work is large (brutal four-seat
specs) the clock, not the count, decided when the search counted as late or ended, and the same
seed could end on different boards from run to run (docs/generate-design.md, "Determinism and the work budget").

Each graph search, expected-turns layer and race the analysis runs charges what it costs on the
reference VM, in microseconds (:data:`COSTS`, measured with ``bench/work_meter_costs.py``). The
figures are rough on purpose: the meter only has to grow with the work, in the same steps on
every run. The count is kept per thread, so searches in two threads of one process each see
their own.
"""

from __future__ import annotations

import threading

#: microseconds a call costs on the reference VM (2-core AMD EPYC, Python 3.11.7, 2026-12-01),
#: by what it is: a cheapest-cost search from one cell, a cheapest path to one cell, a flood of
#: what one cell reaches, one expected-turns layer, a seat's finishing-round chain and its
#: propagation, the race of the seats' finishing rounds, a board-wide cliff count, a symmetric board
#: restored after a move. The Python costs, also where the compiled table kernels make a layer
#: several times cheaper: the budget must end a search at the same point on a machine without them
COSTS = {
    "dijkstra": 30,
    "cheapest_path": 35,
    "reach": 12,
    "expected_layer": 140,
    "race_chain": 80,
    "race_spread": 100,
    "win_probabilities": 35,
    "cliff_exits": 50,
    "symmetry_restore": 80,
}


#: share of the main process's CPU time in a generator run that the charged calls make up
#: (``bench/work_meter_costs.py``: 0.22-0.51 over six specs, median 0.38); the rest (moves,
#: copies, the tuning's bookkeeping) grows with them, so the estimate scales them up
COVERAGE = 0.4


class _Meter(threading.local):
    spent = 0


_METER = _Meter()


def charge(microseconds: int) -> None:
    """Add work done by the calling thread (see :data:`COSTS` for what a call costs)."""
    _METER.spent += microseconds


def spent() -> int:
    """Microseconds of reference-VM work this thread has charged so far (a running total:
    callers take differences)."""
    return _METER.spent


def seconds_since(mark: int) -> float:
    """Estimated seconds of reference-VM work this thread has done since ``mark`` (a reading of
    :func:`spent`), whether charged or not (:data:`COVERAGE`)."""
    return (_METER.spent - mark) / 1e6 / COVERAGE
