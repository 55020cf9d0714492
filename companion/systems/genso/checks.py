"""Action checks of `genso` (行動判定, spec §2.3), shown term by term with the BCDice line.

Every check succeeds only when the total is strictly greater than the difficulty
(２Ｄ＞難易度, 能力値＋２D＋修正値＞難易度), so the line reads
``(2D6+9>12) ＞ 7[3,4]+9=16 ＞ 成功/success``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from typing import Any

from companion.dice import DiceSource, Result, roll
from companion.dice.result import FAILURE
from companion.errors import IllegalAction
from companion.systems.defaults import DEFAULT_TAG
from companion.systems.genso.character.core import Character, Term, derive
from companion.systems.genso.combat.journal import ENGINE
from companion.systems.genso.rules import ABILITIES, TRAPS, GensoRules, Monster


def chance(modifier: int, difficulty: int) -> Fraction:
    """P[2D + modifier > difficulty] on two fair D6."""
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + modifier > difficulty)
    return Fraction(wins, 36)


def formula(terms: Sequence[Term], compare: str, target: int | str) -> str:
    """``2D6+N>T``: the dice plus the sum of the terms, compared with the target."""
    modifier = sum(t.value for t in terms)
    return f"2D6{modifier:+d}{compare}{target}" if modifier else f"2D6{compare}{target}"


@dataclass(frozen=True)
class Check:
    """A finished check: its rule, terms, difficulty, roll and outcome."""

    rule: str
    name: str
    terms: tuple[Term, ...]
    difficulty: int
    result: Result
    notes: tuple[str, ...] = ()
    #: " (default)" after a difficulty that is a Default's (GM-CHECK-6's 12)
    difficulty_tag: str = ""

    @property
    def success(self) -> bool:
        return self.result.success

    @property
    def chance(self) -> Fraction:
        return chance(sum(t.value for t in self.terms), self.difficulty)

    @property
    def text(self) -> str:
        shown = " + ".join(["2D", *(f"{t.label} {t.value}" for t in self.terms)])
        wins = self.chance * 36
        lines = [f"{self.rule} {self.name}: {shown} > {self.difficulty}{self.difficulty_tag} "
                 f"(P = {wins}/36)",
                 self.result.text, *self.notes]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule, "name": self.name, "difficulty": self.difficulty,
            "terms": [{"label": t.label, "value": t.value} for t in self.terms],
            "chance": f"{self.chance * 36}/36", "success": self.success,
            "result": self.result.to_json(), "notes": list(self.notes), "text": self.text,
        }


#: The step of a check that cannot succeed, in place of its dice (GM-CHECK-1 Default).
NOT_ROLLED = "不可能/impossible, not rolled"

#: The fight engine revision (:data:`~companion.systems.genso.combat.journal.ENGINE`) from
#: which a check that cannot succeed is not rolled; a table save of an older fight replays
#: the throw it recorded for one (fixt65b).
NOT_ROLLED_SINCE = 6


def _roll(terms: Sequence[Term], difficulty: int, source: DiceSource, name: str,
          who: str = "", engine: int = ENGINE) -> Result:
    """The check's 2D, asked for as ``trap detection 罠発見 (2D6+5>12)`` (``who``'s).

    A check that cannot succeed (P = 0/36: 2D + modifier is at most 12 + modifier, not
    above the difficulty) asks no die: ``(2D6>15) ＞ 不可能/impossible, not rolled ＞
    失敗/failure``, as GM-CHECK-1's Default reports "impossible" and a failure, and as a coc
    check that cannot succeed is not rolled (tables65 NIT 4). The seed (002 PG 2-1, 2-2)
    gives 2D no automatic success or failure (no 6ゾロ, no 1ゾロ), so no throw could change
    it; a typed or camera player threw dice for nothing. Its ``total`` is 0, with no dice.

    That is from fight engine revision :data:`NOT_ROLLED_SINCE` on: ``engine`` is the
    revision of the fight the check is called in (a table resumed from an older save plays
    on by its own), and by revision 5 and before the check rolled its 2D, so the throw a
    table save recorded for it replays as it was played (fixt65b)."""
    text = formula(terms, ">", difficulty)
    if engine >= NOT_ROLLED_SINCE and not chance(sum(t.value for t in terms), difficulty):
        return Result.failed(text, (NOT_ROLLED, FAILURE), 0, target=difficulty)
    ja, _, en = name.partition("/")
    owner = f"{who}'s " if who else ""
    what = f"{en} {ja}" if en else ja
    return roll(text, source, purpose=f"{owner}{what} ({text})")


def difficulty_value(rules: GensoRules, kind: str, difficulty: int | str) -> tuple[int, str]:
    """GM-CHECK-1/2: a difficulty by number or by name (extremely_hard, very_hard, hard,
    easy) in the ``kind`` ("simple" or "general") check's table."""
    table = rules.difficulties[kind]
    if isinstance(difficulty, int):
        return difficulty, str(difficulty)
    if difficulty not in table or difficulty == "rule":
        names = ", ".join(k for k in table if k != "rule")
        raise IllegalAction(f"no difficulty {difficulty!r}; give a number or one of {names}")
    name = rules.difficulty_names[difficulty]
    return table[difficulty], f"{name['ja']}/{name['en']} {table[difficulty]}"


def default_difficulty(rules: GensoRules, rule: str,
                       difficulty: int | str | None) -> tuple[int | str, str]:
    """The difficulty given, or else the rule's Default one (GM-CHECK-1/2/3
    ``difficulty``, GM-CHECK-6's too) with its " (default)" label for the check's line. An
    explicit None test: a difficulty of 0 is a difficulty, not "none given"."""
    if difficulty is not None:
        return difficulty, ""
    found: int | str = rules.default(rule, "difficulty")
    return found, rules.settings.tag(rule, "difficulty")


def simple_check(rules: GensoRules, source: DiceSource, difficulty: int | str | None,
                 modifier: int = 0, *, engine: int = ENGINE) -> Check:
    """GM-CHECK-1: 簡易判定, 2D > difficulty (15 / 11 / 7 / 3); no modifiers by the seed.
    None is the GM-CHECK-1 Default's difficulty, labelled as one. ``engine``: the revision
    of the fight it is called in (:func:`_roll`), as each check below takes it.

    A GM modifier is allowed only when the GM-CHECK-1 Default ``manual_modifier`` is on.
    """
    difficulty, tag = default_difficulty(rules, "GM-CHECK-1", difficulty)
    value, shown = difficulty_value(rules, "simple", difficulty)
    if modifier and not rules.default("GM-CHECK-1", "manual_modifier"):
        raise IllegalAction("GM-CHECK-1: a simple check has no modifiers (turn on the "
                            "GM-CHECK-1.manual_modifier Default to allow one)")
    terms = (Term("修正/GM modifier", modifier),) if modifier else ()
    notes = () if value - modifier < 12 else (
        f"不可能/impossible: 2D is at most 12 (difficulty {shown})",)
    name = "簡易判定/simple check"
    return Check("GM-CHECK-1", name, terms, value,
                 _roll(terms, value, source, name, engine=engine), notes, tag)


def _ability_label(rules: GensoRules, ability: str) -> str:
    if ability not in ABILITIES:
        only = ("; strength (筋力) is read as body in an opposed check alone (GM-CHECK-5)"
                if ability == "strength" else "")
        raise IllegalAction(f"no ability {ability!r}; the abilities are "
                            f"{', '.join(ABILITIES)}{only}")
    names = rules.abilities[ability]
    return f"{names['ja']}/{names['en']}"


def _ability_term(rules: GensoRules, character: Character, ability: str) -> Term:
    return Term(_ability_label(rules, ability), character.ability(ability))


def general_check(rules: GensoRules, source: DiceSource, character: Character,
                  ability: str | None, difficulty: int | str | None, modifier: int = 0, *,
                  rule: str = "GM-CHECK-2", name: str = "一般判定/general check",
                  bonus: Term | None = None, engine: int = ENGINE) -> Check:
    """GM-CHECK-2: 一般判定, ability + 2D + modifier > difficulty (20 / 16 / 12 / 8). A None
    difficulty is ``rule``'s Default, a None ability GM-CHECK-2's (「能力値＋２D」 names none:
    the GM picks it), each labelled as one."""
    difficulty, tag = default_difficulty(rules, rule, difficulty)
    value, _ = difficulty_value(rules, "general", difficulty)
    if ability is None:
        ability = str(rules.default("GM-CHECK-2", "ability"))
        term = _ability_term(rules, character, ability)
        terms = [Term(term.label + rules.settings.tag("GM-CHECK-2", "ability"), term.value)]
    else:
        terms = [_ability_term(rules, character, ability)]
    if bonus is not None and bonus.value:
        terms.append(bonus)
    if modifier:
        terms.append(Term("修正/modifier", modifier))
    return Check(rule, f"{name} ({character.name})", tuple(terms), value,
                 _roll(terms, value, source, name, character.name, engine),
                 _warnings_for(rules, character, rule), tag)


#: The checks whose sheet bonus (罠発見, 敵発見) may differ from 2 × Search: their warnings
#: (core.derive) are said by that check alone.
_DETECTION = ("GM-CHECK-3", "GM-CHECK-6")


def _warnings_for(rules: GensoRules, character: Character, rule: str) -> tuple[str, ...]:
    """The sheet's warnings a ``rule`` check says: a detection bonus's only by the check that
    adds it (a trap warning on an enemy check was genso63 NIT 8)."""
    others = tuple(f"{r}:" for r in _DETECTION if r != rule)
    return tuple(w for w in derive(rules, character).warnings if not w.startswith(others))


def trap_check(rules: GensoRules, source: DiceSource, character: Character,
               trap: str | int | None, modifier: int = 0, *, engine: int = ENGINE) -> Check:
    """GM-CHECK-3: 罠発見, Perception + 2D + (Search bonus) + modifier > 16 / 12 / 8. None
    is the GM-CHECK-3 Default's trap, labelled as one.

    The Search bonus is 2 × Search level, or a printed 罠発見＋N in its place (Default),
    never both.
    """
    trap, tag = default_difficulty(rules, "GM-CHECK-3", trap)
    if isinstance(trap, str):
        if trap not in TRAPS:
            raise IllegalAction(f"a trap is {', '.join(TRAPS)} or a difficulty number")
        trap = int(rules.num("GM-CHECK-3", trap))
    bonus = derive(rules, character).trap_bonus
    check = general_check(rules, source, character, "perception", trap, modifier,
                          rule="GM-CHECK-3", name="罠発見/trap detection",
                          bonus=Term("罠発見/trap detection", bonus.total), engine=engine)
    return replace(check, difficulty_tag=tag)


def undead_check(rules: GensoRules, source: DiceSource, character: Character,
                 modifier: int = 0, *, engine: int = ENGINE) -> Check:
    """GM-CHECK-4: 不死族感知, Magic + 2D + modifier > 12."""
    return general_check(rules, source, character, "magic",
                         int(rules.num("GM-CHECK-4", "difficulty")), modifier,
                         rule="GM-CHECK-4", name="不死族感知/undead sensing", engine=engine)


def enemy_check(rules: GensoRules, source: DiceSource, character: Character,
                difficulty: int | str | None = None, modifier: int = 0, *,
                engine: int = ENGINE) -> Check:
    """GM-CHECK-6: 敵発見 (Default): Perception + 2D + Search bonus + modifier > 12 unless set;
    the Default's difficulty is labelled as one."""
    bonus = derive(rules, character).enemy_bonus
    return general_check(rules, source, character, "perception", difficulty, modifier,
                         rule="GM-CHECK-6", name="敵発見/enemy detection",
                         bonus=Term("敵発見/enemy detection", bonus.total), engine=engine)


def mark_check(rules: GensoRules, source: DiceSource, character: Character,
               modifier: int = 0, *, engine: int = ENGINE) -> Check:
    """GM-MAGIC-6: 呪印呪, the caster finds a marked object's direction on Magic + 2D > 12."""
    if "mark" not in character.spells:
        raise IllegalAction(f"{character.name} does not know 呪印呪/Mark")
    return general_check(rules, source, character, "magic",
                         int(rules.num("GM-MAGIC-6", "difficulty")), modifier,
                         rule="GM-MAGIC-6", name="呪印呪の方向/Mark direction",
                         engine=engine)


class Winner(Enum):
    """Outcome of an opposed check (GM-CHECK-5)."""

    A = "a"
    B = "b"
    DRAW = "draw"


@dataclass(frozen=True)
class Opposed:
    """GM-CHECK-5: both sides' rolls and who won."""

    a_name: str
    b_name: str
    a: Result
    b: Result
    a_terms: tuple[Term, ...]
    b_terms: tuple[Term, ...]
    winner: Winner
    active: bool

    @property
    def text(self) -> str:
        if self.winner is Winner.DRAW:
            verdict = "引き分け/draw"
        else:
            name = self.a_name if self.winner is Winner.A else self.b_name
            verdict = f"{name} の勝ち/wins"
            if self.active and self.winner is Winner.B and self.a.total == self.b.total:
                verdict += " (同値は能動側の失敗/a tie fails the active side)"
        def side(name: str, terms: tuple[Term, ...], result: Result) -> str:
            # Each side's terms, its modifier too: Ａの能力値＋２Ｄ＋修正値, Ｂの…＋修正値.
            shown = " + ".join(["2D", *(f"{t.label} {t.value}" for t in terms)])
            return f"{name}: {shown}: {result.text}"

        return "\n".join([f"GM-CHECK-5 対抗判定/opposed check: {self.a_name} vs {self.b_name}",
                          side(self.a_name, self.a_terms, self.a),
                          side(self.b_name, self.b_terms, self.b), verdict])

    def to_json(self) -> dict[str, Any]:
        return {"rule": "GM-CHECK-5", "a": self.a.to_json(), "b": self.b.to_json(),
                "winner": self.winner.value, "active": self.active, "text": self.text}


def _monster_term(rules: GensoRules, monster: Monster, ability: str) -> Term:
    """A monster's side of an opposed check (GM-CHECK-5 names no limit to PCs and NPCs): its
    block's ability. A blank Body (実体のない魔物) is Magic in its place, by GM-MON-3's
    Default (``blank_body_uses_magic``: any monster with a blank Body uses Magic), said in
    the term; with that Default off it is refused, as there is no value to roll against."""
    label = _ability_label(rules, ability)
    value: int | None = getattr(monster, ability)
    if value is None and ability == "body" and rules.default("GM-MON-3",
                                                             "blank_body_uses_magic"):
        magic = _ability_label(rules, "magic")
        return Term(f"{magic} in place of {label} (GM-MON-3)", monster.magic)
    if value is None:
        raise IllegalAction(f"{monster.name} has no {label} in its block, and GM-MON-3's "
                            "Default of Magic in its place (blank_body_uses_magic) is off")
    return Term(label, value)


def opposed_check(rules: GensoRules, source: DiceSource, a: Character | Monster,
                  b: Character | Monster, ability: str, *, active: bool, a_modifier: int = 0,
                  b_modifier: int = 0) -> Opposed:
    """GM-CHECK-5: ability + 2D + modifier each; higher wins. On a tie the active side A
    fails when one side is active, else it is a draw. 筋力 reads as Body, a fixed reading
    of the spec's Default (``data/readings.toml``), said as one on each side. The
    other side may be a monster, by its block's abilities (:func:`_monster_term`); it rolls
    2D as the seed's formula has both sides do, though in a fight a monster rolls none
    (GM-COMBAT-2/3). So may the active side A (an orc that grabs or deceives a PC: a tie
    fails the orc, PG 2-3; genso70 RISK 5).

    Each side has its own modifier, as the seed writes it (PG 2-3-1, l.1138):
    「Aの能力値＋２Ｄ＋修正値＞Ｂの能力値＋２Ｄ＋修正値 ならば Aの行為が成功する。」;
    ``a_modifier`` is A's, ``b_modifier`` B's."""
    strength = ability == "strength"  # 筋力 in PG 2-3-1-2 is not a PC ability
    if strength:
        ability = "body"
    # Two sheets of one name (a preset and a copy of it) gave two rows and a winner no one
    # could tell apart: each side is then named by its letter in the seed's formula too.
    a_name, b_name = ((f"{a.name} (A)", f"{b.name} (B)") if a.name == b.name
                      else (a.name, b.name))
    a_terms = [_monster_term(rules, a, ability) if isinstance(a, Monster)
               else _ability_term(rules, a, ability)]
    b_terms = [_monster_term(rules, b, ability) if isinstance(b, Monster)
               else _ability_term(rules, b, ability)]
    if strength:  # said on each side, as the Default it is
        read = f" (筋力/strength, GM-CHECK-5{DEFAULT_TAG})"
        a_terms[0] = Term(a_terms[0].label + read, a_terms[0].value)
        b_terms[0] = Term(b_terms[0].label + read, b_terms[0].value)
    if a_modifier:
        a_terms.append(Term("修正/modifier", a_modifier))
    if b_modifier:
        b_terms.append(Term("修正/modifier", b_modifier))
    a_roll = roll(formula(a_terms, "", "").rstrip(), source, purpose=f"{a_name}'s roll 出目")
    b_roll = roll(formula(b_terms, "", "").rstrip(), source, purpose=f"{b_name}'s roll 出目")
    if a_roll.total > b_roll.total:
        winner = Winner.A
    elif a_roll.total < b_roll.total or active:
        winner = Winner.B
    else:
        winner = Winner.DRAW
    return Opposed(a_name, b_name, a_roll, b_roll, tuple(a_terms), tuple(b_terms), winner,
                   active)
