"""Which key or button a display names beside each option."""

from __future__ import annotations

from collections.abc import Sequence

from companion.hw.buttons import NUMBER_KEYS, Button
from companion.hw.display.view import Option


def option_key(option: Option, index: int, highlight: int | None,
               names: dict[Button, str], count: int, back: Button | None = None) -> str:
    """The option's own button; else attack/confirm on the highlighted one; else its number
    key; past the tenth, the button that moves the highlight onto it the shorter way, with
    how many presses of it that takes in a menu of ``count`` options: the menu button
    forward (``M×3``), or ``back`` (:func:`back_button` on the screen, the ← key on the
    terminal) backward (``B×1``, ``←×1``: the last of twelve options was ``M×11``), so that
    the options past the tenth read apart; with nothing highlighted (a pick list), counted
    from where the first press lands.

    In a menu, attack confirms the highlight wherever it is: an option whose own button is
    attack is named by it only while it is the one highlighted (or nothing is), so that one
    option alone says ``A``, the one attack picks."""
    own = option.button
    if own is not None and (own is not Button.ATTACK or highlight is None):
        return names[own]
    if highlight == index:
        return names[Button.ATTACK]
    if index < len(NUMBER_KEYS):
        return NUMBER_KEYS[index]
    if highlight is None:
        # A pick list opens with none: the first MENU lands on the first option, the first
        # step back on the last (a76tilecam DEFECT 1: every option past the tenth read "M").
        forward, backward = index + 1, count - index
    else:
        forward, backward = menu_presses(highlight, index, count), (highlight - index) % count
    if back is not None and backward < forward:
        return f"{names[back]}×{backward}"
    return menu_key(names, forward)


def back_buttons(options: Sequence[Option]) -> list[Button]:
    """The buttons that move a menu's highlight back (as ``menu_press`` does): flee and
    ranged, each when no option is its own."""
    own = {o.button for o in options}
    return [b for b in (Button.FLEE, Button.RANGED) if b not in own]


def back_button(options: Sequence[Option]) -> Button | None:
    """The button that steps a menu's highlight back for its keys: flee, else ranged."""
    return next(iter(back_buttons(options)), None)


def menu_presses(highlight: int, index: int, count: int) -> int:
    """How many MENU presses move the highlight from ``highlight`` onto ``index`` (MENU steps
    forward one option, and wraps from the last to the first)."""
    return (index - highlight) % count


def menu_key(names: dict[Button, str], presses: int, button: Button = Button.MENU) -> str:
    """``M`` for one press of MENU (or ``button``), ``M×3`` for three."""
    return names[button] + (f"×{presses}" if presses > 1 else "")


def page_turn(highlight: int, first: int, turn_to: int, count: int, pages: int,
              back: Button | None) -> tuple[Button, int]:
    """The button, and its presses, that brings a long menu's other page into view from
    ``highlight`` on the page starting at ``first`` (the page shown is the one holding the
    highlight): MENU forward onto ``turn_to``, or, with two pages, ``back`` backward off
    this page's first option onto the other page's last, when that is fewer presses. On
    page 1 of 2 the box read ``[M×11]``: eleven presses of hold I, where one B does it
    (display audit 56, item 8)."""
    forward = menu_presses(highlight, turn_to, count)
    backward = highlight - first + 1
    if pages == 2 and back is not None and backward < forward:
        return back, backward
    return Button.MENU, forward


def move_legend(options: Sequence[Option]) -> str:
    """How the four buttons move a menu's highlight and take an option (as ``menu_press``
    does): I forward unless an option is I's own (then its long press, M), B and R back
    unless their own, A takes the one highlighted; "" when every option has a button of
    its own (nothing to move onto). A player with the buttons alone has no number keys.
    The backward move is "prev 前へ", not "back": B is also a menu's Back 戻る, and "R back
    前" over "[B] Back 戻る" read as two ways out (display audit 56, item 7)."""
    if len(options) < 2 or all(o.button is not None for o in options):
        return ""
    forward = "hold I" if any(o.button is Button.ITEM for o in options) else "I"
    back = "/".join({Button.FLEE: "B", Button.RANGED: "R"}[b] for b in back_buttons(options))
    moves = f"{forward} next 次" + (f" · {back} prev 前へ" if back else "")
    return f"{moves} · A ok 決定"
