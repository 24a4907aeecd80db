"""Allow ``python -m terragen`` as well as the ``terragen`` console script."""

from terragen.cli import main

main()
