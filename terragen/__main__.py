"""``python -m terragen`` and the ``terragen`` console script."""

from __future__ import annotations

import sys


def run() -> None:
    """Start the CLI. The console script calls this, not ``terragen.cli:main`` itself: loading the
    CLI takes a moment before it can handle Ctrl-C, and a Ctrl-C then (the script's own import of
    the CLI) printed a Python traceback under a busy machine's first half second."""
    try:
        from terragen.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("terragen: interrupted\n")
        raise SystemExit(130) from None
    main()


if __name__ == "__main__":
    run()
