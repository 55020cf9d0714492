"""`python -m companion`: the ``companion`` command."""

import signal
import sys
from types import FrameType
from typing import NoReturn


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def run() -> NoReturn:
    """Load the command line and run it. A Ctrl-C while ``companion.app.cli`` loads (about
    0.14 s here, more on a Pi; before :func:`~companion.app.cli.main` can catch it) stops
    it as a Ctrl-C later does: exit 130, no Python traceback (reviewj71 NIT 3); and so does
    a Ctrl-\\ (SIGQUIT), which dumped core (r76lead RISK 1: see
    :func:`~companion.app.cli.quit_key_stops`)."""
    if signal.getsignal(signal.SIGQUIT) is signal.SIG_DFL:
        signal.signal(signal.SIGQUIT, _stop)
    try:
        from companion.app.cli import main
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(main())


if __name__ == "__main__":
    run()
