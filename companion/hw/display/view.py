"""What a display shows after every step (spec §9), as plain data.

Displays (screen, terminal) render a :class:`View` and nothing else, so they
never depend on a game system's internals; each mode of the play session builds
its view from its own state. These types are the display port's vocabulary: the
session (above) and the display backends (beside them) both import them, and
nothing here imports either. Every name the player reads has its Japanese and
English form.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.hw.buttons import Button


@dataclass(frozen=True, slots=True)
class Name:
    """A name in both languages, e.g. ``Name("大蛇", "snake")``."""

    ja: str
    en: str

    def __str__(self) -> str:
        if not self.ja or self.ja == self.en:
            return self.en
        return f"{self.ja} {self.en}"


@dataclass(frozen=True, slots=True)
class TileView:
    """One tile on the table and what it means on this floor (JR-MAP-2)."""

    tile: str  # MPSZ, "back" or "empty"
    meaning: Name  # "大蛇 snake", "回復薬 healing potion", "階段 stairs"
    detail: str = ""  # "asleep 眠", "defeated", "gold 30"


@dataclass(frozen=True, slots=True)
class SheetView:
    """The PC sheet (JR-PC-1). ``strength`` is None when the rule is off (EZ)."""

    level: int
    xp: int
    xp_next: int | None  # None at the top level
    hp: int
    hp_max: int
    gold: int
    weapon: Name
    weapon_attack: int
    ranged: Name
    ranged_attack: int
    ammo: int
    armour: Name
    armour_defence: int
    strength: int | None = None
    rings: tuple[Name, ...] = ()
    states: tuple[Name, ...] = ()
    items: tuple[str, ...] = ()  # what the PC carries: "回復薬 healing potion ×2"
    # The rules preset in play, its last line ("" for none): "Rules ルール: ez+drops"; a
    # preset in config.toml switches options on unseen otherwise (rules72 RISK 3). Then
    # its options' rules by name, "drops アイテムのドロップ・ルール", where there is room:
    # the screen leaves them out before it cuts any other line (reviewr72 DEFECT 1).
    rules: str = ""
    rules_named: str = ""

    def lines(self, brief: bool = False) -> list[str]:
        """The sheet as the screen and the terminal both print it; ``brief``, its Rules
        line the preset alone."""
        named = f" ({self.rules_named})" if self.rules_named and not brief else ""
        nxt = "max" if self.xp_next is None else str(self.xp_next)
        strength = "" if self.strength is None else f"   Str 強さ {self.strength:+d}"
        return [
            f"Lv {self.level}   XP {self.xp}/{nxt}   Gold 金塊 {self.gold}{strength}",
            f"Weapon 武器: {self.weapon} (+{self.weapon_attack})",
            f"Ranged 遠隔武器: {self.ranged} (+{self.ranged_attack}) ×{self.ammo}",
            f"Armour 鎧: {self.armour} ({self.armour_defence})",
            "Rings 指輪: " + (", ".join(str(r) for r in self.rings) or "–"),
            "Items 持ち物: " + (", ".join(self.items) or "–"),
            "States 状態: " + (", ".join(str(s) for s in self.states) or "normal 通常"),
            *([self.rules + named] if self.rules else []),
        ]


@dataclass(frozen=True, slots=True)
class Option:
    """A choice the player can make now, and the button that makes it."""

    choice: str  # what the engine is given, e.g. "attack"
    label: str  # what the player reads, e.g. "Fight 戦う"
    button: Button | None = None


@dataclass(frozen=True, slots=True)
class DiceStep:
    """One line of an event table's walk (EV-…): indented along its follow-ups."""

    rule: str  # "EV-TRAP-1"
    text: str
    depth: int = 0
    # A fight's Result step said after the action's own, handing the turn over (coc's
    # "Cult's turn: 3 AP", the round's end and the next one's start), as the engine marks
    # it: the Result cut short keeps the action's own outcome before it (reviewcoc67 RISK 1).
    hand_over: bool = False
    # A rule said again for reference, nothing to act on (EV-POI-3's "poisons do not
    # stack", EV-POI-2's when a poison ticks, the EV-DOOR-3 option's line): a Table panel
    # too short for the walk leaves these out first, and says how many (a76events DEFECT 1).
    aside: bool = False


#: A face in :attr:`DiceView.faces` (or a fight's) still to be typed, drawn as a die with
#: "?" on it: the question over a doubted die said "(1 of 2: [?], ?, 5)", the panel the 5
#: alone (f78panels item 3). No die shows 0 (a D10's 0 is read as its 10).
TO_TYPE = 0


@dataclass(frozen=True, slots=True)
class DiceView:
    """The dice tray: what is rolled, the faces read, the BCDice lines, the table's walk."""

    title: str  # "罠 Trap (EV-TRAP-1)", "2D6>=9"
    faces: tuple[int, ...] = ()  # the faces thrown so far: a D6's drawn as pips (TO_TYPE: ?)
    rolls: tuple[str, ...] = ()  # BCDice lines, e.g. "(1D6) ＞ 4"
    steps: tuple[DiceStep, ...] = ()
    source: str = ""  # where the dice come from: "camera カメラ", "simulated 仮想"
    # Each face's die, beside ``faces`` (``(6, 6, 4, 6)``); empty when every die is a D6. A
    # D4's 1 drawn as a D6's one pip read as a D6 thrown (table audit gc #8).
    sides: tuple[int, ...] = ()

    def sides_of(self, index: int) -> int:
        """How many sides the die of ``faces[index]`` has (6 unless ``sides`` says)."""
        return self.sides[index] if index < len(self.sides) else 6


@dataclass(frozen=True, slots=True)
class FighterView:
    """One combatant's row in a fight: who, which side, HP and MP, what is on them.

    ``hp`` is None for one with no HP (an incorporeal monster); ``mp`` is None in a
    system without MP, ``san`` in one without sanity (CoC has it). ``down`` greys the row
    out (dead, fled, unable to act).
    """

    name: Name  # "オーク1 Orc 1"
    side: Name  # "味方 party", "敵 enemy"
    hp: int | None
    hp_max: int | None
    mp: int | None = None
    mp_max: int | None = None
    conditions: tuple[str, ...] = ()  # "全力回避 full dodge", "DEAD 死亡", "防護呪 Protection"
    acting: bool = False  # whose turn it is
    ally: bool = True  # on the players' side (drawn in another colour from the enemies)
    down: bool = False
    san: int | None = None  # SAN 正気度, in a system with sanity

    def pools(self) -> str:
        """``HP 7/12  MP 8/8`` (``  SAN 55`` with sanity), as the screen and the terminal
        both print it."""
        return self.hp_pool() + self.other_pools()

    def hp_pool(self) -> str:
        """``HP 7/12``: what a row too narrow for all the pools keeps beside the name."""
        return "HP –" if self.hp is None else f"HP {self.hp}/{self.hp_max}"

    def other_pools(self) -> str:
        """``  MP 8/8  SAN 55``: the pools after HP, which a narrow row gives up first."""
        mp = "" if self.mp is None else f"  MP {self.mp}/{self.mp_max}"
        san = "" if self.san is None else f"  SAN {self.san}"
        return mp + san


@dataclass(frozen=True, slots=True)
class PieceView:
    """One combatant on a fight's board: its square (column, row; row 0 at the bottom), the
    mark drawn on it (its initial), which way it faces as a step ``(dx, dy)`` with y up
    (``(0, 0)``: no facing), and like :class:`FighterView` its side, turn and state."""

    col: int
    row: int
    mark: str
    facing: tuple[int, int] = (0, 0)
    ally: bool = True
    acting: bool = False
    down: bool = False


@dataclass(frozen=True, slots=True)
class BoardView:
    """A fight's board seen from above, north up (CoC profile 003's 8×8, CO-TURN-2): columns
    named by letters (a, b, …) along the bottom, rows by numbers (1, 2, …) up the side."""

    cols: int
    rows: int
    pieces: tuple[PieceView, ...] = ()
    title: str = "Board 盤面"

    def square(self, col: int, row: int) -> str:
        """``e2`` for column 4, row 1."""
        return f"{chr(ord('a') + col)}{row + 1}"


@dataclass(frozen=True, slots=True)
class FightView:
    """A fight at the table, for any system with rounds, turns and HP (genso, a CoC tracker).

    ``result`` is the last action's lines with their terms and rule IDs, e.g.
    ``DiceStep("GM-COMBAT-2", "… (2D6+7>13) ＞ 7[2,5]+7=14 ＞ 成功/success")``; ``log`` a
    short line per action so far, oldest first; ``faces`` a throw read and awaiting the
    player's word; ``outcome`` how the fight ended, once it has. ``result_is_newest`` says
    that the Result is of the log's newest entry (not of an action under way, a check, a
    roll between actions), which the log then leaves to it.
    """

    title: str  # "オーク×2 Orcs ×2"
    round: int
    turn: str  # whose turn: "駆け出し冒険者１", "" once over
    fighters: tuple[FighterView, ...]
    result: tuple[DiceStep, ...] = ()
    result_title: str = ""  # what the result is of: "駆け出し冒険者１ attacks オーク1"
    log: tuple[str, ...] = ()
    faces: tuple[int, ...] = ()
    source: str = ""  # where the dice come from: "camera カメラ", "simulated 仮想"
    outcome: str = ""  # "勝利 the party won"
    board: BoardView | None = None  # where the fighters stand, for a system with a board
    result_is_newest: bool = False  # the Result shows log[-1]: the log shows those before

    @property
    def heading(self) -> str:
        """``Round 2 第2ラウンド · turn 手番: オーク1`` (or the outcome)."""
        return self.heading_before_turn() + self.turn

    def heading_before_turn(self, short: bool = False) -> str:
        """The heading up to whose turn it is (the whole heading once over), so that a
        screen can cut the name alone, keeping its end (``… Cultist 6``); ``short`` for a
        narrow column: ``R2 · turn 手番: ``."""
        text = f"R{self.round}" if short else f"Round {self.round} 第{self.round}ラウンド"
        if self.outcome:
            return f"{text} · {self.outcome}"
        return f"{text} · turn 手番: " if self.turn else text


@dataclass(frozen=True, slots=True)
class View:
    """One screenful. ``prompt_tile`` is a tile picture to show beside the prompt."""

    floor: int | None  # None before a game (a message screen)
    room: int | None
    room_tiles: tuple[TileView, ...]
    sheet: SheetView | None
    prompt: str
    options: tuple[Option, ...] = ()
    prompt_tile: str | None = None
    last_check: tuple[str, ...] = ()
    # How many of last_check's last lines only follow from the damage line before them (the
    # gold or a state a monster's hit took, JR-AB-*): where the panel cannot show every
    # line, the damage stays whole ahead of them (spec §9: "damage and its sum"; r76jr
    # DEFECT 2). 0: the last line is the check's outcome, kept whole.
    last_check_after: int = 0
    log: tuple[str, ...] = ()
    highlight: int | None = None  # the option a menu cursor is on
    status: str = ""  # reader trouble, a rejected read; or with ``guidance`` the next step
    # The status is the player's usual next step ("throw taken: pick the dice up …", "B
    # rejects, A accepts"), drawn as the prompt is; else it is trouble, drawn as such.
    guidance: bool = False
    title: str = "雀ローグEZプラス JongRogue EZ Plus"
    dice: DiceView | None = None  # the dice tray mode shows this instead of the game
    fight: FightView | None = None  # a fight mode shows this instead of the game
    # The System 設定 menu opens from here (hold I, the S key, a tap on the header): the
    # header says so. Only a session's asks offer it, not a question before a game.
    system: bool = False
    # A message screen's prompt is trouble (the error that stopped the run), drawn as trouble
    # is: in the trouble colour after a warning mark, not as a question is.
    trouble: bool = False
    # The monsters following the PC out of the room it fled (JR-FLEE-2, 追跡): their tiles
    # lie beside the PC, no longer in the room's slots, which hold the room it came to.
    pursuers: tuple[TileView, ...] = ()

    @property
    def message(self) -> bool:
        """Whether this is a screen with no game on it (:func:`message_view`): its prompt is
        all there is to read, so a screen gives it the body rather than one line."""
        return (self.floor is None and self.sheet is None and self.dice is None
                and self.fight is None)

    @property
    def where(self) -> str:
        """The header: floor and room in both languages, or the title between games."""
        if self.floor is None:
            return self.title
        text = f"Floor {self.floor} {self.floor}階"
        if self.room is not None:
            text += f" · Room {self.room} 部屋{self.room}"
        return text


def message_view(prompt: str, options: tuple[Option, ...] = (), status: str = "",
                 trouble: bool = False) -> View:
    """A screen with no game on it: a question before a game starts, a farewell; with
    ``trouble``, the error that stopped the run."""
    return View(floor=None, room=None, room_tiles=(), sheet=None, prompt=prompt,
                options=options, highlight=0 if options else None, status=status,
                trouble=trouble)


def example_view() -> View:
    """A mid-game screenful, for screenshots, the display benchmark and display tests."""
    return View(
        floor=3,
        room=5,
        room_tiles=(
            TileView("3m", Name("大うずら", "emu"), "asleep 眠"),
            TileView("1p", Name("回復薬", "healing potion")),
            TileView("5z", Name("階段", "stairs down")),
            TileView("4s", Name("金塊", "gold"), "40 gold"),
        ),
        sheet=SheetView(
            level=3, xp=27, xp_next=40, hp=9, hp_max=14, gold=40,
            weapon=Name("メイス", "mace"), weapon_attack=2,
            ranged=Name("短弓", "short bow"), ranged_attack=1, ammo=18,
            armour=Name("リング・メイル", "ring mail"), armour_defence=3,
            strength=0, rings=(Name("隠密の指輪", "ring of stealth"),),
            items=("回復薬 healing potion ×2", "手裏剣 shuriken ×5 (+2)"),
        ),
        prompt="大うずら emu is asleep (眠). Fight, shoot, use an item or flee?",
        options=(
            Option("attack", "Fight 戦う", Button.ATTACK),
            Option("flee", "Flee 逃げる", Button.FLEE),
            Option("ranged", "Shoot 射撃", Button.RANGED),
            Option("item", "Item 道具", Button.ITEM),
        ),
        last_check=(
            "rate 2 = 7 atk − 3 lvl − 0 str − 2 wpn (clamped to 1..9)",
            "tile drawn 6m → 6 ≥ 2 → hit: 大はやぶさ kestrel defeated",
            "XP +2 → 27 (next level at 40)",
        ),
        log=(
            "Floor 3: start room 5 (tile 5m)",
            "Room 5 revealed: 2m 3m 1p 5z 4s",
            "大はやぶさ kestrel attacks: 1d9>=2 ＞ 1 ＞ 失敗, damage 4 − 3 = 1",
            "HP 10 → 9",
            "You attack 大はやぶさ kestrel: 1d9>=2 ＞ 6 ＞ 成功",
            "大はやぶさ kestrel defeated, XP +2",
        ),
    )


def example_fight_view() -> View:
    """A fight mid-round, for the display tests and the benchmark (the docs' screenshot is of
    a real fight: ``tests/app/test_genso_mode.py``)."""
    party, enemy = Name("味方", "party"), Name("敵", "enemy")
    return View(
        floor=None, room=None, room_tiles=(), sheet=None,
        prompt="オーク1 Orc 1: what now? 行動は？",
        options=(Option("attack", "Attack 攻撃", Button.ATTACK), Option("full", "Full 全力攻撃"),
                 Option("dodge", "Dodge 全力回避"), Option("move", "Move 移動"),
                 Option("wait", "Wait 待機"), Option("flee", "Flee 逃亡", Button.FLEE),
                 Option("gm", "GM 進行")),
        highlight=0,
        title="幻想迷宮冒険譚 Fight 戦闘",
        fight=FightView(
            title="オーク×2 Orc ×2", round=2, turn="オーク1 Orc 1",
            fighters=(
                FighterView(Name("駆け出し冒険者１", "PC 1"), party, 12, 12, 8, 8),
                FighterView(Name("駆け出し冒険者２", "PC 2"), party, 5, 10, 8, 12,
                            ("全力回避 full dodge",)),
                FighterView(Name("オーク1", "Orc 1"), enemy, 5, 12, 8, 8,
                            ("逃走 wants to flee",), acting=True, ally=False),
                FighterView(Name("オーク2", "Orc 2"), enemy, -2, 12, 8, 8, ("DEAD 死亡",),
                            ally=False, down=True),
            ),
            result=(
                DiceStep("GM-COMBAT-2", "駆け出し冒険者１ PC 1 → オーク2 Orc 2: 体力/Body 6 + "
                                        "戦闘/Combat 1 "
                                        "vs 体力/Body 6 + 7: (2D6+7>13) ＞ 11[5,6]+7=18 ＞ "
                                        "成功/success"),
                DiceStep("GM-COMBAT-7", "棍棒/Club (1D6) ＞ 6 − 防護力/protection 0 ＞ 6 damage"),
                DiceStep("GM-COMBAT-8", "オーク2 Orc 2: HP -2/12, MP 8/8 DEAD 死亡"),
            ),
            result_title="駆け出し冒険者１ PC 1 attacks 攻撃 オーク2 Orc 2",
            log=("R1 駆け出し冒険者１ PC 1 attacks オーク1 Orc 1: 7 damage",
                 "R1 駆け出し冒険者２ PC 2 casts 治癒呪/Healing",
                 "R1 オーク1 Orc 1 attacks: defended",
                 "R2 駆け出し冒険者１ PC 1 attacks オーク2 Orc 2: 6 damage, DEAD 死亡"),
            source="simulated 仮想",
        ),
    )
