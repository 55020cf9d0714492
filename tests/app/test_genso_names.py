"""Who is who on the genso fight screen: target buttons that stay apart when cut short, and
the English beside every Japanese name in what the mode shows (results, log, prompts,
refusals), which a screen without a Japanese font keeps (the screen audit's fight: six of
the party against ants, corpses, orc warriors and a ghost)."""

from __future__ import annotations

from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.fonts import without_cjk
from companion.systems.genso.combat import Entrant, Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()


def big_fight() -> GensoFightMode:
    party = ["pc1", "pc2", "knight_m", "mage_f", "priest_m", "forest_fairy"]
    foes = [("giant_ant", 3), ("undead_corpse", 2), ("orc_warrior", 2), ("ghost", 1)]
    return GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, key) for key in party], foes)))


def test_target_buttons_start_with_what_tells_them_apart() -> None:
    """"[A] ジャイアン…", "[2] ジャイアン…", "[3] ジャイアン…": the Japanese name came first
    and the number last; a button holds a dozen characters or so."""
    mode = big_fight()
    menu = mode.ask()
    assert isinstance(menu, ChoiceAsk)
    mode.answer([o.choice for o in menu.options].index("attack"))
    menu = mode.ask()
    assert isinstance(menu, ChoiceAsk) and menu.prompt.startswith("Attack whom")
    labels = [o.label for o in menu.options]
    assert labels[:3] == ["Giant Ant 1 ジャイアント・アント1", "Giant Ant 2 ジャイアント・アント2",
                          "Giant Ant 3 ジャイアント・アント3"]
    assert labels[-2] == "Ghost ゴースト"
    english = [without_cjk(label) for label in labels]  # what no Japanese font leaves
    assert len(set(english)) == len(english), english
    assert all(label.startswith(en) for label, en in zip(labels, english, strict=True))


def test_who_acted_is_kept_in_english_in_the_result_the_log_and_a_refusal() -> None:
    """Without a Japanese font "一般的な神官（男性） flees" read "GM-COMBAT-1 flees", a roll's
    prompt and a refusal lost their names the same way."""
    mode = big_fight()
    menu = mode.ask()
    for _ in range(len(mode.fight.state.combatants)):  # until the priest's turn
        if not isinstance(menu, ChoiceAsk) or "一般的な神官（男性）" in menu.prompt:
            break
        mode.answer([o.choice for o in menu.options].index("wait"))
        menu = mode.ask()
    assert isinstance(menu, ChoiceAsk)
    priest = "Typical priest (male)"
    assert without_cjk(menu.prompt).startswith(f"{priest}: what now?")
    mode.answer([o.choice for o in menu.options].index("flee?"))
    sure = mode.ask()
    assert isinstance(sure, ChoiceAsk)
    assert without_cjk(sure.prompt).startswith(f"{priest} flees the fight?")
    mode.answer([o.choice for o in sure.options].index("flee"))
    shown = mode.fight_view()
    assert [without_cjk(step.text) for step in shown.result] == [f"{priest} flees"]
    assert without_cjk(shown.result_title) == f"{priest} flees"
    assert without_cjk(shown.log[-1]) == f"{priest} flees > {priest} flees"
    ja = next(f.name.ja for f in shown.fighters if f.name.en == priest)
    view = mode.view("x", status=f"{ja} cannot act now")
    assert without_cjk(view.status) == f"{priest} cannot act now"


def test_an_npc_is_named_in_english_by_what_it_is_not_its_role() -> None:
    """The party's NPCs read "一般的な魔術師（女性） NPC 2", "一般的な神官（男性） NPC 3": in
    English a role and a number, the mage and the priest alike. They now have the English
    of their preset (presets.toml name_en); a PC is still its player's PC 1, PC 2, and two
    of one preset are numbered among themselves."""
    mode = big_fight()
    english = [f.name.en for f in mode.fight_view().fighters if f.ally]
    assert sorted(english) == ["Knight (male)", "PC 1", "PC 2",
                               "Typical forest fairy (elf) adventurer", "Typical mage (female)",
                               "Typical priest (male)"]
    knight = preset(RULES, "knight_m")
    knights = [Entrant.of_character(knight), Entrant.of_character(knight, name="騎士（男性）2")]
    twice = GensoFightMode(RULES, Fight(RULES, [*knights, *entrants_for(RULES, [], [("orc", 1)])]))
    assert twice.english_names() == {"騎士（男性）": "Knight (male) 1",
                                     "騎士（男性）2": "Knight (male) 2", "オーク": "Orc"}
