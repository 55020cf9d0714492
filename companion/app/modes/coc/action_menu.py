"""The mode's top layer, :class:`CocFightMode`: the action menu of whoever's turn it is
(each action offered only if the engine, tried up to its first die, takes it) and the path
of choices into every other menu, with the small actions' own steps: Spot Hidden, jumping
over, turning, picking a weapon up, reloading, clearing a jam, choke, breaking free, letting
go (the Default "CO-GRAP-1 (let go)"), delay, sheathing, ending the turn (which asks first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.app.modes.coc.keeper_menu import _KeeperMenu
from companion.app.modes.coc.words import CASTS, SPELL, TACKLES, TITLE, choke_ja
from companion.app.modes.fight import option_index, option_value
from companion.app.modes.questions import ASK_UNDO, sure
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.errors import IllegalAction
from companion.hw.buttons import Button
from companion.hw.display.view import Option
from companion.systems.coc import board
from companion.systems.coc.combat import (
    Action,
    BreakFree,
    Cast,
    Choke,
    ClearJam,
    Combatant,
    Delay,
    EndTurn,
    Face,
    Grapple,
    Jump,
    LetGo,
    PickUp,
    Reload,
    Sheathe,
    Spot,
    Tackle,
    Treat,
)
from companion.systems.coc.combat import Throw as ThrowDown
from companion.systems.coc.rules import Profile
from companion.systems.coc.sheet import BUDO_GRAPPLING

#: The action menu's End turn: it asks first (:meth:`CocFightMode._end`), since its button
#: (B, f, Esc) is Back in every other menu, and one press too many after backing out of one
#: ended the turn (buttons-only audit F5; genso's Flee asks likewise).
ASK_END = "end?"


class CocFightMode(_KeeperMenu):
    """Turn by turn: an action, its target, weapon and options, the defence, then its dice;
    over when the Keeper closes the table."""

    TITLE = TITLE

    def _step(self, path: Sequence[str]) -> ChoiceAsk | Action:
        state = self.fight.state
        actor = state.current
        if not path:
            if actor is None:
                return ChoiceAsk(f"The fight is over 戦闘終了: {self._outcome()}", (
                    Option("close", "Close 閉じる", Button.ATTACK),
                    Option(ASK_UNDO, "Undo 取り消し"), Option("keeper", "Keeper 進行")))
            return self._actions(actor)
        kind, rest = path[0], list(path[1:])
        if kind == "keeper":
            return self._keeper(rest)
        if kind == ASK_UNDO and not rest:  # from the fight-over menu
            return self._sure(ASK_UNDO)
        if actor is None:
            raise IllegalAction(f"there is no choice {'/'.join(path)!r} now")
        if kind == "attack":
            return self._attack(actor, rest)
        if kind == "grapple":
            return self._grapple(actor, rest)
        if kind == "treat":
            return self._treat(actor, rest)
        if kind == "move":
            return self._move(actor, rest)
        if kind == "tackle":
            return self._tackle(actor, rest)
        if kind == "cast":
            return self._cast(actor, rest)
        if kind in ("throw", "throw_budo"):  # 004 rolls Grapple, or Budo (CO-GRAP-6)
            return self._throw(actor, rest, BUDO_GRAPPLING if kind == "throw_budo" else "grapple")
        if kind == ASK_END:
            return self._end(actor, rest)
        if kind == "choke_budo" and not rest:
            return Choke(actor.name, skill=BUDO_GRAPPLING)
        if kind == "spot":
            if not rest:
                return self._pick("Spot Hidden on whom? 目星の相手は？", [
                    t for t in self._others(actor) if self.legal(Spot(actor.name, t.name))])
            return Spot(actor.name, option_value(rest[0], "t"))
        if kind == "jump":
            if not rest:
                return self._pick("Jump over whom? 誰を跳び越える？", [
                    t for t in self._others(actor) if self.legal(Jump(actor.name, t.name))])
            return Jump(actor.name, option_value(rest[0], "t"))
        if kind == "face":
            if not rest:
                return ChoiceAsk("Face which way? 向きは？", (
                    *(Option(f"face:{f}", f) for f in board.FACINGS
                      if f != actor.facing and self.legal(Face(actor.name, f))), BACK))
            return Face(actor.name, option_value(rest[0], "face"))
        if kind == "pickup":
            dropped = [i for i in range(len(actor.sheet.weapons))
                       if self.legal(PickUp(actor.name, i))]
            if len(dropped) > 1 and not rest:
                return ChoiceAsk("Pick up which weapon? 拾う武器は？", (
                    *(Option(f"w:{i}", actor.sheet.weapons[i].info.name) for i in dropped),
                    BACK))
            return PickUp(actor.name, option_index(rest[0], "w") if rest else
                          (dropped[0] if dropped else 0))
        if kind in ("reload", "jam"):
            made = Reload if kind == "reload" else ClearJam
            weapons = [i for i in range(len(actor.sheet.weapons))
                       if self.legal(made(actor.name, i))]
            if len(weapons) > 1 and not rest:
                return ChoiceAsk("Which weapon? 武器は？", (
                    *(Option(f"w:{i}", actor.sheet.weapons[i].info.name) for i in weapons),
                    BACK))
            return made(actor.name, option_index(rest[0], "w") if rest else
                        (weapons[0] if weapons else 0))
        simple: dict[str, Callable[[str], Action]] = {
            "choke": Choke, "break": BreakFree, "delay": Delay,
            "sheathe": Sheathe, "let_go": LetGo}
        if kind in simple and not rest:
            return simple[kind](actor.name)
        raise IllegalAction(f"there is no choice {'/'.join(path)!r} now")

    def _actions(self, actor: Combatant) -> ChoiceAsk:
        """What the engine would take from whoever's turn it is, tried up to the first die."""
        name = actor.name
        others = self._others(actor)
        options: list[Option] = []
        if any(self._may_attack(actor, t.name) for t in others):
            options.append(Option("attack", "Attack 攻撃", Button.ATTACK))
        dodged = self._dodged(actor)
        if any(self.legal(Grapple(name, t.name, after_dodge=dodged)) for t in others):
            options.append(Option("grapple", "Grapple 組み付き"))
        if any(self.legal(Tackle(name, t.name, option, after_dodge=dodged)) for t in others
               for _, _, option, _ in TACKLES):
            options.append(Option("tackle", "Tackle タックル"))
        if any(self.legal(Cast(name, SPELL, 0, verbal, auto)) for _, _, verbal, auto in CASTS):
            options.append(Option("cast", "Cast a spell 呪文"))
        choke = choke_ja(self.rules.profile)  # 003's 締め上げ, 004's 締め付け, as the engine says
        # "Budo choke", not "Choke by Budo": in a grid of six a row (eleven options) the
        # latter read "[4] Choke by B…" at 800x480 and 640x384 (r77data NIT on 1e5124b4).
        for key, label, action in (("choke", f"Choke {choke}", Choke(name)),
                                   ("choke_budo", f"Budo choke 武道で{choke}",
                                    Choke(name, skill=BUDO_GRAPPLING))):
            if self.legal(action):
                options.append(Option(key, label))
        # CO-GRAP-8's reading b throws an enemy nobody holds: only a throw ``at`` one is
        # legal then, so each is tried, not only the throw of the held one.
        ats = ("", *(t.name for t in others))
        for key, label, skill in (("throw", "Throw 投げ", "grapple"),
                                  ("throw_budo", "Budo throw 武道で投げ", BUDO_GRAPPLING)):
            if any(self.legal(ThrowDown(name, at=at, skill=skill)) for at in ats):
                options.append(Option(key, label))
        if self.legal(BreakFree(name)):
            options.append(Option("break", "Break free 振りほどく"))
        if self.legal(LetGo(name)):  # the Default "CO-GRAP-1 (let go)", revision 21 on
            options.append(Option("let_go", "Let go 手を放す"))
        weapons = range(len(actor.sheet.weapons))
        if any(self.legal(Reload(name, i)) for i in weapons):
            options.append(Option("reload", "Reload 装填", Button.RANGED))
        if any(self.legal(ClearJam(name, i)) for i in weapons):
            options.append(Option("jam", "Clear jam 弾詰まり解除"))
        if any(self.legal(PickUp(name, i)) for i in weapons):
            options.append(Option("pickup", "Pick up 武器を拾う"))
        if self.legal(Sheathe(name)):
            options.append(Option("sheathe", "Sheathe 納刀"))
        if any(self.legal(Spot(name, t.name)) for t in others):
            options.append(Option("spot", "Spot Hidden 目星"))
        if any(self.legal(Treat(name, t.name, s)) for t in self.fight.state.combatants
               for s in ("first_aid", "medicine")):
            options.append(Option("treat", "Treat 治療"))  # ITEM moves the highlight
        if self._moves(actor):
            options.append(Option("move", "Move 移動"))
        if any(self.legal(Jump(name, t.name)) for t in others):
            options.append(Option("jump", "Jump over 跳び越え"))
        if any(self.legal(Face(name, f)) for f in board.FACINGS if f != actor.facing):
            options.append(Option("face", "Turn 向きを変える"))
        if self.legal(Delay(name)):
            options.append(Option("delay", "Delay DEX/2 遅延"))
        options += [Option(ASK_END, "End turn 手番終了", Button.FLEE),
                    Option("keeper", "Keeper 進行")]
        return ChoiceAsk(f"{name}{self._ap(actor)}: what now? 行動は？", tuple(options))

    def _ap(self, actor: Combatant) -> str:
        """`` (2 AP)``: the action points left, in profile 003 (CO-TURN-3); else ""."""
        return f" ({actor.ap} AP)" if self.rules.profile is Profile.P003 else ""

    def _end(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """Ending the turn gives up what it has left (003: its AP, CO-TURN-3), so it is asked
        for again, as Undo is: Back lit (B, the button that chose it, and A alike return to
        the action menu), guarded against a repeat of the press that opened it, *End turn
        手番終了* the second choice. One press of back never ends a turn, nor does a double A
        on a highlighted End turn (keys75 D1: End turn was lit and keyed A, and the second A
        ended the turn)."""
        if not rest:
            return sure(f"{actor.name}{self._ap(actor)}: end the turn? 手番を終える？", "end",
                        "End turn 手番終了")
        if rest != ["end"]:
            raise IllegalAction(f"there is no choice {'/'.join([ASK_END, *rest])!r} now")
        return EndTurn(actor.name)

    def restore(self, text: str) -> None:
        """As the Keeper's menu's; a journal written before ending a turn was confirmed has
        ``end`` at the action menu, the end itself: it is replayed as the question and its
        yes."""
        if text == "end" and not self.path and self.fight.state.current is not None:
            super().restore(ASK_END)
        super().restore(text)
