"""A capture source's picture and its forgetting after a while, for the camera capture tests."""

from __future__ import annotations

import sys

import numpy as np
import pytest


def picture(value: int) -> np.ndarray:
    return np.full((48, 64, 3), value, np.uint8)


def forget_after(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """``module`` imported afresh now and forgotten after the test: a stand-in left in
    sys.modules opened a "Pi camera" for every later test in the process (a later play
    waited for a tile for ever)."""
    monkeypatch.setitem(sys.modules, module, None)  # its undo removes what the test imports
    del sys.modules[module]
