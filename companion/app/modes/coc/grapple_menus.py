"""The close-quarters menus: grapple (whom, with MA, the defence), tackle (what it does; it
can only be dodged), each from behind off 003's board (*More 状況*), and throwing the one
held (toward a compass point on 003's board, at somebody, from a height in 004).

Rules: CO-GRAP-1, CO-GRAP-4, CO-GRAP-6, CO-GRAP-8, CO-MA-2, CO-TACKLE-1/2/3, CO-DODGE-3,
CO-BASE-11, CO-TURN-2.
"""

from __future__ import annotations

from dataclasses import replace

from companion.app.modes.coc.attack_menus import _Attacks
from companion.app.modes.coc.words import FALL_METRES, FROM_BEHIND, TACKLES
from companion.app.modes.fight import option_value
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.errors import IllegalAction
from companion.hw.buttons import Button
from companion.hw.display.view import Option
from companion.systems.coc import board
from companion.systems.coc.combat import Action, Combatant, Defence, Grapple, Tackle
from companion.systems.coc.combat import Throw as ThrowDown
from companion.systems.coc.rules import Profile, WeaponKind


class _Grapples(_Attacks):
    """Adds the grapple, tackle and throw menus."""

    def _grapple(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """CO-GRAP-1 / CO-GRAP-6: whom, with MA (CO-MA-2) if that is open, the defence; the
        defence menu opens *More 状況…*: off 003's board from behind (CO-DODGE-3), when the
        engine takes it, and the defences are then those it takes from behind."""
        name, dodged = actor.name, self._dodged(actor)
        if not rest:
            return self._pick("Grapple whom? 組み付く相手は？", [
                t for t in self._others(actor)
                if self.legal(Grapple(name, t.name, after_dodge=dodged))])
        target = option_value(rest[0], "t")
        ma = self.legal(Grapple(name, target, ma=True, after_dodge=dodged))
        if ma and len(rest) < 2:
            return ChoiceAsk("How? 方法は？", (Option("h:plain", "Plain 通常"),
                                               Option("h:ma", "Martial arts マーシャルアーツ"),
                                               BACK))
        with_ma = ma and option_value(rest[1], "h") == "ma"
        rest = rest[2:] if ma else rest[1:]
        plain = Grapple(name, target, ma=with_ma, after_dodge=dodged)
        behind, rest = self._from_behind(actor, plain, rest)
        if isinstance(behind, ChoiceAsk):
            return behind

        def made(picked: str) -> Grapple:
            # CO-GRAP-5 (004 l.24): a weapon, or from revision 19 bare hands, MA, Budo,
            # Grapple or 003's Iai with its blade (l.97), as the engine takes them
            # (:meth:`_defences` offers no other)
            defence, extra = self._defence(picked)
            iai = extra.get("parry_with") == "iai" and set(extra) == {"parry_with",
                                                                      "parry_weapon"}
            if set(extra) not in ({"parry_weapon"}, {"parry_with"}) and not iai:
                raise IllegalAction(f"there is no choice {picked!r} now")
            return Grapple(name, target, defence, int(str(extra.get("parry_weapon", 0))),
                           with_ma, after_dodge=dodged, from_behind=behind,
                           parry_with=str(extra.get("parry_with", "")))

        if not rest:
            return self._close_defences(actor, replace(plain, from_behind=behind),
                                        self._defences(target, WeaponKind.UNARMED,
                                                       attack=False, bare=True, made=made))
        return made(rest[0])

    def _close_defences(self, actor: Combatant, action: Grapple | Tackle,
                        defences: tuple[Option, ...]) -> ChoiceAsk:
        """The defence menu of a grapple or tackle: its prompt says from behind once picked,
        as an attack's does; *More 状況…* while from behind is still open (CO-DODGE-3)."""
        tags = f"[{FROM_BEHIND}]" if action.from_behind else ""
        more = (Option("m:more", "More 状況… (from behind 背後から)"),) \
            if self._behind_open(actor, action) else ()
        return ChoiceAsk(f"How does {action.target} defend? {action.target}の防御は？"
                         + (f" {tags}" if tags else ""), (*defences[:-1], *more, defences[-1]))

    def _tackle(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """CO-TACKLE-1/2/3: whom; damage, blow back (into a wall) or knock down; a tackle
        can only be dodged. Its defence menu opens *More 状況…*: off 003's board from behind
        (CO-DODGE-3: no dodge without dodge concentration; CO-GRAP-4: no human shield), when
        the engine takes it."""
        name, dodged = actor.name, self._dodged(actor)
        if not rest:
            return self._pick("Tackle whom? タックルする相手は？", [
                t for t in self._others(actor)
                if any(self.legal(Tackle(name, t.name, o, after_dodge=dodged))
                       for _, _, o, _ in TACKLES)])
        target = option_value(rest[0], "t")
        if len(rest) < 2:
            return ChoiceAsk("Tackle to do what? タックルの効果は？", (
                *(Option(f"o:{key}", label) for key, label, option, obstacle in TACKLES
                  if self.legal(Tackle(name, target, option, obstacle, after_dodge=dodged))),
                BACK))
        picked = option_value(rest[1], "o")
        found = [(o, ob) for key, _, o, ob in TACKLES if key == picked]
        if not found:
            raise IllegalAction(f"there is no choice {rest[1]!r} now")
        option, obstacle = found[0]
        plain = Tackle(name, target, option, obstacle, after_dodge=dodged)
        behind, rest = self._from_behind(actor, plain, rest[2:])
        if isinstance(behind, ChoiceAsk):
            return behind
        plain = replace(plain, from_behind=behind)
        if not rest:
            dodge = self.legal(replace(plain, defence=Defence.DODGE))
            return self._close_defences(actor, plain, (
                Option("d:none", "None なし", Button.ATTACK),
                *([Option("d:dodge", "Dodge 回避")] if dodge else []), BACK))
        defence, _ = self._defence(rest[0])
        return replace(plain, defence=defence)

    def _throw(self, actor: Combatant, rest: list[str], skill: str) -> ChoiceAsk | Action:
        """CO-MA-2 (003) / CO-GRAP-8 (004): throw the one held, plainly or, when the engine
        takes it: on 003's board toward a compass point (whoever stands where it lands is
        landed on); off it at somebody (in 003 that one may dodge); in 004 from a height
        (CO-BASE-11's fall replaces the damage), rolling ``skill`` (Grapple, or Budo,
        CO-GRAP-6); with CO-GRAP-8's reading b, one who holds nobody throws an enemy nobody
        holds. Asked only when there is a choice."""
        name = actor.name
        ways: list[tuple[str, str, dict[str, object]]] = [("plain", "Plain 通常", {})]
        held = actor.grappling
        others = [c.name for c in self._others(actor) if c.name != held]
        p003 = self.rules.profile is Profile.P003
        on_board = self.rules.on("CO-TURN-2") and bool(
            actor.square and held and self.fight.state.get(held).square)
        if on_board:
            ways += [(f"to:{f}", f"Toward {f} {f}へ", {"toward": f}) for f in board.FACINGS]
        for o in others:
            if on_board and p003:  # whoever stands where it lands is landed on
                ways += [(f"to:{f}:{o}", f"Toward {f} onto {o}, who dodges {o}は回避",
                          {"toward": f, "at": o, "at_dodges": True}) for f in board.FACINGS]
            elif not on_board:
                label = f"At {o} {o}へ投げつける" if held else f"{o} {o}を投げる"
                ways.append((f"at:{o}", label, {"at": o}))
                if p003:
                    ways.append((f"dodge:{o}", f"At {o}, who dodges {o}へ(回避あり)",
                                 {"at": o, "at_dodges": True}))
        if not p003:
            ways += [(f"m:{m}", f"From {m} m {m}mの高さから", {"height_m": m})
                     for m in FALL_METRES if m >= 3]  # CO-BASE-11: under 3 m is 1D6 too
        ways = [w for w in ways if self.legal(ThrowDown(name, skill=skill, **w[2]))]  # type: ignore[arg-type]
        if not rest:
            if len(ways) == 1:
                return ThrowDown(name, skill=skill, **ways[0][2])  # type: ignore[arg-type]
            prompt = f"Throw {held} how? 投げ方は？" if held else "Throw whom? 誰を投げる？"
            return ChoiceAsk(prompt, (
                *(Option(f"how:{key}", label, Button.ATTACK if key == "plain" else None)
                  for key, label, _ in ways), BACK))
        found = [f for key, _, f in ways if key == option_value(rest[0], "how")]
        if not found:
            raise IllegalAction(f"there is no choice {rest[0]!r} now")
        return ThrowDown(name, skill=skill, **found[0])  # type: ignore[arg-type]
