"""A roll the start of a round or a turn makes is asked for by its own reason (table audit
gc #6): a dying investigator's CON×5 (CO-DEATH-1) was asked as "Ann CON×5 (1D100<=60) — Bob
組み付き grapples → Cultist", under the action whose end began the round, with no word of why.
The journal's lines are as they were, so a fight file replays to the same text."""

from __future__ import annotations

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import RollAsk
from companion.dice import ScriptedDice
from companion.systems.coc.combat import Attack, EndTurn, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import person, push, sheet

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
