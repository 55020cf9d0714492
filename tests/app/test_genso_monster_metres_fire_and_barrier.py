"""genso60 (the rules60g audit of `genso` against seed 002): the table and the command line.

- GM-MOVE-1 / GM-MON-7: a monster's Move menu and the lines that tell its move (the undo
  line, the table's log) give its own metres (the Orc's 4/16/64 m), not a character's
  3/12/48 m;
- GM-MAGIC-10 / GM-MAGIC-5: at the table Fire and the Barrier take any set of those in the
  area, each toggled in or out, then Done (the command line names them one by one);
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.modes.genso import GensoFightMode, table_session, write_fight_file
from companion.app.session.mode import ChoiceAsk
from companion.dice import SimulatedDice
from companion.systems.genso.combat import Cast, Fight, Move, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_cli_out_helpers import out
from tests.app.table import Player, asked, choices, played_keys
from tests.hw.screen_layout_helpers import drawn_on

RULES = load_rules()
PC1 = "駆け出し冒険者１"


def test_an_orcs_move_menu_and_log_give_its_own_metres() -> None:
    """GM-MOVE-1, GM-MON-7 (GM 4 オーク
    「戦闘移動（ ４ｍ ）通常移動（１６ｍ ）全力移動（６４ｍ ）」):
    on the Orc's turn the Move menu reads 4/16/64 m, and its move's log line 16 m; a PC's
    menu still reads the rules' 3/12/48 m."""
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")],
                                                           [("orc", 1)])))
    played_keys(mode, ("move",), SimulatedDice.seeded(1))
    assert [o.label for o in asked(mode).options][:3] == [
        "戦闘移動 combat 3 m", "通常移動 normal 12 m", "全力移動 full 48 m"]
    played_keys(mode, ("back", "wait", "move"), SimulatedDice.seeded(1))
    assert [o.label for o in asked(mode).options][:3] == [
        "戦闘移動 combat 4 m", "通常移動 normal 16 m", "全力移動 full 64 m"]
    played_keys(mode, ("m:normal",), SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].action == Move("オーク", "normal")
    assert mode.describe(Move("オーク", "normal")) == "オーク Orc 通常移動 normal 16 m"
    assert mode.fight_view().log[-1].startswith("オーク Orc 通常移動 normal 16 m ＞")
    fight = mode.fight
    fight.push(Wait(PC1), SimulatedDice.seeded(1))
    assert fight.describe(Move(PC1, "full")) == f"{PC1} 全力移動 full 48 m"


def test_undoing_an_orcs_move_names_its_own_metres(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-MOVE-1: `fight undo` of the Orc's normal move said ``通常移動 normal 12 m`` while
    its line said 16 m; it says 16 m."""
    out(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    out(capsys, "fight", "wait", "pc1")
    assert "(16 m)" in out(capsys, "fight", "move", "オーク", "normal")
    assert "undone: オーク Orc 通常移動 normal 16 m" in out(capsys, "fight", "undo")


FAIRY = "一般的な森妖精の冒険者"


def fairy_table(*others: str, monsters: tuple[tuple[str, int], ...] = (("orc", 3),)
                ) -> GensoFightMode:
    party = [preset(RULES, "forest_fairy"), *(preset(RULES, k) for k in others)]
    return GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, party, list(monsters))))


def test_fire_burns_the_set_the_gm_puts_in_its_area_allies_too() -> None:
    """GM-MAGIC-10 (PG 1-2 l.1051 「火炎呪 … 効果範囲内の生物…にダメージを与える」, the reading
    "the GM names who is in the area, allies too"): the menu offered one foe or every foe;
    it toggles each being in or out ([x]), Back takes a toggle back, and Cast burns those
    in: Orc 1, Orc 2 and PC 1, never Orc 3."""
    mode = fairy_table("pc1")
    played_keys(mode, ("cast", "s:fire"), SimulatedDice.seeded(1))
    first = asked(mode)
    assert [o.choice for o in first.options] == [
        "in:オーク1", "in:オーク2", "in:オーク3", f"in:{FAIRY}", f"in:{PC1}", "all", "back"]
    played_keys(mode, ("in:オーク1", "in:オーク3", "in:オーク2", "in:オーク3", f"in:{PC1}",
                       "in:オーク1", "back"), SimulatedDice.seeded(1))
    labels = [o.label for o in asked(mode).options]
    assert labels[:3] == ["[x] Orc 1 オーク1", "[x] Orc 2 オーク2", "[ ] Orc 3 オーク3"]
    assert labels[4].startswith("[x] ") and labels[5] == "Cast 発動 (3)"
    assert "all" not in choices(mode)
    played_keys(mode, ("done",), SimulatedDice.seeded(1))
    fire = mode.fight.journal[-1].action
    assert fire == Cast(FAIRY, "fire", ("オーク1", "オーク2", PC1))
    assert mode.fight.state.get(PC1).hp < mode.fight.state.get(PC1).max_hp


def test_fire_is_not_cast_on_nobody() -> None:
    """GM-MAGIC-10: Cast is offered only once someone is in the area."""
    mode = fairy_table("pc1")
    played_keys(mode, ("cast", "s:fire", "in:オーク2", "in:オーク2"), SimulatedDice.seeded(1))
    assert "done" not in choices(mode)


def test_a_barrier_holds_the_friends_the_gm_puts_inside() -> None:
    """GM-MAGIC-5 (「術者を中心に…結界を作る」): the menu offered the whole party or the caster
    alone; any of the caster's friends may be toggled in, the caster always inside."""
    mode = fairy_table("pc1", "pc2")
    played_keys(mode, ("cast", "s:barrier"), SimulatedDice.seeded(1))
    assert choices(mode) == [f"in:{PC1}", "in:駆け出し冒険者２", "done", "all", "self", "back"]
    played_keys(mode, ("in:駆け出し冒険者２", "done"), SimulatedDice.seeded(1))
    barrier = mode.fight.journal[-1].action
    assert barrier == Cast(FAIRY, "barrier", ("駆け出し冒険者２",))
    effect = mode.fight.state.get(FAIRY).effects[-1]
    assert effect.members == (FAIRY, "駆け出し冒険者２")


def test_list_spells_marks_the_shunned_two(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-MAGIC-10/11: `list spells` marks Fire and Lightning 禁呪ではないが忌避 (not forbidden,
    but shunned), the seed's heading over them, and Seal Lock no longer."""
    # A spell's row goes on in the indented lines under it (genso61: 100 columns).
    rows = {block.split()[0]: block
            for block in re.split(r"\n(?! )", out(capsys, "list", "spells").rstrip())}
    shunned = "禁呪ではないが忌避/not forbidden, but shunned"
    assert rows["fire"].endswith(shunned) and rows["lightning"].endswith(shunned)
    assert "忌避" not in rows["seal_lock"]


FAIRY, CORPSE = "一般的な森妖精の冒険者", "アンデッド・コープス"


def _press(mode: GensoFightMode, key: str) -> None:
    """Press the option ``key`` of the live menu (not a save's answer given again)."""
    mode.answer(choices(mode).index(key))


def _barred(members: tuple[str, ...]) -> GensoFightMode:
    """The forest fairy (Magic 12) casts a Barrier holding ``members`` (and herself), pc1
    waits: the Undead Corpse's turn (Magic 3, which cannot enter it), an orc beside it."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "forest_fairy"),
                                              preset(RULES, "pc1")],
                                      [("undead_corpse", 1), ("orc", 1)]))
    fight.push(Cast(FAIRY, "barrier", members), SimulatedDice.seeded(1))
    fight.push(Wait(PC1), SimulatedDice.seeded(1))
    assert fight.state.current is not None and fight.state.current.name == CORPSE
    return GensoFightMode(RULES, fight)


def test_the_table_offers_no_attack_on_those_inside_a_barrier_the_undead_cannot_enter(
        ) -> None:
    """calendar73 RISK 3 (GM-MAGIC-5): with every foe inside the Barrier, the Undead Corpse
    was offered Attack and Full attack, and each target was refused once picked
    ("cannot enter 一般的な森妖精の冒険者's barrier"). The engine's own check leaves them out of
    "Attack whom?", and Attack out when no one is left; the orc, no undead, is offered
    them all."""
    mode = _barred((PC1,))
    assert "attack" not in choices(mode) and "full" not in choices(mode)
    assert {"dodge", "wait", "gm"} <= set(choices(mode))
    # PC 1 outside the Barrier: offered alone.
    mode = _barred(())
    _press(mode, "attack")
    assert [o.choice for o in asked(mode).options] == [f"t:{PC1}", "back"]
    _press(mode, "back")
    _press(mode, "wait")
    assert mode.fight.state.current is not None and mode.fight.state.current.name == "オーク"
    _press(mode, "attack")
    assert [o.choice for o in asked(mode).options] == [f"t:{FAIRY}", f"t:{PC1}", "back"]


def test_a_save_that_opened_attack_on_the_barred_replays() -> None:
    """A save's answers are given again as they were played (a table saved before RISK 3
    opened Attack, then went Back): every foe is offered while it replays."""
    mode = _barred((PC1,))
    played_keys(mode, ("attack", "back", "wait"), SimulatedDice.seeded(1))
    assert mode.fight.state.current is not None and mode.fight.state.current.name == "オーク"


class _Sees:
    """A player at the table who notes the menu the resumed game first asks, then stops."""

    def __init__(self) -> None:
        self.menus = list[tuple[str, list[str]]]()

    def next_choice(self, ask: ChoiceAsk, show: object) -> int:
        self.menus.append((ask.prompt, [o.choice for o in ask.options]))
        raise KeyboardInterrupt


def test_a_save_stopped_at_the_barred_undeads_attack_whom_resumes_to_its_action_menu(
        tmp_path: Path) -> None:
    """fixcarry75 item 6 (reviewg73 NIT 2, GM-MAGIC-5): a table saved before RISK 3 that
    stopped at the Undead Corpse's "Attack whom?" (every foe inside the Barrier, offered then)
    resumed to that menu with Back alone in it. It resumes one step back, to the corpse's
    action menu, Attack left out as the table plays now; the save's events are as it had."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    write_fight_file(fight, _barred((PC1,)).fight)
    session = table_session(RULES, fight, state, resume=False, seed=1, choices=Player([]))
    with pytest.raises(KeyboardInterrupt):
        session.run()
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert (saved["inputs"], saved["events"]) == ([], 0)
    saved["inputs"] = ["attack"]  # as the table wrote it before RISK 3: Attack was offered
    state.write_text(json.dumps(saved), encoding="utf-8")
    player = _Sees()
    session = table_session(RULES, fight, state, resume=True, seed=None, choices=player)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    prompt, keys = player.menus[0]
    assert prompt.startswith(f"{CORPSE} Undead Corpse: what now?")
    assert "attack" not in keys and {"dodge", "wait", "gm"} <= set(keys)


def _held_by_barrier() -> GensoFightMode:
    """The forest fairy's Barrier holds pc1, not pc2, against an Undead Corpse and a Wight."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, k)
                                              for k in ("forest_fairy", "pc1", "pc2")],
                                      [("undead_corpse", 1), ("wight", 1)]))
    fight.push(Cast(FAIRY, "barrier", (PC1,)), SimulatedDice.seeded(1))
    return GensoFightMode(RULES, fight)


def test_a_fighter_inside_anothers_barrier_is_marked_on_its_row(
        capsys: pytest.CaptureFixture[str], user_dirs: Path) -> None:
    """calendar73 NIT 6 (GM-MAGIC-5): only the caster's row showed 結界呪; with the party
    split the GM could not see who was inside. pc1's row says 結界内 barrier at the table,
    結界内 in `fight show` beside its 結界呪 (its JSON names the caster); pc2's and the
    caster's do not; an undo of the Barrier takes the mark off."""
    mode = _held_by_barrier()
    rows = {row.name.ja: row.conditions for row in mode.fight_view().fighters}
    assert rows[PC1] == ("結界内 barrier",)
    assert rows[FAIRY] == ("結界呪 Barrier",) and rows["駆け出し冒険者２"] == ()
    out(capsys, "fight", "new", "--party", "forest_fairy", "pc1", "pc2", "--monsters",
        "undead_corpse", "wight")
    shown = out(capsys, "fight", "cast", "forest_fairy", "barrier", "pc1", "--seed", "1")
    row = next(line for line in shown.splitlines() if f"party {PC1}" in line)
    assert row.endswith("HP 12/12 MP 8/8  結界内")
    assert len(row) + sum(ord(ch) > 0x2E80 for ch in row) <= 80  # 80 columns, wide as two
    data = json.loads(out(capsys, "fight", "show", "--json"))
    assert [c["in_barrier_of"] for c in data["combatants"]] == [None, FAIRY, None, None, None]
    assert "結界内" not in out(capsys, "fight", "undo")


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize(("size", "scale"), [("800x480", 1.0), ("800x480", 1.25)],
                         ids=["800x480", "800x480-text1.25"])
def test_the_barrier_mark_reads_whole_on_the_screen(size: str, scale: float) -> None:
    mode = _held_by_barrier()
    ask = asked(mode)
    drawn = drawn_on(mode.view(ask.prompt, options=ask.options, highlight=0), size, scale)
    marks = [d for d in drawn if "結界内" in d.text]
    assert marks and not any(d.cut for d in marks), marks
