"""scripts/bootstrap.sh when pip fails (no network): a line that says what to do, and that
running it again is safe (setup64 NIT 4). The stand-ins are tests/test_bootstrap.py's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_bootstrap import bootstrap, checkout, installs, stand_ins

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
