"""dice66 RISK 1, fixed (fixf67): in a genso or coc fight at the table, one press of
flee/back (B, also the read screen's Reject key just before) while an action's later die
was awaited (the damage after a to-hit accepted) gave the action up with its accepted
throws, asking nothing. Now the action is held and :data:`~companion.app.modes.fight.HELD`
asked, naming the throws kept: *Again 続ける* asks the same die, flee/back again (*Give up
やめる*) gives the action up as one press did before.

The table's journal says ``hold`` for the press that held it; ``back`` at a die awaited
still means the action given up, so a save from before the question (``…, '6,4', 'back'``,
then the next action's choice) replays as it played. The old journals below are the very
inputs the table wrote before this fix (run on the commit before it, the same choices and
throws).

The tables are real (``table_session``, their saves and fight files in a folder); the
player is a script of choices and the dice a script of throws.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.app.modes.coc import table_session as coc_table_session
from companion.app.modes.fight import HELD, HELD_KEPT, FightMode
from companion.app.modes.fight_save import FightSave
from companion.app.modes.genso import table_session as genso_table_session
from companion.app.session.controls import DOUBLE_PRESS_SECONDS, MenuChoices
from companion.app.session.host import Session
from companion.app.session.keypad import Keypad
from companion.app.session.mode import ChoiceAsk, RollAsk, Show, Throw
from companion.app.session.rolls import SO_FAR, TYPED_WHY
from companion.errors import IllegalAction
from companion.hw.buttons import Button
from tests.app.camera_dice_roll_helpers import rolls_on
from tests.app.coc_table_helpers import fight_file as coc_fight_file
from tests.app.dice_camera_helpers import Clock
from tests.app.dice_camera_helpers import Hands as CameraHands
from tests.app.double_press_helpers import POLL, Hands
from tests.app.genso_table_helpers import RULES, SEED
from tests.app.genso_table_helpers import fight_file as genso_fight_file
from tests.app.power_cuts import cut_after_saves
from tests.app.table import Player
from tests.dice_scenes import still_scene
from tests.hw.display.prompt_fit_helpers import coc_board_mode

BACK = Throw(back=True)


@dataclass(frozen=True)
class Table:
    """A fight system's table, and an attack on it: the options that choose it, its to-hit,
    the dice after it (the first of them the damage awaited when B is pressed)."""

    name: str
    write_fight: Callable[[Path], object]
    open: Callable[..., Session]
    attack: tuple[str, ...]
    to_hit: tuple[int, ...]
    to_hit_line: str  # the to-hit as the question names it
    after: tuple[tuple[int, ...], ...]
    actor_menu: str  # the attacker's action menu
    next_menu: str  # the next to act's menu, after the attack
    #: The journal the table wrote before fixf67: the attack given up with one B at its
    #: damage (``…, to-hit, 'back'``), then thrown whole.
    old_journal: tuple[str, ...]


def _genso(folder: Path, **kwargs: Any) -> Session:
    return genso_table_session(RULES, folder / "fight.json", folder / "table.json", seed=SEED,
                               **kwargs)


def _coc(folder: Path, **kwargs: Any) -> Session:
    return coc_table_session(folder / "fight.json", folder / "table.json", seed=7, **kwargs)


GENSO = Table(
    "genso", genso_fight_file, _genso, ("attack", "t:オーク1", "w:0"), (6, 4),
    "(2D6) ＞ 10[6,4]: to hit 命中", ((5,),), "駆け出し冒険者１ PC 1: what now",
    "駆け出し冒険者２ PC 2: what now",
    ("attack", "t:オーク1", "w:0", "6,4", "back", "attack", "t:オーク1", "w:0", "6,4", "5"))
COC = Table(
    "coc", lambda folder: coc_fight_file(folder, "003"), _coc,
    ("attack", "t:Cult", "h:ma", "d:none"), (8,),
    "(1D100) ＞ 8: Ann キック/Kick+MA (1D100<=60,50) to hit 命中", ((6, 4), (3,)),
    "Ann (3 AP): what now", "Ann (2 AP): what now",
    ("attack", "t:Cult", "h:ma", "d:none", "8", "back", "attack", "t:Cult", "h:ma", "d:none",
     "8", "6,4", "3"))
TABLES = pytest.mark.parametrize("table", [GENSO, COC], ids=["genso", "coc"])


class AtTheTable(Player):
    """The player: picks options by key (the script run out, the power goes), and keeps each
    menu asked, and at each :data:`HELD` question the Result panel as the screen shows it."""

    def __init__(self, script: Sequence[str]) -> None:
        super().__init__(list(script))
        self.asked: list[ChoiceAsk] = []
        self.held_results: list[list[str]] = []
        self.mode: FightMode | None = None

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        self.asked.append(ask)
        if ask.prompt.startswith(HELD) and self.mode is not None:
            fight = self.mode.view(ask.prompt, options=ask.options).fight
            assert fight is not None
            self.held_results.append([f"{s.rule} {s.text}" for s in fight.result])
        return super().next_choice(ask, show)


class Dice:
    """The throws, in order (B is ``Throw(back=True)``); the power goes when they run out.
    Keeps each roll asked for."""

    def __init__(self, throws: Sequence[Throw]) -> None:
        self.throws = list(throws)
        self.asked: list[RollAsk] = []

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        self.asked.append(ask)
        if not self.throws:
            raise KeyboardInterrupt
        return self.throws.pop(0)


def play(table: Table, folder: Path, choices: Sequence[str], throws: Sequence[Throw], *,
         resume: bool = False) -> tuple[FightMode, AtTheTable, Dice]:
    """A table at ``folder`` played until the script or the dice run out (a power cut)."""
    player, dice = AtTheTable(choices), Dice(throws)
    session = table.open(folder, resume=resume, choices=player, rolls=dice)
    assert isinstance(session.mode, FightMode)
    player.mode = session.mode
    try:
        session.run()
    except KeyboardInterrupt:
        pass
    return session.mode, player, dice


def new_table(table: Table, folder: Path) -> Path:
    folder.mkdir()
    table.write_fight(folder)
    return folder


def saved(folder: Path) -> FightSave:
    return FightSave.from_json((folder / "table.json").read_text(encoding="utf-8"))


def thrown(table: Table) -> list[Throw]:
    """The attack's throws, B at none."""
    return [Throw(table.to_hit), *(Throw(t) for t in table.after)]


def notation(values: Sequence[int]) -> str:
    return ",".join(map(str, values))


def the_attack_whole(table: Table, folder: Path) -> FightMode:
    """The same attack thrown through, no B: the fight the held one must come to."""
    mode, _, _ = play(table, new_table(table, folder), table.attack, thrown(table))
    assert len(mode.fight.journal) == 1 and not mode.throws
    return mode


@TABLES
def test_b_at_the_damage_asks_and_again_asks_the_same_die_the_to_hit_kept(
        table: Table, tmp_path: Path) -> None:
    """To-hit accepted, B while the damage is awaited: the question, naming the to-hit; the
    Result panel still shows it so far; Again asks the same damage die, and the attack ends
    as one thrown through with no B, the to-hit the one accepted before."""
    whole = the_attack_whole(table, tmp_path / "whole")
    throws = [Throw(table.to_hit), BACK, *(Throw(t) for t in table.after)]
    mode, player, dice = play(table, new_table(table, tmp_path / "held"),
                              [*table.attack, "again"], throws)
    [question] = [a for a in player.asked if a.prompt.startswith(HELD)]
    assert question.prompt == f"{HELD} — {HELD_KEPT}: {table.to_hit_line}"
    assert [(o.choice, o.label) for o in question.options] == [
        ("again", "Again 続ける"), ("back", "Give up やめる")]
    assert player.held_results == [[f"{SO_FAR} {table.to_hit_line}"]]
    damage = dice.asked[1]
    assert dice.asked[2] == damage  # the same die, asked again
    assert mode.fight.to_json() == whole.fight.to_json()
    assert mode.journal == [*table.attack, notation(table.to_hit), "hold", "again",
                            *map(notation, table.after)]
    assert player.asked[-1].prompt.startswith(table.next_menu)


@TABLES
def test_b_again_at_the_question_gives_the_action_up_as_one_b_did(
        table: Table, tmp_path: Path) -> None:
    """B at the damage, then B (Give up) at the question: the attack is given up with its
    to-hit, as one press did before; the attacker's menu again, and the attack chosen again
    throws its to-hit anew. B at an action's first die still goes straight back."""
    folder = new_table(table, tmp_path / "t")
    mode, player, dice = play(table, folder, [*table.attack, "back", *table.attack],
                              [Throw(table.to_hit), BACK, BACK])
    prompts = [a.prompt for a in player.asked]
    given_up = len(table.attack) + 1  # the question, then the attacker's menu
    assert prompts[given_up - 1].startswith(HELD)
    assert prompts[given_up].startswith(table.actor_menu)
    assert prompts[-1].startswith(table.actor_menu)  # B at the first die: no question
    assert mode.fight.journal == [] and mode.throws == [] and not mode.held
    assert dice.asked[2] == dice.asked[0]  # the to-hit asked anew
    assert mode.journal == [*table.attack, notation(table.to_hit), "hold", "back",
                            *table.attack, "back"]
    assert saved(folder).inputs == mode.journal


@TABLES
def test_a_power_cut_while_held_resumes_at_the_question(
        table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The power goes with the question on screen (the save after the press that held the
    attack): --resume shows the question again, the to-hit named and so far; Again asks the
    damage and the attack ends as one thrown through."""
    whole = the_attack_whole(table, tmp_path / "whole")
    folder = new_table(table, tmp_path / "cut")
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(len(table.attack) + 2))
        play(table, folder, [*table.attack, "again"], [Throw(table.to_hit), BACK])
    assert saved(folder).inputs == [*table.attack, notation(table.to_hit), "hold"]
    mode, player, dice = play(table, folder, ["again"], [Throw(t) for t in table.after],
                              resume=True)
    assert player.asked[0].prompt == f"{HELD} — {HELD_KEPT}: {table.to_hit_line}"
    assert player.held_results == [[f"{SO_FAR} {table.to_hit_line}"]]
    assert dice.asked[0].count == len(table.after[0])  # the damage, not the to-hit again
    assert mode.fight.to_json() == whole.fight.to_json()


@TABLES
def test_a_save_from_before_the_question_replays_its_back_as_given_up(
        table: Table, tmp_path: Path) -> None:
    """A save the table wrote before the question: ``…, to-hit, 'back'`` then the attack
    again, thrown through. --resume replays it as it played (the first attack given up,
    never a question that would refuse the next choice as illegal), and the table goes on at
    the next to act; cut straight after its ``back``, at the attacker's menu."""
    whole = the_attack_whole(table, tmp_path / "whole")
    for name, inputs, events, menu in (
            ("all", table.old_journal, 1, table.next_menu),
            ("cut", table.old_journal[:len(table.attack) + 2], 0, table.actor_menu)):
        folder = new_table(table, tmp_path / name)
        # The save and fight file as that table left them: the attack in the file when
        # thrown through; then the journal as that table wrote it.
        play(table, folder, table.attack if events else [], thrown(table) if events else [])
        state = folder / "table.json"
        data = json.loads(state.read_text(encoding="utf-8"))
        state.write_text(json.dumps({**data, "inputs": list(inputs), "events": events},
                                    ensure_ascii=False), encoding="utf-8")
        mode, player, _ = play(table, folder, [], [], resume=True)
        assert mode.journal == list(inputs) and mode.throws == []
        assert player.asked[0].prompt.startswith(menu)
        if events:
            assert mode.fight.to_json() == whole.fight.to_json()
        else:
            assert mode.fight.journal == []


@TABLES
def test_a_new_journal_replays_hold_again_and_give_up(table: Table, tmp_path: Path) -> None:
    """The journal of a table played with both answers to the question replays, line by
    line, to the same fight; ``hold`` where no throw of an action is kept is refused (a
    damaged save), not read as a give-up."""
    folder = new_table(table, tmp_path / "t")
    throws = [Throw(table.to_hit), BACK, Throw(table.to_hit), BACK,
              *(Throw(t) for t in table.after)]
    mode, _, _ = play(table, folder, [*table.attack, "back", *table.attack, "again"], throws)
    assert len(mode.fight.journal) == 1
    fresh, _, _ = play(table, new_table(table, tmp_path / "replayed"), [], [])
    for text in mode.journal:
        fresh.restore(text)
    assert fresh.fight.to_json() == mode.fight.to_json() and fresh.journal == mode.journal
    refused, _, _ = play(table, new_table(table, tmp_path / "refused"), [], [])
    for text in table.attack:
        refused.restore(text)
    with pytest.raises(IllegalAction, match="no action's throws to hold"):
        refused.restore("hold")


@TABLES
def test_the_second_b_of_a_double_press_on_the_keypad_s_back_does_not_give_up(
        table: Table, tmp_path: Path) -> None:
    """Dice typed (the keypad): B twice in a poll's time at the damage's keypad, an impatient
    double press on its *Back 戻る*. The first holds the attack; the second, on the question
    drawn under it, is that press's double and gives nothing up. A B of the player's own,
    after the double's time, gives the attack up."""
    mode, _, _ = play(table, new_table(table, tmp_path / "t"), table.attack,
                      [Throw(table.to_hit)])
    damage = mode.ask()
    assert isinstance(damage, RollAsk) and len(mode.throws) == 1
    hands = Hands()
    hands.presses.script = deque([[], [Button.FLEE]])
    keypad = Keypad(hands.controls, POLL, TYPED_WHY, hands.clock.sleep)
    mode.answer(keypad.next_throw(damage, hands.show))
    question = mode.ask()
    assert isinstance(question, ChoiceAsk) and question.prompt.startswith(HELD)
    chosen, after = hands.choose(question, [[Button.FLEE], [], [], [], [], [Button.FLEE]])
    assert chosen == "back" and after > DOUBLE_PRESS_SECONDS


@TABLES
@pytest.mark.parametrize(("gap", "answer"), [(0.2, "again"), (DOUBLE_PRESS_SECONDS + 0.1, "back")],
                         ids=["double", "own"])
def test_the_second_b_of_a_double_press_on_the_camera_wait_does_not_give_up(
        table: Table, tmp_path: Path, gap: float, answer: str) -> None:
    """Camera dice: B twice on the damage's wait (a throw awaited, *Back 戻る*). The first
    leaves the wait and holds the attack; the second, ``gap`` later on the question drawn
    under it, is that press's double when it comes in the double's time and gives nothing
    up: the question stays, and A (Again) asks the damage again. B after it is the player's
    own and gives the attack up (reviewf67 RISK 1: the wait set no guard, as the keypad's
    Back does, so a double B 0.1-0.3 s apart gave the action up)."""
    mode, _, _ = play(table, new_table(table, tmp_path / "t"), table.attack,
                      [Throw(table.to_hit)])
    damage = mode.ask()
    assert isinstance(damage, RollAsk) and len(mode.throws) == 1
    clock = Clock()
    hands = CameraHands([("Throw ", [Button.FLEE, Button.FLEE]),
                         (HELD, [Button.ATTACK], DOUBLE_PRESS_SECONDS)], clock, gap=gap)
    rolls = rolls_on(itertools.repeat(still_scene(600, 1).image), hands, clock)
    rolls.frames.rethrow = True  # the to-hit's dice lie unmoved: the wait waits for a throw
    assert rolls.next_throw(damage, hands.show) == BACK
    mode.answer(BACK)
    question = mode.ask()
    assert isinstance(question, ChoiceAsk) and question.prompt.startswith(HELD)

    def tick(seconds: float) -> None:
        clock.now += seconds

    chosen = MenuChoices(rolls.controls, 0.05, tick).next_choice(question, hands.show)
    assert question.options[chosen].choice == answer
    mode.answer(chosen)
    if answer == "again":
        assert mode.ask() == damage and len(mode.throws) == 1
    else:
        assert mode.throws == [] and mode.path == []
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith(table.actor_menu)


def test_a_burst_s_question_counts_its_rolls_and_names_the_last_one_s_dice(
        tmp_path: Path) -> None:
    """A coc burst keeps a roll a bullet, each naming the weapon: the question naming them
    all ran to 358 characters with five and was cut on the screen (reviewf67 DEFECT 1). Now
    it counts them and gives the last one's dice; the Result panel lists each so far."""
    mode = coc_board_mode()
    for text in ("end?", "end", "attack", "t:Cult", "w:0", "h:burst", "d:dodge", "55", "3",
                 "90", "1", "1"):  # to hit, hits, Cult's dodge, two bullets' damage
        mode.restore(text)
    damage = mode.ask()
    assert isinstance(damage, RollAsk)
    mode.restore("hold")
    question = mode.ask()
    assert isinstance(question, ChoiceAsk)
    assert question.prompt == (f"{HELD} — {HELD_KEPT}: 5 rolls 5回 ({SO_FAR}), the last 最後 "
                               "(1D10) ＞ 1")
    fight = mode.view(question.prompt, options=question.options).fight
    assert fight is not None
    assert len(fight.result) == 5 and {s.rule for s in fight.result} == {SO_FAR}
    first, *_, last = (s.text for s in fight.result)
    assert first.startswith("(1D100) ＞ 55: ") and last.startswith("(1D10) ＞ 1: ")
    assert "Submachine Gun" in last  # the last roll's whole line: in the Result panel
    mode.restore("again")
    assert mode.ask() == damage
