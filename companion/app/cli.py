"""The ``companion`` command: one sub-command per module listed in COMMAND_MODULES.

Each command module exposes ``register(subparsers)``, which adds its parser and
sets ``func`` to a callable taking the parsed namespace and returning the exit
code. Keeping the list here, and the commands in their own modules, lets each
part of the companion own its command line.

A command line that names its command loads that command's module alone: all of
them take about a second to import here (OpenCV, numpy, every game system), several
seconds on a Pi, which ``companion roll 2d6`` or ``companion rules sleep`` at the table
need not wait for (scripts/bench_startup.py).
"""

from __future__ import annotations

import argparse
import codecs
import difflib
import importlib
import io
import os
import re
import shlex
import signal
import sys
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn

from companion import __version__
from companion.app.command_list import COMMANDS
from companion.app.help_format import cell_formatter
from companion.app.notes import note, tell_error
from companion.app.paths import (
    check_folder_settings,
    misspelt_folder_variables,
    root_folders_warning,
)
from companion.errors import CompanionError

#: Each command's name and the module that registers it, in the order `companion --help`
#: lists them.
COMMAND_MODULES: dict[str, str] = {name: command.module for name, command in COMMANDS.items()}


class _Parser(argparse.ArgumentParser):
    """A parser that, given a command without the word that picks what it does
    (`companion genso`, `companion events`), shows its help: argparse alone says only that
    SUB is required, not which there are. Sub-parsers are of this class too
    (add_subparsers takes the parent's).

    Each one that parses names itself in the namespace as :data:`LEAF`, unless the command
    it chose already has: the command the user typed, whose usage an unknown option is told
    with (:func:`parse_command_line`).

    Its help is wrapped by display cells (:mod:`companion.app.help_format`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["formatter_class"] = cell_formatter(
            kwargs.get("formatter_class", argparse.HelpFormatter))
        super().__init__(*args, **kwargs)
        self._words: list[str] = []  # what it parses, told back in an error (_near_choice)

    def parse_known_args(  # type: ignore[override]
            self, args: Sequence[str] | None = None, namespace: Any = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        self._words = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(args, namespace)
        if not hasattr(parsed, LEAF):  # the sub-command's parser finished first
            setattr(parsed, LEAF, self)
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        missing = message.removeprefix("the following arguments are required: ").split(", ")
        chooser = next((action for action in self._actions
                        if action.choices and not action.option_strings
                        and (action.metavar or action.dest) == missing[0]), None)
        if chooser is not None:
            self.print_help(sys.stderr)
            article = "an" if missing[0][:1] in "AEIOU" else "a"
            self.exit(2, f"\n{self.prog}: error: choose {article} {missing[0]} from the list "
                         "above\n")
        refused = re.match(r"argument (.+?): invalid choice: '(.*)' \(choose from ", message,
                           re.DOTALL)
        if refused is not None:
            name, typed = refused.groups()
            super().error(self._value_before_sub_command(typed)
                          or message + self._near_choice(name, typed))
        super().error(message)

    def _near_choice(self, name: str, typed: str) -> str:
        """``; did you mean 'play'?`` after argparse's "invalid choice: 'plya'" when a
        choice is near the word typed, else empty: Python 3.11's argparse offers none
        (setup75 NIT 7: `companion plya`). A ``help`` typed as a command is pointed to
        ``--help`` (a78journey NIT 6: `companion help`, a new user's first guess, was
        refused with no pointer)."""
        words = [str(choice) for action in self._actions if action.choices
                 and argparse._get_action_name(action) == name for choice in action.choices]
        if typed.casefold() == "help" and not name.startswith("-"):
            after = self._words[self._words.index(typed) + 1:] if typed in self._words else []
            if after and after[0] in words:
                return f"; for help: {self.prog} {after[0]} --help"
            return f"; for help: {self.prog} --help, or {self.prog} {name} --help"
        near = _nearest(typed, words)
        return f"; did you mean {near!r}?" if near else ""

    def _value_before_sub_command(self, typed: str) -> str:
        """What to say when ``typed``, refused as the sub-command, is the value of an option
        a sub-command takes, typed before its name: ``--profile 004 goes after the
        sub-command: companion coc roll --profile 004 'CC<=50'``, the line given again with
        the option moved after the first sub-command that takes it; else empty. argparse took
        the value for the sub-command's name (a78journey NIT 4: `coc --profile 004 roll` was
        refused as "invalid choice: '004'"), where an option alone is told by
        :func:`_misplaced`. The words between the value and the sub-command's name move with
        the option: they are its further values (``genso fight --party Aki pc2 new`` is
        ``genso fight new --party Aki pc2``, where r78journey found ``fight pc2 new --party
        Aki`` given, a line refused again)."""
        at = self._words.index(typed) if typed in self._words else 0
        option = self._words[at - 1] if at else ""
        if not option.startswith("-") or option in self._option_string_actions:
            return ""
        rest = self._words[at + 1:]
        parser: argparse.ArgumentParser = self
        names: list[str] = []  # the sub-commands' names, in the order typed
        values = [typed]  # the option's, and what else is typed before the sub-command
        for place, word in enumerate(rest):
            sub = _sub_parsers(parser).get(word)
            if sub is None:
                values.append(word)
                continue
            parser = sub
            names.append(word)
            if _takes_value(parser, option):
                moved = [*names, option, *values, *rest[place + 1:]]
                return (f"{option} {typed} goes after the sub-command: "
                        f"{self.prog} {shlex.join(moved)}")
        takes = [name for name, sub in _sub_parsers(self).items() if _takes_value(sub, option)]
        if not takes:
            return ""
        return (f"{option} {typed} goes after the sub-command that takes it, e.g. "
                f"{self.prog} {takes[0]} {option} {typed}")


def _sub_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parsers of ``parser``'s sub-commands, by name (none when it has none)."""
    return next((dict(action.choices) for action in parser._actions
                 if isinstance(action, argparse._SubParsersAction)), {})


def _takes_value(parser: argparse.ArgumentParser, option: str) -> bool:
    """Whether ``parser`` takes ``option`` with a value after it (``--profile 004``)."""
    action = parser._option_string_actions.get(option)
    return action is not None and action.nargs != 0


def _nearest(typed: str, words: Sequence[str]) -> str | None:
    """The one of ``words`` nearest ``typed``, or None: both folded as the settings' did-you-
    mean folds them (NFKC and casefold), so ``DICE``, full-width ``ｄｉｃｅ`` and ``--SHOW``
    find ``dice`` and ``--show`` (reviewsetup75 NIT 5: matched as typed, they got none).
    The word is named as the parser takes it."""
    def folded(word: str) -> str:
        return unicodedata.normalize("NFKC", word).casefold()

    by_fold = {folded(word): word for word in reversed(words)}
    near = difflib.get_close_matches(folded(typed), list(by_fold), 1, 0.75)
    return by_fold[near[0]] if near else None


#: The namespace's name for the parser of the command typed (:class:`_Parser`).
LEAF = "_command_parser"


def parse_command_line(parser: argparse.ArgumentParser,
                       words: Sequence[str]) -> argparse.Namespace:
    """``words`` parsed; an option or word no parser takes is refused with the usage of the
    command typed (``companion events door --colour red`` shows ``usage: companion events
    …``), where argparse showed the top level's ``companion [-h] [--version] COMMAND ...``
    (cli59 F7). An option of the command typed given before its name (``rules --json
    encounter``, refused under a usage that lists ``[--json]``) is said to go after it
    (review59b F8)."""
    args, extras = parser.parse_known_args(words)
    leaf = vars(args).pop(LEAF, parser)
    extras = _left_positionals(leaf, args, extras)
    if extras:
        leaf.error(f"unrecognized arguments: {' '.join(extras)}{_misplaced(leaf, extras)}"
                   f"{_near_options(leaf, extras)}")
    return args


def _left_positionals(leaf: argparse.ArgumentParser, args: argparse.Namespace,
                      extras: list[str]) -> list[str]:
    """``extras`` but the bare words that fill ``leaf``'s optional positionals (``nargs="?"``)
    left empty: argparse matches such a positional, empty, with the one before it, so a word
    typed after an option was left over (calendar75 DEFECT 2: ``genso rest Aki --healer 3``
    and ``--sleep 3`` were refused with "unrecognized arguments: 3", as ``coc fight act
    attack Ann --with weapon=1 Cultist`` was with its TARGET). Each is converted and
    checked as argparse does (a refusal names it); what fills none is left."""
    if not extras or any(word.startswith("-") for word in extras):
        return extras
    left = [action for action in leaf._actions if not action.option_strings
            and action.nargs == "?" and getattr(args, action.dest, None) == action.default]
    if len(extras) > len(left):
        return extras
    for action, word in zip(left, extras, strict=False):
        try:
            setattr(args, action.dest, leaf._get_values(action, [word]))
        except argparse.ArgumentError as exc:
            leaf.error(str(exc))
    return []


def _near_options(leaf: argparse.ArgumentParser, extras: Sequence[str]) -> str:
    """`` (did you mean --show?)`` for each of ``extras`` that is an option ``leaf`` does not
    take but has one near it (``config --shw``), else empty: Python 3.11's argparse offers
    none (setup75 NIT 7)."""
    options = [option for option in leaf._option_string_actions if option.startswith("--")]
    near = [match for word in extras
            if unicodedata.normalize("NFKC", word).startswith("--")
            and word.partition("=")[0] not in options
            for match in [_nearest(word.partition("=")[0], options)] if match]
    return f" (did you mean {' or '.join(near)}?)" if near else ""


def _misplaced(leaf: argparse.ArgumentParser, extras: Sequence[str]) -> str:
    """What to say of ``extras`` that are options of ``leaf`` itself: an earlier parser
    (the command's, before the sub-command's name) left them, so they go after the name."""
    known = [word for word in extras
             if word.partition("=")[0] in leaf._option_string_actions]
    if not known:
        return ""
    name = leaf.prog.split()[-1]
    return f" ({' '.join(known)} {'goes' if len(known) == 1 else 'go'} after {name!r})"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: of ``command`` alone when it is one of COMMAND_MODULES,
    of none for ``--version``, else of every command by its help line alone, none of their
    modules imported (for ``--help``, and for the error naming the commands there are).
    """
    parser = _Parser(
        prog="companion",
        description="JongRogue Companion: play 雀ローグEZプラス with a real mahjong set.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if command in COMMAND_MODULES:
        importlib.import_module(COMMAND_MODULES[command]).register(subparsers)
    elif command != "--version":  # (argparse prints the version before a command is due)
        for name, listed in COMMANDS.items():
            subparsers.add_parser(name, help=listed.help)
    return parser


def writable_streams() -> None:
    """Standard output and error that cannot be written to stop no command: one whose
    encoding is not UTF-8 (a Latin-1 or EUC-JP locale, PYTHONIOENCODING=ascii) writes ``?``
    for what it has no code for, where it crashed on the first Japanese or ``▶``, after a
    fight's action was saved and before its roll was shown (env58 D1). The English beside
    every Japanese term (STYLE.md) is what such a terminal reads (a ``--json`` command's
    stdout escapes it instead: json_output). Done before anything is printed (argparse's
    --help)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) \
                and codecs.lookup(stream.encoding).name != "utf-8":
            stream.reconfigure(errors="replace")


#: The error handler of a ``--json`` command's stdout that has no code for a character
#: (review58a R-1).
JSON_ESCAPE = "companion-json-escape"


def json_escape(error: UnicodeError) -> tuple[str, int]:
    """What an output codec has no code for, as JSON's ``\\uXXXX`` escapes: the same
    string to json.loads, where ``?`` changed the data with exit 0 (review58a R-1). A
    character above U+FFFF (the mahjong tiles' U+1F000 glyphs) is its UTF-16 pair, as JSON
    writes it; Python's ``backslashreplace`` gives ``\\U0001f000``, which JSON refuses.
    Only a JSON string holds characters past ASCII (json.dumps writes the rest in ASCII), so
    every one escaped is in a string."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    escaped = []
    for char in error.object[error.start:error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            escaped.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            escaped.append(f"\\u{code:04x}")
    return "".join(escaped), error.end


codecs.register_error(JSON_ESCAPE, json_escape)


def json_output() -> None:
    """A ``--json`` command's stdout that is not UTF-8 writes what it has no code for as
    JSON escapes, not writable_streams' ``?``: a script reading it gets the data as it is."""
    if isinstance(sys.stdout, io.TextIOWrapper) \
            and codecs.lookup(sys.stdout.encoding).name != "utf-8":
        sys.stdout.reconfigure(errors=JSON_ESCAPE)


def closed_stdin_as_empty() -> None:
    """Standard input closed (``<&-``) reads as an empty one, ``</dev/null``: every command
    that reads it says what it missed (no terminal for keys, no value typed), where the
    closed one was None and ended in a traceback (env58 N2). Opened before any other file,
    /dev/null takes descriptor 0, which a save opened later would otherwise be given, for
    a child process to read as its input."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")


#: The file an error writing standard output names (env58 N3, soak62 N1).
STANDARD_OUTPUT = "standard output"


class _NamedOutput(io.TextIOWrapper):
    """Standard output whose write errors name it: an OSError raised in a write or a flush
    carries :data:`STANDARD_OUTPUT` as its file. Unbuffered (PYTHONUNBUFFERED, as the boot
    service runs) or flushed at each line (``play --headless``), a full disk or a file-size
    limit failed in the print itself, nothing was left for :func:`output_refused` to find,
    and the error read "a file" (soak62 N1)."""

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError as exc:
            _name_output(exc)
            raise

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as exc:
            _name_output(exc)
            raise


def _name_output(exc: OSError) -> None:
    if exc.filename is None:
        exc.filename = STANDARD_OUTPUT


def named_output() -> None:
    """Standard output, the process's own (not a test's capture), as :class:`_NamedOutput`
    over the same buffer. Done before anything is written to it, so nothing is left behind
    in the one it replaces."""
    out = sys.stdout
    if type(out) is not io.TextIOWrapper or out is not sys.__stdout__:
        return
    sys.stdout = _NamedOutput(out.buffer, encoding=out.encoding, errors=out.errors,
                              newline="\n", line_buffering=out.line_buffering,
                              write_through=out.write_through)


@contextmanager
def quit_key_stops() -> Iterator[None]:
    """Ctrl-\\ (SIGQUIT; cbreak keeps the terminal's signal keys) stops a command as Ctrl-C
    does: a player pressing it wants it to stop, and it ended with a bare "Quit", exit 131,
    no resume hint and, with no job-control shell to mend it, the terminal left in cbreak
    (keys75 NIT 3; every command: `rfid monitor` and the calibrations too). One ignored (a
    non-interactive shell's `cmd &`) stays so, and one set before (``python -m companion``
    sets it before this module loads) is left; the default is put back after."""
    if signal.getsignal(signal.SIGQUIT) is not signal.SIG_DFL \
            or threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.signal(signal.SIGQUIT, _stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _command_word(words: Sequence[str]) -> str | None:
    """The command typed, whose module :func:`build_parser` loads: the first word, as the
    options before it are --help and --version alone; but after any other option, the first
    command's name: that option is the command's, typed before it, and its parser says
    where it goes (``companion --seed 3 play`` is told ``--seed 3 goes after the sub-command:
    companion play --seed 3``, where r78journey found "invalid choice: '3'", and
    ``companion --headless play`` "(--headless goes after 'play')")."""
    first = words[0] if words else None
    if first is None or not first.startswith("-") or first in ("-h", "--help", "--version"):
        return first
    return next((word for word in words if word in COMMAND_MODULES), first)


def main(argv: Sequence[str] | None = None) -> int:
    with quit_key_stops():  # from the first: the command's modules load for seconds on a Pi
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    writable_streams()
    named_output()
    closed_stdin_as_empty()
    args_given = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(_command_word(args_given))
        args = parse_command_line(parser, args_given)
    except CompanionError as exc:
        # A command's module loads the rules data it registers with (JongRogue's tables,
        # at import): a broken data file is named, file and field, as any other is, not
        # told as the last line of a 50-line traceback (jr68 RISK 2).
        return tell_error(exc)
    except KeyboardInterrupt:
        # Ctrl-C while the command's modules load (seconds on a Pi): a stop, as one while
        # it runs, not a traceback (journey71 DEFECT 3).
        return 130
    if getattr(args, "json", False):
        json_output()
    try:
        check_folder_settings()
        for misspelt in misspelt_folder_variables():
            note(f"warning: {misspelt}")
        # Every command: one that only reads the folders reads root's too (its settings,
        # calibrations, tag map, the game --resume looks for), and one that uses none is
        # not run with sudo (env58 R4).
        if (warning := root_folders_warning()) is not None:
            note(f"warning: {warning}")
        code: int = args.func(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # here, where its failure is told, not at the exit
    except CompanionError as exc:
        return tell_error(exc)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # What read our output went away (`| head`): stop quietly, as other tools do.
        output_to_nothing()
        return 141
    except SystemExit as exc:
        # rich's console, on the same broken pipe, exits 1 (env58 N3); a SystemExit of
        # ours (Quit to console from a stop the pipe caused) keeps its status (review62g).
        if type(exc) is SystemExit and isinstance(exc.__context__, BrokenPipeError):
            return 141
        raise
    except OSError as exc:
        # A file or folder we were told to use, or our own, cannot be used; or the output:
        # a full disk or /dev/full is named as such, where it read "a file" (env58 N3).
        if exc.filename is None and output_refused():
            exc.filename = STANDARD_OUTPUT
        elif exc.filename == STANDARD_OUTPUT:
            output_to_nothing()  # what it did not take is not tried again at the exit
        return tell_error(exc)
    return code


def output_to_nothing() -> None:
    """Standard output pointed at nothing, so the exit's flush does not fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def output_refused() -> bool:
    """Whether standard output refuses what is written to it: what it did not take is
    still in its buffer, and writing it again fails again. (Unbuffered, PYTHONUNBUFFERED,
    nothing is left to try, and an error naming no file is told as it comes.) Refused, it
    is pointed at nothing, so the exit's flush does not fail as well."""
    if sys.stdout is None:
        return False
    try:
        sys.stdout.flush()
    except OSError:
        output_to_nothing()
        return True
    return False


if __name__ == "__main__":
    sys.exit(main())
