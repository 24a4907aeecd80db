"""Where the Markdown documentation that the commands' help names (``docs/NAME.md``) is on this machine.

Why: the help points to ``docs/generate.md`` and the like, which a checkout has beside the
package, but a user who installed a wheel has no checkout. The wheel installs the same files
under ``<prefix>/share/doc/terragen`` (``pyproject.toml``); ``terragen --help`` names the folder
found, so the pointers lead somewhere on either kind of install.
"""

from __future__ import annotations

import site
import sys
import sysconfig
from pathlib import Path

#: a page every copy of the documentation has
_MARKER = "cli.md"


def docs_folder() -> Path | None:
    """The folder holding ``cli.md`` and the other pages: the checkout's ``docs/`` when running
    from one, else where the install put its data files (the environment's data path, which a
    system pip on Debian sets to /usr/local while ``sys.prefix`` is /usr; the user's; or, last,
    wherever the install's own record of its files says); None when there is no copy."""
    candidates = [Path(__file__).resolve().parent.parent / "docs",
                  Path(sysconfig.get_path("data")) / "share" / "doc" / "terragen",
                  Path(sys.prefix) / "share" / "doc" / "terragen"]
    try:
        candidates.append(Path(site.getuserbase()) / "share" / "doc" / "terragen")
    except (AttributeError, OSError):  # embedded interpreters may lack a user base
        pass
    found = next((folder for folder in candidates if (folder / _MARKER).is_file()), None)
    return found if found is not None else _recorded_folder()


def _recorded_folder() -> Path | None:
    """The docs folder as the installed distribution's file list names it (any scheme)."""
    from importlib import metadata

    try:
        files = metadata.files("terragen") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in files:
        if entry.name == _MARKER and "doc" in entry.parts:
            path = Path(entry.locate()).resolve()
            if path.is_file():
                return path.parent
    return None


def doc_page(name: str) -> str:
    """How output should name a documentation page: its path on this install when there is a copy
    (a wheel's user cannot open ``docs/batch.md``), else the page as the source distribution has it."""
    folder = docs_folder()
    if folder is not None and (folder / name).is_file():
        return str(folder / name)
    return f"docs/{name} in terragen's source distribution"
