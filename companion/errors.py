"""The one exception tree of the companion.

Every error the companion raises on bad input is a :class:`CompanionError`
and also a builtin, so callers can catch either (the gpiozero pattern).
"""


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
