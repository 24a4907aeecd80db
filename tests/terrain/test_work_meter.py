"""The work meter: a clock-free count of the analysis work a thread does (the generator's budget
adds it to the simulated turns)."""

from __future__ import annotations

import threading
from pathlib import Path

from terragen.terrain import work_meter
from terragen.terrain.analysis import analyse
from terragen.terrain.files import load_layout

EXAMPLES = Path(__file__).resolve().parents[2] / "terragen" / "data" / "terrain" / "examples"


def example_path(name: str) -> Path:
    return EXAMPLES / name


def _charged_by(fn) -> int:
    mark = work_meter.spent()
    fn()
    return work_meter.spent() - mark


def test_the_same_analysis_charges_the_same_work_every_time():
    layout = load_layout(example_path("four-players.txt"))
    first = _charged_by(lambda: analyse(layout))
    assert first > 0
    assert _charged_by(lambda: analyse(layout)) == first


def test_more_seats_to_analyse_charge_more_work():
    two = _charged_by(lambda: analyse(load_layout(example_path("two-players.txt"))))
    six = _charged_by(lambda: analyse(load_layout(example_path("six-players.txt"))))
    assert six > two > 0


def test_a_thread_sees_only_its_own_work():
    layout = load_layout(example_path("six-players.txt"))
    mark = work_meter.spent()
    seen: list[int] = []

    def other() -> None:
        start = work_meter.spent()
        analyse(layout)
        seen.append(work_meter.spent() - start)

    worker = threading.Thread(target=other)
    worker.start()
    worker.join()
    assert seen[0] > 0
    assert work_meter.spent() == mark


def test_seconds_are_the_charges_scaled_up_by_what_they_cover():
    mark = work_meter.spent()
    work_meter.charge(400_000)
    assert abs(work_meter.seconds_since(mark) - 0.4 / work_meter.COVERAGE) < 1e-9
