"""Opening an ONNX model for CPU inference; onnxruntime is imported here only, when needed."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from companion.errors import DataError


def open_session(path: Path, what: str, hint: str, threads: int = 1) -> Any:
    """An onnxruntime session on ``path`` using ``threads`` CPU threads.

    A missing, empty or broken file, or a folder, is a DataError naming the file, ``what``
    it holds and ``hint`` (what the player can do about it).
    """
    if path.is_dir():
        raise DataError(f"{path}: a folder, not the {what}; {hint}")
    if not path.is_file():
        raise DataError(f"{path}: the {what} is missing; {hint}")
    if path.stat().st_size == 0:  # onnxruntime said only "InvalidArgument" (camera75 NIT 3)
        raise DataError(f"{path}: the {what} file is empty (0 bytes: a cut copy?); {hint}")
    # No usage events to Microsoft, no ~/.cache/Microsoft: read as onnxruntime starts
    # (companion/__init__.py sets it first; this is where onnxruntime is loaded).
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    import onnxruntime  # lazily: only the camera paths need it

    disable_events = getattr(onnxruntime, "disable_telemetry_events", None)
    if os.environ["ORT_DISABLE_TELEMETRY"] == "1" and disable_events is not None:
        disable_events()  # and by its API too, for the events that covers
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    try:
        return onnxruntime.InferenceSession(str(path), options,
                                            providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors on bad files
        raise DataError(f"{path}: the {what} cannot be loaded ({exc.__class__.__name__}); "
                        f"{hint}") from exc


def fingerprint(path: Path) -> str:
    """Which model file this is: an enrolment keeps it, for its embeddings mean something
    only to the model that made them."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
