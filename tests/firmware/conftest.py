"""Run the firmware under CPython: its folder on sys.path, fake ``machine`` and ``mfrc522``."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from companion.hw.rfid.simulator import FIRMWARE_DIR, load_firmware_logic

FAKES = Path(__file__).parent / "fakes"


@pytest.fixture
def logic() -> ModuleType:
    return load_firmware_logic()


def load_main(monkeypatch: pytest.MonkeyPatch, board_dir: Path | None = None) -> ModuleType:
    """firmware/main.py imported with the fake board modules in place of MicroPython's;
    with ``board_dir``, the board.py in that folder instead of firmware/board.py."""
    load_firmware_logic()
    monkeypatch.syspath_prepend(str(FIRMWARE_DIR))
    if board_dir is not None:
        monkeypatch.syspath_prepend(str(board_dir))
    for name in ("machine", "mfrc522"):
        spec = importlib.util.spec_from_file_location(name, FAKES / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "board", raising=False)
    importlib.invalidate_caches()
    spec = importlib.util.spec_from_file_location("jr_firmware_main", FIRMWARE_DIR / "main.py")
    assert spec is not None and spec.loader is not None
    main = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(main)
    return main


@pytest.fixture
def firmware_main(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """firmware/main.py imported with the fake board modules in place of MicroPython's."""
    yield load_main(monkeypatch)
    sys.modules.pop("board", None)
    importlib.invalidate_caches()


@pytest.fixture
def main_with_board(monkeypatch: pytest.MonkeyPatch,
                    tmp_path: Path) -> Iterator[Callable[[str], ModuleType]]:
    """firmware/main.py as it starts on a board whose board.py is the text given: a maker's
    own edit of firmware/board.py (it may not load)."""

    def load(text: str) -> ModuleType:
        folder = tmp_path / "edited"
        folder.mkdir(exist_ok=True)
        (folder / "board.py").write_text(text, encoding="utf-8")
        return load_main(monkeypatch, folder)

    yield load
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
