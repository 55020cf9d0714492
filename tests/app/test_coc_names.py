"""What the coc fight mode puts on the screen about who is who, and which defences it offers:
the board's marks and the fighter list, target buttons, names a screen without a Japanese
font keeps, and a defence menu holding only what the engine takes (the screen audit's
fights, profile 003)."""

from __future__ import annotations

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk, Throw
from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.hw.display.fonts import without_cjk
from companion.systems.coc.combat import Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.app.coc_table_helpers import pick
from tests.systems.coc.scripted_fight_helpers import entrant, fight_003

RULES = load_rules(Profile.P003)


def cultists() -> CocFightMode:
    """Ann and 山田太郎左衛門 against Cult and Cultists 1 to 3, all on the board."""
    people = [
        entrant(RULES, "Ann", 14, ("kick",), Side.INVESTIGATORS, kick=60),
        entrant(RULES, "山田太郎左衛門", 11, ("japanese_sword",), Side.INVESTIGATORS,
                japanese_sword=55),
        entrant(RULES, "Cult", 10, ("knife",), Side.FOES, knife=50),
        *(entrant(RULES, f"Cultist {i}", 10 - i, ("knife",), Side.FOES, knife=45)
          for i in (1, 2, 3)),
    ]
    mode = CocFightMode(Fight(RULES, people, ScriptedDice([])))
    for name, square in (("Ann", "d3"), ("山田太郎左衛門", "d4"), ("Cult", "e4"),
                         ("Cultist 1", "f3"), ("Cultist 2", "f5"), ("Cultist 3", "g4")):
        pick(mode, "keeper", "place", f"t:{name}", f"f:{square[0]}", f"r:{square[1]}",
             "face:N")
    return mode


def test_every_piece_on_the_board_has_its_own_mark_shown_beside_its_name() -> None:
    """Cult and Cultists 1, 2 and 3 were all drawn "Cu"; a Japanese name's mark was its
    first character, which a screen without a Japanese font cannot draw."""
    view = cultists().fight_view()
    assert view.board is not None
    marks = {view.board.square(p.col, p.row): p.mark for p in view.board.pieces}
    assert marks == {"d3": "A", "d4": "I", "e4": "C4", "f3": "C1", "f5": "C2", "g4": "C3"}
    names = [(f.name.ja, f.name.en) for f in view.fighters]
    assert names == [("A Ann", "A Ann"), ("I 山田太郎左衛門", "investigator 2"),
                     ("C4 Cult", "C4 Cult"), ("C1 Cultist 1", "C1 Cultist 1"),
                     ("C2 Cultist 2", "C2 Cultist 2"), ("C3 Cultist 3", "C3 Cultist 3")]


def test_target_buttons_start_with_the_english_name() -> None:
    """A button cut short, or drawn without a Japanese font, keeps what tells targets apart;
    a Japanese name alone ("山田太郎左衛門 探索者") was nothing without the font."""
    menu = pick(cultists(), "attack")  # whom Ann reaches: Cult, and her ally beside her
    assert isinstance(menu, ChoiceAsk)
    assert [o.label for o in menu.options] == [
        "Cult 敵", "investigator 2 山田太郎左衛門 探索者", "Back 戻る"]
    assert without_cjk(menu.options[1].label) == "investigator 2"


def test_a_japanese_name_keeps_its_english_in_prompts_and_refusals() -> None:
    """Without a Japanese font "How does 山田太郎左衛門 defend?" read "How does defend?",
    and the engine's "山田太郎左衛門 cannot parry now" read "cannot parry now"."""
    mode = cultists()
    pick(mode, "keeper", "san", "t:山田太郎左衛門")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    view = mode.view(ask.prompt, options=ask.options,
                     status=str(IllegalAction("山田太郎左衛門 cannot parry now")))
    assert without_cjk(view.prompt).startswith("investigator 2 loses how much SAN?")
    assert without_cjk(view.status) == "investigator 2 cannot parry now"
    mode.answer([o.choice for o in ask.options].index("n:1"))
    shown = mode.fight_view()
    assert without_cjk(shown.result_title).startswith("investigator 2 loses SAN")
    assert without_cjk(shown.log[-1]).startswith("investigator 2 loses SAN")


def test_a_board_move_names_whom_it_goes_beside_by_mark() -> None:
    menu = pick(cultists(), "move")
    assert isinstance(menu, ChoiceAsk)
    labels = [o.label for o in menu.options]
    assert "e3 next to C4 の隣" in labels  # beside Cult, who was cut to "e3 next to Cu…"
    assert all(len(without_cjk(label)) <= 14 for label in labels if "next to" in label)


def test_the_defence_menu_offers_only_what_the_engine_takes() -> None:
    """003 (CO-DODGE-2): one parry a round. Deep parried Ann's kick with its sword; Bob's
    blow was then offered the sword's parry (and its Iai) again, which the engine refused
    ("Deep cannot parry now") with the same menu back. From behind (CO-DODGE-3) nothing but
    None is left."""
    mode = CocFightMode(fight_003()[0])
    ask = pick(mode, "attack", "t:Deep", "h:plain")
    assert isinstance(ask, ChoiceAsk)
    assert {"d:parry:0", "d:parry:iai0"} <= {o.choice for o in ask.options}
    ask = pick(mode, "d:parry:0")
    while not isinstance(ask, ChoiceAsk):  # the kick hits and the sword parries
        assert ask is not None
        mode.answer(Throw((50,) * ask.count if ask.sides == 100 else (1,) * ask.count))
        ask = mode.ask()
    ask = pick(mode, "end?", "end", "attack", "t:Deep", "w:1", "h:plain")
    assert isinstance(ask, ChoiceAsk)
    assert [o.choice for o in ask.options] == ["d:none", "d:dodge", "m:more", "back"]

    behind = CocFightMode(fight_003()[0])
    ask = pick(behind, "attack", "t:Deep", "h:plain", "m:more", "m:behind")
    assert isinstance(ask, ChoiceAsk)
    assert [o.choice for o in ask.options] == ["d:none", "m:more", "back"]
