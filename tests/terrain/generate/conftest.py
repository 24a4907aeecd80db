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
