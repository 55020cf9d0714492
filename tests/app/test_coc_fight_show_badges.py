"""`coc fight show` (its text and ``--json``) says what is on each fighter as the table's
screen says it, from one list (companion.app.coc_badges), and a timed condition only in the
rounds it applies (audit coc70 findings 2 and 3)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from typing import Any

from companion.app.commands import coc as coc_command
from companion.app.modes.coc import CocFightMode
from companion.systems.coc.combat import (
    Attack,
    Condition,
    EndTurn,
    Fight,
    Grapple,
    Tackle,
    Throw,
    Timed,
)
from companion.systems.coc.rules import Profile
from tests.companion_process import ROOT
from tests.systems.coc.helpers import duel, pass_to, patch, push

FALLEN = Condition.FALLEN.value  # "転倒/fallen"


def shown(fight: Fight) -> dict[str, tuple[str, dict[str, Any], tuple[str, ...]]]:
    """Each fighter's `fight show` line (a row gone on below joined again), its --json row,
    and its badges on the table's screen (without the AP the screen puts first and the
    square it puts last: the line has those in columns)."""
    text, data = coc_command._status(fight)
    lines: dict[str, str] = {}
    name = ""
    for line in text.splitlines()[1:]:
        if line[2] == " ":  # a row too wide goes on below, under its badges (r77coc RISK)
            lines[name] += " " + line.strip()
        else:
            name = line[2:].split()[0]
            lines[name] = line
    screen = CocFightMode(fight).fight_view().fighters
    state = fight.state
    out = {}
    for c, row, seen in zip(state.combatants, data["combatants"], screen, strict=True):
        lead = ((f"AP {c.ap}",) if state.current is c and fight.rules.profile is Profile.P003
                else ())
        tail = (f"{c.square} {c.facing}",) if c.square else ()  # last (r77coc RISK)
        assert seen.conditions[:len(lead)] == lead
        assert seen.conditions[len(seen.conditions) - len(tail):] == tail
        out[c.name] = (lines[c.name], row,
                       seen.conditions[len(lead):len(seen.conditions) - len(tail)])
    return out


def test_show_says_the_stun_the_screen_shows() -> None:
    """coc70 finding 2: Cult stunned by Ann's stun gun (CO-STUN-1) read "Cult HP 13/13" in
    `fight show`, while the screen said "stun 朦朧 1"; --json had no stun."""
    f = duel(Profile.P003, {"weapons": ("stun_gun",), "fist": 90})
    push(f, Attack("Ann", "Cult"), (100, 10))
    line, row, screen = shown(f)["Cult"]
    assert screen == ("stun 朦朧 1",)
    assert line.endswith("HP 13/13  stun 朦朧 1")
    assert (row["stun"], row["badges"]) == (1, ["stun 朦朧 1"])


def test_a_stun_shaken_off_still_says_why_attack_is_missing() -> None:
    """CO-STUN-1 from engine revision 18: Cult shakes the stun off at its turn's start (stun
    1 → 0) yet may not attack in that turn; both views said nothing was on Cult. In round 2
    the badge is gone with the bar."""
    f = duel(Profile.P003, {"weapons": ("stun_gun",), "fist": 90}, {"fist": 50})
    push(f, Attack("Ann", "Cult"), (100, 10))
    push(f, EndTurn("Ann"), (100, 10))
    line, row, screen = shown(f)["Cult"]
    assert screen == ("no attack this turn 攻撃不可",)
    assert line.endswith("no attack this turn 攻撃不可")
    assert (row["stun"], row["badges"]) == (0, ["no attack this turn 攻撃不可"])
    push(f, EndTurn("Cult"))
    pass_to(f, "Cult")
    assert shown(f)["Cult"][2] == ()


def test_show_says_who_holds_whom() -> None:
    """coc70 finding 2: a grapple (CO-GRAP-1) was on the screen alone; --json had neither
    held_by nor grappling."""
    f = duel(Profile.P004, {"grapple": 60})
    push(f, Grapple("Ann", "Cult"), (100, 40))
    seen = shown(f)
    assert seen["Ann"][0].endswith("HP 13/13  holds Cult 組み付き")
    assert seen["Cult"][0].endswith("HP 13/13  held by Ann 組み付かれ")
    assert seen["Ann"][2] == ("holds Cult 組み付き",)
    assert seen["Cult"][2] == ("held by Ann 組み付かれ",)
    assert (seen["Ann"][1]["grappling"], seen["Ann"][1]["held_by"]) == ("Cult", "")
    assert (seen["Cult"][1]["grappling"], seen["Cult"][1]["held_by"]) == ("", "Ann")


def test_show_lists_wounds_weapons_the_blade_and_the_chant_as_the_screen_does() -> None:
    """coc70 finding 2: bleeding (CO-BODY-6), a lost part (CO-BODY-5), weapons broken, jammed
    or dropped, the blade Iai drew (CO-IAI-3) and a chant (CO-SPELL-2), as a fight's earlier
    rounds would have left them: the line says each, parted by " · " as on the screen, and
    --json has drawn, concentrating, chanting and each weapon's dropped."""
    f = duel(Profile.P004, {"weapons": ("japanese_sword", "knife", "automatic",
                                        "fist")})
    ann = f.state.get("Ann")
    sword, knife, pistol, fist = ann.sheet.weapons
    arms = (replace(sword, broken=True), replace(knife, dropped=True),
            replace(pistol, jammed=True), fist)
    patch(f, "Ann", sheet=replace(ann.sheet, weapons=arms), bleeding=("1D4",),
          lost=("eye",), drawn=True, chanting="Shrivelling", concentrating=True)
    line, row, screen = shown(f)["Ann"]
    want = ("bleeding 出血 1D4", "lost 欠損 eye", "blade drawn 抜刀",
            f"{sword.info.name} broken 破損", f"{knife.info.name} dropped 落とした",
            f"{pistol.info.name} jammed 弾詰まり", "chanting 詠唱 Shrivelling")
    assert screen == want
    assert line.endswith("HP 13/13  " + " · ".join(want))
    assert row["badges"] == list(want)
    assert (row["bleeding"], row["lost"], row["drawn"], row["concentrating"],
            row["chanting"]) == (["1D4"], ["eye"], True, True, "Shrivelling")
    assert [w["dropped"] for w in row["weapons"]] == [False, True, False, False]
    assert [w["broken"] for w in row["weapons"]] == [True, False, False, False]


def test_a_lent_blade_is_shown_on_the_lenders_row() -> None:
    """reviewcoc72 RISK 3 (CO-IAI-1, engine revision 20): Ann draws Bob's sword with Iai; it
    keeps its number in Bob's list, in Ann's hands. Nothing said so: Bob's line and row had
    no badge, and his player learnt that weapon 0 was gone only when it was refused."""
    f = duel(Profile.P003, {"weapons": ("fist",), "fist": 50, "iai": 80}, {"fist": 50},
             third={"weapons": ("japanese_sword", "knife"), "japanese_sword": 60})
    push(f, Attack("Ann", "Cult", 0, iai=True, borrow="Bob"), (100, 90))
    line, row, screen = shown(f)["Bob"]
    want = "日本刀/Japanese Sword lent to Ann 貸した"
    assert screen == (want,)
    assert line.endswith("HP 13/13  " + want)
    assert row["badges"] == [want]
    assert want not in shown(f)["Ann"][2]


def test_a_fall_is_shown_in_the_round_it_costs_alone() -> None:
    """coc70 finding 3: CO-MELEE-4's fall (転倒/fallen, the next round lost: Timed from round
    2 to 2) read in `fight show` from the fumble on, for ever, and on the screen from the
    fumble's own round (the screen tested only its end). Now both say it in round 2 alone,
    the round the engine skips Ann's turn."""
    f = duel(Profile.P003, {"fist": 50})
    push(f, Attack("Ann", "Cult"), (100, 95))
    assert f.state.get("Ann").conditions == (Timed(Condition.FALLEN, 2, 2),)

    def ann() -> tuple[str, dict[str, Any], tuple[str, ...]]:
        return shown(f)["Ann"]

    # said as next round's, not as on now (a77cocgrapple RISK 3)
    coming = f"{FALLEN} next round 次R"
    assert ann()[0].endswith(f"  {coming}")
    assert ann()[1]["conditions"] == [] and ann()[2] == (coming,)
    push(f, EndTurn("Ann"))
    push(f, EndTurn("Cult"))  # round 2: Ann has fallen, and her turn is skipped
    assert f.state.round == 2
    line, row, screen = ann()
    assert line.endswith(f"HP 13/13  {FALLEN}")
    assert row["conditions"] == [FALLEN] and screen == (FALLEN,)
    push(f, EndTurn("Cult"))  # round 3: Ann stands again and acts
    assert f.state.round == 3 and f.state.current is f.state.get("Ann")
    assert FALLEN not in ann()[0] and ann()[1]["conditions"] == [] and ann()[2] == ()


def test_a_condition_not_begun_is_said_as_next_rounds() -> None:
    """CO-STUN-3's 行動不能/no action, set for the next round, is not said as on now before that
    round (the screen tested only ``until``), but as next round's (a77cocgrapple RISK 3: the
    saved fight said it only in the throw's log line)."""
    f = duel(Profile.P004, {"fist": 50})
    patch(f, "Cult", conditions=(Timed(Condition.NO_ACTION, 2, 2),))
    line, row, screen = shown(f)["Cult"]
    coming = "行動不能/no action next round 次R"
    assert line.endswith(f"HP 13/13  {coming}") and screen == (coming,)
    assert row["conditions"] == []


def test_a_throws_stun_passed_is_said_before_its_round_004() -> None:
    """a77cocgrapple RISK 3: Ann throws the Cult she restrains; Cult passes CON×4 (CO-STUN-3)
    and cannot act next round. Round 2's show had no mark on it."""
    f = duel(Profile.P004, {"grapple": 60})
    push(f, Grapple("Ann", "Cult"), (100, 30))
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    push(f, Throw("Ann"), (100, 10), (6, 3), (4, 1), (100, 20))
    line, row, screen = shown(f)["Cult"]
    assert screen == ("行動不能/no action next round 次R",)
    assert line.endswith("HP 9/13  行動不能/no action next round 次R")
    assert row["badges"] == list(screen) and row["conditions"] == []


def test_a_knock_down_says_the_pin_to_come_004() -> None:
    """a77cocgrapple RISK 3 (CO-TACKLE-3): the tackler pins the one knocked down from the
    next round; nothing but the tackle's log line said so, and --json had no key for it."""
    f = duel(Profile.P004, {"tackle": 60})
    push(f, Tackle("Ann", "Cult", "knock_down"), (100, 30))
    line, row, screen = shown(f)["Ann"]
    assert screen == ("pins Cult next round 押さえ込み",)
    assert line.endswith("HP 13/13  pins Cult next round 押さえ込み")
    assert row["pinning"] == "Cult" and row["badges"] == list(screen)


def test_an_ma_hold_says_it_may_choke_or_throw_003() -> None:
    """a77cocgrapple RISK 3 (CO-MA-2): a full MA grapple success may choke or throw, a partial
    one (an ordinary grapple) may not; both rows read "holds Cult 組み付き" alike."""
    full = duel(Profile.P003, {"grapple": 60, "martial_arts": 60})
    push(full, Grapple("Ann", "Cult", ma=True), (100, 40), (100, 80))
    line, row, screen = shown(full)["Ann"]
    assert screen == ("holds Cult 組み付き", "may choke/throw 締め上げ/投げ")
    assert line.endswith("HP 13/13  holds Cult 組み付き · may choke/throw 締め上げ/投げ")
    assert row["grapple_options"] is True
    partial = duel(Profile.P003, {"grapple": 60, "martial_arts": 30})
    push(partial, Grapple("Ann", "Cult", ma=True), (100, 40), (100, 80))
    line, row, screen = shown(partial)["Ann"]
    assert screen == ("holds Cult 組み付き",) and row["grapple_options"] is False


def test_the_screen_says_the_dying_deadline_as_the_command_line_does() -> None:
    """CO-BASE-8's deadline: the screen read "瀕死/dying · dies end of R4" and `fight show`
    "瀕死/dying (dies at end of round 4)"; one list now says it once, the same in both."""
    f = duel(Profile.P003, {"fist": 50}, {"fist": 50})
    patch(f, "Cult", hp=0, dying_until=4,
          conditions=(Timed(Condition.UNCONSCIOUS, 1, 0), Timed(Condition.DYING, 1, 0)))
    line, row, screen = shown(f)["Cult"]
    assert screen == ("気絶/unconscious", "瀕死/dying (dies at end of round 4)")
    assert line.endswith("HP 0/13  " + " · ".join(screen))
    assert row["dying_until"] == 4


def test_the_coc_command_does_not_load_the_table_mode() -> None:
    """The shared list lives outside companion.app.modes.coc, whose package loads the whole
    table mode (about 0.12 s more for every `coc fight` command on a PC)."""
    code = ("import sys, companion.app.commands.coc; "
            "print(any(m.startswith('companion.app.modes.coc') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "False"
