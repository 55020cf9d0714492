"""``companion roll``: simulated, typed and camera dice from the command line."""

from __future__ import annotations

import io
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main


def test_roll_with_a_seed_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "2D6+4>=8", "disarm", "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert main(["roll", "2D6+4>=8", "disarm", "--seed", "7"]) == 0
    assert capsys.readouterr().out == first
    assert first.startswith("(2D6+4>=8) ＞ ") and first.rstrip().endswith("disarm")


def test_roll_json_names_dice_seed_and_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "S1D100<=50", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["secret"] is True and data["dice_source"] == "sim"
    assert isinstance(data["seed"], int)
    (die,) = data["dice"]
    assert die["sides"] == 100 and data["total"] == die["value"]
    assert data["success"] == (die["value"] <= 50)


def test_manual_dice_read_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("7\n3 4\n"))
    assert main(["roll", "2D6>=9", "--dice", "manual"]) == 0
    out, err = capsys.readouterr()
    assert out == "(2D6>=9) ＞ 7[3,4] ＞ 失敗/failure\n"
    assert "7 is not on a D6" in err


def test_bad_expression_points_at_the_fault(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "2D6>?"]) == 2
    err = capsys.readouterr().err
    assert "unexpected '?' at character 5" in err
    assert "  2D6>?\n      ^" in err


def test_camera_without_the_reader_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "companion.hw.dice.source", None)
    assert main(["roll", "2D6", "--dice", "camera"]) == 1
    assert "camera dice reader is not available" in capsys.readouterr().err


def test_camera_source_is_built_with_the_source_option(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, user_dirs: Path
) -> None:
    made: list[tuple[str, Path]] = []

    class CameraDiceSource:
        def __init__(self, source: str, *, config_file: Path, on_status: Any) -> None:
            made.append((source, config_file))
            on_status("hold still")

        def roll(self, count: int, sides: int) -> list[int]:
            return [6] * count

    module = types.ModuleType("companion.hw.dice.source")
    module.CameraDiceSource = CameraDiceSource  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.hw.dice.source", module)
    assert main(["roll", "2D6", "--dice", "camera", "--source", "mat.png"]) == 0
    assert made == [("mat.png", user_dirs / "config" / "dice.toml")]
    out, err = capsys.readouterr()
    assert out == "(2D6) ＞ 12[6,6]\n" and "hold still" in err
