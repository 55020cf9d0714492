"""``--display terminal`` fits its frame to the terminal's rows (env58 R1): at 80x24 a frame
was 34 to 39 rows, and the floor, HP, room and PC were cleared off the top; the Pi's console
(100x30 on an 800x480 panel) keeps no scrollback to scroll back to. The log gives up its
oldest lines first, then a fight's log, then the last check."""

from __future__ import annotations

import os
import re
import signal
import struct
import subprocess
import sys
import termios
import time
from dataclasses import replace
from fcntl import ioctl
from pathlib import Path

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.modes.dice_tray import TABLE_NAMES, DiceTrayMode
from companion.app.modes.genso import GensoFightMode
from companion.app.poisons import PoisonList
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk
from companion.app.session.rolls import SimRolls
from companion.dice import ScriptedDice, SimulatedDice
from companion.hw.display.view import (
    BoardView,
    Option,
    PieceView,
    View,
    example_fight_view,
    example_view,
)
from companion.systems.coc.combat import Attack, Defence, EndTurn, Place
from companion.systems.genso.combat import Attack as GensoAttack
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.hw.display.terminal_frame_helpers import CLEAR, frame
from tests.systems.coc.scripted_fight_helpers import fight_003

GENSO = load_rules()

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_at_80x24_the_top_stays_and_the_log_gives_way() -> None:
    rows = frame(example_view(), 80, 24)
    assert len(rows) <= 23  # and the cursor's row under it
    assert rows[0].startswith("Floor 3 3階 · Room 5 部屋5   HP ")
    assert "9/14" in rows[0]
    text = "\n".join(rows)
    for kept in ("大うずら emu", "金塊 gold", "Weapon 武器: メイス mace", "States 状態",
                 "Fight, shoot, use an item or flee?", "(a) Fight 戦う"):
        assert kept in text, kept
    assert "Log 記録" not in text and "Last check 判定" not in text


def test_on_the_pi_console_the_newest_log_lines_stay() -> None:
    """100x30: the log keeps its newest lines, as many as fit; the last check is whole."""
    rows = frame(example_view(), 100, 30)
    assert len(rows) <= 29 and rows[0].startswith("Floor 3 3階")
    text = "\n".join(rows)
    assert "tile drawn 6m → 6 ≥ 2 → hit: 大はやぶさ kestrel defeated" in text
    assert "大はやぶさ kestrel defeated, XP +2" in text  # the newest log line
    assert "Floor 3: start room 5" not in text  # the oldest gave way


def test_a_tall_terminal_or_a_pipe_shows_the_whole_frame() -> None:
    for rows in (frame(example_view(), 80, 60), frame(example_view(), 80, 24, terminal=False)):
        text = "\n".join(rows)
        assert "Floor 3: start room 5" in text and "rate 2 = 7 atk" in text
        assert len(rows) == 34


def test_a_fight_keeps_its_combatants_and_result() -> None:
    rows = frame(example_fight_view(), 80, 24)
    assert len(rows) <= 23
    text = "\n".join(rows)
    assert rows[0] == "幻想迷宮冒険譚 Fight 戦闘"
    for kept in ("Round 2 第2ラウンド", "オーク2 Orc 2", "HP -2/12", "11[5,6]+7=18",
                 "GM-COMBAT-8", "(7) GM 進行"):
        assert kept in text, kept
    assert "R1 駆け出し冒険者１ PC 1 attacks" not in text


def test_a_bracketed_word_in_the_log_is_printed_as_written() -> None:
    """The log's lines were read as rich's markup: ``[a,b]`` was taken for a style."""
    view = replace(example_view(), log=("choice[a,b] ＞ b", "[bold] is a word here"))
    text = "\n".join(frame(view, 80, None, terminal=False))
    assert "choice[a,b] ＞ b" in text and "[bold] is a word here" in text


def test_the_game_at_80x24_in_a_real_terminal(tmp_path: Path) -> None:
    """The command itself in a pty of 24 rows: the size comes from the terminal, and the
    last frame, from its clear, fits with the floor and HP on its first row."""
    main, side = os.openpty()
    ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm"}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--input", "sim", "--choices", "keyboard",
         "--display", "terminal", "--seed", "5"],
        stdin=side, stdout=side, stderr=side, env=env, start_new_session=True,
        cwd=Path(__file__).resolve().parents[3])
    os.close(side)
    out = ""
    try:
        deadline = time.monotonic() + 60
        while "(a) " not in out.rpartition(CLEAR)[2] and time.monotonic() < deadline:
            out += os.read(main, 65536).decode(errors="replace")
        time.sleep(0.5)  # (the frame's rest, had it been taller)
        os.set_blocking(main, False)
        try:
            out += os.read(main, 65536).decode(errors="replace")
        except BlockingIOError:
            pass
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        os.close(main)
    last = ANSI.sub("", out.rpartition(CLEAR)[2]).replace("\r", "")
    rows = last.rstrip("\n").split("\n")
    assert len(rows) <= 23, last
    assert rows[0].startswith("Floor 1 1階") and "HP " in rows[0]
    assert "Room 部屋" in last and "Lv 1" in last


def board_fight_view() -> View:
    """The example fight on CoC's 8×8 board (CO-TURN-2), a piece of each side on it."""
    view = example_fight_view()
    assert view.fight is not None
    pieces = (PieceView(0, 0, "A", (0, 1), True), PieceView(3, 4, "C", (-1, 0), False))
    return replace(view, fight=replace(view.fight, board=BoardView(8, 8, pieces, "Board 盤面")))


def test_on_the_pi_console_a_board_fight_keeps_its_header_board_and_whole_result() -> None:
    """The board over the result made a fight 31 rows on the Pi's console (100x30) and 33 at
    80x24, its header and combatants cleared off the top. The result is beside the board,
    each of its lines whole, and at 100x30 the frame fits from its first row."""
    rows = frame(board_fight_view(), 100, 30)
    assert len(rows) <= 29 and rows[0] == "幻想迷宮冒険譚 Fight 戦闘"
    board_row = next(row for row in rows if row.startswith("│ 1  A↑"))
    assert "│ GM-COMBAT-" in board_row or "╰" in board_row  # the result beside it
    text = "\n".join(rows)
    for kept in ("a   b   c   d   e   f   g   h", "(2D6+7>13)", "11[5,6]+7=18", "6 damage",
                 "GM-COMBAT-8  オーク2 Orc 2", "(7) GM 進行"):
        assert kept in text, kept
    assert "…" not in text.partition("Result 結果")[2]


def test_at_80_columns_the_result_is_beside_the_board_and_narrower_under_it() -> None:
    at_80 = frame(board_fight_view(), 80, 24)
    assert len(at_80) <= 23
    assert any(row.startswith("╭─ Board 盤面") and "Result 結果" in row for row in at_80)
    result = "".join(row.partition("││")[2] for row in at_80)
    assert "…" not in result and "GM-COMBAT-7" in result
    at_60 = frame(board_fight_view(), 60, None, terminal=False)
    board_end = next(n for n, row in enumerate(at_60) if row.startswith("╰") and n > 12)
    assert at_60[board_end + 1].startswith("╭─ Result 結果")


# --- term60: every screen fits 80x24 -------------------------------------------------------


def coc_burst_view() -> View:
    """Profile 003 on its board (CO-TURN-2): Ann's kick, then Bob's burst at Deep, who fails
    to dodge and dies: a result of 13 lines, and Cult's menu of ten options."""
    fight = fight_003()[0]
    for name, square, facing in (("Ann", "d3", "NE"), ("Bob", "c2", "N"), ("Cult", "d4", "SW"),
                                 ("Deep", "c3", "S")):
        fight.push(Place(name, square, facing), ScriptedDice([]))
    dice = SimulatedDice.seeded(7)
    for action in (Attack("Ann", "Cult", ma=True), EndTurn("Ann"),
                   Attack("Bob", "Deep", burst=True, defence=Defence.DODGE)):
        fight.push(action, dice)
    mode = CocFightMode(fight, "simulated 仮想")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return mode.view(ask.prompt, options=ask.options, highlight=0)


def test_a_coc_board_fight_at_80x24_keeps_its_top_board_newest_result_and_menu() -> None:
    """A CoC fight on its 8×8 board was 29 rows at 80x24 before any throw and 46 after a
    burst (its result 26 rows beside the board): the title and combatants scrolled off. The
    combatants lose their table's heading and rules (a line each), the board its letters'
    row (they go in its border), the result its oldest lines, said so."""
    rows = frame(coc_burst_view(), 80, 24)
    assert len(rows) <= 23
    assert rows[0] == "クトゥルフ神話TRPG Fight 戦闘"
    assert rows[1].startswith("vs Cult, Deep · profile 003 · Round 1")
    text = "\n".join(rows)
    for name, hp in (("A Ann", "HP 13/13"), ("B Bob", "HP 13/13"), ("C Cult", "HP 6/13"),
                     ("D Deep", "HP -7/13")):
        assert any(name in row and hp in row for row in rows), name
    board = [row for row in rows if re.match(r"│ [1-8] ", row)]
    assert [row[2] for row in board] == list("87654321")
    assert "c↙" in board[4] and "dx  A↗" in board[5] and "B↑" in board[6]
    # beside a taller result the letters keep their row: in the border they save nothing
    assert re.search(r"│ +a {3}b {3}c {3}d {3}e {3}f {3}g {3}h +│", text)
    assert board[0].index("·") == rows[rows.index(board[-1]) + 1].index("a")  # over column a
    for kept in ("Bob 攻撃 attacks → Deep", "earlier lines 前の", "Deep takes 20: HP -7/13",
                 "CO-TURN-3  Cult's turn: 3 AP", "Cult (3 AP): what now? 行動は？",
                 "▶(a) Attack 攻撃", "(8) Delay DEX/2 遅延", "(0) Keeper 進行"):
        assert kept in text, kept


def test_on_the_pi_console_the_burst_s_result_is_whole() -> None:
    """100x30: the same fight fits with every line of the result and its log line; only the
    combatants' table gave up its heading (it was 30 rows). Giving that up saved 8 rows, and
    the log, given up first, came back (review60b 1: it stayed gone)."""
    rows = frame(coc_burst_view(), 100, 30)
    assert len(rows) <= 29 and rows[0] == "クトゥルフ神話TRPG Fight 戦闘"
    text = "\n".join(rows)
    assert "earlier" not in text and "CO-FIRE-6  Bob fires a burst of 20" in text
    assert "Log 記録" in text
    assert "Bob 攻撃 attacks → Deep [burst 連射] (dodge) ＞ スペシャル/special" in text
    assert "│    a   b   c   d   e   f   g   h   │" in text
    assert "(0) Keeper 進行" in text


def test_a_board_taller_than_its_result_puts_its_letters_in_its_border_when_short() -> None:
    """The first menu on the board, a row short at 80x21: the column letters go in the
    board's bottom border, each over its column; with a row to spare they keep their own."""
    fight = fight_003()[0]
    for name, square, facing in (("Ann", "d3", "NE"), ("Bob", "c2", "N"), ("Cult", "d4", "SW"),
                                 ("Deep", "c3", "S")):
        fight.push(Place(name, square, facing), ScriptedDice([]))
    mode = CocFightMode(fight, "simulated 仮想")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    view = mode.view(ask.prompt, options=ask.options, highlight=0)
    short = frame(view, 80, 21)
    assert len(short) <= 20
    border = next(row for row in short if re.match(r"╰─ +a {3}b {3}c {3}d {3}e {3}f {3}g {3}h ─+╯",
                                                   row))
    board = [row for row in short if re.match(r"│ [1-8] ", row)]
    assert len(board) == 8 and short[short.index(board[-1]) + 1] == border
    assert board[0].index("·") == border.index("a")
    roomy = "\n".join(frame(view, 80, 24))
    assert re.search(r"│ +a {3}b {3}c {3}d {3}e {3}f {3}g {3}h +│", roomy)
    assert "Ann (3 AP): what now? 行動は？" in roomy


def test_a_genso_fight_at_80x24_keeps_its_top_and_whole_result() -> None:
    """The genso fight after PC 1's hit was 25 rows at 80x24 (names and conditions wrapped in
    the boxed table): each combatant is a line, the result whole, the menu whole."""
    fight = Fight(GENSO, entrants_for(GENSO, [preset(GENSO, "pc1"), preset(GENSO, "pc2")],
                                      [("orc", 2)]))
    fight.push(GensoAttack("駆け出し冒険者１", "オーク1", 0), SimulatedDice.seeded(5))
    mode = GensoFightMode(GENSO, fight, "simulated 仮想")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    view = mode.view(ask.prompt, options=ask.options, highlight=0)
    rows = frame(view, 80, 24)
    assert len(rows) <= 23 and rows[0] == "幻想迷宮冒険譚 Fight 戦闘"
    for name in ("駆け出し冒険者１ PC 1", "駆け出し冒険者２ PC 2", "オーク1 Orc 1",
                 "オーク2 Orc 2"):
        assert any(name in row and "HP " in row for row in rows), name  # a line each
    text = "\n".join(rows)
    for kept in ("GM-COMBAT-2", "GM-COMBAT-8  オーク1 Orc 1: HP", "GM-MON-1",
                 "駆け出し冒険者２ PC 2: what now?", "▶(a) Attack 攻撃", "(f) Flee 逃亡"):
        assert kept in text, kept
    assert "earlier" not in text
    wide = frame(view, 100, 30)  # the Pi's console: as it was, boxed table and all
    assert "┃ name 名前" in "\n".join(wide) and len(wide) <= 29


def test_a_poison_outcome_in_the_dice_tray_at_80x24(tmp_path: Path) -> None:
    """EV-POI-9's outcome (the ability ±6, four throws) was 25 rows at 80x24: the BCDice
    lines give way, each walk row says its roll again; the tray's name, the faces and
    the whole walk stay."""
    tray = DiceTrayMode(("2D6",), "simulated 仮想", None, PoisonList(tmp_path / "poisons.toml"))
    views: list[View] = []

    class Picks:
        def __init__(self) -> None:
            self.picks = [1, list(TABLE_NAMES).index("poison")]

        def next_choice(self, ask: ChoiceAsk, show: object) -> int:
            if not self.picks:
                raise KeyboardInterrupt
            return self.picks.pop(0)

    class Views:
        def show(self, view: View) -> None:
            views.append(view)

        def poll(self) -> list[object]:
            return []

        def close(self) -> None:
            return None

    session = Session(tray, choices=Picks(), display=Views(),  # type: ignore[arg-type]
                      rolls=SimRolls(ScriptedDice([(6, 6), (6, 3), (4, 1), (6, 4)])))
    with pytest.raises(KeyboardInterrupt):
        session.run()
    rows = frame(views[-1], 80, 24)
    assert len(rows) <= 23 and rows[0] == "ダイストレイ Dice tray"
    text = "\n".join(rows)
    for kept in ("毒 Poison (EV-POI-4)", "⚅ 6  ⚂ 3  D4 1  ⚃ 4", "EV-POI-4", "EV-POI-9",
                 "EV-POI-2  Tracking victim", "毒 Poison: the table's outcome 結果",
                 "▶(a) Again もう一度", "(f) Menu メニュー"):
        assert kept in text, kept
    wide = "\n".join(frame(views[-1], 100, 30))
    assert "(1D4) ＞ 1: which ability 能力値" in wide  # the Pi's console: every BCDice line


def test_a_late_floor_with_a_long_menu_at_80x24_keeps_its_header_room_and_menu() -> None:
    """A late floor (two foes to fight or shoot, rooms to go to, rings to doff) was up to 29
    rows at 80x24, the floor and HP cleared off: the room's table gives up its heading and
    rules, each tile a line."""
    labels = ("Fight centaur TR ケンタウロスと戦う", "Fight centaur BR ケンタウロスと戦う",
              "Fire centaur TR ケンタウロスを射撃", "Fire centaur BR ケンタウロスを射撃",
              "Enter 入る", "Stairs 階段", "Room 2 部屋2へ", "Room 4 部屋4へ", "Room 6 部屋6へ",
              "Ready bow 弓を構える")
    view = replace(example_view(), options=tuple(Option(str(n), label)
                                                 for n, label in enumerate(labels)))
    rows = frame(view, 80, 23)
    assert len(rows) <= 22 and rows[0].startswith("Floor 3 3階 · Room 5 部屋5   HP ")
    assert rows[1].startswith("Room 部屋")
    assert [row.split()[0] for row in rows[2:6]] == ["TL", "TR", "BL", "BR"]
    text = "\n".join(rows)
    for kept in ("大うずら emu", "Weapon 武器: メイス mace", "Fight, shoot, use an item or flee?",
                 "Fight centaur TR", "(0) Ready bow 弓を構える"):
        assert kept in text, kept
    assert "┃ pos" in "\n".join(frame(view, 100, 30))  # the Pi's console: the table as it was


def test_a_late_floor_with_twelve_options_gives_up_the_pc_sheet_s_box() -> None:
    """Twelve options (two rings to doff) under a plain room table were still 24 rows at
    80x24 (term60's one frame in 1600): the PC sheet gives up its box, every line kept.
    (Their keys past the tenth read ←×n since a76tilecam DEFECT 1, with no legend of m
    under them: the frame is a row shorter and fits boxed at 80x24, so 80x23 here.)"""
    labels = ("Fight centaur TR ケンタウロスと戦う", "Fight centaur BR ケンタウロスと戦う",
              "Fire centaur TR ケンタウロスを射撃", "Fire centaur BR ケンタウロスを射撃",
              "Enter 入る", "Stairs 階段", "Room 2 部屋2へ", "Room 4 部屋4へ", "Room 6 部屋6へ",
              "Ready bow 弓を構える", "Doff ring 1 指輪を外す", "Doff ring 2 指輪を外す")
    view = replace(example_view(), options=tuple(Option(str(n), label)
                                                 for n, label in enumerate(labels)))
    rows = frame(view, 80, 23)
    assert len(rows) <= 22 and rows[0].startswith("Floor 3 3階 · Room 5 部屋5   HP ")
    assert view.sheet is not None
    sheet = view.sheet.lines()
    start = rows.index(f"PC  {sheet[0]}")
    assert rows[start + 1:start + len(sheet)] == [f"    {line}" for line in sheet[1:]]
    assert "(←×1) Doff ring 2 指輪を外す" in "\n".join(rows)
    assert any(row.startswith("╭─ PC ") for row in frame(view, 100, 30))  # boxed where it fits
