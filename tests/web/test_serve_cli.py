"""``terragen serve`` as a user runs it: the URL on stdout, loopback only, Ctrl-C stops it cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from tests.web.conftest import ROOT

ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def start_serve(*flags: str, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """``terragen serve`` in a child process, and its first stdout line (the address)."""
    proc = subprocess.Popen([sys.executable, "-m", "terragen", "serve", *flags], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env or ENV)
    return proc, proc.stdout.readline()


@pytest.mark.parametrize("sig, code, said", [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
                         ids=["ctrl-c", "sigterm"])
def test_serve_prints_its_url_answers_and_stops_with_the_readmes_exit_status(sig, code, said):
    """README's table: 130 for Ctrl-C, 143 for SIGTERM, for every command (SIGTERM once exited 0:
    waitress swallowed the interrupt)."""
    proc, line = start_serve("--no-browser")
    try:
        assert line.startswith("terragen serve: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/info", timeout=20) as r:
            assert json.load(r)["kits"]
        with urllib.request.urlopen(url, timeout=20) as r:
            assert b"<svg id=\"board\"" in r.read()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, err
    assert "stopped" in out and err.strip() == f"terragen: {said}"


def test_quiet_serve_prints_only_its_address():
    """-q: the address is the data the command gives (the page cannot be found without it); the
    rest ("stopped") goes."""
    proc, out, err = _served_then_terminated("--no-browser", "-q")
    assert proc.returncode == 143 and out == "" and err.strip() == "terragen: terminated"


def _served_then_terminated(*args, env=None):
    """Start ``terragen serve ARGS``, answer one request, stop it with SIGTERM: (process, the
    rest of stdout after the address line, stderr)."""
    proc, line = start_serve(*args, env=env)
    try:
        assert line.startswith("terragen serve: http://127.0.0.1:"), line
        urllib.request.urlopen(line.split()[2] + "api/info", timeout=20).read()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc, out, err


def test_serve_says_when_no_browser_can_be_opened(tmp_path):
    """webbrowser.open answers False when it finds no browser (it raises only for some failures):
    nothing was said, and the user waited for a window that never came."""
    env = {k: v for k, v in ENV.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(BROWSER=str(tmp_path / "no-such-browser"), PATH=str(tmp_path))  # no browser to be found
    _, _, err = _served_then_terminated(env=env)
    assert "could not open a browser; open the address above" in err, err


def test_serve_refuses_a_non_loopback_address():
    r = subprocess.run([sys.executable, "-m", "terragen", "serve", "--host", "0.0.0.0", "--no-browser"],
                       capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 2
    assert "loopback only" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_serve_refuses_a_taken_port():
    from terragen.web.server import Server

    srv = Server(port=0)
    try:
        r = subprocess.run([sys.executable, "-m", "terragen", "serve", "--port", str(srv.port), "--no-browser"],
                           capture_output=True, text=True, env=ENV, timeout=60)
    finally:
        srv.close()
    assert r.returncode == 2 and "cannot listen" in r.stderr


def test_help_lists_serve():
    r = subprocess.run([sys.executable, "-m", "terragen", "--help"], capture_output=True, text=True, env=ENV, timeout=60)
    assert "serve" in r.stdout


def test_shutdown_stops_running_jobs():
    from terragen.web.jobs import JobManager

    manager = JobManager()
    job = manager.start("tab-shutdown-1", "generate",
                        ({"players": 6, "difficulty": "brutal", "seed": 13, "time_limit": 120},), 300)
    assert job.process.is_alive()
    manager.shutdown()
    assert not job.process.is_alive() and manager.jobs == {}


def test_the_server_keeps_a_bounded_number_of_finished_jobs():
    """Results stay for the page to fetch, but jobs from ever new tabs must not grow memory without end."""
    import time

    from terragen.terrain.files import load_layout
    from terragen.terrain.formats_json import layout_to_data
    from terragen.templates import template_path
    from terragen.web.api import check_simulate
    from terragen.web.jobs import JobManager

    manager = JobManager(keep_finished=3)
    layout = layout_to_data(load_layout(str(template_path("terrain", "examples", "two-players.txt"))))
    options = check_simulate({"games": 20})
    try:
        for k in range(6):
            job = manager.start(f"tab-keep-{k}", "simulate", (layout, options), 120)
            deadline = time.monotonic() + 120
            while manager.get(job.id).state == "running" and time.monotonic() < deadline:
                time.sleep(0.05)
            assert manager.get(job.id).state == "done"
        manager.start("tab-keep-last", "simulate", (layout, options), 120)
        finished = [j for j in manager.jobs.values() if j.finished is not None]
        assert len(finished) == 3 and job.id in manager.jobs  # the newest kept, the oldest gone
    finally:
        manager.shutdown()
