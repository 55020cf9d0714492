"""Fixtures of the app's tests."""

from __future__ import annotations

import pytest

from companion.hw.camera.classifier import TileClassifier


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    """The real tile classifier, loaded once a module (a module may make its own)."""
    return TileClassifier()
