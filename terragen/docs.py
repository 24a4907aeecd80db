"""Where the Markdown documentation that the commands' help names (``docs/NAME.md``) is on this machine.

Why: the help points to ``docs/generate.md`` and the like, which a checkout has beside the
package, but a user who installed a wheel has no checkout. The wheel installs the same files
under ``<prefix>/share/doc/terragen`` (``pyproject.toml``); ``terragen --help`` names the folder
found, so the pointers lead somewhere on either kind of install.
"""

from __future__ import annotations

import site
import sys
from pathlib import Path

#: a page every copy of the documentation has
_MARKER = "cli.md"


def docs_folder() -> Path | None:
    """The folder holding ``cli.md`` and the other pages: the checkout's ``docs/`` when running
    from one, else the install's ``share/doc/terragen`` (the environment's, then the user's);
    None when neither is there (an install that left the data files out)."""
    candidates = [Path(__file__).resolve().parent.parent / "docs",
                  Path(sys.prefix) / "share" / "doc" / "terragen"]
    try:
        candidates.append(Path(site.getuserbase()) / "share" / "doc" / "terragen")
    except (AttributeError, OSError):  # embedded interpreters may lack a user base
        pass
    return next((folder for folder in candidates if (folder / _MARKER).is_file()), None)
