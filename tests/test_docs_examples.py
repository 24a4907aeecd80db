"""Every Python example in the README and docs/ runs as written, and the values its comments
promise are what it gives (docs/simulate.md's example used a name it never defined)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLE_BOARD = ROOT / "terragen" / "data" / "terrain" / "examples" / "four-players.txt"
#: a line whose comment is a bare whole number: the value the line's expression gives
PROMISE = re.compile(r"^(?P<expr>[^#\s][^#]*?)\s+#\s*(?P<value>-?\d+)\s*$")


def _blocks() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for k, match in enumerate(re.finditer(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)):
            found.append((f"{page.relative_to(ROOT)}#{k + 1}", match.group(1)))
    return found


def test_the_docs_have_python_examples():
    assert len(_blocks()) >= 3


@pytest.mark.parametrize("name, code", _blocks(), ids=[name for name, _ in _blocks()])
def test_a_docs_example_runs_as_written(name, code, tmp_path, monkeypatch):
    # the files the examples read: the board the README's first command writes, and a board.txt
    (tmp_path / "output" / "my-board").mkdir(parents=True)
    shutil.copy(EXAMPLE_BOARD, tmp_path / "output" / "my-board" / "board.txt")
    shutil.copy(EXAMPLE_BOARD, tmp_path / "board.txt")
    monkeypatch.chdir(tmp_path)
    space: dict = {"__name__": "__main__"}
    exec(compile(code, name, "exec"), space)
    for line in code.splitlines():
        promise = PROMISE.match(line)
        if promise:
            assert eval(promise["expr"], space) == int(promise["value"]), (name, line)
