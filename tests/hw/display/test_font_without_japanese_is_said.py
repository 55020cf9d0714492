"""a78screen RISK 3: a ``display.font`` with no Japanese in it (DejaVu Sans, a font a maker
may set by hand) is said, naming the file, that the screen shows no Japanese, and the cure:
once on stderr as the screen opens, and in ``config --show`` (a note, its line marked; the
exit stays 0, for the screen plays on in English). It dropped every Japanese half, saying
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.hw.display import fonts
from companion.hw.display.fonts import FontFile
from companion.hw.display.screen import ScreenDisplay

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

pytestmark = pytest.mark.skipif(not DEJAVU.is_file(), reason=f"{DEJAVU} is not installed")


@pytest.fixture(autouse=True)
def not_said_yet() -> None:
    """Each test a run of its own: the note is said once a run."""
    fonts.say_no_japanese.cache_clear()


def _said_of_dejavu(err: str) -> None:
    assert err.startswith(f"companion: note: display.font {DEJAVU} has no Japanese glyphs: "
                          "the screen shows no Japanese, "), err
    assert "set display.font to a font file with Japanese" in err
    assert "fonts-noto-cjk" in err and "or leave it unset" in err


def test_the_screen_says_a_font_without_japanese_once(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    for _ in range(2):  # opened again by each mode switched to
        screen = ScreenDisplay("800x480", font=FontFile(DEJAVU), find_font=False)
        assert not screen.has_cjk
        screen.close()
    err = capsys.readouterr().err
    _said_of_dejavu(err)
    assert err.count("\n") == 1


@pytest.mark.needs_japanese_font
def test_a_font_with_japanese_is_not_said(capsys: pytest.CaptureFixture[str]) -> None:
    font = fonts.find_cjk_font()
    assert font is not None
    ScreenDisplay("800x480", font=font, find_font=False).close()
    assert "Japanese glyphs" not in capsys.readouterr().err


def test_config_show_says_it_and_marks_the_line(user_dirs: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = user_dirs / "config"
    config.mkdir()
    (config / "config.toml").write_text(f'[display]\nfont = "{DEJAVU}"\n', encoding="utf-8")
    assert main(["config", "--show"]) == 0  # a note: the screen plays on
    out, err = capsys.readouterr()
    _said_of_dejavu(err)
    line = out.index("display.font ")
    assert "no Japanese in it: the screen shows English only" in out[line:line + 200], \
        out[line:line + 200]
