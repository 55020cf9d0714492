"""COMPANION_CONFIG_DIR and COMPANION_DATA_DIR mistyped: a name nearly theirs, a value with a
stray space. Either sent the saves to a folder the player did not mean, without a word."""

from __future__ import annotations

import pytest

from companion.app.config import load_config


@pytest.mark.parametrize(("name", "meant"), [
    ("COMPANION_DATADIR", "COMPANION_DATA_DIR"), ("COMPANION_DATA_DIRS", "COMPANION_DATA_DIR"),
    ("COMPANION_CONFIG_DIRECTORY", "COMPANION_CONFIG_DIR")])
def test_a_folder_variable_misspelt_is_said(name: str, meant: str) -> None:
    """a77setup RISK 4: the games went to ~/.local/share, not the USB stick named."""
    config = load_config(env={name: "/media/pi/JR"})
    assert f"{name} is no setting; ignored (did you mean {meant}?)" in config.notices


def test_the_folder_variables_themselves_are_no_notice() -> None:
    assert load_config(env={"COMPANION_DATA_DIR": "/media/pi/JR",
                            "COMPANION_CONFIG_DIR": "/media/pi/JR/config"}).notices == ()
