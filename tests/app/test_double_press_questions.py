"""A double tap, or a digit typed twice, on an entry that asks first (input audit 63 D1): the
question is drawn within a poll, its Yes in the box the entry had (and keyed with the same
digit), so the second press of the double took the very step the question guards: End fight,
Close table, Undo, New game, Quit to console. The question now waits for a press of its own;
ordinary menus are not slowed.

The presses come one poll (0.1 s) apart on a clock that moves as the session sleeps; the menus
and questions are the modes' and the System menu's own."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.modes.dice_tray import MENU_PROMPT, DiceTrayMode
from companion.app.modes.genso import GensoFightMode
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import choose
from companion.app.session.mode import ChoiceAsk
from companion.app.session.system_menu import ConsoleAsked, NewGameAsked, SystemMenu
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.view import Option
from companion.systems.coc.combat import Defence, EndTurn
from companion.systems.genso.combat import Cast, Flee
from tests.app.double_press_helpers import POLL, Hands
from tests.app.fight_log_helpers import cult_attacks_ann, orc_attacks
from tests.app.genso_ring_table_helpers import PC1, PC2, ringed_table
from tests.systems.coc.scripted_fight_helpers import fight_004

TAP = Pick(1, tap=True)  # the second box: the entry's, then the question's Yes


def asked(mode: GensoFightMode | CocFightMode | JongRogueMode | DiceTrayMode) -> ChoiceAsk:
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return ask


def take(hands: Hands, mode: GensoFightMode | CocFightMode, entry: str,
         press: Press) -> ChoiceAsk:
    """Take ``entry`` of the mode's menu with ``press``; the question it asks."""
    ask = asked(mode)
    assert ask.options.index(next(o for o in ask.options if o.choice == entry)) == 1
    key, _ = hands.choose(ask, [[press]])
    assert key == entry
    mode.answer(ask.options.index(next(o for o in ask.options if o.choice == key)))
    return asked(mode)


def gm_menu() -> GensoFightMode:
    mode = orc_attacks(6, 6)
    mode.restore("gm")
    return mode


def keeper_menu() -> CocFightMode:
    mode = cult_attacks_ann("003", [(100, 30), (100, 3)], defence=Defence.DODGE)
    mode.restore("keeper")
    return mode


def fight_over() -> GensoFightMode:
    mode = gm_menu()
    for key in ("end?", "end"):
        mode.restore(key)
    return mode


@pytest.mark.parametrize(("menu", "entry", "yes"), [
    (gm_menu, "end?", "end"), (keeper_menu, "close?", "close"), (fight_over, "undo?", "undo")])
@pytest.mark.parametrize("press", [TAP, Pick(1)], ids=["double tap", "2 typed twice"])
def test_the_second_press_of_a_double_does_not_answer_the_question(
        menu: Callable[[], GensoFightMode | CocFightMode], entry: str, yes: str,
        press: Press) -> None:
    hands = Hands()
    mode = menu()
    question = take(hands, mode, entry, press)
    assert [o.choice for o in question.options] == ["back", yes]
    # The double's second press 0.1 s after the question shows is nobody's answer; the
    # player's own, read and pressed at 0.5 s, is.
    assert hands.choose(question, [[], [press], [], [], [], [press]]) == (yes, 0.5)


def test_another_press_on_the_question_counts_at_once_and_lifts_the_guard() -> None:
    """B (Back) at once counts; ITEM, then A, is no double A: the A counts, on four buttons
    as fast as the player presses."""
    hands = Hands()
    question = take(hands, gm_menu(), "end?", Pick(1))
    assert hands.choose(question, [[Button.FLEE]]) == ("back", 0.0)
    hands, mode = Hands(), keeper_menu()
    ask = asked(mode)
    steps: list[list[Press]] = [[Button.ITEM]] * ((1 - ask.highlight) % len(ask.options))
    assert hands.choose(ask, [*steps, [Button.ATTACK]])[0] == "close?"  # on four buttons
    mode.answer(1)
    question = asked(mode)
    # The double's A is dropped; one at 0.5 s takes the lit Back.
    assert hands.choose(question, [[Button.ATTACK], [], [], [], [], [Button.ATTACK]]) \
        == ("back", 0.5)
    assert hands.choose(question, [[Button.ITEM], [Button.ATTACK]]) == ("close", 0.1)
    hands = Hands()
    question = take(hands, keeper_menu(), "close?", TAP)
    assert hands.choose(question, [[Button.ITEM], [TAP]]) == ("close", 0.1)


def test_a_menu_that_is_no_question_is_not_slowed() -> None:
    """Two taps, or the same key twice, on two ordinary menus in quick succession both count:
    only a question before a drastic step is guarded."""
    for press in (TAP, Pick(1)):
        hands = Hands()
        mode = orc_attacks(6, 6)
        ask = asked(mode)
        gm = [o.choice for o in ask.options].index("gm")
        first = Pick(gm, tap=press.tap)
        assert hands.choose(ask, [[first]]) == ("gm", 0.0)
        mode.answer(gm)
        # The GM's menu: its second entry at once.
        assert hands.choose(asked(mode), [[press]]) == ("end?", 0.0)


def system_menu(hands: Hands, service: str = "") -> SystemMenu:
    return SystemMenu(hands.controls, "game", POLL, "", sleep=hands.clock.sleep,
                      clock=hands.clock, service=service)


@pytest.mark.parametrize("press", [TAP, Pick(1)], ids=["double tap", "2 typed twice"])
def test_a_double_on_new_game_does_not_leave_the_game(press: Press) -> None:
    hands = Hands()
    menu = system_menu(hands)
    assert [o.choice for o in menu.options()][1] == "new"
    # New game, its double 0.1 s after the question, then No at 0.5 s, then Back.
    hands.presses.script = deque([[], [press], [], [], [press], [], [], [], [], [Pick(0)],
                                  [], [Button.FLEE]])
    menu.open(hands.show)
    assert [p for p in hands.shown if p.startswith("Leave this game")] \
        and hands.shown[-1].startswith("System")
    # Read and answered, the same press leaves it.
    hands.presses.script = deque([[], [press], [], [], [], [], [], [], [press]])
    with pytest.raises(NewGameAsked):
        menu.open(hands.show)


def test_a_double_tap_on_quit_to_console_does_not_quit() -> None:
    hands = Hands()
    menu = system_menu(hands, "jongrogue-companion")
    console = [o.choice for o in menu.options()].index("console")
    first = Pick(console, tap=True)
    # The second tap lands on the question's Yes, then No is taken; Back.
    hands.presses.script = deque([[], [first], [], [], [TAP], [], [], [], [], [Pick(0)],
                                  [], [Button.FLEE]])
    menu.open(hands.show)
    hands.presses.script = deque([[], [first], [], [], [], [], [], [], [TAP]])
    with pytest.raises(ConsoleAsked):
        menu.open(hands.show)


#: A JongRogue fight's menu: Fight first, in the box where the System menu's Back is drawn.
GAME_MENU = (Option("fight:1", "Fight 戦う", Button.ATTACK),
             Option("flee", "Flee 逃げる", Button.FLEE), Option("defend", "Defend 防御"))


@pytest.mark.parametrize(("press", "taken"), [
    (Pick(0, tap=True), "fight:1"), (Button.FLEE, "flee"), (Pick(0), "fight:1")],
    ids=["double tap", "b twice", "1 typed twice"])
def test_a_double_on_the_system_menus_back_is_not_the_games_answer(press: Press,
                                                                    taken: str) -> None:
    """Input audit 63 D2: Back is the menu's first box ([B], the key 1), and the game's menu
    asked again draws Fight there; Back is also FLEE, the game's Flee. The double's second
    press fought (waking a sleeping monster, JR-STATE-1) or fled."""
    hands = Hands()
    menu = system_menu(hands)
    # The header tapped (SYSTEM), Back, its double 0.1 s after the game's menu is shown
    # again; the player's own press at 0.5 s.
    hands.presses.script = deque([[], [Button.SYSTEM], [], [press], [], [], [press], [],
                                  [], [], [press]])
    start = hands.clock.now

    def game() -> int:
        return choose(hands.controls, hands.show, "bat attack! Act:", GAME_MENU, 0, POLL,
                      hands.clock.sleep)

    chosen = menu.answering(game, hands.show, lambda: "")
    assert hands.shown[1].startswith("System") and hands.shown[2] == "bat attack! Act:"
    assert (GAME_MENU[chosen].choice, round(hands.clock.now - start, 3)) == (taken, 0.5)


def test_a_double_tap_on_use_does_not_take_the_use_under_the_finger() -> None:
    """JongRogue's "Use healing potion now?" is guarded as the fights' questions are: a
    double tap on the menu's Use lands on the question's Use (its first box)."""
    from tests.app.potion_question_helpers import MENU, at_the_potion

    mode, _ = at_the_potion([])
    hands = Hands()
    ask = asked(mode)
    use = [o.choice for o in ask.options].index("use:1p")
    assert hands.choose(ask, [[Pick(use, tap=True)]]) == ("use:1p", 0.0)
    mode.answer(use)
    question = asked(mode)
    assert question.prompt == MENU
    tap = Pick(0, tap=True)
    assert hands.choose(question, [[tap], [], [], [], [], [tap]]) == ("use:1p", 0.5)


def double_a(hands: Hands, mode: GensoFightMode | CocFightMode | DiceTrayMode,
             entry: str) -> tuple[str, float]:
    """Keys75 D1's presses: the highlight moved onto ``entry`` (item), A, and A again 0.2 s
    later, on the question it opens; the player's own A at 0.6 s. What they took, and when."""
    ask = asked(mode)
    at = [o.choice for o in ask.options].index(entry)
    moves: list[list[Press]] = [[Button.ITEM]] * ((at - ask.highlight) % len(ask.options))
    assert hands.choose(ask, [*moves, [Button.ATTACK]])[0] == entry
    mode.answer(at)
    question = asked(mode)
    return hands.choose(question, [[], [], [Button.ATTACK], [], [], [], [Button.ATTACK]])


def test_a_double_a_on_flee_removes_nobody() -> None:
    """Genso's Flee and the question it asks (GM-COMBAT-1) were Flee lit and keyed A: ←, ←,
    then A, A 0.2 s apart fled the PC (keys75 D1). The double's A is dropped, the next A
    takes the lit Back."""
    mode = orc_attacks(6, 6)
    assert double_a(Hands(), mode, "flee?") == ("back", 0.6)
    assert not any(isinstance(e.action, Flee) for e in mode.fight.journal)


def test_a_double_a_on_end_turn_ends_no_turn() -> None:
    """CoC's End turn and its question were End turn lit and keyed A (keys75 D1)."""
    mode = CocFightMode(fight_004()[0])
    assert double_a(Hands(), mode, "end?") == ("back", 0.6)
    assert not any(isinstance(e.action, EndTurn) for e in mode.fight.journal)


def test_a_double_a_on_the_trays_quit_leaves_the_tray_open() -> None:
    """The tray's Quit (its menu's last entry, ← from the first) asked Quit lit and keyed A:
    A, A closed the tray (keys75 D1)."""
    mode = DiceTrayMode(("2D6",), "simulated 仮想")
    quit_at = str(len(asked(mode).options) - 1)
    assert double_a(Hands(), mode, quit_at) == ("back", 0.6)
    mode.answer(0)
    assert asked(mode).prompt == MENU_PROMPT


def test_a_double_a_on_whom_does_not_cast_below_1_mp() -> None:
    """GM-MAGIC-1 Default, GM-COMBAT-8: "… falls below 1 MP … anyway?" follows the target
    menu, chosen with A; it was Cast lit and keyed A, so A, A 0.2 s apart on "On whom?" cast
    and put the caster out, the warning on screen for 0.2 s (keys75 D1)."""
    mode = ringed_table(mp=4, rings_left=(), storage_mp=0)
    for key in ("wait", "cast", "s:healing"):
        mode.restore(key)
    assert double_a(Hands(), mode, f"t:{PC1}") == ("back", 0.6)
    assert not any(isinstance(e.action, Cast) for e in mode.fight.journal)
    assert mode.fight.state.get(PC2).mp == 4
