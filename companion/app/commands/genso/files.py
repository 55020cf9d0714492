"""Where ``companion genso`` keeps its files and how it reads them: the rules with the
user's overrides, character sheets (a file, a saved character or a preset), the fight
file's path, and a sheet brought into a fight with its digest.
"""

from __future__ import annotations

import argparse
import shlex
import unicodedata
from pathlib import Path

from companion.app.command_name import companion_command

# characters_dir and sheet_path: the genso commands' too, beside kept_name, which reads them.
from companion.app.modes.genso_fight_files import characters_dir as characters_dir
from companion.app.modes.genso_fight_files import (
    damaged_file,
    default_fight_path,
    digest,
    kept_toml,
    whole_toml,
)
from companion.app.modes.genso_fight_files import sheet_path as sheet_path
from companion.app.overrides import read_text, set_values, user_defaults, user_rules
from companion.errors import DataError
from companion.file_locks import real_path
from companion.files import file_there
from companion.systems.genso.character.core import Character
from companion.systems.genso.combat import Entrant, Side
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import GensoRules, Monster, load_rules
from companion.systems.genso.sheet import character_from_mapping, preset

SET_EXAMPLE = "GM-COMBAT-8.strict_4_6=true"
OVERRIDES_NAME = "genso.toml"
#: The companion's own example sheets: docs/examples/ of its checkout, beside the package (as
#: coc's table finds them); not there in a package installed without its source.
EXAMPLES = Path(__file__).resolve().parents[4] / "docs" / "examples"


def fight_path(args: argparse.Namespace) -> Path:
    return Path(args.file) if getattr(args, "file", None) else default_fight_path()


def sheet_changer(verb: str) -> str:
    """Who holds a sheet file while ``genso <verb>`` reads, changes and writes it, as its
    lock file says and another command waiting for it is told (the calendar's ``CHANGER``)."""
    return f"companion genso {verb}, changing the sheet"


#: The one ending a sheet file is read by (:func:`resolve_sheet`), so the one it is written by.
SHEET_SUFFIX = ".toml"


def sheet_out(option: str, value: str) -> Path:
    """The file ``genso new --out`` or ``genso sheet --save-as`` writes a sheet to: only a
    ``.toml`` one, as no command reads any other back (``--out Ken.txt`` was saved and then
    'no sheet'), and none in the companion's own examples folder (:data:`EXAMPLES`), as the
    commands that change a sheet refuse one there (:func:`not_an_example`): ``--force``
    wrote over the checkout's aki.toml, which ``git pull`` then stopped on (r78journey,
    after a78journey RISK 2). Refused naming the option, before anything is rolled or
    written."""
    path = Path(value)
    if path.suffix != SHEET_SUFFIX:
        better = path.with_suffix(SHEET_SUFFIX) if path.name else "a file ending .toml"
        raise DataError(f"{option} {value!r}: a sheet is read back from a {SHEET_SUFFIX} "
                        f"file only (give {better})")
    if _in_examples(path):
        raise DataError(f"{option} {value!r} is in the companion's own examples folder "
                        f"{EXAMPLES}, where genso writes no sheet (a `git pull` stops on a "
                        "file changed there): give a file elsewhere, e.g. "
                        f"{option} {shlex.quote(str(characters_dir() / path.name))}")
    return path


def _in_examples(path: Path) -> bool:
    """Whether ``path`` is in the companion's own examples folder (:data:`EXAMPLES`),
    followed through links."""
    return real_path(path).is_relative_to(real_path(EXAMPLES))


def monster_not_sheet(rules: GensoRules, ref: str, exc: DataError) -> Monster:
    """The monster ``ref`` names where a sheet was looked for (:func:`resolve_sheet`) and
    ``exc``, "no sheet …", said there is none: for the caller to say it is a monster, and
    how it is used (GM-MON-7). ``exc`` is raised again for another fault, or when ``ref``
    names no monster either."""
    if not str(exc).startswith("no sheet "):
        raise exc
    try:
        return rules.monster(ref)
    except DataError:
        raise exc from None


class AmbiguousSheet(DataError):
    """A name :func:`resolve_sheet` finds two sheets by, each in another case: refused
    wherever a sheet is looked for, also where a name of no sheet is taken as typed (the
    calendar's NPC of the GM's)."""


def resolve_sheet(rules: GensoRules, ref: str) -> tuple[Character, Path | None]:
    """A sheet by file path, by saved character name, or a preset key (not saved back).

    A saved character's name and a preset key are matched as typed first (a saved ``pc1``
    before the preset, reviewz70), then in any case and width (``KIT`` is the saved
    ``Kit``, ``PC1`` the preset ``pc1``), as a fight's ACTOR and TARGET and a monster key
    are (fixg72b, reviewg72 RISK 2: ``Kit`` was 'no sheet' as ``kit``). Two that answer to
    it only so (``Ben`` and ``ben`` saved, ``BEN`` typed) are refused, naming each: each is
    still named by its own spelling."""
    path = Path(ref)
    if path.suffix == SHEET_SUFFIX and file_there(path):
        return read_sheet(rules, path, None), path
    saved = sheet_path(ref)
    if file_there(saved):
        return read_sheet(rules, saved, ref), saved
    if ref in rules.presets:
        return preset(rules, ref), None
    folded = _folded(saved.stem)
    found: list[Path | str] = [*_saved_in_any_case(saved)]
    found += [key for key in rules.presets if _folded(key) == folded]
    if len(found) > 1:
        said = " or ".join(f"the saved character {f.stem!r} ({f})" if isinstance(f, Path)
                           else f"the preset {f!r}" for f in found)
        names = [f.stem if isinstance(f, Path) else f for f in found]
        raise AmbiguousSheet(f"{ref!r} could be {said}, apart only by "
                             f"{apart_by(ref, names)}: give the name as it is written")
    if found and isinstance(found[0], Path):
        return read_sheet(rules, found[0], found[0].stem), found[0]
    if found:
        return preset(rules, str(found[0])), None
    raise DataError(f"no sheet {ref!r}: give a .toml file, a saved character "
                    f"({characters_dir()}) or a preset ({', '.join(rules.presets)})")


def as_typed(rules: GensoRules, ref: str) -> bool:
    """Whether :func:`resolve_sheet` finds ``ref`` as written (a sheet file, a saved
    character, a preset key), not only in another case: a monster key as written comes
    before a sheet found so (``check --vs orc`` beside a saved ``Orc``)."""
    path = Path(ref)
    return (path.suffix == SHEET_SUFFIX and file_there(path)) or file_there(sheet_path(ref)) \
        or ref in rules.presets


def _folded(name: str) -> str:
    """A saved character's or preset's name as it is matched in any case and width."""
    return fold_name(name).casefold()


def apart_by(ref: str, names: list[str]) -> str:
    """How ``ref`` and the ``names`` it matched in any case and width differ, for a refusal:
    ``case``, or ``case or width`` when one differs in width too (``ｋｉｔ`` for ``Kit``:
    reviewa73 NIT 8, said "case" for a width)."""
    wide = any(unicodedata.normalize("NFKC", n) != n for n in (ref, *names))
    return "case or width" if wide else "case"


def saved_twins(saved: Path) -> list[Path]:
    """The other sheets in the characters folder that :func:`resolve_sheet` takes for
    ``saved``'s name in another case or width (Kit.toml beside kit.toml)."""
    return [p for p in _saved_in_any_case(saved) if p.name != saved.name]


def _saved_in_any_case(saved: Path) -> list[Path]:
    """The sheets in the characters folder whose name is ``saved``'s in another case or
    width (Kit.toml for kit.toml), in name order; none when the folder cannot be read."""
    folded = _folded(saved.stem)
    try:
        there = sorted(saved.parent.iterdir())
    except OSError:
        return []
    return [p for p in there if p.suffix == SHEET_SUFFIX and _folded(p.stem) == folded
            and p.is_file()]


def read_sheet(rules: GensoRules, path: Path, name: str | None) -> Character:
    """The character on the sheet file ``path`` (the saved character ``name``, None: a file
    given by its path). One a power cut left all zero bytes or cut short (``genso new``,
    ``buy``, ``rest`` and ``fight apply`` write sheets) is said so, with how to make the
    character again and what is lost (hist70 D2: tomllib's "Invalid statement (at line 1,
    column 1)" told none of it); other faults, a player's typing, by tomllib's line."""
    # An empty sheet is a power cut's too (reviewh70 NIT 4: "missing field 'name'").
    raw, fault, typed = kept_toml(path, read_text(path, "sheet"))
    if typed:
        raise DataError(f"{path}: not TOML ({fault})")
    if fault is not None:
        again = (f"{companion_command()} genso new {shlex.quote(name)} …" if name is not None
                 else f"{companion_command()} genso new NAME … --out {shlex.quote(str(path))}")
        raise DataError(damaged_file(
            path, fault, typed=False,
            start_again=f"make the character again (`{again}`) or write its sheet again by "
                        "hand", lost="the HP, MP, items and growth it held", whole="sheet",
            reads=lambda copy: character_from_mapping(rules, whole_toml(copy), str(copy))))
    return character_from_mapping(rules, raw, str(path))


def not_an_example(path: Path, name: str) -> None:
    """Refuse the sheet file ``path`` of the character ``name`` if it is one of the
    companion's own examples (:data:`EXAMPLES`), before a command that changes it (``buy``,
    ``sell``, ``gear``, ``grow``, ``rest``) or a fight whose ``fight apply`` would: played in
    place, the checkout's tracked file was changed and the README's update, ``git pull``,
    stopped on it (a78journey RISK 2). The refusal gives the copy to make, into the
    characters folder, where ``name`` finds it, its comments kept."""
    if not _in_examples(path):
        return
    copy = sheet_path(name)
    why = (f"{path} is one of the companion's own example sheets, which genso does not "
           "change (a `git pull` stops on a changed one)")
    if copy.exists():
        raise DataError(f"{why}: a sheet {copy} is saved already; give {name!r} to play it, "
                        "or copy this one under another name")
    make = "" if copy.parent.is_dir() else f"mkdir -p {shlex.quote(str(copy.parent))} && "
    raise DataError(f"{why}: copy it first, `{make}cp {shlex.quote(str(path))} "
                    f"{shlex.quote(str(copy))}`, then give {name!r}")


def fight_entrant(rules: GensoRules, ref: str, side: Side = Side.PARTY,
                  as_monster: bool = False) -> Entrant:
    """A fight entrant from a sheet reference, remembering the file and its digest; one of
    the companion's example sheets is refused (:func:`not_an_example`), as ``fight apply``
    would write it."""
    character, path = resolve_sheet(rules, ref)
    if path is not None and not as_monster:
        not_an_example(path, character.name)
    if path is None:
        return Entrant.of_character(character, side, as_monster)
    return Entrant.of_character(character, side, as_monster,
                                origin=str(path.resolve()),
                                digest=digest(read_text(path, "sheet")))


def load_user_rules(settings: list[str]) -> GensoRules:
    """Packaged rules with the user's file and ``--set`` overrides applied."""
    return user_rules(load_rules(), OVERRIDES_NAME, settings, SET_EXAMPLE)


def saved_fight_rules(settings: list[str]) -> GensoRules:
    """The rules a saved fight falls back on: the user's file and ``--set`` without the ranges
    checked since (GM-COMBAT-8, GM-CHECK-6 …). A fight replays under the settings
    its file keeps, one from before fights kept them under the user's file as it was played,
    and an out-of-range Default there must not stop a fight in progress opening; a new
    fight, a check and `genso defaults` refuse it, naming the file. An action's --set is
    checked where the fight takes it."""
    origin, defaults = user_defaults(OVERRIDES_NAME)
    rules = load_rules().with_overrides(defaults, origin, limits=False)
    for problem in rules.settings.not_chosen():  # genso has always refused these
        raise DataError(f"{origin}: {problem}")
    return rules.with_overrides(set_values(settings, SET_EXAMPLE), "--set", limits=False)
