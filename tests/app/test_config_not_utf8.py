"""setup69 NIT 6: a config.toml saved in Shift-JIS (an old Japanese editor) was told as
"not a valid TOML file ('utf-8' codec can't decode byte 0x90 in position 2: …)": the
player, whose [input] said the RFID tray, played on the camera's defaults and was not told
what to do. It now says the file is not UTF-8, and to save it as UTF-8."""

from __future__ import annotations

import codecs

import pytest

from companion.app.cli import main
from companion.app.config import load_config

SETTINGS = '# 設定\n[input]\nkind = "rfid"\n'


@pytest.mark.parametrize("encoding, byte, guess", [
    ("shift_jis", 3, "; saved as Shift-JIS?"),
    # Notepad's "Unicode", named by its byte order mark (a77setup NIT 6)
    ("utf-16", 1, "; saved as UTF-16 (Notepad's Unicode)?"),
])
def test_a_settings_file_not_in_utf8_says_to_save_it_as_utf8(
        capsys: pytest.CaptureFixture[str], encoding: str, byte: int, guess: str) -> None:
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    data = SETTINGS.encode(encoding)
    assert not data.startswith(codecs.BOM_UTF8)
    path.write_bytes(data)
    config = load_config(env={})
    said = (f"the settings file {path} is not UTF-8 text (byte {byte} cannot be read{guess}): "
            "save it as UTF-8 (UTF-8で保存してください); the defaults are used until it is "
            "mended")
    assert list(config.notices) == [said]
    assert config["input.kind"] == "camera" and path.read_bytes() == data
    assert main(["config", "--show"]) == 1
    assert f"companion: {said}" in capsys.readouterr().err


def test_a_utf8_settings_file_cut_in_a_character_is_said_cut_short() -> None:
    """a77setup NIT 6: a comment cut in the middle of a Japanese character (a power cut, a
    copy cut off) was "not UTF-8 text (…; saved as Shift-JIS?): save it as UTF-8"."""
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    data = '[input]\nkind = "rfid"  # あ'.encode()[:-1]
    path.write_bytes(data)
    assert list(load_config(env={}).notices) == [
        f"{path} is not a valid TOML file (the file ends in the middle: cut short after "
        f"{len(data)} bytes); the defaults are used until it is mended"]
