"""The one exception tree of the companion.

Every error the companion raises on bad input is a :class:`CompanionError`
and also a builtin, so callers can catch either (the gpiozero pattern).
"""

import codecs
import difflib
from collections.abc import Collection, Iterable
from pathlib import Path


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class InvalidNotation(CompanionError, ValueError):
    """Text that should be tile or dice notation is not."""


class IllegalAction(CompanionError, ValueError):
    """An action the game does not allow in its current state."""


class ImpossibleRead(CompanionError, ValueError):
    """A tile read that cannot be true, e.g. a 5th copy of a kind (JR-WALL-1)."""


class DataError(CompanionError, ValueError):
    """A rules data, profile, config or save file is malformed; the message names file and field."""


class NewerFight(DataError):
    """A fight file a newer companion wrote (a later format, version or engine revision than
    the system's code reads): whole, not damaged; it plays on once this companion is
    updated, so it is kept where it is, not offered to ``fight new --force``. One class for
    every system's fight files, so the app says each alike (coc's since r77coc, genso's
    since f78carry)."""


class OtherSystemsFight(DataError):
    """A fight file of another system's fight (a genso fight given to coc, or the reverse):
    whole and played on by that system's commands. Never moved aside nor written over: the
    ``fight new … --force`` of :func:`~companion.app.modes.fight_file.cannot_play_on` and of
    ``fight new --file`` would set a good fight aside (r78coc RISK 3)."""


class StaleEnrolment(DataError):
    """An enrolment (the player's own tiles or dice) made with another model than the one
    reading: its embeddings mean nothing to this model, so the player enrols again."""


class DeviceError(CompanionError, OSError):
    """A hardware device is missing, unplugged or answering nonsense."""


def error_text(exc: CompanionError | OSError) -> str:
    """What a command says of the error that stopped it, after ``companion: error:``: an
    OSError by the file it could not use, for a player to find it."""
    if isinstance(exc, CompanionError):
        return str(exc)
    where = exc.filename or exc.filename2
    return f"{where or 'a file'}: {exc.strerror or exc}"


def refuse_unknown(names: Iterable[object], known: Collection[str], where: str,
                   noun: str = "key") -> None:
    """Raise a :class:`DataError` naming each of ``names`` not in ``known`` (a misspelt
    field would otherwise be silently ignored) and, when one is close, the known one meant:
    ``ann.toml: unknown key 'armor' (did you mean 'armour'?)``. Shared by the systems'
    sheets so each one's slips are answered alike."""
    problems = [f"unknown {noun} {name!r}{did_you_mean(name, known)}"
                for name in names if name not in known]
    if problems:
        raise DataError(f"{where}: {'; '.join(problems)}")


def did_you_mean(name: object, known: Collection[str]) -> str:
    """What a refusal of ``name`` adds when one of ``known`` is close to it (case aside),
    or "" when none is.

    >>> did_you_mean("GM-CHEK-6", ["GM-CHECK-6", "GM-HEAL-1"]), did_you_mean("zz", ["a"])
    (" (did you mean 'GM-CHECK-6'?)", '')
    """
    pool = {k.lower(): k for k in known}
    close = difflib.get_close_matches(str(name).lower(), pool, n=1)
    return f" (did you mean {pool[close[0]]!r}?)" if close else ""


def bound_text(bound: int) -> str:
    """A range's bound as an error shows it, for a person to read: 10,000 and more (or
    -10,000 and less) with thousands separators, as the docs print them. The value found
    beside it is shown as the player wrote it.

    >>> bound_text(99), bound_text(1_000_000_000), bound_text(-999_999)
    ('99', '1,000,000,000', '-999,999')
    """
    return f"{bound:,}" if abs(bound) >= 10_000 else str(bound)


def ordinal(number: int) -> str:
    """A number as a message counts with it: which table of a sheet's array, which die or
    mark beyond the count.

    >>> ordinal(1), ordinal(2), ordinal(3), ordinal(11), ordinal(12), ordinal(21)
    ('1st', '2nd', '3rd', '11th', '12th', '21st')
    """
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th")
    return f"{number}{suffix}"


def utf8_text(data: bytes, what: str, path: str | Path) -> str:
    """``data``, the bytes of the ``what`` at ``path``, as UTF-8 text, a leading byte-order
    mark dropped (Windows Notepad writes one; tomllib refuses it as "Invalid statement (at
    line 1, column 1)"); or a DataError naming the first byte that cannot be read, counted
    in the file, the BOM too (reviewg67 NIT 5: decoded past the BOM, it was 3 too low).
    Here, not in the app, so the systems that read a player's file (JongRogue's
    ``--profile``, jr68 RISK 1) decode it as the app does.

    >>> utf8_text(codecs.BOM_UTF8 + b"thaw = 8", "profile", "mine.toml")
    'thaw = 8'
    """
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"the {what} {path} is not UTF-8 text "
                        f"(byte {skip + exc.start + 1} cannot be read)") from exc
