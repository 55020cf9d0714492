"""r77dice (left by the a77dice DEFECT 2 fix): at ``calibrate dice --enrol``'s "press Enter"
prompt anything typed but ``u`` was taken for Enter: values typed before the camera's read
("3 4" piped ahead) read the next picture unsaid, and every later answer went to the prompt
after its own. Such an answer is said, with the keys that answer there, and asked again."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import pytest

from companion.app import cli
from tests.dice_scenes import still_scene


def test_an_answer_other_than_enter_or_u_is_said_and_asked_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "throws"
    folder.mkdir()
    first = still_scene(700, 2)
    second = still_scene(720, 2, unlike=tuple(sorted(d.value for d in first.dice)))
    for name, scene in (("a.png", first), ("b.png", second)):
        cv2.imwrite(str(folder / name), scene.image)
    # "3 4" before the first read, "5" before the second: each refused, then Enter reads
    # the picture and Enter keeps the camera's read
    monkeypatch.setattr("sys.stdin", io.StringIO("3 4\n\n\n5\n\n\n"))
    assert cli.main(["calibrate", "dice", "--enrol", "--source", str(folder),
                     "--throws", "2"]) == 0
    out = capsys.readouterr().out
    assert ("picture, a.png:\n  '3 4' is no answer here: press Enter; the values are typed "
            "once the camera has read the throw\nThrow 1 of 2 (2 dice): press Enter to read "
            "the next picture, a.png:\n  a.png: the camera read") in out
    assert ("  '5' is no answer here: press Enter, or u to undo throw 1; the values are "
            "typed once the camera has read the throw\nThrow 2 of 2 (2 dice): press Enter "
            "to read the next picture, b.png; u: undo throw 1:\n  b.png: the camera read") in out
    assert "enrolled 4 dice from 2 throws; 4 dice enrolled in all" in out


def test_a_folder_with_every_picture_read_asks_no_next_picture(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "throws"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), still_scene(700, 2).image)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n\n"))
    assert cli.main(["calibrate", "dice", "--enrol", "--source", str(folder),
                     "--throws", "2"]) == 0
    out = capsys.readouterr().out
    # it asked to "read the next picture" of a folder that held no more
    assert ("Throw 2 of 2 (2 dice): throws holds no more pictures: press Enter to finish; "
            "u: undo throw 1:\n") in out
    assert out.count("read the next picture") == 1  # a.png's only


class Keyboard(io.StringIO):
    """The player typing at a terminal, where the last throw may still be undone."""

    def isatty(self) -> bool:
        return True


def test_an_answer_other_than_enter_or_u_at_the_finish_is_said_and_asked_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """r77dice NIT on 80b8d04c: at "u: undo throw 1 (…); Enter: finish" anything typed but u
    finished, as Enter."""
    picture = tmp_path / "a.png"
    cv2.imwrite(str(picture), still_scene(700, 2).image)
    # Enter reads the picture, Enter keeps the read; then "3" is refused, u undoes the
    # throw asked of again
    monkeypatch.setattr("sys.stdin", Keyboard("\n\n3\nu\n"))
    assert cli.main(["calibrate", "dice", "--enrol", "--source", str(picture),
                     "--throws", "1"]) == 1
    out = capsys.readouterr().out
    assert ("; Enter: finish\n  '3' is no answer here: press Enter to finish, or u to undo "
            "throw 1\nu: undo throw 1 (") in out
    assert "  undone: throw 1 (" in out
