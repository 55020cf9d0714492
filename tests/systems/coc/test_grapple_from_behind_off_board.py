"""Off 003's board the Keeper says whether a grapple or a tackle comes from behind
(``from_behind``, as an attack's): from engine revision 7 it is then an attack from behind
(CO-DODGE-3, 003 l.99 「回避集中を宣言していない場合、後ろからの攻撃は回避行動を行う事が
出来ない。」), takes no dodge or parry without dodge concentration and, a tackle, finds no
human shield (CO-GRAP-4, l.36 「但し後ろからの攻撃の場合はその限りではない」), as a punch from
there. On the board the board says (CO-TURN-2), as for an attack. 004 has neither rule
(CO-DODGE-3 and CO-GRAP-4 are 003's), so there it changes nothing, as an attack's does.
Fights saved before the field replay as they were played."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Concentrate,
    Defence,
    EndTurn,
    Fight,
    Grapple,
    Place,
    Tackle,
    action_from_json,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.grapple_from_behind_helpers import ANN, CULT, TACKLE_ON, cult_holds_ann
from tests.systems.coc.helpers import at, duel, push, replays


def off_board(engine: int = ENGINE, concentrating: bool = False,
              profile: Profile = Profile.P003) -> Fight:
    """Ann against Cult, nobody on the board; Ann's turn."""
    f = duel(profile, ANN, CULT, settings=TACKLE_ON if profile is Profile.P003 else None)
    if concentrating:
        push(f, Concentrate("Cult"))
    return at(engine, f)


@pytest.mark.parametrize("defence", [Defence.DODGE, Defence.PARRY])
def test_a_grapple_said_from_behind_takes_no_dodge_or_parry_003(defence: Defence) -> None:
    """Refused before any die, as the punch's dodge from behind is; the grapple from behind
    holds undefended. The same grapple not from behind is dodged or parried as before."""
    with pytest.raises(IllegalAction, match=f"Cult cannot {defence.value} now"):
        off_board().push(Attack("Ann", "Cult", defence=defence, from_behind=True),
                         ScriptedDice([]))
    with pytest.raises(IllegalAction, match=f"Cult cannot {defence.value} now"):
        off_board().push(Grapple("Ann", "Cult", defence=defence, from_behind=True),
                         ScriptedDice([]))
    f = off_board()
    text = push(f, Grapple("Ann", "Cult", from_behind=True), (100, 30), (100, 90))
    assert f.state.get("Ann").grappling == "Cult" and "Ann holds Cult" in text
    assert f.journal[-1].to_json()["action"]["from_behind"] is True
    replays(f)
    f = off_board()
    text = push(f, Grapple("Ann", "Cult", defence=defence), (100, 30), (100, 10))
    assert f.state.get("Ann").grappling == "" and ("回避/Dodge" in text or "parried" in text)
    replays(f)


def test_a_tackle_said_from_behind_takes_no_dodge_003() -> None:
    with pytest.raises(IllegalAction, match="Cult cannot dodge now"):
        off_board().push(Tackle("Ann", "Cult", defence=Defence.DODGE, from_behind=True),
                         ScriptedDice([]))
    f = off_board()
    text = push(f, Tackle("Ann", "Cult", from_behind=True), (100, 30), (6, 3), (4, 1))
    assert "Cult takes 4: HP 9/13" in text
    replays(f)


def test_dodge_concentration_dodges_them_from_behind_off_the_board_003() -> None:
    """CO-DODGE-3 lifts with dodge concentration (CO-DODGE-1), off the board as on it."""
    f = off_board(concentrating=True)
    text = push(f, Grapple("Ann", "Cult", defence=Defence.DODGE, from_behind=True),
                (100, 30), (100, 10))
    assert "回避/Dodge" in text and f.state.get("Ann").grappling == ""
    replays(f)
    f = off_board(concentrating=True)
    text = push(f, Tackle("Ann", "Cult", defence=Defence.DODGE, from_behind=True),
                (100, 30), (100, 10))
    assert "回避/Dodge" in text and f.state.get("Cult").hp == 13
    replays(f)


def test_revision_6_took_no_grapple_or_tackle_from_behind() -> None:
    """The gate is revision 7's, as on the board: played by revision 6, the Keeper's
    ``from_behind`` leaves the dodge as it was."""
    old = off_board(6)
    text = push(old, Grapple("Ann", "Cult", defence=Defence.DODGE, from_behind=True),
                (100, 30), (100, 10))
    assert "回避/Dodge" in text and old.state.get("Ann").grappling == ""
    replays(old)
    old = off_board(6)
    text = push(old, Tackle("Ann", "Cult", defence=Defence.DODGE, from_behind=True),
                (100, 30), (100, 10))
    assert "回避/Dodge" in text and old.state.get("Cult").hp == 13
    replays(old)


def test_a_tackle_said_from_behind_finds_no_human_shield_003() -> None:
    """CO-GRAP-4: Bob's tackle at Cult's back hurts Cult, not the Ann it holds, as his punch
    from there does; from the front (or played by revision 6) Ann shields Cult."""
    f = cult_holds_ann(board=False)
    text = push(f, Tackle("Bob", "Cult", from_behind=True), (100, 20), (6, 3), (4, 1))
    assert "human shield" not in text
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (13, 9)
    replays(f)
    f = cult_holds_ann(board=False)
    text = push(f, Attack("Bob", "Cult", from_behind=True), (100, 20), (3, 3), (4, 1))
    assert "human shield" not in text and f.state.get("Cult").hp == 9
    for front in (cult_holds_ann(board=False), cult_holds_ann(6, board=False)):
        text = push(front, Tackle("Bob", "Cult", from_behind=front.engine < 7),
                    (100, 20), (6, 3), (4, 1))
        assert "Ann is a human shield and takes 4 (CO-GRAP-4)" in text
        assert (front.state.get("Ann").hp, front.state.get("Cult").hp) == (9, 13)
        replays(front)


def face_to_face(engine: int = ENGINE) -> Fight:
    """003 on the board: Ann on d3, Cult on d4 facing S, toward her; Ann's turn."""
    f = duel(Profile.P003, ANN, CULT, settings=TACKLE_ON)
    push(f, Place("Cult", "d4", "S"))
    push(f, Place("Ann", "d3", "N"))
    return at(engine, f)


@pytest.mark.parametrize("kind", [Attack, Grapple, Tackle])
def test_on_the_board_the_board_says_whether_from_behind_003(kind: Any) -> None:
    """Ann faces Cult on the board: her ``from_behind`` is the board's (CO-TURN-2), so Cult
    dodges the attack, the grapple and the tackle, as the punch."""
    f = face_to_face()
    text = push(f, kind("Ann", "Cult", defence=Defence.DODGE, from_behind=True),
                (100, 30), (100, 10))
    assert "回避/Dodge" in text and f.state.get("Cult").hp == 13
    assert f.state.get("Ann").grappling == ""
    replays(f)


@pytest.mark.parametrize("kind", [Attack, Grapple, Tackle])
def test_004_takes_them_from_behind_as_an_attack_from_behind(kind: Any) -> None:
    """004 has no CO-DODGE-3: Cult dodges a punch, a grapple or a tackle from behind."""
    f = off_board(profile=Profile.P004)
    text = push(f, kind("Ann", "Cult", defence=Defence.DODGE, from_behind=True),
                (100, 30), (100, 10))
    assert "回避/Dodge" in text and f.state.get("Cult").hp == 13
    assert f.state.get("Ann").grappling == ""
    replays(f)


def test_004_shields_a_restraining_grappler_from_behind_too() -> None:
    """CO-GRAP-6 (004 l.166 「拘束している相手はそのまま肉盾として使用できる。」) has no
    exception for an attack from behind: Ann shields Cult from Bob's tackle from behind, as
    from his punch from there."""
    f = cult_holds_ann(profile=Profile.P004, board=False)
    text = push(f, Tackle("Bob", "Cult", from_behind=True), (100, 20), (6, 3), (4, 1))
    assert "Ann is a human shield and takes 4 (CO-GRAP-6)" in text
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (9, 13)
    replays(f)
    f = cult_holds_ann(profile=Profile.P004, board=False)
    text = push(f, Attack("Bob", "Cult", from_behind=True), (100, 20), (3, 3), (4, 1))
    assert "Ann is a human shield and takes 4 (CO-GRAP-6)" in text


def saved(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((files("tests.systems.coc") / "data" / name)
                                      .read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name, engine, hp", [
    ("fight_grapples_rev6.json", 6, (9, 9)), ("fight_grapples_rev7.json", 7, (9, 9)),
    ("fight_grapples_rev7_board.json", 7, (13, 9))])
def test_fights_saved_before_the_field_replay_unchanged(
        name: str, engine: int, hp: tuple[int, int]) -> None:
    """Files written by the engine before grapples and tackles had ``from_behind`` (no key in
    their actions; revision 6 and 7, off the board and on it): each entry replays as it was
    played (the same lines from the same dice, by its own revision), and the file is written
    back as it was, each grapple and tackle now saying ``from_behind`` false (and each grapple
    ``parry_with`` "", revision 19's), the file naming
    today's revision at its top and each entry its own."""
    data = saved(name)
    kinds = [e["action"]["kind"] for e in data["journal"]]
    assert {"grapple", "tackle"} <= set(kinds)
    assert not any("from_behind" in e["action"] for e in data["journal"])
    f = Fight.from_json(load_rules(), data)
    assert [e.engine for e in f.journal] == [engine] * len(kinds)
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == hp
    again = f.to_json()
    for entry in data["journal"]:
        if entry["action"]["kind"] in ("grapple", "tackle"):
            entry["action"]["from_behind"] = False
        if entry["action"]["kind"] == "grapple":  # revision 19's (coc71, CO-GRAP-5)
            entry["action"]["parry_with"] = ""
        entry["engine"] = engine
    data["engine"] = ENGINE
    assert again == data
    for entry in f.journal:  # the action read from the file is the one played
        assert action_from_json(entry.to_json()["action"]) == entry.action


@pytest.mark.parametrize("name", ["fight_grapples_rev6.json", "fight_grapples_rev7.json"])
def test_a_fight_saved_before_the_field_goes_on_with_it(name: str) -> None:
    """A new action in the loaded fight is played by today's revision: Bob's tackle at
    Cult's back, said from behind, takes no dodge (CO-DODGE-3)."""
    f = Fight.from_json(load_rules(), saved(name))
    push(f, EndTurn("Ann"))
    with pytest.raises(IllegalAction, match="Cult cannot dodge now"):
        f.push(Tackle("Bob", "Cult", defence=Defence.DODGE, from_behind=True),
               ScriptedDice([]))
    text = push(f, Tackle("Bob", "Cult", from_behind=True), (100, 20), (6, 3), (4, 1))
    assert "human shield" not in text and f.state.get("Cult").hp == 5
    assert f.journal[-1].engine == ENGINE
    replays(f)
