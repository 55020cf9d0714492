"""The terminal display (rich): the same content as the screen, for play over SSH."""

from __future__ import annotations

import os
import select
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from companion.hw.buttons import Button, Press
from companion.hw.display.keys import option_key
from companion.hw.display.terminal_fit import Fitted, Given, Gives, GivesUp, Lines
from companion.hw.display.view import (
    TO_TYPE,
    BoardView,
    DiceView,
    FightView,
    PieceView,
    SheetView,
    View,
)

# Past the tenth option, the backward presses are of ← (the arrow is PREVIOUS: it steps back
# on every menu, Flee offered or not). Not f or r: those choose, so a quick second press
# of one counted once (a held key's repeat) and an Enter after them only ended their line;
# an arrow counts each press and Enter confirms after it (keys73 NIT 1).
_BUTTON_KEYS = {Button.ATTACK: "a", Button.FLEE: "f", Button.RANGED: "r", Button.ITEM: "i",
                Button.MENU: "m", Button.PREVIOUS: "←"}
# Nothing else on the terminal says what ``(m×3)`` asks.
MENU_LEGEND = "m×3 = press m three times, then a  m を3回押してa"


class TerminalDisplay:
    """Prints one frame per step; on a real terminal the previous frame is cleared first.
    A frame the same as the one just printed is not printed again: over SSH or in tmux
    the clear leaves the scrollback, where a step read twice."""

    def __init__(self, console: Console | None = None,
                 system_seconds: float | None = None) -> None:
        """``system_seconds``: how long the buttons' item button is held for the System
        menu, which the header says beside the S key; None where there are no buttons."""
        self.console = console or Console()
        self.shown: View | None = None
        self.system_hint = system_hint_keys(system_seconds)
        #: A frame was cut by a Ctrl-C and the terminal is not mended yet (:meth:`mend_cut`).
        self.cut = False

    def show(self, view: View) -> None:
        if view == self.shown:
            return
        self.shown = view
        rows = None
        try:
            if self.console.is_terminal:
                self.console.clear()
                # The row under the frame holds the cursor: a frame of every row scrolls one.
                rows = self.console.size.height - 1
            self.console.print(render(view, self.system_hint, rows))
        except KeyboardInterrupt:
            # A pty takes a write 2048 bytes at a time: a Ctrl-C between two cut the frame,
            # Python drops the rest, and the stop line was glued to the cut line, in its
            # colour, or eaten by a cut escape sequence ("no tray line: theycompanion:
            # stopped; …"). The terminal is left ready for the stop line first.
            self.cut = self.console.is_terminal
            self.mend_cut()
            raise

    def mend_cut(self) -> None:
        """After a frame cut by a Ctrl-C: the cut escape sequence ended, the colours reset,
        a fresh line (:data:`AFTER_A_CUT`), written straight to the terminal where it takes
        them within :data:`MEND_SECONDS`. A terminal that takes no output (its reader
        stopped) is not waited on longer: a Ctrl-C still stops at once, as it did before
        (fixterm72: a Ctrl-C held until the frame was whole never stopped on such a one)."""
        if not self.cut:
            return
        try:
            fd = self.console.file.fileno()
            if select.select([], [fd], [], MEND_SECONDS)[1]:
                os.write(fd, AFTER_A_CUT)
                self.cut = False
        except (OSError, ValueError):  # (io.UnsupportedOperation is both)
            pass  # a terminal gone, or no file under the console: nothing to mend

    def poll(self) -> list[Press]:
        return []  # keys come from the keyboard choice source, not from printing

    def close(self) -> None:
        self.mend_cut()  # one the terminal did not take at the Ctrl-C, if it takes it now


#: What a frame cut by a Ctrl-C is followed by: CAN (cancels an escape sequence the cut left
#: open, which ate the stop line's first characters), the colours and styles reset (the stop
#: line was in the frame's bold red), a fresh line (the cut line's end; a cut at a line's
#: start leaves an empty line). 中断された画面の後始末。
AFTER_A_CUT = b"\x18\x1b[0m\r\n"
#: How long a cut frame's mend waits for the terminal to take it: a terminal that reads
#: takes it at once, one whose reader stopped is not waited on.
MEND_SECONDS = 0.25


#: The header's word on the System menu, on a terminal: its key, short, so that the header
#: stays one line at 80 columns.
SYSTEM_HINT_KEYS = "s: System 設定"


def system_hint_keys(hold_seconds: float | None) -> str:
    """The terminal header's System hint: the S key, and where buttons are wired the item
    button's hold, with its seconds (let go sooner, it is an item press)."""
    if hold_seconds is None:
        return SYSTEM_HINT_KEYS
    return f"s/hold I {hold_seconds:g}s: System 設定"


#: Secondary text (the System hint, the M legend, a rule's ID, the board's coordinates) and
#: a down combatant's name. It was faint (SGR 2), which halves the foreground's brightness:
#: about 3.7:1 on a black console and less on a dark grey one, under the 4.5:1 text needs
#: (display audit 54, item 4). The terminal's background is not known, so no fixed grey
#: passes on every one: the terminal's own colours, in italic where it has it. 補助の文字。
SECONDARY = "italic"
#: A down combatant's name, crossed out as the screen draws it (it was faint too).
DOWN = "strike"

#: Before the lit option's key (``▶(a) Attack``). 選択中の印。
LIT_MARK = "▶"
#: Before a trouble status (a save behind, a die it doubts): guidance has none. 問題の印。
TROUBLE_MARK = "! "


def render(view: View, system_hint: str = SYSTEM_HINT_KEYS,
           rows: int | None = None) -> RenderableType:
    """The whole frame as one rich renderable, ``system_hint`` in its header where the
    System menu is offered; fitted to ``rows`` when given (:class:`Fitted`)."""
    header = Text(view.where, style="bold yellow")
    if view.sheet is not None:
        header.append("   ")
        # (a shorter bar beside the System hint, which keeps the header one line at 80)
        header.append_text(hp_bar(view.sheet, 16 if view.system else 20))
    if view.system:
        header.append(f"  {system_hint}", style=SECONDARY)

    parts: list[RenderableType | Gives] = [header, Room(view)] \
        if view.room_tiles or view.pursuers else [header]
    if view.dice is not None:
        parts.append(DicePart(view.dice))
    if view.fight is not None:
        parts.extend(fight_panels(view.fight))
    if view.sheet is not None:
        parts.append(Sheet(view.sheet))
    if view.last_check:
        parts.append(Lines("Last check 判定", view.last_check, GivesUp.LAST_CHECK))
    if view.log:
        parts.append(Lines("Log 記録", view.log[-8:], GivesUp.LOG))
    # The error that stopped the run, as trouble is (red, after a "!"), not as a question.
    prompt = Text(TROUBLE_MARK + view.prompt, style="bold red") if view.trouble \
        else Text(view.prompt, style="bold")
    if view.prompt_tile and view.prompt_tile not in ("back", "empty"):
        prompt = Text(f"[{view.prompt_tile}] ", style="bold cyan") + prompt
    parts.append(prompt)
    if view.options:
        keys = [option_key(option, i, view.highlight, _BUTTON_KEYS, len(view.options),
                           Button.PREVIOUS)
                for i, option in enumerate(view.options)]
        # The lit option in reverse, and after a ▶ in the space before its key, which is
        # all that is left of it where a terminal shows no styles (TERM=dumb).
        parts.append(OptionLines([
            Text(f"{LIT_MARK if view.highlight == i else ' '}({key}) {option.label} ",
                 style="reverse" if view.highlight == i else "")
            for i, (option, key) in enumerate(zip(view.options, keys, strict=True))]))
        if any(key.startswith(_BUTTON_KEYS[Button.MENU]) for key in keys):
            parts.append(Text(MENU_LEGEND, style=SECONDARY))
    if view.status:
        # Guidance (the next step: why a die is typed, A accepts) as the prompt is; trouble
        # in red, as on the screen, and after a "!" that NO_COLOR and TERM=dumb keep.
        parts.append(Text(view.status, style="bold") if view.guidance
                     else Text(TROUBLE_MARK + view.status, style="bold red"))
    return Fitted(parts, rows)


@dataclass(frozen=True, slots=True)
class Sheet:
    """The PC sheet in its box; short of rows, its lines without the box, the first after
    "PC": a late floor's sheet (rings wrapping) and a menu of 12 made a frame of 24 rows at
    80x24 with the room's table already plain."""

    sheet: SheetView

    def steps(self, kind: GivesUp) -> int:
        return int(kind is GivesUp.SHEET)

    def shown(self, given: Given) -> RenderableType:
        if given[GivesUp.SHEET]:
            return Text("PC  " + "\n    ".join(self.sheet.lines()))
        return Panel(sheet_text(self.sheet), title="PC", title_align="left")


#: The Room table's place for a monster following the PC (JR-FLEE-2).
PURSUING = "追跡 pursuing"


@dataclass(frozen=True, slots=True)
class Room:
    """The room's four tiles; short of rows, without the table's heading and rules: a late
    floor's PC sheet and menu made a frame of up to 29 rows at 80x24."""

    view: View

    def steps(self, kind: GivesUp) -> int:
        return int(kind is GivesUp.ROOM)

    def shown(self, given: Given) -> Table:
        if given[GivesUp.ROOM]:
            room = Table(title="Room 部屋", expand=True, title_justify="left", box=None,
                         show_header=False, pad_edge=False)
        else:
            room = Table(title="Room 部屋", show_header=True, expand=True, title_justify="left")
        for column in ("pos", "tile", "meaning", "state"):
            room.add_column(column)
        for pos, tile in zip(("TL", "TR", "BL", "BR"), self.view.room_tiles, strict=False):
            room.add_row(pos, tile.tile, str(tile.meaning), tile.detail)
        # The monsters following the PC (JR-FLEE-2), their tiles beside it, not in the room.
        for tile in self.view.pursuers:
            room.add_row(PURSUING, tile.tile, str(tile.meaning), tile.detail)
        return room


class OptionLines:
    """The options, ``(key) label`` each, side by side on as many lines as the terminal's
    width takes. An option is never broken across two lines: rich wraps a line at any
    space, and the Japanese half of a label alone at the start of the next line read as
    one more option, with no key. One wider than a whole line has a line of its own."""

    def __init__(self, options: Sequence[Text]) -> None:
        self.options = list(options)

    def __rich_console__(self, console: Console, options: ConsoleOptions) \
            -> Iterator[Text]:
        line = Text()
        for option in self.options:
            if line and line.cell_len + 1 + option.cell_len > options.max_width:
                yield line
                line = Text()
            if line:
                line.append(" ")
            line.append_text(option)
        if line:
            yield line


DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def dice_panel(dice: DiceView, rolls_given: int = 0) -> RenderableType:
    """The dice tray: the faces thrown, the BCDice lines (the first ``rolls_given`` of them
    left out), the table's walk (indented)."""
    text = Text()
    if dice.title:
        text.append(dice.title + "\n", style="bold yellow")
    if dice.faces:
        # A D6's pips; any other die by its sides, not as a D6 face (a D4's 1 is not ⚀).
        text.append("  ".join(
            "?" if f == TO_TYPE  # still to be typed, as the question says it
            else f"{DIE_FACES[f - 1]} {f}" if dice.sides_of(i) == 6 and 1 <= f <= 6
            else f"D{dice.sides_of(i)} {f}" for i, f in enumerate(dice.faces)) + "\n",
            style="bold")
    for line in dice.rolls[rolls_given:]:
        text.append(line + "\n", style="cyan")
    for step in dice.steps:
        text.append("  " * step.depth)
        text.append(step.rule, style=SECONDARY)
        text.append(f"  {step.text}\n")
    text.rstrip()
    title = "Dice ダイス" + (f" · {dice.source}" if dice.source else "")
    return Panel(text, title=title, title_align="left")


@dataclass(frozen=True, slots=True)
class DicePart:
    """The dice tray's panel, whose BCDice lines give way, oldest first, where a table's
    walk is under them: each of its rows says its roll again (``(1D6) ＞ 6 ＞ …``). A
    poison's outcome was 25 rows at 80x24, the tray's name and the faces cleared off."""

    dice: DiceView

    def steps(self, kind: GivesUp) -> int:
        return len(self.dice.rolls) if kind is GivesUp.DICE_ROLLS and self.dice.steps else 0

    def shown(self, given: Given) -> RenderableType:
        return dice_panel(self.dice, given[GivesUp.DICE_ROLLS])


def fight_panels(fight: FightView) -> list[RenderableType | Gives]:
    """A fight: the combatants (▶ whose turn), the board, the last result with its terms,
    the log."""
    parts: list[RenderableType | Gives] = [Fighters(fight)]
    board = None if fight.board is None else BoardPart(fight.board)
    result = ResultPart(fight) if fight.result or fight.faces or fight.result_title else None
    if board is not None and result is not None:
        parts.append(BoardBesideResult(board, result))
    else:
        parts.extend(part for part in (board, result) if part is not None)
    if fight.log:
        parts.append(Lines("Log 記録", fight.log[-6:], GivesUp.FIGHT_LOG))
    return parts


@dataclass(frozen=True, slots=True)
class Fighters:
    """The combatants' table; short of rows, without its heading and rules, one line a
    combatant where its pools and conditions fit (a CoC fight's four were 13 rows at 80
    columns, each SAN on a line of its own, and are 5)."""

    fight: FightView

    def steps(self, kind: GivesUp) -> int:
        return int(kind is GivesUp.FIGHTERS)

    def shown(self, given: Given) -> Table:
        return fighters_table(self.fight, compact=given[GivesUp.FIGHTERS] > 0)


def fighters_table(fight: FightView, compact: bool = False) -> Table:
    """The combatants (▶ whose turn), ``compact``: no heading, no rules, no cell padding at
    the table's edges."""
    title = f"{fight.title} · {fight.heading}" if fight.title else fight.heading
    if compact:
        table = Table(title=title, expand=True, title_justify="left", title_style="bold yellow",
                      box=None, show_header=False, pad_edge=False)
    else:
        table = Table(title=title, expand=True, title_justify="left", title_style="bold yellow")
    for column in ("", "name 名前", "side 陣営", "HP / MP"):
        table.add_column(column)
    # Empty, the conditions column takes what the others leave, its heading wrapped: rich
    # narrowed the widest column first, and a name wrapped beside 17 empty cells
    # (newuser61 N12, "駆け出し冒険者１ PC" over "1" at 80 columns); never less than 状態
    # whole, which was "…" below 72 columns (review61d N7). A heading of "conditions"
    # whole would wrap the names from 79 columns down.
    empty = not any(f.conditions for f in fight.fighters)
    # The heading its own "…": a condition folds, the column's overflow, and the heading
    # with it read "condition" over "s 状態" below 57 columns (review61g N2).
    table.add_column(Text("conditions 状態", overflow="ellipsis"), ratio=1 if empty else None,
                     overflow="ellipsis" if empty else "fold",
                     width=cell_len("状態") if empty and not compact else None)
    for f in fight.fighters:
        style = DOWN if f.down else "bold yellow" if f.acting else ""
        table.add_row("▶" if f.acting else "", Text(str(f.name), style=style),
                      Text(str(f.side), style="green" if f.ally else "red"), f.pools(),
                      Text(", ".join(f.conditions), style="red" if f.down else "yellow"))
    return table


@dataclass(frozen=True, slots=True)
class BoardPart:
    """A fight's board; short of rows, its column letters in its bottom border."""

    board: BoardView

    def steps(self, kind: GivesUp) -> int:
        return int(kind is GivesUp.BOARD)

    def shown(self, given: Given) -> Panel:
        if not given[GivesUp.BOARD]:
            return Panel(board_text(self.board), title=self.board.title, title_align="left",
                         expand=False)
        # The border's corner and the space before the subtitle are the two cells the
        # squares' "│ " takes: the letters stay over their columns.
        letters = Text(column_letters(self.board).removeprefix(" ").rstrip(), style=SECONDARY)
        return Panel(board_text(self.board, letters=False), title=self.board.title,
                     title_align="left", subtitle=letters, subtitle_align="left",
                     expand=False)


@dataclass(frozen=True, slots=True)
class ResultPart:
    """A fight's last result; short of rows, its oldest lines give way (its title and its
    newest line stay), a line saying how many: a burst's 13 lines were 26 rows beside the
    board at 80 columns."""

    fight: FightView

    def steps(self, kind: GivesUp) -> int:
        return max(len(self.fight.result) - 1, 0) if kind is GivesUp.RESULT else 0

    def shown(self, given: Given) -> Panel:
        return result_panel(self.fight, given[GivesUp.RESULT])


def result_panel(fight: FightView, given: int = 0) -> Panel:
    """The last result: its title, the faces, its lines with their rule IDs, the first
    ``given`` of them left out."""
    text = Text()
    if fight.result_title:
        text.append(fight.result_title + "\n", style="bold yellow")
    if fight.faces:
        text.append("  ".join("?" if v == TO_TYPE else f"{DIE_FACES[v - 1]} {v}"
                              if 1 <= v <= 6 else str(v) for v in fight.faces) + "\n",
                    style="bold")
    if given:
        text.append(f"… {given} earlier line{'s' if given > 1 else ''} 前の{given}行を省略\n",
                    style=SECONDARY)
    for step in fight.result[given:]:
        text.append(step.rule, style=SECONDARY)
        text.append(f"  {step.text}\n", style="cyan" if "＞" in step.text else "")
    text.rstrip()
    title = "Result 結果" + (f" · {fight.source}" if fight.source else "")
    return Panel(text, title=title, title_align="left")


@dataclass(frozen=True, slots=True)
class BoardBesideResult:
    """The board and the result, each giving up rows in its turn, drawn :class:`Beside`."""

    board: BoardPart
    result: ResultPart

    def steps(self, kind: GivesUp) -> int:
        return self.board.steps(kind) + self.result.steps(kind)

    def shown(self, given: Given) -> Beside:
        return Beside(self.board.shown(given), self.result.shown(given))


class Beside:
    """A fight's board with its result to its right, where the terminal is wide enough for
    the result's lines beside it (:data:`BESIDE_WIDTH`), else the result under it: CoC's
    8×8 board over its result made a frame of 33 rows at 80x24 and 31 on the Pi's console
    (100x30), the header and combatants cleared off the top."""

    def __init__(self, board: Panel, result: Panel) -> None:
        self.board = board
        self.result = result

    def __rich_console__(self, console: Console, options: ConsoleOptions) \
            -> Iterator[RenderableType]:
        width = Measurement.get(console, options, self.board).maximum
        if options.max_width - width < BESIDE_WIDTH:
            yield self.board
            yield self.result
            return
        grid = Table.grid(expand=True)
        grid.add_column(width=width)
        grid.add_column(ratio=1, overflow="fold")
        grid.add_row(self.board, self.result)
        yield grid


#: The narrowest the result is drawn beside the board (its lines' rule ID and a check's
#: BCDice line, wrapped at most once or twice).
BESIDE_WIDTH = 40


#: A down piece's mark on the terminal's board, in its facing arrow's place (``Cx``, ``bx``):
#: crossed out, as the screen draws it. 倒れた駒の印。
DOWN_MARK = "x"

#: A facing as an arrow beside the mark, by its step (dx, dy), y up.
ARROWS = {(0, 1): "↑", (1, 1): "↗", (1, 0): "→", (1, -1): "↘", (0, -1): "↓", (-1, -1): "↙",
          (-1, 0): "←", (-1, 1): "↖"}


def board_text(board: BoardView, letters: bool = True) -> Text:
    """A fight's board as text, north up: each square four characters, a combatant its
    whole mark and an arrow toward its facing (``A↗``, ``B1↑`` where initials clash: the
    roster's B1 Bob and B2 Brute were both drawn ``B↑``; ``C10`` without one), a foe's in
    lower case (``c←``), green or red by side; a down one crossed out, its arrow an
    ``x`` (``Cx``; ``xC10`` before a mark of three); two in one square (a grapple) their
    marks' first characters. Under the rows the column letters, unless not ``letters``."""
    at: dict[tuple[int, int], list[PieceView]] = {}
    for piece in board.pieces:
        at.setdefault((piece.col, piece.row), []).append(piece)
    text = Text()
    for row in reversed(range(board.rows)):
        text.append(f"{row + 1} ", style=SECONDARY)
        for col in range(board.cols):
            pieces = at.get((col, row), [])
            if not pieces:
                # (An empty square's dot is no text to read: it stays faint, behind pieces.)
                text.append(" ·  " if (col + row) % 2 else " .  ", style="dim")
                continue
            piece = pieces[0]
            # A mark of three (the tenth of one initial, C10) leaves no room for the arrow. A
            # down piece has DOWN_MARK in its arrow's place (before a mark of three), which
            # TERM=dumb and NO_COLOR keep where its crossing out is lost.
            arrow = (DOWN_MARK if piece.down else ARROWS.get(piece.facing, " ")) \
                if len(piece.mark) < 3 else ""
            mark = side_mark(piece) + arrow if len(pieces) == 1 else \
                side_mark(pieces[0])[:1] + side_mark(pieces[1])[:1]
            lead = DOWN_MARK if piece.down and len(pieces) == 1 and len(piece.mark) >= 3 \
                else " "
            style = DOWN if piece.down else "bold green" if piece.ally else "bold red"
            text.append(f"{lead}{mark:<3}", style=style + (" reverse" if piece.acting else ""))
        text.append("\n")
    if letters:
        text.append(column_letters(board), style=SECONDARY)
    else:
        text.rstrip()
    return text


def column_letters(board: BoardView) -> str:
    """The board's row of column letters, each under its squares."""
    return "  " + "".join(f" {chr(ord('a') + col)}  " for col in range(board.cols))


def side_mark(piece: PieceView) -> str:
    """A piece's mark as the board prints it: a foe's in lower case (``c←``), so that its
    side does not rest on red and green alone (nor on colour at all under NO_COLOR)."""
    return piece.mark if piece.ally else piece.mark.lower()


def hp_bar(sheet: SheetView, width: int = 20) -> Text:
    fraction = max(0.0, min(1.0, sheet.hp / sheet.hp_max)) if sheet.hp_max else 0.0
    filled = round(width * fraction)
    color = "green" if fraction > 0.5 else "yellow" if fraction > 0.25 else "red"
    # (The bar's empty part is no text, and its numbers follow it: it stays faint.)
    bar = Text("█" * filled, style=color) + Text("░" * (width - filled), style="dim")
    return Text("HP ") + bar + Text(f" {sheet.hp}/{sheet.hp_max}")


def sheet_text(sheet: SheetView) -> str:
    return "\n".join(sheet.lines())
