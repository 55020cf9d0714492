"""A saved fight's file: its format (:data:`FORMAT`), the rules revision that plays new
actions (:data:`ENGINE`), the shape check of the file's top level, and what a format-1 file
read and is told (:data:`UNREAD_BEFORE`, :func:`format1_rules`).

Format 1 never read CO-CORE-1, CO-BASE-4, CO-BASE-12, CO-TURN-1 and CO-ARMOR-2's toggles.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.errors import DataError, NewerFight, refuse_unknown
from companion.systems.coc.combat.fighters import Side
from companion.systems.coc.rules import CocRules, Profile

# A saved fight's format, and the rules revision that plays new actions. Files without one
# (format 1) were played before an audit's rule fixes, which change what a log may hold: their
# entries replay with ``legacy`` set, as they were played, so they still load. Each entry
# records the revision that played it (``engine``, written when it is not :data:`FORMAT`, as
# genso's journal does), so a fight begun under format 1 goes on under the fixed rules while
# its past replays exactly. Each place that differs says "format 1".
FORMAT = 2
# The rules revision new actions are played by. Format 2's entries without an ``engine`` were
# played by revision 2; a file written since says ``engine`` (3) at its top, the revision of
# each entry that does not say its own. Revision 3: a 003 grappler's turn is not held at 0 AP
# for an Iai with a two-handed blade that CO-GRAP-3 refuses (CO-IAI-2). Revision 4: a 003
# grapple that holds is its grappler's 1 AP of the round, a DEX/2 turn of either one in a
# grapple has 1 AP (CO-GRAP-3) and MA's choke or throw comes once a round (CO-MA-2); a grapple
# parried with a weapon gets dodge concentration's +20 (CO-DODGE-1); a 004 burst dodged after
# attacking is at −60 (CO-DODGE-5); Spot Hidden and Jump once a round (CO-SKILL-1); the 004
# MA counter only against an attack bare hands could parry (CO-MA-5); a lost tongue's −50 to
# skills that need taste is said (CO-BODY-5); no Spot Hidden or Jump in a 003 round with Iai
# (an attack or a parry) and no Iai, attack or parry, in a round with them (CO-IAI-2); a melee
# blow parried by Grapple with two successes (CO-GRAP-5). A burst rolls at a single shot's
# skill, range and damage divisor (CO-RANGE-1/2/3, CO-AIM, CO-SURP-3, CO-DODGE-5, CO-FIRE-5),
# its critical ignores each bullet's armour and its special impales each (CO-FIRE-3, CO-BASE-2),
# it takes no parry (CO-FIRE-6) and comes after no first strike (CO-FIRE-7/8). A first strike
# is attacking, for the 004 dodge's −60 and against dodge concentration (CO-DODGE-4/5/8), the
# restrained cannot strike first (CO-GRAP-6), a knockback's bystander or one a throw lands on
# dodges only with its round's dodge left, using it (CO-MELEE-2, CO-MA-2, CO-DODGE-2), 003's
# attack AP count against each weapon's own attacks in any order (CO-TURN-6), and one put
# down out of turn by a Keeper's event or a first strike loses its turn (CO-DEATH-1, CO-BASE-8).
# Each 003 other skill once a round, Medicine and Psychoanalysis too, so Medicine may follow
# a First Aid that worked (CO-SKILL-1).
# A knocked-back grappled pair moves as one (CO-GRAP-1, CO-MELEE-2), three leg hits refuse a
# Jump (CO-CALL-1), a choke or throw meets a strike's bars (CO-MA-2, CO-GRAP-6) and a 004
# throw is at an enemy only (CO-GRAP-8).
# Iai draws only a reachable ally's blade (CO-IAI-1), a pommel strike or disarm meets the
# declared parry (CO-IAI-4, CO-DISARM-1), a bystander's dodge takes concentration (CO-DODGE-1),
# the dark halves the defence too (CO-SURP-3), a burst blows a part off (CO-BODY-4), no
# Psychoanalysis of oneself (CO-SKILL-4) and turning is free while concentrating (CO-DODGE-1).
# A cover dodge after attacking takes the −60, a Keeper's second dodge by Luck against a burst
# rolls Luck, and a disarm or a surprise is refused on a burst (CO-DODGE-4/5, CO-DISARM-1,
# CO-SURP-1).
# Revision 5: a critical grapple takes no dodge or parry and a fumbled one falls
# (CO-MELEE-3/4), a stun takes its AP off a turn held to DEX/2 (CO-STUN-1), a move without
# its square is refused on the board and to the held (CO-TURN-2/5, CO-GRAP-1), and no parry
# with a two-handed weapon in a 003 grapple (CO-GRAP-3).
# Revision 6: a 004 grappler restraining its opponent parries with no two-handed weapon
# (CO-GRAP-6: one hand holds).
# Revision 7: the held one's own blow at its grappler (003's punch, 004's MA counter) lands on
# the grappler, not on the held one as its human shield (CO-GRAP-4, CO-GRAP-6); a grapple or
# tackle from behind (as 003's board says, or off it the Keeper's ``from_behind``) takes no
# dodge or parry without dodge concentration (CO-DODGE-3); a fumbled shot or burst spends its
# rounds, and a gun that jams or is dropped fires no more of the action's shots (CO-FIRE-4).
# Revision 8: death at once names the threshold it crossed, CO-DEATH-1's Default dead_below
# ("HP below −5"), not "below −2" whatever dead_below was.
# Revision 9: an attack, grapple or tackle the board puts behind its target says so
# ("from behind (CO-DODGE-3)"), as it takes the target's defence away.
# Revision 10: 003's held one rolls STR against its holder by itself at the start of its turn,
# once a round and at no AP (CO-GRAP-2's Default each_turn, 003 l.34 「敵のラウンド時にSTRにて
# 対抗ロールが発生し」), where revision 9 made it a BreakFree action costing its 1 AP.
# Revision 11: a 004 character concentrating on dodging dodges each bullet of a multi-shot
# attack (CO-DODGE-8's Default every_bullet, 004 l.17 「複数回の攻撃に対して何度でも」), where
# revision 10 let its dodge stop the first only (CO-DODGE-7).
# Revision 12: a 003 held one whose turn is skipped but who is not out (fallen after a fumble,
# CO-MELEE-4, or CO-STUN-3's lost round) still makes the STR roll of revision 10 (CO-GRAP-2):
# it loses its actions, not the roll that happens by itself; revision 11 skipped the roll too.
# Revision 13: every share without a rounding of its own (an effective skill's ÷, the
# fight's special 1/5, DEX/2, a range band's damage, the knockout's third, a lost eye's half) is
# rounded by §0.3's setting ``§0.3.rounding`` (down, nearest or up); its Default, down, is
# what revision 12 and before did, and their entries round down whatever a file's settings say.
# Revision 14: a disarm goes without its penalty for one who *has* Budo (standing), MA or
# Grapple, a skill above its CoC6 base by more than CO-DISARM-1.above_base (Default 0), so
# writing Grapple 25, its base, is leaving it out; revision 13 waived it for any of them the
# sheet wrote above 0 (CO-DISARM-1, 004 l.47 「技能を所持しているならば」).
# A negative distance is refused (CO-RANGE-2); revision 13 took it as within base range.
# A check that is not an attack roll and cannot succeed (≤ 0%) asks no die and says
# "cannot succeed, not rolled", and an attack at 0% says it is rolled only for a fumble
# where its fumble rule is played (CO-CORE-1, CO-MELEE-4, CO-FIRE-4, CO-THROW-2);
# revision 13 rolled the check. An attack roll at 0% whose fumble plays no rule (its kind's
# fumble rule off, as 004's by Default; a tackle, a 004 choke or throw, a stray throw's own
# roll) asks no die either and says "cannot succeed, not rolled"; an MA combination roll is
# still thrown, as its MA half may succeed (CO-BASE-3); revision 13 threw them.
# Revision 15 (coc67): an Attack's misspelt ``ma_option`` or ``fumble``, or an ma_option
# without ma, is refused before any die (CO-MA-3/4, CO-MELEE-4); revision 14 played it as
# none given. A SAN loss past 0 costs what SAN had left, which the INT×5 is asked for and the
# line says (CO-BASE-13); the surprise's Luck line shows its target's terms (CO-SURP-1/3);
# a burst's 1D20 past the rounds fired says it is capped (CO-FIRE-8).
# Revision 16 (reviewcoc67 NIT 1): an Attack's ``fumble`` word (fall, break) where CO-MELEE-4
# is off (004 by Default) is refused before any die; revision 15 took it and did nothing.
# Revision 17 (rules69 NIT 3): a SAN loss that loses none is no indefinite insanity
# (CO-BASE-13); revision 16 marked one at SAN 0, "0 of 0 SAN within the hour".
# Revision 18 (coc70): a disarm aimed at bare hands (a fist, a kick: an unarmed weapon) is
# refused before any die, as a fist cannot be knocked away (CO-DISARM-1); a body part is lost
# no more times than the body has it, CO-BODY-5's ``count`` (eyes 2, tongue 1), refused before
# any die; the turn a stunned one begins stunned has no attack whatever its CON×5 roll, which
# decides only whether the stack and its AP come back now (CO-STUN-1, 003 「相手は次回攻撃が
# 選択できず」). Revision 17 knocked a fist "out of the hands", lost a tongue twice (Listen
# −10 each time) and let a stun shaken off at the turn's start attack in that turn.
# Revision 19 (coc71): a grapple may be parried bare-handed, with MA or Budo where a punch
# may (CO-PARRY-2, 004 l.20-21; 003's MA parry, CO-DODGE-2), or with Grapple's two successes
# (CO-GRAP-5), as 004 l.24 「組み付き技能は、近接戦闘技能や長身の火器で受け流されてしまう」
# says: a Grapple's ``parry_with``; in 003 an Iai parries it too (003 l.97 「＜マーシャルアーツ＞
# ＜居合＞、武器での受け流しのどれかを1回」, CO-DODGE-2); revision 18 parried it with a melee
# weapon or long gun only.
# A tackle's blow back on 003's board moves a grappled pair as one (CO-TACKLE-2, CO-GRAP-1, 003
# l.33 「ひと固まりとして考える」), as CO-MELEE-2's knockback does, and every partner on the
# target's square, held or holder (a chain of grapples); revision 18 slid one alone.
# CO-TACKLE-3's pin on 003's board is CO-GRAP-1's grapple there: the pinned one is pulled into
# the tackler's square, from next to it only (else the pin lapses, said), the one it holds
# on its square with it (one unit); revision 18 pinned at any distance and moved nobody.
# A pin that cannot be made (its target held by another, the tackler holding, held or out) is
# said, "X's pin of Y lapses: …", and the 転倒/prone mark goes when the pin is made or lapses;
# a second knock-down while a pin waits is refused (CO-TACKLE-3). Revision 18 dropped the pin
# unsaid, left the target prone to the end and let a second knock-down replace the first.
# A 004 restrained one neither dodges, takes cover (Hide or Dodge, CO-DODGE-7), parries nor
# counters (CO-GRAP-6, 004 l.163 「組み付いた相手を行動不能にする」, the engine's reading "a
# restrained target acts only to break free"); revision 18 let it dodge, take cover and parry.
# Revision 20 (coc72): a first strike, a burst and an Iai meet the options an attack declares
# before any die, as an attack of shots does (attacks.EVERY_WAY_CHECKED): MA with a bare-hand
# technique only (CO-MA-1, CO-BASE-6), Iai with its sword (CO-IAI-1), one shot for a first
# strike, a burst, an Iai and every 003 shot (CO-FIRE-7, CO-FIRE-6/8, CO-IAI-2, CO-TURN-6), no
# surprise with a first strike or an Iai (CO-SURP-1) and a fall or break fumble with a melee
# or bare-hand weapon only (CO-MELEE-4); revision 19 took a pistol's first strike with MA and
# doubled its damage, and played the rest as not written.
# A blade an ally draws with Iai stays in the lender's list of weapons, marked in the drawer's
# hands (iai.LENT_IN_PLACE, CO-IAI-1), so the lender's other weapons keep their numbers and
# the lent one is refused by name; revision 19 took it out and renumbered the rest.
# A chanted or gestured spell whose caster is held when it comes due stops, said (CO-SPELL-1,
# spells.HELD_AT_THE_END); revision 19 checked only when the chant began.
# A luck_dodge no second dodge would use (the round's dodge unused, no dodge declared, 003)
# is refused before any die (CO-DODGE-4, defences.LUCK_DODGE_READ); revision 19 rolled the
# round's own dodge. A SAN loss reaching 0 says it is CoC 6e's permanent insanity, the
# Keeper's to rule (CO-BASE-13 [BASE 6e], keeper.SAN_ZERO_SAID). The Default "CO-BODY-5
# (hands)" (readings.toml, body_parts.HANDS_READ): with no hand left no weapon, punch, grapple
# or parry by hand, with one no two-handed weapon; revision 19 let the armless swing and grapple.
# Revision 21 (grapple73): a holder's own choke or throw (from a height too) hurts the one it
# holds, never, as a human shield, the one that one holds in turn (CO-GRAP-4/6, CO-MA-2,
# CO-GRAP-7/8, damage.HOLD_FROM_WITHIN); whoever a stun leaves unconscious lets go (CO-STUN-2,
# CO-STUN-3, the Default "CO-GRAP-1 (out)"). Revision 20 put the choke into the third fighter's
# HP and kept a stunned-out holder holding. A grapple of a holder on 003's board pulls the one
# it holds along, one unit (the Default "CO-GRAP-1 (chain)"); revision 20 left it behind.
# A holder may let go 手を放す, a free action (LetGo, the Default "CO-GRAP-1 (let go)"); revision
# 20 had no such action, and refuses it. First Aid or Medicine on one unhurt, conscious, not
# dying and not bleeding is refused before any die (CO-SKILL-2/3, CO-BASE-8,
# skills.NOTHING_TO_TREAT); revision 20 rolled it and spent the AP. With no hand left no
# choke or throw either (the Default "CO-BODY-5 (hands)", CO-MA-2, CO-GRAP-7/8); revision 20
# let a holder whose arms were cut off meanwhile choke and throw. One held by a holder who is
# out has that holder let go 手を放す before it acts (step.freed_of_out_holder, "CO-GRAP-1
# (out)"), in the action's own entry; its break_free is then that letting go alone, said, and
# its turn goes on (finalb73 NIT 4); revision 20 kept it restrained (CO-GRAP-6) until its next
# turn, breaking free by STR. A holder letting go of a dead body says 手を放す and the Default
# (damage.py); revision 20's line had neither. Revision 21 shipped with all of these at once:
# fights saved by a development checkout from within the seventy-third stop (before a8a1b99a
# and c9a8dd5d) may not replay.
# Revision 22 (coc74, reviewcoc74): a shot at point blank (003's adjacent +15%, CO-FIRE-5;
# 004's touch ×3, CO-RANGE-3) with a distance_m beyond arm's reach (the Default
# CO-RANGE-3.reach_m, 1 m), and a melee or bare-hand blow with such a distance_m (CO-MELEE-1;
# CO-RANGE-3 in 004; a sheet's longer range_m is its reach), are refused before any die
# (attacks.WITHIN_REACH); on 003's board a distance_m is refused, as the board gives it
# (board_moves.ADJACENT_FROM_THE_BOARD); revision 21 took the first as both (×1/3 and ×3 at
# once) and ignored the rest. A burst beyond its base range (CO-RANGE-2, CO-FIRE-8) divides
# the burst's damage, the weapon's damage × hits (004 l.64, l.71): each bullet's exact share
# goes through the armour and the damage through is rounded once by §0.3, whatever the
# bullets' order (firearms.BURST_ROUNDED_ONCE, the reading "CO-RANGE-2 (burst)"), and
# CO-ARMOR-2.pool_across_bullets pools value × hits from a burst's first bullet; revision 21
# rounded every bullet down on its own and pooled only what each bullet left. Spot Hidden
# says an attack is still allowed only when one is (CO-SKILL-5, skills.SPOT_SAYS_WHAT_IS_OPEN);
# revision 21 said so in every 003 round.
# A cast with a blank spell name is refused (CO-SPELL-1, spells.SPELL_NAMED); revision 21
# spent the MP and cast nothing.
# Revision 23 (grapple75): after a first strike 重火器先制 (CO-FIRE-7) a grapple, tackle, choke
# or throw that round is refused before any die, as a punch was (to_hit.FIRST_STRIKE_BARS_HOLDS,
# 004 l.52-53, l.164-165's 又は); revision 22 took them, so a holder shot and choked in one round.
# 004's choke and throw roll says what it is for, whom and its rule, "(choke 締め付け of Cult,
# CO-GRAP-7)" (grapples.OPTION_NAMED; 絞め until revision 25, grapples.SEED_CHOKE); revision
# 22's line was the grapple's alone.
# After a first strike the shooter attacks that round only with the gun that struck first, its
# attacks less 1 (attacks.FIRST_STRIKE_GUN_ONLY, 004 l.52-53); revision 22 counted the attacking
# weapon's own, so a 1-attack SMG's first strike was followed by two revolver shots.
# Revision 24 (a76cocother): a martial-arts combination roll whose technique fumbles (the die
# on 95-00, 003 l.29) and which MA carries to a partial success that hits or holds plays the
# technique's fumble after the blow or grapple, as its critical was played (CO-BASE-3's
# Default, CO-MELEE-4; strikes.TECHNIQUE_FUMBLE_ON_A_HIT), while the attacker is still in and
# the fight goes on (r76coc N1: not after a counter left the attacker dying, nor after the
# blow won the fight); revision 23 dropped it, so Kick 40
# with MA 97 on 96 hit and never fell. A firearm's or thrown weapon's distance_m beyond arm's
# reach with no base range (range_m; the packaged rock has none) is refused before any die
# where CO-RANGE-2 runs (attacks.DISTANCE_NEEDS_A_RANGE); revision 23 ignored it, a rock at
# 400 m at full skill. A failed knockout says "the knockout fails: the blow lands as usual, N
# (CO-BASE-10)" where revision 23 said the damage roll's line a second time
# (strikes.KNOCKOUT_FAILED_SAID).
# Revision 25 (a77cocgrapple): the human shield (CO-GRAP-4, CO-GRAP-6) takes a blow aimed at
# its grappler before the grappler's armour does, which meets only what is left
# (damage.SHIELD_BEFORE_ARMOUR), a burst beyond its base range too, each bullet's exact
# share (damage._Damage.shield_share, r77coc); revision 24 spent the armour first. 004's
# throw from a height refuses a negative height, or one beyond a roll's dice, before any die
# (grapples.THROW_HEIGHT_CHECKED); revision 24 threw from -3 m as a fall. A throw's or
# tackle's field not played is refused before any die (grapples.FIELDS_THAT_APPLY: 003's
# height_m, toward off the board, 004's at_dodges, obstacle without blow back); revision 24
# dropped it unsaid. A choke's roll line names it in the seed's word, 003's 締め上げ and
# 004's 締め付け (grapples.SEED_CHOKE, a77data NIT 4); revision 24's said 絞め.
# Revision 26 (a78cocfight): an attack's ``behind`` or ``stray`` naming nobody in the fight,
# and ``behind`` where no knockback can come, are refused before any die
# (attacks.FIELDS_PLAYED); revision 25 looked the name up after every die was thrown. A
# field that goes with one the attack does not declare (penalty, hidden, part, staunched,
# disarm_weapon, parry_with, parry_weapon; a grapple's parry_weapon) is refused too;
# revision 25 rolled as if it were left out.
# A parry roll says 受け流し/parry, as a dodge says 回避/Dodge (defences.PARRY_NAMED); revision
# 25's said parry alone. A temporary insanity says the investigator "understands what they
# saw" (keeper.THEY_SAW); revision 25's said "what it saw". What a round's start brings
# before its order (a dying CON×5, bleeding, a pin) follows "round 2 begins 第2ラウンド開始"
# (turns.ROUND_BEGINS_SAID); revision 25 said it before the order line, as if in round 1.
ENGINE = 26
UNREAD_BEFORE = {("CO-CORE-1", "all_checks_003"), ("CO-BASE-4", "roll_then_halve"),
                 ("CO-BASE-12", "full_refill"), ("CO-TURN-1", "tie_break_die"),
                 ("CO-ARMOR-2", "pool_across_bullets")}  # listed but not read by format 1
# What :meth:`Fight.to_json` has written at each level of the file, all a file may hold: a key
# besides them (a hand-edited slip) would be dropped unsaid and lost at the next write. No key
# ever went away. Format 1 wrote no "engine" or "opening_engine", but a file without "format"
# that has them (a format-2 file whose "format" was deleted by hand) loads as before: they are
# unread there and written anew, so nothing typed is lost.
TOP_KEYS = ("format", "engine", "opening_engine", "profile", "settings", "entrants", "opening",
            "journal")
ENTRANT_KEYS = ("side", "sheet")
ENTRY_KEYS = ("action", "lines", "dice", "engine")


def _check_shape(data: Mapping[str, Any], rules: CocRules) -> None:
    """A fight file's top level, field by field: what is wrong is said in words, not in
    Python's ('int' object is not iterable). A key no version wrote, at its top or in an
    entrant, or a rule ID in its settings that no Default or profile row is kept for
    (an empty ``"CO-NOPE-1": {}`` too, which the settings check never sees) is refused by
    name with the near one offered, as a sheet's unknown key is: it was dropped unsaid."""
    refuse_unknown(data, TOP_KEYS, "not a saved coc fight")

    def wrong(field: str, should: str) -> DataError:
        return DataError(f"not a saved coc fight: {field} must be {should}, "
                         f"found {data.get(field)!r}")

    # A value of the wrong type (a list, a table) is checked as a type first: ``in`` a set
    # of names would raise TypeError (unhashable) for it.
    profile = data.get("profile")
    if not isinstance(profile, str) or profile not in {p.value for p in Profile}:
        raise wrong("profile", " or ".join(repr(p.value) for p in Profile))
    settings = data.get("settings", {})
    if not isinstance(settings, Mapping):
        raise wrong("settings", "a table of rule IDs")
    refuse_unknown(settings, {*rules.defaults.values, *rules.table}, "the fight's settings",
                   "rule")
    entrants = data.get("entrants")
    sides = {s.value for s in Side}
    if not isinstance(entrants, list) or not entrants or not all(
            isinstance(e, Mapping) and isinstance(e.get("sheet"), Mapping) for e in entrants):
        raise wrong("entrants", f"a list of tables, each with a sheet and a side "
                                f"({', '.join(sorted(sides))})")
    for n, entrant in enumerate(entrants, 1):
        refuse_unknown(entrant, ENTRANT_KEYS, f"entrant {n}", "field")
        side = entrant.get("side")
        if not isinstance(side, str) or side not in sides:
            raise DataError(f"not a saved coc fight: entrant {n}'s side must be "
                            f"{' or '.join(repr(s) for s in sorted(sides))}, found {side!r}")
    opening = data.get("opening")
    if not isinstance(opening, list) or not all(
            isinstance(d, list) and len(d) == 2 and all(
                isinstance(n, int) and not isinstance(n, bool) for n in d) for d in opening):
        raise wrong("opening", "a list of [sides, value] dice")
    if not isinstance(data.get("journal"), list):
        raise wrong("journal", "a list of entries")


def file_format(data: Mapping[str, Any]) -> int:
    """The format of a saved fight: 1 without the key, else a whole number this code reads
    (a ``"2"`` written by hand must not replay silently as format 1)."""
    value = data.get("format", 1)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FORMAT:
        fault = NewerFight if isinstance(value, int) and value > FORMAT else DataError
        raise fault(f"fight file format {value!r} is not one this companion reads "
                    f"(1 to {FORMAT})")
    return value


def format1_rules(rules: CocRules, settings: Mapping[str, Any]) -> CocRules:
    """The rules format 1 played under: the code that played it never read the
    :data:`UNREAD_BEFORE` settings, so they are left at their defaults."""
    unread = {rule: {k: v for k, v in keys.items() if (rule, k) not in UNREAD_BEFORE}
              for rule, keys in settings.items()}
    return rules.with_overrides(unread, "the fight's settings", limits=False)


def _engine(value: object, key: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > ENGINE:
        # r77coc: "write a whole number from 1 to 25" told the player to edit a newer
        # companion's fight, and the load offered `fight new --force` for it
        raise NewerFight(f"fight file {key} {value} is not one this companion reads (1 to "
                         f"{ENGINE})")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ENGINE:
        raise DataError(f"{key} {value!r}: write a whole number from 1 to {ENGINE}")
    return value


def kept_as_begun(rules: CocRules) -> list[str]:
    """A note for each of a saved fight's settings that today's checks refuse (a word none
    of its choices, a number outside its range), kept as the fight was begun with it."""
    defaults = rules.defaults
    return [f"{problem}; kept, as the fight was begun with it (a new --set is checked)"
            for problem in defaults.not_chosen() + defaults.out_of_range()]


def _format1_notes(rules: CocRules, played: int) -> list[str]:
    """What a format-1 file's player is told once: its past replays as it was played, new
    actions follow the fixed rules, and the settings that now mean something new."""
    past = "its 1 action replays as it was" if played == 1 else \
        f"its {played} actions replay as they were"
    notes = [f"this fight was begun by an older version: {past} played; new actions follow "
             "the fixed rules"]
    notes += kept_as_begun(rules)
    for rule, keys in rules.settings().items():
        for key, value in keys.items():
            if (rule, key) in UNREAD_BEFORE:
                notes.append(f"{rule}.{key} = {json.dumps(value)} was not read by the older "
                             "version; it holds for new actions")
    return notes
