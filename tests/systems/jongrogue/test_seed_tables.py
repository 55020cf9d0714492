"""The data files against the seed's own tables, cell by cell (JR-ENC-1, JR-MON-1,
JR-SLEEP-1/2/3). The blocks below are the seed page's rows as printed (Japanese names,
one space between cells); the data files were typed separately, so a slip in either
shows up here."""

# ruff: noqa: E501  (the seed's table rows are kept whole, as printed)
from __future__ import annotations

from companion.systems.jongrogue.tables import TABLES, Sleep

ENCOUNTER = """\
1 大蛇 大はやぶさ 大うずら 大こうもり 大蛇 ホブゴブリン 大はやぶさ 大うずら 大こうもり
2 大蛇 大はやぶさ 大うずら 大こうもり 大蛇 ホブゴブリン 氷の怪物 大うずら 大こうもり
3 大蛇 大はやぶさ 大うずら 大こうもり 大蛇 ホブゴブリン 氷の怪物 ガラガラ蛇 大こうもり
4 大蛇 大はやぶさ 大うずら 大こうもり 大蛇 ホブゴブリン 氷の怪物 ガラガラ蛇 オーク
5 ゾンビ 大はやぶさ 大うずら 大こうもり 大蛇 ホブゴブリン 氷の怪物 ガラガラ蛇 オーク
6 ゾンビ レプラコーン 大うずら 大こうもり 大蛇 ホブゴブリン 氷の怪物 ガラガラ蛇 オーク
7 ゾンビ レプラコーン ケンタウロス 大こうもり 大蛇 ホブゴブリン 氷の怪物 ガラガラ蛇 オーク
8 ゾンビ レプラコーン ケンタウロス 大角鹿 大蛇 ホブゴブリン 氷の怪物 ガラガラ蛇 オーク
9 ゾンビ レプラコーン ケンタウロス 大角鹿 水苔の怪物 ホブゴブリン 氷の怪物 ガラガラ蛇 オーク
10 ゾンビ レプラコーン ケンタウロス 大角鹿 水苔の怪物 ニンフ 氷の怪物 ガラガラ蛇 オーク
11 ゾンビ レプラコーン ケンタウロス 大角鹿 水苔の怪物 ニンフ イエティ ガラガラ蛇 オーク
12 ゾンビ レプラコーン ケンタウロス 大角鹿 水苔の怪物 ニンフ イエティ 虫取り草 オーク
13 ゾンビ レプラコーン ケンタウロス 大角鹿 水苔の怪物 ニンフ イエティ 虫取り草 トロール
14 レイス レプラコーン ケンタウロス 大角鹿 水苔の怪物 ニンフ イエティ 虫取り草 トロール
15 レイス ファントム ケンタウロス 大角鹿 水苔の怪物 ニンフ イエティ 虫取り草 トロール
16 レイス ファントム ゼロックス 大角鹿 水苔の怪物 ニンフ イエティ 虫取り草 トロール
17 レイス ファントム ゼロックス ユニコーン 水苔の怪物 ニンフ イエティ 虫取り草 トロール
18 レイス ファントム ゼロックス ユニコーン メデューサ ニンフ イエティ 虫取り草 トロール
19 レイス ファントム ゼロックス ユニコーン メデューサ バンパイア イエティ 虫取り草 トロール
20 レイス ファントム ゼロックス ユニコーン メデューサ バンパイア グリフォン 虫取り草 トロール
21 レイス ファントム ゼロックス ユニコーン メデューサ バンパイア グリフォン ジャバウォック トロール
22 レイス ファントム ゼロックス ユニコーン メデューサ バンパイア グリフォン ジャバウォック ドラゴン
23 メデューサ ファントム ゼロックス ユニコーン メデューサ バンパイア グリフォン ジャバウォック ドラゴン
24 メデューサ バンパイア ゼロックス ユニコーン メデューサ バンパイア グリフォン ジャバウォック ドラゴン
25 メデューサ バンパイア グリフォン ユニコーン メデューサ バンパイア グリフォン ジャバウォック ドラゴン
26〜 メデューサ バンパイア グリフォン ジャバウォック メデューサ バンパイア グリフォン ジャバウォック ドラゴン
"""

MONSTERS_EZ = """\
K 大はやぶさ 7 4 2 0 1〜6 睡眠 倍速
E 大うずら 7 4 2 0 1〜7 睡眠 -
B 大こうもり 7 4 2 0 1〜8 熟睡 -
S 大蛇 6 4 2 0 1〜9 睡眠 -
H ホブゴブリン 8 5 3 0 1〜10 睡眠 -
I 氷の怪物 8 0 5 0 2〜11 熟睡 凍結攻撃
R ガラガラ蛇 9 6 10 0 3〜12 睡眠 毒攻撃
O オーク 10 4 5 1 4〜13 睡眠 金塊好き
Z ゾンビ 9 6 10 0 5〜14 睡眠 -
L レプラコーン 10 0 21 3 6〜15 熟睡 金塊盗み
C ケンタウロス 11 10 15 1 7〜16 熟睡 -
Q 大角鹿 11 9 20 1 8〜17 睡眠 -
A 水苔の怪物 10 0 20 0 9〜18 睡眠 鎧弱体化
N ニンフ 10 0 30 3 10〜19 熟睡 アイテム盗み
Y イエティ 11 10 50 1 11〜20 熟睡 -
F 虫取り草 14 2d9 100 0 12〜21 熟睡 拘束
T トロール 14 14 150 2 13〜22 睡眠 -
W レイス 12 11 55 0 14〜23 熟睡 レベル・ドレイン
P ファントム 14 12 120 2 15〜24 熟睡 透明
X ゼロックス 12 13 110 0 16〜25 熟睡 擬態
U ユニコーン 17 18 200 2 17〜26 睡眠 -
M メデューサ 18 18 250 1 18〜 睡眠 睨み
V バンパイア 13 12 300 1 19〜 睡眠 強さドレイン
G グリフォン 20 22 2,000 1 20〜 睡眠 倍速
J ジャバウォック 23 22 3,000 0 21〜 熟睡 -
D ドラゴン 25 25 5,000 3 22〜 睡眠 炎ブレス
"""

MONSTERS_PLUS = """\
K 大はやぶさ 7 4 2 0 1〜6 眠/起 倍速
E 大うずら 7 4 2 0 1〜7 眠 -
B 大こうもり 7 4 2 0 1〜8 熟睡/起 -
S 大蛇 6 4 2 0 1〜9 眠/起 -
H ホブゴブリン 8 5 3 0 1〜10 眠/起 -
I 氷の怪物 8 0 5 0 2〜11 熟睡 凍結攻撃
R ガラガラ蛇 9 6 10 0 3〜12 眠/起 毒攻撃
O オーク 10 4 5 1 4〜13 眠/起 金塊好き
Z ゾンビ 9 6 10 0 5〜14 眠/起 -
L レプラコーン 10 0 21 3 6〜15 熟睡 金塊盗み
C ケンタウロス 11 10 15 1 7〜16 熟睡/起 -
Q 大角鹿 11 9 20 1 8〜17 眠/起 -
A 水苔の怪物 10 0 20 0 9〜18 眠/起 鎧弱体化
N ニンフ 10 0 30 3 10〜19 熟睡 アイテム盗み
Y イエティ 11 10 50 1 11〜20 熟睡/起 -
F 虫取り草 14 2d9 100 0 12〜21 熟睡 拘束
T トロール 14 14 150 2 13〜22 眠/起 -
W レイス 12 11 55 0 14〜23 熟睡/起 レベル・ドレイン
P ファントム 14 12 120 2 15〜24 熟睡/起 透明
X ゼロックス 12 13 110 0 16〜25 熟睡 擬態
U ユニコーン 17 18 200 2 17〜26 眠/起 -
M メデューサ 18 18 250 1 18〜 眠/起 睨み
V バンパイア 13 12 300 1 19〜 眠/起 強さドレイン
G グリフォン 20 22 2,000 1 20〜 眠/起 倍速
J ジャバウォック 23 22 3,000 0 21〜 熟睡/起 -
D ドラゴン 25 25 5,000 3 22〜 眠 炎ブレス
"""

SLEEP_0_RINGS = """\
起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起
眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡
起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起
眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡
起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起
眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡
起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起
眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡
起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起 眠/熟睡 起
"""

SLEEP_1_RINGS = """\
起 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起
"""

SLEEP_2_RINGS = """\
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起 眠/熟睡
眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 眠/熟睡 起
"""


_ID_BY_NAME = {m.name_ja: m.id for m in TABLES.monsters.values()}
_EZ_SLEEP = {"睡眠": Sleep.ASLEEP, "熟睡": Sleep.DEEPLY_ASLEEP}
_PLUS_SLEEP = {
    "起": Sleep.AWAKE, "眠": Sleep.ASLEEP, "熟睡": Sleep.DEEPLY_ASLEEP,
    "眠/起": Sleep.ASLEEP_OR_AWAKE, "熟睡/起": Sleep.DEEPLY_ASLEEP_OR_AWAKE,
}


def test_jr_enc_1_every_cell_of_the_encounter_table() -> None:
    """JR-ENC-1: 26 floors x 9 ranks; floors past 26 use the 26〜 row."""
    for line in ENCOUNTER.splitlines():
        floor, *names = line.split()
        for rank, name in enumerate(names, start=1):
            expected = _ID_BY_NAME[name]
            assert TABLES.monster_for(int(floor.rstrip("〜")), rank).id == expected, (floor, rank)
    assert TABLES.monster_for(40, 1).name_ja == "メデューサ"


def test_jr_mon_1_every_monster_row_in_both_tables() -> None:
    """JR-MON-1: attack, damage, XP, drops, floors, both sleep columns, ability."""
    ez, plus = MONSTERS_EZ.splitlines(), MONSTERS_PLUS.splitlines()
    assert len(ez) == len(plus) == len(TABLES.monsters) == 26
    for ez_line, plus_line in zip(ez, plus, strict=True):
        mid, name, attack, dmg, xp, drops, floors, sleep_ez, ability = ez_line.split()
        m = TABLES.monsters[mid]
        assert (m.name_ja, m.attack, m.xp, m.drops) == (
            name, int(attack), int(xp.replace(",", "")), int(drops)
        ), mid
        assert (m.damage, m.damage_d9) == ((0, 2) if dmg == "2d9" else (int(dmg), 0)), mid
        start, _, end = floors.partition("〜")
        assert (m.floors_from, m.floors_to) == (int(start), int(end or 0)), mid
        assert m.sleep_ez is _EZ_SLEEP[sleep_ez], mid
        names = TABLES.ability_names.get(m.ability, ("-", ""))
        assert names[0] == ability, mid
        p_mid, p_name, *same, sleep_plus, p_ability = plus_line.split()
        assert (p_mid, p_name, p_ability) == (mid, name, ability)
        assert same == [attack, dmg, xp, drops, floors], mid
        assert m.sleep_plus is _PLUS_SLEEP[sleep_plus], mid


def test_jr_sleep_3_every_cell_of_the_three_sleep_tables() -> None:
    """JR-SLEEP-3: rows = the room's top-left tile, columns = the monster tile."""
    for rings, block in enumerate((SLEEP_0_RINGS, SLEEP_1_RINGS, SLEEP_2_RINGS)):
        for row, line in enumerate(block.splitlines(), start=1):
            for column, cell in enumerate(line.split(), start=1):
                awake = TABLES.awake_by_check(row, column, rings)
                assert awake is (cell == "起"), (rings, row, column)
