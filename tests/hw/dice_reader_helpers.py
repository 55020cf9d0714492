"""A dice reader's settings read from a dice.toml written for the test."""

from __future__ import annotations

from pathlib import Path

from companion.hw.dice.reader_config import ReaderConfig


def read_dice_toml(tmp_path: Path, text: str) -> ReaderConfig:
    """What ``ReaderConfig.load`` makes of a dice.toml holding ``text``."""
    path = tmp_path / "dice.toml"
    path.write_text(text)
    return ReaderConfig.load(path)
