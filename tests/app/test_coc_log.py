"""What the coc table's Log and Result panels say: an attack's defence (a dodge, a parry) and
its verdict after the attack's, and each result line's rule ID its own."""

from __future__ import annotations

from companion.systems.coc.combat import Defence
from tests.app.fight_log_helpers import cult_attacks_ann


def test_the_log_says_the_attack_was_dodged() -> None:
    """CO-DODGE-2: Ann's Dodge succeeded (no damage), and the Log read
    "Cult 攻撃 attacks → Ann (dodge) ＞ 成功/success", the attack's verdict alone: the blow
    seemed to land."""
    mode = cult_attacks_ann("003", [(100, 30), (100, 3)], defence=Defence.DODGE)
    assert mode.fight_view().log[-1] == ("Cult 攻撃 attacks → Ann (dodge) ＞ 成功/success · "
                                         "回避/Dodge 決定的成功/スペシャル (critical, special)")


def test_the_log_says_a_parry_failed_and_an_undefended_blow_is_the_attack_alone() -> None:
    """CO-PARRY-4 (004): a failed knife parry is told after the attack's success (it read
    "＞ 成功/success" alone, as a parry that held did); with no defence declared the Log
    gives the attack's verdict alone, as before."""
    parried = cult_attacks_ann("004", [(100, 30), (3, 2), (4, 1), (100, 90)],
                               defence=Defence.PARRY, parry_weapon=0)
    assert parried.fight_view().log[-1].endswith(
        "(parry ナイフ/Knife) ＞ 成功/success · 受け流し/parry ナイフ/Knife 失敗/failure")
    plain = cult_attacks_ann("004", [(100, 30), (3, 2), (4, 1)])
    assert plain.fight_view().log[-1] == "Cult 攻撃 attacks → Ann ＞ 成功/success"


def test_damage_after_a_failed_dodge_does_not_carry_the_dodges_rule() -> None:
    """CO-DODGE-2 names the dodge alone: the Result panel showed the damage roll and
    "Ann takes 3: HP 10/13" under CO-DODGE-2 too (and after an undefended blow under the
    attack's CO-CORE-1), as if the dodge rule dealt them."""
    dodged = cult_attacks_ann("003", [(100, 30), (100, 90), (3, 2), (4, 1)],
                              defence=Defence.DODGE)
    shown = [(step.rule, step.text.split(" ")[0]) for step in dodged.fight_view().result]
    assert shown == [("CO-CORE-1", "Cult"), ("CO-DODGE-2", "Ann"), ("", "damage"),
                     ("", "Ann")]
    plain = cult_attacks_ann("003", [(100, 30), (3, 2), (4, 1)])
    assert [step.rule for step in plain.fight_view().result] == ["CO-CORE-1", "", ""]


def test_the_keepers_undo_says_what_it_took_back() -> None:
    """Keeper 進行 → Undo: the table showed the action before the undone one as if nothing had
    happened; the status line now names what was taken back."""
    mode = cult_attacks_ann("003", [(100, 30), (100, 3)], defence=Defence.DODGE)
    for choice in ("keeper", "undo"):
        mode.restore(choice)
    assert mode.view("x").status == "取り消し undone: Cult 攻撃 attacks → Ann (dodge)"
