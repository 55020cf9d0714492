"""Save files and what keeps a game: edges no other test pinned (mutation round 3)."""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.session.save import SEED_LIMIT, SaveGame
from companion.errors import DataError


def save_with(**fields: object) -> str:
    raw = json.loads(SaveGame(seed=1, preset="ez").to_json())
    raw.update(fields)
    return json.dumps(raw)


@pytest.mark.parametrize(("fields", "reason"), [
    ({"seed": SEED_LIMIT}, f"seed {SEED_LIMIT} is too large (a seed is below 2**63)"),
    ({"seed": -SEED_LIMIT - 1}, f"seed {-SEED_LIMIT - 1} is too small (a seed is -2**63 or "
     "more)"),
    ({"log_start": -1}, "events and log_start cannot be negative"),
    ({"events": -1}, "events and log_start cannot be negative"),
])
def test_a_save_field_out_of_its_range_is_refused_naming_it(fields: dict[str, object],
                                                            reason: str) -> None:
    with pytest.raises(DataError, match=re.escape(reason)):
        SaveGame.from_json(save_with(**fields), "save.json")


@pytest.mark.parametrize("fields", [{"seed": SEED_LIMIT - 1},
                                    {"seed": -SEED_LIMIT}, {"log_start": 0, "events": 0}])
def test_a_save_field_at_the_end_of_its_range_is_read(fields: dict[str, object]) -> None:
    save = SaveGame.from_json(save_with(**fields), "save.json")
    assert all(getattr(save, key) == value for key, value in fields.items())



def test_a_save_folder_the_full_disk_cannot_make_lets_the_game_play_unsaved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The disk refuses the --state file's new folder (full): as for a save the disk
    refuses, the game plays on, told it is not saved, and is not stopped at the start."""
    folder = tmp_path / "card" / "saves"
    real = os.mkdir

    def mkdir(path: Any, *args: Any, **kwargs: Any) -> None:
        if Path(path) == folder:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", mkdir)
    assert main(["play", "--headless", "--seed", "3", "--state", str(folder / "save.json")]) == 0
    err = capsys.readouterr().err
    assert "cannot be made" not in err and os.strerror(errno.ENOSPC) in err
    assert not folder.exists()
