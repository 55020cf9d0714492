"""review59c D3: the dice tray's *Poisons 毒の経過* keeps the HP of a member with none kept
yet. It passed no party, so the first tick of a trap's poison (which deals no HP at first)
was spent in the shared list while its HP was kept nowhere: Ben ended 13/16, not 12/16.
The tray reads the party ``companion events`` reads by default, events_party.toml."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.party_hp import PartyHP, party_hp_path
from companion.app.paths import config_dir
from companion.app.poisons import PoisonList, poisons_path
from tests.systems.events.helpers import PARTY, VITALITY_DAMAGE

#: Where `companion events` finds the party with no --party.
SAVED_PARTY = "events_party.toml"
TICK = "Ben: 毒/Poison: 1 HP lost (1/3)"


def _tray_ticks_once() -> DiceTrayMode:
    """The tray's menu → Poisons → End block."""
    mode = DiceTrayMode(("1D6",), "simulated 仮想", poisons=PoisonList(poisons_path()))
    mode.answer(2)  # Poisons
    mode.answer(0)  # End block
    return mode


@pytest.fixture
def poisoned() -> None:
    """Ben (HP 14/16) with a vitality-damage poison (EV-POI-8: 1 HP a tick, 3 at most)
    and no HP kept yet."""
    poisons_path().parent.mkdir(parents=True)
    poisons_path().write_text(VITALITY_DAMAGE, encoding="utf-8")


def _save_party(text: str = PARTY) -> None:
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / SAVED_PARTY).write_text(text, encoding="utf-8")


@pytest.mark.usefixtures("poisoned")
def test_the_first_tray_tick_keeps_the_hp_of_a_member_none_was_kept_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The reviewer's repro, without an `events end-block` first: tray tick, end-block,
    party. Ben was 13/16 with 2 HP dealt."""
    _save_party()
    mode = _tray_ticks_once()
    assert f"{TICK} (HP 14 → 13); HP lost heals with Cure Wounds" in [
        s.text for s in mode.dice.steps]
    assert PartyHP(party_hp_path()).kept["Ben"]["hp"].now == 13
    assert main(["events", "end-block"]) == 0
    assert "(HP 13 → 12)" in capsys.readouterr().out
    assert main(["events", "party"]) == 0
    assert "Ben: HP 12/16, MP 18/21" in capsys.readouterr().out


@pytest.mark.usefixtures("poisoned")
def test_with_no_party_file_the_tray_keeps_no_hp_and_says_so_on_the_tick(
        capsys: pytest.CaptureFixture[str]) -> None:
    """events74 DEFECT 1: the tick was spent (1/3 dealt) and its line said "1 HP lost"
    with nothing of the HP no one kept: it was lost to the books unsaid. Now the line and
    the status line say it is not kept, and how to keep it."""
    mode = _tray_ticks_once()
    assert (f"{TICK}; HP lost heals with Cure Wounds; Ben's HP not kept (no party file: "
            f"save {SAVED_PARTY} in the config folder): take it off by hand"
            in [s.text for s in mode.dice.steps])
    assert mode.trouble == "HP not kept HP未記録: Ben: by hand 手で"
    assert capsys.readouterr().err == ""
    assert not party_hp_path().exists()


@pytest.mark.usefixtures("poisoned")
def test_a_tick_for_one_not_in_the_saved_party_says_its_hp_is_not_kept() -> None:
    """A saved party without the poisoned one: the HP is not kept, and the line says why."""
    _save_party(PARTY.replace('name = "Ben"', 'name = "Cid"'))
    mode = _tray_ticks_once()
    assert any(s.text.endswith("Ben's HP not kept (not in the party file): take it off by "
                               "hand") for s in mode.dice.steps)
    assert "Ben" not in PartyHP(party_hp_path()).kept


@pytest.mark.usefixtures("poisoned")
def test_a_party_file_that_cannot_be_read_passes_no_time(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The tick is not spent when the HP it takes could not be kept for the party."""
    _save_party("[[member]]\nname = \n")
    mode = _tray_ticks_once()
    assert mode.trouble == "Party file unreadable パーティ読めず: no time passed 経過なし"
    err = capsys.readouterr().err
    assert str(config_dir() / SAVED_PARTY) in err and err.rstrip().endswith("no time passed")
    assert poisons_path().read_text(encoding="utf-8") == VITALITY_DAMAGE
    assert not party_hp_path().exists()


def test_a_poison_tracked_in_another_case_ticks_the_partys_member() -> None:
    """A poison tracked as ``ben`` (``events poison --who ben``, generic mode) ticks the
    party's Ben in the tray too, through the same PartyHP (a77events DEFECT 2, 6b057957):
    his HP kept, not said 'not in the party file'."""
    poisons_path().parent.mkdir(parents=True)
    poisons_path().write_text(VITALITY_DAMAGE.replace("[Ben]", "[ben]"), encoding="utf-8")
    _save_party()
    mode = _tray_ticks_once()
    assert ("ben: 毒/Poison: 1 HP lost (1/3) (HP 14 → 13); HP lost heals with Cure Wounds"
            in [s.text for s in mode.dice.steps])
    assert mode.trouble == ""
    assert PartyHP(party_hp_path()).kept["Ben"]["hp"].now == 13
