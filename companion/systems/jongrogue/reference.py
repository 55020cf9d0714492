"""The book's tables as a quick reference for play on paper (``companion rules``).

Each table whole, as text and as JSON data: the encounter table (JR-ENC-1), the sleep
check (JR-SLEEP-3), the monsters (JR-MON-1) and the levels (JR-LVL-1); and a monster
found as a player names it, by its letter or its English or Japanese name.

>>> find_monster("ｓｎａｋｅ").name
'大蛇 (snake)'
>>> find_monster("大蛇").id, find_monster("Ice-Monster").id
('S', 'I')
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from companion.systems.jongrogue.profile import DEFAULT_PROFILE, Profile
from companion.systems.jongrogue.tables import TABLES, Ability, Monster


@dataclass(frozen=True, slots=True)
class Reference:
    """One table as ``companion rules`` prints it: its data for ``--json``, and its text."""

    data: dict[str, Any]
    text: str


def _folded(name: str) -> str:
    """A name as it is compared: full-width letters folded (ｓｎａｋｅ), any case, and a
    hyphen or an underscore read as the space it stands for (ice-monster)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(text.replace("-", " ").replace("_", " ").split())


def find_monster(name: str) -> Monster | None:
    """JR-MON-1: the monster ``name`` names, by its letter (S), its English name (snake)
    or its Japanese name (大蛇); None when it names none."""
    wanted = _folded(name)
    for monster in TABLES.monsters.values():
        if wanted in (_folded(monster.id), _folded(monster.name_en), _folded(monster.name_ja)):
            return monster
    return None


def monster_list() -> str:
    """Every monster as a line ``S 大蛇 (snake)``, by letter: the names a player may give."""
    return "\n".join(f"{m.id} {m.name}" for m in sorted(TABLES.monsters.values(),
                                                       key=lambda m: m.id))


def monster_damage(m: Monster) -> int | str:
    """JR-MON-1: a monster's damage as the table gives it, a number or ``2d9``."""
    return f"{m.damage_d9}d9" if m.damage_d9 else m.damage


def monster_data(m: Monster) -> dict[str, Any]:
    """JR-MON-1: one row of the monster table, as JSON data."""
    ability = TABLES.ability_names.get(m.ability, ("", ""))
    return {
        "id": m.id, "name_ja": m.name_ja, "name_en": m.name_en, "attack": m.attack,
        "damage": monster_damage(m), "xp": m.xp,
        "drops": m.drops, "floors": [m.floors_from, m.floors_to or None],
        "sleep_ez": m.sleep_ez.value, "sleep_plus": m.sleep_plus.value,
        "ability": m.ability.value, "ability_ja": ability[0], "ability_en": ability[1],
    }


def _monster_line(m: Monster) -> str:
    floors = (f"floors {m.floors_from}–{m.floors_to}" if m.floors_to
              else f"floor {m.floors_from} and deeper")
    sleep = TABLES.sleep_names
    plus = sleep[m.sleep_plus.value]  # the Plus table writes 眠 where the EZ one writes 睡眠
    line = (f"{m.id} {m.name}: attack {m.attack}, damage {monster_damage(m)}, XP {m.xp}, "
            f"drops {m.drops}, {floors}, EZ {sleep[m.sleep_ez.value].text}, "
            f"Plus {plus.en} ({plus.short_ja})")
    if m.ability is not Ability.NONE:
        ability_ja, ability_en = TABLES.ability_names[m.ability]
        line += f", {ability_ja} ({ability_en})"
    return line


def monster_table(monsters: list[Monster]) -> Reference:
    """JR-MON-1: the monster table's rows for ``monsters``, in the book's order."""
    text = ["Monsters (JR-MON-1): attack, damage, XP, drops, the floors each is met on, "
            "its sleep columns (EZ, and Plus with the sleep check) and its ability"]
    text += [_monster_line(m) for m in monsters]
    return Reference({"monsters": [monster_data(m) for m in monsters]}, "\n".join(text))


def encounter_table(floors: list[int], ranks: list[int]) -> Reference:
    """JR-ENC-1: the monster letter of each floor (row) and monster tile rank (column), and
    the monsters they name. A floor past the table's last plays the last row."""
    last = len(TABLES.encounter)
    rows = {floor: [TABLES.monster_for(floor, rank).id for rank in ranks] for floor in floors}
    shown = sorted({mid for row in rows.values() for mid in row})
    text = ["Encounter (JR-ENC-1): the monster a monster tile gives, by floor (row) and the "
            "tile's rank (column)",
            "floor  " + " ".join(f"{rank:>2}" for rank in ranks)]
    text += [f"{floor:>5}  " + " ".join(f"{mid:>2}" for mid in row)
             for floor, row in rows.items()]
    if floors[-1] >= last:
        text.append(f"Floors past {last} play floor {last}'s row.")
    text += [f"{mid} {TABLES.monsters[mid].name}" for mid in shown]
    data = {"floors": {str(floor): row for floor, row in rows.items()},
            "monsters": {mid: {"name_ja": TABLES.monsters[mid].name_ja,
                               "name_en": TABLES.monsters[mid].name_en} for mid in shown}}
    return Reference(data, "\n".join(text))


# JR-SLEEP-3 [DEFAULT]: the seed's sleep check has a row for each rank of the top-left tile
# alone; what an honour tile there means is the companion's, and said so.
HONOUR_CORNER_DEFAULT = "the companion's default, the profile's map.non_number_corner_sleeps"


def sleep_table(rings: list[int], honour_corner_sleeps: bool) -> Reference:
    """JR-SLEEP-3: the sleep check's cells for each count of rings of stealth in ``rings``:
    awake (A) or asleep (.) by the rank of the room's top-left tile (row) and of the
    monster tile (column). A top-left honour tile decides alone, as the profile says
    (map.non_number_corner_sleeps, [DEFAULT])."""
    corner = "asleep" if honour_corner_sleeps else "awake"
    text = ["Sleep check (JR-SLEEP-3, Plus): a monster whose Plus column is 眠/起 or 熟睡/起",
            "is awake (A, 起) or asleep (., 眠 or 熟睡 as its column says), by the rank of the",
            "room's top-left tile (row) and of the monster tile (column); a top-left honour",
            f"tile: {corner} ({HONOUR_CORNER_DEFAULT}).",
            "In EZ, or another Plus column, the monster's column decides (companion rules",
            "monsters)."]
    data: dict[str, Any] = {"honour_corner": corner, "rings": {}}
    for worn in rings:
        cells = ["".join("A" if awake else "." for awake in row)
                 for row in TABLES.sleep_awake[min(worn, len(TABLES.sleep_awake) - 1)]]
        data["rings"][str(worn)] = cells
        text.append(f"{worn} ring{'' if worn == 1 else 's'} of stealth (隠密の指輪) worn:")
        text.append("corner  " + " ".join(str(rank) for rank in range(1, 10)))
        text += [f"{row:>6}  " + " ".join(line) for row, line in enumerate(cells, 1)]
    return Reference(data, "\n".join(text))


def level_table(profile: Profile) -> Reference:
    """JR-LVL-1: the XP each level needs, and its max HP in ``profile`` ([DEFAULT])."""
    levels = [{"level": level, "xp": xp, "max_hp": profile.max_hp(level)}
              for level, xp in enumerate(TABLES.level_xp, 1)]
    text = ["Levels (JR-LVL-1): the XP a level needs, and its max HP (the profile's "
            "pc.max_hp_base and pc.max_hp_per_level)",
            "level      XP  max HP"]
    text += [f"{row['level']:>5}  {row['xp']:>6}  {row['max_hp']:>6}" for row in levels]
    return Reference({"levels": levels}, "\n".join(text))


@dataclass(frozen=True, slots=True)
class FixedDefault:
    """A choice that is part of the companion itself, not a profile key: a [DEFAULT] of
    spec/jongrogue.md the mat and the reader are built for (:data:`FIXED_DEFAULTS`), or the
    one reading played of a [SEED] rule the book leaves open (:data:`FIXED_READINGS`)."""

    rule: str
    text: str


FIXED_DEFAULTS = (
    FixedDefault("JR-TILE-1", "tiles are written in MPSZ notation (1m–9m 萬子, 1p–9p 筒子, "
                 "1s–9s 索子, 1z–7z 字牌), a red five as a 5"),
    FixedDefault("JR-WALL-1", "when the wall (山) is empty, the discards (捨て牌) are "
                 "shuffled back into it"),
    FixedDefault("JR-DICE-1", "in a 1d9, an honour tile that is neither the critical nor "
                 "the fumble is set aside and another tile drawn"),
    FixedDefault("JR-MAP-1", "a floor is 9 rooms (部屋) in a 3×3 grid, as the mat lays them, "
                 "the start room a 1d9"),
    FixedDefault("JR-MAP-2", "a room is revealed as 4 tiles laid 2×2, the mat's room slots"),
    FixedDefault("JR-MAP-3", "9 rooms revealed with no stairs (階段): the last room "
                 "revealed holds them"),
    FixedDefault("JR-MULTI-1", "each attacker but the one the PC attacks gets its own "
                 "defend check (防御), 1d9 >= its rate, failing it its damage"),
    FixedDefault("JR-PC-1", "the PC starts with no rings (指輪)"),
    FixedDefault("JR-ITEM-1", "rings found are uncursed; a weapon or armour found replaces "
                 "the one equipped only if the player chooses"),
)

# The companion's readings where the book is unclear, or its page is lost (Plus's 倍速状態
# and 透明状態): rules56 #5, jrdefaults57 F2, rules61j R1-R3 and review61c F3 asked for each
# to be named.
FIXED_READINGS = (
    FixedDefault("JR-FLEE-1", "no flight (逃げる) from a floor's start room (開始部屋) the "
                 "PC has not left (it came down the stairs into it), and from revision 10, with "
                 "monsters following, none from one it fled back into whose way back is only "
                 "the room just fled from (JR-FLEE-2 (back)): the PC is cornered; fled back "
                 "into with none following, it is fled from out by the door the PC came in by "
                 "(JR-FLEE-1 (door)); walked back into, it is fled from back the way the PC "
                 "came (来た道), as any room is, the route walked being kept whole (from "
                 "revision 9); revisions 9 and before gave no flight from a start room while "
                 "the route back was empty, so none from one fled back into, and revision 8 "
                 "and before none from one walked back into"),
    FixedDefault("JR-FLEE-1 (door)", "from revision 10 a flight goes out through the door the "
                 "PC came in by (ドアから通路に出て, l.429), and a walk back (ドアの上から通路に"
                 "引き返せば, l.126) is a walk to the room behind that door: after a flight into "
                 "a room the PC stands on its door to the room fled from, so a second flight "
                 "does not leave by the far door past a monster woken there (別のドアから通路に"
                 "出るには…全て倒す必要, l.130-131), and a walk on to the route's older room "
                 "crosses the room (部屋の中); revision 9 and before took the route's last room "
                 "for both"),
    FixedDefault("JR-FLEE-1 (turn)", "a flee turn's defence (防御) is rolled with the PC still "
                 "in the room, before it leaves; a freeze (凍結) or bind (拘束) from that "
                 "defence does not stop the flight: the flight is the turn's action, chosen "
                 "and done first, and the seed has the defence follow an action other than an "
                 "attack (攻撃以外を実行したら…防御, l.349); JR-PC-3's bind holds from the next "
                 "choice on: a PC already bound (or frozen) when an action is chosen cannot "
                 "flee"),
    FixedDefault("JR-RANGED-2 (ready)", "readying the bow or the shuriken (弓, 手裏剣) is "
                 "offered only outside melee (近接戦闘): before it, in ranged combat, or with "
                 "no monster attacking, and from revision 7 not where a pursued flight ends; "
                 "the seed lists equipping (装備する) among melee's actions too (l.345), but a "
                 "readied ranged weapon serves only ranged combat, which opens before melee"),
    FixedDefault("JR-RANGED-2 (door)", "moving onto the door (ドアの上に移動する), which ends "
                 "ranged combat (遠隔戦闘) as closing in (近接戦闘する) does, is offered only "
                 "to a PC in the room (部屋の中), from revision 8: on the door there is no move "
                 "to make, and revision 7 offered it there as a second closing in"),
    FixedDefault("JR-STATE-2 (gold)", "an awake gold-lover (金塊好き) sitting on its gold "
                 "(金塊) does not hold the room's other doors or its stairs (階段), from revision "
                 "3: the seed lets the PC move freely (自由に移動や行動が出来ます, l.433) when "
                 "no monster attacks for sleeping or sitting on gold, beside 「起きている"
                 "モンスターを、全て倒す必要」 (l.131)"),
    FixedDefault("JR-STATE-1 (blow)", "a blow (攻撃) at a monster not awake from the door "
                 "(ドアの上) first steps into the room (部屋の中), waking every 睡眠 monster "
                 "there, and a medusa (睨み) then in the PC's room gazes before the blow, from "
                 "revision 5: the seed's attack wakes only a 熟睡 one (l.132-133), a 睡眠 one "
                 "being woken by the PC entering (l.128-129)"),
    FixedDefault("JR-STATE-1 (shot)", "a shot (遠隔攻撃) from the door wakes only the monster "
                 "shot at: it is no step into the room, ranged combat being fought from where "
                 "the PC stands (ドアの上に移動する is one of its options, l.411)"),
    FixedDefault("JR-AB-DRAIN (defend)", "a fumbled defence (防御) against a level drainer "
                 "(レベル・ドレイン, the wraith レイス) drains a level as a fumbled blow does, "
                 "from revision 5: one 1d9 decides attack and defence, so 近接攻撃でのファンブル "
                 "(l.279) is read as the monster's blow too"),
    FixedDefault("JR-AB-GAZE (door)", "the medusa (メデューサ) gazes (睨み) only at a PC in its "
                 "room (部屋の中), not at one on the door (ドアの上), from revision 4: "
                 "「PCがモンスターと同じ部屋にいる時」 (l.311)"),
    FixedDefault("JR-PC-3 (shot)", "a confused (混乱) PC's shot (遠隔攻撃) may be lost as its "
                 "blow may: it first makes the attack turn's confused_act check, and on a "
                 "failure the turn is lost, the arrow or shuriken kept, from revision 3"),
    FixedDefault("JR-PC-3 (door)", "a bound (拘束) PC on the door (ドアの上) is held where it "
                 "stands: it cannot step into the room (部屋の中) nor take (拾う) from the door, "
                 "from revision 3, nor, from revision 5, strike (攻撃) or shoot (遠隔攻撃) a "
                 "monster not awake, its blow at one being a step in (JR-STATE-1 (blow)); with "
                 "nothing left to do, its turns pass with break-free checks until one "
                 "succeeds. The seed names 拘束状態 (l.275) but not what it stops: JR-PC-3 "
                 "stops moving and fleeing; the shot at a sleeper goes with the blow, though a "
                 "shot from the door is no step in (JR-STATE-1 (shot))"),
    # Its own entry, not the door's (reviewr70 NIT 3): it holds wherever the PC is bound,
    # and every game it changed was bound in the room.
    FixedDefault("JR-PC-3 (unattacked)", "a bound (拘束) PC that no monster attacks (its "
                 "binder dead, say), in the room (部屋の中) or on the door (ドアの上), is not "
                 "asked what to do, from revision 11: its turns pass with break-free checks "
                 "(1d9 >= bound_escape) until one succeeds, and it is asked once free, so no "
                 "potion (回復薬) is drunk nor ring (指輪) taken off to reach a check; nothing "
                 "happens in those turns, so every option it had while bound is offered again "
                 "once free, with the moves. Revision 10 and before asked it while bound. The "
                 "seed names 拘束状態 (l.275) but not what it stops; JR-PC-3 stops moving and "
                 "fleeing, and a frozen (凍結) PC's checks, one a turn and no choice, are the "
                 "seed's own model"),
    FixedDefault("JR-FLEE-2", "pincered (挟み撃ち), the places for attackers (前後最大4体 in a "
                 "room) go half to the monsters in front and half to those following; a side "
                 "with fewer gives its places to the other"),
    FixedDefault("JR-FLEE-2 (back)", "from revision 10 a flight with monsters following "
                 "(追跡: モンスターはPCの後を追いかけて来ます, l.438) goes on back along the "
                 "route the PC really walked (来た道, walks back included), never back to the "
                 "room just fled from: the pursuers stand between the PC and that door "
                 "(その方向へ動かします, l.439-440), so with no other way back the PC is cornered "
                 "and fights; it crosses only a room the PC crossed before, whose 睡眠 monsters "
                 "woke then (l.128-129); a flight back into a room takes that step off the "
                 "way walked, where a walk back into it is kept: a later flight from that room "
                 "with monsters following goes back only the way the PC had walked before that "
                 "flight, even if the PC has crossed the room since, and with no such way (as "
                 "in a start room the PC has only fled back into, never walked back into) the "
                 "PC is cornered; revision 9 ran back and forth through its pursuers once for "
                 "every walk back"),
    FixedDefault("JR-STATE-2 (stairs)", "Stairs (階段) chosen from the door (ドアの上) of a "
                 "room whose monsters sleep (睡眠) first steps into the room (部屋の中), as the "
                 "stairs lie in it, waking them (l.128-129); awake, they hold the way out as "
                 "they hold its other doors (l.130-131), so the PC stays and fights, and the "
                 "table's screen says the stairs were not taken"),
    FixedDefault("JR-ITEM-1 (kinds)", "items are told apart by kind, the profile's item of a "
                 "tile's rank: from revision 12 each kind of potion (回復薬) held is offered to "
                 "drink and the one chosen is drunk, and shuriken (手裏剣) are kept by kind, "
                 "each thrown at its own attack, the first kind found readied until another "
                 "is (ready:<tile>); revision 11 and before drank the last potion held and "
                 "threw every shuriken at the attack of the kind found last"),
    FixedDefault("JR-AB-DRAINSTR (options)", "with PCの状態ルール (pc_states) and not 強さルール "
                 "(strength), the vampire's (バンパイア) hit makes the 強さドレイン判定 and a "
                 "failure lowers strength (強さ), as the seed's Plus text says under PCの状態"
                 "ルール (l.326-332), not EZ's gold (金塊) loss; strength counts in the monster "
                 "rate only under 強さルール (l.372-375), so that loss changes nothing until "
                 "then, and the log line says so"),
    FixedDefault("JR-AB-GOLDLOVER", "a gold-lover (金塊好き) sits on the first gold pile (金塊) "
                 "no monster sits on: top-left, top-right, bottom-left, bottom-right; with "
                 "more gold-lovers than piles they share one"),
    FixedDefault("JR-AB-STEALITEM", "a thief (アイテム盗み) taking a ring (指輪) takes a spare "
                 "one before a worn one of the same kind"),
    FixedDefault("JR-AB-STEALITEM (kinds)", "what the PC holds most of (一番個数の多い物) "
                 "counts arrows (矢), shuriken (手裏剣) and potions (回復薬) each across their "
                 "kinds (5 shuriken and 3 heavy ones are 8 shuriken, more than 7 arrows), "
                 "rings (指輪) by kind, a tie among ring kinds going to a kind held spare (in "
                 "the pack) before one only worn, spare rings in the order they went into the "
                 "pack, worn ones in the order put on; from revision 12 the thief takes the "
                 "readied kind of shuriken first and the potion held last, and the log names "
                 "the kind taken"),
    FixedDefault("JR-AB-MIMIC", "EZ: a mimic (擬態) whose draw is no item is defeated by that "
                 "hit (Plus seals it, 封魔)"),
    FixedDefault("JR-AB-HASTE", "Plus (its page of 倍速状態 lost): a hasted (倍速) monster "
                 "attacks twice a turn (the profile's hasted_attacks) and, unlike in EZ, may "
                 "be shot (遠隔攻撃)"),
    FixedDefault("JR-AB-INVISIBLE", "Plus (its page of 透明状態 lost): as in EZ, an invisible "
                 "(透明) monster cannot be attacked until it has attacked the PC"),
)


def _open_keys(profile: Profile) -> tuple[FixedDefault, ...]:
    """The profile's keys for what the seed leaves wholly unsaid, each with its value read
    now (rules70 NIT 5: gold's floor was a number in the engine that no list named)."""
    return (
        FixedDefault("pc.gold_min", f"{profile.gold_min}: gold (金塊) lost to an ability "
                     "(毒攻撃, 拘束, 睨み, 強さドレイン, 金塊盗み) stops here; the seed takes "
                     "10, 100 or floor × 10 and never says what a PC with less loses"),
    )


def defaults_table(profile: Profile, played: str | None) -> Reference:
    """Where the companion's own choices ([DEFAULT]) live: the profile (``played``: the
    user's file read over the packaged one, None for the packaged one alone), and the few
    fixed in the companion itself (:data:`FIXED_DEFAULTS`), each with its rule; then the
    readings of the book fixed in it (:data:`FIXED_READINGS`)."""
    packaged = DEFAULT_PROFILE.source
    text = ["The companion's own choices ([DEFAULT] in the spec), not the book's rules.",
            "In the profile, each key beside its rule: every number and tile role of",
            f"{packaged}; a file of yours (--profile FILE,",
            "or config.toml's game.profile) changes them.",
            f"Read now: {played or 'the packaged profile'}.",
            "Fixed (not a profile key), parts of the companion itself:"]
    width = max(len(d.rule) for d in FIXED_DEFAULTS)
    text += [f"  {d.rule:<{width}}  {d.text}" for d in FIXED_DEFAULTS]
    keys = _open_keys(profile)
    text += ["In the profile, where the seed says nothing at all (the value read now):"]
    text += [f"  {d.rule}  {d.text}" for d in keys]
    # The closing part in the words and layout of genso's, coc's and events' lists
    # (companion.systems.defaults.readings_text, not imported: the compiled core would then
    # have to be rebuilt for every edit of that module); the JSON's shape is theirs too.
    text += ["", "Fixed readings (the companion's choice where the seed is unclear; no setting "
             "changes them):"]
    width = max(len(d.rule) for d in FIXED_READINGS) + 1
    text += [f"{d.rule:<{width}} {d.text}" for d in FIXED_READINGS]
    data = {"packaged_profile": packaged, "profile": played, "name": profile.name,
            "profile_keys": [{"rule": d.rule, "text": d.text} for d in keys],
            "fixed": [{"rule": d.rule, "text": d.text} for d in FIXED_DEFAULTS],
            "fixed_readings": {d.rule: d.text for d in FIXED_READINGS}}
    return Reference(data, "\n".join(text))
