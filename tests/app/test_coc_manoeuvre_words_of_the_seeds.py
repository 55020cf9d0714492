"""The CoC table names the manoeuvres as the seeds and the rules do (a77data NIT 4): a choke
was 絞め, where 004 writes 締め付け (l.165) and CO-GRAP-7's title is "Choke (締め付け)"; a
knock-out was 気絶狙い, where 004 l.26 and CO-BASE-10 say ノックアウト; a gouge was えぐる,
where 004 l.90 and CO-BODY-3 say 抉り取り."""

from __future__ import annotations

from companion.app.modes.coc.words import BODY, HOW, describe
from companion.systems.coc.combat.actions import Attack, Choke

#: Words the seeds never use for these manoeuvres.
NOT_THE_SEEDS = ("絞め", "気絶狙い", "えぐる")


def test_the_attack_menu_says_knock_out_and_gouge_as_004_does() -> None:
    labels = {key: label for key, label, _ in HOW}
    assert labels["knockout"] == "Knock out ノックアウト"
    assert BODY["gouge"] == "Gouge 抉り取り"
    assert not [w for w in NOT_THE_SEEDS for label in (*labels.values(), *BODY.values())
                if w in label]


def test_the_log_says_a_choke_and_a_knock_out_as_004_does() -> None:
    assert describe(Choke("Ann")) == "Ann 締め付け chokes"
    line = describe(Attack("Ann", "Cult", knockout=True))
    assert "knockout ノックアウト" in line and "気絶狙い" not in line
