"""The events command: `--reset party` before the table is refused with the order that works.

review59c N9: ``events --reset party`` took ``party`` as --reset's NAME and then said
only "choose a TABLE from the list above"; it is refused with the order that works."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.party_hp import PartyHP, party_hp_path
from companion.systems.events.sword_world import load_party
from tests.systems.events.helpers import PARTY


def test_reset_before_the_table_is_refused_with_the_order_that_works(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["events", "--reset", "party"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(
        "--reset took 'party' as the NAME to forget, leaving no TABLE: write "
        "`companion events party --reset [NAME]`")


def test_a_name_before_the_table_and_the_table_first_still_reset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Aki": {"hp": -9}, "Ben": {"hp": -1}})
    assert main(["events", "--reset", "Aki", "party", "--party", str(party)]) == 0
    assert "Forgot the HP and MP kept for Aki" in capsys.readouterr().out
    assert main(["events", "party", "--reset", "--party", str(party)]) == 0
    assert "Forgot the HP and MP kept for Ben" in capsys.readouterr().out
