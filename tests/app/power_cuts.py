"""Power cuts for `companion play` tests: a headless game stopped as Ctrl-C stops it, after a
chosen number of saved steps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.session.host import Session
from companion.app.session.save import SaveGame, default_save_path


def cut_after_saves(steps: int) -> Callable[..., None]:
    """A stand-in for ``Session._commit`` that saves as the real one does, then raises
    KeyboardInterrupt (the power cut) once ``steps`` saves are written."""
    commit, done = Session._commit, []

    def power_cut(self: Session, *args: Any, **kwargs: Any) -> None:
        commit(self, *args, **kwargs)
        done.append(1)
        if len(done) == steps:
            raise KeyboardInterrupt

    return power_cut


def cut_short(method: str, power_cut: Callable[..., None], seed: int,
              monkeypatch: pytest.MonkeyPatch) -> SaveGame:
    """A headless game of ``seed`` in the default save, ``power_cut`` (which raises
    KeyboardInterrupt: Ctrl-C's exit status follows) in place of the session's ``method``;
    the save it left."""
    with monkeypatch.context() as patch:
        patch.setattr(Session, method, power_cut)
        assert main(["play", "--headless", "--state", str(default_save_path()),
                     "--seed", str(seed)]) == 130
    saved = load_game(default_save_path())
    assert saved is not None
    return saved
