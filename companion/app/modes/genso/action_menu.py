"""The mode's top layer, :class:`GensoFightMode`: the action menu of whoever's turn it is
(attack, full attack, spell, stone, dodge, move, wait, flee, GM) and the path of choices
into every other menu, with the GM's menu and the closing one when the fight is over, and
the question a party down (全滅) puts while the fight goes on (GM-COMBAT-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.app.modes.genso.checks import CheckCall, FightEvent
from companion.app.modes.genso.gm_menu import ASK_END_FIGHT, _GmMenu
from companion.app.modes.genso.target_menus import _value
from companion.app.modes.genso.words import FOES_OUT, PARTY_OUT, TITLE, named
from companion.app.modes.questions import ASK_UNDO, sure
from companion.app.session.controls import BACK, Question
from companion.app.session.mode import Answer, ChoiceAsk, RollAsk, Throw
from companion.errors import IllegalAction
from companion.hw.buttons import Button
from companion.hw.display.view import Option, View
from companion.systems.genso.combat import (
    Action,
    Combatant,
    Dodge,
    Fight,
    Flee,
    Move,
    Outcome,
    Wait,
    move_label,
    move_metres,
    wants_to_flee,
)
from companion.systems.genso.rules import GensoRules

#: The action menu's Flee: it asks first (:meth:`GensoFightMode._flee`), since its button
#: (B, f, Esc) is Back everywhere else (table audit gc #4).
ASK_FLEE = "flee?"
#: The action menu's actions that go on in menus of their own (whom, which weapon, …).
_ACTIONS = ("attack", "full", "cast", "stone", "move", ASK_FLEE)
#: The no of :meth:`GensoFightMode._asks_party_down`'s question: the fight plays on.
PLAY_ON = "play on"
#: The question's words for the party out (GM-COMBAT-1, :data:`.words.PARTY_OUT`).
_OUT_ASKED = {Outcome.PARTY_DOWN: "The party is down: end the fight? 全滅: 戦闘終了？",
              Outcome.PARTY_FLED_SOME_DOWN: "Some fled, the rest are down: end the fight? "
                                            "一部逃走: 戦闘終了？"}
#: The question's words for every foe left dead by the calendar
#: (:meth:`~.fight_view._FightView.foes_out`); the action menu's note is :data:`.words.FOES_OUT`.
_FOES_ASKED = "The foes are down: end the fight? 敵全滅: 戦闘終了？"


class GensoFightMode(_GmMenu):
    """Turn by turn: an action, its target, weapon or spell, then its dice; over when the
    fight is and the GM closes it."""

    TITLE = TITLE

    def __init__(self, rules: GensoRules, fight: Fight, source_name: str = "",
                 fight_path: Path | None = None) -> None:
        super().__init__(rules, fight, source_name, fight_path)
        #: The journal's length when the GM played on with the party down (None: not asked
        #: since it fell, :meth:`_asks_party_down`).
        self._played_on: int | None = None
        #: Why the action of a fighter the calendar records dead of a Death Curse was not
        #: taken, or a resumed one dropped (:meth:`answer`, :meth:`replayed`), in the status
        #: line until the next answer.
        self.dead_dropped = ""

    def _asks_party_down(self) -> bool:
        """GM-COMBAT-1 (Default ``party_down_ends_fight`` off): the party down (全滅) leaves
        the fight going until the GM declares its end, so the table asks the GM once, at
        the action menu after the party fell: yes ends it (the GM's End fight), no plays
        on. Asked again after the party rose and fell anew, or the fall was undone.

        The fighters the calendar records dead of a Death Curse count down (:meth:`party_out`,
        reviewg71 RISK 3). Not asked while a save is given again (:attr:`_restoring`): the
        calendar may say otherwise now than when it was played, so the action menu then
        takes the question's answers too (:meth:`_actions`), whichever was played.

        Asked too, with the same answers, when every foe left is one the calendar records
        dead (:meth:`foes_out`, reviewg71b RISK 3): the engine would have ended the fight
        itself had they fallen, but cannot know of the calendar, so the GM says."""
        return (not self.path and not self._restoring and bool(self._out_asked())
                and self._played_on is None)

    def _out_asked(self) -> str:
        """The question's words for the party out or the foes out (empty: neither)."""
        out = self.party_out()
        if out is not None:
            return _OUT_ASKED[out]
        return _FOES_ASKED if self.foes_out() else ""

    def _push(self, action: Any) -> list[Any]:
        done = super()._push(action)
        if not self._out_asked():
            self._played_on = None  # up again (a Sleep's MP, a Healing): a fall is asked anew
        return done

    def undo(self) -> list[Any]:
        undone = super().undo()
        if self._played_on is not None and len(self.fight.journal) < self._played_on:
            self._played_on = None  # the answer was given after the action undone
        return undone

    def answer(self, value: Answer) -> list[Any]:
        """As every fight's; but a new step of an action (a pick in its menus, or one of its
        dice) by a fighter the calendar records dead of a Death Curse (GM-MAGIC-13) is not
        taken, the calendar read again for it: `genso calendar pass` from another shell while
        the menu was shown recorded the death, and the dead's blow was dealt (calendar75
        DEFECT 1; the command line refuses it, ``acts no more``). The action is left for the
        dead's own menu (Skip turn, GM), journalled as the Backs that leave it, and the
        status line says why; a Back in one of its later menus leaves it whole too, saying
        so, rather than one menu a press back towards a menu the dead cannot pick from. Not
        while a save is given again (:attr:`_restoring`): a turn played before the death
        replays as played."""
        self.dead_dropped = ""
        actor = self.fight.state.current
        if self._restoring or actor is None or not (
                self._new_step(value) or self._steps_back_inside(value)):
            return super().answer(value)
        said, self._curses = self.calendar_fault, None  # read again: a pass since
        if not self.cursed_dead(actor.name):
            fault = self.calendar_fault if self.calendar_fault != said else ""
            events = super().answer(value)
            self.calendar_fault = self.calendar_fault or fault
            return events
        self.resumed = self.undone = ""
        self._drop_action()
        self.dead_dropped = f"{self.acts_no_more(actor)}: its action is not taken 行動は取りやめ"
        return []

    def _new_step(self, value: Answer) -> bool:
        """Is ``value`` a step into or through an action (not Back, the GM's menu, a check, a
        Skip turn, nor Again or Give up)?"""
        if self.held:
            return False
        in_action = bool(self.path) and self.path[0] in _ACTIONS
        if isinstance(value, Throw):
            return in_action and not value.back and not value.failure
        ask = self.ask()
        if not isinstance(ask, ChoiceAsk) or not isinstance(value, int) \
                or not 0 <= value < len(ask.options):
            return False
        choice = ask.options[value].choice
        if choice == BACK.choice:
            return False
        return in_action if self.path else choice in (*_ACTIONS, "dodge")

    def _steps_back_inside(self, value: Answer) -> bool:
        """Is ``value`` Back in a menu of an action after its first (which the dead's Back
        would only step out of one menu)?"""
        if self.held or len(self.path) < 2 or self.path[0] not in _ACTIONS:
            return False
        ask = self.ask()
        return (isinstance(ask, ChoiceAsk) and isinstance(value, int)
                and 0 <= value < len(ask.options) and ask.options[value].choice == BACK.choice)

    def _drop_action(self) -> None:
        """The action under way given up, journalled as the presses that give it up, so a
        replay comes to the same menu whatever the calendar says then: Give up at Again or
        Give up, ``back`` at a die (the first leaves the action, a later one gives it up, as
        a save's ``back`` does), one Back a menu (one fewer where a pre-review60a Fire pick
        takes two, :meth:`restore`)."""
        if self.held or isinstance(self.ask(), RollAsk):
            backs = 1
        else:
            backs = len(self.path) - (1 if self._from_old_pick
                                      and tuple(self.path) == self._from_old_pick else 0)
        self._journal += [BACK.choice] * backs
        self.held = False
        self.path, self.throws, self.note = [], [], ""

    def replayed(self, events: int) -> None:
        """As every fight's; then a save stopped inside the action of a fighter the calendar
        now records dead of a Death Curse (GM-MAGIC-13) steps back out of it, to the dead's
        own menu (Skip turn, GM), journalled as :meth:`_drop_action` says: the dice typed
        after a resume are new play, and the dead act no more (calendar75 DEFECT 1: the
        action went on, and its blow was dealt). Its answers given before the death were
        replayed as given, and nothing is set aside."""
        super().replayed(events)
        actor = self.fight.state.current
        if (actor is not None and (self.held or (self.path[:1] and self.path[0] in _ACTIONS))
                and self.cursed_dead(actor.name)):
            self._drop_action()
            self.dead_dropped = (f"{self.acts_no_more(actor)}: its unfinished action is "
                                 "dropped 未完の行動は取りやめ")

    def view(self, prompt: str, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = ()) -> View:
        return super().view(prompt, options=options, highlight=highlight,
                            status=status or self.dead_dropped, prompt_tile=prompt_tile,
                            prompt_faces=prompt_faces)

    def _direct(self, choice: str) -> list[FightEvent] | None:
        if self._asks_party_down() or (self._restoring and not self.path
                                       and choice in (PLAY_ON, "end")):
            if choice == PLAY_ON:
                self._played_on = len(self.fight.journal)
                return []
            return self._gm(choice)  # ``end``: the GM's declaration, as GM → End fight
        if self.path[:1] == ["check"]:
            return None
        # The dead's own Undo and End fight of a fixgenso71 save (:meth:`_actions`) are the
        # GM's, asked again.
        if self.fight.state.current is None or self.path[:1] in (
                ["gm"], [ASK_UNDO], [ASK_END_FIGHT]):
            return self._gm(choice)
        return None

    # -- the menus ------------------------------------------------------------------------

    def _step(self, path: Sequence[str]) -> ChoiceAsk | Action | CheckCall:
        """The next menu for the options picked so far, or the action they make."""
        state = self.fight.state
        actor = state.current
        if path[:1] == ["check"]:
            return self._check(list(path[1:]))
        if path in ([ASK_UNDO], [ASK_END_FIGHT], ["gm", ASK_UNDO], ["gm", ASK_END_FIGHT]):
            return self._sure(path[-1])
        if not path and self._asks_party_down():
            # Under the preset whose party down ends the fight (GM-COMBAT-1
            # party_down_ends_fight on), the engine would have ended it, had the calendar's
            # dead fallen: the question says so (reviewg71b NIT 2: it said the Default's
            # "the GM declares the end"). The same answers: a save replays either way.
            ends = (self.party_out() is not None
                    and self.rules.default("GM-COMBAT-1", "party_down_ends_fight"))
            why = ("GM-COMBAT-1 party_down_ends_fight: the rules end it 規則により終了" if ends
                   else "ＧＭは戦闘終了を宣言する")
            return Question(f"{self._out_asked()} ({why}; no: the fight goes on)", (
                                Option(PLAY_ON, "No, play on いいえ、続行", Button.FLEE),
                                Option("end", "Yes, end it はい、終了")))
        if actor is None:
            # GM-MON-5: a Wight's or Wraith's kill rises at sunset, hours after the fight's
            # end, as `fight sunset` plays it after the end (review64g R1).
            return ChoiceAsk(f"The fight is over 戦闘終了: {self._outcome()}{self.apply_hint()}", (
                Option("close", "Close 閉じる", Button.ATTACK), Option(ASK_UNDO, "Undo 取り消し"),
                Option("sleep", "Sleep 睡眠 (MP)"), Option("sunrise", "Sunrise 日の出"),
                Option("sunset", "Sunset 日没"), Option("check", "Check 判定")))
        if not path:
            return self._actions(actor)
        kind, rest = path[0], list(path[1:])
        if kind == "gm":
            return ChoiceAsk("GM: which step? 進行", (
                Option(ASK_UNDO, "Undo 取り消し"), Option(ASK_END_FIGHT, "End fight 戦闘終了"),
                Option("sunrise", "Sunrise 日の出"), Option("sunset", "Sunset 日没"),
                Option("sleep", "Sleep 睡眠"), Option("check", "Check 判定"), BACK))
        if kind in ("attack", "full"):
            return self._attack(actor, rest, full=kind == "full")
        if kind == "cast":
            return self._cast(actor, rest)
        if kind == "stone":
            return self._stone(actor, rest)
        if kind == ASK_FLEE:
            return self._flee(actor, rest)
        if kind == "move":
            if not rest:  # GM-MOVE-1, GM-MON-7: the mover's own metres (an Orc's 4/16/64)
                metres = move_metres(self.rules, actor)
                return ChoiceAsk("Move how far? 移動は？", (
                    *(Option(f"m:{mode}", move_label(mode, metres)) for mode in metres), BACK))
            return Move(actor.name, _value(rest[0], "m"))
        simple: dict[str, type[Dodge | Wait]] = {"dodge": Dodge, "wait": Wait}
        if kind in simple and not rest:
            return simple[kind](actor.name)
        raise IllegalAction(f"there is no choice {'/'.join(path)!r} now")

    def _actions(self, actor: Combatant) -> ChoiceAsk:
        """The actions open to whoever's turn it is (GM-COMBAT-1, -5, -6, GM-MOVE-1, …).

        After a normal move (通常移動) whose turn goes on (the GM-MOVE-1 Default
        ``full_dodge_after_normal_move``) the engine takes no attack, spell or magic stone
        (移動後は攻撃不能かつ魔法は使用不能), so the menu offers none.

        A fighter the calendar records dead of a Death Curse (GM-MAGIC-13, its row
        ``呪殺呪 curse 死亡 died``) acts no more: its turn offers only Skip turn (a Wait, the
        engine's turn that does nothing) and the GM's menu (Undo, End fight, Sunrise, Sunset,
        Sleep, Check), saying why (reviewg70 RISK E; reviewg71 RISK 4: with only Undo and End
        fight, the GM's other steps needed a Wait pushed first). Not while a save is given
        again (:attr:`_restoring`): a turn played before the death was recorded replays as
        played, and the dead's own Undo and End fight of fixgenso71's menu are taken too,
        whatever the calendar says now (reviewg70 DEFECT A's guard)."""
        if not self._restoring and self.cursed_dead(actor.name):
            return ChoiceAsk(self.acts_no_more(actor), (
                Option("wait", "Skip turn 手番を飛ばす", Button.ATTACK), Option("gm", "GM 進行")))
        options = []
        fights = self.fight.state.moved != "normal"
        # With no foe left to strike (every PC dead, the fight going on until the GM ends
        # it), Attack led to an empty "Attack whom?" (review64g N2); nor with every foe
        # inside a Barrier the undead cannot enter (calendar73 RISK 3).
        if fights and (actor.weapons or actor.drain_hp or actor.drain_mp) \
                and self.attack_targets(actor):
            options += [Option("attack", "Attack 攻撃", Button.ATTACK),
                        Option("full", "Full attack 全力攻撃")]
        if fights and self._spells(actor):
            options.append(Option("cast", "Spell 呪文", Button.RANGED))
        # A stone only with someone to take it (genso72 RISK 3: an Enchant Stone on no foe
        # immune to normal attacks), but for a save's answers given again.
        if fights and actor.stones and (self._restoring or any(
                self.stone_targets(actor, k) for k in set(actor.stones))):
            options.append(Option("stone", "Stone 魔法石", Button.ITEM))
        options.append(Option("dodge", "Dodge 全力回避"))
        if not self.fight.state.moved:  # GM-COMBAT-1: one movement mode a round
            options.append(Option("move", "Move 移動"))
        options += [Option("wait", "Wait 待機"), Option(ASK_FLEE, "Flee 逃亡", Button.FLEE),
                    Option("gm", "GM 進行")]
        if self._restoring:
            # A dead fighter's turn of a fixgenso71 save (see above), and the party-down
            # question's answers, not asked while a save is given again (:meth:`_asks_party_down`).
            options += [Option(ASK_UNDO, "Undo 取り消し"), Option(ASK_END_FIGHT, "End fight"),
                        Option(PLAY_ON, "No, play on"), Option("end", "Yes, end it")]
        flee = " GM-MON-1: it wants to flee 逃走したい" if wants_to_flee(self.rules, actor) else ""
        out = self.party_out()
        if out:  # GM-COMBAT-1: until the GM ends it
            flee += f" {PARTY_OUT[out]}: GM → End fight ends the fight"
        elif self.foes_out():  # the foes the calendar left dead: as the party down
            flee += f" {FOES_OUT}: GM → End fight ends the fight"
        return ChoiceAsk(f"{named(self.rules, self.fight, actor)}: what now? 行動は？"
                         f"{flee}", tuple(options))

    def _flee(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """GM-COMBAT-1: flight takes the combatant out of the fight, so it is asked for again,
        as Undo is: Back lit (B, the button that chose Flee, and A alike return to the action
        menu), guarded against a repeat of the press that opened it, *Flee 逃亡* the second
        choice. One press of back never removes anyone, nor does a double A on a highlighted
        Flee (keys75 D1: Flee was lit and keyed A, and the second A fled)."""
        if not rest:
            return sure(f"{named(self.rules, self.fight, actor)} flees the fight? 逃亡する？",
                        "flee", "Flee 逃亡")
        if rest != ["flee"]:
            raise IllegalAction(f"there is no choice {'/'.join([ASK_FLEE, *rest])!r} now")
        return Flee(actor.name)

    def restore(self, text: str) -> None:
        """As every fight's; a journal written before flight, the GM's Undo and End fight
        were confirmed has ``flee`` at the action menu, ``undo`` or ``end`` at the GM's
        (``undo`` at the fight-over menu too), the step itself: it is replayed as the
        question and its yes."""
        running = self.fight.state.current is not None
        if text == "flee" and not self.path and running:
            super().restore(ASK_FLEE)
        elif (text in ("undo", "end") and self.path == ["gm"]) or (
                text == "undo" and not self.path and not running):
            super().restore(ASK_UNDO if text == "undo" else ASK_END_FIGHT)
        super().restore(text)
