"""review59b F3: the dice tray's *Poisons 毒の経過* keeps the HP a poison's tick takes, as
``companion events end-block`` does: the tray and the command share the tracked poisons,
so a tick spent in the tray with its HP lost was an HP loss no command would take again."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.party_hp import PartyHP, party_hp_path
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.mode import ChoiceAsk
from tests.disk import refuse_writes
from tests.systems.events.helpers import PARTY, VITALITY_DAMAGE


def _tray_ticks_once() -> DiceTrayMode:
    """The tray's menu → Poisons → End block."""
    mode = DiceTrayMode(("1D6",), "simulated 仮想", poisons=PoisonList(poisons_path()))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.options[2].label == "Tick 毒の経過"
    mode.answer(2)  # Poisons
    mode.answer(0)  # End block
    return mode


@pytest.fixture
def party(tmp_path: Path) -> Path:
    """Ben (HP 14/16) with a vitality-damage poison (EV-POI-8: 1 HP a tick, 3 at most)."""
    path = tmp_path / "party.toml"
    path.write_text(PARTY, encoding="utf-8")
    poisons_path().parent.mkdir(parents=True)
    poisons_path().write_text(VITALITY_DAMAGE, encoding="utf-8")
    return path


def test_the_trays_poison_tick_keeps_the_hp_it_takes(
        party: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review59b's repro: end-block (14 → 13), the tray's tick, end-block: Ben ended 12/16
    with 3 HP dealt; now 11/16, and the tray says the HP beside the tick."""
    assert main(["events", "end-block", "--party", str(party)]) == 0
    assert "(HP 14 → 13)" in capsys.readouterr().out
    mode = _tray_ticks_once()
    assert "Ben: 毒/Poison: 1 HP lost (2/3) (HP 13 → 12); HP lost heals with Cure Wounds" in [
        s.text for s in mode.dice.steps]
    assert PartyHP(party_hp_path()).kept["Ben"]["hp"].now == 12
    assert main(["events", "end-block", "--party", str(party)]) == 0
    assert "(HP 12 → 11)" in capsys.readouterr().out
    assert main(["events", "party", "--party", str(party)]) == 0
    assert "Ben: HP 11/16, MP 18/21" in capsys.readouterr().out


def test_an_hp_list_the_disk_refuses_is_said_and_the_tray_goes_on(
        party: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["events", "end-block", "--party", str(party)]) == 0
    capsys.readouterr()
    refuse_writes(party_hp_path(), monkeypatch)
    mode = _tray_ticks_once()
    assert mode.trouble == "HP not saved HP保存不可: the HP the poisons took is not kept 未記録"
    assert capsys.readouterr().err.startswith(
        f"companion: cannot save the party's HP and MP ({party_hp_path()}")
    assert PartyHP(party_hp_path()).kept["Ben"]["hp"].now == 13
