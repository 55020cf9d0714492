"""The dice tray's plain rolls, from the ``dice.expressions`` setting: BCDice expressions
separated by commas (``,`` or full-width ``，``).

Its own module, light (the dice notation and the errors only), for ``companion config``
checks the setting as the tray reads it: importing the tray for it brought the session
host, the event tables and the JongRogue engine in, and `companion config` took about
0.2 s more (reviewe68 RISK 2). :mod:`companion.app.modes.dice_tray` uses it too.
"""

from __future__ import annotations

import re
import unicodedata

from companion.dice import parse
from companion.dice.notation import DiceSyntaxError
from companion.errors import DataError

SETTING = "dice.expressions"
#: Each bracket and its closer, after folding (``［`` is ``[``, ``（`` is ``(``).
_PAIRS = {"[": "]", "(": ")"}
#: A choice's list opens right after its word (``choice``, ``choice2``, ``Schoice``).
_CHOICE = re.compile(r"CHOICE\d*$")


def _folded(char: str) -> str:
    """``char`` as the dice parser reads it, one character for one: full width folded
    (``，`` ``［`` ``（`` are ``,`` ``[`` ``(``), letters upper case."""
    folded = unicodedata.normalize("NFKC", char)
    return folded.upper() if len(folded) == 1 and len(folded.upper()) == 1 else char


def split_expressions(text: str) -> list[str]:
    """``dice.expressions`` cut at its commas, but not at those inside brackets: a BCDice
    ``choice[赤,青,緑]`` is one roll (events68 RISK 1). A full-width ``，`` cuts as ``,``
    does, for any character may be typed full-width (events70 DEFECT 5).

    A bracket is closed by its own kind only, and a choice's list as the parser reads it:
    by the first of its closer, whatever it holds (``choice[a,(b]`` is one roll, as
    ``companion roll`` takes it; any closer closed the last bracket opened, so this
    was refused as never closed, events70 DEFECT 4).

    A bracket still open at the end is refused (DataError), naming it and the part it
    opened in: counted to the end, it took in the rolls after it, and a bracket in a roll's
    comment (``2D6 (atk, 1D6``, after the space that starts a comment) made the next roll
    its comment, with no word (reviewe68 RISK 1). Not cut there instead: a choice's
    bracket left open (``choice[a,b, 2D6``) would then be cut into parts the parser names
    as broken, away from the bracket at fault.

    >>> split_expressions("choice[赤,青,緑], 2D6, choice(a,b)")
    ['choice[赤,青,緑]', ' 2D6', ' choice(a,b)']
    >>> split_expressions("2D6 hit (melee, ranged), 1D6")
    ['2D6 hit (melee, ranged)', ' 1D6']
    >>> split_expressions("choice[:),:(]，１Ｄ６")
    ['choice[:),:(]', '１Ｄ６']
    """
    parts: list[str] = []
    opened: list[tuple[int, str]] = []  # where each bracket still open was opened, its closer
    in_choice = False  # the last one opened is a choice's list: only its closer counts
    start = 0
    folded = ""
    for index, raw in enumerate(text):
        char = _folded(raw)
        if in_choice:
            if char == opened[-1][1]:
                opened.pop()
                in_choice = False
        elif char in _PAIRS:
            in_choice = bool(_CHOICE.search(folded))
            opened.append((index, _PAIRS[char]))
        elif char in _PAIRS.values():
            if opened and opened[-1][1] == char:  # another closer is the parser's to name
                opened.pop()
        elif char == "," and not opened:
            parts.append(text[start:index])
            start = index + 1
            folded = ""
            continue
        folded += char
    if opened:
        first = _left_open(text, opened)
        part = text[start:].strip()
        at = first - start - (len(text[start:]) - len(text[start:].lstrip()))
        raise DataError(
            f"{SETTING}: the bracket {text[first]} at character {at + 1} of {part!r} is "
            "never closed 括弧が閉じていません: close it, or leave brackets out of a roll's "
            "comment (the rolls after it would be read into it)")
    return [*parts, text[start:]]


def _left_open(text: str, opened: list[tuple[int, str]]) -> int:
    """Where the bracket to name as never closed was opened: the first of ``opened`` with
    no closer of its kind after it, which is open whatever the brackets were meant to be;
    else the first of them (brackets crossed, ``(a [b) c]``). The first was named always:
    in ``2D6 attack (sword [left)`` that was the ``(``, which the ``)`` closes, not the
    ``[`` left open (reviewe70 NIT 1)."""
    for index, closer in opened:
        if not any(_folded(char) == closer for char in text[index + 1:]):
            return index
    return opened[0][0]


#: The control characters that may stand between two rolls, as spacing.
_SPACING = str.maketrans("\t\n\r", "   ")


def _refuse_control(shown: str, looked_at: str) -> None:
    """DataError when ``looked_at`` (``shown`` as it is checked) holds a control character."""
    bad = next((c for c in looked_at if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise DataError(f"{SETTING}: {shown!r} holds a control character ({bad!r}); write "
                        "it as printable text")


def parse_expressions(text: str) -> tuple[str, ...]:
    """The tray menu's plain rolls from the comma-separated ``dice.expressions`` (commas
    inside a choice's brackets are the choice's: :func:`split_expressions`); a bad one
    names the setting, and so does one holding a control character (an ESC, in its comment).

    >>> parse_expressions("1D6, 2D6 hit\\x1b[2J")
    Traceback (most recent call last):
    ...
    companion.errors.DataError: dice.expressions: '1D6, 2D6 hit\\x1b[2J' holds a control character \
('\\x1b'); write it as printable text
    """
    # A comment is printed as it is, in the tray's roll line: an ESC in it cleared the
    # terminal (events72 DEFECT 1, as a list's names did); named, not shown escaped. Looked
    # for first: ``ESC[2J`` opens a bracket the split would name instead. Line ends and
    # tabs between the rolls are spacing (a TOML multi-line string), not in a roll.
    _refuse_control(text, text.translate(_SPACING))
    expressions = tuple(part.strip() for part in split_expressions(text) if part.strip())
    for expression in expressions:
        _refuse_control(expression, expression.replace("\t", " "))
        try:
            parse(expression)
        except DiceSyntaxError as exc:
            raise DataError(f"{SETTING}: {expression!r} is not a dice expression "
                            f"({exc})") from None
    return expressions
