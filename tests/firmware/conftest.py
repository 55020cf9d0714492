"""Run the firmware under CPython: its folder on sys.path, fake ``machine`` and ``mfrc522``."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from companion.hw.rfid.simulator import FIRMWARE_DIR, load_firmware_logic

FAKES = Path(__file__).parent / "fakes"


@pytest.fixture
def logic() -> ModuleType:
    return load_firmware_logic()


@pytest.fixture
def firmware_main(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """firmware/main.py imported with the fake board modules in place of MicroPython's."""
    load_firmware_logic()
    monkeypatch.syspath_prepend(str(FIRMWARE_DIR))
    for name in ("machine", "mfrc522"):
        spec = importlib.util.spec_from_file_location(name, FAKES / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "board", raising=False)
    spec = importlib.util.spec_from_file_location("jr_firmware_main", FIRMWARE_DIR / "main.py")
    assert spec is not None and spec.loader is not None
    main = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(main)
    yield main
    sys.modules.pop("board", None)
    importlib.invalidate_caches()


@pytest.fixture
def driver(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """firmware/mfrc522.py, for the register-level fake chip of fakes/chip.py."""
    monkeypatch.setattr(time, "sleep_ms", lambda ms: None, raising=False)  # MicroPython's time
    spec = importlib.util.spec_from_file_location("jr_mfrc522", FIRMWARE_DIR / "mfrc522.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
