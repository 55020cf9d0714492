"""The save whose replay fails: a game stopped after some steps (soak62's and review62c's
tests; tidy72c: no test module imports another)."""

from __future__ import annotations

import pytest

from companion.app.session.save import SaveGame
from tests.app.power_cuts import cut_after_saves, cut_short

SEED = 5


def stopped_after(steps: int, monkeypatch: pytest.MonkeyPatch) -> SaveGame:
    """A game of SEED in the default save, stopped (Ctrl-C) after ``steps`` saved steps."""
    saved = cut_short("_commit", cut_after_saves(steps), SEED, monkeypatch)
    assert len(saved.inputs) >= 4 and not saved.finished
    return saved
