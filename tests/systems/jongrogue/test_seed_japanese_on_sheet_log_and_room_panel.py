"""The seed's Japanese beside the English on the JongRogue screen and in its account
(spec §9; audit rules61j N1): the PC sheet, the log's checks and gold, the ranged
combat's 近接戦闘する, and no 封魔 flag in EZ for a spent gaze or drain."""

from __future__ import annotations

from companion.app.modes.jongrogue import choice_label, room_tiles, sheet
from companion.systems.jongrogue.actions import Choice, Verb
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
from tests.systems.jongrogue.script import feed


def test_the_pc_sheet_says_the_seed_s_words() -> None:
    """Seed l.232-254: 金塊; l.406: 遠隔武器. (Lv and XP keep no Japanese: with it the line
    no longer fits the 800x480 sheet at text scale 1.25, test_screen_layout.)"""
    lines = sheet(Game("plus")).lines()
    assert "   Gold 金塊 " in lines[0]
    assert lines[2].startswith("Ranged 遠隔武器: ")


def test_check_lines_and_gold_say_the_seed_s_words() -> None:
    """Seed l.351-377: 近接攻撃, 防御, 遠隔攻撃, and the rate's 攻撃力 - レベル - 武器; gold is
    金塊 in the log as on the room panel."""
    game = Game("plus")
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "5m 2z 2z 2z 2z move:2 1z 4m 3z 3z move:1 1m 6z 6z 6z")
    lines = [describe(e) for e in feed(game, "shoot:2 9p 1p 1s fight:2 1m defend 9m")]
    checks = [line.strip() for line in lines if "vs 大蛇 (snake)" in line]
    assert [c.split(" vs ")[0] for c in checks] == [
        "ranged 遠隔攻撃 (arrows)", "melee 近接攻撃", "defend 防御"]
    assert "6 attack 攻撃力 − 1 level レベル − 0 strength 強さ − 1 weapon 武器" in checks[0]
    ez = Game("ez")
    ez.floor = 4
    gold = [e for e in feed(ez, "5m 1s 1z 1z 1z take") if e.kind is Kind.ITEM]
    # its reason with the seed's 金塊の牌 (l.244) beside, as every gold line's (jr68 NIT 2)
    assert describe(gold[-1]).strip() == "Gold 金塊 +10 (gold pile 金塊の牌 1s) → 10"


def test_close_in_is_the_seed_s_kinsen_option() -> None:
    """Seed l.410, l.414: 「近接戦闘する」 ends ranged combat."""
    assert choice_label(Game("plus"), Choice.of(Verb.CLOSE)) == "Close in 近接戦闘"


def test_an_ez_room_panel_shows_no_seal() -> None:
    """EZ's medusa and vampire are sealed only in that their one-off blow is spent (「一度だけ」,
    l.308, l.322; the 封魔 of l.304 and l.318 is EZプラス's); an EZ gold-lover's 封魔 (l.249)
    does show (test_gold_lover_seal_pincered_flight_and_defaults_readings)."""
    details = {}
    for preset in ("ez", "plus"):
        game = Game(preset)
        feed(game, "5m 1m 1z 1z 1z")
        game.monsters[0].sealed = True  # as a spent gaze leaves it (combat.py)
        details[preset] = room_tiles(game)[0].detail
    assert "封魔" not in details["ez"] and "sealed" not in details["ez"]
    assert details["plus"].endswith("sealed 封魔")
