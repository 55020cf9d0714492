"""What the host reads from the tray firmware's source tree (``firmware/``): its version
and its default pins, read as constants, never run (``main.py`` imports ``machine``).

The tray may have been flashed from another copy or with a board.py of its own: the
messages that use these say they are the defaults of ``firmware/board.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().parents[3] / "firmware"


def firmware_constant(filename: str, name: str) -> object | None:
    """The literal assigned to ``name`` at the top of ``firmware/<filename>``; None when the
    file is missing (an install without the source tree) or holds no such literal."""
    try:
        tree = ast.parse((FIRMWARE_DIR / filename).read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name):
            try:
                value: object = ast.literal_eval(node.value)
            except ValueError:
                return None
            return value
    return None


def firmware_version() -> str | None:
    """``FIRMWARE_VERSION`` in ``firmware/main.py``, the one place the version is set."""
    version = firmware_constant("main.py", "FIRMWARE_VERSION")
    return version if isinstance(version, str) else None


def shipped_if_newer(tray_version: str | None) -> str | None:
    """This checkout's firmware version (:func:`firmware_version`) when the tray's hello
    named an older one (``"1.3.3"`` beside ``"1.3.5"``): the tray was flashed before the
    companion was updated, and misses the newer firmware's checks (maker75 NIT 2). None
    when it is as new or newer, or either version is not a dotted number (``unknown``); a
    simulator's ``-sim`` mark is no version of its own.

    >>> shipped_if_newer("1.²") is None
    True
    """
    shipped = firmware_version()
    ours, theirs = version_numbers(shipped), version_numbers(tray_version)
    return shipped if ours is not None and theirs is not None and theirs < ours else None


def chip_select_pin(slot_number: int) -> int | None:
    """The Pico GP pin ``firmware/board.py`` gives the reader of protocol slot
    ``slot_number`` (``CS_PINS``, in slot order)."""
    pins = firmware_constant("board.py", "CS_PINS")
    if isinstance(pins, tuple) and 0 <= slot_number < len(pins) and isinstance(
            pins[slot_number], int):
        pin: int = pins[slot_number]
        return pin
    return None


def version_numbers(version: str | None) -> tuple[int, ...] | None:
    """``"1.3.2"`` → ``(1, 3, 2)``, to compare; a simulator's ``-sim`` mark left out. None
    for a version that is not a dotted number (``unknown``, none)."""
    numbers = (version or "").split("-", 1)[0].split(".")
    # isascii: str.isdigit takes '²', which int() refuses (finala75 NIT 4)
    return (tuple(int(n) for n in numbers)
            if all(n.isascii() and n.isdigit() for n in numbers) else None)
