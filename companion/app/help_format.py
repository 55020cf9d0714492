"""Help pages that fit the terminal by display cells: argparse wraps by characters, and a
Japanese term (``イベント（簡易版）``) takes two cells a character, so `companion --help`
ran to 86 columns on an 80-column terminal (newuser61 N4)."""

from __future__ import annotations

import argparse
import unicodedata


def cell_len(text: str) -> int:
    """The cells ``text`` takes on a terminal: two for a wide character (not rich's, whose
    import would slow every command's start for its help alone)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def cell_wrap(text: str, width: int) -> list[str]:
    """``text``'s words in lines of at most ``width`` cells; a word wider than a line is
    broken between its characters when it is a run of Japanese (which has no spaces), and
    kept whole on a line of its own when it is not (a path, to be copied as it is)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and cell_len(line) + 1 + cell_len(word) <= width:
            line = f"{line} {word}"
            continue
        if line:
            lines.append(line)
        line = ""
        if cell_len(word) == len(word):  # no wide character: kept whole
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

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in cell_wrap(text, width - len(indent)))


class CellRawDescriptionFormatter(CellHelpFormatter):
    """:class:`argparse.RawDescriptionHelpFormatter`'s descriptions as written (their
    lines are laid out by hand), and its options' help wrapped by cells."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "".join(indent + line for line in text.splitlines(keepends=True))


def cell_formatter(given: type[argparse.HelpFormatter]) -> type[argparse.HelpFormatter]:
    """The formatter that measures cells for the one a parser was ``given``."""
    if issubclass(given, argparse.RawDescriptionHelpFormatter):
        return CellRawDescriptionFormatter
    return CellHelpFormatter
