"""Shared fixtures. Tests reach the outside world only through the stand-ins the brief names."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
import pytest
from hypothesis import HealthCheck, settings

from companion.app.paths import APP_NAME

# Every test that touches pygame draws into memory, never onto a screen.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

if TYPE_CHECKING:
    from companion.hw.display.screen import ScreenDisplay


# Hypothesis builds its table of characters on its first text drawn, which on a clean clone
# of a loaded machine took long enough to fail its health check (robust59 F2); no property
# test here is about speed.
settings.register_profile("companion", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")


# ---- where the tests' files go --------------------------------------------------------
# A game keeps its save on the disk at every step: an atomic write with two fsyncs, as the
# player's game must survive a power cut. A test plays whole games, and on a disk those
# fsyncs were most of the suite's time (a two-game test: 17 s; on RAM, 1.3 s). So the
# tests' temporary folders (tmp_path, and the companions they start, through TMPDIR) go
# in the RAM-backed /dev/shm where there is one with room: the same system calls, only
# not waited on. A TMPDIR set by whoever runs the tests is kept.
_RAM_FOLDER = Path("/dev/shm")
_RAM_ROOM_NEEDED = 2 * 1024**3


def _ram_folder_with_room() -> Path | None:
    try:
        usage = os.statvfs(_RAM_FOLDER)
    except OSError:
        return None
    if not os.access(_RAM_FOLDER, os.W_OK | os.X_OK):
        return None
    return _RAM_FOLDER if usage.f_bavail * usage.f_frsize >= _RAM_ROOM_NEEDED else None


if "TMPDIR" not in os.environ and (_ram := _ram_folder_with_room()) is not None:
    os.environ["TMPDIR"] = str(_ram)
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again


# ---- fonts a test needs ------------------------------------------------------------------
# The screen draws Japanese only with a Japanese font installed (fonts-noto-cjk), and the
# tile renderer Unicode's Mahjong Tiles only with a font of them (fonts-symbola); without,
# the screen draws the English halves, and a test of what the Japanese looks like has
# nothing to check. Such a test is marked ``needs_japanese_font`` (``needs_tile_font``)
# and skipped, with what to install, on a machine without; the run ends with one line
# saying how many were (font62: 219 of them failed on a fresh Debian).
JAPANESE_FONT_MISSING = "no Japanese font (apt-get install fonts-noto-cjk)"
TILE_FONT_MISSING = "no font of Unicode's Mahjong Tiles (apt-get install fonts-symbola)"
_FONT_PACKAGES = ("fonts-noto-cjk", "fonts-symbola")  # a skip naming one is counted for it


@functools.cache
def has_japanese_font() -> bool:
    """Whether the screen finds a font that draws Japanese, as :class:`ScreenDisplay` asks
    it (a glyph for its probe); said without the screen's note on stderr."""
    import pygame.freetype

    from companion.hw.display import fonts

    with contextlib.redirect_stderr(io.StringIO()):
        font = fonts.find_cjk_font()
    fonts.say_no_font.cache_clear()  # the note is still said once, to the run that has none
    if font is None:
        return False
    pygame.freetype.init()
    try:
        face = pygame.freetype.Font(str(font.path), 16, font_index=font.index)
    except (OSError, pygame.error):
        return False
    return face.get_metrics(fonts.JAPANESE_PROBE)[0] is not None


@functools.cache
def has_tile_font() -> bool:
    from companion.hw.camera import tile_faces

    return bool(tile_faces.find_tile_fonts())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("needs_japanese_font") and not has_japanese_font():
            item.add_marker(pytest.mark.skip(reason=JAPANESE_FONT_MISSING), append=False)
        if item.get_closest_marker("needs_tile_font") and not has_tile_font():
            item.add_marker(pytest.mark.skip(reason=TILE_FONT_MISSING), append=False)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> Iterator[None]:
    """One line at the end (after the short summary, before the counts) naming the font
    packages whose absence skipped tests."""
    yield
    skipped: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[-1] if isinstance(longrepr, tuple | list) else longrepr
        for package in _FONT_PACKAGES:
            if package in str(reason):
                skipped[package] = skipped.get(package, 0) + 1
    if skipped:
        counts = ", ".join(f"{n} for {package}" for package, n in skipped.items())
        terminalreporter.write_line(
            f"{sum(skipped.values())} tests skipped for a missing font ({counts}): "
            f"sudo apt-get install {' '.join(skipped)} fontconfig, then run them again",
            yellow=True)


# The autouse fixtures below patch with a MonkeyPatch of their own, not the test's
# ``monkeypatch``: a test calling ``monkeypatch.undo()`` (to end its own patch midway) undid
# theirs too, and went on with the player's real folders: test_log_two_games_resumed put two
# games (seeds 1 and 3) in ~/.local/share/jongrogue-companion/history.sqlite3 at every run
# (leak75).


def _players_folders() -> tuple[Path, ...]:
    """The platform's config and data folders of the companion, the player's own (what
    paths.py gives with no ``COMPANION_*`` variable), taken once as the run starts, before a
    test points HOME elsewhere; none when this user has no home folder."""
    try:
        return (Path(platformdirs.user_config_dir(APP_NAME)),
                Path(platformdirs.user_data_dir(APP_NAME)))
    except RuntimeError:
        return ()


def _what_is_in(folders: tuple[Path, ...]) -> dict[str, tuple[int, int]]:
    """Each file and folder under ``folders``, as (modified time, size)."""
    seen: dict[str, tuple[int, int]] = {}
    for folder in folders:
        for root, _folders, files in os.walk(folder):
            for path in [root, *(os.path.join(root, name) for name in files)]:
                with contextlib.suppress(OSError):  # gone meanwhile: missing after
                    stat = os.stat(path)
                    seen[path] = (stat.st_mtime_ns, stat.st_size)
    return seen


@pytest.fixture(scope="session")
def players_folders() -> tuple[Path, ...]:
    return _players_folders()


@pytest.fixture(autouse=True)
def nothing_written_to_the_players_folders(players_folders: tuple[Path, ...]) -> Iterator[None]:
    """A test that creates, changes or removes anything in the player's real config or data
    folder fails (in its teardown): tests keep to their temporary folders. (Another process
    writing there meanwhile, a companion run by hand or another test run, is blamed too:
    the message says so.)"""
    before = _what_is_in(players_folders)
    yield
    after = _what_is_in(players_folders)
    if after != before:
        changed = sorted(path for path in before.keys() | after.keys()
                         if before.get(path) != after.get(path))
        pytest.fail("this test wrote to the player's own folders, not its temporary ones "
                    f"(or another process did meanwhile): {', '.join(changed)}",
                    pytrace=False)


@pytest.fixture(autouse=True)
def user_dirs(tmp_path: Path) -> Iterator[Path]:
    """Keep every test's config and data in its own temporary folder, with no setting the
    shell exported (``COMPANION_GAME_PRESET``: robust59 F4) and a terminal of 80 columns,
    which output read by the tests is written for, whatever ``COLUMNS`` the shell has (F3);
    a test of another width sets its own."""
    with pytest.MonkeyPatch.context() as patch:
        for name in [name for name in os.environ if name.startswith("COMPANION_")]:
            patch.delenv(name)
        patch.setenv("COLUMNS", "80")
        patch.delenv("LINES", raising=False)
        patch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
        patch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
        yield tmp_path


@pytest.fixture(scope="session")
def companion_bin(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """A folder holding only a ``companion`` that is this venv's (None: no such script)."""
    script = Path(sys.executable).parent / "companion"
    if not script.is_file():
        return None
    folder = tmp_path_factory.mktemp("companion-on-path")
    (folder / "companion").symlink_to(script)
    return folder


@pytest.fixture(autouse=True)
def companion_on_the_path(companion_bin: Path | None) -> Iterator[None]:
    """``companion`` on the PATH, as install-pi.sh leaves a Pi's: the hints that name it
    (:func:`~companion.app.command_name.companion_command`) read the same whether the shell
    running the tests has the venv activated or not (setup66 D1). A test of the PATH
    scripts/bootstrap.sh leaves, with no ``companion`` on it, sets its own."""
    with pytest.MonkeyPatch.context() as patch:
        if companion_bin is not None:
            patch.setenv("PATH", f"{companion_bin}{os.pathsep}{os.environ.get('PATH', '')}")
        yield


@pytest.fixture(autouse=True)
def nobody_reads_the_stop_screen() -> Iterator[None]:
    """No key is ever pressed on a test's screen: the error that stops `companion play` is
    drawn there and left at once, where a player would have a minute to read it."""
    from companion.app.commands.play import telling

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(telling, "STOP_SHOWN_SECONDS", 0)
        yield


@pytest.fixture(scope="module")
def screen() -> Iterator[ScreenDisplay]:
    """The smallest screen the companion is made for, 800x480, that a module's texts must
    fit; a module that tries every layout has a ``screen`` of its own."""
    from companion.hw.display.screen import ScreenDisplay

    display = ScreenDisplay("800x480")
    yield display
    display.close()
