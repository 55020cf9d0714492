"""setup71 RISK 3: a user with no home folder (HOME unset and no entry in the user database,
as a container run with a numeric ``--user`` is) is told what to set, not given
platformdirs' traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.home_helpers import homeless  # noqa: F401  (the fixture)


def said(unset: str) -> str:
    return (f"companion: error: this user has no home folder (HOME is not set, and the user "
            f"database has no entry for user id {os.getuid()}): set HOME, or {unset} to "
            "full paths\n")


@pytest.mark.usefixtures("homeless")
@pytest.mark.parametrize("command", [["config"], ["history"], ["play", "--headless"]])
def test_a_user_with_no_home_folder_is_told_what_to_set(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(command) == 2
    assert capsys.readouterr().err == said("COMPANION_CONFIG_DIR and COMPANION_DATA_DIR")


@pytest.mark.usefixtures("homeless")
def test_only_the_folder_not_set_is_named(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path))
    assert main(["history"]) == 2
    assert capsys.readouterr().err == said("COMPANION_DATA_DIR")
