"""The files a genso fight works with, told alike by the command and the table: the fight
file ``--file`` names (:func:`default_fight_path`, :func:`file_option`), and the sheet files
``companion genso fight apply`` writes: a sheet file written as the fight leaves its
character (:func:`sheet_document_over`), each sheet's writing planned (:func:`sheet_write`),
the PCs whose sheets apply would write (:func:`unwritten`), and the ``fight apply`` command
for a fight file (:func:`apply_command`); and the campaign calendar (:func:`calendar_path`,
:func:`load_calendar`), which ``genso calendar`` keeps and the table reads for the Death
Curses its fighters carry (GM-MAGIC-13).
"""

from __future__ import annotations

import hashlib
import json
import shlex
import tomllib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit

from companion.app.command_name import companion_command
from companion.app.command_name import file_option as any_file_option
from companion.app.overrides import read_text
from companion.app.paths import data_dir
from companion.errors import DataError
from companion.files import (
    aside_name,
    blank_fault,
    cut_copies_words,
    file_there,
    loads_toml,
    parse_user_toml,
    toml_fault,
)
from companion.systems.genso.calendar import Calendar, DeathCurse, calendar_from_mapping
from companion.systems.genso.character.core import Character
from companion.systems.genso.combat import Entrant, Fight
from companion.systems.genso.rules import GensoRules
from companion.systems.genso.sheet import load_sheet, sheet_mapping
from companion.toml_writing import one_line_each, one_line_each_over

SHEET_COMMENT = "幻想迷宮冒険譚 Ver2.5 character sheet (companion genso)"


def sheet_document(character: Character) -> tomlkit.TOMLDocument:
    """A character sheet as TOML, one line per field; :func:`load_sheet` reads it back."""
    return one_line_each(sheet_mapping(character), SHEET_COMMENT)


def sheet_document_over(rules: GensoRules, text: str, character: Character,
                        origin: str, taken: Mapping[str, int] | None = None,
                        dropped: Collection[str] = (),
                        ) -> tomlkit.TOMLDocument:
    """``character`` written into the sheet file ``text`` was read from, keeping the
    player's comments and order (:func:`one_line_each_over`); a fresh sheet if that would
    not load back as ``character``. A file that already reads as ``character`` is left as
    it is, and a field or a ``[money]``/``[rings]`` key it leaves out is not added when the
    file reads the same without it (genso74 DEFECT 1: a rest wrote ``race``, ``silver = 0``
    and an inline ``money = {…}`` over a ``[money]`` table, its comments lost). ``taken``:
    which copy of equal items left a list, by its index (``mana_stones``: the stone sold);
    ``dropped``: fields that go, not emptied, as they were added (a ring taken off). A
    weapon readied goes first in ``weapons`` (:func:`.character.gear.equip`), in the file
    too."""
    def same(document: tomlkit.TOMLDocument) -> bool:
        try:
            return load_sheet(rules, tomlkit.dumps(document), origin) == character
        except DataError:
            return False

    document = one_line_each_over(text, sheet_mapping(character), SHEET_COMMENT, same=same,
                                  taken=taken, dropped=dropped, first=("weapons",))
    return document if same(document) else sheet_document(character)


def digest(text: str) -> str:
    """SHA-256 of a sheet's text: how a fight tells whether the file changed under it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_fight_path() -> Path:
    """The fight file ``companion genso fight`` and ``play --mode genso`` take with no
    ``--file`` (``--fight``)."""
    return data_dir() / "genso" / "fight.json"


def calendar_path() -> Path:
    """The campaign calendar, one for the data folder as the fight file is (GM-MAGIC-13)."""
    return data_dir() / "genso" / "calendar.toml"


class DamagedCalendar(DataError):
    """A calendar file that is not TOML, said with what to do (move it aside, what is lost);
    :attr:`fault` is the file and its fault alone, for the table's one status line, where
    the rest does not fit (the GM's commands say it whole)."""

    def __init__(self, message: str, fault: str) -> None:
        super().__init__(message)
        self.fault = fault


def load_calendar(rules: GensoRules | None = None) -> Calendar:
    """The calendar as saved; day 1 and no curse before any is saved. With ``rules``, a
    preset's key in it (``pc1``, kept by a companion before genso70 DEFECT 4) is read as
    the preset's name, the name its sheet and its fighter go by."""
    path = calendar_path()
    if not file_there(path):
        return Calendar()
    # The companion's calendar always holds its comment and the day: an empty one is a power
    # cut's, not day 1 (reviewh70 DEFECT 2: read as day 1 with no curse or death); a power
    # cut's zero bytes were said in tomllib's words, with no way on: every calendar command
    # and the sunset stopped at it (hist70 D2).
    raw, fault, typed = kept_toml(path, read_text(path, "calendar"))
    if fault is not None:
        raise DamagedCalendar(
            damaged_file(path, fault, typed=typed, start_again="start the calendar again at "
                         "day 1", lost="the day, the Death Curses and the deaths it kept",
                         whole="calendar", reads=lambda copy: calendar_from_mapping(
                             whole_toml(copy), str(copy))),
            damage(path, fault))
    calendar = calendar_from_mapping(raw, str(path))
    if rules is None:
        return calendar
    return calendar.renamed(lambda text: kept_name(rules, text))


def characters_dir() -> Path:
    return data_dir() / "genso" / "characters"


def sheet_path(name: str) -> Path:
    safe = "".join("_" if c in '/\\:*?"<>|' else c for c in name.strip())
    return characters_dir() / f"{safe}.toml"


def kept_name(rules: GensoRules, text: str) -> str:
    """The name a calendar's ``text`` goes by: a preset's key (``pc1``, kept by a companion
    before genso70 DEFECT 4) read as the preset's name, the one its sheet and its fighter go
    by; but not a key a saved character is named by, as ``genso sheet`` and ``fight new``
    take the saved one first (reviewz70: a PC saved as ``knight_m`` had its curse, then its
    death, moved to the preset 騎士（男性）, and never died)."""
    key = text.strip()
    raw = rules.presets.get(key)
    if raw is None or "name" not in raw or file_there(sheet_path(key)):
        return text
    return str(raw["name"])


def kept_toml(path: Path, text: str) -> tuple[dict[str, Any], str | None, bool]:
    """The TOML ``text`` of a file the companion writes (a sheet, the calendar), read from
    ``path``: its table and no fault; else no table, its fault (:data:`EMPTY`, or in
    :func:`toml_fault_at`'s words) and whether it is a line typed (tomllib's words: one to
    mend) rather than a power cut's damage."""
    if (fault := blank_fault(text, "file")) is not None:
        return {}, fault, False
    try:
        return loads_toml(text), None, False
    except tomllib.TOMLDecodeError as exc:
        fault = toml_fault_at(path, exc)
        return {}, fault, fault == str(exc)


def toml_fault_at(path: Path, exc: tomllib.TOMLDecodeError) -> str:
    """Why the TOML file at ``path`` is not TOML, in the words every kept file's fault is
    said in (:func:`toml_fault`: all zero bytes, cut short after N bytes), from its bytes;
    tomllib's words when they cannot be read again."""
    try:
        data = path.read_bytes()
    except OSError:
        return str(exc)
    return toml_fault(data, exc)


def damage(path: Path, fault: str) -> str:
    """The file at ``path`` and its ``fault``: "not TOML (…)", but for an empty file, which
    tomllib reads (as nothing) and is damage only where the companion always writes
    something."""
    return f"{path}: {fault}" if fault == EMPTY else f"{path}: not TOML ({fault})"


#: :func:`blank_fault`'s words for a file with nothing in it, not even zero bytes.
EMPTY = "the file is empty"


def whole_toml(path: Path) -> dict[str, Any]:
    """The TOML of a copy a cut write left, which must hold something (an empty one is no
    whole copy); a DataError or OSError when it is not TOML."""
    text = read_text(path, "copy")
    if (fault := blank_fault(text, "file")) is not None:
        raise DataError(f"{path}: {fault}")
    try:
        return loads_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not TOML ({exc})") from None


def damaged_file(path: Path, fault: str, *, typed: bool, start_again: str, lost: str,
                 whole: str, reads: Callable[[Path], object]) -> str:
    """What is said of the calendar or a sheet at ``path`` found damaged (``fault``): the
    command that moves it aside (under a name nothing has: :func:`aside_name`, reviewh70
    RISK 3) to ``start_again``, and what is ``lost`` then; ``typed``: tomllib's own words,
    a line to mend first. Zero bytes after whole lines are mended instead, those lines kept
    (:func:`_zero_tail_mend`). The copies a write of it cut short left are kept first
    (:func:`keep_cut_writes`), as the next write would delete them unread (reviewh70
    DEFECT 1), and each that ``reads`` as a ``whole`` one is given with the command that
    puts it back instead."""
    aside = aside_name(path)
    move = f"mv {shlex.quote(str(path))} {shlex.quote(str(aside))}"
    mend = None if typed else _zero_tail_mend(path)
    if mend is not None:
        # Its whole lines are kept, not lost: "delete them" then "make the character again
        # …: the HP, MP, items and growth it held are lost" said both (a78saves item 5).
        words = f"{damage(path, fault)}; {mend}"
    else:
        words = (f"{damage(path, fault)}; {'mend that line, or ' if typed else ''}move it "
                 f"aside (`{move}`) to {start_again}: {lost} are lost")
    return words + cut_copies_words(path, whole, reads, move)


def _zero_tail_mend(path: Path) -> str | None:
    """How the file at ``path`` is mended when a power cut left zero bytes after its whole
    lines (:func:`toml_fault`'s "delete them"): the command that keeps those lines (a line
    the zero bytes cut in two goes with them), and what is lost; None when the lines kept
    would hold no TOML table (all zero bytes, cut short, zeros from the first line)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = data.rstrip(b"\0")
    keep = head.rfind(b"\n") + 1
    if head == data or b"\0" in head or keep == 0:
        return None
    try:
        if not parse_user_toml(data[:keep]):
            return None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    lines = data[:keep].count(b"\n")
    return (f"`truncate -s {keep} {shlex.quote(str(path))}` deletes them, keeping lines 1 "
            f"to {lines}, the whole ones: what the file held from line {lines + 1} on is "
            "lost, to be written again by hand")


def sunset_curse_text(rules: GensoRules, curse: DeathCurse, *, table: bool = False) -> str:
    """GM-MAGIC-13: a Death Curse whose target dies at today's sunset, as ``genso fight
    sunset`` says it, after the rule ID (the table said none: fixg67b). ``table``: as the
    table's *GM → Sunset* says it, the target first and without the command that records the
    death (``…/companion genso calendar pass 1`` took a row of the Result): two curses due at
    one sunset were cut at text scale 1.25, the first before its target, who was then named
    nowhere on the screen (reviews68 RISK 3)."""
    spell = rules.spell("death_curse").name
    if table:
        return (f"{curse.target} dies at this sunset, day {curse.dies_on}: {spell}, "
                f"{curse.caster}'s (cast on day {curse.cast_on}), unless {curse.caster} "
                "lifts it first")
    return (f"{spell}: {curse.target} dies at this sunset, day "
            f"{curse.dies_on}, of {curse.caster}'s curse (cast on day {curse.cast_on}), unless "
            f"{curse.caster} lifts it first (`{companion_command()} genso calendar pass 1` "
            "records it)")


def file_option(path: Path) -> str:
    """`` --file PATH`` for a command on the fight at ``path``; nothing for the default one,
    so a command printed for another fight acts on that fight, not the default."""
    return any_file_option(path, default_fight_path())


def apply_command(path: Path) -> str:
    """The ``fight apply`` command that writes the results of the fight at ``path``."""
    return f"{companion_command()} genso fight apply{file_option(path)}"


#: What ``fight apply --done NAME`` records in a fight's ``applied`` for a sheet in which
#: the player made the fight's changes by hand (review63c RISK 4): no sheet's digest, so
#: no apply writes that sheet again, and ``fight new`` counts it as done.
APPLIED_BY_HAND = "by hand"


def results(character: Character) -> dict[str, Any]:
    """What ``fight apply`` writes of a character into its sheet: HP and MP (GM-COMBAT-8,
    GM-MAGIC-1), the mana stones' MP (GM-ITEM-1), the Ring of Storage's ``storage_mp``
    (GM-ITEM-3) and the pack, where a stone used is ``used:KEY`` (GM-ITEM-2)."""
    return {"hp": character.hp, "mp": character.mp,
            "mana_stones": list(character.mana_stones), "storage_mp": character.storage_mp,
            "equipment": list(character.equipment)}


def applied_record(head: str, character: Character) -> str:
    """A fight's ``applied`` record of a sheet: ``head``, the digest of the sheet apply
    wrote (or :data:`APPLIED_BY_HAND`), then the :func:`results` it took, as JSON, so a
    later apply can tell what the fight changed since (review63e DEFECT 1). Still a
    string, as an older companion's loader wants; one reads it as a digest no sheet has."""
    return f"{head} " + json.dumps(results(character), ensure_ascii=False, sort_keys=True,
                                   separators=(",", ":"))


def applied_head(record: str) -> str:
    """The digest (or :data:`APPLIED_BY_HAND`) of an ``applied`` record; a record from
    before :func:`applied_record` is that alone."""
    head, brace, _ = record.partition(" {")
    return head if brace else record


def applied_results(record: str) -> dict[str, Any] | None:
    """The :func:`results` an ``applied`` record keeps; None for a record from before
    :func:`applied_record` (only a digest, or ``"by hand"``) or one whose JSON is not
    theirs."""
    _, brace, rest = record.partition(" {")
    if not brace:
        return None
    try:
        kept = json.loads("{" + rest)
    except ValueError:
        return None
    ints = ("hp", "mp", "storage_mp")
    if not isinstance(kept, dict) or set(kept) != {*ints, "mana_stones", "equipment"} \
            or not all(type(kept[k]) is int for k in ints) \
            or not isinstance(kept["mana_stones"], list) \
            or not isinstance(kept["equipment"], list) \
            or not all(type(v) is int for v in kept["mana_stones"]) \
            or not all(isinstance(v, str) for v in kept["equipment"]):
        return None
    return kept


@dataclass(frozen=True)
class SheetWrite:
    """One sheet file as ``fight apply`` would leave it: ``now`` the digest of the file as it
    is, ``new`` that of ``document``, the file with ``after`` written in; ``changed`` when
    the file is not as this fight's apply left it or, never applied, not as the fight began,
    so something else wrote it since (``genso rest``, another fight's apply, a hand) and
    apply does not write over that. A sheet applied, then brought back to its text at the
    start (a night's sleep refilling the MP a fight spent), counts as changed: the fight's
    results were written over it once already (review63c DEFECT 1). ``text`` is the file
    as it is."""

    entrant: Entrant
    sheet: Path
    after: Character
    document: tomlkit.TOMLDocument
    now: str
    new: str
    changed: bool
    text: str = ""

    @property
    def pending(self) -> bool:
        """``fight apply`` would write this file: it lacks the results and is not refused."""
        return self.now != self.new and not self.changed


def sheet_write(fight: Fight, entrant: Entrant) -> SheetWrite:
    """What ``fight apply`` would write to the sheet file ``entrant`` came from; a sheet gone
    is refused naming it, one unreadable by :func:`read_text`'s error."""
    sheet = Path(entrant.origin)
    if not sheet.exists():
        raise DataError(f"{sheet} is gone since the fight began")
    text = read_text(sheet, "sheet")
    after = fight.character_after(entrant)
    document = sheet_document_over(fight.rules, text, after, str(sheet))
    now = digest(text)
    record = fight.applied.get(entrant.name)
    return SheetWrite(entrant, sheet, after, document, now, digest(tomlkit.dumps(document)),
                      now != (entrant.digest if record is None else applied_head(record)),
                      text)


@dataclass(frozen=True)
class Unwritten:
    """A PC from a sheet file whose file does not hold what the fight left it; ``gone`` when
    the file is no longer there (nothing can write it)."""

    name: str
    sheet: str
    gone: bool


def unwritten(fight: Fight) -> list[Unwritten]:
    """The PCs from sheet files whose file ``fight apply`` would write (:attr:`SheetWrite.pending`),
    the fight over or not. A sheet unreadable counts, so ``fight apply`` gets to say why; one
    changed since the fight began does not, as apply refuses it and nothing can be written."""
    pending = []
    for entrant in fight.entrants:
        if entrant.monster or not entrant.origin:
            continue
        gone = not Path(entrant.origin).exists()
        try:
            write = None if gone else sheet_write(fight, entrant)
        except (DataError, OSError):
            write = None
        if write is None or write.pending:
            pending.append(Unwritten(entrant.name, entrant.origin, gone))
    return pending
