"""The screen's Japanese font without fontconfig (env58 R3): fonts-noto-cjk does not bring
fc-match, so the font on disk is found where Debian's packages put it; none found is said
in one line with what to install."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.hw.display import fonts
from companion.hw.display.fonts import FontFile, find_cjk_font

NOTO = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


@pytest.fixture
def no_fc_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PATH with no fc-match on it (fontconfig not installed)."""
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


@pytest.fixture(autouse=True)
def not_said_yet() -> None:
    """Each test a run of its own: the note is said once a run."""
    fonts.say_no_font.cache_clear()


def stand_in_fonts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                   present: tuple[bool, ...]) -> list[FontFile]:
    """Font files in the known places, each on disk or not as ``present`` says."""
    known = [FontFile(tmp_path / "fonts" / f"font{i}.ttc") for i in range(len(present))]
    for font, there in zip(known, present, strict=True):
        if there:
            font.path.parent.mkdir(exist_ok=True)
            font.path.write_bytes(b"a font")
    monkeypatch.setattr(fonts, "KNOWN_FILES", tuple(known), raising=False)
    return known


@pytest.mark.usefixtures("no_fc_match")
def test_without_fc_match_the_first_known_font_on_disk_is_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    known = stand_in_fonts(tmp_path, monkeypatch, (False, True, True))
    assert find_cjk_font() == known[1]
    assert capsys.readouterr().err == ""


def test_fc_match_finding_none_falls_back_too(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """fontconfig that knows no Japanese font (its cache not seeing the folder) answers with
    some other font: the one on disk is still taken."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fc_match = bin_dir / "fc-match"
    fc_match.write_text("#!/bin/sh\nprintf '/usr/share/fonts/DejaVuSans.ttf\\n0\\nen|fr'\n",
                        encoding="utf-8")
    fc_match.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    known = stand_in_fonts(tmp_path, monkeypatch, (True,))
    assert find_cjk_font() == known[0]


@pytest.mark.usefixtures("no_fc_match")
def test_no_japanese_font_is_said_with_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    stand_in_fonts(tmp_path, monkeypatch, (False, False))
    assert find_cjk_font() is None
    err = capsys.readouterr().err
    assert err.startswith("companion: note: no Japanese font found: the screen shows the "
                          "English halves of its words only; ")
    assert "sudo apt install fonts-noto-cjk fontconfig" in err and err.count("\n") == 1


@pytest.mark.usefixtures("no_fc_match")
def test_no_japanese_font_is_said_once_a_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """review58a N-8: the screen opened again (the boot service's wait, then play; a mode
    switched to and back) said it each time."""
    from companion.hw.display import open_display

    stand_in_fonts(tmp_path, monkeypatch, (False,))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for _ in range(2):
        open_display("screen").close()
    assert capsys.readouterr().err.count("no Japanese font found") == 1


@pytest.mark.usefixtures("no_fc_match")
def test_a_configured_font_is_not_looked_past(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``display.font`` wins; one missing is refused by its setting (play), not replaced."""
    stand_in_fonts(tmp_path, monkeypatch, (True,))
    assert find_cjk_font(str(tmp_path / "missing.ttf")) is None
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(not NOTO.is_file(), reason="fonts-noto-cjk is not installed here")
@pytest.mark.usefixtures("no_fc_match")
def test_the_noto_collection_found_without_fontconfig_draws_japanese() -> None:
    """The known Noto file's first face is the JP one: the screen draws Japanese with it."""
    from companion.hw.display.screen import ScreenDisplay

    assert os.environ["PATH"].endswith("bin")
    found = find_cjk_font()
    assert found == FontFile(NOTO)
    display = ScreenDisplay("800x480", font=found, find_font=False)
    display.close()
    assert display.has_cjk
