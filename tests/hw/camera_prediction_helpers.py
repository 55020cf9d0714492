"""A tile classifier's output for one crop, best first, for the camera reader tests."""

from __future__ import annotations

import numpy as np

from companion.hw.camera.classifier import Prediction
from companion.hw.ports import Candidate


def predicted(*candidates: tuple[str, float]) -> Prediction:
    """A classifier's output for one crop, best first (the embedding is not looked at)."""
    return Prediction(tuple(Candidate(label, c) for label, c in candidates),
                      np.zeros(4, np.float32))
