"""journey71 DEFECT 3: Ctrl-C while `companion` starts (its command's modules loading,
seconds on a Pi) stops it as a Ctrl-C later does: exit 130, no Python traceback.

The edge is the signal: a real SIGINT, sent to the child process itself at the moment
the command's module is imported (a finder on ``sys.meta_path`` sends it, and the import
goes on, so Python raises KeyboardInterrupt inside it, where the player's key would)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import COMMAND_MODULES

CHILD = """
import os, signal, sys
from companion.app.cli import main

class SigintAtImport:
    def find_spec(self, name, path=None, target=None):
        if name == sys.argv[1]:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), getattr(signal, os.environ["STOP_SIGNAL"]))
        return None

sys.meta_path.insert(0, SigintAtImport())
sys.exit(main(sys.argv[2:]))
"""


#: Ctrl-C, and Ctrl-\\ (SIGQUIT), which dumped core while the modules loaded (r76lead
#: RISK 1): it stops every command as Ctrl-C does (cli.quit_key_stops).
STOPS = ["SIGINT", "SIGQUIT"]


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("command", ["play", "history"])
def test_ctrl_c_while_the_command_loads_exits_130_without_a_traceback(
        tmp_path: Path, command: str, stop: str) -> None:
    module = COMMAND_MODULES[command]
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "STOP_SIGNAL": stop}
    result = subprocess.run([sys.executable, "-c", CHILD, module, command, "--help"],
                            env=env, capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (130, ""), result.stderr
    assert not (tmp_path / "data").exists()


FROM_THE_START = """
import os, runpy, signal, sys

class SigintAtImport:
    def find_spec(self, name, path=None, target=None):
        if name == "companion.app.cli":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), getattr(signal, os.environ["STOP_SIGNAL"]))
        return None

sys.meta_path.insert(0, SigintAtImport())
sys.argv[0] = "companion"
runpy.run_module("companion", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("stop", STOPS)
def test_ctrl_c_while_the_command_line_itself_loads_exits_130_without_a_traceback(
        tmp_path: Path, stop: str) -> None:
    """reviewj71 NIT 3: a Ctrl-C in the first 0.14 s of `python -m companion play`, while
    ``companion.app.cli`` is imported (before its ``main`` catches one), printed a
    traceback through companion/__main__.py. The real signal, at that import."""
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "STOP_SIGNAL": stop}
    result = subprocess.run([sys.executable, "-c", FROM_THE_START, "play", "--help"],
                            env=env, capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (130, ""), result.stderr
    assert not (tmp_path / "data").exists()


def test_the_companion_command_starts_where_a_ctrl_c_at_loading_is_caught() -> None:
    """The installed `companion` command (pyproject's script) goes through
    companion.__main__.run, as `python -m companion` does: pointed at
    companion.app.cli:main, a Ctrl-C while that module loaded still printed a traceback."""
    import tomllib

    from companion.__main__ import run

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    target = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, name = target["companion"].partition(":")
    assert getattr(__import__(module, fromlist=[name]), name) is run
