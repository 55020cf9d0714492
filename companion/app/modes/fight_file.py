"""The fight file at the table (:func:`open_table`): after every action the table rewrites
the fight file (``fight.json``) from its save, so the system's own ``fight show|log``
commands see the table's actions; a file the GM changed is never written over, a file the
disk refused is written forward, and a start takes up, resumes or sets aside as the two
files say. While a table runs (``companion play`` holds both files,
:func:`companion.file_locks.holding`) the commands that would change the fight file (an action,
``undo``) are refused: the table's next write would undo them.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.command_name import companion_line, file_option
from companion.app.modes.fight import SIMULATED, FightMode
from companion.app.modes.fight_save import FightSave, load_fight_save
from companion.app.modes.fight_unchanged import loaded
from companion.app.notes import note
from companion.app.overrides import utf8_text
from companion.app.paths import data_dir
from companion.app.session.host import Beside, Session, replay
from companion.app.session.mode import ChoiceFeed, RollFeed
from companion.app.session.rolls import SimRolls
from companion.app.session.save import (
    SAVE_LIMIT,
    CorruptSave,
    NewerFightFile,
    NewerSave,
    json_fault,
)
from companion.dice import DiceSource, SimulatedDice
from companion.errors import (
    CompanionError,
    DataError,
    NewerFight,
    OtherSystemsFight,
    error_text,
)
from companion.files import (
    Kept,
    NotDurable,
    atomic_write_text,
    keep_unreadable,
    loads_json,
    move_aside,
    not_a_folder,
    read_regular,
)
from companion.hw.display import Display


def same_fight(file_data: Any, ours: dict[str, Any], *, apart: int | None = 1) -> bool:
    """Does the fight file agree with the replayed fight (``to_json``), but for the last
    ``apart`` actions of one journal that the other lacks (None: any number)?

    One action is what a power cut between the table's save and its write of the file keeps
    from it (the table saves first). A file the disk refused for a while (a read-only
    folder) is the table's last write that worked, as many actions behind the save as the
    refused writes, or ahead of it by the undos among them."""
    if not same_opening(file_data, ours):
        return False
    theirs, mine = file_data.get("journal", []), ours["journal"]
    if not isinstance(theirs, list):
        return False
    shorter, longer = sorted((theirs, mine), key=len)
    return (apart is None or len(longer) - len(shorter) <= apart) \
        and longer[:len(shorter)] == shorter


def same_opening(file_data: Any, ours: dict[str, Any]) -> bool:
    """Is the fight file's fight the one of ``ours`` (a fight's ``to_json``), whatever was
    played or undone in it: all but the journal agree (the entrants, the opening)? Another
    is a new fight (``fight new --force``), not an undo."""
    return isinstance(file_data, dict) and set(file_data) == set(ours) and all(
        file_data[key] == ours[key] for key in ours if key != "journal")


#: The record ``genso fight apply`` keeps in a fight file of the sheets it wrote back: no
#: action of the fight, so a file changed only by it holds the same fight.
APPLIED = "applied"


def without_applied(fight: Any) -> Any:
    """A fight file's JSON (a fight's ``to_json``) without its :data:`APPLIED` record."""
    if isinstance(fight, dict) and APPLIED in fight:
        return {key: value for key, value in fight.items() if key != APPLIED}
    return fight


def unapplied_fight(path: Path) -> tuple[str | None, Any]:
    """The fight file at ``path``: its SHA (None: there is none, as while ``fight new`` has
    moved the last aside) and its JSON without the record ``genso fight apply`` keeps in it
    (:func:`without_applied`; None: not JSON). A closed table's fight is over and closed for
    as long as the file holds it so: the apply, the step its screen advises, is no next
    fight. One that cannot be read raises :class:`DataError`, as :func:`file_sha`."""
    on_file = loaded(path)
    return on_file.sha, without_applied(on_file.data)


def write_fight_file(path: Path, fight: Any) -> str:
    """The fight file as the system's ``fight`` command writes it, atomically; its SHA-256."""
    text = fight_text(fight)
    atomic_write_text(path, text)
    return text_sha(text)


def fight_text(fight: Any) -> str:
    """The text of the fight file of ``fight``, as :func:`write_fight_file` writes it."""
    return json.dumps(fight.to_json(), ensure_ascii=False, indent=1)


def text_sha(text: str) -> str:
    """The SHA-256 of a file holding ``text`` (UTF-8), as :func:`file_sha` reads it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_fight_file(preset: str) -> Path:
    """The fight file of a system's ``fight`` commands with no ``--file`` (and of ``play
    --mode PRESET`` with no ``--fight``): ``genso/fight.json`` or ``coc/fight.json`` in the
    user data folder."""
    return data_dir() / preset / "fight.json"


def start_command(start_hint: str, path: Path, default: Path | None) -> str:
    """``start_hint`` (the system's ``fight new``), made to write the fight at ``path``:
    with ``--file PATH`` when that is not the ``default`` file (None: the hint as it is).
    Without it, the command wrote the default file, and the same ``play --fight PATH``
    found no fight again (tables65 NIT 5)."""
    if default is None:
        return start_hint
    # By its whole path: the command may begin by going elsewhere (coc's ``cd``).
    return f"{start_hint}{file_option(path.resolve(), default)}"


def whose_fight(data: Any) -> str | None:
    """The system whose fight file ``data`` (its JSON) is, by its top level: genso's says
    ``"system": "genso"``, coc's keeps its ``profile`` (§3.22) and ``opening`` and says no
    system; None for neither."""
    if not isinstance(data, dict):
        return None
    if data.get("system") == "genso":
        return "genso"
    if "system" not in data and {"profile", "opening", "journal"} <= data.keys():
        return "coc"
    return None


def refuse_other_systems(data: Any, system: str, path: Path, *, at_table: bool = False
                         ) -> None:
    """:class:`OtherSystemsFight` when ``data``, the fight file at ``path``, is a fight of
    another system than ``system``, with the commands that show and play it there."""
    other = whose_fight(data)
    if other is None or other == system:
        return
    shown = companion_line(other, "fight", "show", "--file", str(path))
    played = companion_line("play", "--mode", other, "--fight", str(path))
    table = " 別のシステムの戦闘" if at_table else ""
    raise OtherSystemsFight(f"{path}: a {other} fight{table}, not a {system} one: `{shown}` "
                            f"shows it, `{played}` plays it at the table; give {system} its "
                            f"own fight file")


def cannot_play_on(cause: object, new_hint: str, path: Path, default: Path | None, *,
                   at_table: bool = False) -> str:
    """A fight file no command plays on (not JSON, or JSON that does not load or replay):
    ``cause``, then ``new_hint`` (the system's ``fight new … --force``, made to write ``path``:
    :func:`start_command`), which starts over and keeps the file aside, as the command line
    says it (a77cocgrapple RISK 4). ``at_table``: said on the table's screen, where a player
    reads it and types nothing, in Japanese too and typed on a computer, as a missing fight
    is (:func:`read_fight_data`; a78cocfight RISK 4: the table named no way out)."""
    new = start_command(new_hint, path, default)
    if at_table:
        return (f"{cause}; it cannot be played on 続行できません: on a computer 端末で: `{new}` "
                f"starts a new fight 新しい戦闘, keeping this file as {path.name}.corrupt-…")
    return (f"{cause}; it cannot be played on: `{new}` starts a new fight, keeping this file "
            f"as {path.name}.corrupt-…")


class NotJsonFight(DataError):
    """A fight file that is no JSON: empty, zero bytes, cut short (a power cut as it was
    written)."""


def read_fight_data(path: Path, start_hint: str, default: Path | None = None) -> Any:
    """The JSON of the fight file the system's ``fight new`` wrote (and the table rewrites).
    A missing one says how to start it (``start_hint``, for a fight at ``path`` rather than
    at the ``default`` file: :func:`start_command`)."""
    try:
        # A fight file holds what its table save holds: no larger than a save can be.
        data = read_regular(path, SAVE_LIMIT, "fight file")
    except FileNotFoundError:
        # Said on the table's screen too, where a player reads it: the command is typed on a
        # computer (SSH, the GM's laptop), never at the table's buttons.
        raise DataError(f"no fight at {path} yet 戦闘がありません: start one on a computer "
                        f"端末で: {start_command(start_hint, path, default)}") from None
    except NotADirectoryError:
        # the folder named, not the file (hist68 NIT 2)
        raise DataError(error_text(not_a_folder(path))) from None
    except OSError as exc:
        raise DataError(f"cannot read the fight {path}: {exc}") from None
    # As `fight show` reads it (overrides.read_text): a UTF-8 byte-order mark dropped
    # (reviewg67 RISK 4: the table refused a fight file with one that `fight show` read), a
    # byte that cannot be read counted in the file.
    text = utf8_text(data, "fight", path)
    try:
        return loads_json(text)
    except json.JSONDecodeError as exc:
        # empty, zero bytes, cut short: said as a save's are (hist68 NIT 3)
        raise NotJsonFight(f"{path}: not JSON ({json_fault(text, exc, 'fight file')})") from None


class FightFileChanged(DataError):
    """A resume found the fight file changed by the fight command since the table saved it
    (the GM's undo or action between sessions): the GM's, never written over, and not the
    table's fight to replay. Taking the file up is a start without ``resume``, which keeps
    the table's save aside (:func:`_set_aside`); a player at the table is asked whether to
    (``play`` under the boot service always resumes), a run with nobody to ask stops.

    ``another``: the file holds another fight, not the table's undone or played on (the GM's
    ``fight new --force``); ``kept``: where that ``fight new`` kept the table's fight
    (``.replaced-…``), which the table plays on from there, or None."""

    def __init__(self, message: str, *, another: bool = False, kept: Path | None = None
                 ) -> None:
        super().__init__(message)
        self.another = another
        self.kept = kept


class FightClosed(CompanionError):
    """A resume found the table's fight over and closed, its fight file as the table left
    it (but for the record of a ``genso fight apply`` since, :func:`unapplied_fight`): there
    is nothing to play until the GM makes the next fight (``fight new``). Under
    the boot service, which always resumes and starts the companion again after a stop,
    taking the file up offered the same "fight is over" menu after every Close."""

    def __init__(self, fight_path: Path, sha: str | None) -> None:
        super().__init__(f"the fight in {fight_path} is over and closed at the table")
        self.fight_path = fight_path
        self.sha = sha  # the file as the table closed it: another is the next fight


#: What a fight (a file, a table save's) that does not load or replay raises: the loaders
#: check each field's type (a DataError naming it), and a shape they miss is no traceback
#: that blocks the table mode until its save is deleted by hand, but a save kept aside.
UNREPLAYABLE = (CompanionError, ValueError, TypeError, KeyError)


def older_engine_said(played: int, newest: int, command: str) -> str | None:
    """What a table resumed under a newer engine says once, on stderr and in its status
    line until the next answer (review59a R1, review60a D1): that its fight plays on by the
    revision ``played`` it began by, and that a new fight (or ``command``) plays by
    ``newest``; None for a fight of today's revision. The note is said here."""
    if played >= newest:
        return None
    said = (f"this fight plays on by engine revision {played}, as the table began it; a new "
            f"fight (or `{command}`) plays by {newest} "
            f"この戦闘は改訂{played}のまま、新しい戦闘は改訂{newest}")
    note(said)
    return said


@dataclass(frozen=True)
class Table:
    """One system's fights at the table: how its fight file loads and its mode is made."""

    preset: str  # SaveGame.preset of its table saves: "genso", "coc"
    command: str  # its fight command, named when the file changed: "companion coc fight"
    start_hint: str  # how a fight is started, said when there is no fight file
    load: Callable[[Any], Any]  # the fight from its to_json data
    mode: Callable[[Any, str], FightMode]  # the mode over a fight, with its dice's source
    #: The command that plays on a table save (a path) of a fight file (a path), with the
    #: flags the run gave (``companion play``'s, a laptop's keys and terminal); None: the
    #: plain ``companion play --mode <preset>`` of a table at its own screen and buttons.
    resume_with: Callable[[Path, Path], str] | None = None
    #: The fight of a table save's data, played on by the engine revision the table played
    #: it by, as its answers replay (review59a R1: a table stopped under coc's revision 8 and
    #: resumed under 9 replayed them by 9 and was told its fight file had changed). None:
    #: :attr:`load`, for a system whose engine plays every action by one revision.
    load_save: Callable[[Any], Any] | None = None
    #: What a resumed table says once of the fight it plays on (coc's: an engine revision
    #: older than today's, review59c); None: nothing.
    on_resume: Callable[[FightMode], None] | None = None
    #: The command line's ``fight new … --force`` that starts over from a fight file no table
    #: save mends (:func:`cannot_play_on`); "": the file's fault is said alone.
    new_hint: str = ""

    def save_mode(self, save: FightSave, label: str) -> FightMode:
        """The mode over a table save's fight, as the table took it up, before its
        answers are replayed."""
        return self.mode((self.load_save or self.load)(save.fight), label)

    def resume_command(self, state: Path, fight: Path | str) -> str:
        """The command that plays on the table save at ``state`` of the fight at ``fight``."""
        if self.resume_with is not None:
            return self.resume_with(state, Path(fight))
        return companion_line("play", "--mode", self.preset, "--resume", "--state", str(state),
                              "--fight", str(fight))


def open_table(table: Table, fight_path: Path, state_path: Path, *, resume: bool,
               seed: int | None, choices: ChoiceFeed, rolls: RollFeed | None = None,
               display: Display | None = None, source_name: str = "camera カメラ",
               tell: Callable[[str], object] = lambda message: None,
               sim_rolls: Callable[[DiceSource], RollFeed] | None = None,
               simulated: Callable[[int], bool] = lambda sides: True) -> Session:
    """The play session of a fight at the table, ready to run.

    ``resume``: the table save at ``state_path`` is replayed, a half-thrown action too;
    otherwise (or with no usable save) the fight file is taken up as it is, which holds
    every action finished at the table. A save that cannot go on (corrupt, or a newer
    companion's) is kept aside and told of through ``tell``.

    ``rolls`` None: the companion throws, from the save's seed, going on after a resume
    with the dice an uninterrupted fight would have had; ``sim_rolls`` builds a feed that
    throws only some dice from that seeded source (those whose sides are ``simulated``) and
    has the others read or typed. The fight file is rewritten after every action (the save
    first); one changed meanwhile by the fight command is left as it is, and the table stops
    with a :class:`DataError` saying so (its save holds every action).
    """
    fight_path = fight_path.resolve()

    def resume_copy(copy: Path) -> str:  # of the table save, a cut write left
        return table.resume_command(copy, fight_of(copy, fight_path))

    all_sim = rolls is None and sim_rolls is None
    label = SIMULATED if all_sim else source_name
    saved: FightSave | None = None
    mode: FightMode | None = None
    fight: Any = None  # the fight file's fight, when read before a table save is set aside
    if resume:
        try:
            saved = load_fight_save(state_path, table.preset, resume_copy)
        except CorruptSave as exc:
            tell(f"{exc}; taking up the fight file")
        except NewerSave as exc:
            _keep_newer(table, state_path, fight_path, exc, tell)
        # A save marked over whose fight replays still asking (a hand edit, a damaged card:
        # the table marks it over only at the fight's end) is an unfinished table, played
        # on as --resume (the boot service's start) says; it was called "over and closed",
        # or replaced by the next fight's save with no copy.
        running = None
        if saved is not None and saved.fight_path != str(fight_path) \
                and _played_on_from(table, saved, fight_path, label):
            saved.fight_path = str(fight_path)
        if saved is not None and saved.finished:
            running = _running(table, saved, label)
            saved.finished = running is None
        if saved is None:
            note(f"no unfinished fight saved in {state_path}: taking up {fight_path}")
        elif saved.finished:
            on_disk = file_sha(fight_path)
            if saved.fight_path == str(fight_path) and (
                    on_disk == saved.fight_sha
                    or _undone_by_a_cut(fight_path, state_path, saved, on_disk)
                    or _closed_but_applied(table, saved, fight_path, label)):
                raise FightClosed(fight_path, on_disk)
            note(f"the fight saved in {state_path} is over: taking up {fight_path}")
            saved = None
        elif saved.fight_path != str(fight_path):
            # The fight taken up is read first: one that cannot be read sets nothing aside.
            fight = _load_fight(table, fight_path)
            _set_aside(table, saved, state_path, label, tell, running is not None)
            note(f"taking up {fight_path}")
            saved = None
        elif running is not None:
            tell(f"the table save {state_path} was marked over, but its fight replays still "
                 "running: it plays on")
            mode = running
        else:
            mode = _replayed(table, saved, state_path, label, tell)
            saved = saved if mode is not None else None
    elif state_path.exists():
        old = None
        try:
            old = load_fight_save(state_path, table.preset, resume_copy)
        except CorruptSave as exc:  # kept aside: said, as with --resume
            tell(f"{exc}; taking up the fight file")
        except NewerSave as exc:
            _keep_newer(table, state_path, fight_path, exc, tell)
        # A save marked over whose fight replays still asking (a hand edit, a damaged
        # card) is a table that stopped mid-fight: kept aside as an unfinished one is, not
        # replaced unseen.
        marked_over = (old is not None and old.finished
                       and _running(table, old, label) is not None)
        if old is not None and (not old.finished or marked_over):
            if old.fight_path != str(fight_path):
                # Another fight's table: a fight file that cannot be read (a misspelt
                # --fight) sets nothing aside.
                fight = _load_fight(table, fight_path)
            else:
                _refuse_unmendable(table, old, fight_path, label)
            _set_aside(table, old, state_path, label, tell, marked_over)
    resuming = mode is not None
    if mode is not None and table.on_resume is not None:
        table.on_resume(mode)
    if saved is None:
        if fight is None:
            fight = _load_fight(table, fight_path)
        # The file's SHA as taken up: a table whose every write of it the disk refuses (a
        # read-only folder) knows it after a cut as its own, only behind, not the GM's.
        saved = FightSave(seed=seed if seed is not None else secrets.randbelow(2**31),
                          preset=table.preset, input_kind="sim" if all_sim else "camera",
                          fight=fight.to_json(), fight_path=str(fight_path),
                          fight_sha=file_sha(fight_path))
        mode = table.mode(fight, label)
    assert mode is not None
    source = SimulatedDice.seeded(saved.seed) if rolls is None else None
    feed: RollFeed
    if rolls is not None:
        feed = rolls
    else:
        assert source is not None
        feed = sim_rolls(source) if sim_rolls is not None else SimRolls(source)
    if resuming:  # the dice a fight without the stop would throw next
        if source is not None:
            mode.advance(source, simulated if sim_rolls is not None else (lambda sides: True))
        _check_fight_file(table, fight_path, state_path, saved, mode, tell)
    fight_mode, table_save = mode, saved
    # The save holds every action while the file is refused: told as the file's trouble.
    beside = Beside(f"the fight file {fight_path}", "the table's save holds every action",
                    f"戦闘ファイル {fight_path.name}")

    # The fight file as the table took it up (after a resume's checks), then as it last
    # wrote it. A table started in a read-only folder holds no lock on the file (none can
    # be made there), so once the folder is writable the fight command can change it while
    # the table runs: that change is the GM's, and is never written over.
    known = [file_sha(fight_path)]
    # The modification time of the table's last write of it known to be on the card (or of
    # the file as taken up), for a cut that undoes the writes after it (_undone_by_a_cut).
    synced = [_mtime_ns(fight_path)]

    def check_file() -> None:
        """The fight file is still the table's last write (or what it took up): the GM's
        change, or a file that cannot be read (so may be anyone's), stops the table."""
        try:
            on_disk = file_sha(fight_path)
        except DataError as unreadable:
            # Not called the GM's change: nobody may have touched it (a read the SD card
            # failed once). Written over, a change of the GM's would be lost all the same.
            raise DataError(
                f"{unreadable} 戦闘ファイルを読めません; the table stops and leaves it as it "
                f"is. The table's save {state_path} holds every action played here; started "
                f"again, the table goes on from it (a fight file that still cannot be read "
                f"is kept aside and written again)") from None
        if on_disk != known[0]:
            # Said on the screen too: the boot service starts the table again with
            # --resume, which asks the player whether to take the file up (FightFileChanged).
            raise DataError(
                f"the fight file {fight_path} was changed while the table ran (`{table.command}"
                f" …`?); the table stops and leaves it as it is. The table's save "
                f"{state_path} holds every action played here; started again, the table "
                f"offers to take up the fight file as it is now (the save is kept aside "
                f"then)")

    def write_file() -> None:
        check_file()
        text = fight_text(fight_mode.fight)
        sha = text_sha(text)
        try:
            atomic_write_text(fight_path, text)
        except NotDurable:
            # The rename went through, only the folder's fsync after it failed: the file on
            # disk is this write, so its SHA is the table's (else the next write and a
            # restart take it for the GM's). A power cut may still bring back the last write
            # that was synced, also the table's: its SHA is kept until a write is synced.
            # Raised on for Session.keep to tell the player it may not be on the card.
            if table_save.fight_sha_durable is None:
                table_save.fight_sha_durable = table_save.fight_sha
                table_save.fight_durable_mtime_ns = synced[0]
            table_save.fight_sha = known[0] = sha
            raise
        table_save.fight_sha = known[0] = sha
        table_save.fight_sha_durable = table_save.fight_durable_mtime_ns = None
        synced[0] = _mtime_ns(fight_path)

    def keep_file(*, starting: bool = False) -> None:
        # Saved again at once after a write whose rename went through, durable or not, so
        # the save has that write's SHA: a fight file going back one action from here (the
        # GM's undo, the same bytes as the table's write before) is not taken for one a cut
        # kept from being written, and a restart knows the file as the table's. A file the
        # disk refuses (full, read-only) is told and written whole at the next action; until
        # then the save keeps the SHA of the table's last write, so a resume after a cut
        # knows the file behind it as the table's own (:func:`_check_fight_file`).
        before = table_save.fight_sha
        written = session.keep(write_file, starting=starting, beside=beside)
        if written or table_save.fight_sha != before:
            session.keep_saved(starting=starting)

    def mirror(events: Sequence[object]) -> None:
        # After the save holding this action.
        if events:
            keep_file()

    session = Session(mode, choices=choices, rolls=feed, display=display, save=saved,
                      save_path=state_path, on_events=mirror)
    saved.events = mode.progress()
    keep_file(starting=True)
    return session


def _load_fight(table: Table, fight_path: Path) -> Any:
    """The fight in the fight file; :class:`DataError` when it is missing, cannot be read or
    is not a fight of this system (a shape its loader does not name, too: no traceback), or
    a newer companion wrote it (:class:`NewerFightFile`: with how to update, as the system's
    fight command says it; nothing moves it; r77coc, f78carry: genso's said no update)."""
    default = default_fight_file(table.preset)

    def stuck(cause: DataError) -> DataError:  # with the way out, where the system has one
        if not table.new_hint:
            return cause
        return DataError(cannot_play_on(cause, table.new_hint, fight_path, default,
                                        at_table=True))

    try:
        data = read_fight_data(fight_path, table.start_hint, default)
    except NotJsonFight as exc:
        raise stuck(exc) from None
    refuse_other_systems(data, table.preset, fight_path, at_table=True)
    try:
        return table.load(data)
    except NewerFight as exc:
        raise NewerFightFile(_named_first(exc, fight_path)) from None
    except DataError as exc:
        named = exc if str(exc).startswith(str(fight_path)) else DataError(
            f"{fight_path}: {exc}")
        raise stuck(named) from None
    except (TypeError, KeyError) as exc:
        raise stuck(DataError(f"{fight_path}: not a fight this companion can read "
                              f"({type(exc).__name__}: {exc})")) from None


def _named_first(exc: DataError, fight_path: Path) -> str:
    """``exc`` said with the fight file first, once: genso's loader names it already."""
    said = str(exc)
    return said if said.startswith(str(fight_path)) else f"{fight_path}: {said}"


def _refuse_unmendable(table: Table, old: FightSave, fight_path: Path, label: str) -> None:
    """Before the unfinished table of this same fight file is set aside: a file that cannot
    be read is written again from that table (:func:`_catch_up`); when the table does not
    replay either, the file's error is raised now, with nothing set aside."""
    try:
        _load_fight(table, fight_path)
    except (NewerFightFile, OtherSystemsFight):
        raise  # the table would write its fight over it, the file kept as corrupt
    except UNREPLAYABLE as unreadable:
        try:
            replay(table.save_mode(old, label), old.inputs, old.events)
        except UNREPLAYABLE:
            raise unreadable from None  # nothing would mend the file


def _replayed(table: Table, saved: FightSave, state_path: Path, label: str,
              tell: Callable[[str], object]) -> FightMode | None:
    """The table save's fight replayed to where it stopped; None, with the save kept aside
    and the reason told, when it does not replay (other rules, an edited file)."""
    try:
        mode = table.save_mode(saved, label)
        replay(mode, saved.inputs, saved.events)
    except UNREPLAYABLE as exc:
        def resume(copy: Path) -> str:  # a copy a cut write left may replay
            return table.resume_command(copy, fight_of(copy, Path(saved.fight_path)))

        kept = _kept_aside(state_path, "corrupt", f"the table save {state_path.name} does not "
                           f"replay ({exc}), and it cannot be kept aside",
                           "give another --state, or fix the folder")
        tell(f"the table save {state_path} does not replay ({exc}); it was kept as "
             f"{kept.path.name}{kept.copies(resume, by_name=True)}; taking up the fight file")
        return None
    return mode


def _on_file(table: Table, fight_path: Path) -> dict[str, Any] | None:
    """The fight file as its system writes it now (an older layout loaded and written
    anew), or None when it is missing or cannot be read as a fight."""
    try:
        data = loads_json(utf8_text(read_regular(fight_path, SAVE_LIMIT, "fight file"),
                                    "fight", fight_path))
        written: dict[str, Any] = table.load(data).to_json()
    except (OSError, json.JSONDecodeError, *UNREPLAYABLE):  # utf8_text's DataError too
        return None
    return written


def _check_fight_file(table: Table, fight_path: Path, state_path: Path, saved: FightSave,
                      mode: FightMode, tell: Callable[[str], object]) -> None:
    """After a resume: the fight file must be the table's fight, but for what the table did
    after its last write of the file that worked (:func:`_behind_the_table`), which the
    session writes to it. One that is missing or cannot be read is written again from the
    table save, which holds the whole fight (the unreadable one kept aside); one changed by
    the fight command since (an undo too) is refused: :class:`FightFileChanged`."""
    on_file = _on_file(table, fight_path)
    if on_file is None:
        if fight_path.exists():
            kept = keep_unreadable(fight_path)
            tell(f"the fight file {fight_path} could not be read (kept as {kept.path.name}"
                 f"{kept.copies(by_name=True)}); it is written again from the table save")
        return
    ours = mode.fight.to_json()
    if on_file == ours or _behind_the_table(on_file, ours, fight_path, state_path, saved):
        return
    if same_opening(without_applied(on_file), ours):  # an undo, an action played there
        raise FightFileChanged(f"the fight file {fight_path} changed since the table saved "
                               f"it (`{table.command} …`?): play it without --resume to take "
                               f"it up as it is now (the table's save is kept aside then)")
    # The GM's `fight new --force` (a wrong folder, a wrong machine): it was said to be an
    # undo, and the table's fight, kept aside, was found only by `ls` (a78saves item 1).
    copy = _kept_fight(table, ours, fight_path)
    played = (f"the fight this table played is kept as {copy.name}: "
              f"`{table.resume_command(state_path, copy)}` plays it on; "
              if copy is not None else "")
    raise FightFileChanged(f"the fight file {fight_path} now holds another fight (`"
                           f"{table.command} new --force`?); {played}play without --resume "
                           f"to take up the new fight (the table's save is kept aside then)",
                           another=True, kept=copy)


def _kept_fight(table: Table, ours: dict[str, Any], fight_path: Path) -> Path | None:
    """The copy ``fight new --force`` kept of the fight ``ours`` (a table's; its journal
    may be anywhere: :func:`same_opening`), ``<fight file>.replaced-…`` beside the fight
    file, the newest first; None when the fight file still holds it, or no copy does."""
    if same_opening(_on_file(table, fight_path), ours):
        return None
    copies = sorted(fight_path.parent.glob(f"{fight_path.name}.replaced-*"), reverse=True)
    return next((copy for copy in copies if same_opening(_on_file(table, copy), ours)), None)


def _played_on_from(table: Table, saved: FightSave, fight_path: Path, label: str) -> bool:
    """Is ``fight_path`` the copy ``fight new --force`` kept of the fight of the table save
    ``saved`` (:func:`_kept_fight`), whose own fight file holds another fight now? The table
    plays on from it (the command its stop and its setting aside name); taken for another
    fight's file, it set the save aside again, as ``table.json.replaced-….replaced-…``."""
    saved_at = Path(saved.fight_path)
    if fight_path.parent != saved_at.parent \
            or not fight_path.name.startswith(f"{saved_at.name}.replaced-"):
        return False
    try:
        opening = table.save_mode(saved, label).fight.to_json()
    except UNREPLAYABLE:
        return False
    return same_opening(_on_file(table, fight_path), opening) \
        and not same_opening(_on_file(table, saved_at), opening)


def _behind_the_table(on_file: dict[str, Any], ours: dict[str, Any], fight_path: Path,
                      state_path: Path, saved: FightSave) -> bool:
    """Is the fight file, which differs from the table's fight (``ours``), only behind it,
    the table's own last write that worked? With the SHA of that write in the save, by any
    number of actions: the disk may have refused the writes after it (a read-only folder)
    while the save was written. A save from before the SHA was kept goes by the files'
    times, which cannot tell the table's write from the GM's: one action, what a cut between
    the save and the file's write leaves behind."""
    apart = None if saved.fight_sha is not None else 1
    return same_fight(on_file, ours, apart=apart) \
        and not _changed_since(fight_path, state_path, saved)


def _changed_since(fight_path: Path, state_path: Path, saved: FightSave) -> bool:
    """Was the fight file changed by the fight command (an action, an undo) since the table
    last wrote it? The table saves, writes the file, and saves the file's SHA-256 at once:
    a file that still has it is the table's (behind its save by the writes a cut or a
    refusing disk kept from it), and so is its last write synced to the card that a cut
    brought back (:func:`_undone_by_a_cut`). A save from before the SHA was kept goes by the
    files' times (the table writes the file after its save), which a clock set back can
    mislead."""
    if saved.fight_sha is not None:
        on_disk = file_sha(fight_path)
        return on_disk != saved.fight_sha \
            and not _undone_by_a_cut(fight_path, state_path, saved, on_disk)
    return fight_path.stat().st_mtime_ns > state_path.stat().st_mtime_ns


def _undone_by_a_cut(fight_path: Path, state_path: Path, saved: FightSave,
                     on_disk: str | None) -> bool:
    """Is the fight file (SHA ``on_disk``) the table's last write that was synced to the
    card, brought back by a power cut that undid the writes after it, which were renamed
    into place but whose folder's fsync failed (``saved.fight_sha_durable``)? The fight
    command's undo of the table's last action writes the same bytes, but not the same
    modification time: the file a cut brings back has the synced write's own, to the
    nanosecond (``saved.fight_durable_mtime_ns``). By the files' order, in a save from
    before that time was kept, the undo was taken for the cut when the Pi's clock had
    started behind the save (a file system's times may be as coarse as its clock's tick:
    the same time is the GM's, asked about, never written over)."""
    if saved.fight_sha_durable is None or on_disk != saved.fight_sha_durable:
        return False
    if saved.fight_durable_mtime_ns is not None:
        return _mtime_ns(fight_path) == saved.fight_durable_mtime_ns
    return fight_path.stat().st_mtime_ns < state_path.stat().st_mtime_ns


def _closed_but_applied(table: Table, saved: FightSave, fight_path: Path, label: str) -> bool:
    """Is the fight file the closed table's fight (``saved``, replayed) but for the record
    ``genso fight apply`` wrote in it since (:func:`unapplied_fight`)? That apply, the step
    the closed table's screen advised, is no other fight: a restart (the boot service's) took
    the closed fight up again, showed it over and held the file, refusing ``fight new``."""
    try:
        mode = table.save_mode(saved, label)
        replay(mode, saved.inputs, saved.events)
    except UNREPLAYABLE:
        return False
    closed = without_applied(loads_json(fight_text(mode.fight)))
    return bool(unapplied_fight(fight_path)[1] == closed)


def _mtime_ns(path: Path) -> int | None:
    """The modification time of the file at ``path`` in ns; None when there is none."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def file_sha(path: Path) -> str | None:
    """The SHA-256 of the file at ``path``; None when there is none. One that cannot be read
    (EIO, EACCES) raises :class:`DataError` "cannot read <path>: <reason>": that is no sign
    the fight command changed it, and no proof it did not."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise DataError(error_text(not_a_folder(path))) from None
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None


def _running(table: Table, old: FightSave, label: str) -> FightMode | None:
    """The fight of the table save ``old``, marked over, replayed, when it is still asking;
    None when it replays to its end, or does not replay (other rules since, an edited file).
    That one is taken as over and left to be replaced with nothing said, as a closed table
    is: this companion can neither play it on nor write the fight file from it, and keeping
    it aside as corrupt warned "does not replay" of a fight that ended as it should."""
    try:
        mode = table.save_mode(old, label)
        replay(mode, old.inputs, old.events)
    except UNREPLAYABLE:
        return None
    return mode if mode.ask() is not None else None


def _set_aside(table: Table, old: FightSave, state_path: Path, label: str,
               tell: Callable[[str], object], marked_over: bool = False) -> None:
    """An unfinished table another start replaces: its fight file first gets every action
    it finished (:func:`_catch_up`), then the save is kept aside, never overwritten.
    ``marked_over``: the save said the fight was over, but it replays still running."""
    whole = _catch_up(table, old, state_path, Path(old.fight_path), label, tell)
    kept = _kept_aside(state_path, "replaced", f"the unfinished table of {old.fight_path} "
                       f"saved in {state_path.name} cannot be kept aside for a new one",
                       f"play it on ({table.resume_command(state_path, old.fight_path)}), or "
                       "fix the folder")
    how = (", marked over but replaying to a fight still running," if marked_over else "")
    moved = _moved_fight(table, old, label)
    tell(f"the unfinished table of {old.fight_path} in {state_path}{how} is kept as "
         f"{kept.path.name}" + ("; every action it finished is in that fight file" if whole
                                else "")
         + (f"; its fight, which `fight new --force` kept as {moved.name}, plays on with "
            f"`{table.resume_command(kept.path, moved)}`" if moved is not None else ""))


def _moved_fight(table: Table, old: FightSave, label: str) -> Path | None:
    """Where ``fight new --force`` kept the fight of the table save ``old``
    (:func:`_kept_fight`), which its fight file no longer holds; None otherwise."""
    try:
        opening = table.save_mode(old, label).fight.to_json()
    except UNREPLAYABLE:
        return None
    return _kept_fight(table, opening, Path(old.fight_path))


def _keep_newer(table: Table, state_path: Path, fight_path: Path, exc: NewerSave,
                tell: Callable[[str], object]) -> None:
    """A table save a newer companion wrote: kept aside as ``.newer-…`` (whole, for that
    companion to carry on) and told, with how to carry it on; the fight file is taken up
    then, as for a save that cannot go on. A folder that lets nothing be renamed stops the
    table, saying what the save is and what to do."""
    kept = _kept_aside(state_path, "newer", f"{exc}; {NewerSave.UPDATE}. It cannot be kept "
                       "aside for the fight file to be taken up",
                       "give another --state, or fix the folder")
    resume = table.resume_command(kept.path, fight_of(kept.path, fight_path))
    tell(f"{exc.kept_as(kept.path, resume)}; taking up the fight file")


def fight_of(state: Path, otherwise: Path) -> Path:
    """The fight file of the table save at ``state`` (a copy kept aside, a newer companion's,
    which this one cannot load), read from its ``fight_path``: a table played on its own
    ``--fight`` is played on with it, not the fight this run took up in its place (which
    would set the copy aside). ``otherwise`` when the file does not say."""
    try:
        data = loads_json(read_regular(state, SAVE_LIMIT, "fight save").decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, DataError):
        return otherwise
    fight = data.get("fight_path") if isinstance(data, dict) else None
    return Path(fight) if isinstance(fight, str) and fight else otherwise


def _kept_aside(state_path: Path, why: str, what: str, then: str) -> Kept:
    """:func:`move_aside` of a table save (:func:`keep_unreadable`, with the copies of its
    cut writes, when it is ``corrupt``); in a folder that lets nothing be renamed (a
    read-only one) an OSError named by the folder, not the save, which is readable:
    ``what`` could not be done, and ``then`` what the player can do."""
    try:
        if why == "corrupt":
            return keep_unreadable(state_path)
        return Kept(move_aside(state_path, why), ())
    except OSError as exc:
        raise OSError(exc.errno, f"{what}: no file in this folder can be renamed "
                      f"({exc.strerror}); {then}", str(state_path.parent)) from None


def _catch_up(table: Table, old: FightSave, state_path: Path, fight_path: Path, label: str,
              tell: Callable[[str], object]) -> bool:
    """Before an unfinished table is set aside: does the fight file hold every action it
    finished? A cut between the table's save and the file's write kept the last one from the
    file, a disk that refused the file's writes (a read-only folder) the ones since its
    last that worked (ahead of the table by the undos among them), and a file that cannot
    be read is none of them: the file is written from the table then (the unreadable one
    kept aside; :func:`_behind_the_table`). A file changed by the fight command since the
    table stopped (an undo) is the GM's and stays."""
    try:
        mode = table.save_mode(old, label)
        replay(mode, old.inputs, old.events)
    except UNREPLAYABLE:
        return False  # nothing to catch up from
    ours, on_file = mode.fight.to_json(), _on_file(table, fight_path)
    if on_file == ours:
        return True
    if on_file is None:
        if fight_path.exists():
            kept = keep_unreadable(fight_path)
            tell(f"the fight file {fight_path} could not be read (kept as {kept.path.name}"
                 f"{kept.copies(by_name=True)}); it is written again from the table at "
                 f"{state_path}")
        _write_doubtful(fight_path, mode.fight, state_path, tell)
        return True
    behind = len(ours["journal"]) - len(on_file["journal"])
    if behind and _behind_the_table(on_file, ours, fight_path, state_path, old):
        _write_behind(table, fight_path, mode.fight, state_path, tell)
        count = abs(behind)
        last = "the last action" if count == 1 else f"the last {count} actions"
        # Ahead: the table's undos whose writes the disk refused, taken out of the file.
        tell(f"{last} the table at {state_path} {'finished' if behind > 0 else 'undid'} "
             f"{'is' if count == 1 else 'are'} now {'' if behind > 0 else 'undone '}in "
             f"{fight_path} too")
        return True
    return False


def _write_behind(table: Table, fight_path: Path, fight: Any, state_path: Path,
                  tell: Callable[[str], object]) -> None:
    """Write the fight file up to its table (forward, or back past the table's undos) before
    the table is set aside. A disk that still refuses it raises, naming what would be lost,
    before anything is set aside: taking the file up as it is would leave the table's last
    actions (or an undone one) only in a save kept aside. A write renamed
    into place whose folder could not be synced (:class:`NotDurable`) is in the file: told,
    and the start goes on."""
    try:
        _write_doubtful(fight_path, fight, state_path, tell)
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise OSError(exc.errno, f"the fight file is not yet as the unfinished table saved "
                      f"in {state_path} left it (behind it, or ahead by an undo), and cannot "
                      f"be written ({reason}); play it on "
                      f"({table.resume_command(state_path, fight_path)}), or fix the folder",
                      str(fight_path)) from None


def _write_doubtful(fight_path: Path, fight: Any, state_path: Path,
                    tell: Callable[[str], object]) -> None:
    """:func:`write_fight_file` from the table at ``state_path`` before it is set aside; a
    write whose folder's fsync failed after the rename (:class:`NotDurable`) is in place,
    read back as written: told as Session tells it ("may not be on the card 書込未確定"),
    not as a refusal, since only a power cut before the next write of the file may undo it
    (the table's save, kept aside, holds every action then). Another OSError is raised."""
    try:
        write_fight_file(fight_path, fight)
    except NotDurable as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        tell(f"wrote the fight file {fight_path}, but its folder could not be synced "
             f"({reason}): written, may not be on the card 書込未確定; a power cut may undo "
             f"that write, and the table save kept aside from {state_path} holds every "
             f"action")
