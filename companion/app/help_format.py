"""Help pages that fit the terminal by display cells: argparse wraps by characters, and a
Japanese term (``イベント（簡易版）``) takes two cells a character, so `companion --help`
ran to 86 columns on an 80-column terminal (newuser61 N4)."""

from __future__ import annotations

import argparse
import re
import unicodedata

#: Characters a terminal draws in no cell of their own: the joiners and the zero-width
#: space (a combining mark is told by its category).
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d")


def cell_len(text: str) -> int:
    """The cells ``text`` takes on a terminal: two for a wide character, none for a
    combining mark (the accent of a decomposed é) or a joiner (not rich's, whose import
    would slow every command's start for its help alone)."""
    return sum(_cells(c) for c in text)


def _cells(char: str) -> int:
    if char in _ZERO_WIDTH or unicodedata.category(char) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def _is_path(word: str) -> bool:
    """A path or a URL, to be copied as it is: whatever it holds (a folder named in
    Japanese), it is never broken."""
    return "/" in word or "\\" in word


#: A word as wrapped: a span in backticks (a command to paste, ```mv 'a b' c```) with what
#: touches it is one word, never broken (finalb73 RISK 3: roll's put-back `mv`, broken
#: after ``mv`` and inside a quoted path, failed when pasted as printed); else a run of
#: non-spaces.
_WORD = r"(?:[^\s`]*`[^`\n]*`)+[^\s`]*|\S+"


def cell_wrap(text: str, width: int) -> list[str]:
    """``text``'s words in lines of at most ``width`` cells; a word wider than a line is
    broken between its characters when it is a run of Japanese (which has no spaces), and
    kept whole on a line of its own when it is not, or is a path or a URL (to be copied as
    it is: `config --show` broke a data folder named in Japanese, review61d R1), or is a
    command in backticks (to be pasted as it is: :data:`_WORD`)."""
    lines: list[str] = []
    line = ""
    for word in re.findall(_WORD, text):
        if line and cell_len(line) + 1 + cell_len(word) <= width:
            line = f"{line} {word}"
            continue
        if line:
            lines.append(line)
        line = ""
        if _is_path(word) or "`" in word or not any(_cells(c) == 2 for c in word):  # whole
            line = word
            continue
        for char in word:
            if line and cell_len(line) + cell_len(char) > width:
                lines.append(line)
                line = ""
            line += char
    if line:
        lines.append(line)
    return lines


class CellHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with its help and descriptions wrapped by :func:`cell_wrap`."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return cell_wrap(text, width)

    def add_argument(self, action: argparse.Action) -> None:
        """As argparse's, but a sub-command's name counted at the indent it is shown at:
        argparse counts it two columns short, and ``companion --help`` put ``calibrate``,
        the longest, on a line of its own with its help below (setup73 NIT 8)."""
        super().add_argument(action)
        if action.help is argparse.SUPPRESS:
            return
        for sub in self._iter_indented_subactions(action):  # (indented while it yields)
            self._action_max_length = max(self._action_max_length, self._current_indent
                                          + len(self._format_action_invocation(sub)))

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in cell_wrap(text, width - len(indent)))


class CellRawDescriptionFormatter(CellHelpFormatter):
    """:class:`argparse.RawDescriptionHelpFormatter`'s descriptions as written (their
    lines are laid out by hand), and its options' help wrapped by cells; on a terminal
    narrower than the layout, refilled by :func:`refill` (review61d N8: genso's and coc's
    pages, laid out for 80 columns, ran past 60)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines = text.splitlines()
        # argparse keeps 2 of the terminal's columns as a margin (its width is COLUMNS - 2):
        # a hand-laid line is measured by the terminal's own, so a 79-cell example still
        # reads as written at 80 columns, and when piped (review61g D1).
        columns = self._width + 2
        if all(len(indent) + cell_len(line) <= columns for line in lines):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        # Refilled by the same measure: a line that fits it is left as written, whatever
        # another line on the page needs (review61i N3).
        room = columns - len(indent)
        return "\n".join(indent + line if line else "" for line in refill(lines, room))


#: What begins an example's command on a help page.
_COMMAND = "companion "


def refill(lines: list[str], width: int) -> list[str]:
    """Lines laid out by hand, in lines of at most ``width`` cells: a run of lines that
    begin at the margin is a paragraph (a description), filled again as one; an indented
    line is an example's command, wrapped by :func:`wrap_command`, or else a note or a
    table's row, wrapped by :func:`wrap_kept` (review61i N2: as a command, its lone
    apostrophe was dropped and its spacing collapsed)."""
    out: list[str] = []
    paragraph: list[str] = []
    for line in [*lines, ""]:
        if line and not line[0].isspace():
            paragraph.append(line)
            continue
        if paragraph:
            out += cell_wrap(" ".join(paragraph), width)
            paragraph = []
        if not line.strip():
            out.append("")
            continue
        lead = line[:len(line) - len(line.lstrip())]
        if line.strip().startswith(_COMMAND):
            out += wrap_command(line.strip(), lead, width)
        else:
            out += wrap_kept(line.rstrip(), width)
    return out[:-1]


def wrap_kept(line: str, width: int) -> list[str]:
    """An indented ``line`` in lines of at most ``width`` cells where its words allow,
    each character kept and the spaces between words on a line as written; the lines
    after the first two cells further in than it. An option stays beside its value
    (``--dice typed`` was broken after ``--dice``: review62g), and a command in backticks
    is never broken: wider than a line, it takes a line of its own (:data:`_WORD`)."""
    lead = line[:len(line) - len(line.lstrip())]
    lines: list[str] = []
    text = lead
    parts: list[str] = []
    for part in re.findall(rf"\s*(?:{_WORD})", line.lstrip()):
        if parts and parts[-1].lstrip().startswith("--") and " " not in parts[-1].strip() \
                and not part.lstrip().startswith("-"):
            parts[-1] += part
        else:
            parts.append(part)
    for part in parts:
        if text.strip() and cell_len(text) + cell_len(part) > width:
            lines.append(text)
            text = lead + "  " + part.lstrip()
        else:
            text += part
    return [*lines, text]


#: A shell word as typed: its quoted parts ('x3 CC<=50') and escapes are inside it.
_SHELL_WORD = re.compile(r"""(?:[^\s'"\\]|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+""")


def wrap_command(command: str, lead: str, width: int) -> list[str]:
    """``command`` after ``lead``, in lines of at most ``width`` cells where it can be: each
    line but the last ends in the shell's ` \\`, the rest two cells further in, so the lines
    copied or pasted run as the one command (review61g R1: `--difficulty` and its value
    were two commands). It is broken between shell words, an option kept beside its value
    where they fit on a line."""
    groups: list[list[str]] = []
    for word in _SHELL_WORD.findall(command):
        if groups and groups[-1][0].startswith("-") and len(groups[-1]) == 1 \
                and not word.startswith("-"):
            groups[-1].append(word)
        else:
            groups.append([word])
    first_room = width - len(lead)
    # An option and its value wider than a continued line (its indent and ` \` taken)
    # go on two.
    units = [part for group in groups for part in
             ([" ".join(group)] if cell_len(" ".join(group)) <= first_room - 4 else group)]
    lines: list[str] = []
    line = ""
    for at, unit in enumerate(units):
        room = first_room - (2 if lines else 0) - (0 if at == len(units) - 1 else 2)
        if line and cell_len(line) + 1 + cell_len(unit) > room:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    lines.append(line)
    return [lead + ("  " if at else "") + text + (" \\" if at < len(lines) - 1 else "")
            for at, text in enumerate(lines)]


def cell_formatter(given: type[argparse.HelpFormatter]) -> type[argparse.HelpFormatter]:
    """The formatter that measures cells for the one a parser was ``given``."""
    if issubclass(given, argparse.RawDescriptionHelpFormatter):
        return CellRawDescriptionFormatter
    return CellHelpFormatter
