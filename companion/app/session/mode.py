"""The one small interface between the play session and a mode (a game system at the table).

A mode says what it needs next (:meth:`Mode.ask`): a tile laid on a slot, a
choice from a menu, or dice thrown. The session gets the answer from the
table (a reader, the buttons, the dice camera) or from a simulation, and hands
it back (:meth:`Mode.answer`). The mode builds its own screen (:meth:`Mode.view`)
and keeps the journal of its answers in notation, which is all a save needs:
the systems are deterministic, so replaying the journal (:meth:`Mode.restore`)
rebuilds the state after a stop or a power cut.

The session loop, saving, the log, the controls and confirming a read are the
session's (:mod:`companion.app.session.host`), written once for every mode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.hw.display.view import Option, View
from companion.hw.ports import Slot
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger


@dataclass(frozen=True, slots=True)
class TileAsk:
    """Lay a tile on ``slot``; a read is checked against ``ledger`` (JR-WALL-1) as it comes."""

    prompt: str
    slot: Slot
    ledger: TileLedger


@dataclass(frozen=True, slots=True)
class ChoiceAsk:
    """Pick one of ``options``; the answer is its index. ATTACK confirms ``highlight``."""

    prompt: str
    options: tuple[Option, ...]
    highlight: int = 0


@dataclass(frozen=True, slots=True)
class RollAsk:
    """Throw ``count`` dice of ``sides`` sides; the answer is a :class:`Throw`.

    ``throw``: which throw of its roll or table this is (2 for a walk's second die), for
    what the dice camera says when a folder's pictures run out: the throw the player is on,
    not the folder's count since the tray opened (reviewe70 RISK 2).
    """

    prompt: str
    count: int
    sides: int
    throw: int = 1


Ask = TileAsk | ChoiceAsk | RollAsk


@dataclass(frozen=True, slots=True)
class Throw:
    """The answer to a :class:`RollAsk`: the faces thrown, or why there are none.

    ``back``: the player went back instead of throwing. ``failure``: the dice
    could not be had (a camera that stopped), said in words for the screen. ``typed``: the
    faces were typed on a keypad (``--dice typed``, a die the camera does not read, the rest
    of a session whose camera stopped): a mode may offer to type it again, where a thrown
    throw's would be a free reroll (reviewe72 RISK 3). Not compared: the same faces.
    """

    values: tuple[int, ...] = ()
    back: bool = False
    failure: str = ""
    typed: bool = field(default=False, compare=False)


Answer = Tile | int | Throw

Show = Callable[..., None]
"""Redraws the screen: ``show(prompt, options=…, highlight=…, status=…, …)``, the
session's :meth:`~companion.app.session.host.Session.show` with the mode's view."""


class Mode(Protocol):
    """A game system at the table, as the play session hosts it.

    ``answer`` refuses an answer it cannot take with ``ImpossibleRead`` or
    ``IllegalAction`` and changes nothing; the session says why and asks again.
    """

    def ask(self) -> Ask | None:
        """What the mode needs next; None once it is over."""
        ...

    def answer(self, value: Answer) -> Sequence[Any]:
        """Take the answer to the last ask; return what happened (the mode's events)."""
        ...

    def view(self, prompt: str, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = ()) -> View:
        """The screen: the mode's state with this prompt, menu and status line.

        ``prompt_tile`` is a tile read and awaiting the player's word, ``prompt_faces``
        the faces of a throw read and awaiting it.
        """
        ...

    def closing(self) -> str:
        """What the screen says once the mode is over."""
        ...

    @property
    def journal(self) -> list[str]:
        """Every answer so far, in notation: what a save holds."""
        ...

    def progress(self) -> int:
        """How many events the answers so far produced (a resume checks it)."""
        ...

    def restore(self, text: str) -> None:
        """Apply one saved answer (from the journal) again."""
        ...

    def history(self) -> Sequence[Any]:
        """Every event so far, for a log rewritten from the start on a resume."""
        ...

    def log_lines(self, events: Sequence[Any]) -> list[str]:
        """The ``--log`` lines of a step's events (JSON)."""
        ...


class TileFeed(Protocol):
    """Where the session gets a tile a mode asks for; ``close`` lets go of its device."""

    def next_tile(self, ask: TileAsk, show: Show) -> Tile: ...

    def ready(self) -> bool:
        """Whether a tile laid now counts: a table reader is up (its first readings in)."""
        ...

    def close(self) -> None: ...


class ChoiceFeed(Protocol):
    """Where the session gets a decision a mode asks for: the index of an option."""

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int: ...


class RollFeed(Protocol):
    """Where the session gets dice a mode asks for."""

    def next_throw(self, ask: RollAsk, show: Show) -> Throw: ...
