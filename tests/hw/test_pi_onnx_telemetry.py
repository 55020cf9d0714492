"""onnxruntime's telemetry is off: its official builds (Linux and the Pi's included) send
usage events to Microsoft and keep a device id and an event database under
~/.cache/Microsoft unless ORT_DISABLE_TELEMETRY=1 is set before it starts (its Privacy.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hw.onnx_session import open_session
from tests.companion_process import ROOT

MODEL = ROOT / "models" / "tile_classifier.onnx"

# A stand-in onnxruntime that notes the opt-out as it is imported and as a session is made.
_FAKE_ORT = """
import os
AT_IMPORT = os.environ.get("ORT_DISABLE_TELEMETRY")
AT_SESSION = []
EVENTS_DISABLED = []
def disable_telemetry_events():
    EVENTS_DISABLED.append(True)
class SessionOptions:
    pass
class InferenceSession:
    def __init__(self, path, options, providers):
        AT_SESSION.append(os.environ.get("ORT_DISABLE_TELEMETRY"))
"""


def test_the_opt_out_is_set_before_onnxruntime_is_imported_and_a_session_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "onnxruntime").mkdir()
    (tmp_path / "onnxruntime" / "__init__.py").write_text(_FAKE_ORT)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "onnxruntime", raising=False)
    monkeypatch.delenv("ORT_DISABLE_TELEMETRY", raising=False)
    model = tmp_path / "model.onnx"
    model.write_bytes(b"not empty: an empty model is refused before onnxruntime is loaded")
    open_session(model, "test model", "no hint")
    import onnxruntime  # the stand-in, as open_session imported it

    assert (onnxruntime.AT_IMPORT, onnxruntime.AT_SESSION) == ("1", ["1"])
    assert onnxruntime.EVENTS_DISABLED == [True]


def test_importing_the_companion_sets_the_opt_out_and_keeps_a_players_own() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    code = "import os, companion; print(os.environ['ORT_DISABLE_TELEMETRY'])"
    said = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True).stdout
    assert said.strip() == "1"
    said = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, text=True,
                          env={**env, "ORT_DISABLE_TELEMETRY": "0"}, capture_output=True).stdout
    assert said.strip() == "0"


@pytest.mark.skipif(not MODEL.is_file(), reason="needs the tile model")
def test_reading_tiles_writes_nothing_of_microsofts_under_home(tmp_path: Path) -> None:
    """A tile model opened as the camera path opens it, in a process of its own whose HOME
    is empty: onnxruntime's telemetry kept ~/.cache/Microsoft/DeveloperTools/.onnxruntime
    (a device id and an SQLite event database) there, written at every start."""
    # CI and ORT_RUNNING_UNIT_TESTS turn onnxruntime's telemetry off by themselves.
    env = {k: v for k, v in os.environ.items()
           if k not in ("ORT_DISABLE_TELEMETRY", "CI", "ORT_RUNNING_UNIT_TESTS")}
    env.update(HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / ".cache"))
    code = ("import os\nfrom companion.hw.camera.classifier import TileClassifier\n"
            "TileClassifier()\nprint(os.environ.get('ORT_DISABLE_TELEMETRY'))")
    said = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=120).stdout
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")
                  if "Microsoft" in str(p) or "onnxruntime" in str(p)) == []
    assert said.strip() == "1"
