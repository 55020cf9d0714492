"""``companion calibrate KIND``: one sub-command per device, each in its own module.

Each module in CALIBRATE_MODULES exposes ``register(subparsers)`` like the
top-level commands do.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from companion.app.command_list import COMMANDS

CALIBRATE_MODULES: tuple[str, ...] = (
    "companion.app.calibrate.rfid",
    "companion.app.calibrate.camera",
    "companion.app.calibrate.dice",
    "companion.app.calibrate.buttons",
)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "calibrate", help=COMMANDS["calibrate"].help,
        description="Set up what reads the table: camera (the mat and the tiles; first, "
                    "with the service stopped), dice (the dice reader's light and your dice, "
                    "after the camera), rfid (the RFID tray's stickers), buttons (the "
                    "buttons, LED and buzzer, each press named with its pin).")
    kinds = parser.add_subparsers(dest="device", required=True, metavar="DEVICE")
    for name in CALIBRATE_MODULES:
        importlib.import_module(name).register(kinds)
