"""Another tile model for calibrate camera (cal66's tests; tidy72c: no test module imports
another)."""

from __future__ import annotations

import shutil
from pathlib import Path

from companion.hw.camera.classifier import default_model_path


def another_model(tmp_path: Path) -> Path:
    """A tile model the game does not read with: the packaged one with a field it ignores (another
    fingerprint), beside its metadata."""
    model = default_model_path()
    other = tmp_path / "model" / model.name
    other.parent.mkdir()
    other.write_bytes(model.read_bytes() + b"\xa0\x06\x00")  # an unknown field 100 = 0
    shutil.copy(model.with_suffix(".json"), other.with_suffix(".json"))
    return other
