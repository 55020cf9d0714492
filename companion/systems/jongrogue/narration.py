"""Events in words: English with the Japanese names beside (spec §9).

>>> from companion.systems.jongrogue.events import Event, Kind
>>> line = describe(Event(Kind.CHECK, {
...     "what": "melee vs 大蛇", "target": 3, "raw": 3,
...     "terms": [["attack", 6], ["level", -1], ["strength", 0], ["weapon", -2]],
...     "tiles": ["2z", "6m"], "value": 6, "critical": False, "fumble": False,
...     "success": True}))
>>> for part in line.strip().split("; "):
...     print(part)
melee 近接攻撃 vs 大蛇: rate 3 = 6 attack 攻撃力 − 1 level レベル − 0 strength 強さ − 2 weapon 武器
drew 2z (set aside), 6m → 6 ≥ 3 → success 成功
"""

from __future__ import annotations

from typing import Any

from companion.errors import InvalidNotation
from companion.systems.jongrogue.checks import split_d9s
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.profile import (
    DEFAULT_PROFILE,
    NO_STRENGTH_LOSS_AT,
    ItemKind,
    Option,
    Profile,
    Ring,
)
from companion.systems.jongrogue.tables import TABLES, Ability
from companion.systems.jongrogue.tiles import Tile

_RINGS = {  # a ring event names its kind (profile.Ring), whatever tile it is on
    "stealth": "隠密の指輪 (ring of stealth)", "strength": "増強の指輪 (ring of strength)",
    "armour_protection": "鎧保護の指輪 (ring of armour protection)",
    "adornment": "飾りの指輪 (ring of adornment)",
}
_VERDICT = {True: "success 成功", False: "failure 失敗"}
#: A check whose ``what`` (as logged) holds no Japanese, and the word its line adds early: the
#: Log panel cuts the end of a long line (its verdict, 成功 or 失敗).
_CHECK_JA = {"ranged combat goes on": "遠隔戦闘"}
#: A check against a monster, as logged, and its head with the seed's word (l.351-377) beside.
_CHECK_HEADS = (("melee vs ", "melee 近接攻撃 vs "), ("defend vs ", "defend 防御 vs "),
                ("ranged (", "ranged 遠隔攻撃 ("))
#: A rate's terms (JR-RATE-1) and the seed's words for them: 攻撃力 - レベル - 強さ - 武器の攻撃力.
_TERM_JA = {"attack": "攻撃力", "level": "レベル", "strength": "強さ", "weapon": "武器"}
_READIED = {"bow": "弓", "shuriken": "手裏剣"}
#: What a thief took, as its event names it (JR-AB-STEALITEM), by the item names of the
#: packaged profile: "arrows (矢)", "shuriken (手裏剣)", "healing potion (回復薬)". A ring is
#: logged by its tile alone and named by the ring of the profile's item of that rank (as
#: :data:`_RINGS` names it), its tile beside (jr68 NIT 1; reviewj68 DEFECT 1: a ``ring`` key
#: in the event and older logs no longer replayed).
_STOLEN = {what: next(f"{i.name_en} ({i.name_ja})" for i in DEFAULT_PROFILE.items.values()
                      if i.kind is kind)
           for what, kind in (("arrows", ItemKind.ARROWS), ("shuriken", ItemKind.SHURIKEN),
                              ("potions", ItemKind.POTION))}
#: Why gold changed, as its event logs it, with the seed's word beside (jr68 NIT 2): the
#: abilities' names of l.231-327 (毒攻撃, 拘束, 金塊盗み, 睨み, 強さドレイン), the
#: leprechaun's (レプラコーン) gold of l.256, said "leprechaun" alone, the line saying "Gold
#: 金塊" already, so that it keeps to one row of the 800x480 Log panel (reviewj68 NIT 5), and a
#: gold pile, 金塊の牌 (l.244).
_GOLD_WHY = {"poison": "poison 毒攻撃", "held": "held 拘束", "stolen": "stolen 金塊盗み",
             "gaze": "gaze 睨み", "strength drain": "strength drain 強さドレイン",
             "leprechaun's gold": "leprechaun レプラコーン"}
_GOLD_PILE = "gold pile "
#: A turn's action as the turn event logs it, where it is not a verb the line can say as it is.
_ACTIONS = {"frozen": "stay frozen (凍結中)"}
#: What the mimic's tile made of it (JR-AB-MIMIC), with the seed's word beside.
_MIMIC = {"item": "item アイテム", "no item": "no item なし", "sealed": "sealed 封魔"}
#: What another ability did, as its event logs it (``effect``, or the breath's ``why``),
#: with the seed's words beside (a78journey NIT 3: "毒攻撃 (poison attack): none" was the one
#: line of a game with no Japanese of its own, and said no reason; the seed's own words, not
#: made-up ones as レベルダウン, r78journey NIT 9). A strength loss with no
#: effect (``none``) is :func:`_no_strength_loss`'s.
_EFFECT = {
    "vanished": "vanished 消えた",  # JR-AB-STEALGOLD, JR-AB-STEALITEM: 「モンスターは消えます」
    "level down": "level −1 レベルを1つ下げる",  # JR-AB-DRAIN: 「PCのレベルを1つ下げます」
    "none (level ≤ 5)": "no effect 無効果 (level ≤ 5 レベル5以下)",  # JR-AB-DRAIN
    "strength -1": "strength −1 強さを1つ減らす",  # JR-AB-POISON, JR-AB-DRAINSTR
    "off the gold, sealed": "off the gold 金塊から降ろし, sealed 封魔",  # JR-AB-GOLDLOVER
    "flee": "as the PC flees 逃げている間",  # JR-AB-BREATH on a flight (JR-FLEE-2)
    "ranged": "at range 遠隔攻撃",  # JR-AB-BREATH at a shot that missed (JR-RANGED-*)
}
_STATES = {
    "frozen": "frozen (凍結)", "bound": "bound (拘束)", "confused": "confused (混乱)",
    "blind": "blind (盲目)", "floating": "floating (浮遊)",
}


def monster_name(monster_id: str) -> str:
    return TABLES.monsters[monster_id].name if monster_id in TABLES.monsters else monster_id


def format_terms(terms: list[list[Any]]) -> str:
    """``6 attack 攻撃力 − 1 level レベル − 2 weapon 武器``: a rate's terms as the player
    reads them, the seed's word beside each."""
    out = ""
    for i, (english, value) in enumerate(terms):
        name = f"{english} {_TERM_JA[english]}" if english in _TERM_JA else english
        if i == 0:
            out += f"{value} {name}"
        else:
            out += f" {'−' if value <= 0 else '+'} {abs(value)} {name}"
    return out


def cause_name(cause: str) -> str:
    """What ended a lost run, as a name: a monster id, "frozen", or "wall_exhausted"
    (an outcome with no cause but the empty wall)."""
    if cause == "frozen":
        return "frozen to death (凍死)"
    if cause in ("", "wall_exhausted"):
        return "the wall ran out of tiles (山牌切れ)"
    return monster_name(cause)


def end_of_run(result: str, cause: str) -> str:
    """How a lost run ended, as a phrase that reads right for every cause.

    >>> end_of_run("death", "frozen"), end_of_run("death", "S")
    ('frozen to death (凍死)', 'killed by 大蛇 (snake)')
    >>> end_of_run("wall_exhausted", "")
    'the wall ran out of tiles (山牌切れ)'
    """
    if result == "death" and cause != "frozen":
        return f"killed by {cause_name(cause)}"
    return cause_name(cause)


def _turn(d: dict[str, Any]) -> str:
    """``-- turn 2 ターン2: the PC will fight #1 (floor 1 room 7, on the door); …``: what the
    PC does first, as the Log panel cuts the line's end at 800x480."""
    who = ", ".join(f"#{uid}" for uid in d["attackers"]) or "none"
    where = {"door": "on the door", "room": "in the room", "corridor": "in the corridor"}
    pincer = ", pincered (挟み撃ち)" if d["pincer"] else ""
    action = _ACTIONS.get(d["action"], d["action"])
    action = f"{action} #{d['target']}" if d["target"] else action
    return (f"-- turn {d['turn']} ターン{d['turn']}: the PC will {action} (floor {d['floor']} "
            f"room {d['room']}, {where[d['position']]}{pincer}); "
            f"may attack: {who} (at most {d['cap']})")


def seed_head(what: str) -> str:
    """A check against a monster with the seed's word beside its head (l.351-377), in its
    log line and its tile prompt alike; any other ``what`` as it is.

    >>> seed_head("melee vs 大蛇"), seed_head("thaw (凍結)")
    ('melee 近接攻撃 vs 大蛇', 'thaw (凍結)')
    """
    for logged, shown in _CHECK_HEADS:
        if what.startswith(logged):
            return shown + what[len(logged):]
    return what


def check_what(what: str, monster_id: str) -> str:
    """What a check is for, its monster named in both languages (the logged ``what`` holds
    the Japanese name only).

    >>> check_what("melee vs 大蛇", "S"), check_what("thaw (凍結)", "")
    ('melee 近接攻撃 vs 大蛇 (snake)', 'thaw (凍結)')
    >>> check_what("ranged combat goes on", "")
    'ranged combat goes on (遠隔戦闘)'
    """
    if what in _CHECK_JA:
        return f"{what} ({_CHECK_JA[what]})"
    what = seed_head(what)
    monster = TABLES.monsters.get(monster_id)
    if monster is None or monster.name_ja not in what or monster.name in what:
        return what
    return what.replace(monster.name_ja, monster.name, 1)


def _check(d: dict[str, Any]) -> str:
    target = d["target"]
    head = f"{check_what(d['what'], d.get('monster', ''))}: "
    if d["terms"]:
        clamp = f" = {d['raw']}, clamped to 1..9" if d["raw"] != target else ""
        head += f"rate {target} = {format_terms(d['terms'])}{clamp}; "
    drew = _drew(d["tiles"], d["value"], d["critical"], d["fumble"])
    verdict = _VERDICT[d["success"]]
    sign = "≥" if d["value"] >= target else "<"
    if (d["value"] >= target) != d["success"]:
        # JR-DICE-2: a fumble fails (a critical succeeds) whatever the number says
        kind, outcome = ("critical", "succeeds") if d["critical"] else ("fumble", "fails")
        verdict = f"a {kind} always {outcome} → {verdict}"
    return f"{head}drew {drew} {sign} {target} → {verdict}"


def _drew(tiles: list[str], value: int, critical: bool, fumble: bool) -> str:
    """A check's 1d9 as drawn (JR-DICE-1), each tile marked: the honours set aside, then
    the deciding tile and what it counts, the profile's critical or fumble named (its value
    the profile's). A 2d9's line marks its tiles shorter (:func:`_rolls`).

    >>> _drew(["6z", "7z"], 9, True, False), _drew(["4s"], 4, False, False)
    ('6z (set aside), 7z → critical (中) → 9', '4s → 4')
    """
    drew = ", ".join(f"{t} (set aside)" for t in tiles[:-1])
    drew = (drew + ", " if drew else "") + tiles[-1]
    if critical or fumble:
        face = (f"{'critical' if critical else 'fumble'} "
                f"({Tile.from_notation(tiles[-1]).name_ja}) → {value}")
    else:
        face = str(value)
    return f"{drew} → {face}"


def _rolls(rolls: list[str], table: int, profile: Profile) -> str:
    """A 2d9's tiles (JR-MON-1 damage 2d9, logged in one list), each 1d9 in its brackets,
    summed: its honours set aside, then its deciding tile, a number tile counting its rank
    and the profile's critical or fumble (JR-DICE-1) named with what it counts (a76jrcore
    NIT 1: ``2d9: 2z, 4s, 8m`` did not say 2z was set aside, nor a critical's 9). Shorter
    than a check's marking, which left the damage out of the Last check panel at 800x480
    (r76jr DEFECT 2); the brackets keep the ``+`` between the two 1d9s, not a tile (NIT 4).
    Tiles that the profile's critical and fumble do not read as the logged sum (a log of a
    game played under another profile, told with the packaged one) are listed as logged.

    >>> _rolls(["6z", "7z", "5z"], 10, DEFAULT_PROFILE)
    '[6z set aside, 7z 中 9] + [5z 白 1]'
    >>> _rolls(["2z", "4s", "8m"], 12, DEFAULT_PROFILE)
    '[2z set aside, 4s] + [8m]'
    >>> _rolls(["6z", "7z", "5z"], 12, DEFAULT_PROFILE)
    '6z, 7z, 5z'
    """
    try:
        d9s = split_d9s([Tile.from_notation(t) for t in rolls], profile)
    except InvalidNotation:
        d9s = None
    if not d9s or sum(d9.value for d9 in d9s) != table:
        return ", ".join(rolls)
    marked = []
    for d9 in d9s:
        *aside, last = d9.tiles
        face = f"{last} {last.name_ja} {d9.value}" if d9.critical or d9.fumble else str(last)
        marked.append("[" + ", ".join([*(f"{t} set aside" for t in aside), face]) + "]")
    return " + ".join(marked)


#: A monster's Plus states an encounter line names, by the ENCOUNTER event's key.
ENCOUNTER_STATES = (("hasted", "hasted (倍速)"), ("invisible", "invisible (透明)"))


def describe(event: Event, profile: Profile | None = None,
             options: frozenset[Option] | None = None) -> str:
    """One line for the turn-by-turn account; ``profile``, the game's (the packaged one if
    None), names the ring a thief took by its tile (its items by rank, JR-ITEM-1);
    ``options``, the game's EZ Plus options (None: not known), say whether a strength
    drained counts anywhere (JR-AB-DRAINSTR (options))."""
    d, k = event.data, event.kind
    if k is Kind.FLOOR:
        return f"=== Floor {d['floor']} (第{d['floor']}階層) ==="
    if k is Kind.START_ROOM:
        return f"Start room {d['room']} 開始部屋{d['room']} (drew {', '.join(d['tiles'])})"
    if k is Kind.RESHUFFLE:
        return f"The wall is empty: {d['tiles']} discards shuffled back into it (山牌)"
    if k is Kind.ROOM:
        tiles = " ".join(d["tiles"])
        stairs = ", stairs down (階段)" if d["stairs"] else ""
        return (f"Room {d['room']} revealed 部屋{d['room']}: {tiles} "
                f"[{', '.join(d['roles'])}]{stairs}")
    if k is Kind.ENCOUNTER:
        extra = " sitting on gold" if d["on_gold"] else ""
        check = d["sleep_check"]
        how = (
            f" (sleep check: row {check['row']}, column {check['column']}, "
            f"{check['rings']} ring(s))" if check else ""
        )
        # JR-AB-HASTE / JR-AB-INVISIBLE (Plus), JR-STATE-3: the states the seed has the player
        # mark on the monster with a post-it, said as the screen shows them, so that two
        # defend checks a turn, or a monster unseen, are explained in the log (rules70 NIT 4).
        # An event logged before they were kept has neither key.
        states = "".join(f", {said}" for key, said in ENCOUNTER_STATES if d.get(key))
        return (
            f"Monster #{d['uid']}: {d['name_ja']} ({d['name_en']}), "
            f"{TABLES.sleep_names[d['sleep']].text}{how}{extra}{states}"
        )
    if k is Kind.MOVE:
        if d.get("flee"):
            return f"The PC flees room {d['room']} into the corridor (逃げる)"
        if d["position"] == "door":
            return f"The PC is on the door of room {d['room']} (部屋{d['room']}のドア)"
        return f"The PC is in room {d['room']} (部屋{d['room']}の中)"
    if k is Kind.WAKE:
        return f"{monster_name(d['monster'])} #{d['uid']} wakes up ({d['why']})"
    if k is Kind.TURN:
        return "  " + _turn(d)
    if k is Kind.CHECK:
        return "  " + _check(d)
    if k is Kind.DAMAGE:
        table = d["table"]
        rolls = _rolls(d["rolls"], table, profile or DEFAULT_PROFILE) if d["rolls"] else ""
        rolled = f" (2d9: {rolls})" if rolls else ""
        how = "breathes fire on" if d["breath"] else "hits"
        sum_ = f"{table}{rolled} − {d['defence']} armour" if table else "no damage (table 0)"
        # A killing blow takes the PC below 0 in the event (the log and replay keep it): the
        # line says the 0 the sheet and the header show.
        hp = max(0, d["hp"])
        return f"  {monster_name(d['monster'])} {how} the PC: {sum_} = {d['amount']} → HP {hp}"
    if k is Kind.HEAL:
        return f"  HP +{d['amount']} 回復 ({d['why']}) → {d['hp']}"
    if k is Kind.DEFEAT:
        return f"  {monster_name(d['monster'])} #{d['uid']} defeated: +{d['xp']} XP → {d['total']}"
    if k is Kind.LEVEL:
        drained = " (drained ドレイン)" if d.get("drained") else ""
        return (f"  Level {d['level']} レベル{d['level']}{drained}: "
                f"max HP {d['max_hp']}, HP {d['hp']}")
    if k is Kind.ITEM:
        return "  " + _item(d, profile or DEFAULT_PROFILE)
    if k is Kind.STATE:
        if d["who"] == "pc":
            return f"  The PC is {'now' if d['on'] else 'no longer'} {_STATES[d['state']]}"
        pincer = " — pincered! (挟み撃ち)" if d["pincer"] else ""
        return f"  Monsters {d['uids']} pursue the PC (追跡){pincer}"
    if k is Kind.ABILITY:
        ability = Ability(d["ability"])
        ja, en = TABLES.ability_names[ability]
        return f"  {ja} ({en}): {_ability_effect(d, profile or DEFAULT_PROFILE, options)}"
    if k is Kind.RANGED:
        begins = d["action"] == "begin"
        return ("  Ranged combat begins (遠隔戦闘)" if begins
                else "  Ranged combat ends (遠隔戦闘終了)")
    if k is Kind.STAIRS:
        return f"The PC takes the stairs down from floor {d['floor']} (階段を下りる)"
    if k is Kind.GAME_OVER:
        if d["result"] == "victory":
            return (
                f"*** 生還! The PC escaped the dungeon at level {d['level']} "
                f"with {d['gold']} gold ***"
            )
        return f"*** Game over on floor {d['floor']}: {end_of_run(d['result'], d['cause'])} ***"
    return f"{k.value}: {d}"


def _ability_effect(d: dict[str, Any], profile: Profile,
                    options: frozenset[Option] | None = None) -> str:
    """What an ability did, as its event logs it (rules70 DEFECT 2: the rust line said
    nothing, the mimic's did not name its tile). JR-AB-RUST logs the armour's new value
    only; it lowers the armour by one (spec §6), so the line says both. JR-AB-MIMIC logs
    the tile drawn, and which item that tile is when the mimic becomes it.

    >>> _ability_effect({"ability": "rust", "armour": 2}, DEFAULT_PROFILE)
    'armour 鎧 3 → 2'
    >>> _ability_effect({"ability": "mimic", "tile": "1p", "effect": "item"}, DEFAULT_PROFILE)
    'drew 1p → item アイテム: healing potion (回復薬)'
    >>> _ability_effect({"ability": "mimic", "tile": "5z", "effect": "sealed"}, DEFAULT_PROFILE)
    'drew 5z → sealed 封魔'
    """
    if d["ability"] == "rust" and "armour" in d:
        return f"armour 鎧 {d['armour'] + 1} → {d['armour']}"
    effect = str(d.get("effect") or d.get("why", ""))
    if d["ability"] == "mimic" and "tile" in d:
        said = _MIMIC.get(effect, effect)
        if effect == "item":
            try:
                item = profile.items[Tile.from_notation(d["tile"]).rank]
            except (InvalidNotation, KeyError):
                pass
            else:
                said += f": {item.name_en} ({item.name_ja})"
        return f"drew {d['tile']} → {said}"
    if effect == "none":
        return _no_strength_loss(profile)
    said = _EFFECT.get(effect, effect)
    if d["ability"] == "drain_strength" and "strength" in d \
            and (options is None or Option.STRENGTH not in options):
        # JR-AB-DRAINSTR (options): the check is PCの状態ルール's, but strength counts in
        # the rate only under 強さルール (JR-RATE-1), so with pc_states alone the loss is on
        # no rate and no sheet: the line says so (rules72 RISK 2); under 強さルール (plus)
        # it counts, and the line says nothing of it (reviewr72 NIT 4)
        before, after = (str(n).replace("-", "−") for n in (d["strength"] + 1, d["strength"]))
        return (f"strength 強さ {before} → {after} (in the rate only under "
                "強さルール, the strength rule)")
    return said


def _no_strength_loss(profile: Profile) -> str:
    """A strength loss with no effect (JR-AB-POISON, JR-AB-DRAINSTR, 強さルール or
    PCの状態ルール: 「無効果」), and the two reasons the seed gives: the PC wears the ring of
    strength, named as the profile's item is, or its strength is at the floor already, the
    book's −3 or the profile's strength_min if higher (profile.NO_STRENGTH_LOSS_AT). The event
    logs no more than ``none``, so the line says both (a78journey NIT 3).

    >>> _no_strength_loss(DEFAULT_PROFILE)
    'no effect 無効果: the ring of strength 増強の指輪 worn, or strength 強さ at −3 already'
    """
    rings = [f"the {item.name_en} {item.name_ja} worn" for item in profile.items.values()
             if item.ring is Ring.STRENGTH]
    floor = str(max(NO_STRENGTH_LOSS_AT, profile.strength_min)).replace("-", "−")
    return f"no effect 無効果: {', or '.join([*rings, f'strength 強さ at {floor} already'])}"


def _gold_why(why: str) -> str:
    """Why gold changed, as logged, with the seed's word beside.

    >>> _gold_why("poison"), _gold_why("gold pile 4s")
    ('poison 毒攻撃', 'gold pile 金塊の牌 4s')
    """
    if why.startswith(_GOLD_PILE):
        return f"{_GOLD_PILE}金塊の牌 {why.removeprefix(_GOLD_PILE)}"
    return _GOLD_WHY.get(why, why)


def _gold_line(d: dict[str, Any]) -> str:
    """A change of gold, as its event logs it. A loss the PC could not pay whole (its
    gold would go below the profile's gold_min, 0 [DEFAULT]) says the loss the rule asked
    for (``asked``) and what was lost (a76jrcore NIT 2: poison's −10 taken from a PC with
    no gold read "+0", a gain); a log from before ``asked`` was kept reads as it did.

    >>> _gold_line({"amount": 0, "asked": -10, "gold": 0, "why": "held"})
    'Gold 金塊 -10 (held 拘束): the PC had none 所持金なし, 0 lost → 0'
    >>> _gold_line({"amount": -30, "asked": -100, "gold": 0, "why": "gaze"})
    'Gold 金塊 -100 (gaze 睨み): the PC had only 30 所持金30のみ, 30 lost → 0'
    >>> _gold_line({"amount": -5, "asked": -10, "gold": 20, "why": "poison"})
    'Gold 金塊 -10 (poison 毒攻撃): kept at the minimum 下限 20, 5 lost → 20'
    >>> _gold_line({"amount": -10, "gold": 90, "why": "poison"})
    'Gold 金塊 -10 (poison 毒攻撃) → 90'
    """
    amount, gold, why = d["amount"], d["gold"], _gold_why(d["why"])
    asked = d.get("asked")
    if asked is None or asked == amount:
        return f"Gold 金塊 {amount:+d} ({why}) → {gold}"
    lost = -amount
    if gold:  # the profile's gold_min kept
        held = f"kept at the minimum 下限 {gold}"
    elif lost:
        held = f"the PC had only {lost} 所持金{lost}のみ"
    else:
        held = "the PC had none 所持金なし"
    return f"Gold 金塊 {asked:+d} ({why}): {held}, {lost} lost → {gold}"


def _stolen(what: str, profile: Profile, count: int = 1) -> str:
    """What a thief took (JR-AB-STEALITEM), as its event logs it: arrows by name (and
    potions or shuriken before revision 12); a ring by its kind, and from revision 12 a
    potion or shuriken by its own (reviewr72 DEFECT 2), from the profile's item of its
    tile's rank, the tile beside.

    >>> _stolen("arrows", DEFAULT_PROFILE), _stolen("9p", DEFAULT_PROFILE)
    ('arrows (矢)', '飾りの指輪 (ring of adornment) [9p]')
    >>> _stolen("2p", DEFAULT_PROFILE, 2)
    'shuriken (手裏剣) ×2 [2p]'
    """
    if what in _STOLEN:
        return _STOLEN[what]
    try:
        item = profile.items[Tile.from_notation(what).rank]
    except (InvalidNotation, KeyError):
        return what
    if item.ring:
        return f"{_RINGS.get(item.ring.value, item.ring.value)} [{what}]"
    if item.kind in (ItemKind.POTION, ItemKind.SHURIKEN):
        return f"{item.name_en} ({item.name_ja}){f' ×{count}' if count > 1 else ''} [{what}]"
    return what


def _item(d: dict[str, Any], profile: Profile) -> str:
    action = d["action"]
    if action == "gold":
        return _gold_line(d)
    if action == "found":
        return f"Found {d['name_ja']} ({d['name_en']}) [{d['tile']}]"
    if action in ("dropped", "no drop"):
        tile = Tile.from_notation(d["tile"])
        drops = " — an item drops! 落とした" if action == "dropped" else " — no drop なし"
        return f"Drop check ドロップ判定: {tile}{drops}"
    if action == "equipped":
        return f"Equipped 装備 {d['tile']} ({d['value']})"
    if action in ("ring on", "ring off"):
        ring = _RINGS.get(d["ring"], d["ring"])
        where = f" [{d['tile']}]" if d.get("tile") else ""
        return f"{'Put on' if action == 'ring on' else 'Took off'} {ring}{where}"
    if action == "stolen":
        return f"Stolen 盗まれた: {_stolen(d['what'], profile, d.get('count', 1))}"
    if action == "ready":
        what = d["what"]
        if what not in _READIED:  # a kind of shuriken, by its tile (revision 12)
            spec = profile.items[Tile.from_notation(what).rank]
            return (f"Readied the {spec.name_en} [{what}] for ranged attacks "
                    f"({spec.name_ja}を構えた)")
        return f"Readied the {what} for ranged attacks ({_READIED[what]}を構えた)"
    if action == "nothing to steal":
        return "Nothing to steal (盗む物なし)"
    return str(action)
