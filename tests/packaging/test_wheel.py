"""A built wheel and sdist carry the data, and the wheel works in a fresh venv outside the checkout.

This is what ``pip install terragen`` gives a user: no source tree, no editable
install, the working folder somewhere else. Slow-ish (a build and a venv), so
the whole check is one module-scoped fixture shared by the tests below.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import terragen

ROOT = Path(__file__).resolve().parents[2]

#: data files a user's run needs; each must be inside both distributions
REQUIRED_DATA = [
    "terragen/data/paper/a4.toml",
    "terragen/data/paper/letter.toml",
    "terragen/data/palettes/colour.toml",
    "terragen/data/palettes/grey.toml",
    "terragen/data/terrain/inventories/standard.toml",
    "terragen/data/terrain/inventories/extended.toml",
    "terragen/data/terrain/presets/easy.toml",
    "terragen/data/terrain/presets/brutal.toml",
    "terragen/data/terrain/examples/four-players.txt",
    "terragen/data/terrain/specs/example.toml",
    "terragen/data/terralogical/default-deck.json",
    "terragen/web/static/index.html",
]


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "TERRAGEN_TEMPLATES", "VIRTUAL_ENV"}}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, env=_clean_env(), timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory) -> Path:
    """The wheel installed into a fresh venv (no system site-packages); returns its bin folder."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / "bin"
    proc = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(dists["wheel"])],
                          capture_output=True, text=True, env=_clean_env(), timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return bin_dir


def test_wheel_and_sdist_contain_the_data_and_metadata(dists):
    names = set(zipfile.ZipFile(dists["wheel"]).namelist())
    assert not [f for f in REQUIRED_DATA if f not in names]
    meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
    meta = zipfile.ZipFile(dists["wheel"]).read(meta_name).decode()
    assert f"Version: {terragen.__version__}" in meta
    assert "Requires-Python: >=3.11" in meta
    assert "Classifier: Topic :: Games/Entertainment :: Board Games" in meta
    assert "Description-Content-Type: text/markdown" in meta and "# terragen" in meta
    assert any(n.endswith("licenses/LICENSE") for n in names)
    with tarfile.open(dists["sdist"]) as tar:
        members = {m.split("/", 1)[1] for m in tar.getnames() if "/" in m}
    assert not [f for f in REQUIRED_DATA if f not in members]
    assert {"LICENSE", "README.md", "pyproject.toml"} <= members


def _run(bin_dir: Path, cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_dir / "terragen"), *args], capture_output=True, text=True, cwd=cwd,
                          env=_clean_env(), timeout=timeout)


def test_installed_wheel_runs_the_main_jobs_from_another_folder(installed, tmp_path):
    where = subprocess.run([str(installed / "python"), "-c", "import terragen; print(terragen.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=_clean_env(), check=True)
    assert not Path(where.stdout.strip()).is_relative_to(ROOT), "the venv must not import the checkout"

    version = _run(installed, tmp_path, "--version")
    assert version.returncode == 0 and version.stdout.startswith(f"terragen, version {terragen.__version__} (")
    if os.environ.get("TERRAGEN_EXPECT_KERNELS"):  # CI builds with a C compiler: the wheel must carry the kernels
        assert "(compiled kernels in use)" in version.stdout, version.stdout

    # the README's main job, balancing included; a shorter limit keeps CI quick (the board is then the
    # best-effort one, written with its measured verdict)
    gen = _run(installed, tmp_path, "generate", "--players", "4", "--difficulty", "hard", "--time-limit", "20",
               "--out", "board", timeout=400)
    assert gen.returncode == 0, gen.stderr
    assert (tmp_path / "board" / "board.json").is_file()

    listing = _run(installed, tmp_path, "examples", "list")
    assert listing.returncode == 0 and "terrain/four-players.txt" in listing.stdout
    assert _run(installed, tmp_path, "examples", "copy", "terrain/four-players.txt").returncode == 0
    check = _run(installed, tmp_path, "validate", "four-players.txt")
    assert check.returncode == 0, check.stderr
    assert _run(installed, tmp_path, "validate", "board/board.json").returncode == 0


@pytest.mark.parametrize("game", ["terrain", "terrace", "terralogical", "terraflip"])
def test_installed_wheel_prints_every_kit(installed, tmp_path, game):
    proc = _run(installed, tmp_path, "kit", game, "--out", f"kit-{game}")
    assert proc.returncode == 0, proc.stderr
    assert list((tmp_path / f"kit-{game}").glob("*.pdf"))


def test_installed_wheel_carries_the_docs_its_help_points_to(installed, tmp_path):
    """The help sends readers to docs/NAME.md; a wheel install has no checkout, so it must carry
    those pages and say where they are."""
    import re

    helps = {"": _run(installed, tmp_path, "--help").stdout}
    for command in ("generate", "batch", "presets"):
        helps[command] = _run(installed, tmp_path, command, "--help").stdout
    lines = helps[""].splitlines()
    at = next(k for k, ln in enumerate(lines) if ln.startswith("Documentation"))
    folder = Path(lines[at + 1].strip())
    assert folder.is_relative_to(installed.parent) and not folder.is_relative_to(ROOT)
    named = {m for text in helps.values() for m in re.findall(r"docs/([a-z-]+\.md)", text)}
    assert {"cli.md", "generate.md"} <= named
    assert all((folder / name).is_file() for name in named)
    # a command's own help that names a page says where the pages are too (only the top level did)
    for command in ("generate", "batch"):
        assert str(folder) in helps[command], command
    # the pages cite the README (its exit-status table, its board): it is installed beside them
    assert (folder / "README.md").is_file()
    # output that names a page names it where this install has it (presets said docs/batch.md)
    listed = _run(installed, tmp_path, "presets").stdout
    assert str(folder / "batch.md") in listed and "docs/batch.md" not in listed
