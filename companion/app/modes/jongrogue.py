"""The JongRogue game as a mode of the play session (spec §9: what the screen shows).

The mode wraps a :class:`~companion.systems.jongrogue.game.Game`: its tile and
choice requests become the session's asks (which slot the next tile goes on,
the choices as a menu with their buttons), its events the log, and its state
the screen: the room's four tiles, the PC sheet, the last check. A simulated
game draws from a seeded wall and an auto-player decides (their sources, ``SimTiles`` and
``AutoChoices``, are play's wiring: companion/app/commands/play/sim_sources.py); a save's
journal replays through the same wall.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from companion.app.session.controls import BACK, Question
from companion.app.session.mode import Answer, ChoiceAsk, Throw, TileAsk
from companion.errors import IllegalAction
from companion.hw.buttons import Button
from companion.hw.display.view import Name, Option, SheetView, TileView, View
from companion.hw.ports import ROOM_SLOTS, SLOT_NAMES, SLOT_NAMES_JA, Slot
from companion.systems.jongrogue.actions import (
    Choice,
    ChoiceRequest,
    Purpose,
    TileRequest,
    Verb,
    input_from_notation,
    input_to_notation,
)
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import Option as RuleOption
from companion.systems.jongrogue.state import MonsterOnMap, PCState
from companion.systems.jongrogue.tables import TABLES, Ability
from companion.systems.jongrogue.tiles import Tile

#: A monster's sleep state on the room panel (JR-SLEEP-1..3), in the panel's shorter Japanese.
SLEEP_NAMES: dict[str, Name] = {
    value: Name(name.short_ja, name.en) for value, name in TABLES.sleep_names.items()
}
PC_STATE_NAMES: dict[str, Name] = {
    "frozen": Name("凍結", "frozen"),
    "bound": Name("拘束", "bound"),
    "confused": Name("混乱", "confused"),
    "blind": Name("盲目", "blind"),
    "floating": Name("浮遊", "floating"),
}
ROLE_NAMES: dict[str, Name] = {
    "gold": Name("金塊", "gold"),
    "stairs": Name("階段", "stairs down"),
    "empty": Name("床", "empty floor"),
}


def item_name(game: Game, tile: Tile) -> Name:
    spec = game.profile.items[tile.rank]
    return Name(spec.name_ja, spec.name_en)


#: A monster's flags on the room panel, in its order (JR-STATE-3): short English (what a cut
#: line or a screen without a Japanese font keeps), the game's Japanese term beside it.
MONSTER_FLAGS: tuple[tuple[str, Name], ...] = (
    ("hasted", Name("倍速", "haste")),
    ("invisible", Name("透明", "invisible")),
    ("sealed", Name("封魔", "sealed")),
    ("on_gold", Name("金塊の上", "on gold")),
)
TAKEN = "taken 取得"  # an item or gold picked up
DEFEATED = "defeated 撃破"
VANISHED = "vanished 消えた"  # a thief gone with its loot (JR-AB-STEALGOLD, -STEALITEM)
NO_TILE = Name("空き", "(no tile)")


def english_first(name: Name) -> str:
    """``asleep 眠``: the English, then the Japanese, so a line cut short keeps the English."""
    return f"{name.en} {name.ja}" if name.ja and name.ja != name.en else name.en


def monster_detail(m: MonsterOnMap, extended: bool) -> str:
    """The room panel's line under a monster: its sleep state first, then each flag it has.
    Without the 拡張状態ルール (EZ) no 封魔 is shown for the gaze's or the drain's seal: the
    seed's EZ versions only spend their blow (「一度だけ」, l.308, l.322), the 封魔 of l.304
    and l.318 being in the EZプラス versions. The gold-lover's 封魔 (l.249) has no such
    marker (l.242-250; オーク in the EZ table, l.160), so it shows in EZ too."""
    flags = [english_first(SLEEP_NAMES[m.sleep.value])]
    flags += [english_first(name) for attr, name in MONSTER_FLAGS
              if (m.on_gold is not None if attr == "on_gold" else getattr(m, attr))
              and (extended or attr != "sealed" or m.monster.ability is Ability.GOLD_LOVER)]
    return ", ".join(flags)


def vanished(game: Game) -> set[int]:
    """The uids of the monsters that vanished from the map (a thief with its loot): the game
    removes them as it removes one defeated, and only its event says which it was."""
    return {e.data["uid"] for e in game.events
            if e.kind is Kind.ABILITY and e.data.get("effect") == "vanished"}


def room_tiles(game: Game, laid: Sequence[Tile] = ()) -> tuple[TileView, ...]:
    """The current room's 4 tiles with their meaning (spec §9; JR-MAP-2). While a room's
    tiles are being laid (``laid``: those laid so far), the spots laid, the one to lay next
    and those after it."""
    if isinstance(game.pending, TileRequest) and game.pending.purpose is Purpose.ROOM:
        return laying(game.room_no, laid)
    if not game.room_no or game.room_no not in game.rooms:
        return ()
    room = game.rooms[game.room_no]
    monsters = {m.spot: m for m in game.monsters if m.room == room.number}
    on_gold: dict[int, list[MonsterOnMap]] = {}
    for sitter in game.monsters:
        if sitter.room == room.number and sitter.alive and sitter.on_gold is not None:
            on_gold.setdefault(sitter.on_gold, []).append(sitter)
    gone = vanished(game)
    views: list[TileView] = []
    for spot, tile in enumerate(room.tiles):
        m = monsters.get(spot)
        if tile is None:
            detail = TAKEN if m is None or m.alive else \
                VANISHED if m.uid in gone else DEFEATED
            views.append(TileView("empty", NO_TILE, detail))
            continue
        if m is not None and m.alive:
            views.append(TileView(str(tile), Name(m.monster.name_ja, m.monster.name_en),
                                  monster_detail(m, game.on(RuleOption.EXTENDED_STATES))))
            continue
        role = game.profile.role(tile).value
        if role == "item":
            views.append(TileView(str(tile), item_name(game, tile)))
        elif role == "gold":
            amount = f"{tile.rank * game.profile.gold_per_rank} gold"
            views.append(TileView(str(tile), ROLE_NAMES["gold"],
                                  guarded(amount, on_gold.get(spot, ()))))
        elif role == "monster":
            views.append(TileView(str(tile), Name("", "monster"), DEFEATED))
        else:
            views.append(TileView(str(tile), ROLE_NAMES[role]))
    return tuple(views)


def pursuer_tiles(game: Game) -> tuple[TileView, ...]:
    """The monsters following the PC from a room it fled (JR-FLEE-2, 追跡), as the room
    panel shows a monster: its tile, its name, its sleep state and flags. Their tiles lie
    beside the PC, and the room's slots hold the room it came to: the panel of that room
    showed none of them while they attacked, and the player chose to fight or flee again
    without their state (haste 倍速, invisible 透明) in sight (screen66 RISK 2). One back in
    the room shown is its own spot's (never twice)."""
    extended = game.on(RuleOption.EXTENDED_STATES)
    return tuple(TileView(str(m.tile), Name(m.monster.name_ja, m.monster.name_en),
                          monster_detail(m, extended))
                 for m in game.pursuers if m.alive and m.room != game.room_no)


def guarded(amount: str, sitters: Sequence[MonsterOnMap]) -> str:
    """A gold pile's detail: its amount, and the gold-lovers sitting on it, whose pile the
    PC cannot take while they live (JR-AB-GOLDLOVER). Each gold-lover has its own pile from
    rules revision 6, so with two piles the panel says which one is still free."""
    if not sitters:
        return amount
    return f"{amount}, under " + ", ".join(
        f"{m.monster.name_en} {m.monster.name_ja}の下" for m in sitters)


def laying(room: int, laid: Sequence[Tile]) -> tuple[TileView, ...]:
    """Room ``room`` being laid (JR-MAP-2): the tiles laid so far, the spot the next goes on
    (a tile's back), the spots still empty; the room is revealed once all four lie."""
    where = f"room {room} 部屋{room}"
    views = [TileView(str(tile), Name("配置済み", "laid"), where) for tile in laid[:4]]
    if len(views) < 4:
        views.append(TileView("back", Name("次に置く", "lay next"), where))
    views += [TileView("empty", Name("未配置", "to lay"))] * (4 - len(views))
    return tuple(views)


def counted(names: Sequence[Name]) -> list[tuple[Name, int]]:
    """Identical names once each, in their first order, with how many there are."""
    counts: dict[Name, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return list(counts.items())


def ring_kind(ring: Name) -> Name:
    """``飾り adornment`` for 飾りの指輪 ring of adornment: under a heading that says they are
    rings, the kind alone keeps a dozen spare rings on one line."""
    return Name(ring.ja.removesuffix("の指輪"), ring.en.removeprefix("ring of "))


def rules_in_play(game: Game) -> tuple[str, str]:
    """The preset (``Rules ルール: ez+drops``), and the EZ Plus options it switches on, each
    with the book's name of its rule (``drops アイテムのドロップ・ルール``): a preset in
    config.toml's game.preset changes the play unseen otherwise (rules72 RISK 3). The
    names are said where there is room: the screen's sheet leaves them out before it cuts
    the Items (reviewr72 DEFECT 1)."""
    said = f"Rules ルール: {game.preset}"
    if not game.options:
        return said, "EZ, no options オプションなし"
    if game.options == frozenset(RuleOption):
        return said, "all six options 全オプション"
    return said, ", ".join(f"{o.value} {o.rule_name}" for o in RuleOption if o in game.options)


#: The mark before the kind of shuriken readied, when two are held (JR-RANGED-2, JR-ITEM-1
#: (kinds)); a screen font without it draws ">".
READIED = "▶"


def sheet(game: Game) -> SheetView:
    """The PC sheet (spec §9; JR-PC-1)."""
    pc = game.pc
    levels = TABLES.level_xp
    xp_next = levels[pc.level] if pc.level < len(levels) else None
    strength_on = any(o.value == "strength" for o in game.options)
    held: list[str] = []
    # Shuriken and potions by kind (the profile's item of a tile's rank, JR-ITEM-1): a
    # profile may have two of either, and "回復薬 healing potion ×2" named a weak potion held
    # after a healing one as a second healing potion (rules72 DEFECT 1).
    if pc.shuriken_tiles:  # revision 12: each kind its own count and attack
        # With two kinds, the one thrown next comes first, marked ▶ (as the fighter acting
        # is): after ready:5p the line read as before it, the readied kind seen only as the
        # one missing from the Ready buttons (reviewr72 NIT 6); a word for the mark cut the
        # potions after it at text 1.25.
        marked = len(pc.shuriken_tiles) > 1 and not pc.bow_ready
        kinds = sorted(zip(pc.shuriken_tiles, pc.shuriken_counts, strict=True),
                       key=lambda k: not marked or k[0].rank != pc.shuriken_rank)
        held += [f"{READIED if marked and t.rank == pc.shuriken_rank else ''}"
                 f"{item_name(game, t)} ×{n} (+{game.profile.items[t.rank].attack})"
                 for t, n in kinds]
    elif pc.shuriken:
        held.append(f"手裏剣 shuriken ×{pc.shuriken} (+{pc.shuriken_attack})")
    held += [f"{name} ×{n}" for name, n in counted([item_name(game, t) for t in pc.potions])]
    # A long run carries a dozen spare rings of a few kinds: each kind once, with its count
    # (the worn ones are the Rings line's).
    spare = counted([ring_kind(item_name(game, t)) for t in pc.spare_rings])
    if spare:
        held.append("予備の指輪 spare rings: "
                    + ", ".join(f"{name}{f' ×{n}' if n > 1 else ''}" for name, n in spare))
    rules, named = rules_in_play(game)
    return SheetView(
        # (a killing blow leaves pc.hp below 0: the sheet, as the damage line, says 0)
        level=pc.level, xp=pc.xp, xp_next=xp_next, hp=max(0, pc.hp), hp_max=pc.max_hp,
        gold=pc.gold,
        weapon=Name(pc.weapon.name_ja, pc.weapon.name_en), weapon_attack=pc.weapon.value,
        ranged=Name(pc.ranged.name_ja, pc.ranged.name_en), ranged_attack=pc.ranged.value,
        ammo=pc.arrows,
        armour=Name(pc.armour.name_ja, pc.armour.name_en), armour_defence=pc.armour.value,
        strength=pc.strength if strength_on else None,
        # Each worn ring by its kind, as the spare ones are: the line says they are rings,
        # and at text_scale 1.25 "隠密の指輪 ring of stealth, 鎧保護の指輪 ring of armour
        # protection" was cut after the first (screen66 RISK 1).
        rings=tuple(name if n == 1 else Name(name.ja, f"{name.en} ×{n}")
                    for name, n in counted([ring_kind(item_name(game, t)) for t in pc.rings])),
        states=tuple(PC_STATE_NAMES[s.value] for s in sorted(pc.states, key=lambda s: s.value)),
        items=tuple(held),
        rules=rules, rules_named=named,
    )


VERB_BUTTONS: dict[Verb, Button] = {
    Verb.FLEE: Button.FLEE,
    Verb.SHOOT: Button.RANGED,
    Verb.USE: Button.ITEM,
}

#: The verbs picked from a menu that ask "sure? 本当に？" before the game takes them
#: (:func:`sure`): a potion drunk is gone (JR-ITEM-1), and its button, item, moves the
#: highlight on in every menu without one, so a player pressing it "to move on" drank one
#: (buttons-only audit F5). The question is the table's, not the game's: the journal holds
#: the choice alone, as before.
ASKED_FIRST = frozenset({Verb.USE})
#: The verbs the highlight does not start on (:func:`options_for`), so that A alone never
#: takes them: the ones asked first, and Stairs (階段), which leave the floor for good
#: (JR-STATE-2): listed before the rooms, it was lit with no monster about, and one A to
#: move on took the stairs (f77carry item 1). No button of its own lights Stairs, so it is
#: not asked again: the player who walks the highlight onto it, or taps it, chose it.
NOT_LIT_FIRST = ASKED_FIRST | {Verb.STAIRS}


DRAW_ASK = "Draw a tile and put it on the draw slot 牌を引いて引き牌の枠に置いて"
TILE_PROMPTS: dict[Purpose, str] = {
    Purpose.START_ROOM: f"{DRAW_ASK}: 1d9 for the start room 開始部屋の1d9",
    Purpose.ROOM: "Lay this room's 4 tiles: draw one and put it on the {slot} slot "
                  "部屋の4枚: 1枚引いて{slot_ja}に置いて",
    Purpose.CHECK: f"{DRAW_ASK}: {{what}}",
    Purpose.NUMBER: f"{DRAW_ASK}: {{what}}",
    Purpose.DROP: f"{DRAW_ASK}: {{what}}",
    Purpose.MIMIC: f"{DRAW_ASK}: {{what}}",
}
# With ``--input sim`` the companion draws from its seeded wall itself: the
# prompt says so, or a player with no tiles cannot tell whether to wait or to act.
SIM_DRAW = "The simulated wall draws a tile 模擬山から1枚引きます"
SIM_PROMPTS: dict[Purpose, str] = {
    Purpose.START_ROOM: f"{SIM_DRAW}: 1d9 for the start room 開始部屋の1d9",
    Purpose.ROOM: "The simulated wall lays this room's 4 tiles: now the {slot} slot "
                  "模擬山から部屋の4枚を置きます: 次は{slot_ja}",
    Purpose.CHECK: f"{SIM_DRAW}: {{what}}",
    Purpose.NUMBER: f"{SIM_DRAW}: {{what}}",
    Purpose.DROP: f"{SIM_DRAW}: {{what}}",
    Purpose.MIMIC: f"{SIM_DRAW}: {{what}}",
}


SPOT_SHORT = ("TL", "TR", "BL", "BR")  # where a monster's tile lies in its room (JR-MAP-2)


def choice_label(game: Game, choice: Choice, alone: bool = True, spot: bool = True) -> str:
    """What the player reads for a choice, short enough for a button on the screen.

    ``alone`` is False when the same verb is offered for several targets; the
    label then names the target, and where its tile lies (TL, TR, BL, BR) when ``spot``:
    :func:`options_for` asks for it only when another target of the verb has the same name
    (two snakes), for in a grid's box "[A] Fight ice monster TR" was cut to "[A] Fi…onster
    TR" (label audit 54), its verb lost to a spot that told apart nothing. A name
    is English first, then Japanese with the verb kept (``Fight snake TL 大蛇と戦う``,
    ``Doff stealth 隠密を外す``, a ring by its kind): a screen without a Japanese font drops the
    Japanese, a narrow button wraps or cuts it, and what is left still tells the buttons
    apart, as the Japanese alone does for a reader of it.
    """
    verb, arg = choice.verb, choice.arg
    if verb in (Verb.FIGHT, Verb.SHOOT) and arg:
        if alone:
            return "Fight 戦う" if verb is Verb.FIGHT else "Fire 射撃"
        m = game.monster(int(arg))
        return _label(verb, Name(m.monster.name_ja, m.monster.name_en),
                      SPOT_SHORT[m.spot] if spot else "")
    if verb in (Verb.USE, Verb.EQUIP, Verb.UNEQUIP) and arg:
        tile = Tile.from_notation(arg)
        if verb is Verb.USE and game.revision < 12 and game.pc.potions \
                and game.profile.items[tile.rank].ring is None:
            # Revision 11 and before offer the first potion held and drink the last (the
            # engine unchanged, so its games replay): the button names the one drunk, as
            # the sheet lists both kinds (reviewr72 NIT 5)
            tile = game.pc.potions[-1]
        if verb in RING_VERBS and game.profile.items[tile.rank].ring is not None:
            return _label(verb, ring_kind(item_name(game, tile)), verbs=RING_VERBS)
        return _label(verb, item_name(game, tile))
    if verb is Verb.MOVE:
        return f"Room {arg} 部屋{arg}へ"
    if verb is Verb.READY:
        if arg not in ("bow", "shuriken"):  # one kind of shuriken (revision 12)
            name = item_name(game, Tile.from_notation(arg))
            return f"Ready {name.en} {name.ja}を構える"
        return "Ready bow 弓を構える" if arg == "bow" else "Ready shuriken 手裏剣を構える"
    return {
        Verb.ENTER: "Enter 入る",
        Verb.CLOSE: "Close in 近接戦闘",
        Verb.DOOR: "To the door ドアへ",
        Verb.FLEE: "Flee 逃げる",
        Verb.TAKE: "Take 拾う",
        Verb.STAIRS: "Stairs 階段",
        Verb.KEEP: "Keep mine 今のまま",
        Verb.DEFEND: "Defend 防御",
        Verb.EQUIP: "Equip 装備",
    }.get(verb, str(choice))


#: A verb on a named target: its English, and its Japanese around the name. The Japanese
#: keeps the verb, so that it alone tells the buttons apart (大蛇と戦う beside 大蛇を射撃).
#: The English is short: a grid's box at 800x480 holds about 113 px of 14 px text a row,
#: and "[R] Shoot medusa TL" was cut to "[R] S…edusa TL" (display audit 54, item 1).
TARGET_VERBS: dict[Verb, tuple[str, str]] = {
    Verb.FIGHT: ("Fight", "{}と戦う"),
    Verb.SHOOT: ("Fire", "{}を射撃"),
    Verb.USE: ("Use", "{}を使う"),
    Verb.EQUIP: ("Equip", "{}を装備"),
    Verb.UNEQUIP: ("Remove", "{}を外す"),
}
#: A ring put on or taken off (JR-PC-4) is named by its kind (:func:`ring_kind`): the verb
#: says it is a ring, and "[9] Remove ring of stealth" was cut to "[9] Rem…of stealth".
RING_VERBS: dict[Verb, tuple[str, str]] = {
    Verb.EQUIP: ("Wear", "{}を装備"),
    Verb.UNEQUIP: ("Doff", "{}を外す"),
}


def _label(verb: Verb, name: Name, where: str = "",
           verbs: dict[Verb, tuple[str, str]] = TARGET_VERBS) -> str:
    """``Fight snake TL 大蛇と戦う``: the act, the English name (and where), then the act on
    the Japanese name."""
    act, japanese = verbs[verb]
    english = " ".join(part for part in (act, name.en or name.ja, where) if part)
    return f"{english} {japanese.format(name.ja)}" if name.ja and name.ja != name.en \
        else english


def options_for(game: Game, request: ChoiceRequest) -> tuple[tuple[Option, ...], int]:
    """The request's choices as view options, and which one ATTACK confirms at first.

    FLEE and USE get their button (the first of each); the highlight starts on the
    FIGHT of the monster attacking (:func:`aimed`), else on the first FIGHT, else on the
    first choice that is neither asked again nor Stairs (:data:`NOT_LIT_FIRST`): on *Use
    healing potion*, listed first, A pressed twice to move on drank the potion at HP 10/12
    (a76journey DEFECT 1), and on Stairs one A left the floor. RANGED goes to the SHOOT at
    that monster, else to the first SHOOT.
    A player who presses A ("attack") or R ("ranged") as the screen says "bat attack!"
    means the bat: the first monster in tile order may be asleep, and attacking it wakes
    it (JR-STATE-1) while the bat hits them (JR-MULTI-1).
    """
    target = aimed(game, request)

    def aim(verb: Verb) -> int | None:
        at = [i for i, c in enumerate(request.options) if c.verb is verb]
        return next((i for i in at if request.options[i].arg == target), at[0] if at else None)

    shot = aim(Verb.SHOOT)
    taken: set[Button] = {Button.RANGED}  # the SHOOT at the target has it, none other
    options: list[Option] = []
    for i, choice in enumerate(request.options):
        button = Button.RANGED if i == shot else VERB_BUTTONS.get(choice.verb)
        if i != shot and button in taken:
            button = None
        if button is not None:
            taken.add(button)
        alone = sum(c.verb is choice.verb for c in request.options) == 1
        options.append(Option(str(choice), choice_label(game, choice, alone,
                                                        twinned(game, request, choice)),
                              button))
    fight = aim(Verb.FIGHT)
    if fight is None:
        fight = next((i for i, c in enumerate(request.options)
                      if c.verb not in NOT_LIT_FIRST), 0)
    return tuple(options), fight


def twinned(game: Game, request: ChoiceRequest, choice: Choice) -> bool:
    """Whether ``choice`` fights or shoots a monster with the same name as another target of
    the same verb offered (two snakes in one room): only its spot then tells them apart."""
    if choice.verb not in (Verb.FIGHT, Verb.SHOOT) or not choice.arg:
        return False
    names = [game.monster(int(c.arg)).monster.name_en for c in request.options
             if c.verb is choice.verb and c.arg]
    return names.count(game.monster(int(choice.arg)).monster.name_en) > 1


def sure(game: Game, choice: Choice) -> Question:
    """The question before ``choice`` (:data:`ASKED_FIRST`): A takes it, B (Back 戻る)
    returns to the menu it was picked from; item, pressed again, only moves the highlight.
    A :class:`Question`: a double tap on the item's box does not take the use in the box
    under it (input audit 63 D1)."""
    name = item_name(game, Tile.from_notation(choice.arg))
    return Question(f"Use {name.en} now? 本当に{name.ja}を使う？",
                     (Option(str(choice), choice_label(game, choice), Button.ATTACK), BACK))


def aimed(game: Game, request: ChoiceRequest) -> str | None:
    """The ``arg`` (uid) of the monster A and R aim at: the first of the turn's attackers
    (JR-MULTI-1, as the prompt names them) that the request offers to fight or shoot; None
    when no attacker is a target (a pursuer behind, or no monster attacks)."""
    targets = {c.arg for c in request.options if c.verb in (Verb.FIGHT, Verb.SHOOT)}
    return next((str(m.uid) for m in game.attackers() if str(m.uid) in targets), None)


def tile_prompt(request: TileRequest, slot: Slot, simulated: bool = False) -> str:
    """Where to put the tile, then what it is for (the engine's words, minus "draw a tile");
    ``simulated``: the simulated wall draws it, and the prompt says so instead."""
    what = request.prompt
    for part in ("Draw a tile for the check: ", ": draw a tile"):
        what = what.replace(part, "")
    prompts = SIM_PROMPTS if simulated else TILE_PROMPTS
    return prompts[request.purpose].format(slot=SLOT_NAMES[slot], slot_ja=SLOT_NAMES_JA[slot],
                                           what=what)


#: The engine's name for the check a bound PC (拘束) draws each turn (JR-PC-3).
BREAK_FREE = "break free (拘束)"
BOUND_WAIT = ("bound 拘束 with no monster attacking: break free first (1d9 >= {need}), one check "
              "a turn; your choices come back once free 拘束中: 解除判定のみ、解除後に行動")


def bound_wait(game: Game) -> str:
    """Why a bound PC (拘束, JR-PC-3) is asked only for tiles, or "": from rules revision 11
    a bound PC that no monster attacks is not asked what to do; its break-free checks are
    drawn one a turn until it is free (rules70 DEFECT 1). The prompt names the check but not
    why the potion and rings on the sheet are not offered (reviewr70 RISK 1). A break-free
    check with a monster attacking is followed by the PC's choice, so it says nothing then."""
    request = game.pending
    if (isinstance(request, TileRequest) and request.purpose is Purpose.CHECK
            and BREAK_FREE in request.prompt and game.revision >= 11
            and PCState.BOUND in game.pc.states and not game.attackers()):
        return BOUND_WAIT.format(need=game.profile.bound_escape)
    return ""


D9_PURPOSES = (Purpose.START_ROOM, Purpose.CHECK, Purpose.NUMBER)  # tiles drawn for a 1d9


def set_aside(game: Game, request: object, tile: Tile, events: Sequence[Event],
              simulated: bool = False) -> str:
    """What the player is told of ``tile``, just given for ``request``, when the game set it
    aside (JR-DICE-1: an honour that is neither the critical nor the fumble decides no 1d9):
    it caused nothing, and the game asks for a tile for the same 1d9 again; else "".
    An honour that was the wall's last tile caused nothing either: the wall made again of the
    discards for the next draw (JR-WALL-1) is not the tile's doing.
    ``simulated``: the simulated wall draws the next one, not the player."""
    again = game.pending
    if (isinstance(request, TileRequest) and request.purpose in D9_PURPOSES
            and all(event.kind is Kind.RESHUFFLE for event in events)
            and not tile.is_number and tile not in (game.profile.critical, game.profile.fumble)
            and isinstance(again, TileRequest) and again.purpose is request.purpose):
        if simulated:
            return (f"{tile} {tile.name_ja} set aside: it is not a number tile; the simulated "
                    f"wall draws another {tile.name_ja}は数牌ではないので除外: 模擬山からもう1枚")
        return (f"{tile} {tile.name_ja} set aside: it is not a number tile; draw another "
                f"{tile.name_ja}は数牌ではないので除外: もう1枚引いて")
    return ""


#: What a check itself sets off (spec §9): its hit, the defeat, XP and level, the drops, a
#: monster's ability, a PC state, the end of the run. A move, a turn, a wake (it comes before
#: the attack that woke it), the end of ranged combat or an item the PC takes up afterwards is
#: the game going on, not the check's outcome.
_CHECK_OUTCOMES = frozenset({Kind.DAMAGE, Kind.DEFEAT, Kind.LEVEL, Kind.STATE, Kind.ABILITY,
                             Kind.GAME_OVER})
_CHECK_ITEMS = frozenset({"dropped", "no drop", "stolen", "nothing to steal"})


def _follows_from_check(events: Sequence[Event], at: int) -> bool:
    event = events[at]
    if event.kind is Kind.ITEM:
        action = event.data["action"]
        # A worn ring a thief takes is taken off first (JR-AB-STEALITEM): its "ring off"
        # ended the outcome before the theft (reviewj68). One the PC takes off is no outcome.
        if action == "ring off":
            after = events[at + 1] if at + 1 < len(events) else None
            return (after is not None and after.kind is Kind.ITEM
                    and after.data["action"] == "stolen"
                    and after.data["what"] == event.data.get("tile"))
        # gold a hit or a defeat moved (JR-AB-*), not a pile the PC picked up (JR-STATE-2)
        return action in _CHECK_ITEMS or (
            action == "gold" and not str(event.data["why"]).startswith("gold pile"))
    return event.kind in _CHECK_OUTCOMES


def _last_check_span(events: Sequence[Event]) -> tuple[int, int]:
    """Where the last check and what it set off lie in ``events`` (``start:end``), or
    ``(0, 0)`` before any check."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind is Kind.CHECK:
            end = i + 1
            while end < len(events) and _follows_from_check(events, end):
                end += 1
            return i, end
    return 0, 0


def last_check(events: Sequence[Event], describe: Callable[[Event], str]) -> tuple[str, ...]:
    """The last check and what it set off (damage, defeat, XP, level, drops), spelled out
    (spec §9); the events after those are not shown as its outcome."""
    start, end = _last_check_span(events)
    return tuple(describe(e) for e in events[start:end])


#: Lines after a monster's damage that end the game or the fight, or change the level: the
#: outcome, kept last as before. (A level drained, JR-AB-DRAIN, comes on the check's fumble,
#: before the damage.)
_ENDINGS = frozenset({Kind.GAME_OVER, Kind.DEFEAT, Kind.LEVEL})


def after_the_damage(events: Sequence[Event]) -> int:
    """How many of :func:`last_check`'s lines come after its damage line and only follow
    from it: the gold a monster's hit took (JR-AB-HOLD, JR-AB-POISON ...), a state it set, a
    theft. The screen keeps the damage ahead of them when not all fit (spec §9: "damage
    and its sum"; r76jr DEFECT 2: the venus flytrap's gold line took the 2d9's place). 0
    with no damage, with a hit of damage table 0 (a thief's: what it took is the outcome,
    and "no damage = 0" took its place, r76jr2 DEFECT 1), or where a line after it is one
    of :data:`_ENDINGS` (the PC killed, a level changed), which stays the outcome."""
    start, end = _last_check_span(events)
    damage = max((i for i in range(start, end) if events[i].kind is Kind.DAMAGE), default=-1)
    if damage < 0 or events[damage].data.get("table") == 0 \
            or any(events[i].kind in _ENDINGS for i in range(damage + 1, end)):
        return 0
    return end - damage - 1


#: JR-STATE-2 (stairs), ``companion rules defaults``: Stairs chosen from the door of a room
#: whose monsters slept stepped in, woke them, and they hold the way out (rules72 NIT 4).
STAIRS_HELD = ("The stairs were not taken: stepping in woke the room's monsters; defeat "
               "them first 階段へ進めない: 起きたモンスターを倒すこと")


def stairs_held(choice: Choice, events: Sequence[Event]) -> str:
    """:data:`STAIRS_HELD` when ``choice`` was Stairs and the PC did not take them (no
    stairs event among ``events``, what the choice played), else ``""``."""
    if choice.verb is not Verb.STAIRS or any(e.kind is Kind.STAIRS for e in events):
        return ""
    return STAIRS_HELD


class JongRogueMode:
    """One game of JongRogue at the table or headless (see :class:`~companion.app.session.
    mode.Mode`). ``sim`` is the seeded wall of a simulated game: a replayed save must
    draw what that wall gives."""

    def __init__(self, game: Game, sim: HeadlessPlayer | None = None,
                 describe: Callable[[Event], str] = Event.describe) -> None:
        self.game = game
        self.sim = sim
        self.describe = describe
        self.room_spot = 0  # which of the 4 room slots the next ROOM tile goes on
        self._journal: list[str] = []
        self.note = ""  # said on the status line until the next answer (a tile set aside)
        self.laid: list[Tile] = []  # the tiles laid so far of the room being laid
        self.asking: Choice | None = None  # a choice picked that asks first (ASKED_FIRST)

    @property
    def journal(self) -> list[str]:
        return self._journal

    def ask(self) -> TileAsk | ChoiceAsk | None:
        request = self.game.pending
        if request is None:
            return None
        if isinstance(request, TileRequest):
            slot = ROOM_SLOTS[self.room_spot] if request.purpose is Purpose.ROOM else Slot.DRAW
            return TileAsk(tile_prompt(request, slot, self.sim is not None), slot,
                           self.game.ledger)
        if self.asking is not None:
            return sure(self.game, self.asking)
        options, highlight = options_for(self.game, request)
        return ChoiceAsk(request.prompt, options, highlight)

    def answer(self, value: Answer) -> list[Event]:
        request = self.game.pending
        if isinstance(value, Throw):
            raise IllegalAction("JongRogue throws no dice 賽は使わない")
        if isinstance(value, int):
            if self.asking is not None:
                return self._sure(value)
            if not isinstance(request, ChoiceRequest) or not 0 <= value < len(request.options):
                raise IllegalAction(f"there is no choice {value} now 選択肢{value}は無い")
            choice = request.options[value]
            if choice.verb in ASKED_FIRST:
                self.asking = choice
                return []
            return self.push(choice)
        return self.push(value)

    def _sure(self, value: int) -> list[Event]:
        """The answer to :func:`sure`: its first option takes the choice, Back forgets it."""
        picked = self.asking
        assert picked is not None
        if value not in (0, 1):
            raise IllegalAction(f"there is no choice {value} now 選択肢{value}は無い")
        self.asking = None
        return self.push(picked) if value == 0 else []

    def push(self, value: Tile | Choice) -> list[Event]:
        """Give the game a tile or a choice, and journal it."""
        request = self.game.pending
        events = self.game.push(value)
        self._journal.append(input_to_notation(value))
        self.note = set_aside(self.game, request, value, events, self.sim is not None) \
            if isinstance(value, Tile) else stairs_held(value, events)
        if isinstance(request, TileRequest) and request.purpose is Purpose.ROOM:
            self.room_spot = (self.room_spot + 1) % len(ROOM_SLOTS)
            # The engine keeps a room's tiles to itself until all four lie (JR-MAP-2).
            self.laid = [*self.laid, value] if self.room_spot and isinstance(value, Tile) \
                else []
        return events

    def restore(self, text: str) -> None:
        value = input_from_notation(text)
        if self.sim is not None and isinstance(self.game.pending, TileRequest):
            drawn = self.sim.answer(self.game)
            if drawn != value:
                raise IllegalAction(f"the wall of seed {self.sim.seed} gives {drawn} here, "
                                    f"the save says {text} 山とセーブが合いません")
        self.push(value)

    def progress(self) -> int:
        return len(self.game.events)

    def history(self) -> Sequence[Event]:
        return self.game.events

    def log_lines(self, events: Sequence[Event]) -> list[str]:
        return [json.dumps(e.to_json(), ensure_ascii=False, sort_keys=True) for e in events]

    def closing(self) -> str:
        outcome = self.game.outcome()
        if outcome is not None and outcome.won:
            return f"生還! You left floor {outcome.floor} alive."
        floor = outcome.floor if outcome else self.game.floor
        return f"Game over ゲームオーバー on floor {floor} ({floor}階)"

    def view(self, prompt: str, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = ()) -> View:
        game = self.game
        events = game.events
        # The status the session or a set-aside tile gives comes first; with none, a bound
        # PC's wait is said as guidance (the next step), not as trouble.
        told = status or self.note
        waiting = "" if told else bound_wait(game)
        return View(
            floor=game.floor,
            room=game.room_no or None,
            room_tiles=room_tiles(game, self.laid),
            sheet=sheet(game),
            prompt=prompt,
            options=options,
            highlight=highlight,
            prompt_tile=prompt_tile,
            last_check=last_check(events, self.describe),
            last_check_after=after_the_damage(events),
            log=tuple(self.describe(e) for e in events[-12:]),
            status=told or waiting,
            guidance=bool(waiting),
            pursuers=pursuer_tiles(game),
        )
