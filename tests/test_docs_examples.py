"""Every Python example in the README and docs/ runs as written, and the values its comments promise
(a number, a string, a list, True) are what it gives (docs/simulate.md's example used a name it never
defined; comments other than whole numbers went unchecked)."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLE_BOARD = ROOT / "terragen" / "data" / "terrain" / "examples" / "four-players.txt"
#: a line whose whole comment is a Python value (``# 3``, ``# 'text'``, ``# ['a', 'b']``, ``# True``): the value
#: the line's expression gives; a comment in words is not a promise
PROMISE = re.compile(r"^(?P<expr>[^#\s][^#]*?)\s+#\s*(?P<value>.+?)\s*$")


def _promised(comment: str) -> tuple[bool, object]:
    """The value a comment promises: the whole comment, or its head before "; " or ": " words
    (``# (0, 0): nothing to compute``, ``# True; ...``)."""
    heads = [comment] + [comment.split(sep, 1)[0] for sep in ("; ", ": ") if sep in comment]
    for head in heads:
        try:
            return True, ast.literal_eval(head)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
    return False, None


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
    # each promised line is checked where it stands, when it runs, and run once only (``pos.pop() ==
    # move`` evaluated again after the example took back a second move)
    checked = []

    def promised(got, value, line):
        assert got == value, (name, line, got)
        checked.append(line)

    lines = []
    for line in code.splitlines():
        promise = PROMISE.match(line)
        is_value, value = _promised(promise["value"]) if promise else (False, None)
        lines.append(f"__promised__(({promise['expr']}), {value!r}, {line!r})" if is_value else line)
    space: dict = {"__name__": "__main__", "__promised__": promised}
    exec(compile("\n".join(lines), name, "exec"), space)
    assert len(checked) == sum(1 for line in lines if line.startswith("__promised__("))


@pytest.mark.parametrize("package", ["terragen.terrain", "terragen.terralogical", "terragen.terraflip",
                                     "terragen.terrace"])
def test_a_game_packages_offered_names_are_what_they_say(package):
    """Each name a game package offers one level down resolves, and none is also the name of one of
    its modules: once that module is imported, Python sets the package's attribute to the module,
    and the offered function would be a module to the next caller."""
    import importlib
    import pkgutil

    from types import ModuleType

    module = importlib.import_module(package)
    for info in pkgutil.iter_modules(module.__path__):  # every module loaded, as a long session would
        importlib.import_module(f"{package}.{info.name}")
    assert module.__all__
    for name in module.__all__:
        assert not isinstance(getattr(module, name), ModuleType), name
        assert name in dir(module)
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018
