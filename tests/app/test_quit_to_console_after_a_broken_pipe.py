"""Quit to console from a stop that a broken pipe caused exits with the console's status,
which the boot service does not restart (review62g R1): main took every SystemExit met
while a BrokenPipeError was being handled for rich's exit on that pipe, and returned 141,
which the service restarts."""

from __future__ import annotations

import argparse
from typing import NoReturn

import pytest

from companion.app.cli import main
from companion.app.commands import config
from companion.app.session.system_menu import CONSOLE_EXIT_STATUS, ConsoleAsked


def test_quit_to_console_while_a_broken_pipe_is_handled_keeps_its_status(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As session.py's stop does: the player's Quit to console is raised in the handler
    of the error the stop shows."""
    def stopped_then_console(args: argparse.Namespace) -> NoReturn:
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            raise ConsoleAsked from None

    monkeypatch.setattr(config, "run", stopped_then_console)
    with pytest.raises(SystemExit) as stop:
        main(["config"])
    assert stop.value.code == CONSOLE_EXIT_STATUS


def test_rich_exiting_on_a_broken_pipe_is_still_the_pipe_s_141(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def rich_exit(args: argparse.Namespace) -> NoReturn:
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            raise SystemExit(1) from None

    monkeypatch.setattr(config, "run", rich_exit)
    assert main(["config"]) == 141
