"""A poison tracked as ``--who aki`` in generic mode ticks the party's Aki (EV-POI-8): the
HP it takes is kept, as the poison list, cure and act find Aki (a77events DEFECT 2)."""

from __future__ import annotations

import io
import shutil

import pytest

from companion.app.cli import main
from companion.app.commands.events import EXAMPLE_PARTY
from companion.app.party_hp import PARTY_NAME
from companion.app.paths import config_dir


def test_a_generic_poison_named_in_lower_case_ticks_the_partys_member(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config_dir().mkdir(parents=True, exist_ok=True)
    shutil.copy(EXAMPLE_PARTY, config_dir() / PARTY_NAME)  # Aki at HP 20/25
    monkeypatch.setattr("sys.stdin", io.StringIO("4\n5\n"))  # a vitality poison
    assert main(["events", "poison", "--who", "aki", "--dice", "typed"]) == 0
    capsys.readouterr()
    assert main(["events", "end-block"]) == 0
    out = capsys.readouterr().out
    assert "1 HP lost (1/5) (HP 20 → 19)" in out
    assert "not kept" not in out and "not in the party file" not in out
    assert main(["events", "party"]) == 0
    assert "Aki: HP 19/25" in capsys.readouterr().out
