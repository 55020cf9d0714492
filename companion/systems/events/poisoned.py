"""System `events`: the poisons the party carries, and time passing for them (spec §1).

:class:`Poison` is one character's poison, and :func:`afflict` gives a new one
(EV-POI-1..3, EV-POI-8). :func:`describe` says what a character's poison is and how long
it has left (EV-POI-1).
The seed ticks a poison at the end of the party's actions in each block, and every hour
while they rest in a room (EV-POI-2). :func:`pass_time` is one "End block" (one tick of the
EV-POI-2 Default's hours) or a rest of some hours (a tick an hour, worked out at once)
over every character's poison: what each lost (EV-POI-8's 1 HP a tick) and which poisons wore off.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from companion.errors import DataError
from companion.systems.defaults import toml_value
from companion.systems.events.report import Step
from companion.systems.events.rules import EventRules, load_rules
from companion.systems.events.sword_world import ABILITY_NAMES, PARTY_NUMBER_MAX, folded_name


@dataclass(frozen=True)
class Poison:
    """A poison on one character (EV-POI-1..3, 8).

    ``hours_left`` is None when the poison lasts until cured (effects 4–5 end by
    damage instead; a permanent EV-POI-12 effect never ends). ``identified`` is the
    pharmacology check's result (EV-POI-1), None when the GM rolls it. ``ability`` and
    ``change`` are an EV-POI-9 poison's ability and its ±6, undone when it wears off.
    """

    face: int
    rule: str
    toxicity: int
    hours_left: int | None = None
    damage_max: int = 0
    damage_done: int = 0
    identified: bool | None = None
    ability: str | None = None
    change: int = 0

    def to_json(self) -> dict[str, Any]:
        """The poison as plain values, a field at its default left out (TOML has no null)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != f.default}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], origin: str,
                  rules: EventRules | None = None) -> Poison:
        """A poison :meth:`to_json` wrote; DataError names ``origin`` and the field. Its
        ``rule`` is the poison table's for its ``face`` (``rules``, the packaged ones when
        None), and its fields are those that effect has (events62 R1)."""
        types = {"face": int, "rule": str, "toxicity": int, "hours_left": int,
                 "damage_max": int, "damage_done": int, "identified": bool, "ability": str,
                 "change": int}
        unknown = sorted(set(data) - set(types))
        if unknown:
            raise DataError(f"{origin}: unknown field {unknown[0]!r}; a poison has "
                            f"{', '.join(types)}")
        for name in ("face", "rule", "toxicity"):
            if name not in data:
                raise DataError(f"{origin}: missing {name!r}")
        for name, value in data.items():
            expected = types[name]
            # bool is an int to Python, but ``face = true`` is a typo, not face 1.
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                raise DataError(f"{origin}: {name} must be {expected.__name__}, "
                                f"found {toml_value(value)}")
        # A hand-edited list's values too: the table's faces, a count never below 0, an
        # ability the table names (a bad one would fail at the next tick, not here).
        if not 1 <= data["face"] <= 6:
            raise DataError(f"{origin}: face must be from 1 to 6 (the poison table's 1D6), "
                            f"found {data['face']}")
        for name in ("toxicity", "hours_left", "damage_max", "damage_done"):
            if data.get(name, 0) < 0:
                raise DataError(f"{origin}: {name} must be 0 or more, found {data[name]}")
            # A hand edit past TOML's 64-bit integers was read, listed and written back as
            # it was (events74 NIT 7); no poison comes near the party's numbers' top.
            if data.get(name, 0) > PARTY_NUMBER_MAX:
                raise DataError(f"{origin}: {name} must be {PARTY_NUMBER_MAX} or less, found "
                                f"{data[name]}")
        if abs(data.get("change", 0)) > PARTY_NUMBER_MAX:
            raise DataError(f"{origin}: change must be from −{PARTY_NUMBER_MAX} to "
                            f"{PARTY_NUMBER_MAX}, found {data['change']}")
        if data.get("damage_done", 0) > data.get("damage_max", 0):
            raise DataError(f"{origin}: damage_done {data['damage_done']} is over damage_max "
                            f"{data.get('damage_max', 0)}")
        if "ability" in data and data["ability"] not in ABILITY_NAMES:
            raise DataError(f"{origin}: ability must be one of {', '.join(ABILITY_NAMES)}, "
                            f"found {data['ability']!r}")
        _check_effect(data, origin, rules or _packaged())
        return cls(**data)

    def tick(self, hours_per_tick: int = 1, ticks: int = 1) -> tuple[Poison | None, int]:
        """EV-POI-2: ``ticks`` updates; returns the poison after them (None once over) and
        the HP lost.

        EV-POI-8: a vitality-damage poison deals 1 HP per tick until it has dealt
        its maximum, then ends. Worked out at once, not a tick at a time, so a rest of
        10**12 hours over a permanent (EV-POI-12) poison answers at once, not never.
        """
        if self.damage_max:
            # The first tick always deals its 1 HP, even from a hand-edited done == max.
            to_end = max(1, self.damage_max - self.damage_done)
            lost = min(ticks, to_end)
            after = (None if lost == to_end
                     else replace(self, damage_done=self.damage_done + lost))
            return after, lost
        if self.hours_left is None:
            return self, 0
        left = self.hours_left - hours_per_tick * ticks
        return (replace(self, hours_left=left) if left > 0 else None), 0


@functools.cache
def _packaged() -> EventRules:
    """The packaged rules, whose poison table a tracked poison is read against (the user
    changes Defaults only, never the table)."""
    return load_rules()


def _check_effect(data: Mapping[str, Any], origin: str, rules: EventRules) -> None:
    """A hand-edited poison's effect as the poison table gives it: the rule of its face's
    row, a maximum for vitality damage (EV-POI-8) and for nothing else, hours left on the
    effects that wear off (only EV-POI-6 and 7 last until cured, the EV-POI-12 option), an
    ability changed on EV-POI-9 alone. A file that is not is kept aside, not described as
    "permanent (EV-POI-12 option)" on a face that option never makes so (events62 R1)."""
    face, rule = data["face"], data["rule"]
    row = rules.tables["poison"].row_for(face)
    effect = f"{row['ja']}/{row['en']}"
    if rule != row["follow"]:
        raise DataError(f"{origin}: rule must be {row['follow']}, the poison table's for face "
                        f"{face} ({effect}), found {rule!r}")
    damage = data.get("damage_max", 0) != 0 or data.get("damage_done", 0) != 0
    if (rule == "EV-POI-8") != damage or (rule == "EV-POI-8" and data.get("damage_max", 0) < 1):
        raise DataError(f"{origin}: damage_max (1 or more) goes with EV-POI-8's vitality damage "
                        f"only, not {rule} ({effect})" if rule != "EV-POI-8" else
                        f"{origin}: EV-POI-8 ({effect}) needs damage_max, the poison's "
                        "maximum, 1 or more")
    if rule == "EV-POI-8" and "hours_left" in data:
        raise DataError(f"{origin}: EV-POI-8 ({effect}) ends by its damage: no hours_left")
    if rule in ("EV-POI-5", "EV-POI-9") and "hours_left" not in data:
        raise DataError(f"{origin}: {rule} ({effect}) needs hours_left: only EV-POI-6 and "
                        "EV-POI-7 last until cured (the EV-POI-12 option)")
    changed = "ability" in data or data.get("change", 0) != 0
    if changed != (rule == "EV-POI-9") or ("ability" in data) != (data.get("change", 0) != 0):
        raise DataError(f"{origin}: ability and change (not 0) go together, with EV-POI-9's "
                        f"ability change only; {rule} is {effect}")


def tracked_name(poisoned: Mapping[str, Poison], who: str) -> str:
    """The name ``who``'s poison is tracked under: the name as typed, else the one it is
    but for case and width (``aki``, ``ＡＫＩ`` for Aki), when only one is; DataError naming
    those it could be when there are more (Aki and AKI both tracked), and those tracked when
    there is none. `cure --who aki` was refused for Aki's poison."""
    if who in poisoned:
        return who
    alike = same_name(poisoned, who)
    if len(alike) == 1:
        return alike[0]
    if alike:
        names = f"{', '.join(alike[:-1])} or {alike[-1]}"
        raise DataError(f"{who!r} could be {names}, each with a poison tracked: give the name "
                        "as tracked")
    tracked = ", ".join(poisoned) or "nobody"
    raise DataError(f"{who!r} has no tracked poison (tracked: {tracked})")


def same_name(poisoned: Mapping[str, Poison], who: str) -> list[str]:
    """The names tracked in ``poisoned`` that are ``who`` but for case and width."""
    folded = folded_name(who)
    return [name for name in poisoned if folded_name(name) == folded]


def afflict(current: Poison | None, new: Poison) -> Poison:
    """EV-POI-3: poisons do not stack; a new one replaces the old, duration and toxicity too."""
    return new


@dataclass(frozen=True)
class TimePassed:
    """The poisons after the time passed (worn-off ones gone), and a step per character."""

    poisons: dict[str, Poison]
    steps: tuple[Step, ...]

    @property
    def text(self) -> str:
        return "\n".join(f"{'  ' * s.depth}{s.rule}  {s.text}" for s in self.steps)


def pass_time(poisons: Mapping[str, Poison], rules: EventRules,
              rest_hours: int | None = None, hp: Mapping[str, int] | None = None) -> TimePassed:
    """EV-POI-2: the end of a block (``rest_hours`` None) or a rest of ``rest_hours`` hours.

    A block's tick takes the EV-POI-2 Default's hours off each duration; resting ticks
    every hour. EV-POI-8: a vitality-damage poison deals 1 HP a tick until its maximum.
    ``hp``: the HP each character has now, where it is kept (cli59 F4): a line that loses
    some says it after ("HP 14 → 12"); the step's ``hp_lost`` is the change to keep.
    """
    per_tick = rules.settings["EV-POI-2", "hours_per_tick"]
    if rest_hours is None:
        ticks, hours = 1, per_tick
        head = (f"ブロック終了/End of block: poisons tick once ({per_tick} h"
                f"{rules.settings.tag('EV-POI-2', 'hours_per_tick')})")
    else:
        if rest_hours < 1:
            raise DataError(f"a rest must last 1 hour or more, found {rest_hours}")
        ticks, hours = rest_hours, 1
        head = f"休息/Rest {rest_hours} h: poisons tick every hour"
    steps = [Step("EV-POI-2", head)]
    after: dict[str, Poison] = {}
    if not poisons:
        steps.append(Step("EV-POI-2", "No poison tracked: nothing ticks", depth=1))
    for name, poison in poisons.items():
        left, lost = poison.tick(hours, ticks)
        if left is not None:
            after[name] = left
        steps.append(_step(name, poison, left, lost, rules, (hp or {}).get(name)))
    return TimePassed(after, tuple(steps))


def signed(value: int) -> str:
    """EV-POI-9's change with its sign as the seed writes one, a typographic minus
    (``−6``, ``+6``), beside the "−1" and "±6" said elsewhere (events64 N9: ``-6``)."""
    return f"{'−' if value < 0 else '+'}{abs(value)}"


def undone(poison: Poison) -> str:
    """EV-POI-9: what ending ``poison`` gives back, said wherever it ends (worn off, cured,
    replaced): "; 筋力/STR −6 is undone", or "" for the other effects."""
    if not poison.ability:
        return ""
    ja, en = ABILITY_NAMES[poison.ability]
    return f"; {ja}/{en} {signed(poison.change)} is undone"


def ended(name: str, poison: Poison, rules: EventRules) -> str:
    """``name``'s ``poison`` named, with what its end gives back: "Aki's 判定－１/Check −1"."""
    row = rules.tables["poison"].row_for(poison.face)
    return f"{name}'s {row['ja']}/{row['en']}{undone(poison)}"


def describe(poison: Poison, rules: EventRules) -> str:
    """EV-POI-1's Show: the poison's name, identified or not, its toxicity, what is left."""
    row = rules.tables["poison"].row_for(poison.face)
    known = {True: "identified", False: "not identified", None: "identified: GM's check"}
    if poison.damage_max:
        left = f"{poison.damage_done}/{poison.damage_max} HP dealt"
    elif poison.hours_left is None:
        left = "permanent (EV-POI-12 option)"
    else:
        left = f"{poison.hours_left} h left"
    changed = ""
    if poison.ability:
        ja, en = ABILITY_NAMES[poison.ability]
        changed = f" ({ja}/{en} {signed(poison.change)})"
    return (f"{row['ja']}/{row['en']}{changed} — {row['name_ja']}/{row['name_en']}, "
            f"{row['type_ja']}/{row['type_en']}; {known[poison.identified]}; "
            f"毒性値/toxicity {poison.toxicity}; {left}")


def _step(name: str, before: Poison, after: Poison | None, lost: int,
          rules: EventRules, hp: int | None = None) -> Step:
    """One character's line: "Poison: 1 HP lost (3/5)", the HP after where ``hp`` (now)
    is known, the hours left, or worn off."""
    row = rules.tables["poison"].row_for(before.face)
    effect = f"{row['ja']}/{row['en']}"
    data: dict[str, object] = {"hp_lost": lost, "ended": after is None}
    if before.damage_max:
        done = before.damage_done + lost
        heals = ("heals once the poison is cured (EV-POI-10)"
                 if rules.settings["EV-POI-10", "enabled"] else "heals with Cure Wounds")
        end = "; the poison ends" if after is None else ""
        now = "" if hp is None else f" (HP {hp} → {hp - lost})"
        text = (f"毒/Poison: {lost} HP lost ({done}/{before.damage_max}){now}{end}; "
                f"HP lost {heals}")
    elif before.hours_left is None:
        text = f"{effect}: permanent (EV-POI-12 option), unchanged"
    elif after is None:
        text = f"{effect} wears off{undone(before)}"
    else:
        text = f"{effect}: {after.hours_left} h left"
    return Step(before.rule, f"{name}: {text}", member=name, depth=1, data=data)
