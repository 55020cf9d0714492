"""rfid71 NIT 4: ``rfid simulate --seconds`` takes a finite number of seconds, 0 or more;
-1, nan and inf are refused as usage errors saying so. -1 and nan printed the port to try
and stopped at once, the port gone, as if 0 were given (which says the lines to try and
stops: tests/app/test_rfid_hints_run_as_printed.py and tests/dice/test_cmd_roll.py use it)."""

from __future__ import annotations

import pytest

from companion.app import cli


@pytest.mark.parametrize("seconds", ["-1", "-0.5", "nan", "inf", "-inf"])
def test_simulate_refuses_seconds_that_are_no_time_to_run(
        seconds: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["rfid", "simulate", f"--seconds={seconds}"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert f"argument --seconds: {seconds} is not a number of seconds of 0 or more" in captured.err
    assert "Simulated tray on" not in captured.out


def test_simulate_runs_for_the_seconds_given(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rfid", "simulate", "--seconds", "0.2", "--seed", "1"]) == 0
    assert "Simulated tray on /dev/" in capsys.readouterr().out
