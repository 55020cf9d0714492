"""A roll the start of a round or a turn makes is asked for by its own reason (table audit
gc #6): a dying investigator's CON×5 (CO-DEATH-1) was asked as "Ann CON×5 (1D100<=60) — Bob
組み付き grapples → Cultist", under the action whose end began the round, with no word of why.
The journal's lines are as they were, so a fight file replays to the same text. While such a
roll is awaited the Result panel is titled by its reason, not "so far" of the action before."""

from __future__ import annotations

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import RollAsk, Throw
from companion.dice import ScriptedDice
from companion.hw.display.view import DiceStep
from companion.systems.coc.combat import Attack, EndTurn, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.app.coc_table_helpers import pick
from tests.systems.coc.helpers import SWORD, duel, person, push, sheet

RULES = load_rules(Profile.P003)


class Purposes(ScriptedDice):
    """Scripted dice that keep what each roll was asked for."""

    def __init__(self, *rands: tuple[int, int]) -> None:
        super().__init__(rands)
        self.purposes: list[str] = []

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        self.purposes.append(purpose)
        return super().roll(count, sides, purpose=purpose)


def dying_cult() -> Fight:
    """Ann's sword leaves Cult dying in round 1 (CO-DEATH-1); Ann ends her turn, Cult is
    skipped: Boss's turn ends the round."""
    ann = sheet(RULES, "Ann", dex=14, weapons=("japanese_sword",), japanese_sword=90)
    f = Fight(RULES, [(ann, Side.INVESTIGATORS), (sheet(RULES, "Cult", dex=10), Side.FOES),
                      (sheet(RULES, "Boss", dex=5), Side.FOES)], ScriptedDice([]))
    push(f, Attack("Ann", "Cult"), (100, 30), (10, 10), (4, 3))
    push(f, EndTurn("Ann"))
    return f


def test_the_dying_con_x5_at_the_table_says_its_reason_first() -> None:
    mode = CocFightMode(dying_cult())
    mode.restore("end")  # Boss ends the round
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and (ask.count, ask.sides) == (1, 100)
    assert ask.prompt == ("start of round 2 第2ラウンド開始: Cult is dying 瀕死 (CO-DEATH-1) "
                          "— Cult CON×5 (1D100<=60) (after 行動後: Boss 手番終了 ends the turn)")


def test_the_dying_roll_s_purpose_and_its_unchanged_journal_line() -> None:
    f = dying_cult()
    dice = Purposes((100, 20))
    entry = f.push(EndTurn("Boss"), dice)
    assert dice.purposes == ["start of round 2 第2ラウンド開始: Cult is dying 瀕死 "
                             "(CO-DEATH-1) — Cult CON×5 (1D100<=60)"]
    assert "Cult CON×5 (1D100<=60) ＞ 20 ＞ " in entry.text  # as before: old files replay alike


def test_a_dex_tie_at_a_round_s_start_says_so_first() -> None:
    f = Fight(RULES, [(person(RULES, "Ann", 12), Side.INVESTIGATORS),
                      (person(RULES, "Cult", 12), Side.FOES)],
              ScriptedDice([(100, 10), (100, 50)]))
    push(f, EndTurn("Ann"))
    dice = Purposes((100, 30), (100, 40))
    f.push(EndTurn("Cult"), dice)
    assert dice.purposes and all(p.startswith("start of round 2 第2ラウンド開始: ")
                                 for p in dice.purposes)


def test_a_stunned_one_s_con_x5_at_the_table_says_its_reason_first() -> None:
    """CO-STUN-1: a stun gun's stun costs Cult AP at its turn's start unless CON×5."""
    f = Fight(RULES, [(sheet(RULES, "Ann", dex=14, weapons=("stun_gun",), fist=90),
                       Side.INVESTIGATORS), (sheet(RULES, "Cult", dex=10), Side.FOES)],
              ScriptedDice([]))
    push(f, Attack("Ann", "Cult"), (100, 10))
    mode = CocFightMode(f)
    mode.restore("end")  # Ann ends her turn: Cult's begins stunned
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and (ask.count, ask.sides) == (1, 100)
    assert ask.prompt == ("start of Cult's turn 手番開始: Cult is stunned 朦朧 (CO-STUN-1) — "
                          "Cult CON×5 (1D100<=60) (after 行動後: Ann 手番終了 ends the turn)")


def test_bleeding_at_the_table_says_its_reason_first() -> None:
    """CO-BODY-6: a cut-off arm bleeds 1D4 at the start of every round (profile 004)."""
    f = duel(Profile.P004, SWORD)
    push(f, Attack("Ann", "Cult", body="cut", part="arm"),
         (100, 50), (10, 5), (4, 2), (3, 2), (4, 3))
    mode = CocFightMode(f)
    mode.restore("end")  # Cult ends its turn: round 2 opens with the bleeding
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and (ask.count, ask.sides) == (1, 4)
    assert ask.prompt == ("start of round 2 第2ラウンド開始: Cult's bleeding 出血 (CO-BODY-6) "
                          "1D4 (after 行動後: Cult 手番終了 ends the turn)")


def test_the_result_panel_names_the_dying_roll_not_the_action_before_it_so_far() -> None:
    """While the dying CON×5 is awaited the Result panel said "so far 途中 (1D100) ＞ 10:
    Boss 組み付き/Grapple (1D100<=25)" under Boss's grapple, as if that roll were the one
    under way (table audit gc #6): it is titled by the roll's reason and shows it with its
    rule ID, the grapple before it as done. The grapple's lines are the engine's, its check
    with its verdict: its throw alone left the player to work out whether it held."""
    mode = CocFightMode(dying_cult())
    pick(mode, "grapple", "t:Ann", "h:plain", "d:none")
    mode.answer(Throw((10,)))  # Boss's grapple: its end opens round 2
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.prompt.startswith("start of round 2 ")
    panel = mode.view(ask.prompt).fight
    assert panel is not None
    assert panel.result_title == "start of round 2 第2ラウンド開始: Cult is dying 瀕死 (CO-DEATH-1)"
    assert panel.result == (
        DiceStep("", "after 行動後: Boss 組み付き grapples → Ann"),
        DiceStep("CO-CORE-1", "Boss 組み付き/Grapple (1D100<=25) ＞ 10 ＞ 成功/success"),
        DiceStep("CO-GRAP-1", "Boss holds Ann; they are one unit (CO-GRAP-1)"),
        DiceStep("CO-GRAP-3", "the grapple is Boss's 1 AP this round while grappling: 2 AP "
                              "left unused (CO-GRAP-3)"),
        DiceStep("CO-DEATH-1", "Cult CON×5 (1D100<=60) ＞ …"))
    mode.answer(Throw((90,)))
    ask = mode.ask()  # Ann's turn opens with her STR roll against Boss's, its reason first
    assert isinstance(ask, RollAsk) and ask.prompt.startswith(
        "start of Ann's turn 手番開始: Ann is held 組みつき (CO-GRAP-2) — Ann STR 13 vs 13")
    mode.answer(Throw((90,)))  # then the whole action, as before
    after = mode.view("").fight
    assert after is not None and after.result_title == "Boss 組み付き grapples → Ann"


def test_the_bleeding_panel_says_its_reason_once() -> None:
    """Bleeding's purpose has no " — " part: its panel's title and last line both read
    "start of round 2 …: Cult's bleeding 出血 (CO-BODY-6) 1D4"; the last line is the die."""
    f = duel(Profile.P004, SWORD)
    push(f, Attack("Ann", "Cult", body="cut", part="arm"),
         (100, 50), (10, 5), (4, 2), (3, 2), (4, 3))
    mode = CocFightMode(f)
    mode.restore("end")
    ask = mode.ask()
    assert isinstance(ask, RollAsk)
    panel = mode.view(ask.prompt).fight
    assert panel is not None
    assert panel.result_title == ("start of round 2 第2ラウンド開始: Cult's bleeding 出血 "
                                  "(CO-BODY-6) 1D4")
    assert panel.result[-1] == DiceStep("CO-BODY-6", "1D4 ＞ …")
    assert panel.result[0] == DiceStep("", "after 行動後: Cult 手番終了 ends the turn")
