"""Helpers for the generator tests: run the CLI in a subprocess, build specs."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def run_cli(*args, cwd=None, env=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    env.pop("TERRAGEN_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


@pytest.fixture
def cli():
    return run_cli


def captured_balancer(monkeypatch, spec: dict, seed: int):
    """The balancer the generator builds for its first spec-valid terrain of ``spec``, captured
    before it simulates anything (what the balance tests feed games of known rates)."""
    from terragen.errors import TimeLimitError
    from terragen.terrain.generate import generate_board
    from terragen.terrain.generate import balance as balance_module
    from terragen.terrain.generate.spec import spec_from_dict

    caught = []

    def capture(self):
        caught.append(self)
        raise TimeLimitError("captured")

    monkeypatch.setattr(balance_module.Balancer, "run", capture)
    with pytest.raises(TimeLimitError):
        generate_board(spec_from_dict(spec), seed, time_limit=60, best_effort=False)
    monkeypatch.undo()
    return caught[0]
