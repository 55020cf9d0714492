"""A Pi camera that does not start (an RFID-only build whose settings still read tiles from
the camera, maker audit 56 #1) says how to read them from the RFID tray as input.kind was
given: f78carry: it said 'set [input] kind = "rfid" in config.toml' while
COMPANION_INPUT_KIND or play's --input chose the camera, which config.toml does not
overrule. The dice camera, which no tray replaces, says nothing of the tray."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from companion.app.config import load_config
from companion.hw.camera.capture import open_source
from companion.hw.camera.choice import CameraChoice
from tests.hw.capture_helpers import forget_after

CABLE = "is its ribbon cable seated?"


@pytest.fixture
def camera_not_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Picamera2 that finds no camera, as libcamera says it ("list index out of range")."""
    (tmp_path / "picamera2").mkdir()
    (tmp_path / "picamera2" / "__init__.py").write_text(
        "class Picamera2:\n"
        "    def __init__(self):\n"
        "        raise IndexError('list index out of range')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    forget_after(monkeypatch, "picamera2")


def said_of(chosen: CameraChoice) -> str:
    source = open_source(chosen)
    try:
        assert source.read() is None
        return source.message
    finally:
        source.close()


@pytest.mark.usefixtures("camera_not_there")
@pytest.mark.parametrize(("file_text", "env", "overrides", "how"), [
    ("", {"COMPANION_INPUT_KIND": "camera"}, {},
     "COMPANION_INPUT_KIND=rfid (the environment sets input.kind, over config.toml; or unset "
     "it)"),
    ("", {}, {"input.kind": "camera"}, "--input rfid"),
    ('[input]\nkind = "camera"\n', {}, {}, 'kind = "rfid" under [input] in {path}'),
    (None, {}, {}, 'kind = "rfid" under [input] in {path}'),
])
def test_the_tray_hint_names_how_input_kind_was_given(
        tmp_path: Path, file_text: str | None, env: Mapping[str, str],
        overrides: Mapping[str, object], how: str) -> None:
    path = tmp_path / "config.toml"
    if file_text is not None:
        path.write_text(file_text, encoding="utf-8")
    config = load_config(path, env=env, overrides=overrides, flag_names={"input.kind": "--input"})
    said = said_of(config.camera_source())
    assert said == ("the Pi camera did not start (list index out of range); "
                    f"{CABLE} No camera, the RFID tray instead: {how.format(path=path)}"), said


@pytest.mark.usefixtures("camera_not_there")
def test_the_dice_camera_says_nothing_of_the_tray(tmp_path: Path) -> None:
    config = load_config(tmp_path / "config.toml", env={"COMPANION_DICE_CAMERA_SOURCE": "picamera"})
    assert said_of(config.dice_camera()).endswith(CABLE)
