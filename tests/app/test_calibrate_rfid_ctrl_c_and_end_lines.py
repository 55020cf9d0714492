"""Audit calib62, `companion calibrate rfid`: Ctrl-C's exit code and the lines said at its
ends (fix62c)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.app import cli
from companion.app.calibrate.rfid import Enroller
from companion.app.paths import config_dir
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.systems.jongrogue.tiles import Tile
from tests.companion_process import run_companion
from tests.deadline import ends_within
from tests.hw.rfid_calibrate_helpers import REPLAY_SECONDS, capture

TWO = 'version = 1\n\n[tags]\n"04A1B2C3" = "5p"\n"04A1B2C4" = "5p"\n'


def saved_map(text: str = TWO) -> Path:
    path = config_dir() / TAGMAP_FILENAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_ctrl_c_keeps_what_was_saved_and_exits_130(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """R3: Ctrl-C ended the enrolment with exit 0, as a finished one; the camera and dice
    enrolments exit 130."""
    path = config_dir() / TAGMAP_FILENAME

    def interrupt_once_a_sticker_is_saved(self: object) -> None:
        if path.exists():
            raise KeyboardInterrupt
        return None

    monkeypatch.setattr("companion.app.calibrate.rfid.NoKeys.poll",
                        interrupt_once_a_sticker_is_saved)
    # A tray's lines come as it reads them, a few a poll: the capture read whole in one
    # poll (a link reads all that waits, rfid63 R3) left no poll between its stickers.
    monkeypatch.setattr("companion.hw.rfid.link.READ_LIMIT", 64)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(capture(tmp_path / "tray.bin", 4).open("rb")))
    with ends_within(REPLAY_SECONDS, "calibrate rfid on a capture"):
        assert cli.main(["calibrate", "rfid", "--port", "-", "--only", "1m"]) == 130
    out = capsys.readouterr().out
    kept = len(TagMap.load(path))
    assert 1 <= kept < 4
    assert out.splitlines()[-1] == (f"Stopped; {kept} sticker{'' if kept == 1 else 's'} "
                                    f"{'is' if kept == 1 else 'are'} saved in {path}. Run the "
                                    "same command again to carry on.")


def test_stopped_before_the_reader_answered_says_the_stickers_saved_before_stay() -> None:
    """N6: "2 stickers are saved" then "nothing was enrolled" read as a contradiction."""
    saved_map()
    result = run_companion("calibrate", "rfid", "--port", "loop://", "--only", "6p")
    assert result.returncode == 1
    err = result.stderr.decode()
    assert err.startswith("companion: error: stopped before the RFID reader answered (")
    assert err.endswith("); nothing new was enrolled\n")


def test_nothing_left_to_enrol_says_so_and_nothing_else(
        capsys: pytest.CaptureFixture[str]) -> None:
    """N7: "0 stickers to enrol", the keys, then "Done: 2 stickers enrolled"."""
    path = saved_map()
    assert cli.main(["calibrate", "rfid", "--only", "5p", "--copies", "2",
                     "--port", "loop://"]) == 0
    assert capsys.readouterr().out == (
        f"Every sticker of this kind is enrolled already (2 stickers of 5p in {path}).\n")


def test_a_reenrolment_stopped_half_way_is_started_over() -> None:
    """N8: "Run the same command again to carry on", but a re-enrolment starts over."""
    out = io.StringIO()
    path = saved_map()
    enroller = Enroller(TagMap.load(path), path, out)
    enroller.reenrol(Tile.from_notation("5p"))
    enroller.on_key("q")
    assert out.getvalue().splitlines()[-1] == (
        f"Stopped; 2 stickers are saved in {path}. Run it again to start the re-enrolment "
        "over.")
