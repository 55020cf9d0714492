"""System `events`: poison: the poison a character carries and the poison table (spec §1).

The poison a character carries is :class:`~companion.systems.events.poisoned.Poison`.
:class:`_PoisonWalk`, the layer of the walk over
:class:`~companion.systems.events.rooms._RoomWalk`, rolls the poison table (EV-POI-4),
its toxicity, duration and identification (EV-POI-1..3), and the effect it names: a check
penalty (EV-POI-5), a gender swap (EV-POI-6), a love potion (EV-POI-7), vitality damage
(EV-POI-8, with the EV-POI-10 and EV-POI-11 options) or an ability change (EV-POI-9);
the EV-POI-12 option makes effects 2 and 3 (EV-POI-6, EV-POI-7) permanent.
"""

from __future__ import annotations

from companion.dice.roll import roll
from companion.systems.events.poisoned import Poison, afflict, same_name, signed
from companion.systems.events.rooms import _RoomWalk
from companion.systems.events.rules import FULL_WIDTH_DIGITS
from companion.systems.events.sword_world import ABILITY_NAMES, Member


class _PoisonWalk(_RoomWalk):
    """The walk's poison table and its effects (they call only the core)."""

    def poison(self, victim: Member | None = None, defaulted: bool = False) -> None:
        """EV-POI-4 and the effect it names (EV-POI-5..9), with EV-POI-1..3. The walk names
        whom it poisons, ``defaulted`` when no one was named and it took the first member
        (events62 N6)."""
        table = self.rules.tables["poison"]
        result, row = self.table_roll("poison")
        face = result.total
        whom = "" if victim is None else (
            f"{victim.name}{' (first in marching order)' if defaulted else ''}: ")
        self.add("EV-POI-4", f"{whom}{table.title}: {result.text} ＞ {row['ja']}/{row['en']} — "
                 f"{row['name_ja']}/{row['name_en']}, {row['type_ja']}/{row['type_en']}",
                 roll=result, member=victim.name if victim else None)
        toxicity, tox_text = self.fixed("toxicity")
        with self.deeper():
            self.add("EV-POI-1", f"「魔法」の毒/magical poison; 毒性値/toxicity {tox_text}; "
                     f"resist with 生命力/vitality; cured by Cure Poison vs toxicity")
            identified = self.identify()
            hours: int | None = None
            damage_max = 0
            permanent = (row["follow"] in ("EV-POI-6", "EV-POI-7")
                         and self.s["EV-POI-12", "enabled"])
            if row["follow"] == "EV-POI-8":
                damage_max = self.vitality_damage()
            elif permanent:
                self.add("EV-POI-12", "Option on: this effect is permanent")
            else:
                duration = roll(self.book["EV-POI-1"]["duration"], self.source,
                                purpose="duration 効果持続時間 (hours)")
                hours = duration.total
                unit = "hour" if hours == 1 else "hours"  # "＞ 1 hours" (events74 NIT 6)
                self.add("EV-POI-1", f"効果持続時間/duration {duration.text} {unit}",
                         roll=duration, data={"hours": hours})
            ability, change = None, 0
            effects = {"EV-POI-5": self.check_penalty, "EV-POI-6": self.gender_swap,
                       "EV-POI-7": self.love_potion}
            if row["follow"] in effects:
                effects[row["follow"]]()
            elif row["follow"] == "EV-POI-9":
                ability, change = self.ability_change()
            poison = Poison(face, row["follow"], toxicity, hours, damage_max,
                            identified=identified, ability=ability, change=change)
            if victim is not None:  # its later checks in this walk feel it (EV-POI-5)
                old = None
                for same in same_name(self.poisoned, victim.name):  # aki's for Aki
                    old = self.poisoned.pop(same)
                self.poisoned[victim.name] = afflict(old, poison)
            # Unnamed (generic mode without --who, the tray), the walk cannot know whether
            # the victim is poisoned already: the rule is said, not done (events68 NIT 3).
            # One row at 800x480 on the tray's Table panel (reviewe68 DEFECT 1, NIT 3).
            stack = ("Replaces any current poison 毒は上書き (poisons do not stack)" if victim
                     else "Poisons do not stack 毒は重複しない: any earlier one ends")
            self.add("EV-POI-3", stack,
                     member=victim.name if victim else None, data={"poison": poison.to_json()})
            self.add("EV-POI-2", "Ticks at the end of each block, or every hour of rest "
                     f"({self.s['EV-POI-2', 'hours_per_tick']} h per tick"
                     f"{self.s.tag('EV-POI-2', 'hours_per_tick')})")

    def identify(self) -> bool | None:
        """EV-POI-1: 知名度/identify the poison with 薬品学 (pharmacology, Sage + 知識) vs the
        fixed roll: rolled for the best Sage in sw mode (its success is returned), put to the
        GM in generic mode (None)."""
        if not self.sw:
            ability = self.s["EV-CORE-2", "knowledge_ability"]
            knowledge = (f"知識/knowledge = {'・'.join(ABILITY_NAMES[ability])}"
                         f"{self.s.tag('EV-CORE-2', 'knowledge_ability')}")
            self.check_prompt("EV-POI-1", "pharmacology", f"a Sage ({knowledge})",
                              "知名度/identify: success names the poison above")
            return None
        sage = self.best("pharmacology", [m for m in self.party if m.sage > 0])
        if sage is None:
            self.add("EV-POI-1", "知名度/identify: no Sage in the party")
            return False
        return self.check("EV-POI-1", "pharmacology", sage, note=" 知名度/identify").success

    def check_penalty(self) -> None:
        """EV-POI-5: −1 to all checks; an active action needs a vitality check, and is at −1.

        Whether the action's −1 adds to the general −1 is a Default (no).
        """
        _, tox_text = self.fixed("toxicity")
        penalty, action, stack = self.action_penalty()
        how = "stacks" if stack else "does not stack"
        zenkaku = str(penalty).translate(FULL_WIDTH_DIGITS)
        self.add("EV-POI-5", f"判定－{zenkaku}/−{penalty} to all checks; an active action needs a "
                 f"vitality check vs toxicity {tox_text}, and is still at −{penalty} "
                 f"(−{action} in all: {how}{self.s.tag('EV-POI-5', 'stack')})",
                 data={"penalty": -penalty, "action_penalty": -action})

    def action_penalty(self) -> tuple[int, int, bool]:
        """EV-POI-5: the poison's −N on every check, the −N of an active action in all, and
        whether the action's −N adds to the general one (Default ``stack``: no)."""
        penalty: int = self.book["EV-POI-5"]["penalty"]
        stack: bool = self.s["EV-POI-5", "stack"]
        return penalty, 2 * penalty if stack else penalty, stack

    def active_action(self, member: Member, poison: Poison) -> None:
        """EV-POI-5: 「能動的な行動をとろうとする場合、生命力を基準に毒性値…を目標に判定」: a
        vitality check against the poison's toxicity before an active action, itself at the
        poison's −1; success lets the action go, still at −1 (Default: the −1s do not stack,
        ``EV-POI-5.stack``). In generic mode the GM rolls it."""
        penalty, action, stack = self.action_penalty()
        tag = self.s.tag("EV-POI-5", "stack")
        go = f"the action goes at −{action}{' (the −1s stack)' if stack else ''}{tag}"
        stop = ("no active action this time: following the party and defending only "
                "(EV-POI-5 Default)")
        if not self.sw:
            spec = self.rules.checks["active_action"]
            self.add("EV-POI-5", f"{member.name}: {spec.label()} −{penalty} vs 毒性値/toxicity "
                     f"{poison.toxicity} — GM resolves; success: {go}; failure: {stop}")
            return
        result = self.check("EV-POI-5", "active_action", member, toxicity=poison.toxicity)
        with self.deeper():
            self.add("EV-POI-5", f"{member.name}: {go if result.success else stop}",
                     member=member.name,
                     data={"may_act": result.success,
                           "action_penalty": -action if result.success else None})

    def gender_swap(self) -> None:
        """EV-POI-6."""
        self.add("EV-POI-6", "異性化/Gender swap in body and mind: no penalty; "
                 "spirit-shaman magic is unaffected")

    def love_potion(self) -> None:
        """EV-POI-7."""
        self.add("EV-POI-7", "惚れ薬/Love potion: passionately loves the next being seen "
                 "(any race or sex); the GM is reminded")

    def vitality_damage(self) -> int:
        """EV-POI-8: the poison's maximum is 1D6 points, dealt 1 HP per tick."""
        maximum = roll(self.book["EV-POI-8"]["maximum"], self.source,
                       purpose="the poison's maximum damage 最大値")
        cure = ("HP lost to it heals only once the poison is cured (EV-POI-10 option)"
                if self.s["EV-POI-10", "enabled"] else "HP lost heals with Cure Wounds")
        curse = (f"; 呪い/curse: Remove Curse also removes it{self.s.tag('EV-POI-11', 'enabled')}"
                 if self.s["EV-POI-11", "enabled"] else "")
        self.add("EV-POI-8", f"最大値/maximum {maximum.text}: Poison: 0 HP lost "
                 f"(0/{maximum.total}); 1 HP per tick; {cure}{curse}",
                 roll=maximum, data={"damage_max": maximum.total})
        return maximum.total

    def ability_change(self) -> tuple[str, int]:
        """EV-POI-9: one random ability ±6 (die, abilities and sign are Defaults); returns
        the ability and its change."""
        dice = self.s["EV-POI-9", "ability_die"]
        abilities = self.s["EV-POI-9", "abilities"]
        which = roll(dice, self.source, purpose="which ability 能力値")
        sign_roll = roll(self.s["EV-POI-9", "sign_die"], self.source,
                         purpose="plus or minus ± (odd −, even +)")
        change = self.book["EV-POI-9"]["change"]
        delta = -change if sign_roll.total % 2 else change
        ability = abilities[which.total - 1]
        ja, en = ABILITY_NAMES[ability]
        # The ability shown comes from the die and the order on it: it is the packaged
        # Default only while the user has changed neither.
        tag = self.s.tag("EV-POI-9", "ability_die") and self.s.tag("EV-POI-9", "abilities")
        sign_tag = self.s.tag("EV-POI-9", "sign_die")
        self.add("EV-POI-9", f"能力値±６/Ability ±{change}: {which.text} ＞ {ja}/{en}{tag}; "
                 f"{sign_roll.text} ＞ {signed(delta)} (odd −, even +{sign_tag}); never below "
                 f"{self.book['EV-POI-9']['minimum']}; derived values: GM",
                 data={"ability": ability, "change": delta})
        return ability, delta
