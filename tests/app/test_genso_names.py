"""Who is who on the genso fight screen: target buttons that stay apart when cut short, and
the English beside every Japanese name in what the mode shows (results, log, prompts,
refusals), which a screen without a Japanese font keeps (the screen audit's fight: six of
the party against ants, corpses, orc warriors and a ghost)."""

from __future__ import annotations

from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.fonts import without_cjk
from companion.systems.genso.combat import Fight, entrants_for
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
    while isinstance(menu, ChoiceAsk) and "NPC 3:" not in menu.prompt:  # the priest's turn
        mode.answer([o.choice for o in menu.options].index("wait"))
        menu = mode.ask()
    assert isinstance(menu, ChoiceAsk)
    assert without_cjk(menu.prompt).startswith("NPC 3: what does it do?")
    mode.answer([o.choice for o in menu.options].index("flee"))
    shown = mode.fight_view()
    assert [without_cjk(step.text) for step in shown.result] == ["NPC 3 flees"]
    assert without_cjk(shown.result_title) == "NPC 3 flees"
    assert without_cjk(shown.log[-1]) == "NPC 3 flees > NPC 3 flees"
    priest = next(f.name.ja for f in shown.fighters if f.name.en == "NPC 3")
    view = mode.view("x", status=f"{priest} cannot act now")
    assert without_cjk(view.status) == "NPC 3 cannot act now"
