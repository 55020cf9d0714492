"""Audit jr68 from the command line: a profile saved with a byte-order mark plays (RISK 1),
and a broken packaged rules table is one ``companion: error:`` line naming file and field,
not a 50-line traceback, from every command that loads the tables (RISK 2)."""

from __future__ import annotations

import codecs
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
BROKEN = ("companion/systems/jongrogue/data/monsters.toml: field K.attack must be a whole "
          "number 0 or more, found '7'")


def test_play_takes_a_profile_saved_with_a_byte_order_mark(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Windows Notepad's BOM: the game plays as with the same file without it (it was
    "not valid TOML: Invalid statement (at line 1, column 1)"), as config.toml does."""
    text = "[combat]\nthaw = 7\n"
    plain, marked = tmp_path / "plain.toml", tmp_path / "marked.toml"
    plain.write_text(text, encoding="utf-8")
    marked.write_bytes(codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode())
    assert main(["play", "--headless", "--seed", "3", "--profile", str(plain)]) == 0
    want = capsys.readouterr()
    assert main(["play", "--headless", "--seed", "3", "--profile", str(marked)]) == 0
    got = capsys.readouterr()
    # the same game, the profile named by its path
    assert got.out == want.out.replace(str(plain), str(marked)) and "Result:" in got.out
    assert got.err == want.err.replace(str(plain), str(marked))


@pytest.fixture(scope="module")
def broken_checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the companion whose monster table gives the kestrel's attack as text."""
    root = tmp_path_factory.mktemp("broken")
    shutil.copytree(PACKAGE, root / "companion",
                    ignore=shutil.ignore_patterns("_compiled", "__pycache__"))
    table = root / "companion" / "systems" / "jongrogue" / "data" / "monsters.toml"
    text = table.read_text(encoding="utf-8")
    assert "attack = 7" in text
    table.write_text(text.replace("attack = 7", 'attack = "7"', 1), encoding="utf-8")
    return root


@pytest.mark.parametrize("command", [
    ["rules", "monsters"], ["play", "--headless", "--seed", "3"], ["simulate", "--games", "1"],
    ["history"],
])
def test_a_broken_packaged_table_is_one_error_line_naming_file_and_field(
        broken_checkout: Path, tmp_path: Path, command: list[str]) -> None:
    """The tables load when a command's module is imported, in building the parser, before
    the command's own ``companion: error:`` handling: the DataError, which names file and
    field, came as the last line of a traceback."""
    env = {**os.environ, "PYTHONPATH": str(broken_checkout), "COMPANION_RULES_BUILD": "pure",
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-m", "companion", *command], cwd=broken_checkout,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.stderr == f"companion: error: {BROKEN}\n"
    assert done.stdout == "" and done.returncode == 2  # a DataError: what was given is wrong
    version = subprocess.run([sys.executable, "-m", "companion", "--version"],
                             cwd=broken_checkout, env=env, capture_output=True, text=True,
                             timeout=120, check=False)
    assert version.returncode == 0 and version.stdout.startswith("companion ")
