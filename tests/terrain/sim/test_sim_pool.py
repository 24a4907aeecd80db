"""The generator's game pool: the same games as one process, stops between batches, and its
workers never outlive their owner (errors, Ctrl-C, SIGTERM, SIGKILL)."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from terragen.errors import InputError
from terragen.templates import template_path
from terragen.terrain.files import load_layout
from terragen.terrain.sim.pool import WORKERS_ENV, GamePool, Stopped, default_workers
from terragen.terrain.sim.runner import run_games
from terragen.terrain.sim.variants import Rules

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = template_path("terrain", "examples")


def _layout(name: str):
    return load_layout(EXAMPLES / name)


def test_pool_plays_exactly_the_games_of_one_process():
    four, two = _layout("four-players.txt"), _layout("two-players.txt")
    with GamePool(2) as pool:
        # odd bounds, two boards in turn (each worker switches its tables), two kinds of player, and
        # runs short enough to be cut into a few items only (a six-seat screen's first 78 games)
        for layout, policy, seed, start, stop in [(four, "greedy", 4, 7, 613), (two, "solitary", 5, 0, 450),
                                                  (four, "greedy", 4, 7, 613), (four, "expert", 6, 100, 260),
                                                  (four, "greedy", 8, 3, 81), (two, "solitary", 9, 0, 53)]:
            specs = [policy] * len(layout.players)
            assert pool.run(layout, Rules(), specs, seed, start, stop) == run_games(layout, Rules(), specs, seed,
                                                                                   start, stop)


def test_a_pool_started_early_has_its_workers_up_and_plays_the_same_games():
    layout = _layout("four-players.txt")
    specs = ["greedy"] * 4
    with GamePool(1) as pool:
        pool.start_early()  # one worker: games are played here, so nothing starts
        assert not mp.active_children()
    with GamePool(2) as pool:
        pool.start_early()
        assert len(mp.active_children()) == 2  # the workers run before any game
        assert pool.run(layout, Rules(), specs, 3, 0, 300) == run_games(layout, Rules(), specs, 3, 0, 300)
    assert not mp.active_children()


def test_should_stop_ends_a_run_and_the_pool_stays_usable():
    layout = _layout("four-players.txt")
    specs = ["greedy"] * 4
    asked = []

    def stop_after_two() -> bool:
        asked.append(1)
        return len(asked) >= 2

    with GamePool(2) as pool:
        with pytest.raises(Stopped):
            pool.run(layout, Rules(), specs, 1, 0, 20_000, should_stop=stop_after_two)
        assert len(asked) == 2
        assert pool.run(layout, Rules(), specs, 2, 0, 300) == run_games(layout, Rules(), specs, 2, 0, 300)
    assert not mp.active_children()


def test_run_each_plays_each_job_whole_and_in_order():
    four, two = _layout("four-players.txt"), _layout("two-players.txt")
    jobs = [(four, Rules(), ["greedy"] * 4, 3, 0, 120), (two, Rules(), ["solitary"] * 2, 4, 10, 90),
            (four, Rules(), ["solitary"] * 4, 5, 0, 60), (two, Rules(), ["greedy"] * 2, 6, 0, 200),
            (four, Rules(), ["greedy"] * 4, 3, 0, 120)]
    expected = [run_games(*job) for job in jobs]
    for workers in (1, 2):
        with GamePool(workers) as pool:
            assert pool.run_each(jobs) == expected
    with GamePool(2) as pool:
        with pytest.raises(Stopped):
            pool.run_each(jobs, should_stop=lambda: True)
        assert pool.run_each(jobs[:2]) == expected[:2]  # still usable
    assert not mp.active_children()


def test_map_each_gives_this_process_results_in_order_and_counts_no_work():
    from terragen.terrain.sim.lone_chain import lone_chain_cdf

    four = _layout("four-players.txt")
    jobs = []
    for seat in (2, 0, 3, 1, 2):  # a repeat too: each job is done whole, wherever
        one = four.copy()
        one.players = [four.players[seat]]
        jobs.append((one, Rules(), "greedy"))
    expected = [lone_chain_cdf(*job) for job in jobs]
    assert all(cdf is not None and cdf[1] > 0 for cdf in expected)
    assert len({cdf for cdf in expected}) == 4  # four seats, four different races
    for workers in (1, 2):
        with GamePool(workers) as pool:
            assert pool.map_each(lone_chain_cdf, jobs) == expected
            assert pool.turns_played == 0  # the caller says what chains are worth to the budget
    with GamePool(2) as pool:
        with pytest.raises(Stopped):
            pool.map_each(lone_chain_cdf, jobs, should_stop=lambda: True)
        assert pool.map_each(lone_chain_cdf, jobs[:2]) == expected[:2]  # still usable
    assert not mp.active_children()


def test_one_worker_starts_no_process():
    layout = _layout("two-players.txt")
    with GamePool(1) as pool:
        games = pool.run(layout, Rules(), ["greedy"] * 2, 3, 0, 400)
        assert not mp.active_children()
    assert len(games) == 400


def test_a_failing_worker_raises_here_and_leaves_no_process():
    layout = _layout("two-players.txt")
    with GamePool(2) as pool:
        with pytest.raises(Exception, match="no_such_module"):
            pool.run(layout, Rules(), ["no_such_module:Player"] * 2, 3, 0, 400)
        assert not mp.active_children()  # the pool ended its workers at once
        assert len(pool.run(layout, Rules(), ["greedy"] * 2, 3, 0, 400)) == 400  # and starts new ones when asked


def test_worker_count_from_the_environment(monkeypatch):
    monkeypatch.setenv(WORKERS_ENV, "3")
    assert default_workers() == 3
    monkeypatch.setenv(WORKERS_ENV, "0")
    with pytest.raises(InputError, match=WORKERS_ENV):
        default_workers()
    monkeypatch.delenv(WORKERS_ENV)
    assert default_workers() == max(1, min(2, os.cpu_count() or 1))


# A process that owns a pool and simulates until it is stopped; it prints its workers' pids
# and the fork server's once the pool is busy.
OWNER = """
import multiprocessing as mp, multiprocessing.forkserver as fs, sys
from terragen.interrupts import exit_code_for, install_handlers
from terragen.terrain.files import load_layout
from terragen.terrain.sim.pool import GamePool
from terragen.terrain.sim.variants import Rules
install_handlers()
layout = load_layout(sys.argv[1])
with GamePool(2) as pool:
    pool.run(layout, Rules(), ["greedy"] * 4, 0, 0, 200)
    print(*[p.pid for p in mp.active_children()], fs._forkserver._forkserver_pid, flush=True)
    try:
        for seed in range(1000):
            pool.run(layout, Rules(), ["greedy"] * 4, seed, 0, 100_000)
    except KeyboardInterrupt as exc:
        sys.exit(exit_code_for(exc))
"""


def _alive(pid: int) -> bool:
    """Running (a zombie nobody reaped yet counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists() or "forkserver" not in mp.get_all_start_methods(),
                    reason="needs Linux /proc and the forkserver start method")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_workers_die_with_their_owner(sig):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop(WORKERS_ENV, None)
    proc = subprocess.Popen([sys.executable, "-c", OWNER, str(EXAMPLES / "four-players.txt")], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        pids = [int(p) for p in line.split()]
        assert len(pids) == 3, (line, proc.stderr.read() if proc.poll() is not None else "")
        assert all(_alive(p) for p in pids)
        time.sleep(0.3)  # mid-run
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)  # generous: a loaded 2-core machine is slow to reap
        assert proc.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGKILL: -9}[sig], err
        assert "Traceback" not in err
        limit = time.monotonic() + 5
        while any(_alive(p) for p in pids) and time.monotonic() < limit:
            time.sleep(0.05)
        assert not [p for p in pids if _alive(p)], "processes outlived their owner"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_worker_killed_from_outside_is_an_error_not_a_hang():
    layout = _layout("four-players.txt")

    def kill_one() -> bool:
        victim = mp.active_children()[0].pid
        os.kill(victim, signal.SIGKILL)
        return False

    with GamePool(2) as pool:
        with pytest.raises(RuntimeError, match="worker"):
            pool.run(layout, Rules(), ["greedy"] * 4, 1, 0, 20_000, should_stop=kill_one)
    assert not mp.active_children()


def test_the_pool_times_each_kind_of_player_it_plays():
    layout = _layout("two-players.txt")
    with GamePool(1) as pool:
        assert pool.seconds_per_game("greedy") == 0.0
        pool.run(layout, Rules(), ["greedy"] * 2, 3, 0, 40)
        assert pool.seconds_per_game("greedy") > 0.0
        assert pool.seconds_per_game("solitary") == 0.0


def test_the_work_count_weighs_each_kind_of_players_turns_by_what_they_cost():
    """The generator's work budget counts simulated turns so that where a run ends does not hang
    on the clock; an expert's turn takes about twenty of the budget's greedy and solitary ones,
    and counted as one, runs with expert games spent the clock long before the budget, so the
    clock decided (4 brutal 4602 ended in 27 s on one run and at the 60 s limit on the next).
    The same games, run whole or as jobs, in one process or two, count the same."""
    from terragen.terrain.sim.pool import TURN_WORK

    layout = _layout("four-players.txt")
    turns = {p: sum(g.total_turns for g in run_games(layout, Rules(), [p] * 4, 3, 0, 40)) for p in ("greedy", "expert")}
    for workers in (1, 2):
        with GamePool(workers) as pool:
            pool.run(layout, Rules(), ["greedy"] * 4, 3, 0, 40)
            assert pool.turns_played == turns["greedy"]
            pool.run(layout, Rules(), ["expert"] * 4, 3, 0, 40)
            assert pool.turns_played == turns["greedy"] + TURN_WORK["expert"] * turns["expert"]
            pool.run_each([(layout, Rules(), ["expert"] * 4, 3, 0, 40), (layout, Rules(), ["greedy"] * 4, 3, 0, 40)])
            assert pool.turns_played == 2 * (turns["greedy"] + TURN_WORK["expert"] * turns["expert"])
    assert TURN_WORK["expert"] > 10
