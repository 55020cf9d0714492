"""``companion events … --dice camera`` on rendered throws (events64 D2, R1): a die the
camera cannot read is asked on the terminal, saying why, and the walk goes on; every throw
is said before the camera waits for it, how many dice and what for."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import cv2
import pytest

from companion.app.cli import main
from companion.app.commands.roll import CameraThrows
from companion.app.poisons import PoisonList, poisons_path
from companion.dice import ManualDice, ScriptedDice
from companion.errors import CompanionError
from companion.hw.dice.source import CameraDiceSource
from companion.systems.events.run import run_event
from tests.app.events_camera_helpers import die_showing, throws

POISON_TABLE = "the Poison / status ailment 毒・状態異常 table (EV-POI-4)"


def test_a_poison_walk_s_d4_is_typed_and_the_walk_is_tracked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """EV-POI-4's 6 (EV-POI-9), its duration and ± die thrown under the camera, the D4 for
    the ability typed: the command ended with exit 2 at the D4 ("the camera reads
    six-sided pip dice only, not D4; use simulated or typed dice for this roll"), after
    the table and the duration were thrown, with nothing walked printed or tracked."""
    source = throws(tmp_path / "throws", 6, 2, 4)
    monkeypatch.setattr(sys, "stdin", io.StringIO("3\n"))
    assert main(["events", "poison", "--dice", "camera", "--source", str(source)]) == 0
    out, err = capsys.readouterr()
    walk = run_event("poison", ScriptedDice([(6, 6), (6, 2), (4, 3), (6, 4)]))
    assert walk.text in out
    assert walk.find("EV-POI-9")  # the D4 was walked
    said = " ".join(err.split())  # within 80 columns
    assert ("the camera reads D6 only 6面ダイスのみ: throw the 1D4 yourself and type it "
            "Roll 1D4 for which ability 能力値 and type the value 出目を入力:") in said
    (name,) = PoisonList(poisons_path()).poisons
    assert name in out and "Tracking" in out


def test_each_camera_throw_is_said_before_it_is_waited_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The monster table's 1D6, then its count: between them the player saw only "throw
    taken: pick the dice up and throw them again", never what the next throw was for."""
    source = throws(tmp_path / "throws", 5, 3)
    assert main(["events", "monster", "--dice", "camera", "--source", str(source)]) == 0
    out, err = capsys.readouterr()
    assert run_event("monster", ScriptedDice([(6, 5), (6, 3)])).text in out
    lines = err.splitlines()
    table = lines.index("Throw 1D6 1D6を振って: the Monsters モンスター table (EV-MON-1)")
    count = lines.index("Throw 1D6 1D6を振って: how many monsters 何体 (1D6)")
    assert table == 0 and "read 読み取り 5" in lines[table:count]  # the first throw's read,
    assert "read 読み取り 3" in lines[count:]  # then the count's


def test_a_still_picture_is_not_told_to_be_thrown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A photo is read as it lies: no "Throw 1D6" before it."""
    picture = tmp_path / "die.png"
    cv2.imwrite(str(picture), die_showing(4))
    assert main(["roll", "1D6", "--dice", "camera", "--source", str(picture)]) == 0
    out, err = capsys.readouterr()
    assert "(1D6) ＞ 4" in out and "Throw" not in err


def test_a_die_typed_for_the_camera_ends_cleanly_with_the_input() -> None:
    """The typed die's input ending is the typed dice' end (DiceInputEnded), naming it."""
    said: list[str] = []

    def ended(prompt: str) -> str:
        said.append(prompt)
        raise EOFError

    camera = CameraThrows(CameraDiceSource(frames=[]), said.append, ManualDice(ended))
    with pytest.raises(CompanionError, match=r"the input ended before which ability 能力値 "
                                             r"\(1D4\) was typed"):
        camera.roll(1, 4, purpose="which ability 能力値")
    assert said == ["the camera reads D6 only 6面ダイスのみ: throw the 1D4 yourself and type it",
                    "Roll 1D4 for which ability 能力値 and type the value 出目を入力: "]


def test_a_camera_not_plugged_in_is_said_before_any_throw_is_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The throw is said once the camera is open: one not plugged in is the error alone,
    with no "Throw 1D6" for a throw that cannot be read."""
    if Path("/dev/video7").exists():
        pytest.skip("/dev/video7 is there")
    assert main(["events", "monster", "--dice", "camera", "--source", "camera:7"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: error: no camera at camera:7") and "Throw" not in err
