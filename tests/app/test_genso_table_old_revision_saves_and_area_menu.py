"""review60a (the genso60 changes at the table).

- D1: a table save made under engine revision 3 whose fight had a Ghost attack in it was
  replayed by revision 4 on --resume (the Ghost's foe checks with Magic) and refused: "the
  fight file … changed since the table saved it". It plays on by the revision the table
  began it by, and says so once (as coc's review59a R1).
- D3: a table save from before the area menu with Fire on one foe (``s:fire, t:オーク1``)
  was read as a toggle of the new menu and kept aside as corrupt; the toggles have their
  own key (``in:NAME``) and the old answer casts on that foe, as it did.
- R1: in the area menu the highlight went back to the first name after each toggle, so A
  (which confirms the highlighted entry) took that name out again, and every toggle on the
  four buttons was counted from the top: it stays on the entry just toggled.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from companion.app.modes.genso import GensoFightMode, table_session, write_fight_file
from companion.dice import SimulatedDice
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import View
from companion.systems.genso.combat import Cast, Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.dice_tray_helpers import Recorded
from tests.app.genso_table_resume_helpers import DATA, resumed
from tests.app.table import Buttons, asked, played_keys

RULES = load_rules()
PC2 = "駆け出し冒険者２"
FAIRY = "一般的な森妖精の冒険者"
OLD_FAIRY = "森妖精の冒険者"  # by its name then: the preset of 76861fb's table
PC1 = "駆け出し冒険者１"


def old_table(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """The table save and fight file the table of 76861fb (engine revision 3) left, stopped
    after its answers (``table_<name>_r3.json``), moved to ``tmp_path``."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    shutil.copyfile(DATA / f"table_{name}_r3_fight.json", fight)
    saved = json.loads((DATA / f"table_{name}_r3.json").read_text(encoding="utf-8"))
    saved["fight_path"] = str(fight.resolve())
    state.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    return fight, state


def test_a_revision_3_table_with_a_ghost_attack_plays_on_by_revision_3(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """pc2 attacked the Ghost with Body 5 on [3,2] (10, failed) under revision 3, then the
    table stopped. Resumed, it replays so (Magic 6 would have hit: 11), says once that it
    plays on by revision 3, and the Ghost's attack after it is defended with Body too; a
    second stop and resume still matches the fight file."""
    fight, state = old_table(tmp_path, "ghost")
    mode = resumed(fight, state, [])  # was FightFileChanged
    assert "plays on by engine revision 3, as the table began it" in capsys.readouterr().err
    assert "この戦闘は改訂3のまま" in mode.resumed
    assert mode.view("?").status == mode.resumed
    assert "体力/Body 5" in mode.fight.journal[0].lines[0].text
    mode = resumed(fight, state, ["attack", f"t:{PC2}"])
    defence = next(line.text for line in mode.fight.journal[1].lines
                   if line.text.startswith(f"{PC2} defends"))
    assert "体力/Body 5" in defence and "魔力/Magic 6" not in defence
    on_file = json.loads(fight.read_text(encoding="utf-8"))
    assert on_file == mode.fight.to_json()
    assert [e.get("engine") for e in on_file["journal"]] == [3, 3]
    again = resumed(fight, state, [])
    assert len(again.fight.journal) == 2 and again.fight.engine == 3


def test_an_old_table_saves_fire_on_one_foe_replays_on_that_foe(tmp_path: Path) -> None:
    """The Forest fairy's Fire on Orc 1 alone, as 76861fb's table journalled it."""
    fight, state = old_table(tmp_path, "fire")
    told: list[str] = []
    mode = resumed(fight, state, [], told)
    assert told == []  # was "… does not replay …; it was kept as table.json.corrupt-…"
    assert [e.action for e in mode.fight.journal] == [Cast(OLD_FAIRY, "fire", ("オーク1",))]
    assert not list(tmp_path.glob("table.json.corrupt*"))


def fairy_and_orcs() -> Fight:
    """The Forest fairy (first to act) and PC 1 against three Orcs."""
    return Fight(RULES, entrants_for(
        RULES, [preset(RULES, "forest_fairy"), preset(RULES, "pc1")], [("orc", 3)]))


def test_fire_on_one_foe_by_its_old_answer_at_the_area_menu() -> None:
    """``t:NAME`` straight after the spell is the old single target; the toggles are
    ``in:NAME``."""
    mode = GensoFightMode(RULES, fairy_and_orcs())
    played_keys(mode, ("cast", "s:fire", "t:オーク2"), SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].action == Cast(FAIRY, "fire", ("オーク2",))
    assert mode.journal == ["cast", "s:fire", "in:オーク2", "done"]


@pytest.mark.parametrize(("old", "cast"), [
    (("t:オーク2", "back", "t:オーク3", "pay:mp"), Cast(FAIRY, "fire", ("オーク3",))),
    (("t:オーク2", "back", "all", "pay:0"),
     Cast(FAIRY, "fire", ("オーク1", "オーク2", "オーク3"), stone=0)),
    (("t:オーク2", "back", "back", "s:fire", "t:オーク1", "pay:mp"),
     Cast(FAIRY, "fire", ("オーク1",))),
], ids=["another foe", "every foe", "back to the spells"])
def test_an_old_fire_taken_back_from_its_mana_stone_step_replays(
        old: tuple[str, ...], cast: Cast) -> None:
    """With a charged mana stone the old menu asked how to pay after the one foe, and its
    Back went back to the foes; the old pick, replayed as put in and Cast, is taken back
    whole by that Back (review60d D1: the next old answer was not among the toggles, and
    the table save was kept aside as corrupt). A Back of today's menu takes Cast alone."""
    stone = replace(preset(RULES, "forest_fairy"), mana_stones=(4,))
    fight = Fight(RULES, entrants_for(RULES, [stone, preset(RULES, "pc1")], [("orc", 3)]))
    mode = GensoFightMode(RULES, fight)
    played_keys(mode, ("cast", "s:fire", *old), SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].action == cast
    today = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [stone, preset(RULES, "pc1")], [("orc", 3)])))
    played_keys(today, ("cast", "s:fire", "in:オーク2", "done", "back", "in:オーク3", "done",
                        "pay:mp"), SimulatedDice.seeded(1))
    assert today.fight.journal[-1].action == Cast(FAIRY, "fire", ("オーク2", "オーク3"))


def in_fire(count: int) -> Callable[[View], bool]:
    """Fire's area menu with ``count`` names in it."""
    return lambda view: view.prompt.startswith("Who is in the fire") and sum(
        o.label.startswith("[x]") for o in view.options) == count


def test_the_area_menus_highlight_stays_on_the_name_toggled(tmp_path: Path) -> None:
    """On the four buttons: ITEM moves the highlight, ATTACK confirms it. Orc 2 is put in
    (one ITEM, A), then Orc 3 (one ITEM more, A), then three ITEMs reach Cast 発動 (2) and A
    casts: Fire on Orc 2 and Orc 3. The highlight had gone back to Orc 1, so the second A
    took Orc 2 out again."""
    fight = tmp_path / "fight.json"
    write_fight_file(fight, fairy_and_orcs())
    buttons = Buttons()
    display = Recorded(TerminalDisplay(Console(file=io.StringIO(), width=120)))
    presses: list[tuple[Callable[[View], bool], list[str]]] = [
        (lambda view: view.prompt.startswith(f"{FAIRY}"), ["item"] * 2 + ["attack"]),
        (lambda view: view.prompt.startswith("Which spell"), ["item"] * 9 + ["attack"]),
        (in_fire(0), ["item", "attack"]),
        (in_fire(1), ["item", "attack"]),
        (in_fire(2), ["item"] * 3 + ["attack"])]

    polls = iter(range(500))

    def sleep(_: float) -> None:
        if not presses or next(polls, None) is None:
            raise KeyboardInterrupt  # the power goes once the presses are spent (or stick)
        if presses[0][0](display.views[-1]):
            buttons.press(*presses.pop(0)[1])

    session = table_session(RULES, fight, tmp_path / "table.json", resume=False, seed=1,
                            choices=buttons.choices(display, sleep), display=display)
    with pytest.raises(KeyboardInterrupt):
        buttons.run(session)
    mode = session.mode
    assert isinstance(mode, GensoFightMode)
    assert mode.fight.journal[-1].action == Cast(FAIRY, "fire", ("オーク2", "オーク3"))


def test_the_area_menu_highlights_the_last_toggle_back_takes_it_to_the_one_before() -> None:
    mode = GensoFightMode(RULES, fairy_and_orcs())
    played_keys(mode, ("cast", "s:fire", "in:オーク3", f"in:{PC1}"), SimulatedDice.seeded(1))
    assert asked(mode).options[asked(mode).highlight].choice == f"in:{PC1}"
    played_keys(mode, ("back",), SimulatedDice.seeded(1))
    assert asked(mode).options[asked(mode).highlight].choice == "in:オーク3"
