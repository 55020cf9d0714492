"""a77dice DEFECT 2: ``calibrate dice --enrol`` from a folder never named the picture whose
values the player typed, passed over a picture that cannot be read in silence (every later
value then went onto the wrong photo), and an undone or left-out throw did not say which
picture it had used up."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.hw.camera import capture
from tests.dice_scenes import still_scene


def enrolling(stdin: str, monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return cli.main(["calibrate", "dice", "--enrol", *args])


def throws(folder: Path, names: tuple[str, str]) -> list[str]:
    """Photos of two different throws in ``folder`` under ``names``; their values as typed."""
    first = still_scene(700, 2)
    second = still_scene(720, 2, unlike=tuple(sorted(d.value for d in first.dice)))
    folder.mkdir()
    for name, scene in zip(names, (first, second), strict=True):
        cv2.imwrite(str(folder / name), scene.image)
    return [" ".join(map(str, sorted(d.value for d in scene.dice))) for scene in (first, second)]


def test_each_picture_is_named_and_one_that_cannot_be_read_is_said_and_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "throws"
    typed = throws(folder, ("a.png", "c.png"))
    (folder / "b.png").write_text("junk")
    assert enrolling("\n\n\n\n\n", monkeypatch, "--source", str(folder), "--throws", "3") == 0
    out = capsys.readouterr().out
    assert "Throw 1 of 3 (2 dice): press Enter to read the next picture, a.png:\n" in out
    assert f"  a.png: the camera read {typed[0]}\n" in out
    assert ("Throw 2 of 3 (2 dice): press Enter to read the next picture, b.png; u: undo "
            "throw 1:\n  b.png: not a picture that can be read; skipped\n") in out
    assert "press Enter to read the next picture, c.png; u: undo throw 1:\n" in out
    assert f"  c.png: the camera read {typed[1]}\n" in out
    assert "when they lie still" not in out
    assert ("enrolled 4 dice from 2 throws; 1 throw left out (b.png: not a picture that can "
            "be read); 4 dice enrolled in all") in out


def test_an_undone_and_a_left_out_throw_name_their_pictures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "throws"
    typed = throws(folder, ("01.png", "02.png"))
    # 01.png kept as read, then undone; 02.png left out with r; the folder then runs out
    assert enrolling("\n\nu\n\nr\n\n", monkeypatch, "--source", str(folder),
                     "--throws", "2") == 1
    out = capsys.readouterr().out
    assert (f"  undone: throw 1 ({typed[0]}) is no longer enrolled (to enrol 01.png again, "
            "give it as --source in another run)\n") in out
    assert "  02.png: throw left out\n" in out
    assert "1 throw left out (02.png: left out by you)" in out


def test_the_names_are_those_of_the_pictures_the_source_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """r77dice NIT on 80b8d04c: the enrolment listed the folder a second time, so a source
    that takes other files than that listing (here one reading .png only) had each throw
    named after another photo than the one read."""
    folder = tmp_path / "throws"
    typed = throws(folder, ("a.jpg", "b.png"))
    monkeypatch.setattr(capture, "IMAGE_SUFFIXES", (".png",))
    assert enrolling("\n\n", monkeypatch, "--source", str(folder), "--throws", "1") == 0
    out = capsys.readouterr().out
    assert "Throw 1 of 1 (2 dice): press Enter to read the next picture, b.png:\n" in out
    assert f"  b.png: the camera read {typed[1]}\n" in out
    assert "a.jpg" not in out
