"""The table's save (:class:`FightSave`): the fight as the table took it up plus the
journal of every answer, so ``--resume`` after a power cut replays it exactly, a
half-thrown action too; and the refusal of another mode's save at the same path.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.paths import data_dir
from companion.app.session.save import (
    AnotherModesSave,
    SaveGame,
    read_save,
)
from companion.errors import DataError
from companion.systems.jongrogue.profile import preset_options


@dataclass(slots=True)
class FightSave(SaveGame):
    """A table save: the fight as the table took it up (the engine's ``to_json``), its file,
    and the session's journal of answers; ``seed`` is the simulated dice's; ``preset`` the
    system (``genso``, ``coc``)."""

    fight: dict[str, Any] = field(default_factory=dict)
    fight_path: str = ""
    # SHA-256 of the fight file as the table last wrote it (once the rename went through,
    # even when the folder's fsync after it failed), or took it up, when the disk refused
    # every write since: a file still so after a stop is the table's (a cut or a
    # refusing disk kept the next writes from it), any other was changed by the fight
    # command since. None in saves made before it was kept.
    fight_sha: str | None = None
    # While the table's writes of the fight file since were renamed into place but their
    # folder's fsync failed (files.NotDurable), the SHA-256 of its last write known to be on
    # the card (or of the file as taken up): a power cut may undo the writes since, bringing
    # that file back, the table's own too. None once a write is synced, and then left out
    # of the save, which an older companion (that refuses a field it does not know) reads.
    fight_sha_durable: str | None = None
    # With it, that file's modification time (ns) as written: the file a cut brings back has
    # it to the nanosecond, the fight command's undo writing the same bytes has its own,
    # whatever the clock said (a Pi's starts behind the files of its last run). None beside
    # a fight_sha_durable of a save from before it was kept: the files' order then.
    fight_durable_mtime_ns: int | None = None

    def to_json(self) -> str:
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__}
        for key in ("fight_sha_durable", "fight_durable_mtime_ns"):
            if fields[key] is None:
                del fields[key]
        return json.dumps(fields, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, source: str = "save") -> FightSave:
        save = super(FightSave, cls).from_json(text, source)
        assert isinstance(save, FightSave)
        if not isinstance(save.fight, dict) or not save.fight:
            raise DataError(f"{source}: not a fight save")
        if not isinstance(save.fight_path, str):
            raise DataError(f"{source}: fight_path must be str")
        for key in ("fight_sha", "fight_sha_durable"):
            if getattr(save, key) is not None and not isinstance(getattr(save, key), str):
                raise DataError(f"{source}: {key} must be str")
        mtime = save.fight_durable_mtime_ns
        if mtime is not None and (not isinstance(mtime, int) or isinstance(mtime, bool)):
            raise DataError(f"{source}: fight_durable_mtime_ns must be int")
        return save


#: The table modes' saves (SaveGame.preset), by the mode that plays them.
TABLE_PRESETS = ("genso", "coc")


def load_fight_save(path: Path, preset: str,
                    resume: Callable[[Path], str] | None = None) -> FightSave | None:
    """The table save of a ``preset`` fight at ``path``, or None; one that cannot be read is
    moved aside (:func:`~companion.app.session.save.read_save`), naming the copies a write
    cut short left beside it, with ``resume``, the command that plays on a copy, if given.
    A whole save of another mode (a game of JongRogue, the other system's table) given as
    ``--state`` is refused (:class:`AnotherModesSave`) and left where it is: it is
    someone's game, not a broken table. One a newer companion wrote (:class:`NewerSave`)
    is left for the caller, which keeps it aside as ``.newer-…`` (:func:`open_table`)."""
    wanted = (f"a {preset} table's save", f"the {preset} table", f"{preset}/table.json")

    def parse(text: str, source: str) -> FightSave:
        try:
            save = FightSave.from_json(text, source)
        except DataError:
            refuse_another_modes(text, source, path, *wanted)
            raise
        if save.preset != preset:
            _refuse_another_mode(save, path, *wanted)
            raise DataError(f"{path}: not a {preset} fight save")
        return save

    return read_save(path, parse, "fight save", resume)


def refuse_another_modes(text: str, source: str, path: Path, wanted: str, player: str,
                         default: str) -> None:
    """Raise :class:`AnotherModesSave` when ``text``, which is not ``wanted`` (a game of
    JongRogue's save, a table's), is a whole save of another mode: that mode's to play on,
    not a corrupt save to set aside. ``player`` and ``default`` name who wanted it and its
    own save, for the message."""
    for read in (FightSave.from_json, SaveGame.from_json):
        try:
            save = read(text, source)
        except DataError:
            continue
        _refuse_another_mode(save, path, wanted, player, default)


def _jongrogue_preset(preset: str) -> bool:
    """Whether a save's preset is one the JongRogue engine plays: ez, plus, or ez with EZ
    Plus options (ez+pincer), as profile.preset_options takes it, so a game's save of
    ez+pincer is known for a game's and not mistaken for a broken table save (fixr70b)."""
    try:
        preset_options(preset)
    except DataError:
        return False
    return True


def _refuse_another_mode(save: SaveGame, path: Path, wanted: str, player: str,
                         default: str) -> None:
    """:func:`refuse_another_modes` for a save read whole."""
    mode: str | None
    fight = None
    if isinstance(save, FightSave) and save.preset in TABLE_PRESETS:
        holds, mode = f"a {save.preset} table's save", save.preset
        # As the table compares it (fight_file.open_table): the very string it saved.
        if save.fight_path != str(data_dir() / save.preset / "fight.json"):
            fight = save.fight_path or None
    elif not isinstance(save, FightSave) and _jongrogue_preset(save.preset):
        holds = f"a game of JongRogue ({save.preset})"
        mode = None if save.finished else "game"
    else:
        return
    raise AnotherModesSave(
        f"{path} holds {holds}, not {wanted}, so it was left as it is: give {player} a "
        f"--state of its own (by default {default} in the data folder)", mode, path, fight)
