"""Percentile rolls in BCDice's Cthulhu notation (spec CO-CORE-1, CO-CORE-3, CO-BASE-3).

``CC<=x`` and ``CCB<=x`` check one skill, ``CBR(x,y)``/``CBRB(x,y)`` are the
combination roll (one 1D100 against two skills), ``RES(a-p)``/``RESB(a-p)`` the
resistance table; ``x3``/``rep3``/``repeat3`` before any of them repeats it, as BCDice's
Repeat does. The letters choose BCDice's 1% rule (critical 01, fumble 00) or its
5% rule; with the 5% rule the running profile's ranges apply (CO-CORE-1: profile 003
fumbles on 95–00, profile 004 on 96–00). Anything else is the shared dice layer's.
Shown as BCDice shows it, with the English after each verdict:
``(1D100<=70) ＞ 45 ＞ 成功/success``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from companion.dice import DiceSource, DiceSyntaxError, Result, roll
from companion.dice.notation import MAX_DIGITS, MAX_REPEAT, Rounding
from companion.dice.result import DieRoll, RollKind
from companion.dice.sources import checked_roll
from companion.errors import InvalidNotation
from companion.systems.coc.rules import CocRules, Profile


class Grade(Enum):
    """BCDice's Cthulhu verdicts (``getCheckResultText``), best first."""

    CRITICAL_SPECIAL = "決定的成功/スペシャル"
    CRITICAL = "決定的成功"
    SPECIAL = "スペシャル"
    SUCCESS = "成功"
    FAILURE = "失敗"
    FUMBLE = "致命的失敗"

    @property
    def success(self) -> bool:
        return self not in (Grade.FAILURE, Grade.FUMBLE)

    @property
    def critical(self) -> bool:
        return self in (Grade.CRITICAL_SPECIAL, Grade.CRITICAL)

    @property
    def special(self) -> bool:
        return self in (Grade.CRITICAL_SPECIAL, Grade.SPECIAL)

    @property
    def text(self) -> str:
        """The Japanese word with the English after it (spec §0.2)."""
        english = {
            Grade.CRITICAL_SPECIAL: " (critical, special)", Grade.CRITICAL: "/critical",
            Grade.SPECIAL: "/special", Grade.SUCCESS: "/success", Grade.FAILURE: "/failure",
            Grade.FUMBLE: "/fumble",
        }
        return self.value + english[self]


class Rank(Enum):
    """The result of a combination roll (CO-BASE-3)."""

    SUCCESS = "成功"
    PARTIAL = "部分的成功"
    FAILURE = "失敗"

    @property
    def text(self) -> str:
        english = {Rank.SUCCESS: "success", Rank.PARTIAL: "partial success",
                   Rank.FAILURE: "failure"}
        return f"{self.value}/{english[self]}"


@dataclass(frozen=True, slots=True)
class Ranges:
    """Where criticals and fumbles lie (CO-CORE-1): a critical is a success ≤ critical_max,
    a fumble a failure ≥ fumble_from."""

    critical_max: int
    fumble_from: int
    special_percent: int  # CO-CORE-1: ``special_percent`` in the rules data
    automatic_critical: bool = False
    automatic_fumble: bool = False
    # How the special's fifth is rounded: down, as BCDice's CCB (`coc roll`); a fight's by
    # §0.3's setting (the seeds' 「技能の1/5」 names no rounding: :mod:`..rounding`).
    rounding: Rounding = Rounding.DOWN


def one_percent(rules: CocRules) -> Ranges:
    """CO-CORE-1 as BCDice's 1% rule rolls it (``CC``, ``CBR``, ``RES``): critical 01,
    fumble 00, special at the rules' ``special_percent`` of the skill."""
    return Ranges(1, 100, rules.num("CO-CORE-1", "special_percent"))


def ranges(rules: CocRules, attack: bool = True) -> Ranges:
    """CO-CORE-1: the running profile's 5% ranges (003: 95–00 by its seed; 004: 96–00).

    Seed 003 prints its ranges under attacks only; by Default (``all_checks_003``) they hold
    for every check, else a check that is not an attack roll (``attack=False``) uses 96–00.
    """
    every = rules.default("CO-CORE-1", "all_checks_003")
    if rules.profile is Profile.P003 and (attack or every):
        crit = rules.num("CO-CORE-1", "critical_max_003")
        fumble = rules.num("CO-CORE-1", "fumble_from_003")
    else:
        crit = rules.default("CO-CORE-1", "critical_max_004")
        fumble = rules.default("CO-CORE-1", "fumble_from_004")
    return Ranges(crit, fumble, rules.num("CO-CORE-1", "special_percent"),
                  rules.default("CO-CORE-1", "automatic_critical"),
                  rules.default("CO-CORE-1", "automatic_fumble"))


def grade(value: int, skill: int, r: Ranges) -> Grade:
    """CO-CORE-1: judge one 1D100 against an effective skill.

    Success if value ≤ skill, except that 00 (100) always fails and a skill ≤ 0 cannot
    succeed. A success ≤ critical_max is critical, one ≤ max(1, skill × 20%) special
    (both: 決定的成功/スペシャル), the share rounded as ``r`` says (down, as BCDice; a
    fight's by §0.3's setting).
    A failure ≥ fumble_from is a fumble whatever the skill (unlike BCDice, which never
    fumbles a skill of 100 or more).
    """
    special = max(1, r.rounding.divide(skill * r.special_percent, 100))
    success = value <= skill and value < 100 and skill > 0
    if r.automatic_critical and value <= r.critical_max and skill > 0:
        success = True
    if r.automatic_fumble and value >= r.fumble_from:
        success = False
    if not success:
        return Grade.FUMBLE if value >= r.fumble_from else Grade.FAILURE
    if value <= r.critical_max:
        return Grade.CRITICAL_SPECIAL if value <= special else Grade.CRITICAL
    return Grade.SPECIAL if value <= special else Grade.SUCCESS


@dataclass(frozen=True, slots=True)
class Check:
    """One percentile check: the effective skill, the die, the verdict (CO-CORE-1); ``value``
    is None for a check not rolled, as one that cannot succeed and whose fumble nothing
    reads (:func:`unrolled`)."""

    skill: int
    value: int | None
    grade: Grade
    label: str = ""

    @property
    def success(self) -> bool:
        return self.grade.success

    @property
    def text(self) -> str:
        label = f"{self.label} " if self.label else ""
        die = "cannot succeed, not rolled" if self.value is None else self.value
        return f"{label}(1D100<={self.skill}) ＞ {die} ＞ {self.grade.text}"


def unrolled(skill: int, label: str = "") -> Check:
    """CO-CORE-1 Default 「Effective skill ≤ 0 means "cannot succeed"」: a failure with no
    die, for a check no rule gives a fumble's effect (those effects are CO-MELEE-4's,
    CO-FIRE-4's and CO-THROW-2's, all attack rolls): ``(1D100<=0) ＞ cannot succeed, not
    rolled ＞ 失敗/failure``."""
    return Check(skill, None, Grade.FAILURE, label)


#: Said after a check's purpose when its d100 is an attack roll.
TO_HIT = " to hit 命中"


def d100(source: DiceSource, purpose: str = "") -> int:
    return checked_roll(source, 1, 100, purpose=purpose)[0]


def aim(label: str, target: int | str, hit: bool = False) -> str:
    """What a d100 is for: its label and target, ``Ann キック/Kick (1D100<=60)``, and when it
    is an attack roll (``hit``), `` to hit 命中``."""
    return f"{label or 'check 判定'} (1D100<={target})" + (TO_HIT if hit else "")


def check(source: DiceSource, skill: int, r: Ranges, label: str = "", *,
          hit: bool = False, why: str = "") -> Check:
    """CO-CORE-1: roll 1D100 against ``skill`` (``hit``: it is an attack roll, which the
    die's purpose says; ``why``: a reason the die's purpose says first, for a roll that is
    no part of the action under way, e.g. a dying investigator's CON×5)."""
    purpose = aim(label, skill, hit)
    value = d100(source, f"{why} — {purpose}" if why else purpose)
    return Check(skill, value, grade(value, skill, r), label)


@dataclass(frozen=True, slots=True)
class Combination:
    """CO-BASE-3: one 1D100 judged against two skills."""

    first: int
    second: int
    value: int
    grades: tuple[Grade, Grade]
    label: str = ""

    @property
    def rank(self) -> Rank:
        successes = sum(g.success for g in self.grades)
        return (Rank.FAILURE, Rank.PARTIAL, Rank.SUCCESS)[successes]

    @property
    def text(self) -> str:
        label = f"{self.label} " if self.label else ""
        return (f"{label}(1d100<={self.first},{self.second}) ＞ {self.value}"
                f"[{self.grades[0].value},{self.grades[1].value}] ＞ {self.rank.text}")


def combination(source: DiceSource, first: int, second: int, r: Ranges, label: str = "", *,
                hit: bool = False) -> Combination:
    """CO-BASE-3: roll once, judge each skill by CO-CORE-1, count the successes."""
    value = d100(source, aim(label, f"{first},{second}", hit))
    return Combination(first, second, value, (grade(value, first, r), grade(value, second, r)),
                       label)


def resistance_target(active: int, passive: int, rules: CocRules) -> int:
    """CO-CORE-3: 50% + 5% per point the active side is above the passive side (``base`` and
    ``per_point`` in the rules data)."""
    base: int = rules.num("CO-CORE-3", "base")
    per: int = rules.num("CO-CORE-3", "per_point")
    return base + per * (active - passive)


@dataclass(frozen=True, slots=True)
class Resistance:
    """CO-CORE-3: a resistance roll; ``value`` is None when no die is needed (automatic),
    and ``automatic_win`` says which way it went."""

    target: int
    value: int | None
    grade: Grade | None
    label: str = ""
    automatic_win: bool = False

    @property
    def success(self) -> bool:
        return self.automatic_win if self.value is None else \
            bool(self.grade and self.grade.success)

    @property
    def text(self) -> str:
        label = f"{self.label} " if self.label else ""
        if self.value is None:
            word = "自動成功/automatic success" if self.success else "自動失敗/automatic failure"
            return f"{label}(1d100<={self.target}) ＞ {word}"
        assert self.grade is not None
        return f"{label}(1d100<={self.target}) ＞ {self.value} ＞ {self.grade.text}"


def resist(source: DiceSource, active: int, passive: int, r: Ranges, label: str = "", *,
           rules: CocRules, why: str = "") -> Resistance:
    """CO-CORE-3: a difference of +10 or more always wins, −10 or less always loses, and is
    not rolled (the Default ``automatic_difference``; BCDice RES: a chance above 95 or below
    5). ``why`` as :func:`check`'s: a reason for a roll no action asked for."""
    target = resistance_target(active, passive, rules)
    automatic = rules.default("CO-CORE-3", "automatic_difference")
    if abs(active - passive) >= automatic:
        return Resistance(target, None, None, label, automatic_win=active > passive)
    purpose = aim(label, target)
    value = d100(source, f"{why} — {purpose}" if why else purpose)
    return Resistance(target, value, grade(value, target, r), label)


# --- the notation -------------------------------------------------------------------------

_CC = re.compile(r"^(S)?CC(B)?(?:\((\d+)\))?(?:<=(.+))?$", re.IGNORECASE)
_CBR = re.compile(r"^(S)?CBR(B)?\((\d+),(\d+)\)$", re.IGNORECASE)
_RES = re.compile(r"^(S)?RES(B)?\((.+)\)$", re.IGNORECASE)


def _normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("≦", "<=").replace("=<", "<=")
    return text.replace("−", "-")


def _value(expr: str, source: DiceSource, head: str = "", start: int = 0) -> int:
    """``expr`` (``5``, ``60-10``) worked out as BCDice's ``C(...)``; a fault in it is shown
    under ``head``, the command as typed, at ``start`` where ``expr`` begins in it (not
    under the ``C(`` the player never typed)."""
    try:
        return roll(f"C({expr})", source).total
    except DiceSyntaxError as e:
        if not head:
            raise
        at = min(len(head), start + max(0, e.position - 2))
        raise DiceSyntaxError(head, at, e.reason) from None


def _whole(digits: str, head: str, at: int) -> int:
    """A number written in the command, refused as the shared layer refuses one of more
    than MAX_DIGITS digits (Python turns no more than 4,300 into a number)."""
    if len(digits) > MAX_DIGITS:
        raise DiceSyntaxError(head, at, f"a number may have at most {MAX_DIGITS} digits")
    return int(digits)


def is_cthulhu(text: str) -> bool:
    """Whether ``text`` is one of this system's commands rather than a shared-layer roll."""
    head = _normal(text.split()[0]) if text.split() else ""
    return any(p.match(head) for p in (_CC, _CBR, _RES))


_REPEAT = re.compile(r"\s*(S)?(REPEAT|REP|X)(\d+)\s+(\S.*)$", re.IGNORECASE | re.DOTALL)


def _roll_repeat(text: str, source: DiceSource, rules: CocRules) -> Result | None:
    """``x3 CC<=50``, ``rep2 CBR(50,60)``, ``repeat2 SRES(8-10) note``: a Cthulhu command
    rolled again and again, as BCDice's Repeat runs its trailer through the game system
    (``common_command/repeat.rb``: its own example is ``rep2 CC<=75``). Laid out as the
    shared layer's repeat, one numbered block per roll; the comment goes with each roll.
    None when what follows is no Cthulhu command: the shared layer repeats that."""
    m = _REPEAT.match(unicodedata.normalize("NFKC", text))
    if not m or not is_cthulhu(m[4]):
        return None
    secret, keyword = bool(m[1]), m[2].lower()
    times = int(m[3]) if len(m[3]) <= MAX_DIGITS else MAX_REPEAT + 1
    if not 1 <= times <= MAX_REPEAT:
        raise DiceSyntaxError(text, m.start(3), f"repeat 1 to {MAX_REPEAT} times")
    rolls = tuple(roll_command(m[4], source, rules) for _ in range(times))
    return Result.plain(
        f"{keyword}{times} {_normal(m[4].split()[0])}", (), sum(r.total for r in rolls),
        dice=tuple(d for r in rolls for d in r.dice),
        secret=secret or any(r.secret for r in rolls), kind=RollKind.REPEAT, rolls=rolls)


def roll_command(text: str, source: DiceSource, rules: CocRules) -> Result:
    """Roll a line of BCDice Cthulhu notation (or plain dice) and lay it out as BCDice does."""
    if repeated := _roll_repeat(text, source, rules):
        return repeated
    parts = re.match(r"\s*(\S*)\s*(.*)$", text, re.DOTALL)
    assert parts is not None  # the pattern matches any text
    head, comment = _normal(parts[1]), parts[2].strip()
    five, one = ranges(rules), one_percent(rules)
    if m := _CC.match(head):
        secret, b, broken, target = m.groups()
        r = five if b else one
        broken_num = _whole(broken, head, m.start(3)) if broken else 0
        skill = _value(target, source, head, m.start(4)) if target else 0
        value = d100(source, aim(comment, skill) if skill > 0 else comment)
        die = (DieRoll(100, value),)
        if skill <= 0:
            return Result.plain("1D100", (str(value),), value, dice=die, secret=bool(secret),
                                comment=comment)
        verdict = grade(value, skill, r)
        word = verdict.text
        steps: tuple[str, ...] = (str(value), word)
        if broken_num > 0:
            # BCDice 故障ナンバー (Cthulhu.rb, ``if broken_num > 0``: CC(0) has none): a
            # malfunction overrides the verdict unless it is a fumble.
            if value >= broken_num:
                word = "致命的失敗/故障 (fumble, malfunction)" if verdict is Grade.FUMBLE \
                    else "故障/malfunction"
            steps = (f"故障ナンバー[{broken_num}]", str(value), word)
        made = Result.succeeded if verdict.success else Result.failed
        return made(f"1D100<={skill}", steps, value, dice=die, secret=bool(secret),
                    comment=comment, target=skill, critical=verdict.critical,
                    fumble=verdict is Grade.FUMBLE)
    if m := _CBR.match(head):
        secret, b, first, second = m.groups()
        combo = combination(source, _whole(first, head, m.start(3)),
                            _whole(second, head, m.start(4)), five if b else one)
        made = {Rank.SUCCESS: Result.succeeded, Rank.PARTIAL: Result.succeeded,
                Rank.FAILURE: Result.failed}[combo.rank]
        return made(f"1d100<={first},{second}",
                    (f"{combo.value}[{combo.grades[0].value},{combo.grades[1].value}]",
                     combo.rank.text), combo.value, dice=(DieRoll(100, combo.value),),
                    secret=bool(secret), comment=comment)
    if m := _RES.match(head):
        secret, b, expr = m.groups()
        res = resist(source, _value(expr, source, head, m.start(3)), 0,
                     five if b else one, rules=rules)
        steps = tuple(res.text.split(" ＞ ")[1:])
        dice = () if res.value is None else (DieRoll(100, res.value),)
        made = Result.succeeded if res.success else Result.failed
        return made(f"1d100<={res.target}", steps, res.value or 0, dice=dice,
                    secret=bool(secret), comment=comment, target=res.target,
                    critical=bool(res.grade and res.grade.critical),
                    fumble=res.grade is Grade.FUMBLE)
    if head.upper().startswith(("CC", "CBR", "RES", "SCC", "SCBR", "SRES")):
        raise InvalidNotation(f"{head!r} is not CC<=x, CCB<=x, CBR(x,y), CBRB(x,y), RES(a-p) "
                              "or RESB(a-p)")
    return roll(text, source, purpose=comment)
