"""What the tests of a user with no home folder share: the ``homeless`` fixture, which takes
the home folder away (tidy72: no test module imports another)."""

from __future__ import annotations

import pwd

import pytest


@pytest.fixture
def homeless(monkeypatch: pytest.MonkeyPatch) -> None:
    """No HOME, no XDG folders, no COMPANION_* folders; the user database knows no one (the
    edge platformdirs asks, through os.path.expanduser)."""
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "COMPANION_CONFIG_DIR",
                 "COMPANION_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)

    def nobody(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", nobody)
