"""Ctrl-C and SIGTERM at random (seeded) moments: the documented exit code, one stderr line,
no temporary file, and the output folder holds the old set or the complete new one, never a
mix (issue 17). CP-SAT must not swallow Ctrl-C, and a batch resumed after a signal must end
byte-identical to one never interrupted."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}


def start(*args: str, cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TERRAGEN_DEBUG", None)
    return subprocess.Popen([sys.executable, "-m", "terragen", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def interrupt(proc: subprocess.Popen, sig: int, delay: float) -> tuple[int, str, float]:
    """Send ``sig`` after ``delay`` seconds; (exit code, stderr, seconds from signal to exit)."""
    time.sleep(delay)
    sent = time.monotonic()
    if proc.poll() is None:
        proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err, time.monotonic() - sent


def test_cpsat_does_not_swallow_ctrl_c():
    """OR-Tools' own SIGINT handler used to end the search early and return a result."""
    pytest.importorskip("ortools")
    from ortools.sat.python import cp_model

    from terragen.cpsat import new_solver, solve

    m = cp_model.CpModel()
    n = 60
    xs = [m.NewIntVar(0, n, f"x{i}") for i in range(n)]
    m.AddAllDifferent(xs)
    m.AddAllDifferent([xs[i] + i for i in range(n)])
    m.AddAllDifferent([xs[i] - i for i in range(n)])
    m.Maximize(sum((i % 7) * xs[i] for i in range(n)))
    solver = new_solver(1, 1000.0)
    solver.parameters.max_time_in_seconds = 20.0
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    t = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            solve(solver, m)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    assert time.monotonic() - t < 2.5


@pytest.fixture(scope="module")
def reference_board(tmp_path_factory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("ref") / "board"
    proc = start("generate", "--players", "2", "--difficulty", "easy", "--seed", "5", "--out", str(out),
                 "--gate-games", "50", cwd=ROOT)
    proc.communicate(timeout=120)
    assert proc.returncode == 0
    return files(out)


@pytest.mark.parametrize("trial", range(4))
def test_generate_interrupted_writes_all_or_nothing(trial, reference_board, tmp_path):
    rng = random.Random(1700 + trial)
    sig = (signal.SIGINT, signal.SIGTERM)[trial % 2]
    out = tmp_path / "board"
    out.mkdir()
    old = {"board.json": b'{"old": true}\n', "board.txt": b"old\n", "board.svg": b"<svg/>\n"}
    for name, data in old.items():
        (out / name).write_bytes(data)
    proc = start("generate", "--players", "2", "--difficulty", "easy", "--seed", "5", "--out", str(out),
                 "--gate-games", "50", "--force", cwd=tmp_path)
    code, err, took = interrupt(proc, sig, rng.uniform(0.4, 2.5))
    after = files(out)
    if code == 0:  # finished before the signal: it must be the seed's own board
        assert after == reference_board
        return
    assert code == EXIT[sig], err
    assert took < 3.0, f"took {took:.1f}s to stop"
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert after in (old, reference_board)  # never a mix, never a temporary


@pytest.mark.parametrize("trial", range(3))
def test_kit_interrupted_leaves_the_old_kit(trial, tmp_path):
    """SIGHUP too (a terminal or ssh session closing): left to its default it ended the kit mid-write
    and left temporaries a later run never removed."""
    rng = random.Random(1800 + trial)
    sig = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)[trial]
    out = tmp_path / "kit"
    out.mkdir()
    (out / "terrain-rules-a4.pdf").write_bytes(b"old rules")
    proc = start("kit", "terrain", "--out", str(out), "--force", cwd=tmp_path)
    code, err, took = interrupt(proc, sig, rng.uniform(0.15, 0.6))
    after = files(out)
    if code == 0:
        pytest.skip("the kit finished before the signal")
    assert code == EXIT[sig] and took < 3.0, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert after == {"terrain-rules-a4.pdf": b"old rules"} or (
        len(after) >= 6 and after["terrain-rules-a4.pdf"] != b"old rules")
    assert not [n for n in after if n.endswith(".tmp")]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_batch_interrupted_then_resumed_is_byte_identical(sig, tmp_path):
    rng = random.Random(1900 + int(sig))
    args = ["batch", "--count", "16", "--kind", "mix", "--difficulty", "easy", "--seed", "3", "--workers", "2",
            "--no-progress"]
    fresh = start(*args, "--out", str(tmp_path / "fresh"), cwd=tmp_path)
    fresh.communicate(timeout=300)
    assert fresh.returncode == 0
    out = tmp_path / "b"
    proc = start(*args, "--out", str(out), cwd=tmp_path)
    deadline = time.time() + 30
    while time.time() < deadline and not (out / "scenarios").exists():
        time.sleep(0.02)
    code, err, took = interrupt(proc, sig, rng.uniform(0.0, 0.6))
    if code != 0:
        assert code == EXIT[sig] and took < 3.0, err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1
        assert "--resume" in err or "nothing was written" in err
        assert ("terminated" in err) == (sig == signal.SIGTERM)  # it said "interrupted" for both
        assert not [n for n in files(out) if n.endswith(".tmp")]
        resumed = start(*args, "--out", str(out), "--resume", cwd=tmp_path)
        _, err = resumed.communicate(timeout=300)
        assert resumed.returncode == 0, err
    assert files(out) == files(tmp_path / "fresh")


def _descendants(pid: int) -> set[int]:
    """Running processes below ``pid`` (Linux /proc; zombies count as ended)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            rest = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if rest[0] not in ("Z", "X"):
            children.setdefault(int(rest[1]), []).append(int(stat.parent.name))
    out, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.add(c)
            todo.append(c)
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_generate_interrupted_while_its_simulation_pool_runs_leaves_no_process(sig, tmp_path):
    # 5 seats on hard terrain simulate for about a minute: the signal lands mid-run even on a slow machine
    proc = subprocess.Popen([sys.executable, "-m", "terragen", "generate", "--players", "5", "--difficulty", "hard",
                             "--seed", "1", "--out", str(tmp_path / "board")], cwd=tmp_path,
                            env=dict(os.environ, PYTHONPATH=str(ROOT), TERRAGEN_WORKERS="2"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    below: set[int] = set()
    while proc.poll() is None and time.monotonic() < deadline and len(below) < 4:  # fork server, 2 workers, tracker
        time.sleep(0.05)
        below = _descendants(proc.pid)
    if proc.poll() is not None:
        pytest.skip("the board was finished before its simulations started")
    code, err, took = interrupt(proc, sig, 0.2)
    assert code == EXIT[sig] and took < 3.0, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    limit = time.monotonic() + 5
    while _descendants_alive(below) and time.monotonic() < limit:
        time.sleep(0.05)
    assert not _descendants_alive(below), "simulation processes outlived generate"
    assert not (tmp_path / "board").exists()


def _descendants_alive(pids: set[int]) -> set[int]:
    alive = set()
    for p in pids:
        try:
            if Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
                alive.add(p)
        except OSError:
            pass
    return alive


def test_the_resource_tracker_of_a_cli_run_keeps_quiet(tmp_path):
    """An interrupted run ends its simulation processes at once; multiprocessing's resource
    tracker then frees what they held and would say so on stderr, under the one line a user
    is promised. Here a run leaves a semaphore registered, as a killed pool can."""
    script = tmp_path / "leak.py"
    script.write_text(
        "import atexit, sys\n"
        "from multiprocessing import resource_tracker\n"
        "from terragen.cli import main\n"
        "def leak():\n"
        "    resource_tracker.ensure_running()\n"
        "    resource_tracker.register('/mp-terragen-test-leak', 'semaphore')\n"
        "atexit.register(leak)\n"
        "sys.argv = ['terragen', 'presets']\n"
        "main()\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
