"""`python -m companion`: the ``companion`` command."""

import sys
from typing import NoReturn


def run() -> NoReturn:
    """Load the command line and run it. A Ctrl-C while ``companion.app.cli`` loads (about
    0.14 s here, more on a Pi; before :func:`~companion.app.cli.main` can catch it) stops
    it as a Ctrl-C later does: exit 130, no Python traceback (reviewj71 NIT 3)."""
    try:
        from companion.app.cli import main
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(main())


if __name__ == "__main__":
    run()
