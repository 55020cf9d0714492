"""The event tests' shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systems.events.helpers import PARTY, RATINGS


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    """A sw-mode party (Aki, Ben) and a rating table whose base powers are 4 and 1."""
    party, ratings = tmp_path / "party.toml", tmp_path / "ratings.csv"
    party.write_text(PARTY, encoding="utf-8")
    ratings.write_text(RATINGS, encoding="utf-8")
    return party, ratings
