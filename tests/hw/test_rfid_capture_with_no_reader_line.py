"""A capture replayed with ``--port -`` that holds no line of the reader kind asked for
(rfid73 DEFECT 2): ``rfid monitor`` and ``calibrate rfid`` say what came instead and exit 1.

A capture of junk (another port, another speed, a terminal log) or of an RDM6300's frames,
replayed as the tray's, printed ``-- ok: tray on stdin`` and exited 0, though
``run_monitor``'s docstring promises 1 for "a capture with no valid line"; a tray's capture
replayed as an RDM6300's said "ok" too, where a live port says it is the tray. Each command
runs in its own process, the capture on its stdin.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.paths import config_dir
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.rdm6300 import frame
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.systems.jongrogue.tiles import Tile
from tests.companion_process import run_companion

#: A capture replayed ends the command with it, in well under a second.
REPLAY_SECONDS = 20
JUNK = b"hello world\nthis is not a tray\n" * 5
RDM6300_FRAMES = frame("0F00A1B2C3") * 20
TRAY_LINES = b"".join([encode(0, Kind.HELLO, "1.3.3", "5"), encode(1, Kind.SNAP, *"-----"),
                       *(encode(n, Kind.HB) for n in range(2, 7)),
                       encode(7, Kind.PLACE, "0", "04A1B2C3")])
TRAY_KIND = ('it needs the tray kind (input.rfid_kind = "tray"; --rfid-kind tray for play, '
             "--kind tray for rfid monitor and calibrate rfid)")


def replay(tmp_path: Path, data: bytes, *args: str) -> tuple[int, str, str]:
    """``companion ARGS --port -`` on ``data``: its exit status, stdout and stderr."""
    capture = tmp_path / "capture.bin"
    capture.write_bytes(data)
    with capture.open("rb") as stdin:
        result = run_companion(*args, "--port", "-", stdin=stdin, timeout=REPLAY_SECONDS)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


@pytest.mark.parametrize(("data", "said"), [
    (JUNK, "155 bytes came from stdin but no tray line: not a capture of the tray"),
    (RDM6300_FRAMES, "280 bytes came from stdin but no tray line: they are an RDM6300's "
                     "frames, which need the rdm6300 kind"),
], ids=["junk", "rdm6300 frames"])
def test_monitor_on_a_capture_with_no_tray_line_says_what_came_and_exits_1(
        tmp_path: Path, data: bytes, said: str) -> None:
    code, out, err = replay(tmp_path, data, "rfid", "monitor", "--kind", "tray")
    assert code == 1, (out, err)
    assert "-- ok" not in out
    assert f"-- problem: end of input: {said}" in out
    assert err.startswith(f"companion: error: the RFID reader never answered (end of input: "
                          f"{said}")


def test_monitor_on_a_tray_capture_as_an_rdm6300_names_the_tray(tmp_path: Path) -> None:
    """As a live port that turns out to be the tray says: it needs the tray kind."""
    code, out, err = replay(tmp_path, TRAY_LINES, "rfid", "monitor", "--kind", "rdm6300")
    assert code == 1, (out, err)
    assert "-- ok" not in out
    assert err == ("companion: error: end of input: the capture on stdin holds the RFID "
                   f"tray's protocol v1 lines, not an RDM6300's frames: {TRAY_KIND} "
                   "RFIDトレイの信号\n")


def test_monitor_on_junk_as_an_rdm6300_says_no_frame_came(tmp_path: Path) -> None:
    """Worded as the tray kind's: the bytes counted, and no live port's wiring advice (it
    said "(1 garbage, 0 bad checksums): the wrong port, its TX not through the divider
    (hardware/wiring.md), or not an RDM6300?" of a file; reviewr73 NIT 5)."""
    code, out, err = replay(tmp_path, JUNK, "rfid", "monitor", "--kind", "rdm6300")
    assert code == 1, (out, err)
    assert "-- ok" not in out
    said = ("end of input: 155 bytes came from stdin but no RDM6300 frame: not a capture of "
            "an RDM6300 (another port or device, or a log?) 読み取り機の信号ではない")
    assert f"-- problem: {said}" in out
    assert err == f"companion: error: the RFID reader never answered ({said})\n"
    assert "divider" not in out + err and "garbage," not in out + err


def test_monitor_on_rdm6300_frames_with_bad_sums_keeps_the_wiring_advice(
        tmp_path: Path) -> None:
    """finalb73 NIT 5: a capture of real RDM6300 frames, each with a bad checksum (what a
    marginal divider gives), was said to be "not a capture of an RDM6300", under a line
    counting its bad checksums and pointing to the divider."""
    bad_sums = frame("0F00A1B2C3")[:-3] + b"00\x03"
    assert bad_sums != frame("0F00A1B2C3")
    code, out, err = replay(tmp_path, bad_sums * 20, "rfid", "monitor", "--kind", "rdm6300")
    assert code == 1, (out, err)
    said = ("end of input: 280 bytes came from stdin: 20 RDM6300 frames with bad checksums "
            "and none valid (its TX not through the divider? hardware/wiring.md) "
            "読み取り機の信号ではない")
    assert f"-- problem: {said}" in out
    assert err == f"companion: error: the RFID reader never answered ({said})\n"
    assert "not a capture" not in out + err


@pytest.mark.parametrize("kind", ["tray", "rdm6300"])
def test_monitor_on_an_empty_capture_says_it_was_empty(tmp_path: Path, kind: str) -> None:
    code, out, err = replay(tmp_path, b"", "rfid", "monitor", "--kind", kind)
    assert code == 1, (out, err)
    assert "end of input: the capture on stdin was empty" in err


@pytest.mark.parametrize(("data", "kind"), [(TRAY_LINES, "tray"),
                                            (RDM6300_FRAMES, "rdm6300")])
def test_monitor_on_a_capture_of_its_own_kind_is_ok(tmp_path: Path, data: bytes,
                                                    kind: str) -> None:
    code, out, err = replay(tmp_path, data, "rfid", "monitor", "--kind", kind)
    assert code == 0, (out, err)
    # The RDM6300's frames, read all at once within its first second, lay there at start.
    assert "-- ok: " in out and f"{'placed' if kind == 'tray' else 'lying':<8} draw" in out


def test_calibrate_on_junk_enrols_nothing_and_exits_1(tmp_path: Path) -> None:
    code, out, err = replay(tmp_path, JUNK, "calibrate", "rfid", "--kind", "tray",
                            "--only", "5p")
    assert code == 1, (out, err)
    assert err == ("companion: error: the RFID reader never answered (end of input: 155 bytes "
                   "came from stdin but no tray line: not a capture of the tray (another port "
                   "or device, or a log?) トレイの信号ではない); nothing was enrolled\n")


def test_calibrate_on_a_tray_capture_as_an_rdm6300_names_the_tray(tmp_path: Path) -> None:
    code, out, err = replay(tmp_path, TRAY_LINES, "calibrate", "rfid", "--kind", "rdm6300",
                            "--only", "5p")
    assert code == 1, (out, err)
    assert TRAY_KIND in err and "holds the RFID tray's protocol v1 lines" in err


@pytest.mark.parametrize(("data", "kind"), [(RDM6300_FRAMES, "tray"), (JUNK, "tray"),
                                            (JUNK, "rdm6300"), (b"", "tray")],
                         ids=["rdm6300 frames as the tray", "junk as the tray",
                              "junk as an rdm6300", "empty"])
def test_calibrate_on_a_capture_never_answered_does_not_say_run_it_again(
        tmp_path: Path, data: bytes, kind: str) -> None:
    """The same command replays the same capture to the same end: its stop line said "Run
    the same command again to start" above the error that says what to change (reviewr73
    NIT 6)."""
    code, out, err = replay(tmp_path, data, "calibrate", "rfid", "--kind", kind,
                            "--only", "5p")
    assert code == 1, (out, err)
    assert out.endswith("\nStopped; no sticker is enrolled.\n")
    assert "again" not in out
    assert err.endswith("; nothing was enrolled\n")


def test_calibrate_on_junk_after_stickers_saved_names_them_without_run_it_again(
        tmp_path: Path) -> None:
    saved = config_dir() / TAGMAP_FILENAME
    TagMap({"04A1B2C3": Tile.from_notation("7z")}).save(saved)
    code, out, err = replay(tmp_path, JUNK, "calibrate", "rfid", "--kind", "tray",
                            "--only", "5p")
    assert code == 1, (out, err)
    assert out.endswith(f"\nStopped; 1 sticker is saved in {saved}.\n")
    assert err.endswith("; nothing new was enrolled\n")


def test_calibrate_on_a_tray_capture_that_answered_says_how_to_carry_on(
        tmp_path: Path) -> None:
    """A capture the reader answered on ended "Run the same command again to carry on",
    and the same command refused its sticker as enrolled (reviewfw74 N9): the end says the
    same capture enrols no more and what does carry on; a rerun shows it is so."""
    end = (f"Stopped; 1 sticker is saved in {config_dir() / TAGMAP_FILENAME}. The same "
           "capture again enrols no more (its stickers are read): to carry on, enrol the "
           "next ones at the tray (the same command without --port -), or replay a capture "
           "of them.\n")
    code, out, err = replay(tmp_path, TRAY_LINES, "calibrate", "rfid", "--kind", "tray",
                            "--only", "5p")
    assert code == 0 and out.endswith(end), (code, out, err)
    code, out, err = replay(tmp_path, TRAY_LINES, "calibrate", "rfid", "--kind", "tray",
                            "--only", "5p")
    assert "Refused: sticker 04A1B2C3 is already enrolled as 5p" in out
    assert code == 0 and out.endswith(end), (code, out, err)
    assert len(TagMap.load(config_dir() / TAGMAP_FILENAME)) == 1
