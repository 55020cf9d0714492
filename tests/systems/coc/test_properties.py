"""Random fights (hypothesis): HP never above its maximum, ammunition and durations never
negative, nothing the turn order or AP forbid is accepted, and a rule that is off in a
profile never fires there (CO-CORE-2)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    KEEPER_ACTIONS,
    Attack,
    BreakFree,
    Burn,
    Cast,
    Choke,
    Concentrate,
    Defence,
    Delay,
    EndTurn,
    Face,
    Fall,
    Fight,
    Grapple,
    Jump,
    Move,
    PickUp,
    Place,
    Reload,
    SanLoss,
    Sheathe,
    Side,
    Spot,
    Tackle,
    Throw,
    Treat,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import sheet

NAMES = ("Ann", "Bob", "Cult", "Deep")


def make(profile: Profile, seed: int) -> Fight:
    rules = load_rules(profile)
    sheets = [
        sheet(rules, "Ann", 14, ("kick", "revolver"), martial_arts=50, kick=60, handgun=60,
              hide=95, tackle=60, spot_hidden=60),
        sheet(rules, "Bob", 11, ("smg", "japanese_sword"), smg=50, first_aid=60, grapple=60,
              iai=70, psychoanalysis=50),
        sheet(rules, "Cult", 12, ("knife", "blackjack"), knife=60,
              armour=[{"name": "hide", "value": 2, "durability": 10}]),
        sheet(rules, "Deep", 9, ("fist",), grapple=70, martial_arts=40),
    ]
    sides = (Side.INVESTIGATORS, Side.INVESTIGATORS, Side.FOES, Side.FOES)
    return Fight(rules, list(zip(sheets, sides, strict=True)), SimulatedDice.seeded(seed))


action = st.one_of(
    st.builds(Attack, st.sampled_from(NAMES), st.sampled_from(NAMES), st.integers(0, 1),
              st.sampled_from(list(Defence)), st.integers(0, 1), st.booleans(),
              st.sampled_from(("", "forced", "follow_up")), st.integers(1, 3), st.booleans()),
    st.builds(Grapple, st.sampled_from(NAMES), st.sampled_from(NAMES), ma=st.booleans()),
    st.builds(Choke, st.sampled_from(NAMES)), st.builds(Throw, st.sampled_from(NAMES)),
    st.builds(BreakFree, st.sampled_from(NAMES)),
    st.builds(Reload, st.sampled_from(NAMES), st.integers(0, 1)),
    st.builds(Treat, st.sampled_from(NAMES), st.sampled_from(NAMES),
              st.sampled_from(("first_aid", "medicine"))),
    st.builds(Move, st.sampled_from(NAMES), st.integers(1, 3)),
    st.builds(EndTurn, st.sampled_from(NAMES)),
)
name = st.sampled_from(NAMES)
second_pass = st.one_of(
    st.builds(Attack, name, name, weapon=st.integers(0, 1), defence=st.sampled_from(
        list(Defence)), parry_weapon=st.integers(0, 1), adjacent=st.booleans(),
        aim=st.booleans(), first_strike=st.booleans(), surprise=st.sampled_from(("", "hide")),
        dark=st.booleans(), disarm=st.booleans(), body=st.sampled_from(("", "cut", "gouge",
                                                                          "blow_off")),
        part=st.sampled_from(("arm", "head", "eye", "leg")), iai=st.booleans(),
        pommel=st.booleans(), knockout=st.booleans(),
        dodge_assist=st.sampled_from(("", "jump")), parry_with=st.sampled_from(("", "hands",
                                                                                "ma", "grapple")),
        distance_m=st.sampled_from((0, 3, 40)), shots=st.integers(1, 2),
        called=st.sampled_from(("", "head", "arm", "leg")), stray=name, behind=name),
    st.builds(Delay, name), st.builds(Concentrate, name), st.builds(Sheathe, name),
    st.builds(PickUp, name, st.integers(0, 1)), st.builds(Spot, name, name),
    st.builds(Cast, name, st.just("spell"), mp=st.integers(0, 3), automatic=st.booleans()),
    st.builds(Tackle, name, name, st.sampled_from(("", "blow_back", "knock_down")),
              st.booleans(), st.sampled_from((Defence.NONE, Defence.DODGE))),
    st.builds(Burn, name, st.integers(0, 8)), st.builds(Fall, name, st.integers(1, 7)),
    st.builds(SanLoss, name, st.integers(0, 8)),
    st.builds(Treat, name, name, st.just("psychoanalysis")),
    st.builds(Place, name, st.sampled_from(("c3", "c4", "d3", "d4", "e5", "a1")),
              st.sampled_from(("N", "S", "E", "W"))),
    st.builds(Face, name, st.sampled_from(("N", "SW"))), st.builds(Jump, name, name),
    st.builds(Move, name, to=st.sampled_from(("c5", "d2", "h8"))),
)

RULE = re.compile(r"CO-[A-Z]+-\d+")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(Profile)), st.integers(0, 2**16),
       st.lists(st.one_of(action, second_pass), max_size=60))
def test_random_fights_keep_their_invariants(profile: Profile, seed: int,
                                             actions: list[object]) -> None:
    fight = make(profile, seed)
    rules = fight.rules
    dice = SimulatedDice.seeded(seed + 1)
    fired: set[str] = set(RULE.findall(fight.opening.text))
    for a in actions:
        before = fight.state
        current = before.current
        opened = before.opened
        ap = current.ap if current else 0
        try:
            entry = fight.push(a, dice)  # type: ignore[arg-type]
        except IllegalAction:
            assert fight.state is before
            continue
        assert current is not None
        out_of_turn = isinstance(a, KEEPER_ACTIONS) or (not opened and (
            isinstance(a, Concentrate) or (isinstance(a, Attack) and a.first_strike)))
        assert out_of_turn or a.actor == current.name  # type: ignore[attr-defined]
        if profile is Profile.P003:
            spent = ap - fight.states[-2].get(current.name).ap if fight.state.current and \
                fight.state.current.name == current.name else None
            assert spent is None or spent >= 0
        fired |= set(RULE.findall(entry.text))
        for c in fight.state.combatants:
            assert c.hp <= c.sheet.max_hp
            assert c.ap >= 0 and c.stun >= 0 and c.dodges >= 0 and c.parries >= 0
            assert all(w.loaded >= 0 and (w.durability is None or w.durability >= 0)
                       for w in c.sheet.weapons)
            assert all(t.until == 0 or t.until >= t.from_round for t in c.conditions)
            assert all((a_.durability or 0) >= 0 and (a_.uses or 0) >= 0
                       for a_ in c.sheet.armour)
            assert c.san >= 0 and c.mp >= 0 and c.delayed_ap >= 0 and c.first_strike >= 0
            assert all(v >= 0 for v in c.sheet.characteristics.values())
    for rule in fired:
        assert rules.on(rule), f"{rule} is off in profile {profile.value} but fired"


def test_every_rule_the_engine_names_is_named_by_a_test() -> None:
    """Each CO ID the engine implements appears in a test other than this one."""
    package = Path(__file__).resolve().parents[3] / "companion" / "systems" / "coc"
    engine = set()
    for path in package.glob("*.py"):
        engine |= set(RULE.findall(path.read_text(encoding="utf-8")))
    tests = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("*.py")
                    if p.name != Path(__file__).name)
    named = tests + tests.upper().replace("_", "-")
    missing = sorted(r for r in engine if not re.search(re.escape(r) + r"(?!\d)", named))
    assert not missing, f"not named by a test: {missing}"
