"""What is on a combatant, as the table's screen and ``coc fight show`` (its text and
``--json``) both say it: one list, made here, so the two cannot drift apart again (audit
coc70 finding 2: the command line showed the conditions alone, not the stun, the grapple,
the bleeding, the lost parts or the weapons the screen showed).

A timed condition is said only in the rounds it applies, by the engine's own test
(:meth:`~companion.systems.coc.combat.fighters.Combatant.has`: from its ``from_round`` to its
``until``): CO-STUN-3's 行動不能/no action and CO-MELEE-4's 転倒/fallen are set for the next
round, and were shown in the round that set them and for ever after (coc70 finding 3). Before
its round such a condition is said as next round's, "行動不能/no action next round 次R": the
fight is saved to be picked up later, and what is legal next was only in the action's log line
(a77cocgrapple RISK 3), as were a tackler's pin to come and a 003 hold that may choke or throw.

Pure: it reads the engine's state alone. It lives here, not in ``companion.app.modes.coc``,
because importing anything there runs that package's ``__init__``, the whole table mode
(about 0.12 s more for every ``coc fight`` command on a PC, several times that on a Pi).
"""

from __future__ import annotations

from companion.systems.coc.combat.fighters import Combatant, Condition


def applying(c: Combatant, round_: int) -> tuple[Condition, ...]:
    """The conditions on ``c`` in ``round_``, each once, in the order they came: those
    :meth:`Combatant.has` says apply (the engine's own test, the one that skips a turn)."""
    return tuple(dict.fromkeys(t.condition for t in c.conditions
                               if c.has(t.condition, round_)))


def dying_badge(until: int) -> str:
    """CO-BASE-8's deadline said with the condition it belongs to, named once."""
    return f"{Condition.DYING.value} (dies at end of round {until})"


def coming(c: Combatant, round_: int) -> tuple[Condition, ...]:
    """The conditions on ``c`` set for a later round than ``round_`` (CO-STUN-3's 行動不能/no
    action, CO-MELEE-4's 転倒/fallen), each once."""
    return tuple(dict.fromkeys(t.condition for t in c.conditions if t.from_round > round_))


def badges(c: Combatant, round_: int, current: str) -> tuple[str, ...]:
    """Everything on ``c`` in ``round_`` besides its HP, action points and square: dead, its
    conditions (CO-BASE-8's dying with its deadline), whom it holds or is held by
    (CO-GRAP-1), 003's MA hold that may choke or throw (CO-MA-2), the pin a knock-down starts
    next round (CO-TACKLE-3), its stun stacks or a turn that began stunned (CO-STUN-1), the
    conditions set for next round, bleeding (CO-BODY-6), lost parts (CO-BODY-5, each part
    once with how many: "lost 欠損 eye ×2"), a blade drawn by Iai (CO-IAI-3), its broken,
    jammed or dropped weapons (CO-PARRY-1/4, CO-MELEE-4, CO-FIRE-4, CO-DISARM-1), a blade
    lent to the ally who drew it (CO-IAI-1) and the spell it chants (CO-SPELL-2).

    ``current`` names the one whose turn it is ("" when none): a turn that began stunned is
    said only while it lasts (``c``'s turn, or its DEX/2 part still to come), as it speaks of
    "this turn"; it was said all the round, in others' turns (reviewc70 NIT 5).

    The dead are shown dead, with no condition beside it ("気絶/unconscious DEAD 死亡" was shown
    of one who died dying, CO-DEATH-2)."""
    shown: list[str] = []
    if c.dead:
        shown.append("DEAD 死亡")
    else:
        shown += [dying_badge(c.dying_until)
                  if condition is Condition.DYING and c.dying_until else condition.value
                  for condition in applying(c, round_)]
        if c.dying_until and Condition.DYING not in applying(c, round_):
            shown.append(dying_badge(c.dying_until))
    if c.held_by:
        shown.append(f"held by {c.held_by} 組み付かれ")
    if c.grappling:
        shown.append(f"holds {c.grappling} 組み付き")
        if c.grapple_options:  # a full MA success (CO-MA-2); a partial one may not
            shown.append("may choke/throw 締め上げ/投げ")  # 003 l.43
    if c.pinning:
        shown.append(f"pins {c.pinning} next round 押さえ込み")
    if c.stun:
        shown.append(f"stun 朦朧 {c.stun}")
    elif c.stun_round == round_ and (current == c.name or c.slot_pending):
        # Shaken off at the turn's start, yet the turn that began stunned has no attack
        # (CO-STUN-1 from engine revision 18): say why Attack is missing, while it is.
        shown.append("no attack this turn 攻撃不可")
    # What comes next round after what is on it now: first, its long words left a crowded
    # row on the table's screen nothing but its count, Deep's stun among those left out
    # ("+3 more 他3件" at 800x480, f78panels item 2).
    if not c.dead:
        shown += [f"{condition.value} next round 次R" for condition in coming(c, round_)]
    shown += [f"bleeding 出血 {dice}" for dice in c.bleeding]
    # Two eyes were two badges, "lost 欠損 eye · lost 欠損 eye", too long for a row
    shown += [f"lost 欠損 {part}" + (f" ×{c.lost.count(part)}" if c.lost.count(part) > 1 else "")
              for part in dict.fromkeys(c.lost)]
    if c.drawn:
        shown.append("blade drawn 抜刀")
    shown += [f"{w.info.name} " + ("broken 破損" if w.broken else "jammed 弾詰まり"
                                   if w.jammed else "dropped 落とした")
              for w in c.sheet.weapons if w.broken or w.jammed or w.dropped]
    # CO-IAI-1 (engine revision 20): a blade an ally drew keeps its number on this sheet, out
    # of these hands; unsaid, the player learnt weapon N was gone only when refused
    # (reviewcoc72 RISK 3)
    shown += [f"{w.info.name} lent to {w.lent} 貸した" for w in c.sheet.weapons if w.lent]
    if c.chanting:
        shown.append(f"chanting 詠唱 {c.chanting}")
    return tuple(shown)
