"""The Attack menu: whom, with which weapon, how (MA, a burst, shots, aim, a called shot,
Iai, its pommel strike or an ally's blade, a disarm, a body part), the circumstances, then
the target's defence; whether any attack is open, and the allies' blades an Iai may draw.

Rules: CO-IAI-1, CO-IAI-2, CO-DODGE-5, CO-FIRE-7 (a first strike), CO-MA-5 (a counter),
CO-DISARM-1 (a weapon in the hands to knock away, never bare hands).
"""

from __future__ import annotations

from companion.app.modes.coc.circumstances import _Circumstances
from companion.app.modes.coc.words import (
    BODY,
    BORROW,
    BORROW_EITHER,
    BORROW_OWN,
    ENTRY_WAYS,
    HOW,
    PARTS,
    describe,
)
from companion.app.modes.fight import option_index, option_value
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.errors import IllegalAction
from companion.hw.display.view import Option
from companion.systems.coc.combat import Action, Attack, Combatant, Defence
from companion.systems.coc.rules import Profile, WeaponKind


class _Attacks(_Circumstances):
    """Adds the Attack menu."""

    def _may_attack(self, actor: Combatant, target: str, index: int | None = None,
                    first: bool = False) -> bool:
        """Would the engine take some attack by ``actor`` on ``target`` (with weapon ``index``,
        or any of its own or an ally's blade): a plain one, or one that only an Iai (after three
        squares of movement at 0 AP, CO-IAI-2) or an attack after dodging (CO-DODGE-5) allows."""
        base: dict[str, object] = {"first_strike": True} if first else {}
        weapons = range(len(actor.sheet.weapons)) if index is None else (index,)
        ways = ENTRY_WAYS if not first else ENTRY_WAYS[:1]
        if any(self.legal(Attack(actor.name, target, i, **base, **way))  # type: ignore[arg-type]
               for i in weapons for way in ways):
            return True
        return index is None and not first and bool(self._blades(actor, target))

    def _blades(self, actor: Combatant, target: str) -> list[tuple[str, int]]:
        """CO-IAI-1: the allies' blades ``actor`` may draw with Iai to strike ``target``."""
        return [(ally.name, j) for ally in self.fight.state.combatants
                if ally.side is actor.side and ally.name != actor.name and not ally.dead
                for j in range(len(ally.sheet.weapons))
                if self.legal(Attack(actor.name, target, j, iai=True, borrow=ally.name))]

    def _borrow_label(self, actor: Combatant, blades: list[tuple[str, int]]) -> str:
        """The How? menu's label of ``h:borrow`` (CO-IAI-1): "Draw back your blade" when
        every blade offered is ``actor``'s own that an ally drew from it (engine revision 20's
        ``lent_from``), "…or draw back your own" when some are; else an ally's blade
        (grapple73's known item: the label called one's own sword an ally's)."""
        state = self.fight.state
        own = [state.get(ally).sheet.weapons[j].lent_from == actor.name for ally, j in blades]
        if own and all(own):
            return BORROW_OWN
        return BORROW_EITHER if any(own) else BORROW

    def _attack(self, actor: Combatant, rest: list[str],
                first: bool = False) -> ChoiceAsk | Action:
        """Whom; with which weapon; how (MA and 004's forced hit or follow-up, burst, shots,
        aim, a called shot, Iai, its pommel strike or an ally's blade, a disarm with the
        weapon it knocks away, a body part with how and which); then the target's declared
        defence (CO-DODGE, CO-PARRY, CO-MA-5), whose menu also opens *More 状況*: the
        circumstances (distance, point blank, from behind, dark, surprise, the Keeper's
        picks; :meth:`_circumstances`). ``first``: a first strike (CO-FIRE-7)."""
        name, weapons = actor.name, range(len(actor.sheet.weapons))
        base: dict[str, object] = {"first_strike": True} if first else {}

        def legal(target: str, index: int, **fields: object) -> bool:
            return self.legal(Attack(name, target, index, **base, **fields))  # type: ignore[arg-type]

        if not rest:
            return self._pick("Attack whom? 攻撃対象は？", [
                t for t in self._others(actor) if self._may_attack(actor, t.name, first=first)])
        target, rest = option_value(rest[0], "t"), rest[1:]
        usable = [i for i in weapons if self._may_attack(actor, target, i, first)]
        if len(usable) > 1:
            if not rest:
                return ChoiceAsk("With which weapon? 武器は？", (
                    *(Option(f"w:{i}", self._weapon_label(actor, i)) for i in usable), BACK))
            index, rest = option_index(rest[0], "w"), rest[1:]
        else:
            index = usable[0] if usable else 0
        firearm = actor.sheet.weapons[index].info.kind is WeaponKind.FIREARM if usable else False
        shots = firearm and self.rules.profile is Profile.P004  # 003 shoots once an AP
        # CO-DISARM-1: each of the target's weapons a disarm may aim at, as the engine says
        # (``legal`` below): from revision 18 never bare hands nor one already dropped or
        # broken, so with none left Disarm is not offered; a fight begun under 17 (a table
        # save plays on by its revision) is offered what 17 took, and its save replays
        # (reviewc70 DEFECT 1: a filter of its own here, not gated, broke them)
        held = range(len(self.fight.state.get(target).sheet.weapons))
        bodies = [(b, part) for b in BODY for part in PARTS
                  if legal(target, index, body=b, part=part)]
        blades = [] if first else self._blades(actor, target)
        hows = [(key, label, fields) for key, label, fields in HOW
                if (shots or "shots" not in fields) and not (first and "iai" in fields) and (
                    any(legal(target, index, disarm=True, disarm_weapon=j) for j in held)
                    if key == "disarm" else bool(bodies) if key == "body"
                    else bool(blades) if key == "borrow"
                    # CO-DODGE-5: offered only where a plain attack is not taken (with
                    # attack_needs_keeper false it is, at the same −50: one entry, review61e R4)
                    else legal(target, index, **fields) and not legal(target, index)
                    if key == "after_dodge"
                    else legal(target, index, **fields))]
        fields: dict[str, object] = dict(base)
        how = "plain"
        if len(hows) > 1:
            if not rest:
                return ChoiceAsk("How? 攻撃方法は？", (
                    *(Option(f"h:{key}", self._borrow_label(actor, blades)
                             if key == "borrow" else label) for key, label, _ in hows), BACK))
            how, rest = option_value(rest[0], "h"), rest[1:]
            if how not in {key for key, _, _ in hows}:
                raise IllegalAction(f"there is no choice h:{how} now")
            fields.update(next(f for k, _, f in hows if k == how))
        elif hows and hows[0][0] != "plain":  # the one way the engine takes (an Iai, say)
            how = hows[0][0]
            fields.update(hows[0][2])
        info = actor.sheet.weapons[index].info if usable else None
        if how == "borrow":
            if len(blades) > 1:
                if not rest:
                    return ChoiceAsk("Whose blade? 誰の刀を抜く？", (
                        *(Option(f"a:{ally}:{j}", f"{ally}: "
                                 + self._weapon_label(self.fight.state.get(ally), j))
                          for ally, j in blades), BACK))
                ally, _, j = option_value(rest[0], "a").rpartition(":")
                if (ally, int(j) if j.isdigit() else -1) not in blades:
                    raise IllegalAction(f"there is no choice {rest[0]!r} now")
                rest = rest[1:]
            else:
                ally, j = blades[0][0], str(blades[0][1])
            index = int(j)
            fields["borrow"] = ally
            info = self.fight.state.get(ally).sheet.weapons[index].info
        if how == "disarm":
            aimed = [j for j in held if legal(target, index, disarm=True, disarm_weapon=j)]
            if len(aimed) > 1:
                if not rest:
                    return ChoiceAsk(f"Knock which weapon from {target}? 落とさせる武器は？", (
                        *(Option(f"x:{j}", self._weapon_label(self.fight.state.get(target), j))
                          for j in aimed), BACK))
                fields["disarm_weapon"], rest = option_index(rest[0], "x"), rest[1:]
            else:
                fields["disarm_weapon"] = aimed[0] if aimed else 0
        if how == "body":
            if not rest:
                return ChoiceAsk("Lose it how? 部位破壊の方法は？", (
                    *(Option(f"b:{b}", BODY[b]) for b in BODY if any(x == b for x, _ in bodies)),
                    BACK))
            body, rest = option_value(rest[0], "b"), rest[1:]
            if not rest:
                return ChoiceAsk(f"{BODY.get(body, body)}: which part? 部位は？", (
                    *(Option(f"p:{part}", PARTS[part]) for b, part in bodies if b == body),
                    BACK))
            fields.update(body=body, part=option_value(rest[0], "p"))
            rest = rest[1:]
        kind = info.kind if info is not None else WeaponKind.UNARMED
        picked: list[str] = []
        while rest and rest[0] == "m:more":
            more = self._circumstances(actor, target, index, info, fields)
            more = [m for m in more if m[0] not in picked]
            if len(rest) < 2:
                return ChoiceAsk("What else? 状況は？", (
                    *(Option(f"m:{key}", label) for key, label, _ in more), BACK))
            key = option_value(rest[1], "m")
            found = [values for k, _, values in more if k == key]
            if not found:
                raise IllegalAction(f"there is no choice {rest[1]!r} now")
            values, rest = found[0], rest[2:]
            if values[0][0] != "on":  # a pick, asked even when there is only one
                if not rest:
                    label = next(lb for k, lb, _ in more if k == key)
                    return ChoiceAsk(f"{label}: which? どれ？", (
                        *(Option(f"v:{v}", text) for v, text, _ in values), BACK))
                value = option_value(rest[0], "v")
                chosen = [f for v, _, f in values if v == value]
                if not chosen:
                    raise IllegalAction(f"there is no choice {rest[0]!r} now")
                fields.update(chosen[0])
                rest = rest[1:]
            else:
                fields.update(values[0][2])
            picked.append(key)
        if not rest:
            said = describe(Attack(name, target, index, **fields),  # type: ignore[arg-type]
                            self.fight.state)
            tags = said[said.find(" [") + 1:] if " [" in said else ""
            more_open = bool([m for m in self._circumstances(actor, target, index, info, fields)
                              if m[0] not in picked])
            return ChoiceAsk(f"How does {target} defend? {target}の防御は？"
                             + (f" {tags}" if tags else ""),
                             self._defences(target, kind, more_open, made=lambda picked:
                                            self._defended(name, target, index, fields, picked)))
        return self._defended(name, target, index, fields, rest[0])

    def _defended(self, name: str, target: str, index: int, fields: dict[str, object],
                  picked: str) -> Attack:
        """The attack with the defence ``picked`` from the defence menu (``d:parry:1``)."""
        defence, extra = self._defence(picked)
        if defence is Defence.COUNTER:  # CO-MA-5: with the target's first technique
            techniques = [i for i, w in enumerate(self.fight.state.get(target).sheet.weapons)
                          if w.info.technique]
            # ... that the engine takes: an armless fighter counters with a kick or head
            # butt, not its fist (reviewcoc72 DEFECT 1, the Default "CO-BODY-5 (hands)").
            # The first was always taken where it was legal, so older saves read the same.
            usable = [i for i in techniques if self.legal(Attack(
                name, target, index, defence=defence, parry_weapon=i, **fields))]  # type: ignore[arg-type]
            extra["parry_weapon"] = (usable or techniques or [0])[0]
        return Attack(name, target, index, defence=defence,
                      **extra, **fields)  # type: ignore[arg-type]
