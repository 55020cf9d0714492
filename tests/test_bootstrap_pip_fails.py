"""scripts/bootstrap.sh when pip fails (no network): a line that says what to do, and that
running it again is safe (setup64 NIT 4). The stand-ins are tests/test_bootstrap.py's."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.bootstrap_helpers import bootstrap, checkout, installs, stand_ins

PIP = 'if venv and args[:2] == ["-m", "pip"]:\n'


@pytest.mark.parametrize("failing, said", [
    ("--upgrade", "pip could not upgrade itself in .venv"),
    ("-e", "pip could not install the companion into .venv")])
def test_a_pip_install_that_fails_says_to_run_it_again(
        tmp_path: Path, failing: str, said: str) -> None:
    """Offline, the run ended with pip's "No matching distribution" and nothing after it;
    every other failure of the script says what to do."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path)
    assert bootstrap(repo, env).returncode == 0
    python = repo / ".venv" / "bin" / "python"
    working = python.read_text()
    python.write_text(working.replace(PIP, PIP + (
        '    if os.environ.get("PIP_FAILS") in args:\n'
        '        print("ERROR: No matching distribution found for setuptools>=77", '
        'file=sys.stderr)\n'
        '        sys.exit(1)\n')))
    (repo / "pyproject.toml").write_text('[project]\nname = "jongrogue-companion"\n# new\n')
    done = bootstrap(repo, {**env, "PIP_FAILS": failing})
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "ERROR: No matching distribution found for setuptools>=77",
        f"bootstrap.sh: {said} (above; no network?): fix that and run bash "
        "scripts/bootstrap.sh again: that is safe, and carries on from here"]
    # Back on the network, the same command finishes the install.
    python.write_text(working)
    done = bootstrap(repo, env)
    assert done.returncode == 0, done.stderr
    assert installs(env)[-1] == "venv-python -m pip install -q -e .[test]"


def _signals_as_a_terminal_leaves_them() -> None:
    """SIGINT, SIGTERM and SIGHUP at their defaults in the child: a non-interactive bash
    cannot trap one ignored when it started (as a runner may start the tests), and Python
    raises KeyboardInterrupt only when SIGINT was not ignored."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


@pytest.mark.parametrize("sent, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_during_pip_says_interrupted_not_no_network(
        tmp_path: Path, sent: signal.Signals, status: int) -> None:
    """review64c NIT 6: pip catches Ctrl-C, says "Operation cancelled by user" and exits 1,
    and the line after it was "pip could not install the companion into .venv (above; no
    network?)". The signal is sent for real, to the script's process group, as a terminal's
    Ctrl-C is, while the stand-in pip downloads."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path)
    assert bootstrap(repo, env).returncode == 0
    python = repo / ".venv" / "bin" / "python"
    started = tmp_path / "pip-started"
    python.write_text(python.read_text().replace(PIP, PIP + (
        '    if "-e" in args:\n'
        f'        open({str(started)!r}, "w").close()\n'
        '        try:\n'
        '            import time; time.sleep(30)\n'
        '        except KeyboardInterrupt:\n'
        '            print("ERROR: Operation cancelled by user", file=sys.stderr)\n'
        '            sys.exit(1)\n')))
    (repo / "pyproject.toml").write_text('[project]\nname = "jongrogue-companion"\n# new\n')
    script = subprocess.Popen(["bash", str(repo / "scripts" / "bootstrap.sh")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env, start_new_session=True,
                              preexec_fn=_signals_as_a_terminal_leaves_them)
    try:
        deadline = time.monotonic() + 30
        while not started.exists():
            assert script.poll() is None and time.monotonic() < deadline, "pip never ran"
            time.sleep(0.05)
        time.sleep(0.3)  # the stand-in pip is in its sleep
        os.killpg(script.pid, sent)
        _, err = script.communicate(timeout=30)
    finally:
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGKILL)
            script.communicate()
    assert script.returncode == status
    assert err.splitlines()[-1] == (
        "bootstrap.sh: interrupted: run bash scripts/bootstrap.sh again to finish; that is "
        "safe, and carries on from where it stopped")
    assert "no network" not in err
