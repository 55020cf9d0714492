"""The Keeper's menu and steps: undo and closing the table (each asked first), placing on
003's board, a SAN loss, dodge concentration or a first strike before the round's first action,
fire, a fall. The amount of a SAN loss, of fire damage and a fall's height is one of the
common ones or any other typed on a keypad (:mod:`.amounts`).

Rules: CO-TURN-2, CO-BASE-13, CO-DODGE-1/8, CO-FIRE-7, CO-BURN-1, CO-BASE-11.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.app.modes.coc.amounts import Amount, amount
from companion.app.modes.coc.cast_menu import _Cast
from companion.app.modes.coc.words import BURN_DAMAGE, FALL_METRES, MOST_TYPED, SAN_AMOUNTS
from companion.app.modes.fight import option_value
from companion.app.modes.questions import ASK_UNDO, sure, undo_question
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.errors import IllegalAction
from companion.hw.display.view import Option
from companion.systems.coc import board
from companion.systems.coc.combat import (
    Action,
    Attack,
    Burn,
    Combatant,
    Concentrate,
    Fall,
    Place,
    SanLoss,
)

#: The Keeper's Close table asks first, as Undo does (:mod:`..questions`): it closed a
#: running fight at one press, which the table then could not carry on.
ASK_CLOSE = "close?"


class _KeeperMenu(_Cast):
    """Adds the Keeper's menu and its steps taken once confirmed (undo, close)."""

    def _direct(self, choice: str) -> list[object] | None:
        # The fight-over menu's own Close (path []) is the fight's end and asks nothing.
        if choice == "close" and self.path in ([], ["keeper", ASK_CLOSE]):
            self.done = True
            return []
        if choice == "undo" and self.path[-1:] == [ASK_UNDO]:
            events = self.undo()
            self.path = []
            return events
        return None

    def _sure(self, asked: str) -> ChoiceAsk:
        """Undo or Close table, asked again."""
        if asked == ASK_UNDO:
            journal = self.fight.journal
            return undo_question(self.describe(journal[-1].action) if journal else None)
        over = "" if self.fight.state.current is None else (
            " The fight is not over: the table cannot carry it on after 戦闘は続けられなくなる")
        return sure(f"Close the table? 閉じる？{over}", "close", "Yes, close はい、閉じる")

    def restore(self, text: str) -> None:
        """As every fight's; a journal written before Undo and the Keeper's Close asked first
        has ``undo`` or ``close`` where the question now comes: replayed as it and its yes."""
        old = {"undo": ASK_UNDO, "close": ASK_CLOSE}.get(text)
        if old is not None and (self.path == ["keeper"] or (
                text == "undo" and not self.path and self.fight.state.current is None)):
            super().restore(old)
        super().restore(text)

    def _keeper(self, rest: list[str]) -> ChoiceAsk | Action:
        """The Keeper: undo, close the table, place on 003's board (CO-TURN-2), a SAN loss
        (CO-BASE-13), dodge concentration before the round's first action (CO-DODGE-1/8), a
        first strike before it (CO-FIRE-7), fire (CO-BURN-1) and a fall (CO-BASE-11)."""
        state = self.fight.state
        people = [c for c in state.combatants if not c.dead]
        if not rest:
            options = [Option(ASK_UNDO, "Undo 取り消し"), Option(ASK_CLOSE, "Close table 閉じる")]
            if state.current is not None:
                if self.rules.on("CO-TURN-2"):
                    options.append(Option("place", "Place on board 配置"))
                # reviewcoc67 NIT 4: not with CO-BASE-13 off, as fire and falls are asked
                if people and self.legal(SanLoss(people[0].name, 0)):
                    options.append(Option("san", "SAN loss 正気度喪失"))
                if any(self.legal(Concentrate(c.name)) for c in people):
                    options.append(Option("conc", "Dodge focus 回避専念"))
                if self._first_strikers(people):
                    options.append(Option("first", "First strike 先制射撃"))
                if any(self.legal(Burn(c.name, 0)) for c in people):
                    options.append(Option("burn", "Fire damage 火傷"))
                if any(self.legal(Fall(c.name, 3)) for c in people):
                    options.append(Option("fall", "Fall 落下"))
            return ChoiceAsk("Keeper: which step? 進行", (*options, BACK))
        step, rest = rest[0], rest[1:]
        if step in (ASK_UNDO, ASK_CLOSE):
            if rest:
                raise IllegalAction(f"there is no choice {'/'.join([step, *rest])!r} now")
            return self._sure(step)
        if step == "conc":
            if not rest:
                return self._pick("Who concentrates on dodging? 回避に専念するのは？",
                                  [c for c in people if self.legal(Concentrate(c.name))])
            return Concentrate(option_value(rest[0], "t"))
        if step == "first":
            if not rest:
                return self._pick("Who shoots first? 先制射撃するのは？",
                                  self._first_strikers(people))
            return self._attack(state.get(option_value(rest[0], "t")), rest[1:], first=True)
        if step in ("burn", "fall") and not rest:
            made: Callable[[str], Action] = ((lambda n: Burn(n, 0)) if step == "burn"
                                             else (lambda n: Fall(n, 3)))
            return self._pick("Who is burned? 火傷を負うのは？" if step == "burn"
                              else "Who falls? 落下するのは？",
                              [c for c in people if self.legal(made(c.name))])
        if step == "burn":
            who = option_value(rest[0], "t")
            damage = amount(Amount(f"{who}: how much fire damage? 火のダメージは？", BURN_DAMAGE,
                                   1, MOST_TYPED, f"fire damage is 1–{MOST_TYPED} 火のダメージ "
                                   f"(CO-BURN-1)"), rest[1:])
            if isinstance(damage, ChoiceAsk):
                return damage
            hurt, rest = damage
            incident = "fire"
            fires = [name for name, _ in state.get(who).burns]
            if fires:  # CO-BURN-1 totals the damage per incident: the same fire or a new one
                new = f"fire {len(fires) + 1}"
                if not rest:
                    return ChoiceAsk(f"{who}: the same fire? 同じ火か？", (
                        *(Option(f"i:{f}", f"Same fire 同じ火: {f} ({total})")
                          for f, total in state.get(who).burns),
                        Option(f"i:{new}", f"A new fire 新しい火: {new}"), BACK))
                incident = option_value(rest[0], "i")
                if incident not in (*fires, new):
                    raise IllegalAction(f"there is no choice {rest[0]!r} now")
                rest = rest[1:]
            if not rest:
                return ChoiceAsk(f"{who}: if it scars, lose APP or CON? 失うのは？", (
                    Option("l:APP", "APP 外見"), Option("l:CON", "CON 体力"), BACK))
            return Burn(who, hurt, incident, lose=option_value(rest[0], "l"))
        if step == "fall":
            who = option_value(rest[0], "t")
            metres = amount(Amount(f"{who} falls how far? 落下の高さは？", FALL_METRES, 1,
                                   MOST_TYPED, f"a fall is 1–{MOST_TYPED} m 落下の高さ "
                                   f"(CO-BASE-11)", " m", "m"), rest[1:])
            return metres if isinstance(metres, ChoiceAsk) else Fall(who, metres[0])
        if not rest:
            prompt = "Whom? 誰を？" if step == "place" else "Who loses SAN? 正気度を失うのは？"
            return self._pick(prompt, people)
        who = option_value(rest[0], "t")
        if step == "san":
            most = max(MOST_TYPED, state.get(who).san)  # a loss past SAN leaves 0
            loss = amount(Amount(f"{who} loses how much SAN? 喪失量は？", SAN_AMOUNTS, 1, most,
                                 f"a SAN loss is 1–{most} 喪失量 (CO-BASE-13)"), rest[1:])
            return loss if isinstance(loss, ChoiceAsk) else SanLoss(who, loss[0])
        if step != "place":
            raise IllegalAction(f"there is no choice {step!r} now")
        if len(rest) < 2:
            return ChoiceAsk(f"{who}: which file? 列は？ (a–h)",
                             (*(Option(f"f:{f}", f) for f in "abcdefgh"), BACK))
        if len(rest) < 3:
            return ChoiceAsk(f"{who}: which rank? 行は？ (1–8)",
                             (*(Option(f"r:{r}", str(r)) for r in range(1, 9)), BACK))
        square = option_value(rest[1], "f") + option_value(rest[2], "r")
        if len(rest) < 4:
            return ChoiceAsk(f"{who} on {square}: facing? 向きは？",
                             (*(Option(f"face:{f}", f) for f in board.FACINGS), BACK))
        return Place(who, square, option_value(rest[3], "face"))

    def _first_strikers(self, people: Sequence[Combatant]) -> list[Combatant]:
        """Who may shoot before the round's first action (CO-FIRE-7)."""
        if not self.rules.on("CO-FIRE-7"):
            return []
        return [c for c in people if any(
            self.legal(Attack(c.name, t.name, i, first_strike=True))
            for t in self._others(c) for i in range(len(c.sheet.weapons)))]
