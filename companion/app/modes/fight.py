"""What every fight at the table shares (``play --mode genso``, ``play --mode coc``):
:class:`FightMode`, the mode of the play session over a fight system's engine.

A fight system's engine has ``push(action, source)`` and ``pop()``, resolves an action
whole from a :class:`~companion.dice.DiceSource` and keeps a journal of entries with
``to_json()``; its fight saves as ``to_json()`` data. Over such an engine:

- menus lead to an action (the subclass says which menu comes after the options picked
  so far, :meth:`FightMode._step`), and options outside the action menus (a GM's or
  Keeper's steps) are the subclass's too (:meth:`FightMode._direct`);
- the engine pulls its dice as it resolves an action and the session hands the mode one
  answer at a time; so, like the dice tray, the mode resolves the chosen action again
  over the throws so far (``Thrown`` in companion/app/session/rolls.py; the engine is
  pure and an action that cannot finish changes nothing) and asks for the next throw where
  it stops;
- the journal holds every answer (an option's key such as ``t:Cult``, a throw ``4,5``);
- flee/back while a later die of an action is awaited holds the action (:data:`HELD`): its
  throws accepted so far are kept, and the player is asked to go on with it (*Again*) or
  give it up (flee/back again). The journal says ``hold`` for that press; ``back`` at a die
  awaited still means the action given up, as in every save before (fixf67).

The table's save is :mod:`.fight_save`; the fight file kept in step with it,
:mod:`.fight_file`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.app.modes.dice_tray import throw_from_notation, throw_to_notation
from companion.app.modes.names import add_english
from companion.app.session.controls import BACK
from companion.app.session.mode import Answer, ChoiceAsk, RollAsk, Throw
from companion.app.session.rolls import SO_FAR, NeedDice, Rolled, Thrown
from companion.dice import DiceSource
from companion.errors import DataError, IllegalAction
from companion.hw.buttons import Button
from companion.hw.display.view import DiceStep, FightView, Option, View

SIMULATED = "simulated 仮想"
#: Flee/back (B, the keypad's *Back*, also the read screen's Reject key just before) while
#: an action's later die is awaited (its damage after a to-hit accepted): the action is held,
#: its throws kept, and this asked, naming them: *Again* asks the die awaited, flee/back
#: again gives the action up. One press gave it up with its accepted throws, so a second
#: B meant for a read dropped a to-hit of 6,4 unasked (dice66 RISK 1; the dice tray's
#: ``HELD`` asks the same of a table).
HELD = ("Back 戻る: go on with this action (Again), or give it up (Give up)? "
        "続けるかやめるか")
HELD_KEPT = "kept 保持"
#: With more than one roll kept, the question counts them and gives the last one's dice
#: (the Result panel lists each as ``so far 途中``): a coc burst keeps a roll a bullet, each
#: naming the weapon, and the question naming them all ran past the screen's footer, cut
#: with "…" at 800x480 (reviewf67 DEFECT 1).
HELD_ROLLS = "{count} rolls {count}回 ({so_far}), the last 最後 {last}"
AGAIN = Option("again", "Again 続ける", Button.ATTACK)
GIVE_UP = Option(BACK.choice, "Give up やめる", Button.FLEE)
#: The journal's entry for the press that held an action (:data:`HELD`). ``back`` at a die
#: awaited keeps its meaning in every save: the action given up (a save from before the
#: question replays as it played).
HOLD = "hold"


@dataclass(frozen=True)
class Undone:
    """An event: the GM (Keeper) took back the last action."""

    entry: Any


class FightMode:
    """Turn by turn: options picked from menus make an action, then its dice; over when the
    fight is and the GM closes it.

    A subclass gives :meth:`_step` (the menu after the options picked so far, or the action
    they make), :meth:`_direct` (options that are steps of their own, e.g. undo),
    :meth:`describe` (an action in a line), :meth:`english_names`, :meth:`fight_view` and
    :meth:`closing`; it may give :meth:`roll_prompt`.
    """

    TITLE: ClassVar[str] = "Fight 戦闘"

    def __init__(self, fight: Any, source_name: str = "") -> None:
        self.fight = fight
        self.source_name = source_name
        self.path: list[str] = []  # the options picked so far for the action under way
        self.throws: list[tuple[int, ...]] = []  # its dice thrown so far
        self.note = ""  # why a throw brought no dice
        self.undone = ""  # what the last answer took back, said until the next answer
        self.done = False
        #: Flee/back while a later die was awaited: :data:`HELD` is asked (path and throws
        #: kept) until Again or Give up.
        self.held = False
        self.thrown: list[tuple[int, int]] = []  # (count, sides) of every throw answered
        self._journal: list[str] = []
        self._events: list[Any] = []

    # -- what a subclass says ---------------------------------------------------------------

    def _step(self, path: Sequence[str]) -> ChoiceAsk | Any:
        """The next menu for the options picked so far, or the action they make."""
        raise NotImplementedError

    def _direct(self, choice: str) -> list[Any] | None:
        """A choice that is a step of its own (the GM's), or None for the action menus."""
        return None

    def describe(self, action: Any) -> str:
        """An action in a line, for the log and the result's title."""
        raise NotImplementedError

    def roll_prompt(self, action: Any, need: NeedDice) -> str:
        """What a throw is for (rolls.throw_prompt says which dice, and where): the roll, as
        the engine said (``need.purpose``), and the action it belongs to."""
        action_text = self.describe(action)
        return self.with_english(f"{need.purpose} — {action_text}" if need.purpose
                                 else action_text)

    def english_names(self) -> Mapping[str, str]:
        """Each combatant's name → its English, kept beside a Japanese name on screen."""
        raise NotImplementedError

    def with_english(self, text: str) -> str:
        """``text`` (the engine's, or a prompt naming a combatant) with the English beside
        each combatant's name (see :mod:`companion.app.modes.names`)."""
        return add_english(text, self.english_names())

    def fight_view(self, faces: tuple[int, ...] = ()) -> FightView:
        raise NotImplementedError

    def closing(self) -> str:
        raise NotImplementedError

    # -- what the fight asks ----------------------------------------------------------------

    def ask(self) -> ChoiceAsk | RollAsk | None:
        if self.done:
            return None
        if self.held:
            return self._held_ask()
        step = self._step(self.path)
        if isinstance(step, ChoiceAsk):
            return step
        need = self._walk(step)
        assert need is not None  # a whole action was pushed when its last answer came
        return RollAsk(self.roll_prompt(step, need), need.count, need.sides)

    def answer(self, value: Answer) -> list[Any]:
        self.undone = ""
        events = self._answer(value)
        # The Result panel then shows the action before, as if nothing had happened: the
        # command line says "undone: …", and so does the table's status line.
        taken = [e for e in events if isinstance(e, Undone)]
        if taken:
            self.undone = f"取り消し undone: {self.describe(taken[-1].entry.action)}"
        return events

    def _answer(self, value: Answer) -> list[Any]:
        ask = self.ask()
        if isinstance(value, Throw):
            if not isinstance(ask, RollAsk):
                raise IllegalAction("no dice are wanted now")
            events = self._thrown_answer(value, ask)
            self._journal.append(HOLD if self.held else throw_to_notation(value))
            return events
        if not isinstance(value, int):
            raise IllegalAction("a fight reads no tiles")
        if not isinstance(ask, ChoiceAsk) or not 0 <= value < len(ask.options):
            raise IllegalAction(f"there is no choice {value} now")
        choice = ask.options[value].choice
        events = self._chosen(choice)
        self._journal.append(choice)
        return events

    def _chosen(self, choice: str) -> list[Any]:
        """Take a picked option; a whole action is resolved as far as the dice go."""
        if self.held:  # Again (the die awaited is asked again) or Give up
            self.held = False
            if choice == GIVE_UP.choice:
                self.path, self.throws, self.note = [], [], ""
            return []
        if choice == "back":
            self.path = self.path[:-1]
            return []
        direct = self._direct(choice)
        if direct is not None:
            return direct
        path = [*self.path, choice]
        step = self._step(path)
        if isinstance(step, ChoiceAsk):
            self.path = path
            return []
        self.throws = []
        done = self._push(step)  # IllegalAction leaves the menu as it was
        self.path = [] if done else path
        return done

    def _thrown_answer(self, throw: Throw, ask: RollAsk) -> list[Any]:
        """A throw taken, failed or backed out of. Back at an action's first die leaves the
        action (no throw of it was taken); at a later one it holds the action (:data:`HELD`).
        A save's ``back`` at a later die is :meth:`_given_up`."""
        if throw.back:
            if self.throws:
                self.held, self.note = True, ""
                return []
            self.path, self.throws, self.note = [], [], ""
            return []
        if throw.failure:
            self.note = throw.failure
            return []
        if len(throw.values) != ask.count:
            raise IllegalAction(f"{ask.count}D{ask.sides} was wanted, the throw was "
                                f"{list(throw.values)}")
        self.note = ""
        step = self._step(self.path)
        assert not isinstance(step, ChoiceAsk)
        self.throws.append(throw.values)
        try:
            done = self._push(step)
        except IllegalAction:
            self.throws.pop()
            raise
        self.thrown.append((ask.count, ask.sides))
        if done:
            self.path, self.throws = [], []
        return done

    def _push(self, action: Any) -> list[Any]:
        """Resolve ``action`` over the throws so far: its entry, or [] while dice are wanted."""
        try:
            entry = self.fight.push(action, Thrown(self.throws))
        except NeedDice:
            return []
        self._events.append(entry)
        return [entry]

    def _walk(self, action: Any) -> NeedDice | None:
        """The throw ``action`` needs next (the fight is left as it was)."""
        try:
            self.fight.push(action, Thrown(self.throws))
        except NeedDice as need:
            return need
        self.fight.pop()  # cannot happen: a whole action was pushed when its last answer came
        return None

    def _held_ask(self) -> ChoiceAsk:
        """:data:`HELD`, naming the throws the action has had: one roll as the engine took it
        (``(2D6) ＞ 10[6,4]: to hit 命中``; its faces if it named none), more by their count
        and the last one's dice (:data:`HELD_ROLLS`), so the question stays short however
        many a burst keeps. The keypad's *Back* and the camera wait's guard the menu after
        them against their double (``controls.accepted_with``), this question too."""
        so_far = self.so_far()
        # Each roll kept, and its dice alone.
        faces = [",".join(map(str, t)) for t in self.throws]
        kept: list[tuple[str, str]] = (
            [(r.line(), replace(r, purpose="").line()) for r in so_far[1]]
            if so_far is not None else [(f, f) for f in faces])
        named = kept[0][0] if len(kept) == 1 else HELD_ROLLS.format(
            count=len(kept), so_far=SO_FAR, last=kept[-1][1])
        return ChoiceAsk(f"{HELD} — {HELD_KEPT}: {named}", (AGAIN, GIVE_UP))

    def legal(self, action: Any) -> bool:
        """Would the engine take ``action`` now? It is tried up to its first die (an illegal
        action is refused before any), and the fight is left as it was."""
        try:
            self.fight.push(action, Thrown([]))
        except NeedDice:
            return True
        except (IllegalAction, DataError):
            return False
        self.fight.pop()
        return True

    def undo(self) -> list[Any]:
        """The GM's or Keeper's undo: the last action taken back."""
        return [Undone(self.fight.pop())]

    def so_far(self) -> tuple[Any, tuple[Rolled, ...]] | None:
        """The action under way and the rolls it has had, while its next die is awaited (a
        to-hit read before its damage is asked for); None when no action is half thrown."""
        if not self.throws:
            return None
        action = self._step(self.path)
        if isinstance(action, ChoiceAsk):
            return None
        need = self._walk(action)
        return None if need is None or not need.rolled else (action, need.rolled)

    # -- the screen -------------------------------------------------------------------------

    def view(self, prompt: str, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = ()) -> View:
        fight = self.fight_view(prompt_faces)
        so_far = self.so_far()
        if so_far is not None:
            # The Result panel: the throws this action has had so far, each marked so where
            # a step's rule ID stands (the title names the action whole, its target last).
            # The log's newest entry is not this action's: the log keeps it.
            action, rolled = so_far
            fight = replace(fight, result_title=self.describe(action), result_is_newest=False,
                            result=tuple(DiceStep(SO_FAR, self.with_english(r.line()))
                                         for r in rolled))
        # The prompt and a refusal (the engine's words) name combatants too.
        return View(floor=None, room=None, room_tiles=(), sheet=None,
                    prompt=self.with_english(prompt), options=options, highlight=highlight,
                    status=self.with_english(status or self.note or self.undone),
                    title=self.TITLE, fight=fight)

    # -- the journal ------------------------------------------------------------------------

    @property
    def journal(self) -> list[str]:
        return self._journal

    def restore(self, text: str) -> None:
        """Give a journal's answer again. At a die awaited, ``hold`` is the press that held
        the action (:data:`HELD`), and ``back`` gives the action up, as it did before the
        question was asked (a save from before it: ``…, '6,4', 'back'`` then the next
        action's choice)."""
        ask = self.ask()
        if isinstance(ask, RollAsk):
            if text == HOLD:
                if not self.throws:
                    raise IllegalAction("no action's throws to hold now")
                self.answer(Throw(back=True))
            elif text == "back" and self.throws:
                self._given_up()
            else:
                self.answer(throw_from_notation(text))
            return
        if ask is None:
            raise IllegalAction("the fight was closed")
        keys = [o.choice for o in ask.options]
        if text not in keys:
            raise IllegalAction(f"{text!r} is not among the choices ({', '.join(keys)})")
        self.answer(keys.index(text))

    def _given_up(self) -> None:
        """A save's ``back`` at an action's later die (:meth:`restore`): the action given up
        with its throws, as one press did before :data:`HELD` was asked (what Give up does;
        the journal keeps ``back``)."""
        self.undone, self.held = "", False
        self.path, self.throws, self.note = [], [], ""
        self._journal.append(BACK.choice)

    def progress(self) -> int:
        return len(self._events)

    def history(self) -> Sequence[Any]:
        return tuple(self._events)

    def log_lines(self, events: Sequence[object]) -> list[str]:
        lines = []
        for event in events:
            if isinstance(event, Undone):
                lines.append(json.dumps({"undone": event.entry.to_json()}, ensure_ascii=False))
            elif hasattr(event, "to_json"):
                lines.append(json.dumps({"fight": event.to_json()}, ensure_ascii=False))
        return lines

    def advance(self, source: DiceSource,
                simulated: Callable[[int], bool] = lambda sides: True) -> None:
        """Move a seeded source past the throws the journal made that it made (a resumed
        fight goes on with the dice an uninterrupted one would have had)."""
        for count, sides in self.thrown:
            if simulated(sides):
                source.roll(count, sides)


def option_value(picked: str, prefix: str) -> str:
    """``t:Cult`` with prefix ``t`` → ``Cult``; any other option is not a choice now."""
    head, sep, value = picked.partition(":")
    if head != prefix or not sep:
        raise IllegalAction(f"there is no choice {picked!r} now")
    return value


def option_index(picked: str, prefix: str) -> int:
    value = option_value(picked, prefix)
    if not value.isdigit():
        raise IllegalAction(f"there is no choice {picked!r} now")
    return int(value)
