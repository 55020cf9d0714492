"""The ``companion`` command: one sub-command per module listed in COMMAND_MODULES.

Each command module exposes ``register(subparsers)``, which adds its parser and
sets ``func`` to a callable taking the parsed namespace and returning the exit
code. Keeping the list here, and the commands in their own modules, lets each
part of the companion own its command line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from companion import __version__
from companion.errors import CompanionError

COMMAND_MODULES: tuple[str, ...] = (
    "companion.app.commands.calibrate",
    "companion.app.commands.classify",
    "companion.app.commands.config",
    "companion.app.commands.history",
    "companion.app.commands.roll",
    "companion.app.commands.events",
    "companion.app.commands.genso",
    "companion.app.commands.coc",
    "companion.app.commands.rfid",
    "companion.app.commands.dice",
    "companion.app.commands.rules",
    "companion.app.commands.simulate",
    "companion.app.commands.replay",
    "companion.app.commands.play",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="JongRogue Companion: play 雀ローグEZプラス with a real mahjong set.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except CompanionError as exc:
        # A ValueError-kind error came from what the user gave us: a usage error.
        print(f"companion: error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, ValueError) else 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # What read our output went away (`| head`): stop quietly, as other tools do, and
        # point stdout at nothing so the exit's flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:
        # A file or folder we were told to use, or our own, cannot be used.
        where = exc.filename or exc.filename2
        print(f"companion: error: {where or 'a file'}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
