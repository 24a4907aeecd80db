"""The example files that ship inside the package, by short name.

Users of a wheel install have no source tree, so ``terragen examples`` is how they
find a board to validate, a spec to start from or a broken board that shows a
rule. A name is ``<game>/<file>`` (for instance ``terrain/four-players.txt`` or
``terrain/invalid/cell-missing.txt``); generator specs are under
``terrain/specs/``. The bare file name works too when only one example has it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from importlib.resources.abc import Traversable

from terragen.errors import InputError
from terragen.templates import template_path

#: (data folder, the prefix its files get in example names)
SOURCES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("terrain", "examples"), "terrain"),
    (("terrain", "specs"), "terrain/specs"),
    (("terralogical", "examples"), "terralogical"),
    (("terrace", "examples"), "terrace"),
    (("terraflip", "examples"), "terraflip"),
)

SUFFIXES = (".txt", ".json", ".toml")


@dataclass(frozen=True)
class Example:
    name: str  # e.g. "terrain/four-players.txt"
    resource: Traversable

    @property
    def game(self) -> str:
        return self.name.split("/", 1)[0]

    @property
    def filename(self) -> str:
        return self.name.rsplit("/", 1)[-1]

    @property
    def kind(self) -> str:
        """What the file is: a generator spec, a piece inventory, an invalid file (shows one rule), a
        layout (a Terrain Game board) or a position (the other games' files, which hold a game in
        progress, as their docs and ``validate`` call them: no layout of pieces to build)."""
        if "/specs/" in self.name:
            return "inventory" if "copies" in self._toml() else "spec"
        if "/invalid/" in self.name:
            return "warns" if self._only_warns() else "invalid"
        return "layout" if self.game == "terrain" else "position"

    def _only_warns(self) -> bool:
        """A broken-rule example whose rule is a warning (a Terrain Game board with players'
        destination counts unequal is playable): ``validate`` passes it with exit status 0, which a
        user told "invalid" took for a bug. Its file is named after its finding's code."""
        if self.game != "terrain":
            return False  # the other games' invalid examples all break an error rule (their tests say so)
        from terragen.terrain.validation import CODES

        return CODES.get(self.filename.rsplit(".", 1)[0], ("error", ""))[0] == "warning"

    def _toml(self) -> dict:
        import tomllib

        try:
            return tomllib.loads(self.resource.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            return {}

    def companions(self) -> list[Example]:
        """Shipped files a spec refers to by a name next to it (its inventory), so a copy works."""
        if self.kind != "spec":
            return []
        inventory = self._toml().get("inventory")
        if not isinstance(inventory, str) or not inventory.endswith(".toml") or "/" in inventory:
            return []
        folder = self.name.rsplit("/", 1)[0]
        return [ex for ex in list_examples(self.game) if ex.name == f"{folder}/{inventory}"]

    def read_bytes(self) -> bytes:
        return self.resource.read_bytes()


def _walk(folder: Traversable, prefix: str) -> list[Example]:
    found: list[Example] = []
    if not folder.is_dir():
        return found
    for entry in folder.iterdir():
        if entry.is_dir():
            found.extend(_walk(entry, f"{prefix}/{entry.name}"))
        elif entry.is_file() and entry.name.endswith(SUFFIXES):
            found.append(Example(f"{prefix}/{entry.name}", entry))
    return found


def list_examples(game: str | None = None) -> list[Example]:
    """Every shipped example, sorted by name; only one game's when ``game`` is given."""
    found = [ex for parts, prefix in SOURCES for ex in _walk(template_path(*parts), prefix)]
    if game is not None:
        found = [ex for ex in found if ex.game == game]
    return sorted(found, key=lambda ex: ex.name)


def find_example(name: str) -> Example:
    """The example called ``name`` (full name, or a file name that only one example has)."""
    examples = list_examples()
    wanted = name.strip().strip("/")
    for ex in examples:
        if ex.name == wanted:
            return ex
    by_file = [ex for ex in examples if ex.filename == wanted or ex.filename.rsplit(".", 1)[0] == wanted]
    if len(by_file) == 1:
        return by_file[0]
    if len(by_file) > 1:
        names = ", ".join(ex.name for ex in by_file)
        raise InputError(f"example {name!r} is ambiguous: {names}")
    # the same name with another suffix (terrace/invalid/off-board.txt is shipped as .json) before
    # the nearest spelling, which would be another game's file of that name
    stem = _stem(wanted)
    same = [ex.name for ex in examples if _stem(ex.name) == stem]
    close = same or difflib.get_close_matches(wanted, [ex.name for ex in examples], n=1, cutoff=0.5)
    hint = f" — did you mean {' or '.join(repr(n) for n in close)}?" if close else ""
    raise InputError(f"no example called {name!r}{hint} (see 'terragen examples list')")


def _stem(name: str) -> str:
    """A name without its file suffix (terrace/invalid/off-board.json -> terrace/invalid/off-board)."""
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name
