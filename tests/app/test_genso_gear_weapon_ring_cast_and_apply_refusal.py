"""Audit genso63's findings, fixed: a weapon readied with `gear` is weapon 0, the one
`fight attack` strikes with, as `gear --help` says (DEFECT 1); the table pays a spell from
a Ring of Storage as `fight cast --ring` does (DEFECT 3); `fight apply` refusing a sheet
changed since the fight began says what to write into it by hand and writes the others
(RISK 4); and NIT 2 and NIT 8's wording on the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import table_session, write_fight_file
from companion.app.session.mode import ChoiceAsk
from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.systems.genso.combat import Cast
from companion.systems.genso.rules import load_rules
from tests.app.genso_json_helpers import genso
from tests.app.genso_ring_table_helpers import PC1, PC2, ringed_table, turn_of
from tests.app.table import asked, choices, played_keys

RULES = load_rules()


def test_a_weapon_readied_with_gear_is_the_one_fight_attack_strikes_with(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1: `gear --help` said a weapon equipped becomes weapon 0, but it was put after
    the club and knife, so `fight attack` without --weapon still struck with the club."""
    sheet = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    assert main(["genso", "buy", str(sheet), "staff"]) == 0
    assert main(["genso", "gear", str(sheet), "staff"]) == 0
    said = capsys.readouterr().out
    assert "equipped 棒/Staff: weapon 0, the one `fight attack` strikes with" in said
    weapons = genso(capsys, "sheet", str(sheet))["sheet"]["weapons"]
    assert weapons[:3] == ["staff", "club", "knife"]
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    current = genso(capsys, "fight", "show")["current"]
    if current != "駆け出し冒険者１":
        genso(capsys, "fight", "wait", current)
    hit = genso(capsys, "fight", "attack", str(sheet), "orc", "--seed", "1")
    assert hit["entry"]["action"]["weapon"] == 0
    assert any(line["text"].startswith("棒/Staff (1D6-2)") for line in hit["entry"]["lines"])


def test_the_table_pays_a_spell_from_a_ring_of_storage_as_fight_cast_ring_does() -> None:
    """DEFECT 3 (GM-ITEM-3's Default: stored MP is spent like a mana stone's): the table
    asked no payment with no mana stone, so with 3 MP of its own and 5 in the ring Healing
    (4 MP) was refused ("has 3 MP, the spell needs 4 more"); `fight cast --ring` cast it.
    Own MP alone (3) cannot pay it, and is not offered (fixcarry75 item 2)."""
    mode = ringed_table()
    played_keys(mode, ("wait", "cast", "s:healing", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert choices(mode) == ["pay:ring", "back"]
    played_keys(mode, ("pay:ring",), SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].action == Cast(PC2, "healing", (PC1,), None, None, True)
    caster = mode.fight.state.get(PC2)
    assert (caster.storage_mp, caster.mp) == (1, 3)


def test_the_ring_then_a_mana_stone_is_offered_beside_each_alone() -> None:
    """With a mana stone too, each pays alone, or the ring first and the stone after, as
    `fight cast --ring --stone N` pays (GM-ITEM-1, GM-ITEM-3); own MP alone (3 of 4) is not
    offered (fixcarry75 item 2), as with 4 of its own it is."""
    mode = ringed_table(mana_stones=(2,))
    played_keys(mode, ("wait", "cast", "s:healing", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert choices(mode) == ["pay:0", "pay:ring", "pay:ring:0", "back"]
    played_keys(mode, ("pay:ring:0",), SimulatedDice.seeded(1))
    caster = mode.fight.state.get(PC2)
    assert (caster.storage_mp, caster.mana_stones, caster.mp) == (1, (2,), 3)
    mode = ringed_table(mp=4, mana_stones=(2,))
    played_keys(mode, ("wait", "cast", "s:healing", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert choices(mode) == ["pay:mp", "pay:0", "pay:ring", "pay:ring:0", "back"]


def test_the_payment_question_says_which_way_cannot_pay_and_why() -> None:
    """reviewcarry75 NIT 3 (GM-MAGIC-1, GM-ITEM-1/3): a way that cannot pay left the payment
    question without a word: pc2 with 2 MP of its own, 5 in the ring and a stone of 1 saw
    no "MP only" and no stone alone. The question names each way left out and the MP it
    reaches of the spell's 4, Japanese beside English, short enough that the ring-then-stone
    label (made shorter too) stays whole in its box; with every way offered it says nothing
    more."""
    mode = ringed_table(mp=2, mana_stones=(0, 1))
    played_keys(mode, ("wait", "cast", "s:healing", f"t:{PC1}"), SimulatedDice.seeded(1))
    ask = asked(mode)
    assert choices(mode) == ["pay:ring", "pay:ring:1", "back"]
    assert ask.prompt == ("Pay from a mana stone or ring? 魔力石・指輪で払う？ — cannot pay "
                          "払えない: MP only MPのみ 2/4, stone 魔力石2 3/4")
    assert [o.label for o in ask.options[:2]] == ["蓄積の指輪 Ring of Storage (5)",
                                                  "指輪 ring (5) + 魔力石 stone 2 (1)"]
    mode = ringed_table(mp=4, mana_stones=(2,))
    played_keys(mode, ("wait", "cast", "s:healing", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert asked(mode).prompt == "Pay from a mana stone or ring? 魔力石・指輪で払う？"


@pytest.mark.parametrize(("stones", "said"), [
    # Five stones, four part-spent: each way said one by one cut the question mid-text at
    # text size 1.25 (r76genso DEFECT 2); stones alike are one way.
    ((3, 1, 1, 1, 1), "MP only MPのみ 1/4, stones 魔力石2–5 2/4, ring 指輪 2/4, "
                      "ring+stones 指輪+魔力石2–5 3/4"),
    ((3, 1, 1), "MP only MPのみ 1/4, stones 魔力石2,3 2/4, ring 指輪 2/4, "
                "ring+stones 指輪+魔力石2,3 3/4"),
    # Past three, the rest counted.
    ((2, 1, 2, 1, 2, 1, 2, 1), "MP only MPのみ 1/4, stones 魔力石1,3,5,7 3/4, "
                               "stones 魔力石2,4,6,8 2/4, +2 more 他2件"),
], ids=["five-stones", "three-stones", "eight-stones-unlike"])
def test_the_payment_question_says_stones_alike_as_one_and_counts_past_three(
        stones: tuple[int, ...], said: str) -> None:
    """GM-MAGIC-1, GM-ITEM-1/3: pc2 with 1 MP of its own and 1 in the ring, casting Healing
    (4 MP): the ways left out are said bounded, each with the MP it reaches of 4."""
    mode = ringed_table(mp=1, storage_mp=1, mana_stones=stones)
    played_keys(mode, ("wait", "cast", "s:healing", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert asked(mode).prompt == ("Pay from a mana stone or ring? 魔力石・指輪で払う？ — "
                                  f"cannot pay 払えない: {said}")


class _Asked:
    """A player at the table who picks by key, noting each menu's keys, and stops (the power
    goes) when the script runs out."""

    def __init__(self, script: list[str]) -> None:
        self.script, self.menus = list(script), list[list[str]]()

    def next_choice(self, ask: ChoiceAsk, show: object) -> int:
        keys = [o.choice for o in ask.options]
        self.menus.append(keys)
        if not self.script:
            raise KeyboardInterrupt
        return keys.index(self.script.pop(0))


def test_the_table_offers_only_payments_that_can_pay_and_a_save_of_one_that_could_not(
    tmp_path: Path,
) -> None:
    """fixcarry75 item 2 (GM-MAGIC-1, GM-ITEM-1/3): at the table, pc2 with 3 MP of its own
    and 5 in a Ring of Storage casts Healing (4 MP): the payment question offered "MP only
    (3)", which the engine then refused ("needs 4 of its own (1 more)"). Only the ring is
    offered now. A save whose answers picked own MP and then the ring (the refusal kept the
    menu) still replays: every way is offered while it is given again."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    write_fight_file(fight, ringed_table().fight)
    player = _Asked(["wait", "cast", "s:healing", f"t:{PC1}"])
    session = table_session(RULES, fight, state, resume=False, seed=1, choices=player)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    assert player.menus[-1] == ["pay:ring", "back"]
    mode = ringed_table()
    for choice in ("wait", "cast", "s:healing", f"t:{PC1}"):
        mode.restore(choice)
    with pytest.raises(IllegalAction, match=r"needs 4 of its own \(1 more\)"):
        mode.restore("pay:mp")
    mode.restore("pay:ring")
    assert mode.fight.journal[-1].action == Cast(PC2, "healing", (PC1,), None, None, True)


def test_an_older_save_stopped_at_a_payment_no_way_pays_resumes_to_the_question(
    tmp_path: Path,
) -> None:
    """reviewcarry75 DEFECT 1 (GM-MAGIC-1, GM-ITEM-1/3): a table save made before the
    payment question offered only the ways that pay may have stopped at it with none that
    pays: pc2 with 1 MP, 1 in the ring and a stone of 1 casting Healing (4 MP). It was set
    aside as corrupt on resume (the empty question was skipped and the cast refused). It
    resumes to the question with every way, as it was asked; each refused names the
    shortfall and the question asked again, Back among its ways, the save kept."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    write_fight_file(fight, ringed_table(mp=1, storage_mp=1, mana_stones=(1,)).fight)
    with pytest.raises(KeyboardInterrupt):
        table_session(RULES, fight, state, resume=False, seed=1,
                      choices=_Asked(["wait"])).run()
    save = json.loads(state.read_text(encoding="utf-8"))
    assert (save["inputs"], save["events"]) == (["wait"], 1)
    # As the older table saved it, stopped at the payment question.
    save["inputs"] += ["cast", "s:healing", f"t:{PC1}"]
    state.write_text(json.dumps(save), encoding="utf-8")
    player, told = _Asked(["pay:mp"]), list[str]()
    session = table_session(RULES, fight, state, resume=True, seed=1, choices=player,
                            tell=told.append)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    every = ["pay:mp", "pay:0", "pay:ring", "pay:ring:0", "back"]
    assert player.menus == [every, every]
    assert told == []
    assert "has 1 MP, the spell needs 4 of its own (3 more)" in session.status
    assert [p.name for p in tmp_path.iterdir() if "corrupt" in p.name] == []
    assert json.loads(state.read_text(encoding="utf-8"))["inputs"][:4] == [
        "wait", "cast", "s:healing", f"t:{PC1}"]


def test_a_journal_from_before_the_ring_was_offered_replays_as_it_was_cast() -> None:
    """A table journal written before the payment question was asked for a ring cast on
    own MP straight after the target; it replays so, and goes on with its next choice."""
    mode = ringed_table(mp=8)
    for choice in ("wait", "cast", "s:healing", f"t:{PC1}", "wait"):
        mode.restore(choice)
    cast = mode.fight.journal[-2].action
    assert cast == Cast(PC2, "healing", (PC1,))
    assert mode.fight.state.get(PC2).storage_mp == 5


def test_apply_refusing_a_changed_sheet_names_what_to_write_and_writes_the_others(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 4: `fight apply` refused a sheet bought from mid-fight with "put the changes in
    after applying, or set its HP/MP by hand", naming no HP or MP (and applying after was
    what it refused), and wrote no other PC's sheet. Now it gives the fields the fight
    changed, a mana stone's MP and a Healing Stone used too (GM-ITEM-1/2), and writes the
    other sheet."""
    one, two = tmp_path / "one.toml", tmp_path / "two.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(one))
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    for sheet, wants in ((one, "healing_stone"), (two, "mana_stone")):
        text = re.sub(r"^money = .*$", "money = {gold = 9}", sheet.read_text(encoding="utf-8"),
                      flags=re.M)
        sheet.write_text(text, encoding="utf-8")
        assert main(["genso", "buy", str(sheet), wants]) == 0
    capsys.readouterr()
    stone = genso(capsys, "sheet", str(two))["sheet"]["mana_stones"][0]
    cost = RULES.spell("healing").mp
    assert cost is not None and stone <= cost  # the stone pays all it holds, own MP the rest
    genso(capsys, "fight", "new", "--party", str(one), str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--stone", "0", "--seed", "1")
    turn_of(capsys, PC1)
    genso(capsys, "fight", "stone", PC1, "healing_stone", PC1, "--seed", "1")
    shown = {c["name"]: c for c in genso(capsys, "fight", "show")["combatants"]}
    assert main(["genso", "buy", str(two), "torch"]) == 0  # after the fight began
    capsys.readouterr()
    genso(capsys, "fight", "end")
    bought = two.read_text(encoding="utf-8")
    assert main(["genso", "fight", "apply"]) == 2
    err = capsys.readouterr().err
    assert (f"{two.resolve()} was changed since the fight began (a rest, a purchase, a hand), "
            f"so apply does not write over it: the fight changed on {PC2} PC 2: ") in err
    assert shown[PC2]["mp"] == shown[PC2]["max_mp"] - (cost - stone)
    # review63c RISK 3: the changes, not the values left (they would undo a purchase).
    mp = (f"mp {shown[PC2]['max_mp']} → {shown[PC2]['mp']} ({stone - cost:+d}), "
          if stone < cost else "")  # an MP the fight did not change is not named
    assert (f"{PC2} PC 2: {mp}mana_stones 魔力石 0: {stone} → 0 MP; make those changes to the "
            "sheet as it is now") in err
    assert "after applying" not in err
    assert two.read_text(encoding="utf-8") == bought
    assert f"(written: {one.resolve()})" in err
    written = genso(capsys, "sheet", str(one))["sheet"]
    assert "used:healing_stone" in written["equipment"]


def text_of(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> str:
    """Run ``companion genso ARGV`` for its text (stdout and stderr)."""
    assert main(["genso", *argv]) == code
    said = capsys.readouterr()
    return said.out + said.err


def test_the_undead_check_without_a_sheet_has_no_a_before_a_vowel(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 8: "a undead check needs --sheet"."""
    said = text_of(capsys, "check", "undead", code=2)
    assert "the undead check needs --sheet SHEET" in said and "a undead" not in said


def test_buying_a_mana_stone_says_its_mp_and_price_and_grow_the_spell_s_name(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 8: a mana stone bought said neither its MP nor what it cost, as every other buy
    does; `grow … spell --spell fire` echoed "fire", not the spell's name."""
    sheet = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(sheet))
    stone = RULES.mana_stone
    said = text_of(capsys, "buy", str(sheet), "mana_stone")
    assert (f"GM-ITEM-1 bought a mana stone ({stone['ja']}/{stone['en']}, {stone['shop_mp']} "
            "MP) for 大銀貨2枚 (2 large silver)") in said
    said = text_of(capsys, "buy", str(sheet), "mana_stone", "--mp", "1")
    assert "1 MP) for 銀貨2枚 (2 silver)" in said
    text_of(capsys, "grow", str(sheet), "award", "--scenarios", "9")
    said = text_of(capsys, "grow", str(sheet), "spell", "--spell", "fire")
    assert f"GM-GROW-2 bought spell ({RULES.spell('fire').name})" in said


def test_an_enemy_check_says_only_the_enemy_bonus_s_warning(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 8: a sheet whose printed 罠発見 differs from 2 × Search had the trap warning
    printed on its enemy-detection check (GM-CHECK-6), and the other way round."""
    sheet = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    sheet.write_text(sheet.read_text(encoding="utf-8") + "trap_bonus = 4\n", encoding="utf-8")
    enemy = text_of(capsys, "check", "enemy", "--sheet", str(sheet), "--seed", "1")
    assert "GM-CHECK-3" not in enemy and "罠発見" not in enemy
    trap = text_of(capsys, "check", "trap", "--sheet", str(sheet), "--seed", "1")
    assert "GM-CHECK-3: printed 罠発見/trap detection +4 differs" in trap


def test_fight_end_leaves_a_won_fight_won(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 8: `fight end` on a fight the party had won wrote "終了 the GM ended the fight"
    over "勝利 the party won"; it is refused and the outcome kept."""
    genso(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    turn_of(capsys, "オーク")
    genso(capsys, "fight", "flee", "オーク")
    assert genso(capsys, "fight", "show")["outcome"] == "party_won"
    said = text_of(capsys, "fight", "end", code=2)
    assert "the fight is already over: 勝利 the party won" in said
    assert genso(capsys, "fight", "show")["outcome"] == "party_won"


def test_list_monsters_shows_movement_protection_and_only_what_a_drain_takes(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 2: the text dropped each block's 移動力 and 防御力, which the JSON keeps, and a
    Ghost's drain read "ＭＰ吸収 HP吸収 0 MP吸収 4"."""
    said = text_of(capsys, "list", "monsters")
    orc, ghost = RULES.monster("orc"), RULES.monster("ghost")
    flat = " ".join(said.split())
    assert "移動/move {}/{}/{} m 防護/protection {}".format(*orc.move, orc.protection) in flat
    assert f"ＭＰ吸収/MP drain MP {ghost.drain_mp} (防御点無効/ignores protection)" in flat
    assert "HP吸収 0" not in said


def test_apply_names_the_rings_stored_mp_and_the_stones_used(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """genso74 NIT 8: apply said "HP 10 MP 12 written", not the Ring of Storage's stored MP
    it wrote (5 → 1) nor the Healing Stone it marked used (GM-ITEM-2/3); and a cast the
    ring paid in full said "MP −0, Ring of Storage −4"."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    text = re.sub(r"^equipment = \[", 'equipment = ["healing_stone", ',
                  two.read_text(encoding="utf-8"), flags=re.M)
    two.write_text(text + 'rings = {left = ["ring_storage"]}\nstorage_mp = 5\n',
                   encoding="utf-8")
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    assert main(["genso", "fight", "cast", PC2, "healing", PC2, "--ring", "--seed", "1"]) == 0
    assert f"{PC2} PC pays 蓄積の指輪/Ring of Storage −4\n" in capsys.readouterr().out
    turn_of(capsys, PC2)
    genso(capsys, "fight", "stone", PC2, "healing_stone", PC2, "--seed", "1")
    genso(capsys, "fight", "end")
    assert main(["genso", "fight", "apply"]) == 0
    assert (f"{PC2} PC: HP 10 MP 12 storage_mp 5 → 1 (蓄積の指輪/Ring of Storage) used: "
            f"治癒石/Healing Stone written to {two.resolve()}") in capsys.readouterr().out
    written = two.read_text(encoding="utf-8")
    assert "storage_mp = 1" in written and '"used:healing_stone"' in written
