"""Mutation round 6 on the genso table (companion/app/modes/genso): what the menus offer and
what the mode hands the engine, where the table's own tests left a change unnoticed: the
magic stones (GM-ITEM-2), paying from a mana stone (GM-ITEM-1), a drain attack
(GM-MON-4), the targets still in the fight, and the GM's checks (GM-CHECK-1..6).

Each test drives :class:`GensoFightMode` by its option keys and throws, as the table's
journal does, and reads back what the engine then holds.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest

from companion.app.modes.genso import GensoFightMode, read_fight_file, table_session
from companion.app.session.host import replay
from companion.app.session.mode import RollAsk, Show, Throw
from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.systems.genso.combat import (
    Attack,
    Cast,
    Fight,
    Status,
    UseStone,
    Wait,
    entrants_for,
)
from companion.systems.genso.sheet import preset
from tests.app.genso_table_mode_helpers import RULES, play, table
from tests.app.table import Player, asked, choices

PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"
ORC1, ORC2 = "オーク1", "オーク2"
DATA = Path(__file__).parents[1] / "systems" / "genso" / "data"


def test_each_stone_is_offered_on_its_own_side_and_used_as_picked() -> None:
    """GM-ITEM-2: with a Healing Stone and an Enchant Stone, Stone asks which; the Healing
    Stone goes on a friend, the Enchant Stone on a foe immune to normal attacks (the Ghost,
    not the orc: genso72 RISK 3); the one picked is the one used."""
    mode = table(pc1={"equipment": ("healing_stone", "enchant_stone")},
                 monsters=(("orc", 1), ("ghost", 1)))
    assert "stone" in choices(mode)
    play(mode, "stone")
    assert choices(mode) == ["k:healing_stone", "k:enchant_stone", "back"]
    play(mode, "k:healing_stone")
    assert choices(mode) == [f"t:{PC1}", f"t:{PC2}", "back"]
    play(mode, "back", "k:enchant_stone")
    assert choices(mode) == ["t:ゴースト", "back"]
    play(mode, "back", "k:healing_stone", f"t:{PC2}")
    assert mode.fight.journal[-1].action == UseStone(PC1, "healing_stone", PC2)
    assert mode.fight.state.get(PC1).stones == ("enchant_stone",)


def test_an_enchant_stone_with_no_immune_foe_is_not_offered() -> None:
    """genso72 RISK 3: the Enchant Stone was offered on every foe, and on an orc (not immune
    to normal attacks) the stone and the turn were lost for "no effect". With no immune foe
    an Enchant Stone alone offers no Stone; beside a Healing Stone its kind is not offered
    (reviewg72 NIT 4: it was, "no target 対象なし", and led to a menu holding only Back).
    A save whose answers name that kind still replays, and resumes one step back, at the
    kinds, not at that kind's menu of Back alone (fixcarry75 item 6)."""
    mode = table(pc1={"equipment": ("enchant_stone",)})
    assert "stone" not in choices(mode)
    mode = table(pc1={"equipment": ("healing_stone", "enchant_stone")})
    play(mode, "stone")
    assert choices(mode) == ["k:healing_stone", "back"]
    assert asked(mode).options[0].label == "治癒石 Healing Stone"
    saved = table(pc1={"equipment": ("healing_stone", "enchant_stone")})
    replay(saved, ["stone", "k:enchant_stone"], 0)
    assert saved.path == ["stone"]
    assert choices(saved) == ["k:healing_stone", "back"]


def test_one_kind_of_stone_asks_only_whom() -> None:
    """Two Healing Stones are one kind: no "which stone" question."""
    mode = table(pc1={"equipment": ("healing_stone", "healing_stone")})
    play(mode, "stone")
    assert choices(mode) == [f"t:{PC1}", f"t:{PC2}", "back"]


def test_no_stone_after_a_normal_move_where_the_engine_takes_none() -> None:
    """GM-MOVE-1 Default full_dodge_after_normal_move: after a normal move the turn takes no
    magic stone (移動後は…魔法は使用不能), and the menu offers none for the engine to refuse."""
    on = RULES.with_overrides({"GM-MOVE-1": {"full_dodge_after_normal_move": True}})
    mode = table(on, pc1={"equipment": ("healing_stone",)})
    assert "stone" in choices(mode)
    play(mode, "move", "m:normal")
    assert mode.fight.state.current is not None and mode.fight.state.current.name == PC1
    assert not mode.legal(UseStone(PC1, "healing_stone", PC1))
    assert "stone" not in choices(mode)


def test_a_spell_is_paid_from_the_mana_stone_picked_and_empty_ones_are_not_offered() -> None:
    """GM-ITEM-1 (mana stones; the Default: they pay for spells): the payment menu lists MP only
    and each mana stone with MP left; Healing paid from the third stone spends its MP, not
    the caster's."""
    mode = table(pc2={"mana_stones": (3, 0, 4)})
    play(mode, "wait", "cast", "s:healing", f"t:{PC1}")
    assert choices(mode) == ["pay:mp", "pay:0", "pay:2", "back"]
    mp = mode.fight.state.get(PC2).mp
    play(mode, "pay:2")
    action = mode.fight.journal[-1].action
    assert action == Cast(PC2, "healing", (PC1,), None, 2)
    caster = mode.fight.state.get(PC2)
    assert caster.mana_stones == (3, 0, 0) and caster.mp == mp


def test_a_ghost_s_drain_is_an_attack_it_is_offered() -> None:
    """GM-MON-4: a Ghost has no weapon but drains MP; its turn offers Attack, and the attack
    is the engine's Attack with its drain."""
    mode = table(monsters=(("ghost", 1),))
    play(mode, "wait", "wait")
    assert mode.fight.state.current is not None and mode.fight.state.current.name == "ゴースト"
    assert {"attack", "full"} <= set(choices(mode))
    play(mode, "attack", f"t:{PC1}")
    assert mode.fight.journal[-1].action == Attack("ゴースト", PC1, 0)


def kill_orc1() -> GensoFightMode:
    """PC 1 strikes Orc 1 with its first weapon until it is dead; the others wait."""
    mode, dice = table(), SimulatedDice.seeded(3)
    for _ in range(60):
        state = mode.fight.state
        if state.get(ORC1).status is Status.DEAD:
            return mode
        assert state.current is not None
        play(mode, *(("attack", f"t:{ORC1}", "w:0") if state.current.name == PC1
                     else ("wait",)), dice=dice)
    raise AssertionError("Orc 1 lived through 60 turns")


def test_a_dead_foe_is_no_target() -> None:
    """GM-COMBAT-8: a dead orc is out of the fight: Attack offers only the living one."""
    mode = kill_orc1()
    while mode.fight.state.current is not None and mode.fight.state.current.name != PC2:
        play(mode, "wait")
    play(mode, "attack")
    assert choices(mode) == [f"t:{ORC2}", "back"]
    with pytest.raises(IllegalAction):
        mode.restore(f"t:{ORC1}")


def test_one_weapon_and_a_fist_asks_which() -> None:
    """GM-COMBAT-2: a PC with one weapon still has its fist: Attack asks which, and the
    fist picked is the weapon the engine rolls."""
    mode = table(pc1={"weapons": ("club",)})
    play(mode, "attack", f"t:{ORC1}")
    assert choices(mode) == ["w:0", "w:1", "back"]
    play(mode, "w:1")
    action = mode.fight.journal[-1].action
    assert action == Attack(PC1, ORC1, 1)
    assert mode.fight.state.get(PC1).weapons[1].key == "fist"


def test_fire_on_every_foe_and_a_barrier_round_the_party() -> None:
    """GM-MAGIC-10 (Fire), GM-MAGIC-5 (Barrier): Fire's "every foe" burns both orcs; the Barrier's
    "the party" holds the caster and its friends, no orc."""
    fairy = preset(RULES, "forest_fairy")
    burning = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [fairy, preset(RULES, "pc1")], [("orc", 2)])))
    play(burning, "cast", "s:fire", "all")
    fire = burning.fight.journal[-1].action
    assert isinstance(fire, Cast) and fire.targets == (ORC1, ORC2)
    walled = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [fairy, preset(RULES, "pc1")], [("orc", 2)])))
    play(walled, "cast", "s:barrier", "all")
    barrier = walled.fight.journal[-1].action
    assert isinstance(barrier, Cast) and set(barrier.targets) == {fairy.name, PC1}


def wight_kills_pc1() -> GensoFightMode:
    """PC 2 (Healing, Exorcism, Dispel) and PC 1 against a Wight that drains PC 1 till it dies; then
    PC 2's turn."""
    mode = table(pc2={"spells": ("healing", "exorcism", "dispel")}, monsters=(("wight", 1),))
    dice = SimulatedDice.seeded(3)
    for _ in range(120):
        state = mode.fight.state
        assert state.current is not None
        if state.get(PC1).status is Status.DEAD and state.current.name == PC2:
            return mode
        play(mode, *(("attack", f"t:{PC1}") if state.current.name == "ワイト" else ("wait",)),
             dice=dice)
    raise AssertionError("PC 1 lived through 120 turns")


def test_healing_offers_no_dead_friend_and_exorcism_the_corpse_that_will_rise() -> None:
    """GM-COMBAT-8: the dead are out of the fight, so Healing is not offered on PC 1 (and
    the engine takes none); GM-MON-5, GM-MAGIC-3: PC 1, killed by a Wight, rises at sunset
    unless Exorcism is cast on the corpse, so Exorcism offers it."""
    mode = wight_kills_pc1()
    assert mode.fight.state.get(PC1).rises_as
    play(mode, "cast", "s:healing")
    assert choices(mode) == [f"t:{PC2}", "back"]
    play(mode, "back", "s:exorcism")
    # the corpse, the Wight, and PC 2's own weapons (its fist is none, GM-MAGIC-3)
    assert choices(mode) == [f"t:{PC1}", "t:ワイト", f"w:{PC2}:0", f"w:{PC2}:1", "back"]
    assert mode.fight.state.get(PC2).weapons[2].key == "fist"
    play(mode, f"t:{PC1}")
    assert mode.fight.journal[-1].action == Cast(PC2, "exorcism", (PC1,))


def test_only_a_caster_of_mark_rolls_its_direction() -> None:
    """GM-MAGIC-6: Mark's direction is found by a Magic check of one who knows Mark, so it offers
    only the party member who knows Mark (the mage, not PC 1 and no orc)."""
    mage = preset(RULES, "mage_m")
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), mage], [("orc", 1)])))
    play(mode, "gm", "check", "c:mark")
    assert choices(mode) == [f"t:{mage.name}", "back"]


def test_a_simple_check_has_no_modifier_unless_the_gm_s_manual_modifier_is_on() -> None:
    """GM-CHECK-1: simple checks have no modifiers; the Default's manual modifier (off) adds
    one: on, the check asks it and rolls with it."""
    plain = table()
    play(plain, "gm", "check", "c:simple")
    ask = asked(plain)
    # GM-CHECK-1's Default (hard, 7, the one a 2D can beat), lit first (review59a R3).
    assert ask.options[ask.highlight].choice == "d:default"
    assert "hard 7 (default)" in ask.options[ask.highlight].label
    play(plain, "d:hard")
    assert plain.last_check is not None and plain.last_check.call.modifier == 0
    house = RULES.with_overrides({"GM-CHECK-1": {"manual_modifier": True}})
    manual = table(house)
    play(manual, "gm", "check", "c:simple", "d:hard")
    assert asked(manual).prompt.startswith("Modifier?")
    play(manual, "m:2")
    assert manual.last_check is not None and manual.last_check.call.modifier == 2


def test_enemy_detection_starts_at_its_default_difficulty() -> None:
    """GM-CHECK-6 Default: enemy detection's difficulty is the GM's pick, initially hard (12):
    the menu lights that default first, and picked it is the check's own default."""
    mode = table()
    play(mode, "gm", "check", "c:enemy", f"t:{PC1}")
    ask = asked(mode)
    assert ask.options[ask.highlight].choice == "d:default"
    assert "12" in ask.options[ask.highlight].label
    play(mode, "d:default", "m:0")
    assert mode.last_check is not None and mode.last_check.call.difficulty is None


def test_an_opposed_check_is_against_another_and_active_as_picked() -> None:
    """GM-CHECK-5: the other side of an opposed check is somebody else (not the one who
    rolls), a monster of the fight too (genso70 DEFECT 3); "Neither" makes it a check with
    no active side (a tie is a draw)."""
    mode = table()
    play(mode, "gm", "check", "c:opposed", f"t:{PC1}")
    assert choices(mode) == [f"t:{PC2}", "t:オーク1", "t:オーク2", "back"]
    play(mode, f"t:{PC2}", "a:body", "act:no", "m:0", "m:0")
    assert mode.last_check is not None
    assert (mode.last_check.call.who, mode.last_check.call.vs) == (PC1, PC2)
    assert mode.last_check.call.active is False
    assert mode.last_check.check.to_json()["active"] is False


def test_a_check_s_result_gives_way_to_the_next_action_s() -> None:
    """The Result panel shows a GM's check until the next action: then that action's lines,
    not the old check's."""
    mode = table()
    play(mode, "gm", "check", "c:simple", "d:hard")
    assert "判定 check" in mode.fight_view().result_title
    play(mode, "wait")
    shown = mode.fight_view()
    assert "判定 check" not in shown.result_title
    assert shown.result_title == mode.describe(mode.fight.journal[-1].action)


def test_one_who_fled_is_drawn_out_of_the_fight() -> None:
    """GM-COMBAT-1: flight takes PC 1 out of the fight: its row is drawn down, as the dead's,
    while PC 2's is not."""
    mode = table()
    play(mode, "flee?", "flee")
    assert mode.fight.state.get(PC1).status is Status.FLED
    rows = {row.name.ja: row for row in mode.fight_view().fighters}
    assert rows[PC1].down and not rows[PC2].down


def test_the_title_names_the_other_side() -> None:
    """The fight's title is the monsters the party faces, counted, not the party."""
    assert table().fight_view().title == "vs オーク Orc ×2"
    assert table(monsters=(("orc", 1), ("ghost", 1))).fight_view().title == (
        "vs オーク Orc, ゴースト Ghost")


def test_the_log_says_what_the_round_s_last_action_did_not_the_new_round() -> None:
    """The log line of the action that ends a round says that action ("オーク2 waits"), not
    the "round 2" line the engine adds after it."""
    mode = table()
    play(mode, "wait", "wait", "wait", "wait")
    last = mode.fight.journal[-1]
    assert last.lines[-1].text.startswith("round 2")
    assert mode.fight_view().log[-1].endswith("＞ オーク2 Orc 2 waits")


def test_after_the_fight_the_gm_may_still_call_a_check() -> None:
    """The fight-over menu keeps the GM's steps that need no fight: close, undo, sleep,
    sunrise, sunset (GM-MON-5: a Wight's kill rises hours after the end, review64g R1) and
    a check (spec §2.3), which rolls there."""
    mode = table()
    play(mode, "gm", "end?", "end")
    assert mode.fight.state.current is None
    assert choices(mode) == ["close", "undo?", "sleep", "sunrise", "sunset", "check"]
    play(mode, "check", "c:simple", "d:easy")
    assert mode.last_check is not None and mode.last_check.call.kind == "simple"


def test_a_dispel_may_lift_the_exorcism_on_a_corpse() -> None:
    """GM-MAGIC-4 on GM-MON-5: Exorcism cast on PC 1's corpse keeps it from rising; a Dispel
    may be cast on anyone, the dead too, so the corpse is among its targets."""
    mode = wight_kills_pc1()
    play(mode, "cast", "s:exorcism", f"t:{PC1}")
    while mode.fight.state.current is not None and mode.fight.state.current.name != PC2:
        play(mode, "wait")
    play(mode, "cast", "s:dispel")
    assert f"t:{PC1}" in choices(mode)


def test_a_fist_the_sheet_lists_is_offered_once() -> None:
    """genso72 NIT 8: a sheet listing ``fist`` strikes with it and the fist everyone has; the
    weapon menu offers it once (the question is still asked, as saves hold its answer)."""
    mode = table(pc1={"weapons": ("fist",)})
    play(mode, "attack", f"t:{ORC1}")
    assert choices(mode) == ["w:0", "back"]


class TypedThrows:
    """The player's own dice, typed: each throw asked is the next of ``throws``; when they
    run out the power goes."""

    def __init__(self, *throws: tuple[int, ...]) -> None:
        self.throws = list(throws)

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        if not self.throws:
            raise KeyboardInterrupt
        return Throw(self.throws.pop(0))


def test_a_revision_7_table_that_struck_with_the_added_fist_resumes(tmp_path: Path) -> None:
    """reviewg72 DEFECT 1: a table of 0afa2005 (engine revision 7, the fist offered twice),
    Fi's sheet listing only ``fist``: Fi struck the Ghost with `w:1` (the fist derive adds)
    on [5,3], the Ghost waited, Fi picked `w:1` again and the power went at the to-hit throw.
    Resumed, `w:1` was "not among the choices (w:0, back)" and the save was set aside as
    corrupt, the half-played attack lost. It replays, the throw is asked again, and [1,1]
    plays as at 0afa2005 (2[1,1]+4=6, a failure)."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    shutil.copyfile(DATA / "table_added_fist_r7_fight.json", fight)
    saved = json.loads((DATA / "table_added_fist_r7.json").read_text(encoding="utf-8"))
    assert saved["inputs"].count("w:1") == 2 and saved["fight"]["version"] == 7
    saved["fight_path"] = str(fight.resolve())
    state.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    told: list[str] = []
    session = table_session(RULES, fight, state, resume=True, seed=None, choices=Player([]),
                            rolls=TypedThrows((1, 1)), tell=told.append)
    with contextlib.suppress(KeyboardInterrupt):
        session.run()
    mode = session.mode
    assert isinstance(mode, GensoFightMode)
    assert not [t for t in told if "does not replay" in t], told
    assert not list(tmp_path.glob("table.json.corrupt-*"))
    assert mode.journal == [*saved["inputs"], "1,1"]
    first, wait, again = mode.fight.journal
    assert first.action == again.action == Attack("Fi", "ゴースト", 1, False)
    assert wait.action == Wait("ゴースト")
    assert [(d.sides, d.value) for d in again.dice] == [(6, 1), (6, 1)]
    assert "2[1,1]+4=6 ＞ 失敗/failure" in again.lines[0].text
    assert read_fight_file(RULES, fight).journal[-1].action == again.action
