"""The footer: the prompt (with its tile), the option buttons (one row, or a grid of two
rows in pages for a long menu), each with its key and a tap target, and the status.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pygame

from companion.hw.buttons import Button
from companion.hw.display.canvas import (
    ACCENT,
    BACKGROUND,
    BAD,
    DIM,
    HIGHLIGHT,
    PANEL,
    TEXT,
    TEXT_MIN,
    _kept,
)
from companion.hw.display.fight_panels import FightPanels
from companion.hw.display.fonts import holds_japanese, without_cjk
from companion.hw.display.keys import (
    back_button,
    menu_key,
    menu_presses,
    move_legend,
    option_key,
    page_turn,
)
from companion.hw.display.view import FightView, View

_BUTTON_KEYS = {Button.ATTACK: "A", Button.FLEE: "B", Button.RANGED: "R", Button.ITEM: "I",
                Button.MENU: "M"}
# A box keyed ``M×3`` is reached by three presses of MENU: a long press of item on the
# buttons, the m key on a keyboard.
MENU_LEGEND = "M = hold I 長押し · key m"
_ONE_ROW_MIN_W = 110  # (at 800x480) an option box narrower than this takes the two-row grid
# (at 800x480) the smallest an option's label is drawn: its 10 px capitals still read at
# arm's length (the 9-11 px it once shrank to did not); a longer label is cut in its middle
_LABEL_MIN = 14
_LABEL_PAD = 5  # (at 800x480) between a label and its box's sides: the grid's boxes are narrow
# (at 800x480) a tap target's least height, 44 px (about 8 mm on a 7-inch panel: a
# fingertip), and the least gap between two, so that a finger picks the box it is on
TAP_MIN = 44
TAP_GAP = 8
# (at 800x480) an option box's widest: wider, one or two options read as a banner
_BOX_MAX_W = 190
# The rows a long status may take from the body: at text_scale 1.25 the longest reader fault
# beside a read on offer ("cannot open …: another program is using it …") needs five more
_STATUS_MORE_ROWS = 5
# The most rows a prompt takes from the body before its last row is cut in its middle (the
# System menu's "Not safe to unplug yet …" and its reason need three on a game screen, "The
# Pi did not power off …" and a coc d100's roll over a fight's keypad as many at 1.25)
_PROMPT_MAX_ROWS = 3
# (at 800x480) the least a dice tray's body keeps when its prompt takes rows past
# _PROMPT_MAX_ROWS: its panels' titles, the question, a row of dice and a roll's line. The
# dice camera's "pictures ran out" and its advice need five at 800x480 (six at 1.25), and
# its middle, what to give instead, was cut (maker73 NIT 4)
_TRAY_BODY_MIN = 160
#: Option labels fitted (:meth:`OptionButtons._label_rows`), by text, size and box.
_LABEL_CACHE_LIMIT = 512


class OptionButtons(FightPanels):
    """The footer and its option buttons, which record where a tap picks what."""

    _label_cache: dict[tuple[str, int, int, int, float, int], tuple[list[str], int]]
    #: Grid labels fitted by their ink (:meth:`OptionButtons._label_inked`), by text, size
    #: and box.
    _inked_cache: dict[tuple[str, int, int, int, float], tuple[list[str], int, int]]
    height: int  # the screen's (ScreenDisplay sets it, as Canvas's width)
    #: The last view :meth:`_prompt_room` answered for (it is asked many times a frame),
    #: what else the answer depends on, and the answer.
    _room_memo: tuple[View, tuple[int, int, float], tuple[int, int]] | None = None
    #: The last view :meth:`_grid_rows` answered for, what else it depends on, and the answer.
    _grid_rows_memo: tuple[View, tuple[int, int, float], int] | None = None

    def _needs_grid(self, view: View) -> bool:
        """Whether a menu outside a fight needs the fight's grid (two rows, pages): when one
        row would give its options boxes narrower than a short label reads in; or, for more
        than four without a status, when a label would be cut in the box one row gives it
        (at the labels' own text size, ``display.text_scale``: the grid's two rows give them
        boxes twice as wide). The System menu read "[2] New ga…", "[6] Shut do…" at text
        size 1.25 (800x480), and JongRogue's "What next?" of seven "[7] Doff ar…" over
        "鎧…を外す" (720x1280), in one row (a76screen DEFECT 2). A least width scaled by the
        text size instead sent every menu of six to the grid at 1.25, its labels whole in
        one row: the taller footer cost the Log its newest entry's second row and the Last
        check its middle (r76screen DEFECT 1). Four or fewer are one row in the grid too:
        the row's own status beside or over them, and boxes widened for a long label
        (:meth:`_full_box_w`), keep them whole; with a status, more than four already take
        the grid at the least width (the boxes have three fifths of the row)."""
        count = len(view.options)
        if count <= 1:
            return False
        m = self.m
        share = (self.width - m(20)) * (3 if view.status else 5) // 5
        each = (share - m(8) * (count - 1)) // count
        if each < m(_ONE_ROW_MIN_W):
            return True
        if count <= 4 or view.status:
            return False
        # The row :meth:`_footer` gives the boxes: beside the prompt's tile on a game screen
        # (its picture at its tallest), under the prompt's rows, each a row taller footer
        # (:meth:`_footer_height`); the boxes take its share (:meth:`_full_box_w`).
        row_w = self._game_prompt_width(view) if view.dice is None and view.fight is None \
            else self.width - m(20)
        return not self._labels_whole(view, (row_w - m(8) * (count - 1)) // count,
                                      m(96) - m(8) - (m(12) + m(24)))

    def _grid(self, view: View) -> bool:
        """Whether the options are drawn in the grid: a fight's menu of more than four (up to
        four is one row, as any short menu: the status has the room beside it), or a menu
        one row squeezes."""
        return bool(view.options) and ((view.fight is not None and len(view.options) > 4)
                                       or self._needs_grid(view))

    def _legends(self, view: View, width: int, fit: tuple[int, int] | None = None) \
            -> list[pygame.Surface]:
        """What stands at the prompt's right in ``width``: what M means when a box is keyed
        with it (nothing else says it), and how the buttons move and take (the boxes show
        number keys, which a player with the buttons alone has not), this only while the
        prompt still reads whole beside it in its rows at its size (``fit``, else
        :meth:`_prompt_fit`'s)."""
        if not view.options or view.message:
            return []
        m = self.m
        legends = [self._text(MENU_LEGEND, m(TEXT_MIN), DIM)] if self._menu_keyed(view) else []
        moves = move_legend(view.options)
        if moves:
            legend = self._text(moves, m(TEXT_MIN), DIM)
            room = width - sum(s.get_width() + m(12) for s in [*legends, legend])
            rows, size = self._prompt_fit(view) if fit is None else fit
            if len(self._wrap(view.prompt, size, room)) <= rows:
                legends.append(legend)
        return legends

    def _drawn_prompt_width(self, view: View, width: int, fit: tuple[int, int]) -> int:
        """The prompt's width in a footer row ``width`` wide as :meth:`_footer` draws it: less
        the legends at its right (:meth:`_legends`), the prompt in ``fit``'s rows and size.
        The footer's height counted the tray menu's prompt at the row's width, one row, and
        drew it in two beside "I next 次 · R prev 前へ · A ok 決定": its boxes were left 28 px
        tall, under a fingertip's (screen68)."""
        m = self.m
        return width - sum(s.get_width() + m(12) for s in self._legends(view, width, fit))

    def _prompt_room(self, view: View) -> int:
        """How many rows the footer gives the prompt (:meth:`_prompt_fit`)."""
        return self._prompt_fit(view)[0]

    def _prompt_size(self, view: View) -> int:
        """The prompt's text size in the footer (:meth:`_prompt_fit`)."""
        return self._prompt_fit(view)[1]

    def _prompt_fit(self, view: View) -> tuple[int, int]:
        """How many rows the footer gives the prompt, and its size: three with nothing under
        it; else the rows it needs to read whole at m(17) (up to :data:`_PROMPT_MAX_ROWS`),
        and never fewer than the footer holds at its own height (:meth:`_base_prompt_rows`).
        A prompt longer than that base makes the footer taller by a row each
        (:meth:`_footer_height`), and the body (a game's room and sheet, a dice tray's)
        gives them up; over a fight, only what its panels can spare
        (:meth:`_fight_prompt_fit`), the prompt set smaller where that reads whole.
        The System menu's "Shutting down … unplug once the Pi's green light stays off" and
        a tile prompt beside a read on offer ("put it on th…") were cut in their middle on a
        game screen (display audit 56, items 1, 2); over a fight, which gave two rows (one
        over a keypad's grid), "The Pi did not power off … (systemctl poweroff was t…to
        unplug now" and a d100's "Ann キック/Kick+MA (1D100<=60…t [MA]: type the D100, tens"
        (its target and threshold lost) were (fixt65c RISK, review64s NIT 3)."""
        m = self.m
        if not view.options and not view.status:
            return 3, m(17)
        base = self._base_prompt_rows(view)
        if view.message or (self._grid(view) and view.dice is None and view.fight is None):
            # A message's prompt is in the body (``_message``); a game screen's over a grid
            # (the ring menu, the picks beside a read's status) keeps its one row: its Last
            # check, room and sheet need the body (the Last check lost its outcome under the
            # grid with larger text). With neither a status nor a Last check (a game's start,
            # a menu one row would cut: :meth:`_needs_grid`), the prompt has two rows where it
            # needs them, not cut in its middle ("Draw a tile and put it…いて: 1d9 for the
            # start room", six tile picks at text 1.25; r76screen RISK 1).
            if view.message or view.status or view.last_check:
                return base, m(17)
            needed = len(self._wrap(view.prompt, m(17), self._prompt_width(view)))
            return max(base, min(2, needed)), m(17)
        memo = self._room_memo
        if memo is not None and memo[0] is view and memo[1] == self._room_key():
            return memo[2]
        needed = len(self._wrap(view.prompt, m(17), self._prompt_width(view)))
        fit = max(base, min(_PROMPT_MAX_ROWS, needed)), m(17)
        if view.fight is not None and fit[0] > base:
            fit = self._fight_prompt_fit(view, view.fight, base)
        elif view.dice is not None and needed > fit[0]:
            fit = self._tray_prompt_rows(view, needed, fit[0]), m(17)
        self._room_memo = (view, self._room_key(), fit)
        return fit

    def _tray_prompt_rows(self, view: View, needed: int, rows: int) -> int:
        """The rows a dice tray's prompt takes when it needs ``needed``, more than ``rows``:
        as many as it needs while the body keeps :data:`_TRAY_BODY_MIN` (the tray's panels
        are mostly empty when a long message is asked: the dice camera's pictures ran out),
        else as many more as the body spares; a prompt longer still is cut at its end
        (:meth:`_prompt_rows`)."""
        from companion.hw.display.screen import HEADER_HEIGHT  # the screen lays the body out

        m = self.m
        spare = self.height - m(HEADER_HEIGHT) - m(_TRAY_BODY_MIN)
        while needed > rows and self._footer_height(view, rows + 1) <= spare:
            rows += 1
        return rows

    def _room_key(self) -> tuple[int, int, float]:
        """What :meth:`_prompt_fit`'s answer for a view depends on besides the view."""
        return self.width, self.height, self.text_scale

    def _fight_prompt_fit(self, view: View, fight: FightView, base: int) -> tuple[int, int]:
        """The rows (more than ``base``) and size of a prompt over a fight. What the player
        needs of the fight comes first: every combatant's row in view with its HP, and the
        Result's newest step (its outcome) if it was in view at the footer's own height; the
        Log gives up its rows for them first (:meth:`_log_h`), then the Result's middle
        steps, behind an ellipsis (:meth:`_result_shown`). Then the prompt, whole: at its
        size in the rows it needs while the combatants' rows stay as they were (two lines
        each, their HP bars, if so); else a step smaller, down to TEXT_MIN, in the rows that
        leaves them; else at its size with one-line rows; else smaller with them. Only
        when none of those reads whole is its last row cut in its middle, as before.
        Three rows for a typed D6 of a fight of six hid two combatants ("▼ 2 more") and
        rows lost their HP bars; the Result lost its outcome, "Deep takes 4: HP -3/13"
        (reviews66 DEFECT 1)."""
        from companion.hw.display.screen import HEADER_HEIGHT  # the screen lays the body out

        m = self.m
        header = m(HEADER_HEIGHT)
        width = self._prompt_width(view)
        count = len(fight.fighters)
        states: dict[int, tuple[int, int]] = {}

        def state(rows: int) -> tuple[int, int]:
            """The combatants' rows' form and the Result's state with the prompt ``rows``."""
            if rows not in states:
                footer = self._footer_height(view, rows)
                rows_h, result = self._fight_shown(
                    fight, pygame.Rect(0, header, self.width, self.height - header - footer))
                states[rows] = self._fighters_form(count, rows_h), result
            return states[rows]

        form, result = state(base)
        # A fight that is over asks nothing more of its combatants: its prompt (what ended
        # it) reads whole before their last rows, which scroll into a window ("▼ 1 more"):
        # at text 1.25 it was cut in its middle, "the GM ended the fight" lost (screen74
        # NIT 5). The heading's row, the same outcome, gives way first (:meth:`_heading_h`).
        for least in (form, min(form, 1), *((0,) if fight.outcome else ())):
            for size in (m(17), m(15), m(TEXT_MIN)):
                rows = max(base, len(self._wrap(view.prompt, size, width)))
                if rows > _PROMPT_MAX_ROWS:
                    continue
                now_form, now_result = state(rows)
                if now_form >= least and now_result >= min(result, 1):
                    return rows, size
        return base, m(17)

    def _base_prompt_rows(self, view: View) -> int:
        """The prompt's rows the footer holds at its own height: one over a grid, or on a
        game screen (its room, sheet and log need the body whole), two with a tile prompt's
        status of one row (what the tile is for: "melee 近接攻撃 vs 大蛇 snake (判定 1d9 >=
        3)"); else two, so that a throw's prompt keeps what the throw is for (a dice tray's
        or a fight's panels give up the row a taller footer takes)."""
        if self._grid(view):
            return 1
        if view.dice is None and view.fight is None:
            return self._game_prompt_rows(view)
        return 2

    def _prompt_width(self, view: View) -> int:
        """The prompt's width: beside its tile on a game screen; a dice tray's or a fight's
        has none, its width the footer's; less the MENU legend at its right when a box is
        keyed with M (:meth:`_legends`; the other legend stands there only while the prompt
        reads whole beside it)."""
        m = self.m
        width = self._game_prompt_width(view) if view.dice is None and view.fight is None \
            else self.width - m(20)
        if view.options and not view.message and self._menu_keyed(view):
            width -= self._text_width(MENU_LEGEND, m(TEXT_MIN)) + m(12)
        return width

    def _game_prompt_rows(self, view: View) -> int:
        """The prompt's rows a game screen's footer holds at its own height."""
        return 2 if not view.options and self._one_row_status(view) else 1

    def _game_prompt_width(self, view: View) -> int:
        """A game screen's prompt's width beside its tile (the picture at its tallest, so
        that the rows counted are never fewer than it takes)."""
        m = self.m
        left = m(10)
        if view.prompt_tile:
            left += self._tile(view.prompt_tile, self._picture_h(m(118))).get_width() + m(10)
        return self.width - left - m(10)

    def _one_row_status(self, view: View) -> bool:
        """Whether the status fits one row of the footer at its smaller size."""
        m = self.m
        left = m(10)
        if view.prompt_tile:  # the picture's width at the game screen's footer height
            left += self._tile(view.prompt_tile, m(96) - m(12)).get_width() + m(10)
        return len(self._wrap(view.status, m(TEXT_MIN), self.width - left - m(10))) == 1

    def _prompt_rows(self, view: View, width: int, room: int | None = None,
                     size: int | None = None) -> list[str]:
        """The prompt's rows in the footer; when it runs on, the rest is on the last row, to
        be cut in its middle (its end is what is asked: "attack! 攻撃！", a tile's purpose).
        A dice tray's is cut at its end instead, after its last whole word, with "…": its
        options say what is asked, and a middle cut lost the advice's point, "give one
        picture o…ng between them" (maker73 NIT 4); it has the rows the body spares first
        (:meth:`_tray_prompt_rows`)."""
        if view.message:  # its prompt is in the body (``_message``), not here
            return []
        if room is None or size is None:
            room, size = self._prompt_fit(view)
        lines = self._wrap(view.prompt, size, width)
        shown = lines[:room]
        if len(lines) > room:
            rest = " ".join(lines[room - 1:])
            shown[-1] = self._cut_at_word(rest, size, width) if view.dice is not None \
                and view.fight is None else rest
        return shown

    def _cut_at_word(self, text: str, size: int, width: int) -> str:
        """``text`` cut after the last whole word that fits ``width`` with "…" after it (its
        trailing comma or colon dropped); as it is if it fits, a character cut
        (:meth:`_fit`) if not even its first word does."""
        if self._text_width(text, size) <= width:
            return text
        words = text.split(" ")
        for count in range(len(words) - 1, 0, -1):
            cut = " ".join(words[:count]).rstrip(",;:") + "…"
            if self._text_width(cut, size) <= width:
                return cut
        return text

    def _grid_status_h(self, view: View) -> int:
        """The height a status over a grid takes (none without one): on a game screen its
        rows' glyphs, not their padding, end in it (:meth:`_rows_fit`), or at larger text
        its second row was not drawn, its end cut on the first; a fight's as before."""
        if not view.status:
            return 0
        rows, step = self._grid_status_rows(view), self._step(self.m(16))
        if view.fight is not None:  # its panels need every pixel (_fight_prompt_fit)
            return step * rows + self.m(2)
        ink = self._text("国g", self.m(TEXT_MIN)).get_bounding_rect().bottom
        return max(step * rows, step * (rows - 1) + ink if self.text_scale > 1 else 0) \
            + self.m(2)

    def _grid_status_drop(self, view: View, size: int) -> int:
        """How much lower than its place the status over a grid starts, under a prompt of
        ``size``: its glyphs start a little under the prompt's last row's (descenders, the
        y and p of "type the D100"), which at text_scale 1.25 ran 2 px into them on the dice
        tray's keypad and the 34-tile picks (screen72 NIT 6). Nothing where they are that
        far apart already (800x480 at its own size), nor over a fight, whose combatants'
        rows and Result need every row of the body (the pixels cost a long prompt its
        whole reading, :meth:`_fight_prompt_fit`)."""
        m = self.m
        if view.fight is not None:
            return 0
        prompt_ink = self._text("国gy", size).get_bounding_rect().bottom
        status_ink = self._text("国Ád", m(TEXT_MIN)).get_bounding_rect().top
        return max(0, prompt_ink + m(1) - (m(29) - m(6) + status_ink))

    def _grid_status_rows(self, view: View) -> int:
        """The rows a status over a grid takes: two when one does not hold it, the body giving
        up the row (a fight's panels, or a game screen's Room and Last check: JR-STATE-2's
        stairs status lost its Japanese, and at text 1.25 the end of its English, on one
        row; screen74 DEFECT 2)."""
        m = self.m
        if not view.status:
            return 1
        size = m(TEXT_MIN)
        return min(2, len(self._hanging(view.status, size, self.width - m(20),
                                        self._warning_mark_w(size))))

    def _footer_height(self, view: View, rows: int | None = None,
                       grid_rows: int | None = None) -> int:
        """The footer's height: taller for a fight, a grid or a prompt of two rows; a band
        under a message with nothing to choose nor any status. A grid
        is the prompt's row (or the status's rows), then its rows of boxes (two, or three:
        :meth:`_grid_rows`; ``grid_rows`` if given) a fingertip tall (:data:`TAP_MIN`) and
        :data:`TAP_GAP` apart: the body gives up what they need.
        ``rows``: the prompt's rows, if not :meth:`_prompt_room`'s."""
        m = self.m
        room, size = self._prompt_fit(view) if rows is None else (rows, m(17))
        if view.message and not view.options and not view.status:
            # Nothing to put in it (a stop starting again shortly, Shutting down): a band, not
            # an empty fifth of the screen under the message (screen64 NIT 5).
            return m(12)
        if self._grid(view):
            status = self._grid_status_h(view)
            more = m(24) * (room - 1)  # a prompt's rows past its one
            # as :meth:`_footer` puts it
            above = m(32) + self._grid_status_drop(view, size) + status if status else m(12) + m(24)
            grid_rows = self._grid_rows(view) if grid_rows is None else grid_rows
            return above + more + grid_rows * m(TAP_MIN) + (grid_rows - 1) * m(TAP_GAP) + m(8)
        # (A dice tray's or fight's prompt has no tile beside it: its width is the footer's.)
        table = view.dice is not None or view.fight is not None
        # With nothing under it, three rows of prompt fit the shorter footer.
        two_rows = table and bool(view.options or view.status) and len(self._prompt_rows(
            view, self._drawn_prompt_width(view, self.width - m(20), (room, size)), room,
            size)) > 1
        height = m(118) if view.fight is not None or two_rows else m(96)
        if not view.message and (view.options or view.status):
            # A prompt of more rows than its footer holds: a row more each.
            height += m(24) * (room - self._base_prompt_rows(view))
        return height + self._status_more(view, height, room, size)

    def _status_more(self, view: View, height: int, room: int | None = None,
                     size: int | None = None) -> int:
        """What a long status (a reader's fault and its remedy, alone or beside a read on
        offer and its Accept and Reject) needs more than a footer ``height`` tall gives it,
        to read whole at :data:`TEXT_MIN`: up to :data:`_STATUS_MORE_ROWS` rows more, from
        the body. Beside a read on offer "cannot open /dev/ttyACM0: another program is
        using it …" was cut after three rows (display audit 54, item 3): what to do about
        the fault is at its end.

        Over the boxes, it takes only the pixels it needs, not whole rows: each row the
        body gives up was the Log panel's newest line or the last check's outcome at text
        scale 1.25 (reviews72 RISK 1)."""
        if not view.status or view.message or self._grid(view):
            return 0
        m = self.m
        step = self._step(m(16))
        fit = (room, size) if room is not None and size is not None \
            else self._prompt_fit(view)

        def row(more: int) -> tuple[int, int]:
            """The row under the prompt (width, height) in a footer ``more`` pixels taller."""
            footer = height + more
            x = m(10)
            if view.prompt_tile:
                x += self._tile(view.prompt_tile, self._picture_h(footer)).get_width() + m(10)
            width = self.width - x - m(10)
            top = m(12) + m(24) * max(1, len(self._prompt_rows(
                view, self._drawn_prompt_width(view, width, fit), *fit)))
            return width, footer - m(8) - top

        def over(more: int) -> bool:
            return bool(view.options) and bool(self._status_over(view, *row(more),
                                                                 not view.guidance))

        def boxes(more: int) -> tuple[int, int]:
            """The boxes' width and height under the status over them."""
            width, row_h = row(more)
            return (self._full_box_w(view, width),
                    row_h - self._status_over(view, width, row_h, not view.guidance) - m(4))

        def roomy(more: int, sizes: list[int]) -> bool:
            """Whether the labels keep ``sizes`` (as at a whole row more) in the boxes, their
            ink clear of the borders: the least pixels shrank them, and the second row's
            descenders crossed the border (reviews72 NIT 7)."""
            return over(more) and all(
                at >= least for at, least in zip(self._label_sizes_of(view, *boxes(more)),
                                                 sizes, strict=True)) \
                and self._labels_clear(view, *boxes(more))

        beside: int | None = None  # the rows it reads whole in beside boxes with a label cut
        for more in range(_STATUS_MORE_ROWS + 1):
            width, row_h = row(more * step)
            cut = False  # a label cut at every share of the row beside the status
            if over(more * step):  # over the boxes (see _footer): its least pixels
                low, high = max(0, (more - 1) * step), more * step
                sizes = self._label_sizes_of(view, *boxes(high))
                if not roomy(high, sizes):
                    # Boxes a fingertip tall (640x384) whose labels still reach their
                    # borders: drawn tight (_footer), in the least pixels that take them
                    # clear, up to a row more (reviews72 NIT 7: "(8 of characters)" touched
                    # the borders at 640x384, text size 1.25).
                    return next((px for px in range(low, high + step + 1) if over(px)
                                 and self._labels_clear(view, boxes(px)[0],
                                                        boxes(px)[1] + self._tight_gain(),
                                                        tight=True)), high)
                while high - low > 1:
                    middle = (low + high) // 2
                    low, high = (low, middle) if roomy(middle, sizes) else (middle, high)
                return low if roomy(low, sizes) else high
            if view.options:  # beside the boxes at their narrowest (see _footer)
                shares = self._box_shares(view, width, row_h)
                cut = not self._labels_whole(view, self._box_w(view, width, shares[0]), row_h)
                width -= len(view.options) * (self._box_w(view, width, shares[-1]) + m(TAP_GAP))
            if self._status_fits(view.status, width, row_h, not view.guidance):
                if not cut:
                    return more * step
                # Rows more may put it over the boxes, their labels then whole; else this.
                beside = more * step if beside is None else beside
        return _STATUS_MORE_ROWS * step if beside is None else beside

    def _picture_h(self, footer_h: int) -> int:
        """The prompt's tile picture's height in a footer ``footer_h`` tall: it grows with
        the footer no taller than a fight's, so that rows given to a long status widen it
        rather than the picture."""
        return min(footer_h, self.m(118)) - self.m(12)

    def _box_max_w(self) -> int:
        """An option box's widest (:data:`_BOX_MAX_W`), as wide a share of the screen's width
        as at 800x480: the scale is the height's on a screen wider than 5:3, and a cap
        scaled by it left the grid's last box 74 px short of the edge at 1280x720
        (screen64 NIT 4)."""
        return max(self.m(_BOX_MAX_W), round(_BOX_MAX_W * self.width / 800))

    def _box_w(self, view: View, row_w: int, fifths: int) -> int:
        """An option box's width in one row ``row_w`` wide whose boxes take ``fifths``
        fifths of it, a status beside them."""
        count, gap = len(view.options), self.m(TAP_GAP)
        return min(self._box_max_w(), (row_w * fifths // 10 - gap * (count - 1)) // count)

    def _footer(self, view: View, rect: pygame.Rect) -> None:
        m = self.m
        pygame.draw.rect(self.surface, PANEL, rect)
        x = m(10)
        if view.prompt_tile:
            picture = self._tile(view.prompt_tile, self._picture_h(rect.h))
            self.surface.blit(picture, (x, rect.y + m(6)))
            x += picture.get_width() + m(10)
        prompt_w = rect.w - x - m(10)
        right = rect.right - m(10)
        for legend in self._legends(view, right - x):
            self.surface.blit(legend, legend.get_rect(topright=(right, rect.y + m(10))))
            right -= legend.get_width() + m(12)
        prompt_w = right - x
        shown = self._prompt_rows(view, prompt_w)
        size = self._prompt_size(view)
        for i, line in enumerate(shown):
            # A prompt that runs on is cut in the middle of its last row (see _prompt_rows).
            runs_on = self._text(line, size).get_width() > prompt_w
            fit = self._fit_middle if runs_on else self._fit
            self.surface.blit(fit(line, size, prompt_w, ACCENT), (x, rect.y + m(6) + i * m(24)))
        self._targets = []
        self._more = None
        grid = self._grid(view)
        # Guidance (the next step: throw again, A accepts) is drawn as the prompt is, trouble
        # (a save behind, a die it doubts) in the trouble colour after a warning mark.
        trouble = not view.guidance
        # Below the prompt: the options, then the status (a read to confirm, a problem).
        top = m(10) if view.message else m(12) + m(24) * max(1, len(shown))
        row = pygame.Rect(x, rect.y + top, rect.right - x - m(10), rect.bottom - m(8)
                          - rect.y - top)
        if grid and view.status:
            # Over two rows of options, the status has the rows under the prompt.
            status_h = self._grid_status_h(view)
            # under the prompt's last row
            more = m(24) * (len(shown) - 1) + self._grid_status_drop(view, size) if shown else 0
            self._status(view.status, pygame.Rect(x, rect.y + m(29) + more,
                                                  rect.w - x - m(10), status_h), trouble)
            row.y = rect.y + m(32) + more + status_h
            row.h = rect.bottom - m(8) - row.y
        gap = m(TAP_GAP)
        over = 0 if grid or not view.options or not view.status \
            else self._status_over(view, row.w, row.h, trouble)
        if over:
            self._status(view.status, pygame.Rect(row.x, row.y, row.w, over), trouble)
            row.y += over + m(4)
            row.h = rect.bottom - m(8) - row.y
        if grid:
            self._option_grid(view, row)
        elif view.options:
            count = len(view.options)
            # Beside a status, the boxes take three fifths of the row, or less (a half, two
            # fifths) where the status reads whole only so: it is set no smaller (TEXT_MIN).
            # Never so few that a label is cut (_box_shares): the status then has the
            # rows _status_more gave the footer, and is cut at its end past them.
            if view.status and not over:
                shares = self._box_shares(view, row.w, row.h)
                fifths = shares[-1]
                for fifths in shares:
                    beside = row.w - count * (self._box_w(view, row.w, fifths) + gap)
                    if self._status_fits(view.status, beside, row.h, trouble):
                        break
            box_w = self._box_w(view, row.w, fifths) if view.status and not over \
                else self._full_box_w(view, row.w, row.h)
            # Under a status, boxes a fingertip tall whose labels reach their borders are
            # drawn tight (:meth:`_tight_gain`; _status_more gave them the rest).
            tight = bool(over) and not self._labels_clear(view, box_w, row.h)
            if tight:
                row.y -= m(4) - m(2)
                row.h = rect.bottom - m(4) - row.y
            boxes = [pygame.Rect(row.x + i * (box_w + gap), row.y, box_w, row.h)
                     for i in range(count)]
            self._options(view, list(range(count)), boxes,
                          m(_LABEL_MIN) if tight else m(16), tight=tight, inked=not tight)
            row.x = boxes[-1].right + gap
            row.w = rect.right - m(10) - row.x
        if view.status and not grid and not over:
            self._status(view.status, row, trouble)

    def _tight_gain(self) -> int:
        """What boxes under a status too short for their labels to keep clear of their
        borders (640x384, text size 1.25) take of the footer's margins, drawn tight: half
        the margin under them and of the gap over them. Their labels are then at their
        least size and centred by their ink (:meth:`_label_y`), whose descenders (``(8 of
        characters)``) touched the borders (reviews72 NIT 7): the pixels that takes, from
        the body, cost the Last check its outcome."""
        m = self.m
        return m(8) - m(4) + m(4) - m(2)

    def _full_box_w(self, view: View, row_w: int, box_h: int | None = None) -> int:
        """An option box's width in one row ``row_w`` wide that they have to themselves: at
        most the widest (:meth:`_box_max_w`); drawn ``box_h`` tall, the row's whole share
        where a label reads whole only wider, as in the grid's one row
        (:meth:`_option_grid`). A coc weapon menu of three, "[A] 拳銃(リボルバー)/Revolver
        6/6", read "[A] 拳銃…)/Revolver" at text size 1.25 beside a third of the row empty
        (a76screen DEFECT 1). Whether a status goes over the boxes (:meth:`_status_over`,
        :meth:`_status_more`) is judged at the widest, as before."""
        count, gap = len(view.options), self.m(TAP_GAP)
        share = (row_w - gap * (count - 1)) // count
        box_w = min(self._box_max_w(), share)
        if box_h is not None and box_w < share and not self._labels_whole(view, box_w, box_h):
            return share
        return box_w

    def _status_over(self, view: View, row_w: int, row_h: int, trouble: bool) -> int:
        """The height of the status put over the boxes of a row ``row_w`` by ``row_h``,
        rather than beside them, or 0 (beside): only where no share of the row beside it
        keeps every label whole (:meth:`_box_shares`) and, over them, the status reads whole
        and the boxes below it have the row's width and keep every label whole
        (screen72 DEFECT 2: the picks after an unsure read lost the tile's name at
        text_scale 1.25). :meth:`_status_more` gives the footer the rows it takes."""
        m = self.m
        if any(self._labels_whole(view, self._box_w(view, row_w, fifths), row_h)
               for fifths in (6, 5, 4)):
            return 0
        size = m(TEXT_MIN)
        indent = self._warning_mark_w(size) if trouble else 0
        rows = len(self._hanging(view.status, size, row_w, indent))
        step = self._step(m(16))
        # Its rows' glyphs, not their padding, are what must end above the boxes (_rows_fit).
        ink = self._text("国g", size).get_bounding_rect().bottom
        height = max(step * rows, step * (rows - 1) + ink if self.text_scale > 1 else 0)
        if not self._status_fits(view.status, row_w, height, trouble):
            return 0
        below = row_h - height - m(4)
        if below < m(TAP_MIN) or not self._labels_whole(
                view, self._full_box_w(view, row_w), below):
            return 0
        return height

    def _box_shares(self, view: View, row_w: int, row_h: int) -> tuple[int, ...]:
        """The fifths of a row ``row_w`` by ``row_h`` the boxes beside a status may take,
        widest first: three, a half, two, but only those at which every label reads whole.
        At text_scale 1.25 the long status of an unsure read narrowed the picks to two
        fifths, and ``8m 八萬 (8 of characters)`` read ``[A]…萬 (8…ers)``: the tile's name,
        what the player picks by, was cut for a status that reads as well on more rows
        (screen72 DEFECT 2). Where no share keeps them whole, all three, as before."""
        whole = tuple(fifths for fifths in (6, 5, 4)
                      if self._labels_whole(view, self._box_w(view, row_w, fifths), row_h))
        return whole or (6, 5, 4)

    def _labels_whole(self, view: View, box_w: int, box_h: int) -> bool:
        """Whether every option's label reads whole in a box ``box_w`` by ``box_h``."""
        return self._texts_whole(self._option_texts(view, range(len(view.options))),
                                 self.m(16), box_w, box_h)

    def _texts_whole(self, texts: Iterable[str], size: int, box_w: int, box_h: int) -> bool:
        """Whether every label of ``texts``, fitted from ``size`` down, reads whole in a box
        ``box_w`` by ``box_h``."""
        width = box_w - 2 * self.m(_LABEL_PAD)
        for text in texts:
            rows, at = self._label_rows(text, size, width, box_h - self.m(4))
            if any(self._text_width(row, at) > width for row in rows):
                return False
        return True

    def _label_sizes_of(self, view: View, box_w: int, box_h: int) -> list[int]:
        """The size each option's label is fitted at in a box ``box_w`` by ``box_h``."""
        m = self.m
        return [self._label_rows(text, m(16), box_w - 2 * m(_LABEL_PAD), box_h - m(4))[1]
                for text in self._option_texts(view, range(len(view.options)))]

    def _labels_clear(self, view: View, box_w: int, box_h: int, tight: bool = False) -> bool:
        """Whether every option's label, as :meth:`_options` draws it in a box ``box_w`` by
        ``box_h``, keeps its ink a little inside the box's border, the lit one's too (its
        rows are fitted by their steps, which a descender on the last row may pass).
        ``tight``: as drawn in boxes too short for that (:meth:`_label_y`), a pixel of the
        box's fill between the ink and the lit border."""
        m = self.m
        width = box_w - 2 * m(_LABEL_PAD)
        # the lit box's border, and a gap inside it
        clear = max(3, m(3)) + (1 if tight else m(2))
        for text in self._option_texts(view, range(len(view.options))):
            rows, at = self._label_rows(text, m(_LABEL_MIN) if tight else m(16), width,
                                        box_h - m(4))
            top, ink = self._label_ink(rows, at)
            drawn_top = self._label_y(rows, at, box_h, tight) + top
            if drawn_top < clear or drawn_top + ink > box_h - clear:
                return False
        return True

    def _label_ink(self, rows: Sequence[str], at: int) -> tuple[int, int]:
        """Where a label's ink starts under its first row's top, and its height."""
        first = self._text(rows[0], at).get_bounding_rect()
        last = self._text(rows[-1], at).get_bounding_rect()
        return first.top, self._label_step(at) * (len(rows) - 1) + last.bottom - first.top

    def _label_y(self, rows: Sequence[str], at: int, box_h: int, tight: bool) -> int:
        """The top of a label's first row in its box ``box_h`` tall: its rows centred by
        their line height; ``tight``, by their ink, whose centre is lower (the line's room
        above the capitals), which left its descenders on the border of a fingertip's box."""
        if tight:
            top, ink = self._label_ink(rows, at)
            return (box_h - ink) // 2 - top
        height = self._text(rows[0], at).get_height()
        return box_h // 2 - (self._label_step(at) * (len(rows) - 1) + height) // 2

    def _label_inked(self, text: str, size: int, box_w: int, box_h: int) \
            -> tuple[list[str], int, int]:
        """An option label's rows, their size and their first row's top in its box ``box_w`` by
        ``box_h``, fitted by its ink: as :meth:`_label_rows` fits it where its ink then keeps
        a pixel of the box's fill inside the lit border, centred by its line height; else
        the largest size from ``size`` down to :data:`_LABEL_MIN` whose rows read whole with
        their ink that clear, centred by the ink; else, where none is, the least size whose
        rows read whole, centred by the ink, which then keeps the most room to the borders.
        Fitted by their rows' steps alone, two rows of a grid widened for a long label (a
        coc defence menu's "[4] Iai Japanese Sword" over "日本刀 parry 居合で受け流し") kept a
        size whose second row's descenders and kana ran over and under the box's bottom
        border at text size 1.25 (720x1280, 640x384: finala73 RISK 1). The boxes keep their
        height at a larger text size, and two rows at :data:`_LABEL_MIN` grown by 1.25 are
        taller than a 44-px box's inside (800x480): such rows reach into its border, never
        past it."""
        def fit() -> tuple[list[str], int, int]:
            m = self.m
            width, height = box_w - 2 * m(_LABEL_PAD), box_h - m(4)
            clear = max(3, m(3)) + 1  # the lit border, and a pixel of fill inside it

            def whole(rows: Sequence[str], at: int) -> bool:
                return all(self._text_width(row, at) <= width for row in rows)

            rows, at = self._label_rows(text, size, width, height)
            ink_top, ink = self._label_ink(rows, at)
            lined = self._label_y(rows, at, box_h, False)
            if whole(rows, at) and clear <= lined + ink_top \
                    and lined + ink_top + ink <= box_h - clear:
                return rows, at, lined
            least = None
            for smaller in range(size, min(size, m(_LABEL_MIN)) - 1, -1):
                rows, at = self._label_rows(text, smaller, width, height, floor=smaller)
                if not whole(rows, at):
                    continue
                least = rows, at
                if self._label_ink(rows, at)[1] <= box_h - 2 * clear:
                    break
            # Never under _LABEL_MIN, the labels' floor: "[7] Doff" / "strength" / "増強を外
            # す" (720x1280, text 1.0) a pixel smaller cleared its border, in two rows, but
            # broke the floor (reviewy74 NIT 2); at the floor its ink reaches into the border.
            rows, at = least or self._label_rows(text, size, width, height)
            return rows, at, self._label_y(rows, at, box_h, True)

        rows, at, top = _kept(self._inked_cache, (text, size, box_w, box_h, self.text_scale),
                              _LABEL_CACHE_LIMIT, fit)
        return list(rows), at, top

    def _option_texts(self, view: View, indices: Iterable[int]) -> list[str]:
        """Options ``indices``' labels as their boxes show them, each after its key."""
        count = len(view.options)
        back = back_button(view.options)
        return [f"[{option_key(view.options[i], i, view.highlight, _BUTTON_KEYS, count, back)}] "
                f"{view.options[i].label}" for i in indices]

    def _status_fits(self, status: str, width: int, height: int, trouble: bool) -> bool:
        """Whether ``status`` reads whole in ``width`` by ``height`` (at its closer step)."""
        size = self.m(TEXT_MIN)
        indent = self._warning_mark_w(size) if trouble else 0
        return len(self._hanging(status, size, width, indent)) \
            <= max(1, self._rows_fit(0, height, self._step(self.m(16)), size))

    def _status(self, status: str, rect: pygame.Rect, trouble: bool = True) -> None:
        """The status (a read to confirm, a reader or save problem) wrapped in ``rect``, a
        step smaller if that fits it whole; else its last row shown ends with an ellipsis,
        so that a cut is never silent. Trouble is in BAD after a warning triangle, drawn
        rather than a glyph (pygame's own font has no ⚠), so that it is told from guidance
        (in ACCENT) by more than its colour; only its first row makes room for it."""
        m = self.m
        color = BAD if trouble else ACCENT
        size = m(TEXT_MIN)  # a step closer (not smaller) before a cut
        for step in (self._step(m(18)), self._step(m(16))):
            indent = self._warning_mark_w(size) if trouble else 0
            lines = self._hanging(status, size, rect.w, indent)
            capacity = max(1, self._rows_fit(rect.y, rect.bottom, step, size))
            if len(lines) <= capacity:
                break
        if len(lines) > capacity:  # the rest on the last row, cut there with an ellipsis
            lines = [*lines[:capacity - 1], " ".join(lines[capacity - 1:])]
        if trouble:
            self._warning_mark(rect.x, rect.y, size, BAD)
        for i, line in enumerate(lines):
            at = indent if i == 0 else 0
            self.surface.blit(self._fit(line, size, rect.w - at, color),
                              (rect.x + at, rect.y + i * step))

    def _options(self, view: View, indices: Sequence[int], boxes: Sequence[pygame.Rect],
                 size: int, more: tuple[tuple[str, ...], str, int] | None = None,
                 tight: bool = False, inked: bool = False) -> None:
        """Options ``indices`` in ``boxes``, each with its key, and a tap on it picks it; then
        ``more`` (its labels, its key, and the MENU presses a tap on it makes) in the last box. The
        labels share one size, the one the tightest needs but at most a step below ``size``
        and never below :data:`_LABEL_MIN`, so that a menu does not read as some options
        shouted and others whispered. ``tight``: boxes too short for labels centred by their
        line height to keep clear of the borders (:meth:`_label_y`). ``inked``: each label
        fitted by its ink rather than its rows' steps (:meth:`_label_inked`): the grid's,
        and one row's not drawn ``tight``."""
        texts = self._option_texts(view, indices)
        m = self.m
        if more is not None:
            labels, key, _ = more
            texts.append(self._page_label([f"[{key}] {label}" for label in labels], size,
                                          boxes[-1].w - 2 * m(_LABEL_PAD), boxes[-1].h - m(4)))

        def fitted(text: str, at: int, box: pygame.Rect) -> tuple[list[str], int, int]:
            """A label's rows, their size and their first row's top in ``box``."""
            if inked:
                return self._label_inked(text, at, box.w, box.h)
            rows, at = self._label_rows(text, at, box.w - 2 * m(_LABEL_PAD), box.h - m(4))
            return rows, at, self._label_y(rows, at, box.h, tight)

        own = [fitted(text, size, box)[1] for text, box in zip(texts, boxes, strict=True)]
        # One long label takes its own smaller size rather than shrinking every other.
        common = max(min(own), size - m(2))
        for n, (text, box) in enumerate(zip(texts, boxes, strict=True)):
            index = indices[n] if n < len(indices) else None
            lit = index is not None and view.highlight == index
            pygame.draw.rect(self.surface, HIGHLIGHT if lit else BACKGROUND, box,
                             border_radius=m(8))
            # The lit box's thick light outline sets it apart in every colour vision (its
            # dark fill alone is a small step from the others'; an ACCENT one is close to
            # the DIM edges for a protanope). An unlit box's edge is 2 px: its fill is only
            # 1.19:1 from the footer's, and at 1 px the box hardly read as one. TEXT is a mere
            # 2.2:1 from DIM, so the lit outline stays a pixel thicker than that edge.
            edge = TEXT if lit else ACCENT if index is None else DIM
            pygame.draw.rect(self.surface, edge, box, width=max(3, m(3)) if lit else max(2, m(2)),
                             border_radius=m(8))
            width = box.w - 2 * m(_LABEL_PAD)
            rows, at, top = fitted(text, min(common, own[n]), box)
            surfaces = [self._fit_middle(line, at, width, TEXT if index is not None else ACCENT)
                        for line in rows]
            step = self._label_step(at)
            y = box.y + top
            for surface in surfaces:
                self.surface.blit(surface, surface.get_rect(midtop=(box.centerx, y)))
                y += step
            if index is not None:
                self._targets.append((box.copy(), index))
            elif more is not None:
                # A tap does what the key says; a back press as PREVIOUS, which only moves.
                self._more = (box.copy(), more[2])

    def _page_label(self, labels: Sequence[str], size: int, width: int, height: int) -> str:
        """The page box's label: the first of ``labels`` (longest first) that fits the box
        whole. Cut in the middle, the longest lost the page it told (``[M×11]…next``
        over ``次へ ▶`` at 1024x600 with larger text)."""
        for label in labels[:-1]:
            rows, at = self._label_rows(label, size, width, height)
            if all(self._text_width(row, at) <= width for row in rows):
                return label
        return labels[-1]

    def _label_step(self, size: int) -> int:
        """From one wrapped row of a label to the next: the font's own line height (Noto
        CJK's is 1.45 em) is too loose for two rows in a button. (Three rows set 1.08 em
        apart touched each other, the g of "strength" on 増, and took rows the labels had
        not taken before: reviewscreen74 NIT 1 and 2; :meth:`_label_inked` goes a pixel
        smaller instead.)"""
        return round(self._font_size(size) * 1.15)

    def _label_rows(self, text: str, size: int, width: int, height: int,
                    floor: int | None = None) -> tuple[list[str], int]:
        """:meth:`_label_fitted`, kept: a menu's labels are fitted once, not at every frame
        (each frame fitted each label twice, trying its sizes and breaks: 10-20 ms a frame of
        a fight's grid, step62)."""
        rows, at = _kept(self._label_cache,
                         (text, size, width, height, self.text_scale, floor or 0),
                         _LABEL_CACHE_LIMIT,
                         lambda: self._label_fitted(text, size, width, height, floor))
        return list(rows), at

    def _label_fitted(self, text: str, size: int, width: int, height: int,
                      floor: int | None = None) -> tuple[list[str], int]:
        """An option's label in the rows it is drawn in, and their size: the largest size,
        from ``size`` down to :data:`_LABEL_MIN`, at which it fits whole. At each size: one
        row; else broken between its English and its Japanese (``[0] Remove ring of armour
        protection`` over ``鎧保護の指輪を外す``), never inside either, for a name read half
        on one row and half on the next is read as two; else, where the box is tall enough,
        the longer half in two rows over the other. A label of one language alone wraps in
        two rows. At the last size, a label whose halves do not fit is broken at any space
        into two rows that do. Only what fits no size is cut, in the middle by the caller,
        so that the end of a label (where targets differ: ``… Ant 3``) stays in view: a
        label smaller than :data:`_LABEL_MIN` would be whole but not read. ``floor``: the
        least size instead (:meth:`_label_inked`'s, each size in turn)."""
        if not self.has_cjk:  # wrapped as it is drawn, with no Japanese to take a row
            text = without_cjk(text)
        m = self.m
        floor = m(_LABEL_MIN) if floor is None else floor
        sizes = sorted({max(floor, size), max(floor, size - m(2)), floor}, reverse=True)
        for at in sizes:
            rows = self._label_fit(text, at, width, height)
            if rows is not None:
                return rows, at
        smallest = sizes[-1]
        if self._label_step(smallest) + self._font_size(smallest) > height:
            return [text], smallest
        # Rather than cut it: two rows broken at any space (``[A] Fight medusa`` over ``TL
        # メデューサ``), a name then read across them, better than one read in part.
        rows = self._balanced(text, smallest)
        if rows is not None and all(self._text_width(row, smallest) <= width
                                    for row in rows):
            return rows, smallest
        halves = self._halves(text, smallest)
        if halves is not None:
            return list(halves), smallest
        rows = self._label_wrap(text, smallest, width)
        return [rows[0], " ".join(rows[1:])], smallest

    def _label_fit(self, text: str, at: int, width: int, height: int) -> list[str] | None:
        """The rows a label fits in whole at size ``at`` (see :meth:`_label_rows`), or
        None."""
        def fits(rows: Sequence[str]) -> bool:
            return (self._label_step(at) * (len(rows) - 1) + self._font_size(at) <= height
                    and all(self._text_width(row, at) <= width for row in rows))

        if fits([text]):
            return [text]
        halves = self._halves(text, at)
        if halves is None:
            rows = self._label_wrap(text, at, width)
            return rows if len(rows) == 2 and fits(rows) else None
        if fits(halves):
            return list(halves)
        first, second = halves
        if self._text_width(first, at) > self._text_width(second, at):
            wrapped = [*self._label_wrap(first, at, width), second]
        else:
            wrapped = [first, *self._label_wrap(second, at, width)]
        return wrapped if len(wrapped) == 3 and fits(wrapped) else None

    def _label_wrap(self, text: str, size: int, width: int) -> list[str]:
        """``text`` wrapped to ``width`` as a label's rows: at spaces, after a ``/`` (not
        inside ``12/12``), where Japanese and English meet, or between two Japanese
        characters (not before a closing bracket or after an opening one), never inside an
        English word. A piece
        wider than ``width`` stays whole, to be cut with an ellipsis where it is drawn:
        wrapped anywhere, the weapon menu's ``[2]`` over ``こぶし(パンチ)/Fist/Pun`` over
        ``ch`` read as two words (a78screen item 2)."""
        pieces: list[str] = []  # each with the space that follows it, if any
        for word in text.split(" "):
            start = 0
            for at in range(1, len(word)):
                if _breaks_between(word[at - 1], word[at]):
                    pieces.append(word[start:at])
                    start = at
            pieces.append(word[start:] + " ")
        lines: list[str] = []
        line = ""
        for piece in pieces:
            candidate = line + piece
            if line and self._text_width(candidate.rstrip(), size) > width:
                lines.append(line.rstrip())
                candidate = piece
            line = candidate
        lines.append(line.rstrip())
        return lines

    def _balanced(self, text: str, size: int) -> list[str] | None:
        """``text`` in two rows broken at the space that leaves the wider row narrowest;
        None for a single word."""
        words = text.split(" ")
        pairs = [[" ".join(words[:at]), " ".join(words[at:])] for at in range(1, len(words))]
        if not pairs:
            return None
        return min(pairs, key=lambda pair: max(self._text_width(row, size)
                                               for row in pair))

    def _halves(self, text: str, size: int) -> tuple[str, str] | None:
        """``text`` broken in two where English and Japanese meet (at a space), its key
        kept on the first; of several such places, the one whose wider half is narrowest
        (``[1] ジャイアント・アント1`` over ``Giant Ant 1``, not ``[1]`` over the rest).
        None for a label of one language."""
        words = text.split(" ")
        japanese = [holds_japanese(word) for word in words]
        splits = [at for at in range(1, len(words)) if japanese[at] != japanese[at - 1]]
        if not splits:
            return None
        halves = [(" ".join(words[:at]), " ".join(words[at:])) for at in splits]
        return min(halves, key=lambda pair: max(self._text_width(half, size)
                                                for half in pair))

    def _grid_page(self, view: View) \
            -> tuple[int, int, list[int], tuple[tuple[str, ...], str, int] | None]:
        """A long menu's grid (a fight's; any that one row squeezes): up to six options a
        row, two rows (a fight's three where :meth:`_grid_rows` says). Longer than twelve,
        it is drawn in pages: the page that holds the highlight, and in its last box the key
        that turns to the next page (:func:`page_turn`: MENU as many times as it takes the
        highlight there, or one back press off a first page of two; a tap on it makes the
        MENU presses). Number keys still pick the first ten anywhere, and MENU walks the
        highlight through every option.

        Returns the options a row, the rows, the options on the page shown, and the page
        box (its labels, longest first, its key, and the MENU presses a tap on it makes)
        when there are pages."""
        count = len(view.options)
        rows = 1 if count <= 4 else self._grid_rows(view)
        per_row = count if count <= 4 else min(6, -(-count // rows))
        slots = per_row * rows
        per_page = slots if count <= slots else slots - 1
        highlight = view.highlight or 0
        first = highlight // per_page * per_page
        indices = list(range(first, min(count, first + per_page)))
        more: tuple[tuple[str, ...], str, int] | None = None
        if count > slots:
            pages = -(-count // per_page)
            turn_to = first + per_page if first + per_page < count else 0
            button, presses = page_turn(highlight, first, turn_to, count, pages,
                                        back_button(view.options))
            # With nothing lit (a pick list) the first MENU lands on the first option, so one
            # more reaches the next page: keyed M×11 as option 11 was, and a tap stayed on
            # page 1 (r76fa DEFECT 1). A back press from nothing lands on the last, as lit
            # from the first.
            unlit = 1 if view.highlight is None else 0
            if button is Button.MENU:
                presses += unlit
            # The page shown, and that the box turns to the next (the last turns to the first).
            page = f"{first // per_page + 1}/{pages}"
            more = ((f"page {page} · next 次へ ▶", f"page {page} 次へ ▶", f"{page} 次へ ▶"),
                    menu_key(_BUTTON_KEYS, presses, button),
                    menu_presses(highlight, turn_to, count) + unlit)
        return per_row, rows, indices, more

    def _grid_rows(self, view: View) -> int:
        """The rows of boxes a long menu's grid (more than four) takes: two; a fight's menu of
        up to twelve three, fewer a row, where a label is cut in the two rows' boxes and
        reads whole in the three rows' while the fight shows as much of its combatants' rows
        and its Result over the footer a row taller (the Log gives up its rows first). At
        text size 1.25, 004's Act menu of eleven, six a row, read "[4] Budo ch…" over
        "武道…め付け" and "[6] Budo th…" with half the combatants' panel empty (f78panels
        item 1). Judged with the prompt in one row: the prompt is then fitted over the grid
        (:meth:`_fight_prompt_fit`)."""
        count, fight = len(view.options), view.fight
        if fight is None or not 4 < count <= 12:
            return 2
        memo = self._grid_rows_memo
        if memo is not None and memo[0] is view and memo[1] == self._room_key():
            return memo[2]
        from companion.hw.display.screen import HEADER_HEIGHT  # the screen lays the body out

        m = self.m
        gap, row_w, size = m(TAP_GAP), self.width - m(20), m(15)
        texts = self._option_texts(view, range(count))

        def whole(rows: int) -> bool:
            per_row = -(-count // rows)
            return self._texts_whole(texts, size, (row_w - gap * (per_row - 1)) // per_row,
                                     m(TAP_MIN))

        def shown(rows: int) -> tuple[int, int]:
            """The combatants' rows' form and the Result's state over ``rows`` of boxes."""
            header = m(HEADER_HEIGHT)
            footer = self._footer_height(view, 1, rows)
            rows_h, result = self._fight_shown(
                fight, pygame.Rect(0, header, self.width, self.height - header - footer))
            return self._fighters_form(len(fight.fighters), rows_h), result

        rows = 3 if not whole(2) and whole(3) and shown(3) >= shown(2) else 2
        self._grid_rows_memo = (view, self._room_key(), rows)
        return rows

    def _menu_keyed(self, view: View) -> bool:
        """Whether a box drawn is keyed with MENU (``M×3``: an option past the tenth, or
        the page box turned by MENU), which the legend then explains."""
        if not self._grid(view):
            indices: list[int] = list(range(len(view.options)))
            more = None
        else:
            _, _, indices, more = self._grid_page(view)
        menu = _BUTTON_KEYS[Button.MENU]
        return (more is not None and more[1].startswith(menu)) or any(
            option_key(view.options[i], i, view.highlight, _BUTTON_KEYS, len(view.options),
                       back_button(view.options)).startswith(menu) for i in indices)

    def _option_grid(self, view: View, row: pygame.Rect) -> None:
        """The grid of :meth:`_grid_page` in ``row``: its page's options, then the page box."""
        m = self.m
        gap = m(TAP_GAP)
        per_row, rows, indices, more = self._grid_page(view)
        size = m(15) if rows > 1 else m(16)
        box_h = (row.h - gap * (rows - 1)) // rows
        if len(indices) + (more is not None) <= per_row:
            # A last page whose boxes take one row of the two (three targets and the page
            # box) has them the row's whole height, at the widths and places of the page
            # before: in the top row, half as tall, the second empty, they cut "[A] Giant… 4"
            # over "ジャ…ント4" that they hold whole so (a76screen NIT 4).
            box_h = row.h
        # Two rows of boxes take the row's whole share, every page of every menu alike: one
        # fight's menus kept the boxes at their widest (_box_max_w) or widened them for a
        # long label, so that Deep's defence boxes were 190 px and Ann's 254 at 800x480,
        # and the boxes under a finger moved from one turn to the next (finala73 NIT 7).
        # Only a page of five or six (three a row) was ever capped. One row (four or
        # fewer) stops at the widest unless a label reads whole only wider: a coc defence
        # menu's "[4] Iai Japanese Sword" over "日本刀 parry 居合で受け流し" was cut in its
        # middle, a third of the row empty beside it (fixprompts73).
        share = (row.w - gap * (per_row - 1)) // per_row
        box_w = share if rows > 1 else min(self._box_max_w(), share)
        if box_w < share and not self._texts_whole(self._option_texts(view, indices), size,
                                                   box_w, box_h):
            box_w = share
        boxes = [pygame.Rect(row.x + (at % per_row) * (box_w + gap),
                             row.y + (at // per_row) * (box_h + gap), box_w, box_h)
                 for at in range(len(indices) + (more is not None))]
        self._options(view, indices, boxes, size, more, inked=True)


_NO_BREAK_AFTER = "(（[「『"
_NO_BREAK_BEFORE = ")）]」』、。,.:;!?・ー…"


def _breaks_between(before: str, after: str) -> bool:
    """Whether a label's word may break between ``before`` and ``after`` (see
    :meth:`OptionButtons._label_wrap`).

    >>> [_breaks_between(*pair) for pair in ("t/", "/P", "しF", "ch", "ンチ", "し(", "(パ", "チ)",
    ...                                       "/1")]
    [False, True, True, False, True, True, False, False, False]
    """
    if before in _NO_BREAK_AFTER or after in _NO_BREAK_BEFORE:
        return False
    return (before == "/" and not after.isdigit()) or holds_japanese(before) \
        or holds_japanese(after)

