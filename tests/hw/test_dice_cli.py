"""``companion dice read`` and ``companion calibrate dice`` on rendered photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.render import SceneKind, Table, render_scene


def _photo(tmp_path: Path, name: str, seed: int, kind: SceneKind,
           table: Table | None = None) -> tuple[Path, list[int]]:
    scene = render_scene(seed, kind=kind, table=table, count=None if kind is SceneKind.EMPTY
                         else 3)
    path = tmp_path / name
    cv2.imwrite(str(path), scene.image)
    return path, sorted(d.value for d in scene.dice)


def test_dice_read_json_gives_one_object_per_image(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    dice, truth = _photo(tmp_path, "dice.png", 24, SceneKind.LOOSE)
    empty, _ = _photo(tmp_path, "empty.png", 25, SceneKind.EMPTY)
    assert cli.main(["dice", "read", str(dice), str(empty), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["image"] for r in rows] == [str(dice), str(empty)]
    first, second = rows
    assert len(first["dice"]) == len(first["confidence"])
    if first["status"] == "ok":
        assert sorted(first["dice"]) == truth
    else:
        assert first["status"] == "unsure" and None in first["dice"]
    assert second == {"image": str(empty), "dice": [], "confidence": [], "status": "no dice",
                      "message": "no dice in view"}


def test_dice_read_names_a_file_it_cannot_open(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.png"
    bad.write_text("not a picture")
    assert cli.main(["dice", "read", str(bad), str(tmp_path), str(tmp_path / "gone.jpg")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{bad}: - (not a picture that can be read)",
                   f"{tmp_path}: - (a folder, not a picture)",
                   f"{tmp_path / 'gone.jpg'}: - (no such file)"]


def test_calibrate_dice_saves_thresholds_the_reader_then_uses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = None
    for seed in range(700, 720):
        scene = render_scene(seed, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
        photo = tmp_path / f"calib{seed}.png"
        cv2.imwrite(str(photo), scene.image)
        if cli.main(["calibrate", "dice", "--source", str(photo), "--count", "2",
                     "--frames", "2"]) == 0:
            break
    out = capsys.readouterr().out
    saved = config_dir() / "dice.toml"
    assert saved.exists(), out
    assert "read 2 dice" in out
    tuned = ReaderConfig.load(saved)
    sides = [d.side_px for d in scene.dice]
    assert tuned.min_face_px < min(sides) and tuned.max_face_px > max(sides)


def test_calibrate_dice_saves_nothing_when_no_dice_are_seen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo, _ = _photo(tmp_path, "empty.png", 26, SceneKind.EMPTY)
    assert cli.main(["calibrate", "dice", "--source", str(photo), "--frames", "1"]) == 1
    assert "Not saved" in capsys.readouterr().out
    assert not (config_dir() / "dice.toml").exists()


def test_calibrate_dice_without_a_camera_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["calibrate", "dice", "--source", "/no/such/camera"]) == 1
    assert "no such camera" in capsys.readouterr().err


def test_roll_reads_the_tile_camera_when_the_dice_camera_is_auto(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """dice.camera_source "auto" is input.camera_source: the camera over the mat sees the
    dice too, so a Pi camera set once for tiles reads dice as well."""
    photo, truth = _photo(tmp_path, "dice.png", 24, SceneKind.LOOSE)
    monkeypatch.setenv("COMPANION_INPUT_CAMERA_SOURCE", str(photo))
    assert cli.main(["roll", "3D6", "--dice", "camera", "--json"]) == 0
    rolled = json.loads(capsys.readouterr().out)
    assert sorted(d["value"] for d in rolled["dice"]) == truth


def test_calibrate_dice_waits_a_little_for_a_camera_then_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """camera:7 does not exist here: OpenCV really tries it, and the words say so."""
    assert cli.main(["calibrate", "dice", "--source", "camera:7"]) == 1
    assert "no frames from 'camera:7': no camera at 7" in capsys.readouterr().err
