"""The Keeper's amounts at a coc table (buttons-only audit F7): a SAN loss, fire damage and
a fall's height are one press for the common ones, and any other is typed on a keypad menu
(tens, then units; its keys 1–9 then 0, as a keyboard's number row) behind *Other… 他の値*.
A SAN loss of 7, 9 or over 10 could not be entered. An amount no rule allows is refused with
why; the journal keeps each key, and a journal of the common keys made before replays."""

from __future__ import annotations

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk, Throw
from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Burn, Cast, Fall, Fight, SanLoss
from tests.app.coc_table_helpers import new_fight, pick


def fight() -> CocFightMode:
    """Profile 004's sample fight: Ann, Bob, Cult, Deep and Boss."""
    return CocFightMode(new_fight("004"))


def keys(ask: object) -> list[str]:
    assert isinstance(ask, ChoiceAsk), ask
    return [o.choice for o in ask.options]


def thrown(mode: CocFightMode) -> None:
    """Throw the dice the action under way asks for (seeded) until it is done."""
    dice = SimulatedDice.seeded(3)
    while not isinstance(ask := mode.ask(), ChoiceAsk):
        assert ask is not None
        mode.answer(Throw(tuple(dice.roll(ask.count, ask.sides))))


def test_a_san_loss_of_seven_is_one_press_and_seventeen_is_typed() -> None:
    mode = fight()
    menu = pick(mode, "keeper", "san", "t:Ann")
    assert keys(menu) == [*(f"n:{n}" for n in range(1, 11)), "other", "back"]
    assert isinstance(menu, ChoiceAsk) and menu.options[-2].label == "Other… 他の値"
    tens = pick(mode, "other")
    assert isinstance(tens, ChoiceAsk)
    assert tens.prompt == "Ann loses how much SAN? 喪失量は？ (1–99), tens 十の位"
    # A keyboard's number key picks by place in the menu: key 7 types 7, key 0 types 0.
    assert keys(tens) == [*(f"d:{d}" for d in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)), "back"]
    assert [o.label for o in tens.options][:2] == ["1_ (10–19)", "2_ (20–29)"]
    assert tens.options[9].label == "0_ (1–9)"  # a loss of 1 or more: 0 is not typed
    units = pick(mode, "d:1")
    assert isinstance(units, ChoiceAsk) and units.prompt.endswith("units 一の位")
    assert units.options[6].label == "17"
    san = mode.fight.state.get("Ann").san
    pick(mode, "d:7")
    thrown(mode)
    entry = mode.fight.journal[-1]
    assert entry.action == SanLoss("Ann", 17)
    assert f"Ann loses 17 SAN: SAN {san} → {san - 17} (CO-BASE-13)" in entry.lines
    pick(mode, "keeper", "san", "t:Ann", "n:7")
    thrown(mode)
    assert mode.fight.journal[-1].action == SanLoss("Ann", 7)


def test_back_on_the_keypad_goes_back_a_place_then_to_the_common_amounts() -> None:
    mode = fight()
    pick(mode, "keeper", "san", "t:Ann", "other", "d:2", "back")
    assert keys(mode.ask())[0] == "d:1" and mode.path[-1] == "other"
    pick(mode, "back")
    assert keys(mode.ask())[0] == "n:1"


@pytest.mark.parametrize(("steps", "refusal"), [
    (("keeper", "san", "t:Ann", "other", "d:0", "d:0"),
     "00? a SAN loss is 1–99 喪失量 (CO-BASE-13): type again 入力し直し"),
    (("keeper", "fall", "t:Cult", "other", "d:0", "d:0"),
     "00 m? a fall is 1–99 m 落下の高さ (CO-BASE-11): type again 入力し直し"),
    (("keeper", "burn", "t:Boss", "other", "d:0", "d:0"),
     "00? fire damage is 1–99 火のダメージ (CO-BURN-1): type again 入力し直し"),
])
def test_an_amount_no_rule_allows_is_refused_with_why(steps: tuple[str, ...],
                                                      refusal: str) -> None:
    """A loss of 0 SAN, a fall of 0 m, no fire damage: refused, and the same place asked
    again; nothing reaches the journal."""
    mode = fight()
    *before, last = steps
    pick(mode, *before)
    asked, journal = mode.ask(), list(mode.journal)
    with pytest.raises(IllegalAction) as refused:
        pick(mode, last)
    assert str(refused.value) == refusal
    assert mode.ask() == asked and mode.journal == journal


def test_a_fall_and_fire_damage_of_any_amount() -> None:
    """A fall of 20 m is 6D6 (CO-BASE-11: 1D6 per full 3 m); fire damage of 25 is asked
    the rest as before (CO-BURN-1: which fire, then APP or CON)."""
    mode = fight()
    menu = pick(mode, "keeper", "fall", "t:Cult")
    assert keys(menu) == ["m:1", "m:2", "m:3", "m:4", "m:6", "m:9", "m:12", "m:15", "other",
                          "back"]
    units = pick(mode, "other", "d:2")
    assert isinstance(units, ChoiceAsk) and units.options[9].label == "20 m"
    pick(mode, "d:0")
    thrown(mode)
    entry = mode.fight.journal[-1]
    assert entry.action == Fall("Cult", 20)
    assert any(line.startswith("Cult: fall 20 m ＞ (6D6) ＞ ") for line in entry.lines)
    ask = pick(mode, "keeper", "burn", "t:Boss", "other", "d:2", "d:5")
    assert keys(ask) == ["l:APP", "l:CON", "back"]
    pick(mode, "l:CON")
    thrown(mode)
    assert mode.fight.journal[-1].action == Burn("Boss", 25, lose="CON")


def test_the_journal_replays_typed_amounts_and_the_keys_of_before() -> None:
    """The keys a save made before the keypad holds (``n:8``, ``m:6``, ``n:15``) are still
    offered, and a typed amount's keys replay to the same fight."""
    mode = fight()
    for steps in (("keeper", "san", "t:Ann", "n:8"), ("keeper", "fall", "t:Cult", "m:6"),
                  ("keeper", "burn", "t:Boss", "n:15", "l:CON"),
                  ("keeper", "san", "t:Bob", "other", "d:2", "d:3")):
        pick(mode, *steps)
        thrown(mode)
    again = fight()
    for text in mode.journal:
        again.restore(text)
    assert again.fight.to_json() == mode.fight.to_json()
    assert [e.action for e in again.fight.journal] == [
        SanLoss("Ann", 8), Fall("Cult", 6), Burn("Boss", 15, lose="CON"), SanLoss("Bob", 23)]


def test_a_san_loss_past_99_is_typed_for_one_whose_san_is_over_99() -> None:
    """No one's SAN is lost by more than it holds, so the keypad has the places of the
    larger of 99 and the SAN now: a sheet with SAN 120 takes a loss of 110."""
    base = new_fight("004")
    data = base.to_json()
    data["entrants"][0]["sheet"]["san"] = 120
    mode = CocFightMode(Fight.from_json(base.rules, data))
    name = mode.fight.state.combatants[0].name
    hundreds = pick(mode, "keeper", "san", f"t:{name}", "other")
    assert isinstance(hundreds, ChoiceAsk) and hundreds.prompt.endswith(
        "(1–120), hundreds 百の位")
    pick(mode, "d:1", "d:1", "d:0")
    thrown(mode)
    assert mode.fight.journal[-1].action == SanLoss(name, 110)


def test_a_spell_s_mp_is_any_the_caster_has() -> None:
    """CO-SPELL-1: a spell of 7 MP (no common amount) is typed; one of more MP than the
    caster has is refused, at its first place when no amount beginning so would do."""
    mode = fight()
    pick(mode, "end?", "end", "end?", "end")  # Ann and Bob end their turns: Cult's
    mp = mode.fight.state.get("Cult").mp
    menu = pick(mode, "cast")
    assert "other" in keys(menu) and f"n:{mp + 1}" not in keys(menu)
    tens = pick(mode, "other")
    assert isinstance(tens, ChoiceAsk)
    assert tens.prompt.endswith(f"(MP {mp}) (0–{mp} MP), tens 十の位")
    with pytest.raises(IllegalAction, match=rf"^{mp // 10 + 1}_ MP\? Cult has {mp} MP "):
        pick(mode, f"d:{mp // 10 + 1}")
    with pytest.raises(IllegalAction, match=rf"Cult has {mp} MP \(CO-SPELL-1\): type again"):
        pick(mode, f"d:{(mp + 1) // 10}", f"d:{(mp + 1) % 10}")
    pick(mode, "back", "back", "other", "d:0", "d:7", "k:chant")
    cast = mode.fight.journal[-1].action
    assert cast == Cast("Cult", "呪文 spell", 7) and mode.fight.state.get("Cult").mp == mp - 7
