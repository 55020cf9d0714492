"""reviews71 NIT 3: a user with no home folder whose HOME is set but relative or empty (which
platformdirs refuses as it does an unset one) is told what HOME holds, not "HOME is not set"."""

from __future__ import annotations

import os

import pytest

from companion.app.cli import main
from tests.app.home_helpers import homeless  # noqa: F401  (the fixture)


@pytest.mark.usefixtures("homeless")
@pytest.mark.parametrize(("home", "why"), [("rel/home", "HOME=rel/home is not a full path"),
                                           ("", "HOME is empty")])
def test_a_home_that_is_set_but_no_full_path_is_said_as_it_is(
        home: str, why: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("HOME", home)
    assert main(["history"]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: this user has no home folder ({why}, and the user database has "
        f"no entry for user id {os.getuid()}): set HOME to a full path, or "
        "COMPANION_CONFIG_DIR and COMPANION_DATA_DIR to full paths\n")
